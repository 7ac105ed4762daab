"""Each module here adds its commands to `hgin.cli.app.app` when imported."""

from hgin.cli.commands import demo, hands, matches, rules

__all__ = ["demo", "hands", "matches", "rules"]
