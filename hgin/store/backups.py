"""Backups of one match's file: the last few versions (rotated) and the file as it was before a
schema upgrade. Only names this module wrote are ever listed, restored or pruned."""

import contextlib
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from hgin.store.guard import real_folder, remove, sweep_temp_files, write_atomic

BACKUPS_KEPT = 5
# Serials have six digits: a name hgin did not write is neither listed, counted nor pruned.
ROTATED = re.compile(r"(?P<serial>[0-9]{6})-(?P<stamp>[0-9]{8}T[0-9]{6}Z)\.json")
BEFORE_SCHEMA = re.compile(r"before-schema-(?P<version>[0-9]{1,4})\.json")
STAMP = "%Y%m%dT%H%M%SZ"
LAST_SERIAL = 999_999


class Backup(NamedTuple):
    """One kept version of a match file (a named tuple: every save loads this module)."""

    path: Path
    kept_at: datetime
    before_schema: int | None = None
    serial: int = 0

    @property
    def name(self) -> str:
        return self.path.name


def list_backups(folder: Path) -> list[Backup]:
    """The backups in a real folder (not a link): rotated ones newest first, then pre-upgrade."""
    rotated: list[Backup] = []
    upgrades: list[Backup] = []
    entries: list[os.DirEntry[str]] = []
    if real_folder(folder):
        with contextlib.suppress(OSError), os.scandir(folder) as listing:
            entries = [e for e in listing if e.is_file(follow_symlinks=False)]
    for entry in entries:
        path = folder / entry.name
        if found := ROTATED.fullmatch(entry.name):
            try:
                # Not strptime: its first use loads the locale machinery, a few ms per save.
                kept = datetime.fromisoformat(found["stamp"]).replace(tzinfo=UTC)
            except ValueError:
                continue  # a date that does not exist: not a name hgin wrote
            rotated.append(Backup(path, kept, serial=int(found["serial"])))
        elif found := BEFORE_SCHEMA.fullmatch(entry.name):
            try:
                kept = datetime.fromtimestamp(entry.stat(follow_symlinks=False).st_mtime, UTC)
            except OSError:
                continue
            upgrades.append(Backup(path, kept, before_schema=int(found["version"])))
    rotated.sort(key=lambda b: b.serial, reverse=True)
    upgrades.sort(key=lambda b: b.before_schema or 0, reverse=True)
    return rotated + upgrades


def _renumber(rotated: list[Backup]) -> int:
    """Number the rotated backups 1, 2, ... from the oldest; the highest serial now used."""
    for serial, backup in enumerate(reversed(rotated), 1):
        name = f"{serial:06d}-{backup.kept_at.strftime(STAMP)}.json"
        if name != backup.name:
            os.rename(backup.path, backup.path.with_name(name))
    return len(rotated)


def write_backup(folder: Path, raw: bytes) -> Path:
    """Keep `raw` as the newest rotated backup, never over a file (under the lock); OSError."""
    sweep_temp_files(folder)
    stamp = datetime.now(UTC).strftime(STAMP)
    rotated = [b for b in list_backups(folder) if b.before_schema is None]
    serial = max((b.serial for b in rotated), default=0) + 1
    if serial > LAST_SERIAL:
        serial = _renumber(rotated) + 1
    while True:
        path = folder / f"{serial:06d}-{stamp}.json"
        try:
            write_atomic(path, raw, replace=False)
            return path
        except FileExistsError:
            serial += 1  # a name taken by a file hgin does not list: take the next one
            if serial > LAST_SERIAL:
                raise


def write_before_schema(folder: Path, raw: bytes, version: int) -> Path | None:
    """Keep the file as it was before its first upgrade from `version`; None if already kept."""
    path = folder / f"before-schema-{version}.json"
    try:
        write_atomic(path, raw, replace=False)
    except FileExistsError:
        return None
    return path


def prune(folder: Path) -> None:
    """Delete rotated backups beyond the newest BACKUPS_KEPT (pre-upgrade copies stay)."""
    rotated = [b for b in list_backups(folder) if b.before_schema is None]
    for stale in rotated[BACKUPS_KEPT:]:
        with contextlib.suppress(OSError):
            remove(stale.path)
