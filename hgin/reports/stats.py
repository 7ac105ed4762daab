"""Statistics across finished matches: per-player figures and head-to-head, from the cached
summaries; names equal ignoring case and accents are one person, as spelled most recently."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from hgin.engine.money import amount, money_text, parse_stake
from hgin.engine.names import fold, pick
from hgin.engine.summary import TIME_ORDER, MatchSummary, PlayerFigures
from hgin.errors import HginError
from hgin.reports.plural import counted

# The figures of a person with the statistics page's headings, in the order `--json` gives them
# (the net won at the stakes last, which the page says in a sentence).
FIGURES = (
    ("matches", "Matches"),
    ("match_wins", "Matches won"),
    ("games_won", "Games won"),
    ("hands_won", "Hands won"),
    ("gins", "Gins"),
    ("knocks", "Knocks won"),
    ("undercuts", "Undercuts"),
    ("biggest_hand", "Biggest hand"),
    ("longest_streak", "Longest streak"),
    ("average_points", "Points per hand won"),
)
STAT_KEYS = (*(key for key, _ in FIGURES), "net_won")


class Part(NamedTuple):
    """One player's figures, wins and money in some finished matches between two names."""

    figures: Sequence[PlayerFigures]
    wins: int
    money: list[Decimal]


class Tally(NamedTuple):
    """One person's figures over some finished matches."""

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
    money: Decimal = Decimal()

    @classmethod
    def of(cls, parts: Sequence[Part]) -> Tally:
        """The figures of one person over their parts in some matches."""
        figures = [f for part in parts for f in part.figures]
        if not figures:
            return cls()
        # One column of all the matches at a time: summed in C, not match by match.
        games, hands, gins, knocks, undercuts, biggest, points, streak, _ = zip(
            *figures, strict=True
        )
        staked = [m for part in parts for m in part.money]
        return cls(
            matches=len(figures),
            match_wins=sum(part.wins for part in parts),
            games_won=sum(games),
            hands_won=sum(hands),
            gins=sum(gins),
            knocks=sum(knocks),
            undercuts=sum(undercuts),
            biggest_hand=max(biggest),
            longest_streak=max(streak),
            points=sum(points),
            staked=len(staked),
            money=sum(staked, Decimal()),
        )

    @property
    def average_points(self) -> float | None:
        """Points per hand won, to two decimals rounded half up (as money is)."""
        if not self.hands_won:
            return None
        exact = Decimal(self.points) / self.hands_won
        return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

    @property
    def net_won(self) -> str | None:
        """Money won or lost at the stakes as text ('12.50', '-3.00'); None with no stake."""
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
    """Per-person figures, pairs, their finished matches in time order, spellings by folded name.
    (Named tuples: dataclasses cost `hgin stats` its start.)"""

    players: dict[str, Tally]
    pairs: list[Pair]
    records: list[MatchSummary]
    names: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": {name: tally.to_dict() for name, tally in self.players.items()},
            "pairs": [pair.to_dict() for pair in self.pairs],
        }


def compute_stats(summaries: Iterable[MatchSummary], player: str | None = None) -> Stats:
    """Figures over the finished matches among `summaries`; `player` keeps one person's."""
    ordered = sorted(summaries, key=TIME_ORDER)
    # The same few names recur in thousands of matches: each spelling is folded once.
    person = {name: fold(name) for name in {n for s in ordered for n in s.players}}
    names = {person[n]: n for s in ordered for n in s.players}  # the latest spelling wins
    only = _resolve_person(names, player) if player is not None else None
    finished = [s for s in ordered if s.finished]
    by_names: dict[tuple[str, str], list[MatchSummary]] = {}
    for summary in finished:
        by_names.setdefault(summary.players, []).append(summary)
    # The matches of two names at a time, in columns: a few lists, not tuples match by match.
    pairs: dict[tuple[str, str], tuple[list[Part], list[Part]]] = {}
    for (p, q), matches in by_names.items():  # each filed under its pair, in name order
        f, g = zip(*(s.figures for s in matches), strict=True)
        winners = [s.winner for s in matches]
        staked = [(s.stake, s.figures) for s in matches if s.stake is not None]
        first = Part(f, winners.count(p), [_money(at, one.settled) for at, (one, _) in staked])
        second = Part(g, winners.count(q), [_money(at, two.settled) for at, (_, two) in staked])
        a, b = person[p], person[q]
        if a > b:
            a, b, first, second = b, a, second, first
        parts = pairs.setdefault((a, b), ([], []))
        parts[0].append(first)
        parts[1].append(second)
    people: dict[str, list[Part]] = {}  # a person's parts are those of all their pairs
    for (a, b), (first_parts, second_parts) in pairs.items():
        people.setdefault(a, []).extend(first_parts)
        people.setdefault(b, []).extend(second_parts)
    if only is not None:
        people = {only: people.get(only, [])}
        pairs = {k: v for k, v in pairs.items() if only in k}
    tallies = {who: Tally.of(parts) for who, parts in people.items()}
    shown_players = {
        names[k]: tallies[k] for k in sorted(tallies, key=lambda k: (-tallies[k].matches, k))
    }
    pair_tallies = {k: (Tally.of(first), Tally.of(second)) for k, (first, second) in pairs.items()}
    shown_pairs = [
        Pair((names[a], names[b]), both)
        for (a, b), both in sorted(pair_tallies.items(), key=lambda kv: (-kv[1][0].matches, kv[0]))
    ]
    kept = [s for s in finished if only is None or only in (person[n] for n in s.players)]
    return Stats(shown_players, shown_pairs, kept, names)


def _money(stake: str, settled: int) -> Decimal:
    """What a player won (+) or paid (-) at a match's stake, from their points `settled`."""
    won = amount(abs(settled), parse_stake(stake))
    return won if settled >= 0 else -won


def _resolve_person(names: dict[str, str], typed: str) -> str:
    """The person meant by `typed`: a name ignoring case and accents, or a unique start."""
    if not fold(typed):
        raise HginError("name a player")
    missing = "nobody called '{typed}' has played a stored match"
    return fold(pick(typed, [names[k] for k in sorted(names)], missing=missing))


def win_series(stats: Stats, limit: int = 6) -> tuple[list[str], list[tuple[str, list[int]]], int]:
    """For the chart: each match's date, the running match wins of every winner and, up to
    `limit` people, of those who played most; and how many that leaves out."""
    played = Counter(fold(name) for summary in stats.records for name in summary.players)
    won = {fold(s.winner) for s in stats.records if s.winner is not None}
    ranked = sorted(played, key=lambda k: (-played[k], k))
    others = [k for k in ranked if k not in won][: max(limit - len(won), 0)]
    chosen = [k for k in ranked if k in won or k in others]
    series = []
    for person in chosen:
        total, values = 0, []
        for summary in stats.records:
            total += int(summary.winner is not None and fold(summary.winner) == person)
            values.append(total)
        series.append((stats.names.get(person, person), values))
    return [s.created[:10] for s in stats.records], series, len(played) - len(chosen)


def figure(value: int | float | None) -> str:
    """A number as shown in a table; no value (no hand won yet) is a dash."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def count_line(stats: Stats) -> str:
    """'4 finished matches.', or 'Bob: 2 finished matches.' for one player's figures."""
    text = f"{counted(len(stats.records), 'finished match', 'finished matches')}."
    return f"{next(iter(stats.players))}: {text}" if len(stats.players) == 1 else text


def money_line(stats: Stats) -> str:
    """'Won at the stakes: Ann +21.50 (2 matches), Bob -21.50 (2 matches).', or ''."""
    parts = []
    for name, tally in stats.players.items():
        if tally.net_won is None:
            continue
        sign = "+" if tally.money > 0 else ""
        count = counted(tally.staked, "match", "matches")
        parts.append(f"{name} {sign}{tally.net_won} ({count})")
    return f"Won at the stakes: {', '.join(parts)}." if parts else ""
