"""Statistics across matches: per-player figures and head-to-head, from finished matches.

Pure: `compute_stats` folds the summaries of matches (`hgin.engine.summary`, which the store
keeps in its cache) into figures.
Names are one person when they are equal ignoring case; the spelling shown is the one used in
the most recent match.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, NamedTuple

from hgin.engine.money import amount, money_text, parse_stake
from hgin.engine.names import fold, pick
from hgin.engine.summary import MatchSummary, PlayerFigures
from hgin.errors import HginError

STAT_KEYS = (
    "matches",
    "match_wins",
    "games_won",
    "hands_won",
    "gins",
    "knocks",
    "undercuts",
    "biggest_hand",
    "longest_streak",
    "average_points",
    "net_won",
)


def money(summary: MatchSummary, figures: PlayerFigures) -> Decimal | None:
    """What the player of `figures` won (+) or paid (-) at the match's stake, if it has one."""
    if summary.stake is None:
        return None
    won = amount(abs(figures.settled), parse_stake(summary.stake))
    return won if figures.settled >= 0 else -won


def when(summary: MatchSummary) -> tuple[float, str, str]:
    """Sort key: the start time (offsets respected), then the text, then the identifier."""
    try:
        stamp = datetime.fromisoformat(summary.created).timestamp()
    except ValueError:
        stamp = 0.0
    return (stamp, summary.created, summary.id)


# -- figures -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    """Running figures for one person over some matches."""

    matches: int = 0
    match_wins: int = 0
    games_won: int = 0
    hands_won: int = 0
    gins: int = 0
    knocks: int = 0
    undercuts: int = 0
    biggest_hand: int = 0
    longest_streak: int = 0
    points: int = 0
    staked: int = 0
    money: Decimal = field(default_factory=Decimal)

    @classmethod
    def of(cls, figures: Sequence[PlayerFigures], wins: int, moneys: Sequence[Decimal]) -> Tally:
        """The figures of one person over some matches: their figures in each, how many of
        those matches they won, and what they won (+) or paid (-) in those played at a stake."""
        tally = cls(
            matches=len(figures), match_wins=wins, staked=len(moneys), money=sum(moneys, Decimal())
        )
        if figures:
            # One column of all the matches at a time: summed in C, not field by field.
            games, hands, gins, knocks, undercuts, biggest, points, streak, _ = zip(
                *figures, strict=True
            )
            tally.games_won, tally.hands_won = sum(games), sum(hands)
            tally.gins, tally.knocks, tally.undercuts = sum(gins), sum(knocks), sum(undercuts)
            tally.biggest_hand, tally.longest_streak = max(biggest), max(streak)
            tally.points = sum(points)
        return tally

    @property
    def average_points(self) -> float | None:
        """Points per hand won, to two decimals; None before any hand is won."""
        return round(self.points / self.hands_won, 2) if self.hands_won else None

    @property
    def net_won(self) -> str | None:
        """Money won (+) or lost (-) over the matches played at a stake, as text with two
        decimals ('12.50', '-3.00'); None when no match had a stake."""
        return money_text(self.money) if self.staked else None

    def to_dict(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in STAT_KEYS}


class Pair(NamedTuple):
    """Head-to-head figures of two people who met in finished matches."""

    players: tuple[str, str]
    tallies: tuple[Tally, Tally]

    @property
    def matches(self) -> int:
        return self.tallies[0].matches

    @property
    def level(self) -> int:
        """Finished matches that neither won (possible when the match is decided on points)."""
        return self.matches - self.tallies[0].match_wins - self.tallies[1].match_wins

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"players": list(self.players), "matches": self.matches}
        for key in STAT_KEYS[1:]:
            data[key] = {
                p: getattr(t, key) for p, t in zip(self.players, self.tallies, strict=True)
            }
        return data


class Stats(NamedTuple):
    """Per-person figures, head-to-head pairs, the summaries of the finished matches they came
    from (in time order) and each person's spelling by folded name. (Named tuples: `hgin stats`
    defines them on every run, and dataclasses cost its start.)"""

    players: dict[str, Tally]
    pairs: list[Pair]
    records: list[MatchSummary]
    names: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": {name: tally.to_dict() for name, tally in self.players.items()},
            "pairs": [pair.to_dict() for pair in self.pairs],
        }


def key(name: str) -> str:
    """The identity of a name across matches: equal ignoring case and accents."""
    return fold(name)


def resolve_person(names: dict[str, str], typed: str) -> str:
    """The person meant by `typed` among all stored names: exact (ignoring case and accents)
    or a unique start of one name."""
    if not fold(typed):
        raise HginError("name a player")
    spelled = pick(
        typed,
        [names[k] for k in sorted(names)],
        missing="nobody called '{typed}' has played a stored match",
    )
    return key(spelled)


class _Pile:
    """One person's figures (or one side's of a pair), gathered before they are summed."""

    __slots__ = ("figures", "moneys", "wins")

    def __init__(self) -> None:
        self.figures: list[PlayerFigures] = []
        self.wins = 0
        self.moneys: list[Decimal] = []

    def add(self, figures: PlayerFigures, won_match: bool, money: Decimal | None) -> None:
        self.figures.append(figures)
        self.wins += won_match
        if money is not None:
            self.moneys.append(money)

    def tally(self) -> Tally:
        return Tally.of(self.figures, self.wins, self.moneys)


def compute_stats(summaries: Iterable[MatchSummary], player: str | None = None) -> Stats:
    """Figures over the finished matches among `summaries`; `player` keeps one person's.

    `player` is resolved against every match (finished or not), so a person whose matches are
    all still open is shown with zeros rather than refused.
    """
    ordered = sorted(summaries, key=when)
    # The same few names recur in thousands of matches: each is folded once.
    spellings = {name for summary in ordered for name in summary.players}
    person = {name: key(name) for name in spellings}
    names: dict[str, str] = {}  # each person's spelling in their latest match
    for summary in ordered:
        first_name, second_name = summary.players
        names[person[first_name]] = first_name
        names[person[second_name]] = second_name
    only = resolve_person(names, player) if player is not None else None
    finished = [s for s in ordered if s.finished]
    pairs: dict[tuple[str, str], tuple[_Pile, _Pile]] = {}
    # Each match is filed under its pair only (written out for the two players: thousands
    # of matches pass here); a person's figures are then their sides of every pair.
    for summary in finished:
        first_name, second_name = summary.players
        first, second = summary.figures
        a, b = person[first_name], person[second_name]
        won_a, won_b = summary.winner == first_name, summary.winner == second_name
        if summary.stake is None:
            money_a = money_b = None
        else:
            money_a, money_b = money(summary, first), money(summary, second)
        if a > b:  # a pair is kept in name order
            piles = pairs.get((b, a)) or pairs.setdefault((b, a), (_Pile(), _Pile()))
            piles[0].add(second, won_b, money_b)
            piles[1].add(first, won_a, money_a)
        else:
            piles = pairs.get((a, b)) or pairs.setdefault((a, b), (_Pile(), _Pile()))
            piles[0].add(first, won_a, money_a)
            piles[1].add(second, won_b, money_b)
    people: dict[str, _Pile] = {}
    for sides, piles in pairs.items():
        for who, side in zip(sides, piles, strict=True):
            mine = people.setdefault(who, _Pile())
            mine.figures += side.figures
            mine.wins += side.wins
            mine.moneys += side.moneys
    tallies = {who: pile.tally() for who, pile in people.items()}
    if only is not None:
        tallies = {only: tallies.get(only, Tally())}
        pairs = {k: v for k, v in pairs.items() if only in k}
    shown_players = {
        names[k]: tallies[k] for k in sorted(tallies, key=lambda k: (-tallies[k].matches, k))
    }
    shown_pairs = [
        Pair((names[a], names[b]), (piles[0].tally(), piles[1].tally()))
        for (a, b), piles in sorted(pairs.items(), key=lambda kv: (-len(kv[1][0].figures), kv[0]))
    ]
    kept = [s for s in finished if only is None or only in (person[n] for n in s.players)]
    return Stats(shown_players, shown_pairs, kept, names)


def win_series(stats: Stats, limit: int = 6) -> tuple[list[str], list[tuple[str, list[int]]]]:
    """For the chart: the start date of each finished match in time order, and the running
    match-win count of the `limit` people who played most of those matches."""
    played: dict[str, int] = {}
    for summary in stats.records:
        for name in summary.players:
            played[key(name)] = played.get(key(name), 0) + 1
    chosen = sorted(played, key=lambda k: (-played[k], k))[:limit]
    series = []
    for person in chosen:
        total, values = 0, []
        for summary in stats.records:
            total += int(summary.winner is not None and key(summary.winner) == person)
            values.append(total)
        series.append((stats.names.get(person, person), values))
    return [s.created[:10] for s in stats.records], series


def filter_matches(
    summaries: Iterable[MatchSummary], player: str | None = None, finished: bool | None = None
) -> list[MatchSummary]:
    """Matches of a player (a name ignoring case; else every name it starts) and/or by status."""
    every = list(summaries)
    kept = [m for m in every if finished is None or m.finished == finished]
    if player is None:
        return kept
    wanted = key(player.strip())
    if not wanted:
        raise HginError("name a player")
    exact = any(key(n) == wanted for m in every for n in m.players)
    if exact:
        return [m for m in kept if wanted in (key(n) for n in m.players)]
    return [m for m in kept if any(key(n).startswith(wanted) for n in m.players)]
