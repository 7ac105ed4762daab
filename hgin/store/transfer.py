"""Moving the whole history between machines: one JSON file holding every match.

The file is `{"format": "hgin-history", "version": 1, "exported": time, "matches": [...]}`, each
match in the match-file schema (`hgin.store.schema`). An import checks every match before it writes
anything, skips matches already stored unchanged, and overwrites a different match with the same
identifier only when asked (the old one is kept as a backup by `Store.save`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hgin.engine.match import Match
from hgin.errors import HginError
from hgin.reports.stats import record_for
from hgin.store.files import TEMP_SUFFIX, fsync_dir
from hgin.store.index import entry_for
from hgin.store.matches import MATCH_ID, Store
from hgin.store.schema import match_from_dict, match_to_dict, migrate
from hgin.store.stats_cache import RecordCache, file_stamp

FORMAT = "hgin-history"
FORMAT_VERSION = 1
FEW = 16  # up to this many new matches, one fsync each beats flushing the whole disk


def export_data(
    matches: Iterable[Match], exported: str, current: str | None = None
) -> dict[str, Any]:
    """The export file's content for these matches (`current`: the current one, if among them)."""
    data = [match_to_dict(m) for m in matches]
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported": exported,
        "current": current if any(m["id"] == current for m in data) else None,
        "matches": data,
    }


def export_matches(store: Store, ids: Iterable[str], exported: str) -> tuple[str, int]:
    """The export text of the stored matches `ids` (each loaded and validated) and their count."""
    matches = [store.load(match_id) for match_id in ids]
    try:
        current = store.current_id()
    except HginError:
        current = None
    data = export_data(matches, exported, current)
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n", len(matches)


def _match_from_export(item: Any, number: int) -> Match:
    label = f"match {number}"
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        label += f" ('{item['id'][:80]}')"
    try:
        if not isinstance(item, dict):
            raise HginError("it is not an object")
        data, _ = migrate(item)
        match = match_from_dict(data)
        if not MATCH_ID.match(match.id):
            raise HginError(f"'{match.id[:80]}' is not a match identifier")
    except HginError as error:
        raise HginError(f"{label}: {error}") from None
    return match


@dataclass(frozen=True, slots=True)
class Export:
    """A validated export file: its matches and the match that was current where it was made."""

    matches: list[Match]
    current: str | None


def parse_export(raw: bytes) -> Export:
    """Every match in an export file, each validated; refuses the whole file at the first fault."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HginError(f"it is not valid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HginError(f'it is not an hgin history export (no "format": "{FORMAT}")')
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise HginError("it has no valid format version")
    if version > FORMAT_VERSION:
        raise HginError(
            f"it was written by a newer hgin (export version {version}; this hgin reads up to "
            f"{FORMAT_VERSION}): upgrade hgin to import it"
        )
    items = data.get("matches")
    if not isinstance(items, list):
        raise HginError("its 'matches' is not a list")
    matches = [_match_from_export(item, n) for n, item in enumerate(items, 1)]
    seen: set[str] = set()
    for match in matches:
        if match.id in seen:
            raise HginError(f"it holds match '{match.id}' twice")
        seen.add(match.id)
    current = data.get("current")
    return Export(matches, current if isinstance(current, str) and current in seen else None)


@dataclass(slots=True)
class ImportReport:
    """What an import did, by match identifier."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    identical: list[str] = field(default_factory=list)
    current: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "replaced": self.replaced,
            "identical": self.identical,
            "current": self.current,
        }


def match_text(match: Match) -> str:
    """A match file's text, exactly as `Store.save` writes it."""
    return json.dumps(match_to_dict(match), ensure_ascii=False, indent=1) + "\n"


def _same(store: Store, match: Match) -> bool:
    try:
        if store.read_raw(match.id) == match_text(match).encode("utf-8"):
            return True  # byte for byte what saving it would write: no need to replay it
        stored = store.load(match.id)
    except HginError:
        return False  # a damaged stored file is never "the same"
    return match_to_dict(stored) == match_to_dict(match)


def import_matches(store: Store, export: Export, replace: bool = False) -> ImportReport:
    """Store every match under the lock; refuses before writing if any would overwrite a
    different match and `replace` is not given. Where no match is current yet, the file's
    current match becomes current."""
    report = ImportReport()
    by_id = {m.id: m for m in export.matches}
    with store.locked():
        stored = set(store.match_ids())
        for match in export.matches:
            if match.id not in stored:
                report.added.append(match.id)
            elif _same(store, match):
                report.identical.append(match.id)
            else:
                report.replaced.append(match.id)
        if report.replaced and not replace:
            shown = ", ".join(report.replaced[:3])
            more = f" and {len(report.replaced) - 3} more" if len(report.replaced) > 3 else ""
            count = len(report.replaced)
            raise HginError(
                f"{count} match{'es' if count != 1 else ''} in the file differ from the stored "
                f"one{'s' if count != 1 else ''} with the same identifier ({shown}{more}); "
                "nothing was imported: add --replace to overwrite them (old versions are kept "
                "as backups)"
            )
        added = [by_id[i] for i in report.added]
        write_new(store, added)
        for match_id in report.replaced:
            store.save(by_id[match_id])
        remember(store, added)
        if export.current is not None and not _has_current(store):
            with contextlib.suppress(HginError):  # the matches are in; the pointer is a nicety
                store.set_current(export.current)
                report.current = export.current
    return report


def write_new(store: Store, matches: list[Match]) -> None:
    """Write matches that have no file yet, all or nothing (call under the lock).

    Each goes to a temporary file first; the disk is flushed once for all of them (one fsync
    each for a few), then each is renamed into place, so a crash leaves every file whole or
    absent (leftover temporary files are swept under the lock). Saving them one by one would
    flush the disk four times per match and rewrite the whole list index each time.
    """
    temps: list[tuple[Path, Path]] = []
    one_flush = hasattr(os, "sync") and len(matches) > FEW
    try:
        for match in matches:
            target = store.match_path(match.id)
            fd, name = tempfile.mkstemp(
                prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent
            )
            temps.append((Path(name), target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(match_text(match).encode("utf-8"))
                if not one_flush:
                    handle.flush()
                    os.fsync(handle.fileno())
        if one_flush:
            os.sync()
    except OSError as error:
        for temp, _ in temps:
            with contextlib.suppress(OSError):
                temp.unlink()
        raise HginError(
            f"could not write in {store.matches_dir}: {error.strerror or error}; "
            "nothing was imported"
        ) from None
    for done, (temp, target) in enumerate(temps):
        try:
            os.replace(temp, target)
        except OSError as error:
            for left, _ in temps[done:]:
                with contextlib.suppress(OSError):
                    left.unlink()
            raise HginError(
                f"could not write {target}: {error.strerror or error}; "
                f"{done} of {len(temps)} new matches were imported"
            ) from None
    if temps:
        fsync_dir(store.matches_dir)


def remember(store: Store, matches: list[Match]) -> None:
    """Enter freshly written matches in the list index and the statistics cache at once, so
    the first 'hgin matches' and 'hgin stats' after an import need not read them again."""
    if not matches:
        return
    entries = store.index.read()
    records: dict[str, Any] = {}
    for match in matches:
        try:
            stamp = file_stamp(store.match_path(match.id).stat())
        except OSError:
            continue
        entries[match.id] = {**entry_for(match).to_dict(), "stamp": stamp}
        records[match.id] = (record_for(match), stamp)
    store.index.write(entries)
    RecordCache(store).add(records)


def _has_current(store: Store) -> bool:
    try:
        return store.current_id() is not None
    except HginError:
        return True  # a damaged pointer is left for 'hgin use' to fix, not overwritten here
