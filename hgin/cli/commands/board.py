"""`hgin board`: the sheet live on the phones and TVs at the table, and a phone that enters
hands. The server and its libraries (the `board` extra) are imported only here, when it runs."""

import contextlib
import sys
from typing import Annotated

import typer

from hgin.cli.application import MatchOption, app, scorekeeper
from hgin.errors import HginError

EVERY_ADDRESS = "0.0.0.0"
LOOPBACK = "127.0.0.1"
NEEDS_EXTRA = 'the board needs the board extra: pip install "hgin[board]"'


@app.command()
def board(
    match: MatchOption = None,
    host: Annotated[
        str | None,
        typer.Option(
            "--host",
            metavar="ADDRESS",
            help="Listen on this address (default: all of this machine's, so that phones on "
            "the local network reach it).",
        ),
    ] = None,
    port: Annotated[int, typer.Option("--port", "-p", help="Listen on this port.")] = 8765,
    local: Annotated[
        bool, typer.Option("--local", help="Listen on 127.0.0.1 only: this machine alone.")
    ] = False,
    scorer: Annotated[
        bool,
        typer.Option(
            "--scorer", help="Also serve a page that records hands, at a second secret address."
        ),
    ] = False,
) -> None:
    """Serve the sheet live to phones and TVs on the local network, until Ctrl-C."""
    if local and host is not None:
        raise typer.BadParameter("give --local or --host, not both", param_hint="'--local'")
    keeper = scorekeeper()
    shown = keeper.match_id(match) if match is not None else None
    try:
        from hgin.board.serve import Board, terminal_qr
    except ModuleNotFoundError as missing:
        if (missing.name or "hgin").partition(".")[0] == "hgin":
            raise
        raise HginError(NEEDS_EXTRA) from None
    chosen = LOOPBACK if local else host or EVERY_ADDRESS
    served = Board(keeper, match=shown, host=chosen, port=port, scorer=scorer)
    which = f"match {shown}" if shown is not None else "the current match (whichever it is)"
    typer.echo(f"The board of {which}, live on every page that opens it.")
    pages = [("Read-only page, for every screen at the table:", served.viewer_address)]
    if served.scorer_address is not None:
        scoring = "Scorer page, which records hands (keep it to the players):"
        pages.append((scoring, served.scorer_address))
    drawable = not getattr(sys.stdout, "ascii_only", False)
    for title, address in pages:
        typer.echo(title)
        typer.echo(address)
        typer.echo(terminal_qr(address) if drawable else "(this terminal cannot draw the QR code)")
    typer.echo("Ctrl-C stops the board.")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn has stopped: Ctrl-C is the way out
        served.run()
    typer.echo("Board stopped.")
