"""Bringing back an earlier version of a match file (the library side of `hgin restore`).

from hgin.recovery import backups_of, restore_backup
match_id, entries = backups_of(keeper)          # the current match's backups, newest first
outcome = restore_backup(keeper, "2")           # bring back backup 2; 'restore 1' undoes it
"""

from __future__ import annotations

from datetime import datetime

from hgin.errors import HginError
from hgin.scorekeeper import Outcome, ScoreKeeper
from hgin.store.matches import BackupEntry


def restore_target(keeper: ScoreKeeper, match: str | None) -> str:
    """The match meant: `match` (also one whose file is gone but has backups), else current."""
    if match is not None:
        return keeper.store.find(match, with_backups=True)
    return keeper.match_id(None)


def backups_of(keeper: ScoreKeeper, match: str | None = None) -> tuple[str, list[BackupEntry]]:
    """A match's identifier and its backups, numbered from 1 (the newest)."""
    match_id = restore_target(keeper, match)
    return match_id, keeper.store.backups(match_id)


def local_time(moment: datetime) -> str:
    """A backup's time as the table shows it: local time, to the second."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def restore_backup(keeper: ScoreKeeper, which: str, match: str | None = None) -> Outcome:
    """Bring back backup `which` (a number from the list, or its file name), atomically.

    The version it replaces is kept as the newest backup first, so `restore 1` undoes it.
    """
    if not which.strip():
        raise HginError("name a backup: a number from 'hgin restore', or its file name")
    restore_target(keeper, match)  # refuse a missing match before the lock makes the folder
    with keeper.store.locked():
        match_id = restore_target(keeper, match)
        entry, kept = keeper.store.restore(match_id, which)
    restored = entry.match
    assert restored is not None  # Store.restore refuses an unreadable backup
    hands = len(restored.hands)
    message = (
        f"Restored match {match_id} from backup {entry.number} ({entry.backup.name}, kept "
        f"{local_time(entry.backup.kept_at)}): {hands} hand{'' if hands == 1 else 's'}."
    )
    if kept is not None:
        message += " The version it replaced is now backup 1: 'hgin restore 1' takes this back."
    return Outcome(restored, message)
