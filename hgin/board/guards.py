"""Guards around uvicorn (h11) for the board, which faces whatever else is on the network.

- every request must arrive whole (headers and body) within REQUEST_TIMEOUT seconds of the
  connection being made or of the previous answer, else the connection is closed: a client
  sending half a request holds nothing for long (the app then sees a disconnect);
- one address may hold PER_CLIENT open connections (one beyond is closed at once, unread), and
  all together stay FD_HEADROOM below the file limit: when full, a new connection takes the
  place of the oldest one between requests (half-open or idle), else it is closed unread;
- on shutdown (Ctrl-C, SIGTERM) a request whose body has not all come is cut at once, so the
  shutdown does not wait on it;
- `accept()` failing for want of files (EMFILE) is said once, not logged in a flood.

uvicorn's own options do not cover these: its keep-alive timeout starts only after an answer,
its concurrency limit answers only whole request heads, and its h11 size limit is not a time.
The guards use uvicorn's h11 protocol class from inside (its `conn`, `cycle`, `connections`
and `shutdown`): the board extra pins uvicorn's minor version, and the board's process tests
hold these promises.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 10.0  # seconds to send a whole request
PER_CLIENT = 32  # open connections one address may hold
FD_HEADROOM = 64  # files kept free for everything but connections
ACCEPT_BATCH = 16  # connections accepted per turn of the loop (asyncio's `backlog`)
LISTEN_QUEUE = 128  # the kernel's queue of connections not yet accepted

logger = logging.getLogger("uvicorn.error")


def _open_files_limit() -> int:
    """The soft limit on open files, raised towards the hard one (to 4096 at most)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
        if wanted > soft:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
                soft = wanted
            except (ValueError, OSError):
                pass
    return soft


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a time limit per request and caps on connections."""

    max_connections = 128  # set by BoardServer from the file limit
    per_client = PER_CLIENT
    request_timeout = REQUEST_TIMEOUT

    _refused = False
    _since = 0.0
    host: str | None = None
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) else None
        mine = [c for c in self.connections if isinstance(c, GuardedH11) and c.host == host]
        if host is not None and len(mine) >= self.per_client:
            self._refuse(transport)
            return
        if len(self.connections) >= self.max_connections and not self._evict_oldest_idle():
            self._refuse(transport)
            return
        super().connection_made(transport)
        self.host = host
        self._since = self.loop.time()
        self._arm()

    def _refuse(self, transport: asyncio.Transport) -> None:
        self._refused = True
        self.transport = transport
        transport.abort()  # closed before anything is read: the file is free at once

    def _evict_oldest_idle(self) -> bool:
        """Close the oldest connection that is not in a request (half-open or kept alive)."""
        idle = [c for c in self.connections if isinstance(c, GuardedH11) and c._between_requests()]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c._since)
        self.connections.discard(oldest)  # counted out now: its transport closes soon
        oldest.transport.abort()
        return True

    def _between_requests(self) -> bool:
        return (
            self.conn.their_state is h11.IDLE
            and (self.cycle is None or self.cycle.response_complete)
            and not self.transport.is_closing()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own time

    def shutdown(self) -> None:
        if self._refused:
            return
        if self.conn.their_state is h11.SEND_BODY:
            self.transport.close()  # a body still coming: the app sees a disconnect now
        else:
            super().shutdown()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        # IDLE: no whole request head yet; SEND_BODY: the body is not all there.
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()


class BoardServer(uvicorn.Server):
    """uvicorn's server with the guards above."""

    _said_full = False

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        GuardedH11.max_connections = max(16, _open_files_limit() - FD_HEADROOM)
        asyncio.get_running_loop().set_exception_handler(self._loop_error)
        await super().startup(sockets=sockets)
        for sock in sockets or []:
            sock.listen(LISTEN_QUEUE)  # asyncio listened with ACCEPT_BATCH: the queue is longer

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == "socket.accept() out of system resource":
            if not self._said_full:  # asyncio retries by itself a second later
                self._said_full = True
                logger.warning("too many open connections: new ones wait")
            return
        loop.default_exception_handler(context)


def board_config(app: Any) -> uvicorn.Config:
    """uvicorn's settings for the board: the guarded protocol, quiet, and a short accept
    batch (asyncio accepts that many connections a turn: a burst at the default would take
    every file at once)."""
    return uvicorn.Config(
        app,
        http=GuardedH11,
        log_level="warning",
        access_log=False,
        lifespan="on",
        server_header=False,
        backlog=ACCEPT_BATCH,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=3,  # backstop only: a task still running then is cancelled
    )
