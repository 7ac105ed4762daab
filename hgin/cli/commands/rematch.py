"""`hgin rematch`: the next match after a finished one, as 'new' does in 'hgin play'."""

from __future__ import annotations

from typing import Annotated

import typer

from hgin.cli.application import MatchOption, app, complete_player, scorekeeper


@app.command()
def rematch(
    match: MatchOption = None,
    dealer: Annotated[
        str | None,
        typer.Option(
            "--dealer",
            "-d",
            help="Who deals first (else whoever the rules give the next deal to).",
            autocompletion=complete_player,
        ),
    ] = None,
) -> None:
    """Start the next match after the finished one: the same players and rules in force; in
    a series, its next match."""
    started = scorekeeper().rematch(match, dealer=dealer)
    from hgin.cli.render import print_sheet

    print_sheet(started.match, started.notes)
