"""What every open page is shown, kept up to date by one watcher for all of them.

The watcher looks at the data folder every `POLL` seconds: which match is current (unless the
board was started on one match) and the stamp of that match's file. Any save, from any process,
replaces the file and so changes its stamp; only then is the match read again (in a worker
thread, without the lock, as every reader reads), worded once by `hgin.reports.board`, and
handed to every page's stream. A page that connects gets the latest view at once.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

from hgin.errors import HginError
from hgin.reports.board import board_view, waiting_view
from hgin.scorekeeper import ScoreKeeper

POINTER_DAMAGED = "?"  # the stamp of a key whose current match cannot be told
POLL = 0.2  # seconds between two looks at the files: a change shows well within a second
HEARTBEAT = 10.0  # seconds of silence after which a stream says it is alive (and finds a
# page that has gone without closing its connection)


class Live:
    """The latest view of the board's match, as JSON, and the streams waiting for the next."""

    def __init__(
        self, keeper: ScoreKeeper, *, match: str | None, stopping: Callable[[], bool]
    ) -> None:
        """`match` is the identifier of the match to show, or None to follow the current one;
        `stopping` says when the server is shutting down (the streams then end)."""
        self.keeper = keeper
        self.match = match
        self.stopping = stopping
        self.key: tuple[str | None, str | None] | None = None
        self.shown: str | None = None  # the identifier of the match the view shows
        self.view = b"{}"
        self.version = 0
        self.closed = False
        self.changed = asyncio.Event()  # set (and replaced) at every new version

    def look(self) -> tuple[str | None, str | None]:
        """Which match to show and its file's stamp: what tells one version from another."""
        try:
            shown = self.match or self.keeper.current_id()
            return shown, self.keeper.stamp(shown) if shown is not None else None
        except HginError:  # a damaged pointer: shown on the page until it is fixed
            return None, POINTER_DAMAGED

    def read(self, key: tuple[str | None, str | None]) -> tuple[str | None, bytes]:
        """The view for `key`: the match read and worded, or why there is none to show."""
        shown, stamp = key
        if shown is None:
            return None, _json(waiting_view(pointer_damaged=stamp == POINTER_DAMAGED))
        try:
            match = self.keeper.load(shown)
        except HginError:  # what is wrong, and where the file is, is said on the laptop
            return None, _json(waiting_view(unreadable=shown))
        series = self.keeper.series_of(match.id) if match.sheet.finished else None
        view = board_view(match, series_in_play=series is not None and not series.finished)
        view["profiles"] = list(self.keeper.profiles())  # for New match: profiles and presets
        return match.id, _json(view)

    def start(self) -> None:
        """Read the first view (before the server answers anyone)."""
        key = self.look()
        self._take(key, self.read(key))

    async def refresh(self) -> None:
        """Read the match again if its file (or the current one) changed since last time."""
        key = self.look()
        if key != self.key:
            # The file may change again while it is read: the next look sees a new stamp.
            self._take(key, await asyncio.to_thread(self.read, key))

    def _take(self, key: tuple[str | None, str | None], read: tuple[str | None, bytes]) -> None:
        self.key = key
        self.shown, self.view = read
        self.version += 1
        self._wake()

    async def watch(self) -> None:
        """Look at the files until the server stops, then end every stream."""
        try:
            while not self.stopping():
                await self.refresh()
                await asyncio.sleep(POLL)
        finally:
            self.closed = True
            self._wake()

    def _wake(self) -> None:
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()

    async def updates(self) -> AsyncIterator[bytes]:
        """A page's server-sent events: the view now, then each new one, until the end."""
        sent = None
        while not self.closed:
            waiting = self.changed  # taken before the check: no version can slip between
            if sent != self.version:
                sent = self.version
                yield b"data: " + self.view + b"\n\n"
                continue
            try:
                await asyncio.wait_for(waiting.wait(), HEARTBEAT)
            except TimeoutError:
                yield b": still here\n\n"


def _json(data: object) -> bytes:
    # One line (an event's data is one line), and names as they are written.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
