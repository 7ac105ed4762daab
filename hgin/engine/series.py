"""A series (standard gin match play, to 500 by default): finished matches' sheet totals are
credited until a player's running total reaches the series target. Pure: no files here."""

from typing import NamedTuple

from hgin.engine.match import Match
from hgin.engine.names import fold
from hgin.errors import HginError


class Series(NamedTuple):
    """The stored series: its players, target and the matches it groups, in order."""

    id: str
    players: tuple[str, str]
    target: int
    created: str
    matches: tuple[str, ...] = ()


class Standing(NamedTuple):
    """Where a series stands: credited totals, the match in play, and the result."""

    series: Series
    credited: dict[str, int]
    per_match: list[tuple[str, dict[str, int], str | None]]
    in_play: str | None
    finished: bool
    winner: str | None
    matches_won: dict[str, int]


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
