"""Match files on disk: one JSON file per match, a pointer to the current one, backups, one
lock for every read-modify-write, and atomic saves (through `hgin.store.guard`); the note of the
match abandoned last, which `hgin undo` straight after brings back (any later save forgets it)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from hgin.engine.identifiers import IDENTIFIER
from hgin.engine.identifiers import stem as identifier_stem
from hgin.engine.names import candidates_for, either, fold, shown
from hgin.errors import HginError
from hgin.store import backups
from hgin.store.backups import Backup
from hgin.store.guard import (
    MATCH_CAP,
    SMALL_CAP,
    Unusable,
    ensure_folder,
    exclusive_lock,
    os_problem,
    parse_json,
    read_bytes,
    remove,
    sweep_temp_files,
    write_atomic,
)
from hgin.store.paths import check_folder

# The match format (and the engine) is imported where needed: listing matches never loads it.
if TYPE_CHECKING:
    from hgin.engine.match import Match
    from hgin.store.schema import WrittenJournal


MATCH_ID = IDENTIFIER
# A sync tool's conflicted copy of a match file: its identifier, then anything that makes the
# name none ("ID (Ann's conflicted copy 2026-12-01).json", "ID.sync-conflict-2026....json").
CONFLICTED_COPY = re.compile(r"([a-z0-9][a-z0-9-]{0,79})[^a-z0-9-].*\.json", re.DOTALL)
# A match file's name: its identifier, then ".json" (one pattern: the list checks thousands).
MATCH_FILE = re.compile(rf"({IDENTIFIER.pattern})\.json")
LOCK_TIMEOUT = 5.0
ABANDONED_NOTE = "abandoned"


class BackupEntry(NamedTuple):
    """A backup as `hgin restore` lists it: its number, and what it holds if it can be read."""

    number: int
    backup: Backup
    match: Match | None
    problem: str | None


class Note(NamedTuple):
    """The match taken off the list last, as the note names it."""

    id: str
    backup: str  # its backup's file name
    before: str  # the match current before it ('-' for none)
    into: str | None  # the match it was combined into (None: abandoned)


class Store:
    """The data folder: matches/, backups/, current, the cache and the write lock."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.matches_dir = home / "matches"
        self.backups_dir = home / "backups"
        self.current_file = home / "current"
        self.lock_file = home / ".lock"
        # The journal of the one match loaded or saved last as its file holds it (`file_bytes`).
        self.written: WrittenJournal | None = None

    def ensure_folders(self) -> None:
        """Make the data folder and matches/ (real folders, never links) if needed."""
        check_folder(self.home)
        ensure_folder(self.matches_dir, below=self.home)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the exclusive write lock for a whole read-modify-write (matches and pointer)."""
        self.ensure_folders()
        with exclusive_lock(self.lock_file, LOCK_TIMEOUT):
            for folder in (self.home, self.matches_dir, self.home / "series"):
                sweep_temp_files(folder)
            yield

    def match_path(self, match_id: str) -> Path:
        """The file of a match; refuses anything but a well-formed identifier."""
        if not MATCH_ID.fullmatch(match_id):
            raise HginError(f"'{match_id[:100]}' is not a match identifier (see 'hgin matches')")
        return self.matches_dir / f"{match_id}.json"

    def _listing(self, folder: Path) -> list[os.DirEntry[str]]:
        """The entries of `folder`; none while it does not exist."""
        check_folder(self.home)
        try:
            with os.scandir(folder) as entries:
                return list(entries)
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as error:
            raise os_problem("list", folder, error) from None

    def match_ids(self) -> list[str]:
        """Identifiers of every stored match, sorted."""
        listing = self._listing(self.matches_dir)
        return sorted(e.name[:-5] for e in listing if MATCH_FILE.fullmatch(e.name) and e.is_file())

    def known_ids(self) -> list[str]:
        """Matches with a file or with backups (a deleted file can still be restored)."""
        listing = self._listing(self.backups_dir)
        backed_up = [e.name for e in listing if MATCH_ID.fullmatch(e.name) and e.is_dir()]
        return sorted({*self.match_ids(), *backed_up})

    def stamps(self) -> dict[str, str]:
        """Every stored match's identifier with its file's stamp (even a file that cannot load)."""
        found = {}
        for entry in self._listing(self.matches_dir):
            named = MATCH_FILE.fullmatch(entry.name)
            if named is None:
                continue
            try:
                info = entry.stat()
            except OSError:  # deleted meanwhile
                continue
            found[named[1]] = _stamp_text(info)
        return found

    def stamp(self, match_id: str) -> str | None:
        """What tells one version of a match file from another (None for no such file)."""
        try:
            return _stamp_text(os.stat(self.match_path(match_id)))
        except OSError:
            return None

    def conflicted_copies(self) -> list[tuple[str, Path]]:
        """The conflicted copies a sync tool left in matches/: each one's match and path."""
        found = []
        for entry in self._listing(self.matches_dir):
            copy = CONFLICTED_COPY.fullmatch(entry.name)
            if copy and entry.is_file(follow_symlinks=False):
                found.append((copy[1], self.matches_dir / entry.name))
        return sorted(found)

    def is_conflicted_copy(self, path: Path) -> bool:
        """Whether `path` is one of `conflicted_copies`."""
        try:
            inside = path.absolute().parent.resolve() == self.matches_dir.resolve()
        except OSError:
            return False
        return inside and CONFLICTED_COPY.fullmatch(path.name) is not None

    def find(self, typed: str, with_backups: bool = False) -> str:
        """The match `typed` names; with backups, also one whose file is gone."""
        return identifier_named(typed, self.known_ids() if with_backups else self.match_ids())

    def new_id(self, players: tuple[str, str], created: str, *, taken: Collection[str] = ()) -> str:
        """A fresh identifier from the date and the players, none of `taken` (under the lock)."""
        return unused(identifier_stem(created, players), {*self.known_ids(), *taken})

    def read_raw(self, match_id: str) -> bytes:
        """The bytes of a match file, refusing a missing, unreadable or oversized one."""
        raw = read_bytes(self.match_path(match_id), cap=MATCH_CAP)
        if raw is not None:
            return raw
        if match_id in self.known_ids():  # its backups are left
            raise HginError(
                f"the file of match {match_id} is gone; 'hgin restore --backup -m {match_id}' "
                "lists its backups to bring back"
            )
        raise HginError(f"no match '{match_id}' (see 'hgin matches')")

    def load(self, match_id: str) -> Match:
        """Read, migrate and validate a match file; anything wrong is refused, never reset."""
        raw = self.read_raw(match_id)
        match = self.parse(raw, self.match_path(match_id), match_id)[0]
        self.written = _written(raw, match)
        return match

    def parse(self, raw: bytes, path: Path, match_id: str) -> tuple[Match, int]:
        """A match from file bytes, and the schema version the bytes were written in."""
        match, version = match_from_data(parse_json(raw, path), path)
        if match.id != match_id:
            raise HginError(f"cannot use {path}: it holds match '{match.id}', not '{match_id}'")
        return match, version

    def players_of(self, match: str | None = None) -> tuple[str, ...]:
        """The two names a match file (else the current one's) states, read unchecked for
        completion, which must not load the engine; () when it does not state them."""
        try:
            match_id = self.find(match) if match is not None else self.current_id()
            data = parse_json(self.read_raw(match_id), match_id) if match_id else None
        except (HginError, OSError):
            return ()
        players = data.get("players") if isinstance(data, dict) else None
        if not isinstance(players, list) or len(players) != 2:
            return ()
        if not all(isinstance(p, str) and p.isprintable() and p.strip() for p in players):
            return ()
        return (players[0], players[1])

    def save(self, match: Match) -> Path | None:
        """Back up the present version and write atomically (under the lock); the backup made."""
        text = match_bytes(match, self.written)
        path = self.match_path(match.id)
        self.ensure_folders()
        old = read_bytes(path, cap=MATCH_CAP)
        made = self.keep_old(match.id, path, old)
        try:
            write_atomic(path, text)
        except OSError as error:
            self.forget(made)
            kept = "the previous version is kept" if old is not None else "nothing was saved"
            raise os_problem("save", path, error, then=kept) from None
        self.written = _written(text, match)
        if made:
            backups.prune(self.backups_dir / match.id)
        self.forget_abandoned()
        return made[-1] if made else None

    def forget_abandoned(self) -> None:
        """A change since a match was abandoned: `undo` no longer brings that match back."""
        with contextlib.suppress(OSError):
            remove(self.home / ABANDONED_NOTE)

    def noted(self) -> Note | None:
        """The note of the match taken off the list last; None when there is no note hgin wrote."""
        raw = read_bytes(self.home / ABANDONED_NOTE, cap=SMALL_CAP)
        words = raw.decode("utf-8", "replace").split() if raw is not None else []
        if len(words) not in (3, 4) or not all(map(MATCH_ID.fullmatch, words[:1] + words[3:])):
            return None
        return Note(words[0], words[1], words[2], words[3] if len(words) == 4 else None)

    def abandon(self, match_id: str, now_current: str | None, *, into: str | None = None) -> Path:
        """Back up, note and remove a match file (under the lock); the backup."""
        path = self.match_path(match_id)
        raw = read_bytes(path, cap=MATCH_CAP, missing=f"no match '{match_id}' (see 'hgin matches')")
        current = self.current_id()
        made = self.keep_old(match_id, path, raw)
        try:
            combined = f"{into}\n" if into is not None else ""
            note = f"{match_id}\n{made[-1].name}\n{current or '-'}\n{combined}"
            write_atomic(self.home / ABANDONED_NOTE, note)
            remove(path)
        except OSError as error:
            self.forget(made)
            raise os_problem("abandon", path, error, then="nothing was changed") from None
        if current == match_id and now_current is None:
            remove(self.current_file)
        elif current == match_id and now_current is not None:
            self.set_current(now_current)
        return made[-1]

    def bring_back(self, found: Note | None = None) -> str | None:
        """Put back the match taken off the list last (under the lock); its identifier, or None."""
        found = found or self.noted()
        if found is None:
            return None
        match_id, backup, before, _ = found
        path = self.match_path(match_id)
        raw = read_bytes(self.backups_dir / match_id / backup, cap=MATCH_CAP)
        if raw is not None and not path.exists():
            try:
                write_atomic(path, raw, replace=False)
            except OSError as error:
                raise os_problem("bring back", path, error, then="nothing was changed") from None
        self.forget_abandoned()
        if raw is None:
            return None
        if before == match_id:
            self.set_current(match_id)
        return match_id

    def keep_old(self, match_id: str, path: Path, old: bytes | None) -> list[Path]:
        """Back up the version about to be replaced; returns the files made (to undo them)."""
        if old is None:
            return []
        folder = self.backups_dir / match_id
        made: list[Path] = []
        ensure_folder(folder, below=self.home, then="nothing was changed")
        try:
            version = _older_schema(old)
            if version is not None:
                kept = backups.write_before_schema(folder, old, version)
                if kept is not None:
                    made.append(kept)
            made.append(backups.write_backup(folder, old))
        except OSError as error:
            self.forget(made)
            raise os_problem(
                "back up", path, error, then=f"nothing was changed (backups go to {folder})"
            ) from None
        return made

    def forget(self, made: list[Path]) -> None:
        for path in made:
            with contextlib.suppress(OSError):
                remove(path)
        if made:
            with contextlib.suppress(OSError):
                made[0].parent.rmdir()  # only if it is empty, i.e. this save made it

    def backup_entries(self, match_id: str) -> list[BackupEntry]:
        """The kept versions of a match, numbered from 1 (the newest), each read if possible."""
        self.match_path(match_id)  # refuses a malformed identifier
        found = []
        for number, backup in enumerate(backups.list_backups(self.backups_dir / match_id), 1):
            try:
                raw = read_bytes(backup.path, cap=MATCH_CAP, missing=f"{backup.path} has gone")
                assert raw is not None
                match, problem = self.parse(raw, backup.path, match_id)[0], None
            except HginError as error:
                match, problem = None, str(error)
            found.append(BackupEntry(number, backup, match, problem))
        return found

    def restore(self, match_id: str, which: str) -> tuple[BackupEntry, Path | None, bool]:
        """Bring back a backup (under the lock): it, the backup made, whether the file was read."""
        entries = self.backup_entries(match_id)
        if not entries:
            raise HginError(f"match {match_id} has no backups yet")
        wanted = which.strip()
        for entry in entries:
            if wanted in (str(entry.number), entry.backup.name, entry.backup.path.stem):
                break
        else:
            raise HginError(
                f"no backup '{wanted[:100]}' of match {match_id}: give a number from 1 to "
                f"{len(entries)} or a file name (see 'hgin restore --backup')"
            )
        if entry.match is None:
            raise HginError(f"cannot restore: {entry.problem}")
        try:
            self.parse(self.read_raw(match_id), self.match_path(match_id), match_id)
            readable = True
        except HginError:
            readable = False
        return entry, self.save(entry.match), readable

    def current_id(self) -> str | None:
        """The current match's identifier, or None before the first match."""
        check_folder(self.home)
        raw = read_bytes(self.current_file, cap=SMALL_CAP)
        if raw is None:
            return None
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            text = "?"
        if not MATCH_ID.fullmatch(text):
            raise HginError(f"{self.current_file} does not name a match; pick one with 'hgin use'")
        return text

    def set_current(self, match_id: str) -> None:
        """Make a match the current one (call under the lock)."""
        self.match_path(match_id)
        self.ensure_folders()
        try:
            write_atomic(self.current_file, match_id + "\n")
        except OSError as error:
            raise os_problem("save", self.current_file, error) from None


def match_bytes(match: Match, kept: WrittenJournal | None = None) -> bytes:
    """A match file's bytes as saving writes them, refused when loading would not read that many."""
    from hgin.store.schema import file_bytes

    raw = file_bytes(match, kept)
    if len(raw) > MATCH_CAP:
        raise HginError(
            f"match {match.id} would take {len(raw)} bytes, more than a match file may hold "
            f"({MATCH_CAP}); it was not saved"
        )
    return raw


def _written(raw: bytes, match: Match) -> WrittenJournal | None:
    """Where the journal of `match` lies in the bytes of its file (see `written_journal`)."""
    from hgin.store.schema import written_journal

    return written_journal(raw, match.journal)


def match_from_data(data: Any, where: str | Path) -> tuple[Match, int]:
    """A match from parsed file data, every check applied, and the schema version it was in."""
    from hgin.store.schema import match_from_dict, migrate

    try:
        if not isinstance(data, dict):
            raise HginError("it does not hold a JSON object")
        data, version = migrate(data)
        match = match_from_dict(data)  # unknown fields are refused there
    except HginError as error:
        raise Unusable(where, str(error)) from None
    return match, version


def identifier_named(typed: str, ids: list[str]) -> str:
    """The one identifier of `ids` that `typed` is, or starts, or else is a part of."""
    hits = candidates_for(typed, ids)
    if not hits:
        wanted = fold(typed)
        meant = len(wanted) > 1 and any(char.isalnum() for char in wanted)
        hits = [i for i in ids if meant and wanted in i]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise HginError(f"'{shown(typed)}' could be {either(hits)}: type more of it")
    raise HginError(f"no match '{shown(typed)}' (see 'hgin matches')")


def unused(base: str, taken: Collection[str]) -> str:
    """`base`, else `base-N` with the smallest N from 2 that is not `taken`."""
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def _stamp_text(info: os.stat_result) -> str:
    return f"{info.st_mtime_ns}:{info.st_size}:{info.st_ino}"


def _older_schema(raw: bytes) -> int | None:
    """The schema version file bytes state, if it is older than this hgin writes."""
    from hgin.store.schema import FIRST_LINE, SCHEMA_VERSION

    if raw.startswith(FIRST_LINE.encode()):  # as hgin writes it: no parse
        return None
    try:
        data = parse_json(raw, "a backup")
    except HginError:
        return None
    version = data.get("schema") if isinstance(data, dict) else None
    return version if type(version) is int and version < SCHEMA_VERSION else None
