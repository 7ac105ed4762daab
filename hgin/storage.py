"""Match files on disk: one JSON file per match, a pointer to the current one, a small index,
rotated backups, one lock for every read-modify-write, and atomic saves."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hgin.errors import HginError
from hgin.match import Match
from hgin.schema import SCHEMA_VERSION, match_from_dict, match_to_dict, migrate

MATCH_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
BACKUPS_KEPT = 5
LOCK_TIMEOUT = 5.0
INDEX_VERSION = 1


def atomic_write(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a crash leaves the old file or the new, never a mix."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    # The rename itself is durable only once the folder entry is flushed (POSIX only).
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def slug(name: str) -> str:
    """A file-name-safe fragment of a player name."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return cleaned[:16].strip("-") or "player"


@dataclass(frozen=True, slots=True)
class MatchEntry:
    """What the match list shows of one match, kept in the index."""

    id: str
    players: tuple[str, str]
    profile: str
    created: str
    hands: int
    finished: bool
    winner: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": list(self.players),
            "profile": self.profile,
            "created": self.created,
            "hands": self.hands,
            "finished": self.finished,
            "winner": self.winner,
        }


def entry_for(match: Match) -> MatchEntry:
    """The index entry of a match."""
    sheet = match.sheet
    return MatchEntry(
        match.id,
        match.players,
        match.rules.label,
        match.created,
        len(match.hands),
        sheet.finished,
        sheet.winner,
    )


class Store:
    """The data folder: matches/, backups/, current, index.json and the write lock."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.matches_dir = home / "matches"
        self.backups_dir = home / "backups"
        self.current_file = home / "current"
        self.index_file = home / "index.json"
        self.lock_file = home / ".lock"

    # -- folders and locking -------------------------------------------------------------

    def _ensure_folders(self) -> None:
        if self.home.exists() and not self.home.is_dir():
            raise HginError(f"the data folder {self.home} is a file, not a folder")
        try:
            self.matches_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise HginError(
                f"cannot create the data folder {self.home}: {error.strerror}"
            ) from None

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the exclusive write lock for a whole read-modify-write."""
        self._ensure_folders()
        try:
            handle = open(self.lock_file, "a+b")  # noqa: SIM115 - held for the block
        except OSError as error:
            raise HginError(
                f"cannot open the lock file {self.lock_file}: {error.strerror}"
            ) from None
        try:
            _acquire(handle, self.lock_file)
            try:
                yield
            finally:
                _release(handle)
        finally:
            handle.close()

    # -- matches -------------------------------------------------------------------------

    def match_path(self, match_id: str) -> Path:
        if not MATCH_ID.match(match_id):
            raise HginError(f"'{match_id}' is not a match identifier (see 'hgin matches')")
        return self.matches_dir / f"{match_id}.json"

    def match_ids(self) -> list[str]:
        """Identifiers of every stored match, sorted."""
        if not self.matches_dir.is_dir():
            return []
        return sorted(
            p.name[:-5]
            for p in self.matches_dir.iterdir()
            if p.name.endswith(".json") and MATCH_ID.match(p.name[:-5])
        )

    def find(self, typed: str) -> str:
        """The match meant by an identifier or a unique prefix of one."""
        wanted = typed.strip().lower()
        ids = self.match_ids()
        if wanted in ids:
            return wanted
        hits = [i for i in ids if i.startswith(wanted)] if wanted else []
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise HginError(f"'{typed}' could be {', '.join(hits[:3])}: type more of it")
        raise HginError(f"no match '{typed}' (see 'hgin matches')")

    def new_id(self, players: tuple[str, str], created: str) -> str:
        stem = f"{created[:10]}-{slug(players[0])}-{slug(players[1])}"
        taken = set(self.match_ids())
        candidate, n = stem, 1
        while candidate in taken:
            n += 1
            candidate = f"{stem}-{n}"
        return candidate

    def read_raw(self, match_id: str) -> bytes:
        path = self.match_path(match_id)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise HginError(f"no match '{match_id}' (see 'hgin matches')") from None
        except OSError as error:
            raise HginError(f"cannot read {path}: {error.strerror}") from None

    def load(self, match_id: str) -> Match:
        """Read, migrate and validate a match file; anything wrong is refused, never reset."""
        path = self.match_path(match_id)
        raw = self.read_raw(match_id)
        return self._parse(path, raw)[0]

    def load_for_update(self, match_id: str) -> Match:
        """Load under the lock before a save; an older schema is first kept as it was."""
        path = self.match_path(match_id)
        raw = self.read_raw(match_id)
        match, version = self._parse(path, raw)
        if version < SCHEMA_VERSION:
            try:
                self.keep_before_migration(match_id, raw, version)
            except OSError as error:
                raise HginError(
                    f"cannot back up {path} before upgrading it: {error.strerror}"
                ) from None
        return match

    def _parse(self, path: Path, raw: bytes) -> tuple[Match, int]:
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise HginError(f"cannot read {path}: it is not valid JSON ({error})") from None
        try:
            if not isinstance(data, dict):
                raise HginError("it does not hold a JSON object")
            data, version = migrate(data)
            match = match_from_dict(data)
        except HginError as error:
            raise HginError(f"cannot use {path}: {error}") from None
        if match.id != path.name[:-5]:
            raise HginError(f"cannot use {path}: it holds match '{match.id}'")
        return match, version

    def save(self, match: Match) -> None:
        """Validate, back up the old version, write atomically, update the index."""
        data = match_to_dict(match)
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        match_from_dict(json.loads(text))  # what we write must read back
        path = self.match_path(match.id)
        self._ensure_folders()
        try:
            old = path.read_bytes()
        except FileNotFoundError:
            old = None
        except OSError as error:
            raise HginError(f"cannot read {path}: {error.strerror}") from None
        try:
            if old is not None:
                self._backup(match.id, old)
            atomic_write(path, text)
        except OSError as error:
            raise HginError(
                f"could not save {path}: {error.strerror or error}; the previous version is kept"
            ) from None
        self._update_index(match)

    def create(self, match: Match) -> None:
        """Save a new match and make it current."""
        if self.match_path(match.id).exists():
            raise HginError(f"a match '{match.id}' already exists")
        self.save(match)
        self.set_current(match.id)

    # -- backups -------------------------------------------------------------------------

    def backup_paths(self, match_id: str) -> list[Path]:
        """Backups of a match, newest first."""
        folder = self.backups_dir / match_id
        if not folder.is_dir():
            return []
        return sorted(folder.glob("*.json"), key=lambda p: p.name, reverse=True)

    def _backup(self, match_id: str, old: bytes) -> None:
        folder = self.backups_dir / match_id
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        existing = self.backup_paths(match_id)
        serial = len(existing) and int(existing[0].stem.rsplit("-", 1)[-1]) + 1
        atomic_write(folder / f"{stamp}-{serial:06d}.json", old.decode("utf-8"))
        for stale in self.backup_paths(match_id)[BACKUPS_KEPT:]:
            with contextlib.suppress(OSError):
                stale.unlink()

    def keep_before_migration(self, match_id: str, raw: bytes, version: int) -> Path:
        """Keep the file as it was before a schema upgrade, once, outside the rotation."""
        folder = self.backups_dir / match_id
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"before-schema-{version}.json.bak"
        if not target.exists():
            atomic_write(target, raw.decode("utf-8"))
        return target

    # -- current match -------------------------------------------------------------------

    def current_id(self) -> str | None:
        try:
            text = self.current_file.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise HginError(f"cannot read {self.current_file}: {error}") from None
        if not MATCH_ID.match(text):
            raise HginError(f"{self.current_file} does not name a match; pick one with 'hgin use'")
        return text

    def set_current(self, match_id: str) -> None:
        self._ensure_folders()
        try:
            atomic_write(self.current_file, match_id + "\n")
        except OSError as error:
            raise HginError(f"could not save {self.current_file}: {error.strerror}") from None

    # -- index ---------------------------------------------------------------------------

    def _read_index(self) -> dict[str, Any]:
        try:
            data = json.loads(self.index_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
            return {}
        entries = data.get("matches")
        return entries if isinstance(entries, dict) else {}

    def _write_index(self, entries: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            text = json.dumps({"version": INDEX_VERSION, "matches": entries}, ensure_ascii=False)
            atomic_write(self.index_file, text)

    def _update_index(self, match: Match) -> None:
        # The index is only a cache: losing it costs a re-read, never data.
        entries = self._read_index()
        stat = self.match_path(match.id).stat()
        entries[match.id] = {
            **entry_for(match).to_dict(),
            "stamp": [stat.st_mtime_ns, stat.st_size],
        }
        self._write_index(entries)

    def entries(self) -> list[MatchEntry]:
        """Every match's list entry, newest first, re-reading only files the index lacks."""
        entries = self._read_index()
        fresh: dict[str, Any] = {}
        changed = False
        for match_id in self.match_ids():
            path = self.match_path(match_id)
            try:
                stat = path.stat()
            except OSError:
                continue
            stamp = [stat.st_mtime_ns, stat.st_size]
            cached = entries.get(match_id)
            if isinstance(cached, dict) and cached.get("stamp") == stamp:
                fresh[match_id] = cached
                continue
            try:
                match = self.load(match_id)
            except HginError:
                continue
            fresh[match_id] = {**entry_for(match).to_dict(), "stamp": stamp}
            changed = True
        if changed or set(fresh) != set(entries):
            self._write_index(fresh)
        result = []
        for item in fresh.values():
            try:
                result.append(
                    MatchEntry(
                        str(item["id"]),
                        (str(item["players"][0]), str(item["players"][1])),
                        str(item["profile"]),
                        str(item["created"]),
                        int(item["hands"]),
                        bool(item["finished"]),
                        item["winner"],
                    )
                )
            except (KeyError, IndexError, TypeError, ValueError):
                continue
        result.sort(key=lambda e: (e.created, e.id), reverse=True)
        return result


def _acquire(handle: Any, path: Path) -> None:
    deadline = time.monotonic() + LOCK_TIMEOUT
    while True:
        try:
            _try_lock(handle)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise HginError(
                    f"another hgin is still writing (lock {path} held for over "
                    f"{LOCK_TIMEOUT:g} s); try again, or end the stuck process"
                ) from None
            time.sleep(0.02)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(handle: Any) -> None:
        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            raise BlockingIOError from None

    def _release(handle: Any) -> None:
        handle.seek(0)
        with contextlib.suppress(OSError):
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(handle: Any) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _release(handle: Any) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
