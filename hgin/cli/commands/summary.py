"""`hgin summary`: the match summary for the terminal, a chat, a printer or a spreadsheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from hgin.cli.app import MatchOption, app
from hgin.cli.summary_formats import SummaryFormat
from hgin.scorekeeper import ScoreKeeper

FORMAT_HELP = (
    "text for the terminal, markdown for a chat message, html or svg to print (one A4 page), "
    "csv for a spreadsheet (a row per hand), json for scripts."
)


@app.command()
def summary(
    match: MatchOption = None,
    form: Annotated[
        SummaryFormat, typer.Option("--format", "-f", help=FORMAT_HELP, show_default=True)
    ] = "text",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write to this file (replaced whole) and say where."),
    ] = None,
) -> None:
    """Print a match summary: rules, result, games with bonuses, and every hand."""
    loaded = ScoreKeeper().load(match)
    to_stdout = output is None or str(output) == "-"
    if form == "text" and to_stdout:
        from hgin.cli.render import print_summary

        print_summary(loaded)
        return
    from hgin.cli.summary_formats import build_summary, write_summary

    content = build_summary(loaded, form)
    if output is None or to_stdout:
        typer.echo(content, nl=False)
        return
    written = write_summary(output, content)
    typer.echo(f"Wrote the {form} summary of match {loaded.id} to {written}")
