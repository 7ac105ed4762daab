"""Starting, choosing and showing matches: new, use, matches, show, summary, demo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from hgin.cli.application import (
    DealerOption,
    JsonFlag,
    MatchOption,
    app,
    complete_match,
    notify,
    saving,
    scorekeeper,
)
from hgin.cli.rule_options import RuleCommand
from hgin.cli.streams import print_json
from hgin.folder import Folder

if TYPE_CHECKING:
    from hgin.folder import Loaded
    from hgin.scorekeeper import Started


@app.command()
@RuleCommand
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
    dealer: DealerOption = None,
    *,
    rule_values: dict[str, Any],
) -> None:
    """Start a match between NAME1 and NAME2 and make it the current one."""
    if (first is None) != (second is None):
        raise typer.BadParameter(
            "name both players, or neither to play the two named by 'players' in config.toml",
            param_hint="'NAME2'",
        )
    from hgin.cli.render import print_sheet  # drawing is loaded only to draw (not to complete)

    keeper = scorekeeper()

    def started(result: Started) -> None:
        print_sheet(result.match, result.notes)

    saving(
        lambda: keeper.new(first, second, rules=rules, options=rule_values, dealer=dealer), started
    )


@app.command()
def show(match: MatchOption = None, as_json: JsonFlag = False) -> None:
    """Show the score sheet of the current match."""
    loaded = Folder().read(match)
    if as_json:
        print_json(Folder.data_of(loaded.match))
    else:
        from hgin.cli.render import print_sheet  # JSON needs no drawing

        print_sheet(loaded.match)
    notify(loaded.notices)


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
    from hgin.cli.render import print_sheet

    def now_playing(loaded: Loaded) -> None:
        print_sheet(loaded.match, [f"Now playing match {loaded.match.id}."])
        notify(loaded.notices)

    saving(lambda: scorekeeper().use(match), now_playing)
