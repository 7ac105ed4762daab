"""The match list's cache (index.json): one entry per match, keyed by the file's modification
time and size. Only a cache: a missing, damaged or tampered index costs a re-read, never data,
and no command but the list ever reads it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hgin.errors import HginError
from hgin.store.guard import CACHE_CAP, parse_json, read_bytes, write_cache

if TYPE_CHECKING:
    from hgin.engine.match import Match
    from hgin.store.matches import Store

INDEX_VERSION = 1


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


def entry_from_cache(match_id: str, item: Any) -> MatchEntry | None:
    """A cached entry if it is well formed and about `match_id`, else None (re-read it)."""
    if not isinstance(item, dict):
        return None
    players = item.get("players")
    texts = (item.get("id"), item.get("profile"), item.get("created"))
    winner = item.get("winner")
    hands = item.get("hands")
    finished = item.get("finished")
    if item.get("id") != match_id or not all(isinstance(t, str) for t in texts):
        return None
    if type(hands) is not int or hands < 0 or type(finished) is not bool:
        return None
    if not isinstance(players, list) or len(players) != 2:
        return None
    first, second = players
    if not (isinstance(first, str) and isinstance(second, str)) or winner not in (None, *players):
        return None
    return MatchEntry(
        match_id, (first, second), item["profile"], item["created"], hands, finished, winner
    )


def _stamp(path: Path) -> list[int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    # A save replaces the file, so its inode changes too, even within one clock tick.
    return [stat.st_mtime_ns, stat.st_size, stat.st_ino]


class MatchIndex:
    """index.json: read leniently, written atomically and only under the lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.unreadable: list[str] = []

    def read(self) -> dict[str, Any]:
        """The cached entries; anything but a well-formed index reads as empty."""
        try:
            raw = read_bytes(self.path, cap=CACHE_CAP)
            data = None if raw is None else parse_json(raw, self.path)
        except HginError:
            return {}
        if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
            return {}
        entries = data.get("matches")
        return entries if isinstance(entries, dict) else {}

    def write(self, entries: dict[str, Any]) -> None:
        """Store the entries; a failure only costs a re-read later (call under the lock)."""
        text = json.dumps({"version": INDEX_VERSION, "matches": entries}, ensure_ascii=False)
        write_cache(self.path, text)

    def record(self, match: Match, path: Path) -> None:
        """Update one match's entry after its file was written (call under the lock)."""
        stamp = _stamp(path)
        if stamp is None:
            return
        entries = self.read()
        entries[match.id] = {**entry_for(match).to_dict(), "stamp": stamp}
        self.write(entries)

    def refresh(self, store: Store) -> tuple[list[MatchEntry], dict[str, Any] | None]:
        """Entries of every readable match, newest first, and the new cache if it changed.

        Files that cannot be used are left out of the list and named in `unreadable`.
        """
        cached = self.read()
        fresh: dict[str, Any] = {}
        result: list[MatchEntry] = []
        self.unreadable = []
        for match_id in store.match_ids():
            stamp = _stamp(store.match_path(match_id))
            if stamp is None:
                continue
            item = cached.get(match_id)
            entry = entry_from_cache(match_id, item)
            if entry is None or not isinstance(item, dict) or item.get("stamp") != stamp:
                try:
                    entry = entry_for(store.load(match_id))
                except HginError:
                    self.unreadable.append(match_id)
                    continue
            fresh[match_id] = {**entry.to_dict(), "stamp": stamp}
            result.append(entry)
        result.sort(key=lambda e: (e.created, e.id), reverse=True)
        return result, (fresh if fresh != cached else None)
