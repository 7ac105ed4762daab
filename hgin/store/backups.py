"""Backups of one match's file: the last few versions (rotated) and the file as it was before a
schema upgrade. Only names this module wrote are ever listed, restored or pruned."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hgin.store.files import atomic_write, sweep_temp_files

BACKUPS_KEPT = 5
ROTATED = re.compile(r"^(?P<serial>[0-9]{6,9})-(?P<stamp>[0-9]{8}T[0-9]{6}Z)\.json$")
BEFORE_SCHEMA = re.compile(r"^before-schema-(?P<version>[0-9]{1,4})\.json$")
STAMP = "%Y%m%dT%H%M%SZ"


@dataclass(frozen=True, slots=True)
class Backup:
    """One kept version of a match file."""

    path: Path
    kept_at: datetime
    before_schema: int | None = None

    @property
    def name(self) -> str:
        return self.path.name


def list_backups(folder: Path) -> list[Backup]:
    """The backups in `folder`: rotated ones newest first, then the pre-upgrade copies."""
    rotated: list[tuple[int, Backup]] = []
    upgrades: list[tuple[int, Backup]] = []
    try:
        paths = [p for p in folder.iterdir() if p.is_file()]
    except OSError:
        return []
    for path in paths:
        if found := ROTATED.match(path.name):
            # Not strptime: its first use loads the locale machinery, a few ms on every save.
            kept = datetime.fromisoformat(found["stamp"]).replace(tzinfo=UTC)
            rotated.append((int(found["serial"]), Backup(path, kept)))
        elif found := BEFORE_SCHEMA.match(path.name):
            version = int(found["version"])
            try:
                kept = datetime.fromtimestamp(path.stat().st_mtime, UTC)
            except OSError:
                continue
            upgrades.append((version, Backup(path, kept, before_schema=version)))
    rotated.sort(key=lambda item: item[0], reverse=True)
    upgrades.sort(key=lambda item: item[0], reverse=True)
    return [b for _, b in rotated] + [b for _, b in upgrades]


def _next_serial(folder: Path) -> int:
    serials = [0]
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            if found := ROTATED.match(path.name):
                serials.append(int(found["serial"]))
    return max(serials) + 1


def write_backup(folder: Path, raw: bytes, now: datetime | None = None) -> Path:
    """Keep `raw` as the newest rotated backup (call under the lock); OSError on failure."""
    folder.mkdir(parents=True, exist_ok=True)
    sweep_temp_files(folder)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(STAMP)
    path = folder / f"{_next_serial(folder):06d}-{stamp}.json"
    atomic_write(path, raw)
    return path


def write_before_schema(folder: Path, raw: bytes, version: int) -> Path | None:
    """Keep the file as it was before its first upgrade from `version`; None if already kept."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"before-schema-{version}.json"
    if path.exists():
        return None
    atomic_write(path, raw)
    return path


def prune(folder: Path, kept: int = BACKUPS_KEPT) -> None:
    """Delete rotated backups beyond the newest `kept` (pre-upgrade copies stay)."""
    rotated = [b for b in list_backups(folder) if b.before_schema is None]
    for stale in rotated[kept:]:
        with contextlib.suppress(OSError):
            stale.path.unlink()
