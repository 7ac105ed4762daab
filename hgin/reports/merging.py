"""What hgin says of stored matches as a whole: which one a player's name chose, how an import
merged a file's matches with ours, a sync tool's conflicted copies. Pure text, engine-free."""

from __future__ import annotations

import shlex
from pathlib import Path


def latest_with(match_id: str, players: tuple[str, str], name: str) -> str:
    """The notice of a match chosen by a player's name: 'match … (Ann v Bob), the latest with
    Ann'."""
    first, second = players
    return f"match {match_id} ({first} v {second}), the latest with {name}"


def import_summary(
    source: str, *, added: int, updated: int, up_to_date: int, kept: int, replaced: int
) -> str:
    """'Imported from FILE: 1 new, 2 updated, 3 already up to date.'"""
    counts = (
        (added, "new"),
        (updated, "updated"),
        (up_to_date, "already up to date"),
        (kept, "kept beside ours"),
        (replaced, "replaced"),
    )
    parts = [f"{count} {what}" for count, what in counts if count]
    return f"Imported from {source}: {', '.join(parts) or 'no matches'}."


def kept_beside(kept_as: str, beside: str, common: int | None) -> str:
    """Why a match of the file was stored under a new identifier, and how to compare."""
    if common is None:
        return (
            f"The file's {beside} is another match than ours with that identifier: it is kept "
            f"as {kept_as}."
        )
    since = f"after change {common}" if common else "from its start"
    return (
        f"{beside} went two ways {since}: the file's copy is kept as {kept_as} (compare "
        f"'hgin log -m {beside}' and 'hgin log -m {kept_as}')."
    )


def conflicted_copy(path: Path, match_id: str) -> str:
    """What the match list says of a sync tool's conflicted copy in the matches folder."""
    return (
        f"{path.name} is a sync tool's conflicted copy of match {match_id}: merge it with "
        f"hgin import {shlex.quote(str(path))}"
    )


def copy_removed(source: str) -> str:
    """The line saying a conflicted copy, once merged, was removed."""
    return f"Removed the conflicted copy {source}: it is merged."
