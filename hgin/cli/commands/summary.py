"""`hgin summary`: the match summary for the terminal, a chat, a printer or a spreadsheet; `hgin
settle`: who pays whom."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import typer

from hgin.cli.application import app, echo, notify, saving, scorekeeper
from hgin.cli.options import ForceFlag, JsonFlag, MatchOption, OutputOption
from hgin.cli.streams import output_format, print_document, print_json
from hgin.reports.symbols import escaped

SummaryFormat = Literal["text", "markdown", "html", "svg", "csv", "json"]


@app.command()
def summary(
    match: MatchOption = None,
    form: Annotated[
        SummaryFormat | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="text for the terminal, markdown for a chat message, html or svg to print (one "
            "A4 page), csv for a spreadsheet (a row per hand), json for scripts. Default: from "
            "the -o file's extension, else text.",
            show_default=False,
        ),
    ] = None,
    output: OutputOption = None,
    force: ForceFlag = False,
) -> None:
    """Print a match summary: rules, result, games with bonuses, and every hand."""
    keeper = scorekeeper()
    target = None if output is None else keeper.output_target(output, force=force)
    chosen = output_format(output, form, allowed=get_args(SummaryFormat))
    loaded, notices = keeper.read(match)
    if chosen == "text" and target is None:
        from hgin.cli.render import summary_view

        echo(summary_view(loaded))
    else:
        from hgin.cli.summary_formats import BUILDERS

        content = BUILDERS[chosen](loaded)
        if target is None:
            print_document(content, chosen)
        else:

            def written(path: object) -> None:
                echo(f"Wrote the {chosen} summary of match {loaded.id} to {escaped(str(path))}")

            saving(lambda: keeper.write_output(target, content), written)
    notify(notices)


STAKE_NOTES = {
    "match": "Stake: the match's own ('hgin rules set stake' changes it).",
    "config": "Stake: the default in config.toml ('hgin config' shows it).",
}


@app.command()
def settle(
    stake: Annotated[
        str | None,
        typer.Option(
            "--stake",
            "-s",
            metavar="AMOUNT",
            help="Money per point, e.g. 0.05 (overrides the match's stake and config.toml).",
        ),
    ] = None,
    currency: Annotated[
        str | None,
        typer.Option("--currency", "-c", metavar="TEXT", help="Printed after amounts: EUR, €."),
    ] = None,
    as_json: JsonFlag = False,
    match: MatchOption = None,
) -> None:
    """Settle up: each closed game's winner wins the difference of the two totals in it."""
    settled = scorekeeper().settle(match, stake=stake, currency=currency)
    from hgin.reports.settlement import settlement_dict, settlement_lines

    settlement = settled.settlement
    if as_json:
        print_json({"id": settled.match.id, **settlement_dict(settlement, settled.currency)})
        notify(settled.notices)
        return
    from hgin.cli.render import match_title

    lines = settlement_lines(settlement, settled.currency)
    if settled.stake_from in STAKE_NOTES:
        lines.append(STAKE_NOTES[settled.stake_from])
    echo(match_title(settled.match), *lines)
    notify(settled.notices)
