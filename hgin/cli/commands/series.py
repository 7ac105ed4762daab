"""`hgin series`: matches grouped into a series to a target (standard match play to 500)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from hgin.cli.application import HginTyper, app, echo, saving, scorekeeper
from hgin.cli.options import DealerOption, JsonFlag, NextDealerOption
from hgin.cli.rule_options import RuleCommand
from hgin.cli.streams import print_json
from hgin.reports.narrate import describe_left, describe_new

if TYPE_CHECKING:
    from hgin.engine.series import Standing
    from hgin.scorekeeper import SeriesStarted

series_app = HginTyper(rich_markup_mode=None)
app.add_typer(series_app, name="series")
SERIES_TO = 500
NO_SERIES = f"No series yet: start one with 'hgin series new NAME1 NAME2 --to {SERIES_TO}'."

SeriesOption = Annotated[
    str | None,
    typer.Option("--series", "-s", help="The series (identifier or its start); else the current."),
]


def standing_to_dict(state: Standing) -> dict[str, Any]:
    series = state.series
    return {
        "id": series.id,
        "players": list(series.players),
        "target": series.target,
        "matches": [
            {"id": match_id, "totals": totals, "winner": winner}
            for match_id, totals, winner in state.per_match
        ],
        "in_play": state.in_play,
        "totals": state.credited,
        "matches_won": state.matches_won,
        "finished": state.finished,
        "winner": state.winner,
    }


def print_standing(state: Standing, lines: list[str]) -> None:
    from hgin.cli.render import standing_view

    echo(standing_view(state), *lines)


@series_app.callback(invoke_without_command=True)
def series_root(ctx: typer.Context) -> None:
    """Play a series of matches to a target. Bare 'hgin series' shows the current one."""
    if ctx.invoked_subcommand is not None:
        return
    state = scorekeeper().series_current()
    if state is None:
        echo(NO_SERIES)
    else:
        print_standing(state, [])


@series_app.command("new")
@RuleCommand
def series_new(
    first: Annotated[str, typer.Argument(metavar="NAME1", help="First player's name.")],
    second: Annotated[str, typer.Argument(metavar="NAME2", help="Second player's name.")],
    to: Annotated[
        int | None,
        typer.Option(
            "--to",
            metavar="N",
            help="The series' total: matches are played until a player's totals sum to it "
            f"(default {SERIES_TO}; each game's own target is --target).",
        ),
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="friendly, classic, or a saved preset.")
    ] = "friendly",
    dealer: DealerOption = None,
    *,
    rule_values: dict[str, Any],
) -> None:
    """Start a series and its first match (rule options as for 'hgin new'; the later matches
    keep the rules of the one before); each finished match's totals are credited."""
    game_target = rule_values["target"]
    # A player who types '--target 500' means the series: a game target above half its total
    # lets the first match settle it (its winner closes two games of three).
    if to is None and game_target is not None and game_target * 2 > SERIES_TO:
        raise typer.BadParameter(
            f"{game_target} is each game's target, not the series' total: for a series to "
            f"{game_target} type --to {game_target} (give --to as well to keep this --target)",
            param_hint="'--target'",
        )
    keeper = scorekeeper()
    chosen = keeper.rules_named(rules, rule_values)

    def started(made: SeriesStarted) -> None:
        state, match, left = made
        said = (
            f"New series {state.series.id}; match {match.id} started, "
            f"{match.first_dealer} deals first ({'chosen' if dealer else 'drawn by lot'})."
        )
        print_standing(state, [said, *([describe_left(left)] if left else [])])

    total = SERIES_TO if to is None else to
    saving(lambda: keeper.series_new(first, second, total, chosen, dealer=dealer), started)


@series_app.command("next")
def series_next(
    series: SeriesOption = None,
    dealer: NextDealerOption = None,
) -> None:
    """Start the series' next match once the last one is finished."""

    def started(made: SeriesStarted) -> None:
        state, match, left = made
        after = state.per_match[-1][0]  # the finished match whose next deal the rules gave
        said = describe_new(match, chosen=dealer is not None, after=after)
        print_standing(state, [said, *([describe_left(left)] if left else [])])

    saving(lambda: scorekeeper().series_next(series, dealer=dealer), started)


@series_app.command("show")
def series_show(series: SeriesOption = None, as_json: JsonFlag = False) -> None:
    """Show a series' running totals."""
    state = scorekeeper().series_show(series)
    if as_json:
        print_json(standing_to_dict(state))
        return
    print_standing(state, [])


@series_app.command("list")
def series_list(as_json: JsonFlag = False) -> None:
    """List every series."""
    states = scorekeeper().series_list()
    if as_json:
        print_json([standing_to_dict(s) for s in states])
        return
    if not states:
        echo(NO_SERIES)
        return
    for state in states:
        print_standing(state, [])
