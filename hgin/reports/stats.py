"""Statistics across finished matches: per-player figures and head-to-head, folded from the
summaries the store keeps in its cache. Names equal ignoring case and accents are one person,
spelled as in their most recent match."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from hgin.engine.money import amount, money_text, parse_stake
from hgin.engine.names import fold, pick
from hgin.engine.summary import TIME_ORDER, MatchSummary, PlayerFigures
from hgin.errors import HginError

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

# One player's side of a finished match: their figures, whether they won the match, and the
# money they won (+) or paid (-) when it had a stake.
Side = tuple[PlayerFigures, bool, Decimal | None]


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
    def of(cls, sides: Sequence[Side]) -> Tally:
        """The figures of one person over their sides of some matches."""
        if not sides:
            return cls()
        figures, wins, moneys = zip(*sides, strict=True)
        # One column of all the matches at a time: summed in C, not match by match.
        games, hands, gins, knocks, undercuts, biggest, points, streak, _ = zip(
            *figures, strict=True
        )
        staked = [m for m in moneys if m is not None]
        return cls(
            matches=len(sides),
            match_wins=sum(wins),
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


def compute_stats(summaries: Iterable[MatchSummary], player: str | None = None) -> Stats:
    """Figures over the finished matches among `summaries`; `player` keeps one person's,
    resolved against every match (one whose matches are all still open has zeros)."""
    ordered = sorted(summaries, key=TIME_ORDER)
    # The same few names recur in thousands of matches: each spelling is folded once.
    person = {name: fold(name) for name in {n for s in ordered for n in s.players}}
    names = {person[n]: n for s in ordered for n in s.players}  # the latest spelling wins
    only = _resolve_person(names, player) if player is not None else None
    finished = [s for s in ordered if s.finished]
    pairs: dict[tuple[str, str], tuple[list[Side], list[Side]]] = {}
    for summary in finished:  # each match filed under its pair, the pair in name order
        (p, q), (f, g), stake = summary.players, summary.figures, summary.stake
        first = (f, summary.winner == p, None if stake is None else _money(stake, f.settled))
        second = (g, summary.winner == q, None if stake is None else _money(stake, g.settled))
        a, b = person[p], person[q]
        if a > b:
            a, b, first, second = b, a, second, first
        sides = pairs.setdefault((a, b), ([], []))
        sides[0].append(first)
        sides[1].append(second)
    people: dict[str, list[Side]] = {}  # a person's sides are those of all their pairs
    for (a, b), (first_sides, second_sides) in pairs.items():
        people.setdefault(a, []).extend(first_sides)
        people.setdefault(b, []).extend(second_sides)
    if only is not None:
        people = {only: people.get(only, [])}
        pairs = {k: v for k, v in pairs.items() if only in k}
    tallies = {who: Tally.of(sides) for who, sides in people.items()}
    shown_players = {
        names[k]: tallies[k] for k in sorted(tallies, key=lambda k: (-tallies[k].matches, k))
    }
    shown_pairs = [
        Pair((names[a], names[b]), (Tally.of(sides[0]), Tally.of(sides[1])))
        for (a, b), sides in sorted(pairs.items(), key=lambda kv: (-len(kv[1][0]), kv[0]))
    ]
    kept = [s for s in finished if only is None or only in (person[n] for n in s.players)]
    return Stats(shown_players, shown_pairs, kept, names)


def _money(stake: str, settled: int) -> Decimal:
    """What a player won (+) or paid (-) at a match's stake, from their points `settled`."""
    won = amount(abs(settled), parse_stake(stake))
    return won if settled >= 0 else -won


def _resolve_person(names: dict[str, str], typed: str) -> str:
    """The person meant by `typed` among all stored names: exact (ignoring case and accents)
    or a unique start of one name."""
    if not fold(typed):
        raise HginError("name a player")
    missing = "nobody called '{typed}' has played a stored match"
    return fold(pick(typed, [names[k] for k in sorted(names)], missing=missing))


def win_series(stats: Stats, limit: int = 6) -> tuple[list[str], list[tuple[str, list[int]]], int]:
    """For the chart: the start date of each finished match in time order, the running
    match-win count of every person who won one of those matches and, up to `limit` people in
    all, of those who played most of them; and how many people that leaves out."""
    played: dict[str, int] = {}
    for summary in stats.records:
        for name in summary.players:
            played[fold(name)] = played.get(fold(name), 0) + 1
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
    count = len(stats.records)
    text = f"{count} finished match{'es' if count != 1 else ''}."
    return f"{next(iter(stats.players))}: {text}" if len(stats.players) == 1 else text


def money_line(stats: Stats) -> str:
    """'Won at the stakes: Ann +21.50 (2 matches), Bob -21.50 (2 matches).', or '' when no
    finished match had a stake."""
    parts = []
    for name, tally in stats.players.items():
        if tally.net_won is None:
            continue
        sign = "+" if tally.money > 0 else ""
        count = f"{tally.staked} match{'es' if tally.staked != 1 else ''}"
        parts.append(f"{name} {sign}{tally.net_won} ({count})")
    return f"Won at the stakes: {', '.join(parts)}." if parts else ""
