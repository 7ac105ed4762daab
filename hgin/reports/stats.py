"""Statistics across matches: per-player records and head-to-head, from finished matches.

Pure: a `MatchRecord` is the little a match contributes to the statistics (computed once per
match and cached by `hgin.store.cache`); `compute_stats` folds records into figures.
Names are one person when they are equal ignoring case; the spelling shown is the one used in
the most recent match.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from hgin.engine.money import amount, money_text, parse_stake
from hgin.engine.names import fold, pick
from hgin.errors import HginError

if TYPE_CHECKING:  # the statistics read cached records; only a changed match is replayed
    from hgin.engine.match import Match

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


class PlayerLine(NamedTuple):
    """One player's figures in one match (a named tuple: `hgin stats` reads thousands)."""

    name: str
    games_won: int = 0
    hands_won: int = 0
    gins: int = 0
    knocks: int = 0
    undercuts: int = 0
    biggest_hand: int = 0
    points: int = 0
    longest_streak: int = 0
    settled: int = 0

    def figures(self) -> list[int]:
        """Every number of the line, in field order (as the cache keeps them)."""
        return list(self[1:])


class MatchRecord(NamedTuple):
    """What one match contributes to the statistics."""

    id: str
    created: str
    finished: bool
    winner: str | None
    lines: tuple[PlayerLine, PlayerLine]
    stake: str | None = None

    @property
    def players(self) -> tuple[str, str]:
        return (self.lines[0].name, self.lines[1].name)

    def money(self, line: PlayerLine) -> Decimal | None:
        """What the player of `line` won (+) or paid (-) at the match's stake, if it has one."""
        if self.stake is None:
            return None
        won = amount(abs(line.settled), parse_stake(self.stake))
        return won if line.settled >= 0 else -won


def record_for(match: Match) -> MatchRecord:
    """Replay a match once and keep what the statistics need."""
    from hgin.engine.settle import settle

    sheet = match.sheet
    settlement = settle(sheet)
    lines = []
    for player in match.players:
        won = [p.award for p in sheet.hands if p.award.winner == player]
        lines.append(
            PlayerLine(
                name=player,
                games_won=sheet.games_won[player],
                hands_won=len(won),
                gins=sum(1 for a in won if a.result in ("gin", "big_gin")),
                knocks=sum(1 for a in won if a.result == "knock"),
                undercuts=sum(1 for a in won if a.result == "undercut"),
                biggest_hand=max((a.points for a in won), default=0),
                points=sum(a.points for a in won),
                longest_streak=_longest_run(
                    [p.award.winner for p in sheet.hands if p.award.winner is not None], player
                ),
                settled=settlement.net(player),
            )
        )
    return MatchRecord(
        match.id,
        match.created,
        sheet.finished,
        sheet.winner,
        (lines[0], lines[1]),
        match.rules.stake,
    )


def _longest_run(winners: Sequence[str], player: str) -> int:
    """Most consecutive wins by `player`; dead hands were left out, so they do not break it."""
    best = run = 0
    for winner in winners:
        run = run + 1 if winner == player else 0
        best = max(best, run)
    return best


def when(record: MatchRecord) -> tuple[float, str, str]:
    """Sort key: the start time (offsets respected), then the text, then the identifier."""
    try:
        stamp = datetime.fromisoformat(record.created).timestamp()
    except ValueError:
        stamp = 0.0
    return (stamp, record.created, record.id)


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
    def of(cls, lines: Sequence[PlayerLine], wins: int, moneys: Sequence[Decimal]) -> Tally:
        """The figures of one person over some matches: their lines, how many of those
        matches they won, and what they won (+) or paid (-) in those played at a stake."""
        tally = cls(
            matches=len(lines), match_wins=wins, staked=len(moneys), money=sum(moneys, Decimal())
        )
        if lines:
            # One column of all the lines at a time: summed in C, not field by field.
            _, games, hands, gins, knocks, undercuts, biggest, points, streak, _ = zip(
                *lines, strict=True
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
    """Per-person figures, head-to-head pairs, the finished records they came from (in time
    order) and each person's spelling by folded name. (The statistics' records and results
    are named tuples: `hgin stats` defines them on every run, and dataclasses cost its start.)"""

    players: dict[str, Tally]
    pairs: list[Pair]
    records: list[MatchRecord]
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
    """One person's lines (or one side's of a pair), gathered before they are summed."""

    __slots__ = ("lines", "moneys", "wins")

    def __init__(self) -> None:
        self.lines: list[PlayerLine] = []
        self.wins = 0
        self.moneys: list[Decimal] = []

    def add(self, line: PlayerLine, won_match: bool, money: Decimal | None) -> None:
        self.lines.append(line)
        self.wins += won_match
        if money is not None:
            self.moneys.append(money)

    def tally(self) -> Tally:
        return Tally.of(self.lines, self.wins, self.moneys)


def compute_stats(records: Iterable[MatchRecord], player: str | None = None) -> Stats:
    """Figures over the finished matches among `records`; `player` keeps one person's.

    `player` is resolved against every record (finished or not), so a person whose matches are
    all still open is shown with zeros rather than refused.
    """
    ordered = sorted(records, key=when)
    # The same few names recur in thousands of records: each is folded once.
    spellings = {line.name for record in ordered for line in record.lines}
    person = {name: key(name) for name in spellings}
    names: dict[str, str] = {}  # each person's spelling in their latest match
    for record in ordered:
        first, second = record.lines
        names[person[first.name]] = first.name
        names[person[second.name]] = second.name
    only = resolve_person(names, player) if player is not None else None
    finished = [r for r in ordered if r.finished]
    pairs: dict[tuple[str, str], tuple[_Pile, _Pile]] = {}
    # Each record is filed under its pair only (written out for the two players: thousands
    # of records pass here); a person's lines are then their sides of every pair.
    for record in finished:
        first, second = record.lines
        a, b = person[first.name], person[second.name]
        won_a, won_b = record.winner == first.name, record.winner == second.name
        if record.stake is None:
            money_a = money_b = None
        else:
            money_a, money_b = record.money(first), record.money(second)
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
            mine.lines += side.lines
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
        for (a, b), piles in sorted(pairs.items(), key=lambda kv: (-len(kv[1][0].lines), kv[0]))
    ]
    kept = [r for r in finished if only is None or only in (person[n] for n in r.players)]
    return Stats(shown_players, shown_pairs, kept, names)


def win_series(stats: Stats, limit: int = 6) -> tuple[list[str], list[tuple[str, list[int]]]]:
    """For the chart: the start date of each finished match in time order, and the running
    match-win count of the `limit` people who played most of those matches."""
    played: dict[str, int] = {}
    for record in stats.records:
        for name in record.players:
            played[key(name)] = played.get(key(name), 0) + 1
    chosen = sorted(played, key=lambda k: (-played[k], k))[:limit]
    series = []
    for person in chosen:
        total, values = 0, []
        for record in stats.records:
            total += int(record.winner is not None and key(record.winner) == person)
            values.append(total)
        series.append((stats.names.get(person, person), values))
    return [r.created[:10] for r in stats.records], series


class Listed(Protocol):
    """Anything with two players and a finished flag (a `MatchEntry`, a `MatchRecord`)."""

    @property
    def players(self) -> tuple[str, str]: ...

    @property
    def finished(self) -> bool: ...


ListedT = TypeVar("ListedT", bound=Listed)


def filter_matches(
    items: Iterable[ListedT], player: str | None = None, finished: bool | None = None
) -> list[ListedT]:
    """Matches of a player (a name ignoring case; else every name it starts) and/or by status."""
    every = list(items)
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
