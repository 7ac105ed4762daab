"""Drawing rule values with Rich."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from hgin.engine.rules import Rules, rule_options


def rules_table(rules: Rules) -> Table:
    """Every rule option with its value and what it means."""
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    table.add_column("Option", no_wrap=True)
    table.add_column("Value", no_wrap=True)
    table.add_column("Meaning")
    for option in rule_options():
        table.add_row(
            Text(option.flag),
            Text(option.show(getattr(rules, option.name))),
            Text(option.help, style="dim"),
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
            f"{o.flag} {o.show(getattr(rules, o.name))}"
            for o in rule_options()
            if getattr(rules, o.name) != getattr(reference, o.name)
        ]
        kind = "built-in" if name in builtin else "preset"
        table.add_row(Text(name), Text(kind), Text(", ".join(diffs) or "—"))
    return table
