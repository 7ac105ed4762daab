"""What hgin says of stored matches as a whole: which one a player's name chose, how an import
merged a file's matches with ours, a sync tool's conflicted copies. Pure text, engine-free."""

from __future__ import annotations

import shlex
from pathlib import Path

from hgin.reports.symbols import escaped


def latest_with(match_id: str, players: tuple[str, str], name: str) -> str:
    """The notice of a match chosen by a player's name."""
    return f"match {match_id} ({' v '.join(players)}), the latest with {name}"


def shell_word(path: Path | str) -> str:
    """A path as a shell command names it: quoted, or as $'…' with escapes if not printable."""
    text = str(path)
    if all(char.isprintable() for char in text):
        return shlex.quote(text)
    inner = "".join(
        char if char.isprintable() and char not in "'\\" else _c_escape(char) for char in text
    )
    return f"$'{inner}'"


def _c_escape(char: str) -> str:
    if char in "'\\":
        return "\\" + char
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def import_summary(
    source: str,
    *,
    added: int,
    updated: int,
    up_to_date: int,
    kept: int,
    replaced: int,
    taken_off: int = 0,
) -> str:
    """'Imported from FILE: 1 new, 2 updated, 3 already up to date.'"""
    counts = (
        (added, "new"),
        (updated, "updated"),
        (up_to_date, "already up to date"),
        (kept, "kept beside ours"),
        (replaced, "replaced"),
        (taken_off, "taken off the list"),
    )
    parts = [f"{count} {what}" for count, what in counts if count]
    return f"Imported from {escaped(source)}: {', '.join(parts) or 'no matches'}."


def kept_beside(kept_as: str, beside: str, common: int | None, *, start_differs: bool) -> str:
    """Why a match of the file was stored under a new identifier, and what to do about it."""
    if start_differs:
        return (
            f"The file's copy of {beside} starts otherwise than ours (its players, rules, "
            f"first dealer or creation differ): it is kept as {kept_as}; compare them with "
            f"'hgin log -m {beside}' and 'hgin log -m {kept_as}'."
        )
    if common is None:
        return (
            f"The file's {beside} is another match than ours with that identifier: it is kept "
            f"as {kept_as}."
        )
    since = f"after change {common}" if common else "from its start"
    return (
        f"{beside} went two ways {since}: the file's copy is kept as {kept_as}; "
        f"'hgin matches combine {beside} {kept_as}' makes them one match."
    )


def taken_off(match_id: str, into: str) -> str:
    """Why an import took a stored copy off the list."""
    return (
        f"{match_id} is combined into the file's copy, now {into}: it is taken off the list "
        f"('hgin restore --backup -m {match_id}' brings it back)."
    )


def conflicted_copy(path: Path, match_id: str) -> str:
    """What the match list says of a sync tool's conflicted copy in the matches folder."""
    return (
        f"{escaped(path.name)} is a sync tool's conflicted copy of match {match_id}: merge "
        f"it with hgin import {shell_word(path)} (if it went its own way, it is kept beside "
        "ours, and 'hgin matches combine' makes them one)"
    )


def copies_of_one(ids: list[str], named: int = 3) -> str:
    """What the match list says of stored copies of one match that went their own ways (the
    first `named` of many, then how many more)."""
    first, *others = ids
    shown = ids if len(ids) <= named + 1 else [*ids[:named], f"{len(ids) - named} more"]
    listed = " and ".join([", ".join(shown[:-1]), shown[-1]]) if len(shown) > 1 else first
    return (
        f"{listed} are copies of one match that went their own ways: 'hgin matches combine "
        f"{first} {others[0]}' makes them one"
    )


def copy_removed(source: str, kept_as: str | None = None) -> str:
    """The line saying a conflicted copy, once imported, was removed."""
    how = "merged" if kept_as is None else f"kept as {kept_as}"
    return f"Removed the conflicted copy {escaped(source)}: it is {how}."
