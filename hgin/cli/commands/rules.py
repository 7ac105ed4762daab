"""`hgin rules`: show the rules in force, change one mid-match, save and list house presets."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hgin.cli.app import HginTyper, JsonFlag, MatchOption, app
from hgin.cli.rule_options import with_rule_options
from hgin.cli.streams import print_json
from hgin.engine.rules import PROFILES, find_option, with_options
from hgin.errors import HginError
from hgin.scorekeeper import Outcome, ScoreKeeper

if TYPE_CHECKING:
    from hgin.engine.match import Match

rules_app = HginTyper(help="Show, change and save rule options.", rich_markup_mode=None)
app.add_typer(rules_app, name="rules")


@rules_app.callback(invoke_without_command=True)
def rules_show(
    ctx: typer.Context,
    match: MatchOption = None,
    as_json: JsonFlag = False,
    list_all: Annotated[
        bool, typer.Option("--list", help="List the built-in profiles and saved presets.")
    ] = False,
) -> None:
    """Show the rules in force in the current match (or --list the profiles and presets)."""
    if ctx.invoked_subcommand is not None:
        return
    from hgin.cli.render import make_console
    from hgin.cli.render_rules import profiles_table, rules_table

    if list_all:
        profiles = ScoreKeeper().profiles()
        if as_json:
            data = {name: rules.to_dict() for name, rules in profiles.items()}
            print_json(data)
            return
        make_console().print(profiles_table(profiles, set(PROFILES)))
        return
    loaded = ScoreKeeper().load(match)
    if as_json:
        print_json(loaded.rules.to_dict())
        return
    console = make_console()
    console.print(f"Rules of match {loaded.id}: {loaded.rules.label}", markup=False)
    console.print(rules_table(loaded.rules))


def complete_option(incomplete: str) -> list[str]:
    """Shell completion: the rule options' names."""
    from hgin.completion import rule_option_candidates

    return rule_option_candidates(incomplete)


def complete_value(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the values the rule option named before it takes."""
    from hgin.completion import rule_value_candidates

    typed = ctx.params.get("option") if ctx is not None else None
    return rule_value_candidates(typed if isinstance(typed, str) else "", incomplete)


@rules_app.command("set")
def rules_set(
    option: Annotated[
        str,
        typer.Argument(
            metavar="OPTION",
            help="A rule option, e.g. gin-bonus or tie (see 'hgin rules').",
            autocompletion=complete_option,
        ),
    ],
    value: Annotated[
        str,
        typer.Argument(
            metavar="VALUE",
            help="Its new value, e.g. 20, knocker, on.",
            autocompletion=complete_value,
        ),
    ],
    match: MatchOption = None,
) -> None:
    """Change one rule of a match and re-score every hand from the start."""
    from hgin.engine.narrate import describe_changes

    chosen = find_option(option)
    new_value = chosen.parse(value)

    def change(loaded: Match) -> Outcome:
        old_value = getattr(loaded.rules, chosen.name)
        if old_value == new_value:
            raise HginError(f"{chosen.flag} is already {value} in this match")
        # Replaced directly rather than through with_options, so that 'none' clears a stake.
        changed = loaded.with_rules(replace(loaded.rules, **{chosen.name: new_value}))
        if not chosen.scoring:
            shown = [v if v is not None else "none" for v in (old_value, new_value)]
            head = f"Rule changed: {chosen.flag} {shown[0]} → {shown[1]}; no score changes."
            return Outcome(changed, head)
        lines = describe_changes(loaded.sheet, changed.sheet)
        head = f"Rule changed: {chosen.flag} {old_value} → {new_value}; every hand re-scored."
        return Outcome(changed, " ".join([head, *lines]))

    outcome = ScoreKeeper().update(match, change)
    from hgin.cli.render import print_sheet

    print_sheet(outcome.match, outcome.lines)


@rules_app.command("save")
@with_rule_options
def rules_save(
    name: Annotated[str, typer.Argument(metavar="NAME", help="Preset name, e.g. pub.")],
    base: Annotated[
        str, typer.Option("--base", help="Start from this profile or preset.")
    ] = "friendly",
    force: Annotated[
        bool, typer.Option("--force", help="Replace a preset of that name that exists.")
    ] = False,
    *,
    rule_values: dict[str, Any],
) -> None:
    """Save a house preset: hgin rules save pub --gin-bonus 20 --tie knocker --straight.

    Takes the same rule options as 'hgin new'; then 'hgin new A B --rules pub' uses it.
    """
    keeper = ScoreKeeper()
    rules = with_options(keeper.rules_named(base), rule_values, profile=name.strip().lower())
    path = keeper.save_preset(name, rules, replace=force)
    from hgin.cli.render import make_console
    from hgin.cli.render_rules import rules_table

    console = make_console()
    console.print(f"Saved rules '{rules.profile}' in {path}.", markup=False)
    console.print(rules_table(rules))
