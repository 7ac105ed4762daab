"""Drawing the statistics with Rich (imported only by commands that draw)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from hgin.cli.console import make_console
from hgin.cli.layout import Fit, record
from hgin.reports.stats import Stats, Tally
from hgin.reports.stats_html import count_line, figure, money_line

if TYPE_CHECKING:
    pass

STATS_NOTE = (
    "Only finished matches count. Best: most points in one hand won. Streak: most hands won "
    "in a row within one match. Avg: points per hand won (gins include big gins)."
)


def _players_tables(stats: Stats) -> list[Table]:
    results = Table(box=box.SIMPLE, pad_edge=False, show_edge=False, title_justify="left")
    results.add_column("Player")
    for label in ("Matches", "Won", "Games", "Hands"):
        results.add_column(label, justify="right")
    hands = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    hands.add_column("Player")
    for label in ("Gins", "Knocks", "Undercuts", "Best", "Streak", "Avg"):
        hands.add_column(label, justify="right")
    for name, t in stats.players.items():
        results.add_row(
            Text(name, style="bold"),
            *(Text(str(v)) for v in (t.matches, t.match_wins, t.games_won, t.hands_won)),
        )
        hands.add_row(
            Text(name, style="bold"),
            *(Text(figure(v)) for v in (t.gins, t.knocks, t.undercuts, t.biggest_hand)),
            Text(str(t.longest_streak)),
            Text(figure(t.average_points)),
        )
    return [results, hands]


def _results_figures(t: Tally) -> list[str]:
    return [
        f"matches {t.matches}",
        f"won {t.match_wins}",
        f"games {t.games_won}",
        f"hands {t.hands_won}",
    ]


def _hands_figures(t: Tally) -> list[str]:
    return [
        f"gins {figure(t.gins)}",
        f"knocks {figure(t.knocks)}",
        f"undercuts {figure(t.undercuts)}",
        f"best {figure(t.biggest_hand)}",
        f"streak {t.longest_streak}",
        f"avg {figure(t.average_points)}",
    ]


def _players_view(stats: Stats) -> Fit:
    """Both tables where they fit; else the results table and the hands as records; else one
    record per person, so that a narrow terminal never cuts a name or a figure."""
    results, hands = _players_tables(stats)
    players = stats.players.items()
    hands_records = Group(*(record(name, _hands_figures(t)) for name, t in players))
    every_figure = Group(
        *(record(name, _results_figures(t) + _hands_figures(t)) for name, t in players)
    )
    money = money_line(stats)  # the net amounts won at the stakes, under the results
    after = [Text(money)] if money else []
    return Fit(
        Group(results, *after, Text(""), hands),
        Group(results, *after, Text(""), hands_records),
        Group(every_figure, *after),
        judged_by=[None, results],
    )


def _pairs_records(stats: Stats) -> Group:
    parts = []
    for pair in stats.pairs:
        a, b = pair.tallies
        won = f"won {a.match_wins}–{b.match_wins}"
        if pair.level:
            won += f" ({pair.level} level)"
        figures = [
            f"matches {pair.matches}",
            won,
            f"games {a.games_won}–{b.games_won}",
            f"hands {a.hands_won}–{b.hands_won}",
        ]
        parts.append(record(f"{pair.players[0]} v {pair.players[1]}", figures))
    return Group(*parts)


def _pairs_table(stats: Stats) -> Table:
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    table.add_column("Head to head")
    for label in ("Matches", "Won", "Games", "Hands"):
        table.add_column(label, justify="right")
    for pair in stats.pairs:
        a, b = pair.tallies
        names = Text(f"{pair.players[0]} v {pair.players[1]}")
        won = f"{a.match_wins}–{b.match_wins}"
        if pair.level:
            won += f" ({pair.level} level)"
        table.add_row(
            names,
            Text(str(pair.matches)),
            Text(won),
            Text(f"{a.games_won}–{b.games_won}"),
            Text(f"{a.hands_won}–{b.hands_won}"),
        )
    return table


def stats_view(stats: Stats) -> Group:
    """The statistics for people: results, hands won, and head to head."""
    count = len(stats.records)
    if not count:
        who = f"{next(iter(stats.players))} has" if stats.players else "There are"
        return Group(Text(f"{who} no finished matches yet: statistics count only those."))
    header = Text(count_line(stats), style="bold")
    parts: list[RenderableType] = [header, Text(""), _players_view(stats)]
    if stats.pairs:
        parts.extend([Text(""), Fit(_pairs_table(stats), _pairs_records(stats))])
        parts.append(Text("Head to head reads first player–second player.", style="dim"))
    parts.append(Text(STATS_NOTE, style="dim"))
    return Group(*parts)


def print_stats(stats: Stats) -> None:
    make_console().print(stats_view(stats))


def stats_text(stats: Stats, width: int = 80) -> str:
    """The same statistics as plain text for a file."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, highlight=False, emoji=False)
    console.print(stats_view(stats))
    return buffer.getvalue()
