"""Drawing rule values with Rich."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from hgin.engine.rules import OPTION_NAMES, RULE_HELP, Rules, option_flag


def show_value(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def rules_table(rules: Rules) -> Table:
    """Every rule option with its value and what it means."""
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    table.add_column("Option", no_wrap=True)
    table.add_column("Value", no_wrap=True)
    table.add_column("Meaning")
    for name in OPTION_NAMES:
        table.add_row(
            Text(option_flag(name)),
            Text(show_value(getattr(rules, name))),
            Text(RULE_HELP[name], style="dim"),
        )
    return table


def profiles_table(profiles: dict[str, Rules], builtin: set[str]) -> Table:
    """Built-in profiles and saved presets, with how each differs from friendly."""
    reference = Rules()
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    table.add_column("Rules", no_wrap=True)
    table.add_column("Kind", no_wrap=True)
    table.add_column("Differs from friendly in")
    for name, rules in profiles.items():
        diffs = [
            f"{option_flag(n)} {show_value(getattr(rules, n))}"
            for n in OPTION_NAMES
            if getattr(rules, n) != getattr(reference, n)
        ]
        kind = "built-in" if name in builtin else "preset"
        table.add_row(Text(name), Text(kind), Text(", ".join(diffs) or "—"))
    return table
