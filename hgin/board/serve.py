"""Starting the board: its socket, its addresses and their QR codes, and the server (uvicorn).

uvicorn serves the Starlette application of `hgin.board.app`, with the guards of
`hgin.board.guards` (a time limit per request, caps on connections); the socket is bound here first,
so that a port in use is refused in one line before anything is printed, and the address
printed is the one listened on. uvicorn stops on Ctrl-C: the watcher sees it stopping and
ends every page's stream, so the shutdown does not wait on open pages.
"""

from __future__ import annotations

import io
import socket

import segno

from hgin.board.app import Tokens, board_app
from hgin.board.guards import BoardServer, board_config
from hgin.board.live import Live
from hgin.errors import HginError
from hgin.scorekeeper import ScoreKeeper

ANY_HOST = "0.0.0.0"
LOOPBACK = "127.0.0.1"
QR_BORDER = 2  # modules of quiet zone: a code of a local address stays within 40 columns


class Board:
    """A board ready to serve: its bound socket, its addresses, and the server to run."""

    def __init__(
        self, keeper: ScoreKeeper, *, match: str | None, host: str, port: int, scorer: bool
    ) -> None:
        self.socket = _bind(host, port)
        # The address bound, not a name given to --host: the board serves a Host it listens on
        # (a name could be another site's, pointed here), so a printed name would not open.
        shown_host = _lan_address() if host == ANY_HOST else self.socket.getsockname()[0]
        if ":" in shown_host:
            shown_host = f"[{shown_host}]"
        base = f"http://{shown_host}:{self.socket.getsockname()[1]}/b/"
        self.tokens = Tokens.new(scorer=scorer)
        self.viewer_address = base + self.tokens.viewer
        self.scorer_address = base + self.tokens.scorer if self.tokens.scorer else None
        self.live = Live(keeper, match=match, stopping=self.stopping)
        join = _qr(self.viewer_address).svg_data_uri(scale=6, border=QR_BORDER, light="#fff")
        app = board_app(keeper, self.live, self.tokens, join)
        self.server = BoardServer(board_config(app))

    def stopping(self) -> bool:
        """Whether the server was told to stop (Ctrl-C)."""
        return bool(self.server.should_exit)

    def run(self) -> None:
        """Serve until Ctrl-C (which uvicorn passes on as KeyboardInterrupt once stopped)."""
        self.live.start()
        try:
            self.server.run(sockets=[self.socket])
        finally:
            self.socket.close()


def terminal_qr(address: str) -> str:
    """The QR code of `address` drawn with half blocks, two rows of modules a line (the
    light modules drawn, for a dark terminal; scanners read either way round)."""
    out = io.StringIO()
    _qr(address).terminal(out=out, compact=True, border=QR_BORDER)
    return out.getvalue().rstrip("\n")


def _qr(address: str) -> segno.QRCode:
    return segno.make(address, micro=False)


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket; a host or port that cannot be had is refused in one line."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listening = socket.socket(family, socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise HginError(f"cannot listen on {host}: {_reason(error)}") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except (OSError, OverflowError) as error:
        listening.close()
        raise HginError(
            f"cannot listen on {host} port {port}: {_reason(error)} (give another with --port)"
        ) from None
    return listening


def _reason(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error)


def _lan_address() -> str:
    """This machine's address on the local network, as the phones at the table reach it:
    the one a datagram to the outside would leave from (nothing is sent); the loopback
    address when there is no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: never reached
            address: str = probe.getsockname()[0]
        except OSError:
            return LOOPBACK
    return address
