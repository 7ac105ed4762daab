"""Each module here adds its commands to `hgin.cli.app.app` when imported."""

from hgin.cli.commands import count, demo, hands, history, matches, rules

__all__ = ["count", "demo", "hands", "history", "matches", "rules"]
