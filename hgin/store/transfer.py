"""Moving matches between machines: `{"format": "hgin-history", "version": 1, "exported": time,
"matches": [...]}`, each match in the match-file schema. An import checks every match before it
writes anything, then merges each with the copies we hold by their journals."""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from hgin.engine.editing import replace_all
from hgin.engine.identifiers import LEGACY_SLUG, slug
from hgin.engine.match import Match
from hgin.errors import HginError
from hgin.store.cache import MatchCache
from hgin.store.guard import MATCH_CAP, Unusable, parse_json, read_bytes, remove, write_files
from hgin.store.matches import MATCH_ID, Store, match_bytes, match_from_data
from hgin.store.schema import FIRST_LINE, SCHEMA_VERSION

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
FIRST_LINE_BYTES = FIRST_LINE.encode()


def _quiet(done: int, total: int) -> None:
    """No progress shown."""


def export_matches(
    store: Store, ids: list[str], exported: str, progress: Progress | None = None
) -> tuple[str, int]:
    """The export text of the stored matches `ids` (each checked as loading checks it) and
    their count. A file of the present schema goes in as it is, an older one as saving writes
    it; "current" names the current match if it is among them. A file still at the stamp the
    cache holds for it was checked whole when that entry was made: it is not checked again."""
    checked = MatchCache(store).checked_stamps()
    texts = []
    for done, match_id in enumerate(ids, 1):
        raw = store.read_raw(match_id)
        stamp = store.stamp(match_id)  # after the read: a file replaced since has a new inode
        if stamp is None or stamp != checked.get(match_id) or not raw.startswith(FIRST_LINE_BYTES):
            match, version = store.parse(raw, store.match_path(match_id), match_id)
            raw = raw if version == SCHEMA_VERSION else match_bytes(match)
        texts.append(raw)
        (progress or _quiet)(done, len(ids))
    try:
        current = store.current_id()
    except HginError:
        current = None
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
    """Every match in an export file (or a match file), each checked as loading checks a match
    file; the whole file is refused at the first fault (an `Unusable` naming `where`). A match
    of the present schema keeps the bytes the file gives it (its sheet is never read back)."""
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
            (progress or _quiet)(number, len(items))
    except Unusable:
        raise
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
    """An export laid out as `export_matches` writes it, read a match at a time so that each
    match's own bytes are known: its data (with the matches) and those bytes. None for any
    other file, or one that fails a check: the whole file is then read at once, which says why.
    A raw line break is never inside a JSON text, so each match begins a line."""
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
    """A match of the file and the bytes of its file: `text` (its bytes in the export) when it
    is of the present schema, else as saving writes it."""
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
    """A match of the file stored under a new identifier beside a stored one: the two copies of
    one match went their own ways after `common` changes, or (None) they are two matches."""

    id: str
    beside: str
    common: int | None


@dataclass(slots=True)
class ImportReport:
    """What an import did, by match identifier."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # the file's copy extends ours
    up_to_date: list[str] = field(default_factory=list)  # ours is the file's copy or extends it
    kept: list[Kept] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    current: str | None = None
    copy_removed: bool = False  # the file was a conflicted copy in matches/, now merged

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _common(ours: Match, theirs: Match) -> int:
    """How many changes the two journals begin with alike."""
    count = 0
    for mine, other in zip(ours.journal, theirs.journal, strict=False):
        if mine != other:
            break
        count += 1
    return count


def _copies(
    store: Store, match: Match, ids: list[str], by_stem: dict[str, dict[str, list[Match]]]
) -> list[Match]:
    """The stored copies of `match` (the same identity), sorted: those named by its day and
    first player, whatever the slugs' length then, or 'player' for a name without a letter a
    file name holds, and by its identifier (`ids`: the stored ones, sorted), each read once
    (`by_stem`: the readable ones by their identity)."""
    day = match.created[:10]
    stems = [f"{day}-{slug(match.players[0])}", f"{day}-{LEGACY_SLUG}"]
    if not match.id.startswith(tuple(stems)):
        stems.append(match.id)
    for stem in stems:  # what starts with it sorts from it to it and "~" (after [a-z0-9-])
        if stem not in by_stem:
            named = ids[bisect.bisect_left(ids, stem) : bisect.bisect_left(ids, f"{stem}~")]
            by_stem[stem] = _by_uid(store, named)
    found = {stored.id: stored for stem in stems for stored in by_stem[stem].get(match.uid, [])}
    return sorted(found.values(), key=lambda stored: stored.id)


def _by_uid(store: Store, names: Iterable[str]) -> dict[str, list[Match]]:
    """The readable stored matches `names`, by their identity."""
    found: dict[str, list[Match]] = {}
    for name in names:
        with contextlib.suppress(HginError):
            stored = store.load(name)
            found.setdefault(stored.uid, []).append(stored)
    return found


def import_matches(
    store: Store,
    export: Export,
    *,
    change_line: ChangeLine,
    replace: bool = False,
    progress: Progress | None = None,
    merged_copy: Path | None = None,
) -> ImportReport:
    """Merge every match of the file by its journal, under the lock: ours is brought up to
    date where the file's copy extends it, left where it extends the file's, and a match held
    differently is kept beside ours under a new identifier; with `replace` the file's copy of
    a match we hold wins. The file's current match becomes current where none is."""
    report = ImportReport()
    now_at: dict[str, str] = {}  # where each match of the file is stored after the import
    with store.locked():
        ids = store.match_ids()
        present = set(ids)
        by_stem: dict[str, dict[str, list[Match]]] = {}
        taken = {*store.known_ids(), *(m.id for m, _ in export.matches)}
        files: list[tuple[Path, bytes]] = []
        added: list[Match] = []
        saves: list[Match] = []
        for match, raw in export.matches:
            now_at[match.id] = match.id
            if match.id in present and _stored_bytes(store, match.id) == raw:
                report.up_to_date.append(match.id)  # byte for byte: no need to replay it
                continue
            copies = [(_common(c, match), c) for c in _copies(store, match, ids, by_stem)]
            ahead = [c for n, c in copies if n == len(match.journal)]
            behind = [c for n, c in copies if n == len(c.journal) < len(match.journal)]
            stored = match.id in present
            if ahead and not (replace and stored):
                report.up_to_date.append(ahead[0].id)
                now_at[match.id] = ahead[0].id
            elif behind:  # the file's copy goes on from ours: ours takes its further changes
                ours = max(behind, key=lambda c: len(c.journal))
                saves.append(dataclasses.replace(match, id=ours.id))
                report.updated.append(ours.id)
                now_at[match.id] = ours.id
            elif replace and stored:
                imported = journaled_import(store, match, change_line)
                if imported is None:
                    report.up_to_date.append(match.id)
                else:
                    saves.append(imported)
                    report.replaced.append(match.id)
            elif not stored:
                files.append((store.match_path(match.id), raw))
                added.append(match)
                report.added.append(match.id)
            else:  # another match, or another way: both are kept
                kept = dataclasses.replace(
                    match, id=store.new_id(match.players, match.created, taken=taken)
                )
                taken.add(kept.id)
                files.append((store.match_path(kept.id), match_bytes(kept)))
                added.append(kept)
                common, beside = max(copies, key=lambda c: c[0], default=(None, match))
                report.kept.append(Kept(kept.id, beside.id, common))
                now_at[match.id] = kept.id
        # The new matches (and the pointer, where no match is current yet) as one change:
        # saving them one by one would flush the disk four times per match.
        current = now_at.get(export.current or "")
        if current is not None and not _has_current(store):
            files.append((store.current_file, f"{current}\n".encode()))
            report.current = current
        if files:
            store.ensure_folders()
            write_files(files, progress)
        for done, changed in enumerate(saves):
            try:
                store.save(changed)
            except HginError as error:
                imported_ids = [*(m.id for m in added), *(m.id for m in saves[:done])]
                if not imported_ids:
                    raise
                raise HginError(
                    f"imported {_listed(imported_ids)} before this failure: {error}"
                ) from None
        # Entered in the cache at once, so that the first 'hgin matches' and 'hgin stats'
        # need not read them again; the matches are in, and a cache catches up by itself.
        if added:
            with contextlib.suppress(HginError, OSError):
                MatchCache(store).enter(added)
        if merged_copy is not None:
            with contextlib.suppress(OSError):  # merged all the same: the list names it still
                remove(merged_copy)
                report.copy_removed = True
    return report


def _listed(ids: list[str]) -> str:
    """'2 matches (a, b)', at most three named."""
    more = f" and {len(ids) - 3} more" if len(ids) > 3 else ""
    return f"{len(ids)} match{'' if len(ids) == 1 else 'es'} ({', '.join(ids[:3])}{more})"


def journaled_import(store: Store, imported: Match, change_line: ChangeLine) -> Match | None:
    """What `--replace` saves for a match we hold: None when ours is in the same state; ours
    with the imported hands and rules as one more change of its journal (which undo takes back)
    when it has the same players, first dealer and notice; else the imported match whole."""
    try:
        stored = store.load(imported.id)
    except HginError:
        return imported
    if (stored.players, stored.first_dealer, stored.notice_after) != (
        imported.players, imported.first_dealer, imported.notice_after
    ):  # fmt: skip
        return imported
    if (stored.rules, stored.hands) == (imported.rules, imported.hands):
        return None
    at = datetime.now().astimezone().isoformat(timespec="seconds")
    changed = replace_all(stored, imported.hands, imported.rules, at)
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
