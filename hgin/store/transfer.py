"""Moving the whole history between machines: one JSON file holding every match.

The file is `{"format": "hgin-history", "version": 1, "exported": time, "matches": [...]}`, each
match in the match-file schema (`hgin.store.schema`). An import checks every match before it writes
anything, skips matches already stored unchanged, and overwrites a different match with the same
identifier only when asked (the old one is kept as a backup by `Store.save`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from hgin.engine.editing import replace_all
from hgin.engine.match import Match
from hgin.errors import HginError
from hgin.store.cache import MatchCache
from hgin.store.guard import Unusable, dump_json, parse_json, write_files
from hgin.store.matches import MATCH_ID, Store, match_bytes, match_from_data
from hgin.store.schema import match_to_dict

# Told how far a long task has got: (done, total).
Progress = Callable[[int, int], None]
# The journal's line for a change, from the match before and after it (the façade gives the
# reports' wording: the store makes no sentences).
ChangeLine = Callable[[Match, Match], str]


def _quiet(done: int, total: int) -> None:
    """No progress shown."""


FORMAT = "hgin-history"
FORMAT_VERSION = 1
EXPORT_KEYS = ("format", "version", "exported", "current", "matches")


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


def export_matches(
    store: Store, ids: list[str], exported: str, progress: Progress | None = None
) -> tuple[str, int]:
    """The export text of the stored matches `ids` (each loaded and validated) and their count."""
    matches = []
    for done, match_id in enumerate(ids, 1):
        matches.append(store.load(match_id))
        (progress or _quiet)(done, len(ids))
    try:
        current = store.current_id()
    except HginError:
        current = None
    return dump_json(export_data(matches, exported, current)), len(matches)


def _match_from_export(item: Any, number: int) -> tuple[Match, bytes]:
    label = f"match {number}"
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        label += f" ('{item['id'][:80]}')"
    try:
        if not isinstance(item, dict):
            raise HginError("it is not an object")
        match = match_from_data(item, label)[0]
        if not MATCH_ID.fullmatch(match.id):
            raise HginError(f"'{match.id[:80]}' is not a match identifier")
        raw = match_bytes(match)  # what would be written must open: its size is checked too
    except Unusable as error:
        raise HginError(f"{label}: {error.problem}") from None
    except HginError as error:
        raise HginError(f"{label}: {error}") from None
    return match, raw


@dataclass(frozen=True, slots=True)
class Export:
    """A validated export file: its matches and the match that was current where it was made."""

    matches: list[Match]
    current: str | None
    files: dict[str, bytes] = field(default_factory=dict)  # each match's file, as written


def parse_export(raw: bytes, where: str, progress: Progress | None = None) -> Export:
    """Every match in an export file, each checked as loading checks a match file; refuses the
    whole file at the first fault (an `Unusable` naming `where`)."""
    data = parse_json(raw, where)
    try:
        return _export_from_data(data, progress)
    except Unusable:
        raise
    except HginError as error:
        raise Unusable(where, str(error)) from None


def _export_from_data(data: Any, progress: Progress | None) -> Export:
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
    unknown = sorted(set(data) - set(EXPORT_KEYS))
    if unknown:
        raise HginError(f"it has an unknown field '{unknown[0][:40]}'")
    matches = []
    files: dict[str, bytes] = {}
    for number, item in enumerate(items, 1):
        match, raw = _match_from_export(item, number)
        matches.append(match)
        files[match.id] = raw
        (progress or _quiet)(number, len(items))
    seen: set[str] = set()
    for match in matches:
        if match.id in seen:
            raise HginError(f"it holds match '{match.id}' twice")
        seen.add(match.id)
    current = data.get("current")
    return Export(matches, current if isinstance(current, str) and current in seen else None, files)


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


def _same(store: Store, match: Match, raw: bytes) -> bool:
    """Whether the stored match is in the same state as `match` (whose file would be `raw`):
    the same players, first dealer, rules and hands, whatever each journal went through (a
    match imported over its stored copy keeps the stored history); a damaged stored file
    never is."""
    try:
        if store.read_raw(match.id) == raw:
            return True  # byte for byte what saving it would write: no need to replay it
        stored = store.load(match.id)
    except HginError:
        return False
    state = (match.players, match.first_dealer, match.rules, match.hands)
    return (stored.players, stored.first_dealer, stored.rules, stored.hands) == state


def _newest(match: Match) -> str:
    return max((h.recorded_at or "" for h in match.hands), default="") or match.created


def difference(store: Store, match: Match) -> str:
    """How the file's copy of a match differs from the stored one, in a few words."""
    try:
        stored = store.load(match.id)
    except HginError:
        return f"{match.id} (the stored file cannot be used)"
    mine, theirs = len(match.hands), len(stored.hands)
    if mine != theirs:
        more = "the file's copy" if mine > theirs else "the stored copy"
        counts = f"{max(mine, theirs)} against {min(mine, theirs)}"
        return f"{match.id} ({more} has more hands: {counts})"
    if _newest(match) != _newest(stored):
        newer = "the file's copy" if _newest(match) > _newest(stored) else "the stored copy"
        return f"{match.id} ({newer} is newer; both have {mine} hands)"
    return f"{match.id} (both have {mine} hands, which differ)"


def import_matches(
    store: Store,
    export: Export,
    *,
    change_line: ChangeLine,
    replace: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
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
            elif _same(store, match, export.files.get(match.id) or match_bytes(match)):
                report.identical.append(match.id)
            else:
                report.replaced.append(match.id)
        if report.replaced and not replace:
            count = len(report.replaced)
            shown = "; ".join(difference(store, by_id[i]) for i in report.replaced[:3])
            more = f"; and {count - 3} more" if count > 3 else ""
            one = count == 1
            raise HginError(
                f"{count} match{'' if one else 'es'} in the file differ{'s' if one else ''} "
                f"from the stored one{'' if one else 's'}: {shown}{more}. Nothing was "
                f"imported: add --replace to overwrite {'it' if one else 'them'} (old versions "
                "are kept as backups)"
            )
        # The new matches (and the pointer, where no match is current yet) as one change:
        # saving them one by one would flush the disk four times per match.
        added = [by_id[i] for i in report.added]
        files = [(store.match_path(m.id), export.files.get(m.id) or match_bytes(m)) for m in added]
        if export.current is not None and not _has_current(store):
            files.append((store.current_file, f"{export.current}\n".encode()))
            report.current = export.current
        if files:
            store.ensure_folders()
            write_files(files, progress)
        for done, match_id in enumerate(report.replaced):
            try:
                store.save(journaled_import(store, by_id[match_id], change_line))
            except HginError as error:
                imported = [*report.added, *report.replaced[:done]]
                if not imported:
                    raise
                raise HginError(
                    f"imported {_listed(imported)} before this failure: {error}"
                ) from None
        # Entered in the cache at once, so that the first 'hgin matches' and 'hgin stats'
        # need not read them again; the matches are in, and a cache catches up by itself.
        if added:
            with contextlib.suppress(HginError, OSError):
                MatchCache(store).enter(added)
    return report


def _listed(ids: list[str]) -> str:
    """'2 matches (a, b)', at most three named."""
    more = f" and {len(ids) - 3} more" if len(ids) > 3 else ""
    return f"{len(ids)} match{'' if len(ids) == 1 else 'es'} ({', '.join(ids[:3])}{more})"


def journaled_import(store: Store, imported: Match, change_line: ChangeLine) -> Match:
    """The stored match with the imported copy's hands and rules as one more change of its
    journal ('hgin undo' takes the import back, and the stored history stays in 'hgin log'),
    when both are between the same players with the same first dealer; otherwise (or when
    the stored file cannot be read) the imported match whole, the old file kept as a backup."""
    try:
        stored = store.load(imported.id)
    except HginError:
        return imported
    if (stored.players, stored.first_dealer) != (imported.players, imported.first_dealer):
        return imported
    at = datetime.now().astimezone().isoformat(timespec="seconds")
    changed = replace_all(stored, imported.hands, imported.rules, at)
    return changed.with_text(change_line(stored, changed))


def _has_current(store: Store) -> bool:
    try:
        return store.current_id() is not None
    except HginError:
        return True  # a damaged pointer is left for 'hgin use' to fix, not overwritten here
