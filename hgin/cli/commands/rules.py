"""`hgin rules`: show the rules in force, change one mid-match, save and list house presets."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Annotated

import typer

from hgin.cli.app import JsonFlag, MatchOption, app
from hgin.engine.rules import (
    PROFILES,
    field_name,
    option_flag,
    parse_rule_flags,
    parse_value,
    with_options,
)
from hgin.errors import HginError
from hgin.scorekeeper import Outcome, ScoreKeeper

if TYPE_CHECKING:
    from hgin.engine.match import Match

rules_app = typer.Typer(help="Show, change and save rule options.", rich_markup_mode=None)
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
        from hgin.store.presets import load_presets

        profiles = {**PROFILES, **load_presets()}
        if as_json:
            data = {name: rules.to_dict() for name, rules in profiles.items()}
            typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
            return
        make_console().print(profiles_table(profiles, set(PROFILES)))
        return
    loaded = ScoreKeeper().load(match)
    if as_json:
        typer.echo(json.dumps(loaded.rules.to_dict(), ensure_ascii=False, indent=2))
        return
    console = make_console()
    console.print(f"Rules of match {loaded.id}: {loaded.rules.label}", markup=False)
    console.print(rules_table(loaded.rules))


@rules_app.command("set")
def rules_set(
    option: Annotated[
        str, typer.Argument(metavar="OPTION", help="A rule option, e.g. gin-bonus or tie.")
    ],
    value: Annotated[
        str, typer.Argument(metavar="VALUE", help="Its new value, e.g. 20, knocker, on.")
    ],
    match: MatchOption = None,
) -> None:
    """Change one rule of a match and re-score every hand from the start."""
    from hgin.engine.narrate import describe_changes

    name = field_name(option)
    new_value = parse_value(name, value)

    def change(loaded: Match) -> Outcome:
        old_value = getattr(loaded.rules, name)
        if old_value == new_value:
            raise HginError(f"{option_flag(name)} is already {value} in this match")
        changed = loaded.with_rules(with_options(loaded.rules, {name: new_value}))
        lines = describe_changes(loaded.sheet, changed.sheet)
        head = f"Rule changed: {option_flag(name)} {old_value} → {new_value}; every hand re-scored."
        return Outcome(changed, " ".join([head, *lines]))

    outcome = ScoreKeeper().update(match, change)
    from hgin.cli.render import print_sheet

    print_sheet(outcome.match, outcome.lines)


@rules_app.command(
    "save", context_settings={"allow_extra_args": True, "ignore_unknown_options": True}
)
def rules_save(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Preset name, e.g. pub.")],
    base: Annotated[
        str, typer.Option("--base", help="Start from this profile or preset.")
    ] = "friendly",
) -> None:
    """Save a house preset: hgin rules save pub --gin-bonus 20 --tie knocker --straight.

    Takes the same options as 'hgin new' (see 'hgin rules --list' and README);
    then 'hgin new A B --rules pub' uses it.
    """
    from hgin.store.presets import find_profile, save_preset

    values = parse_rule_flags(list(ctx.args))
    rules = with_options(find_profile(base), values, profile=name.strip().lower())
    path = save_preset(name, dataclasses.replace(rules))
    from hgin.cli.render import make_console
    from hgin.cli.render_rules import rules_table

    console = make_console()
    console.print(f"Saved rules '{rules.profile}' in {path}.", markup=False)
    console.print(rules_table(rules))
