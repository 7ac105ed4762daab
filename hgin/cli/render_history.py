"""Drawing the match list and the statistics with Rich (imported only by commands that draw)."""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from hgin.cli.render import make_console
from hgin.history import Stats
from hgin.history_report import figure
from hgin.match_index import MatchEntry

STATS_NOTE = (
    "Only finished matches count. Best: most points in one hand won. Streak: most hands won "
    "in a row within one match. Avg: points per hand won (gins include big gins)."
)


def status_of(entry: MatchEntry) -> tuple[str, str]:
    """The status and winner columns of a match."""
    if not entry.finished:
        return "in play", ""
    return "finished", entry.winner or "level"


WIDE = 100


def matches_table(entries: Iterable[MatchEntry], current: str | None, wide: bool = True) -> Table:
    """Every listed match: players, rules, start, hands, status and winner. Narrow terminals get
    rules and start date under the identifier, and status and winner in one column."""
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    table.add_column("", width=1)
    table.add_column("Match" if wide else "Match\nrules · started", overflow="fold", min_width=10)
    table.add_column("Players", max_width=30 if wide else 16)
    if wide:
        table.add_column("Rules")
        table.add_column("Started", no_wrap=True)
    table.add_column("Hands", justify="right")
    table.add_column("Status")
    if wide:
        table.add_column("Winner")
    for entry in entries:
        status, winner = status_of(entry)
        ident = Text(entry.id)
        cells = [Text("*" if entry.id == current else ""), ident]
        cells.append(Text(f"{entry.players[0]} v {entry.players[1]}"))
        if wide:
            cells.append(Text(entry.profile))
            cells.append(Text(entry.created[:16].replace("T", " ")))
        else:
            ident.append(f"\n{entry.profile} · {entry.created[:10]}", style="dim")
        cells.append(Text(str(entry.hands)))
        if wide:
            cells.extend([Text(status), Text(winner)])
        else:
            cells.append(Text(status if not entry.finished else f"won by {winner}"))
            if entry.finished and not entry.winner:
                cells[-1] = Text("ended level")
        table.add_row(*cells)
    return table


def print_matches(entries: list[MatchEntry], current: str | None) -> None:
    console = make_console()
    console.print(matches_table(entries, current, wide=console.width >= WIDE))
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
    header = Text(f"{count} finished match{'es' if count != 1 else ''}", style="bold")
    results, hands = _players_tables(stats)
    parts: list[Text | Table] = [header, Text(""), results, Text(""), hands]
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
