"""Moving matches between machines: `{"format": "hgin-history", "version": 1, "exported": time,
"matches": [...]}`, each match in the match-file schema. An import checks every match before it
writes anything, then merges each with the copies we hold by their journals."""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hgin.engine.copies import common_changes, holds, same_start
from hgin.engine.identifiers import LEGACY_SLUG, slug
from hgin.engine.match import Match
from hgin.errors import HginError
from hgin.store.cache import MatchCache
from hgin.store.guard import MATCH_CAP, Unusable, parse_json, read_bytes, remove, write_files
from hgin.store.matches import MATCH_ID, Store, match_bytes, match_from_data
from hgin.store.schema import SCHEMA_VERSION

# Told how far a long task has got: (done, total).
Progress = Callable[[int, int], None]
# The journal's line for a change, from the match before and after it (the reports' wording).
ChangeLine = Callable[[Match, Match], str]
FORMAT = "hgin-history"
FORMAT_VERSION = 1
EXPORT_KEYS = ("format", "version", "exported", "current", "matches")
# How `export_matches` lays out the matches: after the head, one match a line.
MATCHES_OPEN = b', "matches": [\n'
MATCHES_CLOSE = b"\n]}\n"
MATCH_START = re.compile(rb',\n(?=\{"schema": )')


def export_matches(
    store: Store, ids: list[str], exported: str, progress: Progress | None = None
) -> tuple[str, int]:
    """The export text of the stored matches `ids`, each checked as loading checks it."""
    texts = []
    for done, match_id in enumerate(ids, 1):
        raw = store.read_raw(match_id)
        match, version = store.parse(raw, store.match_path(match_id), match_id)
        texts.append(raw if version == SCHEMA_VERSION else match_bytes(match))
        if progress is not None:
            progress(done, len(ids))
    current = _current(store)
    head = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported": exported,
        "current": current if current in ids else None,
    }
    # One match a line, each as compact as its file: the C encoder writes the head only.
    matches = b",\n".join(text.rstrip(b"\n") for text in texts).decode("utf-8")
    text = f"{json.dumps(head, ensure_ascii=False)[:-1]}{MATCHES_OPEN.decode()}{matches}"
    return text + MATCHES_CLOSE.decode(), len(ids)


@dataclass(frozen=True, slots=True)
class Export:
    """A checked export file: each match with the bytes of its file, and the current match."""

    matches: list[tuple[Match, bytes]]
    current: str | None


def parse_export(raw: bytes, where: str, progress: Progress | None = None) -> Export:
    """Every match in an export file (or a match file), refused whole at the first fault."""
    laid_out = _as_written(raw)
    data, texts = laid_out if laid_out is not None else (parse_json(raw, where), None)
    try:
        if isinstance(data, dict) and "format" not in data and "schema" in data:
            return Export([_match_from_export(data, 1, None)], None)  # a sync tool's copy
        items = _export_items(data)
        matches = []
        for number, item in enumerate(items, 1):
            text = texts[number - 1] if texts is not None else None
            matches.append(_match_from_export(item, number, text))
            if progress is not None:
                progress(number, len(items))
    except HginError as error:
        raise Unusable(where, str(error)) from None
    seen: set[str] = set()
    for match, _ in matches:
        if match.id in seen:
            raise Unusable(where, f"it holds match '{match.id}' twice")
        seen.add(match.id)
    current = data.get("current")
    return Export(matches, current if isinstance(current, str) and current in seen else None)


def _as_written(raw: bytes) -> tuple[dict[str, Any], list[bytes]] | None:
    """An export laid out as `export_matches` writes it (a match a line), read a match at a time:
    its data and each match's bytes. None for any other file, or one that fails a check."""
    head, found, body = raw.partition(MATCHES_OPEN)
    if not found or not body.endswith(MATCHES_CLOSE):
        return None
    texts = MATCH_START.split(body[: -len(MATCHES_CLOSE)])
    try:
        data = parse_json(head + b"}", "the export")
        items = [parse_json(text, "the export") for text in texts]
    except Unusable:
        return None
    if not isinstance(data, dict) or not data or "matches" in data:  # '{, "matches"' is no JSON
        return None
    data["matches"] = items
    return data, texts


def _export_items(data: Any) -> list[Any]:
    """The matches an export file holds, once its format is checked."""
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
    return items


def _match_from_export(item: Any, number: int, text: bytes | None) -> tuple[Match, bytes]:
    """A match of the file and the bytes of its file: `text` if of the present schema."""
    label = f"match {number}"
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        label += f" ('{item['id'][:80]}')"
    try:
        if not isinstance(item, dict):
            raise HginError("it is not an object")
        match, version = match_from_data(item, label)
        if not MATCH_ID.fullmatch(match.id):
            raise HginError(f"'{match.id[:80]}' is not a match identifier")
        if text is not None and version == SCHEMA_VERSION and len(text) < MATCH_CAP:
            return match, text + b"\n"  # the bytes just checked: what is written opens
        return match, match_bytes(match)  # what would be written opens: its size is checked
    except Unusable as error:
        raise HginError(f"{label}: {error.problem}") from None
    except HginError as error:
        raise HginError(f"{label}: {error}") from None


@dataclass(frozen=True, slots=True)
class Kept:
    """A match of the file stored beside one of ours (`common` None: not a copy that went on)."""

    id: str
    beside: str
    common: int | None
    start_differs: bool = False


@dataclass(frozen=True, slots=True)
class TakenOff:
    """A stored copy that a copy of the file holds whole, taken off the list for `into`."""

    id: str
    into: str


@dataclass(slots=True)
class ImportReport:
    """What an import did, by match identifier; each match is named once."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # the file's copy holds ours and more
    up_to_date: list[str] = field(default_factory=list)  # ours is the file's copy or holds it
    kept: list[Kept] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    taken_off: list[TakenOff] = field(default_factory=list)
    current: str | None = None
    copy_removed: bool = False  # the file was a conflicted copy in matches/, now imported


class _Held:
    """The stored matches as the import has left them so far."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ids = store.match_ids()
        self.on_disk = set(self.ids)
        self.by_stem: dict[str, dict[str, list[Match]]] = {}
        self.changed: dict[str, Match | None] = {}  # None: taken off the list
        self.changed_by_uid: dict[str, dict[str, Match]] = {}  # those kept, by identity
        self.raw: dict[str, bytes] = {}  # the file's bytes of a match stored as the file has it

    def has(self, match_id: str) -> bool:
        if match_id in self.changed:
            return self.changed[match_id] is not None
        return match_id in self.on_disk

    def get(self, match_id: str) -> Match | None:
        if match_id in self.changed:
            return self.changed[match_id]
        try:
            return self.store.load(match_id)
        except HginError:
            return None

    def copies(self, match: Match) -> list[Match]:
        """The copies of `match` held now (the same identity), sorted by identifier: those whose
        names start as its own or as its day and first player would, each read once."""
        day = match.created[:10]
        stems = [f"{day}-{slug(match.players[0])}", f"{day}-{LEGACY_SLUG}"]
        if not match.id.startswith(tuple(stems)):
            stems.append(match.id)
        for stem in stems:  # what starts with it sorts from it to it and "~" (after [a-z0-9-])
            if stem not in self.by_stem:
                by_uid = self.by_stem.setdefault(stem, {})
                ids = self.ids[
                    bisect.bisect_left(self.ids, stem) : bisect.bisect_left(self.ids, f"{stem}~")
                ]
                for name in ids:
                    with contextlib.suppress(HginError):
                        stored = self.store.load(name)
                        by_uid.setdefault(stored.uid, []).append(stored)
        on_disk = [c for stem in stems for c in self.by_stem[stem].get(match.uid, [])]
        found = {c.id: c for c in on_disk if c.id not in self.changed}
        found |= self.changed_by_uid.get(match.uid, {})
        return [found[i] for i in sorted(found)]

    def put(self, match: Match, raw: bytes | None = None) -> None:
        self._forget(match.id)
        self.changed[match.id] = match
        self.changed_by_uid.setdefault(match.uid, {})[match.id] = match
        if raw is not None:
            self.raw[match.id] = raw

    def take_off(self, match_id: str) -> None:
        self._forget(match_id)
        self.changed[match_id] = None

    def _forget(self, match_id: str) -> None:
        before = self.changed.get(match_id)
        if before is not None:
            del self.changed_by_uid[before.uid][match_id]
        self.raw.pop(match_id, None)


# Which list names a match touched more than once by one import: the highest rank.
RANKS = {"up_to_date": 0, "updated": 1, "replaced": 1, "added": 2, "kept": 2}


def import_matches(
    store: Store,
    export: Export,
    *,
    change_line: ChangeLine,
    at: str,
    replace: bool = False,
    progress: Progress | None = None,
    merged_copy: Path | None = None,
) -> ImportReport:
    """Merge every match of the file in turn with the copies held at that moment, under the
    lock, as docs/history.md tells; with `replace` the file's
    copy of a match we hold wins, as one more change of ours made `at`."""
    now_at: dict[str, str] = {}  # where each match of the file is stored after the import
    named: dict[str, str] = {}  # each match touched, and the list that names it
    kept: dict[str, Kept] = {}
    taken_off: dict[str, str] = {}
    with store.locked():
        held = _Held(store)
        current_before = _current(store)
        taken = {*store.known_ids(), *(m.id for m, _ in export.matches)}

        def name(match_id: str, what: str) -> None:
            if RANKS[what] >= RANKS[named.get(match_id, "up_to_date")]:
                named[match_id] = what

        for match, raw in export.matches:
            if match.id not in held.changed and _stored_bytes(store, match.id) == raw:
                name(match.id, "up_to_date")  # byte for byte: no need to replay it
                now_at[match.id] = match.id
                continue
            copies = held.copies(match)
            alike = [c for c in copies if same_start(c, match)]
            stored = held.has(match.id)
            found = next((c for c in alike if c.journal == match.journal), None)
            ahead = [c for c in alike if holds(c, match)]
            if found is None and ahead and not (replace and stored):
                found = ahead[0]
            if found is not None:
                name(found.id, "up_to_date")
                now_at[match.id] = found.id
                continue
            behind = [c for c in alike if holds(match, c)]
            if behind:  # the file's copy goes on from ours: ours takes its further changes
                ours = min(behind, key=lambda c: _preference(c, match, current_before))
                held.put(
                    dataclasses.replace(match, id=ours.id), raw if ours.id == match.id else None
                )
                name(ours.id, "updated")
                for other in behind:
                    if other is not ours:
                        held.take_off(other.id)
                        taken_off[other.id] = ours.id
                now_at[match.id] = ours.id
                continue
            stored_match = held.get(match.id) if replace and stored else None
            if stored_match is not None:
                imported = journaled_import(stored_match, match, change_line, at)
                if imported is None:
                    name(match.id, "up_to_date")
                else:
                    held.put(imported)
                    name(match.id, "replaced")
                now_at[match.id] = match.id
                continue
            where = match.id  # unless held, or taken off by this import: never reused at once
            if stored or match.id in taken_off:
                where = store.new_id(match.players, match.created, taken=taken)
            taken.add(where)
            if where == match.id:
                held.put(match, raw)
            else:
                held.put(dataclasses.replace(match, id=where))
            now_at[match.id] = where
            if not copies and not stored:
                name(where, "added")
                continue
            best = max(alike, key=lambda c: common_changes(c, match), default=None)
            if best is not None:
                kept[where] = Kept(where, best.id, common_changes(best, match))
            else:
                beside = copies[0].id if copies else match.id
                kept[where] = Kept(where, beside, None, start_differs=bool(copies))
            name(where, "kept")
        report = _report(named, kept, taken_off, held)
        at_id = now_at.get(export.current or "")
        _write(store, held, _final(taken_off, at_id) if at_id else None, report, progress)
        if merged_copy is not None:
            with contextlib.suppress(OSError):  # merged all the same: the list names it still
                remove(merged_copy)
                report.copy_removed = True
    return report


def _final(taken_off: dict[str, str], match_id: str) -> str:
    """Where a match ended up: the copy it was taken off into, and so on."""
    seen = set()
    while match_id in taken_off and match_id not in seen:
        seen.add(match_id)
        match_id = taken_off[match_id]
    return match_id


def _preference(copy: Match, match: Match, current: str | None) -> tuple[int, int, str]:
    """Which stored copy takes a copy of the file that holds it (the least)."""
    rank = 0 if copy.id == match.id else 1 if copy.id == current else 2
    return rank, -common_changes(copy, match), copy.id


def _report(
    named: dict[str, str], kept: dict[str, Kept], taken_off: dict[str, str], held: _Held
) -> ImportReport:
    report = ImportReport()
    for match_id, what in named.items():
        if held.changed.get(match_id, True) is None:
            continue  # taken off by a later copy of the file
        if what == "kept":
            report.kept.append(
                dataclasses.replace(kept[match_id], beside=_final(taken_off, kept[match_id].beside))
            )
        else:
            getattr(report, what).append(match_id)
    report.taken_off = [
        TakenOff(gone, _final(taken_off, into))
        for gone, into in taken_off.items()
        if gone in held.on_disk and held.changed.get(gone, True) is None
    ]
    return report


def _write(
    store: Store,
    held: _Held,
    current: str | None,
    report: ImportReport,
    progress: Progress | None,
) -> None:
    """Write what the import changed: the new matches (and the pointer to `current`, where none
    is current) as one change, then each stored match it changed, then those it took off."""
    files: list[tuple[Path, bytes]] = []
    added: list[Match] = []
    saves: list[Match] = []
    for match_id, match in held.changed.items():
        if match is None:
            continue
        if match_id in held.on_disk:
            saves.append(match)
        else:
            files.append((store.match_path(match_id), held.raw.get(match_id) or match_bytes(match)))
            added.append(match)
    if current is not None and not _has_current(store):
        files.append((store.current_file, f"{current}\n".encode()))
        report.current = current
    if files:
        store.ensure_folders()
        write_files(files, progress)
    done: list[str] = [m.id for m in added]
    try:
        for changed in saves:
            store.save(changed)
            done.append(changed.id)
        for gone in report.taken_off:  # kept as a backup; its note is forgotten below
            store.abandon(gone.id, gone.into, into=gone.into)
    except (HginError, OSError) as error:
        if not done:
            raise
        raise HginError(f"imported {_listed(done)} before this failure: {error}") from None
    if files or saves:
        store.forget_abandoned()  # undo now means the latest change, not an abandoned match
    # Entered in the cache at once, so that listing them need not read them again.
    if added:
        with contextlib.suppress(HginError, OSError):
            MatchCache(store).enter(added)


def _current(store: Store) -> str | None:
    try:
        return store.current_id()
    except HginError:
        return None


def _listed(ids: list[str]) -> str:
    """'2 matches (a, b)', at most three named."""
    more = f" and {len(ids) - 3} more" if len(ids) > 3 else ""
    return f"{len(ids)} match{'' if len(ids) == 1 else 'es'} ({', '.join(ids[:3])}{more})"


def journaled_import(
    stored: Match, imported: Match, change_line: ChangeLine, at: str
) -> Match | None:
    """What `--replace` saves for a match we hold: None when ours is in the same state."""
    if (stored.players, stored.first_dealer, stored.notice_after) != (
        imported.players, imported.first_dealer, imported.notice_after
    ):  # fmt: skip
        return imported
    if (stored.rules, stored.hands) == (imported.rules, imported.hands):
        return None
    changed = stored.change("import", {"hands": imported.hands, "rules": imported.rules}, at=at)
    return changed.with_text(change_line(stored, changed))


def _stored_bytes(store: Store, match_id: str) -> bytes | None:
    try:
        return read_bytes(store.match_path(match_id), cap=MATCH_CAP)
    except HginError:
        return None


def _has_current(store: Store) -> bool:
    try:
        return store.current_id() is not None
    except HginError:
        return True  # a damaged pointer is left for 'hgin use' to fix, not overwritten here
