"""A series (standard gin match play, to 500 by default): finished matches' sheet totals are
credited until a player's running total reaches the series target. Pure: no files here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hgin.engine.identifiers import IDENTIFIER
from hgin.engine.match import Match, check_name
from hgin.engine.names import fold
from hgin.errors import HginError

SERIES_ID = IDENTIFIER
SERIES_SCHEMA = 1
SERIES_KEYS = ("schema", "id", "players", "target", "created", "matches")


@dataclass(frozen=True, slots=True)
class Series:
    """The stored series: its players, target and the matches it groups, in order."""

    id: str
    players: tuple[str, str]
    target: int
    created: str
    matches: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SERIES_SCHEMA,
            "id": self.id,
            "players": list(self.players),
            "target": self.target,
            "created": self.created,
            "matches": list(self.matches),
        }


def series_from_dict(data: Any) -> Series:
    """A series read back from JSON, every field checked."""
    if not isinstance(data, dict):
        raise HginError("it does not hold a JSON object")
    if data.get("schema") != SERIES_SCHEMA:
        raise HginError(f"it has schema {data.get('schema')!r}; this hgin reads {SERIES_SCHEMA}")
    unknown = sorted(set(data) - set(SERIES_KEYS))
    if unknown:
        raise HginError(f"it has an unknown field '{unknown[0][:40]}'")
    players = data.get("players")
    if not (
        isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)
    ):
        raise HginError("'players' must be two names")
    if fold(check_name(players[0])) == fold(check_name(players[1])):
        raise HginError("'players' must be two different names")
    target = data.get("target")
    if type(target) is not int or target < 1:
        raise HginError("'target' must be a positive whole number")
    matches = data.get("matches")
    if not (
        isinstance(matches, list)
        and all(isinstance(m, str) and IDENTIFIER.fullmatch(m) for m in matches)
    ):
        raise HginError("'matches' must be a list of match identifiers")
    if not matches or len(set(matches)) != len(matches):
        raise HginError("'matches' must list at least one match, each once")
    series_id, created = data.get("id"), data.get("created")
    if not isinstance(series_id, str) or not SERIES_ID.fullmatch(series_id):
        raise HginError("'id' is not a series identifier")
    if not isinstance(created, str):
        raise HginError("'created' must be text")
    return Series(series_id, (players[0], players[1]), target, created, tuple(matches))


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a series stands: credited totals, the match in play, and the result."""

    series: Series
    credited: dict[str, int]
    per_match: list[tuple[str, dict[str, int], str | None]]
    in_play: str | None
    finished: bool
    winner: str | None
    matches_won: dict[str, int] = field(default_factory=dict)


def standing(series: Series, matches: list[Match]) -> Standing:
    """Credit each finished match's sheet totals in order until someone reaches the target."""
    credited = dict.fromkeys(series.players, 0)
    matches_won = dict.fromkeys(series.players, 0)
    per_match: list[tuple[str, dict[str, int], str | None]] = []
    in_play: str | None = None
    finished = False
    for match in matches:
        sheet = match.sheet
        if not sheet.finished:
            in_play = match.id
            continue
        totals = {p: sheet.totals[_same(match, p)] for p in series.players}
        for player, points in totals.items():
            credited[player] += points
        winner = _named(series.players, sheet.winner)
        if winner is not None:
            matches_won[winner] += 1
        per_match.append((match.id, totals, winner))
        if max(credited.values()) >= series.target:
            finished = True
            break
    winner = None
    if finished:
        first, second = series.players
        if credited[first] != credited[second]:
            winner = first if credited[first] > credited[second] else second
    return Standing(series, credited, per_match, in_play, finished, winner, matches_won)


def _same(match: Match, series_name: str) -> str:
    found = _named(match.players, series_name)
    if found is None:
        raise HginError(f"match {match.id} is not between the series' players")
    return found


def _named(names: tuple[str, str], name: str | None) -> str | None:
    """The one of `names` that is `name` once folded (None: neither)."""
    if name is None:
        return None
    return next((n for n in names if fold(n) == fold(name)), None)
