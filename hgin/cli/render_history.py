"""Drawing the match list and the statistics with Rich (imported only by commands that draw)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from hgin.cli.console import make_console
from hgin.reports.stats import Stats
from hgin.reports.stats_html import count_line, figure, money_line

if TYPE_CHECKING:
    from hgin.store.index import MatchEntry

STATS_NOTE = (
    "Only finished matches count. Best: most points in one hand won. Streak: most hands won "
    "in a row within one match. Avg: points per hand won (gins include big gins)."
)


def status_of(entry: MatchEntry) -> tuple[str, str]:
    """The status and winner columns of a match."""
    if not entry.finished:
        return "in play", ""
    return "finished", entry.winner or "level"


GAP = "  "


def status_text(entry: MatchEntry) -> str:
    """Status and winner in one phrase, for the narrow layout."""
    if not entry.finished:
        return "in play"
    return f"won by {entry.winner}" if entry.winner else "ended level"


def _padded(cells: Sequence[str], widths: Sequence[int], right: Sequence[bool]) -> str:
    parts = []
    for cell, width, flush_right in zip(cells, widths, right, strict=True):
        pad = " " * (width - cell_len(cell))
        parts.append(pad + cell if flush_right else cell + pad)
    return GAP.join(parts).rstrip()


def matches_text(entries: Sequence[MatchEntry], current: str | None, width: int) -> Text:
    """Every listed match: players, rules, start, hands, status and winner, one line each.

    Laid out by hand rather than as a Rich table, which takes seconds over thousands of rows.
    When the columns do not fit `width`, each match takes two lines: identifier, hands and
    result, then players, rules and start date.
    """
    mark = ["*" if e.id == current else " " for e in entries]
    wide_rows = [
        [
            mark[i],
            e.id,
            f"{e.players[0]} v {e.players[1]}",
            e.profile,
            e.created[:16].replace("T", " "),
            str(e.hands),
            *status_of(e),
        ]
        for i, e in enumerate(entries)
    ]
    header = ["", "Match", "Players", "Rules", "Started", "Hands", "Status", "Winner"]
    right = [False, False, False, False, False, True, False, False]
    widths = [max(cell_len(r[k]) for r in [header, *wide_rows]) for k in range(len(header))]
    text = Text()
    if sum(widths) + len(GAP) * (len(widths) - 1) <= width:
        text.append(_padded(header, widths, right) + "\n", style="bold")
        text.append("─" * min(width, sum(widths) + len(GAP) * (len(widths) - 1)) + "\n")
        text.append("\n".join(_padded(row, widths, right) for row in wide_rows))
        return text
    rows = [[mark[i], e.id, str(e.hands), status_text(e)] for i, e in enumerate(entries)]
    header = ["", "Match", "Hands", "Status"]
    right = [False, False, True, False]
    widths = [max(cell_len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    text.append(_padded(header, widths, right) + "\n", style="bold")
    text.append("   players · rules · started\n", style="dim")
    text.append("─" * min(width, sum(widths) + len(GAP) * 3) + "\n")
    for row, entry in zip(rows, entries, strict=True):
        text.append(_padded(row, widths, right) + "\n")
        players = f"{entry.players[0]} v {entry.players[1]}"
        text.append(f"   {players} · {entry.profile} · {entry.created[:10]}\n", style="dim")
    text.rstrip()
    return text


def print_matches(entries: list[MatchEntry], current: str | None) -> None:
    console = make_console()
    console.print(matches_text(entries, current, console.width), soft_wrap=True)
    if any(e.id == current for e in entries):
        console.print(Text("* current match", style="dim"))


def _players_tables(stats: Stats) -> list[Table]:
    results = Table(box=box.SIMPLE, pad_edge=False, show_edge=False, title_justify="left")
    results.add_column("Player", max_width=18)
    for label in ("Matches", "Won", "Games", "Hands"):
        results.add_column(label, justify="right")
    hands = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    hands.add_column("Player", max_width=18)
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


def _pairs_table(stats: Stats) -> Table:
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    table.add_column("Head to head", max_width=26)
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
    results, hands = _players_tables(stats)
    parts: list[Text | Table] = [header, Text(""), results]
    money = money_line(stats)
    if money:
        parts.append(Text(money))
    parts.extend([Text(""), hands])
    if stats.pairs:
        parts.extend([Text(""), _pairs_table(stats)])
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
