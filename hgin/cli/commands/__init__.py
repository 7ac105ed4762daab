"""Each module here adds its commands to `hgin.cli.app.app` when imported."""

from hgin.cli.commands import (
    config,
    count,
    demo,
    editing,
    hands,
    history,
    journal,
    matches,
    play,
    restore,
    rules,
    series,
    settle,
    summary,
    transfer,
)

__all__ = [
    "config",
    "count",
    "demo",
    "editing",
    "hands",
    "history",
    "journal",
    "matches",
    "play",
    "restore",
    "rules",
    "series",
    "settle",
    "summary",
    "transfer",
]
