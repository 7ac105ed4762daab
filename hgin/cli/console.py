"""The one way hgin builds a Rich console, apart from the sheet's drawing code so that the
match list and the statistics do not load the engine just to print."""

from __future__ import annotations

from rich.console import Console


def make_console(stderr: bool = False, width: int | None = None) -> Console:
    """A console built now, so it honours COLUMNS and NO_COLOR as they are set."""
    return Console(stderr=stderr, highlight=False, emoji=False, width=width)
