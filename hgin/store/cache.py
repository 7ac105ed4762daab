"""The one cache, `cache.json`: every stored match's summary (`hgin.engine.summary`) with the
stamp of the file it came from. A missing, damaged, edited or stale entry costs a re-read of
match files, never data; a save leaves it (the file's stamp changes), a reader writes it back
when no writer holds the lock, an import enters what it wrote. The file is
`{"checksum": "<CRC-32 of BODY>", "cache": BODY}`, BODY compact JSON in named columns (quicker
to parse than thousands of objects):

    {"version": 3, "matches": {"id": [...], "stamp": [...], ...}, "figures": [{...}, {...}]}
"""

from __future__ import annotations

import contextlib
import json
import zlib
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

from hgin.engine.identifiers import IDENTIFIER
from hgin.engine.summary import TIME_ORDER, MatchSummary, PlayerFigures, summarize
from hgin.errors import HginError
from hgin.store.guard import (
    CACHE_CAP,
    exclusive_lock,
    is_link,
    parse_json,
    read_bytes,
    remove,
    write_atomic,
)

if TYPE_CHECKING:
    from hgin.engine.match import Match
    from hgin.store.matches import Store

CACHE_NAME = "cache.json"
VERSION = 3  # bump it when a column or what a value means changes
# The caches of earlier releases, deleted when this one is written.
OLD_CACHES = ("cache.tsv", "index.json", "stats-cache.json")
# The file: HEAD, the checksum's DIGITS, AFTER_DIGEST, the body, "}".
HEAD = '{"checksum":"'
DIGITS = 8  # a CRC-32 in hexadecimal
AFTER_DIGEST = '","cache":'
FIGURES = PlayerFigures._fields

# A summary with the stamp of the file it came from.
Entry = tuple[str, MatchSummary]
Row = TypeVar("Row", bound=tuple[Any, ...])


class MatchCache:
    """The summaries of every stored match, re-reading only the files that changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.path = store.home / CACHE_NAME
        self.unreadable: list[str] = []
        self._pending: dict[str, Entry] | None = None

    def summaries(self) -> list[MatchSummary]:
        """Every readable match's summary, newest first; the others named in `unreadable`."""
        cached = self._read()
        stamps = self.store.stamps()
        fresh = {key: entry for key, entry in (cached or {}).items() if stamps.get(key) == entry[0]}
        kept = len(fresh)
        self.unreadable = []
        for match_id in sorted(stamps.keys() - fresh.keys()):  # new, or changed since
            try:
                fresh[match_id] = (stamps[match_id], summarize(self.store.load(match_id)))
            except HginError:
                self.unreadable.append(match_id)
        if cached is None or kept != len(cached) or kept != len(fresh):
            self._pending = fresh
        summaries = [summary for _, summary in fresh.values()]
        summaries.sort(key=TIME_ORDER, reverse=True)
        return summaries

    def enter(self, matches: Iterable[Match]) -> None:
        """Add the summaries of matches just written (under the lock; OSError if it fails)."""
        entries = self._read() or {}
        for match in matches:
            stamp = self.store.stamp(match.id)
            if stamp is not None:
                entries[match.id] = (stamp, summarize(match))
        self._write(entries)

    def _read(self) -> dict[str, Entry] | None:
        """The cached entries by identifier; None unless the cache is whole, as hgin wrote it."""
        try:
            raw = read_bytes(self.path, cap=CACHE_CAP)
        except HginError:
            return None
        return None if raw is None else parse_cache(raw)

    def flush(self) -> None:
        """Write what `summaries` refreshed once the command worked, if no writer holds the lock."""
        entries, self._pending = self._pending, None
        if entries is None or not self.store.matches_dir.is_dir():
            return
        with contextlib.suppress(HginError, OSError), exclusive_lock(self.store.lock_file, 0):
            self._write(entries)  # only if no writer holds the lock: never waits

    def _write(self, entries: dict[str, Entry]) -> None:
        """Store the entries atomically (under the lock), unflushed: a crash costs a re-read."""
        write_atomic(self.path, cache_text(entries), durable=False)
        for name in OLD_CACHES:
            old = self.store.home / name
            if old.is_file() and not is_link(old):
                remove(old)


def cache_text(entries: dict[str, Entry]) -> str:
    """The cache file holding `entries`."""
    summaries = [summary for _, summary in entries.values()]
    columns: dict[str, list[Any]] = {
        "stamp": [stamp for stamp, _ in entries.values()],
        **_columns(MatchSummary._fields[:-1], summaries),
    }
    figures = [_columns(FIGURES, [s.figures[side] for s in summaries]) for side in (0, 1)]
    body = json.dumps(
        {"version": VERSION, "matches": columns, "figures": figures},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return seal(body)


def _columns(names: Iterable[str], rows: Sequence[tuple[Any, ...]]) -> dict[str, list[Any]]:
    """Each named field's values over `rows`."""
    return {name: list(map(itemgetter(at), rows)) for at, name in enumerate(names)}


def seal(body: str) -> str:
    """The cache file holding `body` under its checksum."""
    return f"{HEAD}{checksum(body.encode('utf-8'))}{AFTER_DIGEST}{body}}}"


def checksum(body: bytes) -> str:
    """The CRC-32 of `body` in hexadecimal (Typer has loaded zlib already)."""
    return f"{zlib.crc32(body):08x}"


def unseal(raw: bytes) -> bytes | None:
    """The body of a cache file; None unless the file is sealed and its checksum is right."""
    body = raw[len(HEAD) + DIGITS + len(AFTER_DIGEST) : -1]
    sealed = f"{HEAD}{checksum(body)}{AFTER_DIGEST}".encode() + body + b"}"
    return body if sealed == raw else None


def parse_cache(raw: bytes) -> dict[str, Entry] | None:
    """The entries of a cache file by identifier; None unless its checksum is right, it is of
    this version and it passes the checks of any file hgin reads (`_plausible` too). A forged
    checksum is not caught: what such a cache says is shown escaped like any name."""
    body = unseal(raw)
    if body is None:
        return None
    try:
        data = parse_json(body, "the cache")
        if data["version"] != VERSION:
            return None
        columns, (first, second) = data["matches"], data["figures"]
        if not _plausible(columns):
            return None
        summaries = rows(
            MatchSummary,
            columns["id"],
            map(tuple, columns["players"]),
            *(columns[name] for name in MatchSummary._fields[2:-1]),
            zip(
                rows(PlayerFigures, *(first[name] for name in FIGURES)),
                rows(PlayerFigures, *(second[name] for name in FIGURES)),
                strict=True,
            ),
        )
        return dict(zip(columns["id"], zip(columns["stamp"], summaries, strict=True), strict=True))
    except (HginError, ValueError, TypeError, KeyError, RecursionError):
        return None


def _plausible(columns: dict[str, Any]) -> bool:
    """Whether the columns hold identifiers, two names each and a winner among them."""
    ids, players, winners = columns["id"], columns["players"], columns["winner"]
    return (
        all(type(i) is str and IDENTIFIER.fullmatch(i) for i in ids)
        and all(
            type(pair) is list and len(pair) == 2 and all(type(n) is str for n in pair)
            for pair in players
        )
        and all(w is None or w in pair for w, pair in zip(winners, players, strict=True))
    )


def rows(kind: type[Row], *columns: Iterable[Any]) -> Iterator[Row]:
    """The named tuples `kind` of these columns, made without the Python-level constructor."""
    return map(tuple.__new__, repeat(kind), zip(*columns, strict=True))
