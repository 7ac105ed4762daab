"""Starting, choosing and showing matches: new, use, matches, show, summary, demo."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from hgin.cli.application import JsonFlag, MatchOption, app, complete_match, complete_player
from hgin.cli.rule_options import with_rule_options
from hgin.cli.streams import print_json
from hgin.scorekeeper import ScoreKeeper


@app.command()
@with_rule_options
def new(
    first: Annotated[
        str | None, typer.Argument(metavar="NAME1", help="First player (default: config).")
    ] = None,
    second: Annotated[
        str | None, typer.Argument(metavar="NAME2", help="Second player (default: config).")
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules", "-r", help="friendly, classic, or a preset saved with 'hgin rules save'."
        ),
    ] = None,
    dealer: Annotated[
        str | None,
        typer.Option(
            "--dealer",
            "-d",
            help="Who deals first (else drawn by lot).",
            autocompletion=complete_player,
        ),
    ] = None,
    *,
    rule_values: dict[str, Any],
) -> None:
    """Start a match between NAME1 and NAME2 and make it the current one."""
    if (first is None) != (second is None):
        raise typer.BadParameter(
            "name both players, or neither to play the two named by 'players' in config.toml",
            param_hint="'NAME2'",
        )
    started = ScoreKeeper().new(first, second, rules=rules, options=rule_values, dealer=dealer)
    from hgin.cli.render import print_sheet

    print_sheet(started.match, started.notes)


@app.command()
def show(match: MatchOption = None, as_json: JsonFlag = False) -> None:
    """Show the score sheet of the current match."""
    keeper = ScoreKeeper()
    if as_json:
        print_json(keeper.show_data(match))
        return
    from hgin.cli.render import print_sheet

    print_sheet(keeper.load(match))


@app.command()
def use(
    match: Annotated[
        str,
        typer.Argument(
            metavar="MATCH",
            help="A match identifier (or its start), or a player: their latest match.",
            autocompletion=complete_match,
        ),
    ],
) -> None:
    """Make another stored match the current one."""
    loaded = ScoreKeeper().use(match)
    from hgin.cli.render import print_sheet

    print_sheet(loaded, [f"Now playing match {loaded.id}."])
