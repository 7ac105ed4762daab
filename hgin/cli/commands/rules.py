"""`hgin rules`: show the rules in force, change one mid-match, save and list house presets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from hgin.cli.application import (
    HginTyper,
    app,
    echo,
    notify,
    refuse_option_word,
    saving,
    scorekeeper,
    show_outcome,
)
from hgin.cli.options import JsonFlag, MatchOption
from hgin.cli.rule_options import RuleCommand
from hgin.cli.streams import print_json
from hgin.completion import keep_typed
from hgin.engine.rules import PROFILES, SWITCH_OFF, SWITCH_ON, find_option, rule_options
from hgin.errors import HginError

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
    from hgin.cli.render import profiles_table, rules_table

    if list_all:
        profiles = scorekeeper().profiles()
        if as_json:
            print_json({name: rules._asdict() for name, rules in profiles.items()})
            return
        echo(profiles_table(profiles, set(PROFILES)))
        return
    loaded, notices = scorekeeper().read(match)
    if as_json:
        print_json(loaded.rules._asdict())
    else:
        echo(f"Rules of match {loaded.id}: {loaded.rules.label}", rules_table(loaded.rules))
    notify(notices)


def rule_option_candidates(typed: str) -> list[str]:
    """The rule options (as `hgin rules set` spells them) starting with `typed`."""
    wanted = typed.lower().lstrip("-")
    return [keep_typed(typed, o.flag) for o in rule_options() if o.flag.startswith(wanted)]


def complete_value(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the values the rule option named before it takes (its choices, or on
    and off); nothing for an unknown option or one that takes a number or free text."""
    option = ctx.params.get("option") if ctx is not None else None
    try:
        found = find_option(option if isinstance(option, str) else "")
    except HginError:
        return []
    if found.kind == "switch":
        values: tuple[str, ...] = (SWITCH_ON[0], SWITCH_OFF[0])
    else:
        values = found.choices
    wanted = incomplete.lower()
    return [keep_typed(incomplete, v) for v in values if v.startswith(wanted)]


@rules_app.command("set", context_settings={"ignore_unknown_options": True})  # VALUE may be -5
def rules_set(
    option: Annotated[
        str,
        typer.Argument(
            metavar="OPTION",
            help="A rule option, e.g. gin-bonus or tie (see 'hgin rules').",
            autocompletion=rule_option_candidates,
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
    """Change one rule of a match and re-score every hand from the start ('hgin undo' takes
    it back)."""
    for word in (option, value):
        refuse_option_word(word, "rules set")
    saving(lambda: scorekeeper().set_rule(option, value, match=match), show_outcome)


@rules_app.command("save")
@RuleCommand
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
    keeper = scorekeeper()
    rules = keeper.rules_named(base, rule_values, renamed=name)
    from hgin.cli.render import rules_table

    def saved(path: Path) -> None:
        echo(f"Saved rules '{rules.profile}' in {path}.", rules_table(rules))

    saving(lambda: keeper.save_preset(name, rules, replace=force), saved)
