"""Drawing rule values with Rich."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from hgin.cli.layout import simple_table
from hgin.engine.rules import Rules, rule_options
from hgin.reports.rule_help import RULE_HELP


def rules_table(rules: Rules) -> Table:
    """Every rule option with its value and what it means."""
    table = simple_table("Option", "Value", "Meaning", unwrapped=(0, 1))
    for option in rule_options():
        value = option.show(getattr(rules, option.name))
        table.add_row(Text(option.flag), Text(value), Text(RULE_HELP[option.name], style="dim"))
    return table


def profiles_table(profiles: dict[str, Rules], builtin: set[str]) -> Table:
    """Built-in profiles and saved presets, with how each differs from friendly."""
    reference = Rules()
    table = simple_table("Rules", "Kind", "Differs from friendly in", unwrapped=(0, 1))
    for name, rules in profiles.items():
        diffs = [
            f"{o.flag} {o.show(getattr(rules, o.name))}"
            for o in rule_options()
            if getattr(rules, o.name) != getattr(reference, o.name)
        ]
        kind = "built-in" if name in builtin else "preset"
        table.add_row(Text(name), Text(kind), Text(", ".join(diffs) or "—"))
    return table
