"""Starting, choosing and showing matches: new, use, matches, show, summary, demo."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from hgin.cli.app import JsonFlag, MatchOption, app, complete_match, complete_player
from hgin.engine.rules import (
    DealerRule,
    Decide,
    Entry,
    OklahomaAce,
    Redeal,
    Rules,
    Shutout,
    Tie,
)
from hgin.scorekeeper import ScoreKeeper

RULES_PANEL = "House rules (defaults come from --rules)"


def _opt(help_text: str, *names: str) -> Any:
    return typer.Option(*names, help=help_text, rich_help_panel=RULES_PANEL)


def base_rules(name: str) -> Rules:
    """A built-in profile or a saved house preset, by name."""
    from hgin.store.presets import find_profile

    return find_profile(name)


@app.command()
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
    target: Annotated[int | None, _opt("Points that close a game.", "--target")] = None,
    games: Annotated[int | None, _opt("Games on the sheet: 1, 3 or 5.", "--games")] = None,
    dealer: Annotated[
        str | None,
        typer.Option(
            "--dealer",
            "-d",
            help="Who deals first (else drawn by lot).",
            autocompletion=complete_player,
        ),
    ] = None,
    gin_bonus: Annotated[int | None, _opt("Gin bonus.", "--gin-bonus")] = None,
    undercut_bonus: Annotated[int | None, _opt("Undercut bonus.", "--undercut-bonus")] = None,
    tie: Annotated[Tie | None, _opt("Equal counts on a knock.", "--tie")] = None,
    big_gin_bonus: Annotated[
        int | None, _opt("Big gin bonus; 0 means no big gin.", "--big-gin-bonus")
    ] = None,
    box_bonus: Annotated[
        int | None, _opt("At a game's close, per hand won in it.", "--box-bonus")
    ] = None,
    game_bonus: Annotated[
        int | None, _opt("At a game's close, to its winner.", "--game-bonus")
    ] = None,
    shutout: Annotated[
        Shutout | None, _opt("When the loser of a game has 0 in it.", "--shutout")
    ] = None,
    entry: Annotated[Entry | None, _opt("Which games a win enters.", "--entry")] = None,
    decide: Annotated[Decide | None, _opt("How the match winner is decided.", "--decide")] = None,
    dealer_rule: Annotated[
        DealerRule | None, _opt("Who deals after a won hand.", "--dealer-rule")
    ] = None,
    redeal: Annotated[Redeal | None, _opt("Who deals after a dead hand.", "--redeal")] = None,
    oklahoma: Annotated[
        bool | None, _opt("Oklahoma: the upcard sets the knock limit.", "--oklahoma/--no-oklahoma")
    ] = None,
    oklahoma_ace: Annotated[
        OklahomaAce | None,
        _opt("Oklahoma ace upcard: gin only, or knock with 1.", "--oklahoma-ace"),
    ] = None,
    straight: Annotated[
        bool | None, _opt("Straight Gin: no knocking.", "--straight/--no-straight")
    ] = None,
) -> None:
    """Start a match between NAME1 and NAME2 and make it the current one."""
    options = {
        "target": target,
        "games": games,
        "gin_bonus": gin_bonus,
        "undercut_bonus": undercut_bonus,
        "tie": tie,
        "big_gin_bonus": big_gin_bonus,
        "box_bonus": box_bonus,
        "game_bonus": game_bonus,
        "shutout": shutout,
        "entry": entry,
        "decide": decide,
        "dealer_rule": dealer_rule,
        "redeal": redeal,
        "oklahoma": oklahoma,
        "oklahoma_ace": oklahoma_ace,
        "straight": straight,
    }
    from hgin.store.config import settings_for_new

    if (first is None) != (second is None):
        raise typer.BadParameter("name both players, or neither to use the config file's")
    chosen = settings_for_new(first, second, rules, options)
    match = ScoreKeeper().new_match(chosen.first, chosen.second, chosen.rules, dealer=dealer)
    how = "chosen" if dealer is not None else "drawn by lot"
    from hgin.cli.render import print_sheet

    print_sheet(
        match,
        [f"New match {match.id}. {match.first_dealer} deals first ({how}).", *chosen.notes],
    )


@app.command()
def show(match: MatchOption = None, as_json: JsonFlag = False) -> None:
    """Show the score sheet of the current match."""
    loaded = ScoreKeeper().load(match)
    if as_json:
        from hgin.store.schema import sheet_to_dict

        data = {"id": loaded.id, **sheet_to_dict(loaded.sheet)}
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    from hgin.cli.render import print_sheet

    print_sheet(loaded)


@app.command()
def use(
    match: Annotated[
        str,
        typer.Argument(
            metavar="MATCH", help="Match identifier (or its start).", autocompletion=complete_match
        ),
    ],
) -> None:
    """Make another stored match the current one."""
    loaded = ScoreKeeper().use(match)
    from hgin.cli.render import print_sheet

    print_sheet(loaded, [f"Now playing match {loaded.id}."])
