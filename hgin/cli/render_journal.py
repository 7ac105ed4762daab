"""Drawing a match's journal with Rich (imported only by `hgin log`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from hgin.cli.console import print_views
from hgin.cli.layout import simple_table
from hgin.engine.editing import JournalRow
from hgin.reports.times import shown_time


def journal_table(rows: Sequence[JournalRow]) -> Table:
    """One row per change: its number, when, and the sentence (with where it stands now)."""
    table = simple_table("#", "When", "Change", right=(0,))
    for row in rows:
        text = Text(row.text)
        if row.status in ("undone", "set aside"):
            text.append(f" ({row.status})", style="dim")
        table.add_row(Text(str(row.number)), Text(shown_time(row.at)), text)
    return table


def print_journal(match_id: str, rows: Sequence[JournalRow], total: int) -> None:
    """The journal with a line on top, and how to go back."""
    shown = "" if len(rows) == total else f", the last {len(rows)} of {total}"
    print_views(
        f"Changes of match {match_id}{shown}, oldest first:",
        journal_table(rows),
        "'hgin undo' reverts the latest change in force; 'hgin restore N' goes back to N.",
    )
