"""Drawing the match list and the statistics with Rich (imported only by commands that draw)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from hgin.cli.console import make_console
from hgin.cli.layout import Fit, record
from hgin.reports.stats import Stats, Tally
from hgin.reports.stats_html import count_line, figure, money_line

if TYPE_CHECKING:
    from hgin.store.cache import MatchEntry

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
    if sum(widths) + len(GAP) * 3 > width:
        return stacked_matches(entries, mark, width)
    text.append(_padded(header, widths, right) + "\n", style="bold")
    text.append("   players · rules · started\n", style="dim")
    text.append("─" * min(width, sum(widths) + len(GAP) * 3) + "\n")
    for row, entry in zip(rows, entries, strict=True):
        text.append(_padded(row, widths, right) + "\n")
        players = f"{entry.players[0]} v {entry.players[1]}"
        text.append(f"   {players} · {entry.profile} · {entry.created[:10]}\n", style="dim")
    text.rstrip()
    return text


def stacked_matches(entries: Sequence[MatchEntry], mark: Sequence[str], width: int) -> Text:
    """Every listed match as a record: the identifier, then players, rules, start, hands and
    status, broken only between those, for a terminal too narrow for any columns."""
    text = Text()
    for i, entry in enumerate(entries):
        text.append(f"{entry.id}\n", style="bold")
        hands = f"{entry.hands} hand{'s' if entry.hands != 1 else ''}"
        pieces = [
            *(["* current"] if mark[i].strip() else []),
            f"{entry.players[0]} v {entry.players[1]}",
            entry.profile,
            entry.created[:10],
            hands,
            status_text(entry),
        ]
        for line in joined(pieces, width - 2):
            text.append(f"  {line}\n", style="dim")
    text.rstrip()
    return text


def joined(pieces: Sequence[str], width: int, separator: str = " · ") -> list[str]:
    """Pieces joined by `separator` into lines of at most `width` cells, broken only between
    pieces (a piece longer than a line gets a line of its own)."""
    lines: list[str] = []
    for piece in pieces:
        if lines and cell_len(lines[-1]) + cell_len(separator) + cell_len(piece) <= width:
            lines[-1] += separator + piece
        else:
            lines.append(piece)
    return lines


def print_matches(entries: list[MatchEntry], current: str | None) -> None:
    console = make_console()
    console.print(matches_text(entries, current, console.width), soft_wrap=True)
    if any(e.id == current for e in entries):
        console.print(Text("* current match", style="dim"))


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
