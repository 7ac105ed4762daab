"""Drawing the statistics with Rich: results and hands won per player, and head to head, as
tables where they fit and as records where they do not."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hgin.cli.console import print_views
from hgin.cli.layout import Fit, plain_text, record, simple_table
from hgin.reports.stats import Pair, Stats, Tally
from hgin.reports.stats_html import count_line, figure, money_line

STATS_NOTE = (
    "Only finished matches count. Best: most points in one hand won. Streak: most hands won "
    "in a row within one match. Avg: points per hand won (gins include big gins)."
)
PAIRS_NOTE = "Head to head reads first player–second player."
FIGURES = (1, 2, 3, 4, 5, 6)  # the columns flush right: all but the first
# What each figure is called in a record ('won 3'), for a terminal too narrow for a table.
RESULTS_NAMES = ("matches", "won", "games", "hands")
HANDS_NAMES = ("gins", "knocks", "undercuts", "best", "streak", "avg")


def _results(t: Tally) -> list[str]:
    return [str(n) for n in (t.matches, t.match_wins, t.games_won, t.hands_won)]


def _hands(t: Tally) -> list[str]:
    figures = map(figure, (t.gins, t.knocks, t.undercuts, t.biggest_hand))
    return [*figures, str(t.longest_streak), figure(t.average_points)]


def _table(headers: tuple[str, ...], rows: dict[str, list[str]], *, bold: str = "") -> Table:
    table = simple_table(*headers, right=FIGURES)
    for title, cells in rows.items():
        table.add_row(Text(title, style=bold), *map(Text, cells))
    return table


def _records(rows: dict[str, list[str]], names: tuple[str, ...]) -> Group:
    """Each row as a record, its figures named ('won 3')."""
    return Group(
        *(
            record(title, [f"{name} {cell}" for name, cell in zip(names, cells, strict=True)])
            for title, cells in rows.items()
        )
    )


def _won(pair: Pair) -> str:
    a, b = pair.tallies
    won = f"{a.match_wins}–{b.match_wins}"
    return f"{won} ({pair.level} level)" if pair.level else won


def _pairs(stats: Stats) -> Fit:
    """Head to head as a table where it fits, else one record per pair."""
    rows = {}
    for pair in stats.pairs:
        a, b = pair.tallies
        both = (f"{a.games_won}–{b.games_won}", f"{a.hands_won}–{b.hands_won}")
        rows[f"{pair.players[0]} v {pair.players[1]}"] = [str(pair.matches), _won(pair), *both]
    table = _table(("Head to head", "Matches", "Won", "Games", "Hands"), rows)
    return Fit(table, _records(rows, RESULTS_NAMES))


def stats_view(stats: Stats) -> RenderableType:
    """Results, hands won and head to head. Both player tables where they fit; else the
    results table and the hands as records; else one record per person, so that a narrow
    terminal never cuts a name or a figure."""
    if not stats.records:
        who = f"{next(iter(stats.players))} has" if stats.players else "There are"
        return Text(f"{who} no finished matches yet: statistics count only those.")
    results = {name: _results(t) for name, t in stats.players.items()}
    hands = {name: _hands(t) for name, t in stats.players.items()}
    results_table = _table(("Player", "Matches", "Won", "Games", "Hands"), results, bold="bold")
    hands_table = _table(
        ("Player", "Gins", "Knocks", "Undercuts", "Best", "Streak", "Avg"), hands, bold="bold"
    )
    money = money_line(stats)  # the net amounts won at the stakes, under the results
    after = [Text(money)] if money else []
    every = {name: results[name] + hands[name] for name in results}
    hands_records = _records(hands, HANDS_NAMES)
    players = Fit(
        Group(results_table, *after, Text(""), hands_table),
        Group(results_table, *after, Text(""), hands_records),
        Group(_records(every, RESULTS_NAMES + HANDS_NAMES), *after),
        judged_by=[None, results_table],
    )
    parts: list[RenderableType] = [Text(count_line(stats), style="bold"), Text(""), players]
    if stats.pairs:
        parts += [Text(""), _pairs(stats), Text(PAIRS_NOTE, style="dim")]
    parts.append(Text(STATS_NOTE, style="dim"))
    return Group(*parts)


def print_stats(stats: Stats) -> None:
    print_views(stats_view(stats))


def stats_text(stats: Stats, width: int = 80) -> str:
    """The same statistics as plain text for a file."""
    return plain_text(stats_view(stats), width)
