"""The one cache, `cache.tsv`: for every stored match, what the match list shows and what the
statistics count, kept against the match file's stamp (modification time, size and inode).

Only a cache: a missing, damaged or tampered file, or a line that is out of date, costs a
re-read of that match, never data. Saving a match does not touch it: the saved file's stamp
changes, so the next `hgin matches` or `hgin stats` re-reads that one file. A reader writes
the refreshed cache (`flush`) only when no writer holds the lock, and never waits for one. An import
enters the matches it wrote (`enter`), so the first list after it reads none of them again.

Tab-separated text rather than JSON, because reading it is the whole cost of listing
thousands of matches, and splitting lines is several times quicker than parsing JSON. No text
hgin keeps can hold a tab or a line break (control characters are refused everywhere). After
the line `hgin-cache 1`, one line a match:

    id  stamp  created  rules  hands  finished  winner  player1  player2

where stamp is `mtime_ns:size:inode`, finished is 0 or 1 and winner is empty when nobody has
won; once `hgin stats` has needed them, the match's statistics follow: its stake (empty for
none) and both players' figures (those of `hgin.reports.stats.PlayerLine` after the name, the
first player's then the second's) packed as eighteen big-endian 64-bit integers in base64.
"""

from __future__ import annotations

import binascii
import struct
from collections.abc import Iterable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from hgin.errors import HginError
from hgin.store.guard import (
    CACHE_CAP,
    is_link,
    lines_problem,
    lock_if_free,
    read_bytes,
    refresh_cache,
    remove,
    write_cache,
)

if TYPE_CHECKING:
    from hgin.engine.match import Match
    from hgin.reports.stats import MatchRecord
    from hgin.store.matches import Store

CACHE_NAME = "cache.tsv"
HEADER = "hgin-cache 1"  # bump the number when the layout or what a line means changes
# The two caches of earlier releases, deleted when this one is first written.
OLD_CACHES = ("index.json", "stats-cache.json")
LINE_FIGURES = 9  # the numbers of a PlayerLine after its name (checked by the tests)
LIST_FIELDS = 8  # the fields of a line after the identifier, for the list
STATS_FIELDS = 2  # the stake, and both players' figures packed
# Both players' figures as big-endian 64-bit integers in base64: two C calls read all
# eighteen (int() on each of them took longer than the rest of reading thousands of lines).
# 64 bits hold any figure a match file can give, so every match's statistics are cached.
PACKED = struct.Struct(f">{2 * LINE_FIGURES}q")

# The fields of a line after the identifier: the list's, and (once the statistics needed
# them) a ninth holding the statistics' fields still joined by tabs: the list never splits
# them, and the statistics split them as they read them.
Row = list[str]


class MatchEntry(NamedTuple):
    """What the match list shows of one match (a named tuple: thousands are made at once)."""

    id: str
    players: tuple[str, str]
    profile: str
    created: str
    hands: int
    finished: bool
    winner: str | None

    def to_dict(self) -> dict[str, Any]:
        return {  # not _asdict: players is a list in JSON, and the order is the list's
            "id": self.id,
            "players": list(self.players),
            "profile": self.profile,
            "created": self.created,
            "hands": self.hands,
            "finished": self.finished,
            "winner": self.winner,
        }


def list_row(match: Match, stamp: str) -> Row:
    """A match's line for the list (the statistics are added when first needed)."""
    sheet = match.sheet
    first, second = match.players
    return [
        stamp,
        match.created,
        match.rules.label,
        str(len(match.hands)),
        "1" if sheet.finished else "0",
        sheet.winner or "",
        first,
        second,
    ]


def stats_row(match: Match, stamp: str) -> Row:
    """A match's line with its statistics (one replay of the match)."""
    from hgin.reports.stats import record_for

    record = record_for(match)
    figures = [value for line in record.lines for value in line.figures()]
    packed = binascii.b2a_base64(PACKED.pack(*figures), newline=False).decode("ascii")
    return [*list_row(match, stamp), f"{record.stake or ''}\t{packed}"]


def usable(row: Row | None, stamp: str, *, with_stats: bool) -> bool:
    """Whether a cached line is well formed, about the file as it is now, and (`with_stats`)
    holds the match's statistics."""
    if row is None or row[0] != stamp or len(row) not in (LIST_FIELDS, LIST_FIELDS + 1):
        return False
    hands, finished, winner = row[3], row[4], row[5]
    if not (hands.isascii() and hands.isdigit() and finished in ("0", "1")):
        return False
    if winner and winner not in row[6:8]:
        return False
    # The statistics are checked as they are read (`records_of`).
    return not with_stats or len(row) == LIST_FIELDS + 1


def _is_stake(text: str) -> bool:
    from hgin.engine.money import parse_stake

    try:
        parse_stake(text)
    except HginError:
        return False
    return True


def entry_of(match_id: str, row: Row) -> MatchEntry:
    return MatchEntry(
        match_id, (row[6], row[7]), row[2], row[1], int(row[3]), row[4] == "1", row[5] or None
    )


def records_of(rows: dict[str, Row]) -> tuple[list[MatchRecord], list[str]]:
    """The statistics records kept in lines `usable` with their statistics, and the
    identifiers of lines whose statistics are not well formed (to be read again)."""
    from hgin.reports.stats import MatchRecord, PlayerLine

    make_line = PlayerLine._make
    records = []
    unusable = []
    unpack = PACKED.unpack
    for match_id, row in rows.items():
        stake, _, packed = row[LIST_FIELDS].partition("\t")
        try:
            if stake and not _is_stake(stake):
                raise ValueError("not a stake")
            figures = unpack(binascii.a2b_base64(packed, strict_mode=True))
        except (ValueError, struct.error):  # binascii.Error is a ValueError
            unusable.append(match_id)
            continue
        lines = (
            make_line((row[6], *figures[:LINE_FIGURES])),
            make_line((row[7], *figures[LINE_FIGURES:])),
        )
        winner = row[5] or None
        records.append(MatchRecord(match_id, row[1], row[4] == "1", winner, lines, stake or None))
    return records, unusable


class MatchCache:
    """The lines of every stored match, re-reading only the files that changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.path = store.home / CACHE_NAME
        self.unreadable: list[str] = []
        self._pending: dict[str, Row] | None = None

    def entries(self) -> list[MatchEntry]:
        """Every readable match's list entry, newest first."""
        rows = self._rows(with_stats=False)
        entries = [entry_of(match_id, row) for match_id, row in rows.items()]
        entries.sort(key=itemgetter(3, 0), reverse=True)  # created, then id
        return entries

    def records(self) -> list[MatchRecord]:
        """Every readable match's statistics record."""
        rows = self._rows(with_stats=True)
        records, unusable = records_of(rows)
        if not unusable:
            return records
        for match_id in unusable:  # a tampered line: its match is read again
            row = self._reread(match_id, rows.pop(match_id)[0], with_stats=True)
            if row is not None:
                rows[match_id] = row
        self._pending = rows
        return records_of(rows)[0]

    def enter(self, matches: Iterable[Match]) -> None:
        """Add lines, with their statistics, for matches just written (call under the lock)."""
        rows = self._read()
        for match in matches:
            stamp = self.store.stamp(match.id)
            if stamp is not None:
                rows[match.id] = stats_row(match, stamp)
        self._write(rows)

    # -- reading and writing ----------------------------------------------------------------

    def _rows(self, *, with_stats: bool) -> dict[str, Row]:
        """A usable line for every readable match, read again where the cache has none; files
        that cannot be used are left out and named in `unreadable`."""
        cached = self._read()
        fresh: dict[str, Row] = {}
        changed = False
        self.unreadable = []
        for match_id, stamp in self.store.stamps().items():
            row = cached.get(match_id)
            if not usable(row, stamp, with_stats=with_stats):
                row = self._reread(match_id, stamp, with_stats)
                changed = True
            if row is not None:
                fresh[match_id] = row
        if changed or len(fresh) != len(cached):
            self._pending = fresh
        return fresh

    def _reread(self, match_id: str, stamp: str, with_stats: bool) -> Row | None:
        try:
            match = self.store.load(match_id)
        except HginError:
            self.unreadable.append(match_id)
            return None
        return stats_row(match, stamp) if with_stats else list_row(match, stamp)

    def _read(self) -> dict[str, Row]:
        """The cached lines by identifier; anything but a well-formed cache reads as empty."""
        try:
            raw = read_bytes(self.path, cap=CACHE_CAP)
            text = "" if raw is None else raw.decode("utf-8")
        except (HginError, UnicodeDecodeError):
            return {}
        lines = text.split("\n")
        if lines[0] != HEADER or lines_problem(text):
            return {}
        rows = {}
        for line in lines[1:]:
            fields = line.split("\t", LIST_FIELDS + 1)  # the statistics stay joined
            rows[fields[0]] = fields[1:]
        return rows

    def flush(self) -> None:
        """Write what `entries` or `records` refreshed, once the command has succeeded (see
        `refresh_cache`: a failed one leaves every file as it was), and only if no writer
        holds the lock (a skipped write costs a re-read next time)."""
        rows, self._pending = self._pending, None
        if rows is not None:
            refresh_cache(lambda: self._write_if_free(rows))

    def _write_if_free(self, rows: dict[str, Row]) -> None:
        if not self.store.matches_dir.is_dir():
            return
        with lock_if_free(self.store.lock_file) as taken:
            if taken:
                self._write(rows)

    def _write(self, rows: dict[str, Row]) -> None:
        """Store the lines (under the lock); a failure only costs a re-read later."""
        lines = [HEADER]
        for match_id, row in rows.items():
            line = "\t".join([match_id, *row])
            expected = len(row) + (STATS_FIELDS - 1 if len(row) > LIST_FIELDS else 0)
            if line.count("\t") == expected and "\n" not in line:  # never split a line
                lines.append(line)
        write_cache(self.path, "\n".join(lines))
        for name in OLD_CACHES:
            old = self.store.home / name
            if old.is_file() and not is_link(old):
                remove(old)
