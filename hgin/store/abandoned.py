"""Abandoning a match begun by mistake: its file becomes its newest backup and leaves the list,
and a note (`abandoned` in the data folder) lets `hgin undo` straight after bring it back.
Any later save forgets the note (`Store.save`), so undo then means the latest change again."""

from __future__ import annotations

from pathlib import Path

from hgin.errors import HginError
from hgin.store.guard import MATCH_CAP, SMALL_CAP, os_problem, read_bytes, remove, write_atomic
from hgin.store.matches import ABANDONED_NOTE, MATCH_ID, Store


def note_path(store: Store) -> Path:
    return store.home / ABANDONED_NOTE


def noted(store: Store) -> tuple[str, str, str | None] | None:
    """The match abandoned last, its backup's file name and the match current before it
    (None for none); None when no note is left or it is not one hgin wrote."""
    raw = read_bytes(note_path(store), cap=SMALL_CAP)
    words = raw.decode("utf-8", "replace").split() if raw is not None else []
    if len(words) != 3 or not MATCH_ID.fullmatch(words[0]):
        return None
    before = words[2] if MATCH_ID.fullmatch(words[2]) else None
    return words[0], words[1], before


def abandon(store: Store, match_id: str, now_current: str | None) -> Path:
    """Keep the match file as its newest backup, note it, remove the file and make
    `now_current` the current match if this one was (call under the lock); the backup."""
    from hgin.store import backups

    path = store.match_path(match_id)
    raw = read_bytes(path, cap=MATCH_CAP, missing=f"no match '{match_id}' (see 'hgin matches')")
    assert raw is not None
    current = store.current_id()
    made = store.keep_old(match_id, path, raw)
    backup = made[-1]
    try:
        note = f"{match_id}\n{backup.name}\n{current or '-'}\n"
        write_atomic(note_path(store), note)
        remove(path)
    except OSError as error:
        store.forget(made)
        raise os_problem("abandon", path, error, then="nothing was changed") from None
    backups.prune(store.backups_dir / match_id)
    if current == match_id:
        if now_current is None:
            remove(store.current_file)
        else:
            store.set_current(now_current)
    return backup


def bring_back(store: Store) -> str | None:
    """Put back the match abandoned last, current again if it was (call under the lock); its
    identifier, or None when there is nothing to bring back."""
    found = noted(store)
    if found is None:
        return None
    match_id, backup_name, before = found
    path = store.match_path(match_id)
    raw = read_bytes(store.backups_dir / match_id / backup_name, cap=MATCH_CAP)
    if raw is None or path.exists():
        forget_note(store)
        return None
    try:
        write_atomic(path, raw, replace=False)
    except OSError as error:
        raise os_problem("bring back", path, error, then="nothing was changed") from None
    forget_note(store)
    if before == match_id:
        store.set_current(match_id)
    return match_id


def forget_note(store: Store) -> None:
    try:
        remove(note_path(store))
    except OSError as error:
        raise HginError(f"cannot remove {note_path(store)}: {error.strerror}") from None
