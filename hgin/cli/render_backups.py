"""Drawing a match's backups with Rich (imported only by `hgin restore`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from hgin.cli.console import print_views
from hgin.cli.layout import Fit, record, simple_table
from hgin.engine.match import Match
from hgin.reports.narrate import describe_holding
from hgin.reports.times import shown_time

if TYPE_CHECKING:
    from hgin.scorekeeper import BackupEntry


def holding(match: Match | None, problem: str | None) -> str:
    """What a version holds ('8 hands, last: gin by Ann 43; game I closed'), or why it
    cannot be used."""
    if match is None:
        return f"unreadable: {problem}"
    return describe_holding(match.sheet)


def backups_table(entries: list[BackupEntry]) -> Table:
    """One row per backup: its number, when it was kept (file name below), what it holds."""
    table = simple_table("#", "Kept · file", "Holds", right=(0,))
    for entry in entries:
        kept = Text(shown_time(entry.backup.kept_at))
        kept.append(f"\n{entry.backup.name}", style="dim")
        if entry.backup.before_schema is not None:
            kept.append("\n(as before an upgrade)", style="dim")
        table.add_row(
            Text(str(entry.number)),
            kept,
            Text(holding(entry.match, entry.problem)),
        )
    return table


def backups_records(entries: list[BackupEntry]) -> Group:
    """The backups stacked, one record each, for a terminal too narrow for the table."""
    parts = []
    for entry in entries:
        figures = [
            shown_time(entry.backup.kept_at),
            holding(entry.match, entry.problem),
            entry.backup.name,
        ]
        if entry.backup.before_schema is not None:
            figures.append("(as before an upgrade)")
        parts.append(record(f"Backup {entry.number}", figures))
    return Group(*parts)


def print_backups(match_id: str, present: Match | None, entries: list[BackupEntry]) -> None:
    """The backup list with a line about the present version and how to restore."""
    if present is None:
        now = "the match file itself is missing or unreadable"
    else:
        now = f"now {holding(present, None)}"
    print_views(
        f"Backups of match {match_id} ({now}), newest first:",
        Fit(backups_table(entries), backups_records(entries)),
        "Bring one back with 'hgin restore --backup N'; the present version is kept first.",
    )
