"""Abandoning a match begun by mistake (or combined into another): its file becomes its newest
backup and leaves the list, and a note (`abandoned` in the data folder) lets `hgin undo`
straight after bring it back. Any later save forgets the note (`Store.save`), so undo then
means the latest change again."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from hgin.store.guard import MATCH_CAP, SMALL_CAP, os_problem, read_bytes, remove, write_atomic
from hgin.store.matches import ABANDONED_NOTE, MATCH_ID, Store


class Note(NamedTuple):
    """The match taken off the list last, as the note names it."""

    id: str
    backup: str  # its backup's file name
    before: str  # the match current before it ('-' for none)
    into: str | None  # the match it was combined into (None: abandoned)


def noted(store: Store) -> Note | None:
    """The note of the match taken off the list last; None when there is no note hgin wrote."""
    raw = read_bytes(store.home / ABANDONED_NOTE, cap=SMALL_CAP)
    words = raw.decode("utf-8", "replace").split() if raw is not None else []
    if len(words) not in (3, 4) or not all(map(MATCH_ID.fullmatch, words[:1] + words[3:])):
        return None
    return Note(words[0], words[1], words[2], words[3] if len(words) == 4 else None)


def abandon(
    store: Store, match_id: str, now_current: str | None, *, into: str | None = None
) -> Path:
    """Back up, note and remove a match file (under the lock); the backup."""
    path = store.match_path(match_id)
    raw = read_bytes(path, cap=MATCH_CAP, missing=f"no match '{match_id}' (see 'hgin matches')")
    current = store.current_id()
    made = store.keep_old(match_id, path, raw)
    try:
        combined = f"{into}\n" if into is not None else ""
        note = f"{match_id}\n{made[-1].name}\n{current or '-'}\n{combined}"
        write_atomic(store.home / ABANDONED_NOTE, note)
        remove(path)
    except OSError as error:
        store.forget(made)
        raise os_problem("abandon", path, error, then="nothing was changed") from None
    if current == match_id and now_current is None:
        remove(store.current_file)
    elif current == match_id and now_current is not None:
        store.set_current(now_current)
    return made[-1]


def bring_back(store: Store, found: Note | None = None) -> str | None:
    """Put back the match taken off the list last (under the lock); its identifier, or None."""
    found = found or noted(store)
    if found is None:
        return None
    match_id, backup, before, _ = found
    path = store.match_path(match_id)
    raw = read_bytes(store.backups_dir / match_id / backup, cap=MATCH_CAP)
    if raw is not None and not path.exists():
        try:
            write_atomic(path, raw, replace=False)
        except OSError as error:
            raise os_problem("bring back", path, error, then="nothing was changed") from None
    store.forget_abandoned()
    if raw is None:
        return None
    if before == match_id:
        store.set_current(match_id)
    return match_id
