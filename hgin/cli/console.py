"""The one way hgin builds a Rich console, apart from the sheet's drawing code so that the
match list and the statistics do not load the engine just to print."""

from __future__ import annotations

import os

from rich.console import Console, RenderableType
from rich.text import Text


def make_console(stderr: bool = False, width: int | None = None) -> Console:
    """A console built now, so it honours COLUMNS and NO_COLOR as they are set.

    Printing to a pipe or a file with no COLUMNS set, sentences are not wrapped (tables are
    still laid out for 80 columns): a reader pasting them into a chat gets whole lines.
    """
    console = Console(stderr=stderr, highlight=False, emoji=False, width=width)
    if width is None and not console.is_terminal and not os.environ.get("COLUMNS"):
        console.soft_wrap = True
    return console


def print_views(*views: RenderableType | str) -> None:
    """Print each view on a console built now; a string is printed as it is (never as markup)."""
    console = make_console()
    for view in views:
        console.print(Text(view) if isinstance(view, str) else view)
