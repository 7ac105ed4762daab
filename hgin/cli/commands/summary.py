"""`hgin summary`: the match summary for the terminal, a chat, a printer or a spreadsheet."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import typer

from hgin.cli.application import (
    ForceFlag,
    MatchOption,
    OutputOption,
    app,
    notify,
    saving,
    scorekeeper,
)
from hgin.cli.streams import print_document

SummaryFormat = Literal["text", "markdown", "html", "svg", "csv", "json"]

FORMAT_HELP = (
    "text for the terminal, markdown for a chat message, html or svg to print (one A4 page), "
    "csv for a spreadsheet (a row per hand), json for scripts."
)


@app.command()
def summary(
    match: MatchOption = None,
    form: Annotated[
        SummaryFormat | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help=FORMAT_HELP + " Default: from the -o file's extension, else text.",
            show_default=False,
        ),
    ] = None,
    output: OutputOption = None,
    force: ForceFlag = False,
) -> None:
    """Print a match summary: rules, result, games with bonuses, and every hand."""
    from hgin.cli.output import output_format

    keeper = scorekeeper()
    target = None if output is None else keeper.output_target(output, force=force)
    chosen = output_format(output, form, allowed=get_args(SummaryFormat), default="text")
    loaded, notices = keeper.read(match)
    if chosen == "text" and target is None:
        from hgin.cli.render import print_summary

        print_summary(loaded)
        notify(notices)
        return
    from hgin.cli.summary_formats import build_summary

    content = build_summary(loaded, chosen)
    if target is None:
        print_document(content, chosen)
        notify(notices)
        return

    def written(path: object) -> None:
        typer.echo(f"Wrote the {chosen} summary of match {loaded.id} to {path}")
        notify(notices)

    saving(lambda: keeper.write_output(target, content), written)
