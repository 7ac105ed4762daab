"""Drawing the statistics with Rich: results and hands won per player, and head to head, as
tables where they fit and as records where they do not."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hgin.cli.layout import Fit, plain_text, record, simple_table, table_or_records
from hgin.reports.stats import Stats, Tally, count_line, figure, money_line

STATS_NOTE = (
    "Only finished matches count. Best: most points in one hand won. Streak: most hands won "
    "in a row within one match. Avg: points per hand won (gins include big gins)."
)
PAIRS_NOTE = "Head to head reads first player–second player."
RESULTS = ("Matches", "Won", "Games", "Hands")
HANDS = ("Gins", "Knocks", "Undercuts", "Best", "Streak", "Avg")


def _results(t: Tally) -> list[str]:
    return [str(n) for n in (t.matches, t.match_wins, t.games_won, t.hands_won)]


def _hands(t: Tally) -> list[str]:
    figures = map(figure, (t.gins, t.knocks, t.undercuts, t.biggest_hand))
    return [*figures, str(t.longest_streak), figure(t.average_points)]


def _table(title: str, names: tuple[str, ...], rows: dict[str, list[str]], bold: str) -> Table:
    table = simple_table(title, *names, right=range(1, len(names) + 1))
    for name, cells in rows.items():
        table.add_row(Text(name, style=bold), *map(Text, cells))
    return table


def _records(names: tuple[str, ...], rows: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    """Each row as a record, its figures named ('won 3'), a dash left out."""
    named = [name.lower() for name in names]
    return [
        (title, [f"{n} {c}" for n, c in zip(named, cells, strict=True) if c != figure(None)])
        for title, cells in rows.items()
    ]


def stats_view(stats: Stats) -> RenderableType:
    """Results, hands won and head to head, as tables or records as the width allows."""
    if not stats.records:
        who = f"{next(iter(stats.players))} has" if stats.players else "There are"
        return Text(f"{who} no finished matches yet: statistics count only those.")
    results = {name: _results(t) for name, t in stats.players.items()}
    hands = {name: _hands(t) for name, t in stats.players.items()}
    results_table = _table("Player", RESULTS, results, "bold")
    money = money_line(stats)  # the net amounts won at the stakes, under the results
    after = [Text(money)] if money else []
    every = {name: results[name] + hands[name] for name in results}
    hands_records = Group(*(record(*r) for r in _records(HANDS, hands)))
    players = Fit(
        Group(results_table, *after, Text(""), _table("Player", HANDS, hands, "bold")),
        Group(results_table, *after, Text(""), hands_records),
        Group(*(record(*r) for r in _records(RESULTS + HANDS, every)), *after),
        judged_by=[None, results_table],
    )
    parts: list[RenderableType] = [Text(count_line(stats), style="bold"), Text(""), players]
    if stats.pairs:
        pairs = {}
        for pair in stats.pairs:
            a, b = pair.tallies
            won = f"{a.match_wins}–{b.match_wins}"
            won += f" ({pair.level} level)" if pair.level else ""
            both = (f"{a.games_won}–{b.games_won}", f"{a.hands_won}–{b.hands_won}")
            pairs[f"{pair.players[0]} v {pair.players[1]}"] = [str(pair.matches), won, *both]
        table = _table("Head to head", RESULTS, pairs, "")
        parts += [Text(""), table_or_records(table, _records(RESULTS, pairs))]
        parts.append(Text(PAIRS_NOTE, style="dim"))
    parts.append(Text(STATS_NOTE, style="dim"))
    return Group(*parts)


def stats_text(stats: Stats) -> str:
    """The statistics drawn 80 columns wide as text for a file."""
    return plain_text(stats_view(stats), 80)
