"""Getting started and the table: `hgin demo` plays a sample match in a throw-away folder,
`hgin config` shows the settings file and what is in force, `hgin board` serves the sheet to
the phones and TVs at the table (its server and libraries, the `board` extra, are imported only
when it runs)."""

from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Literal

import typer

from hgin.cli.application import app, echo, saving, scorekeeper
from hgin.cli.options import JsonFlag, MatchOption
from hgin.cli.streams import print_json
from hgin.engine.rules import PROFILES
from hgin.errors import HginError
from hgin.play.parser import parse_entry
from hgin.reports.narrate import describe_new
from hgin.reports.symbols import escaped

# The friendly profile's worked example (30, then a gin against 18, then 35) in a whole match.
DEMO_HANDS: tuple[tuple[str, ...], ...] = (
    ("knock", "Ann", "4", "34"),
    ("draw",),
    ("gin", "Ann", "18"),
    ("knock", "Bob", "5", "27"),
    ("knock", "Ann", "3", "38"),
    ("knock", "Bob", "9", "7"),
    ("gin", "Bob", "30"),
    ("gin", "Bob", "20"),
    ("knock", "Bob", "2", "58"),
)


@app.command()
def demo(
    rules: Annotated[
        Literal["friendly", "classic"], typer.Option("--rules", "-r", help="The rules to play.")
    ] = "friendly",
) -> None:
    """Play a sample match in a throw-away folder; your own matches are not touched."""
    from hgin.cli.render import print_sheet

    profile = PROFILES[rules]
    with tempfile.TemporaryDirectory(prefix="hgin-demo-") as folder:
        keeper = scorekeeper(Path(folder))
        echo(f"$ hgin new Ann Bob --rules {profile.profile} --dealer Bob")
        match = keeper.new_match("Ann", "Bob", profile, dealer="Bob")
        echo(describe_new(match, chosen=True))
        for words in DEMO_HANDS[:-1]:  # each hand's sentence; the sheet once, at the end
            echo("$ hgin " + " ".join(words), *keeper.record(parse_entry(words)).lines)
        echo("$ hgin " + " ".join(DEMO_HANDS[-1]))
        outcome = keeper.record(parse_entry(DEMO_HANDS[-1]))
        print_sheet(outcome.match, outcome.lines)
    echo(*NEXT_STEPS)


NEXT_STEPS = (
    "",
    "Your turn ('hgin summary' tells a match hand by hand):",
    "  hgin new NAME1 NAME2   start a match (first dealer by lot)",
    "  hgin gin NAME 18       after each hand; or knock NAME 7 12, or draw",
    "  hgin play              a whole match, one short line a hand",
)


@app.command("config")
def show_config(
    init: Annotated[
        bool,
        typer.Option("--init", help="Write a commented starter file (never over an existing one)."),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Show where the settings file is, whether it exists, and the defaults 'hgin new' uses."""
    keeper = scorekeeper()
    if init:
        note = "remove the # in front of a setting to use it"
        saving(keeper.init_config, lambda path: echo(f"Wrote {escaped(str(path))}: {note}."))
        return
    config = keeper.config()
    in_force = config.in_force()
    if as_json:
        data = {
            "path": str(config.path),
            "exists": config.exists,
            "in_force": in_force,
            "ascii": config.ascii is True,
        }
        print_json(data)
        return
    lines = ["Settings file:", f"  {config.path}"]
    if not config.exists:
        lines.append("  (not there: 'hgin config --init' writes a starter)")
    lines.append("Defaults for 'hgin new':")
    sources = {"config": "set in the file", "default": "default", "rules": "from the rules"}
    for key, item in in_force.items():
        value = item["value"]
        if key == "players":
            value = " and ".join(value) if value else "not set: name them, 'hgin new ANN BOB'"
        source = sources.get(item["from"])
        lines.append(f"  {key:<8} {value}" + (f"  ({source})" if source else ""))
    if config.ascii:
        lines.append("Drawing: plain ASCII, no symbols (set in the file)")
    echo(*lines)  # a long path or value wraps at the width; piped, lines stay whole


EVERY_ADDRESS = "0.0.0.0"
LOOPBACK = "127.0.0.1"
MAX_PORT = 65535
NEEDS_EXTRA = (
    'the board needs the board extra: pip install "hgin[board]" (from a clone: '
    'pip install ".[board]")'
)


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
    port: Annotated[
        str,
        typer.Option(
            "--port",
            "-p",
            metavar="PORT",
            help="Listen on this port (1 to 65535).",
            show_default=True,
        ),
    ] = "8765",
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
    number = int(port) if port.isascii() and port.isdigit() else 0
    if not 1 <= number <= MAX_PORT:
        raise typer.BadParameter(
            f"a port is a number from 1 to {MAX_PORT}, not {port[:20]!r}", param_hint="'--port'"
        )
    keeper = scorekeeper()
    shown = keeper.choose(match).id if match is not None else None
    try:
        from hgin.board.serve import Board, terminal_qr
    except ModuleNotFoundError as missing:
        if (missing.name or "hgin").partition(".")[0] == "hgin":
            raise
        raise HginError(NEEDS_EXTRA) from None
    chosen = LOOPBACK if local else host or EVERY_ADDRESS
    served = Board(keeper, match=shown, host=chosen, port=number, scorer=scorer)
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
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn has stopped: Ctrl-C is the way out
        typer.echo("Ctrl-C stops the board.")  # from here on, Ctrl-C says it stopped
        served.run()
    typer.echo("Board stopped.")
