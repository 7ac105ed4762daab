"""A data folder read: choosing and loading a match, the list and the statistics, the ASCII
setting, where output files may go. Its imports load no engine (docs/speed.md).
May import: stdlib, store, reports, engine, errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hgin.engine.names import candidates_for, fold, pick
from hgin.errors import HginError
from hgin.reports.merging import latest_with
from hgin.store.guard import output_path, write_output
from hgin.store.matches import Store, identifier_named
from hgin.store.paths import ascii_setting, data_dir

if TYPE_CHECKING:
    from hgin.engine.match import Match
    from hgin.engine.summary import MatchSummary
    from hgin.reports.stats import Stats
    from hgin.store.cache import MatchCache


Notices = tuple[str, ...]


class Chosen(NamedTuple):
    """The match meant by what was typed, and how a name chose it."""

    id: str
    notices: Notices = ()


class Loaded(NamedTuple):
    """A match as read, and how a name chose it."""

    match: Match
    notices: Notices = ()


class Listing(NamedTuple):
    """The stored matches, the files left out, the cache's refresh, conflicted copies, and the
    identifiers of each match's copies that went apart."""

    entries: list[MatchSummary]
    unreadable: list[str]
    refresh: Callable[[], None]
    copies: list[tuple[str, Path]]
    diverged: list[list[str]]


class Statistics(NamedTuple):
    """The statistics over finished matches, the files left out, the cache's refresh."""

    figures: Stats
    unreadable: list[str]
    refresh: Callable[[], None]


class Folder:
    """Matches kept in one data folder, as read."""

    def __init__(self, home: Path | None = None) -> None:
        """`home` holds the matches, and its config/ the settings file and rule presets."""
        self.store = Store(home if home is not None else data_dir())
        self.config_folder = home / "config" if home is not None else None

    def choose(self, match: str | None = None) -> Chosen:
        """The match meant by `match` (an identifier, its start or part, players' names), else
        the current one."""
        if match is None:
            current = self.store.current_id()
            if current is not None:
                return Chosen(current)
            if self.store.match_ids():  # e.g. the current match was abandoned
                raise HginError(
                    "no match is current: pick one with 'hgin use MATCH' (see 'hgin matches')"
                )
            raise HginError("no match yet: start one with 'hgin new NAME1 NAME2'")
        ids = self.store.match_ids()
        if not candidates_for(match, ids):
            found = self._latest_with(match)
            if found is not None:
                return found
        return Chosen(identifier_named(match, ids))

    def _latest_with(self, typed: str) -> Chosen | None:
        """The newest match of the two players `typed` names, else of the one player it
        names; None when no player's name fits."""
        cache = self._cache()
        entries = cache.summaries()
        for first, second in _two_names(typed):
            pairs = [
                e
                for e in entries
                for a, b in (e.players, e.players[::-1])
                if len(candidates_for(first, [a])) == 1 == len(candidates_for(second, [b]))
            ]
            if pairs:
                entry = pairs[0]  # the newest: the list is newest first
                both = f"{entry.players[0]} and {entry.players[1]}"
                return Chosen(entry.id, (latest_with(entry.id, entry.players, both),))
        people: dict[str, str] = {}
        for entry in entries:
            for name in entry.players:
                people.setdefault(fold(name), name)
        if not candidates_for(typed, people.values()):
            for unreadable in cache.unreadable:
                self.store.load(unreadable)  # says why the file cannot be used
            return None
        person = fold(pick(typed, people.values(), missing="no player '{typed}'"))
        entry = next(e for e in entries if person in (fold(p) for p in e.players))
        name = next(p for p in entry.players if fold(p) == person)
        return Chosen(entry.id, (latest_with(entry.id, entry.players, name),))

    def load(self, match: str | None = None) -> Match:
        """The match named (or the current one)."""
        return self.read(match).match

    def read(self, match: str | None = None) -> Loaded:
        """The match named (or the current one), and how it was chosen."""
        chosen = self.choose(match)
        return Loaded(self.store.load(chosen.id), chosen.notices)

    def show_data(self, match: str | None = None) -> dict[str, object]:
        """The sheet of a match as `hgin show --json` prints it."""
        return self.data_of(self.load(match))

    @staticmethod
    def data_of(match: Match) -> dict[str, object]:
        """The sheet of a loaded match as `hgin show --json` prints it."""
        from hgin.reports.sheet_json import show_dict  # only `show --json`: the rest draw it

        return {"id": match.id, **show_dict(match.sheet)}

    def current_id(self) -> str | None:
        """The current match's identifier, or None before the first match."""
        return self.store.current_id()

    def stamp(self, match_id: str) -> str | None:
        """What changes with every save of a match's file (None: no such file)."""
        return self.store.stamp(match_id)

    def match_ids(self) -> list[str]:
        """Every stored match's identifier (for completion: no file is validated)."""
        return self.store.match_ids()

    def players_of(self, match: str | None = None) -> tuple[str, ...]:
        """The two names a match's file states (for completion), or ()."""
        return self.store.players_of(match)

    def asks_for_ascii(self) -> bool:
        """Whether the settings file asks for ASCII drawing."""
        return ascii_setting(self.config_folder)

    def matches(self, player: str | None = None, finished: bool | None = None) -> Listing:
        """The stored matches, newest first: all, or those `filter_matches` keeps."""
        cache = self._cache()
        entries = cache.summaries()
        same: dict[tuple[str, tuple[str, str]], list[str]] = {}
        for entry in entries:
            same.setdefault((entry.created, entry.players), []).append(entry.id)
        diverged = [sorted(ids) for ids in same.values() if len(ids) > 1]
        if player is not None or finished is not None:
            entries = filter_matches(entries, player, finished)
        copies = self.store.conflicted_copies()
        return Listing(entries, cache.unreadable, cache.flush, copies, diverged)

    def stats(self, player: str | None = None) -> Statistics:
        """Statistics over the finished matches (of `player`, if named)."""
        from hgin.reports.stats import compute_stats

        cache = self._cache()
        figures = compute_stats(cache.summaries(), player)
        return Statistics(figures, cache.unreadable, cache.flush)

    def _cache(self) -> MatchCache:
        """The summaries of every match."""
        from hgin.store.cache import MatchCache

        return MatchCache(self.store)

    def output_target(self, name: str, *, force: bool = False) -> Path | None:
        """Where an output file goes (None for '-': standard output), checked."""
        config = self.config_folder if self.config_folder is not None else data_dir(config=True)
        return output_path(name, force=force, protected=(self.store.home, config))

    def write_output(self, target: Path, text: str) -> Path:
        """Write a checked output file whole (atomically); its absolute path."""
        return write_output(target, text)


def _two_names(typed: str) -> list[tuple[str, str]]:
    """The ways `typed` may name two players: around ' v ', ' vs ' or ' v. ' in any case,
    else around each '-'."""
    pair = re.split(r"\s+vs?\.?\s+", typed.strip(), maxsplit=1, flags=re.IGNORECASE)
    if len(pair) == 2 and all(pair):
        return [(pair[0], pair[1])]
    parts = typed.split("-")
    return [("-".join(parts[:i]), "-".join(parts[i:])) for i in range(1, len(parts))]


def filter_matches(
    summaries: Iterable[MatchSummary], player: str | None = None, finished: bool | None = None
) -> list[MatchSummary]:
    """Matches of a player (a name ignoring case; else every name it starts) and/or by status."""
    every = list(summaries)
    kept = [m for m in every if finished is None or m.finished == finished]
    if player is None:
        return kept
    wanted = fold(player.strip())
    if not wanted:
        raise HginError("name a player")
    if any(fold(n) == wanted for m in every for n in m.players):
        return [m for m in kept if wanted in (fold(n) for n in m.players)]
    return [m for m in kept if any(fold(n).startswith(wanted) for n in m.players)]
