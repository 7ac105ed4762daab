"""`hgin play`: a whole match at the table, one line per hand."""

from __future__ import annotations

import typer

from hgin.cli.application import MatchOption, app


@app.command()
def play(match: MatchOption = None) -> None:
    """Enter hands line by line: 'gin ines 18', 'k osk 7 12', 'd', 'u', 'help', 'q'.

    Every hand is saved as it is entered. Works with lines piped in too (no prompt).
    """
    from hgin.cli.play import run_session

    status = run_session(match)
    if status:
        raise typer.Exit(code=status)
