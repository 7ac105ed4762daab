"""`hgin settle`: who pays whom, game by game, in points and at a stake in money."""

from __future__ import annotations

from typing import Annotated

import typer

from hgin.cli.application import JsonFlag, MatchOption, app, notify, scorekeeper
from hgin.cli.streams import print_json

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
        data = {"id": settled.match.id, **settlement_dict(settlement, settled.currency)}
        print_json(data)
        notify(settled.notices)
        return
    first, second = settled.match.players
    lines = [f"{first} v {second} · match {settled.match.id}"]
    lines += settlement_lines(settlement, settled.currency)
    if settled.stake_from in STAKE_NOTES:
        lines.append(STAKE_NOTES[settled.stake_from])
    from hgin.cli.console import print_views

    print_views(*lines)
    notify(settled.notices)
