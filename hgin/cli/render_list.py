"""Drawing the match list: a line per match where the columns fit, two lines per match where
they do not, a record each in the narrowest terminals. Rich lays out a table cell by cell,
which over thousands of matches costs more than the rest of the command: so the columns are
padded here, and Rich gives the styles' codes (and draws the records)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, Group
from rich.text import Text

from hgin.cli.layout import make_console, record
from hgin.reports.plural import counted
from hgin.reports.times import SHORTEST_TIME, shown_times

if TYPE_CHECKING:
    from hgin.engine.summary import MatchSummary

GAP = "  "
Line = tuple[str, str]  # a line and its Rich style ("" for none)


def _width(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


def _widths(rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width; a column of ASCII, most of them, is measured by len."""
    columns = zip(*rows, strict=True)
    return [max(map(len if "".join(c).isascii() else _width, c)) for c in columns]


def _span(widths: list[int]) -> int:
    return sum(widths) + len(GAP) * (len(widths) - 1)


def _padded(rows: Sequence[Sequence[str]], widths: list[int], align: str) -> list[str]:
    """The rows padded into columns GAP apart, each aligned as `align` says ('<' or '>')."""
    template = GAP.join(f"{{:{a}{w}}}" for w, a in zip(widths, align, strict=True))
    lines = []
    for row in rows:
        if "".join(row).isascii():
            lines.append(template.format(*row).rstrip())
        else:
            cells = zip(row, widths, align, strict=True)
            lines.append(GAP.join(f"{c:{a}{w + len(c) - _width(c)}}" for c, w, a in cells).rstrip())
    return lines


def status_text(entry: MatchSummary) -> str:
    """Status and winner in one phrase, for the narrow layouts."""
    if not entry.finished:
        return "in play"
    return f"won by {entry.winner}" if entry.winner else "ended level"


def list_lines(entries: Sequence[MatchSummary], current: str | None, width: int) -> list[Line]:
    """Every listed match on a line, else on two lines where the columns do not fit; none
    where even those do not fit."""
    mark = ["*" if e.id == current else " " for e in entries]
    players = [f"{e.players[0]} v {e.players[1]}" for e in entries]
    rows = [
        ["", "Match", "Players", "Rules", "Hands", "Status", "Winner"],
        *(
            [m, e.id, both, e.profile, str(e.hands)]
            + (["finished", e.winner or "level"] if e.finished else ["in play", ""])
            for m, e, both in zip(mark, entries, players, strict=True)
        ),
    ]
    # The starts are worded only if the line may fit: a worded time takes SHORTEST_TIME
    # columns at least, and a text that is no time is shown as it is.
    least = min(SHORTEST_TIME, max((_width(e.created) for e in entries), default=0))
    if _span(_widths(rows)) + len(GAP) + least <= width:
        started = ["Started", *shown_times(e.created for e in entries)]
        rows = [[*row[:4], at, *row[4:]] for row, at in zip(rows, started, strict=True)]
        widths = _widths(rows)
        if _span(widths) <= width:
            lines = _padded(rows, widths, "<<<<<><<")
            drawn = [(lines[0], "bold"), ("─" * _span(widths), "")]
            return drawn + [(line, "") for line in lines[1:]]
    rows = [
        ["", "Match", "Hands", "Status"],
        *([m, e.id, str(e.hands), status_text(e)] for m, e in zip(mark, entries, strict=True)),
    ]
    widths = _widths(rows)
    below = [
        f"   {both} · {e.profile} · {e.created[:10]}"
        for both, e in zip(players, entries, strict=True)
    ]
    if _span(widths) > width or max(map(_width, below)) > width:
        return []
    lines = _padded(rows, widths, "<<><")
    drawn = [(lines[0], "bold"), ("   players · rules · started", "dim"), ("─" * _span(widths), "")]
    for line, under in zip(lines[1:], below, strict=True):
        drawn += [(line, ""), (under, "dim")]
    return drawn


def _record(entry: MatchSummary, current: str | None) -> Group:
    """A match as a record: its identifier, then players, rules, start, hands and status."""
    pieces = [
        *(["* current"] if entry.id == current else []),
        f"{entry.players[0]} v {entry.players[1]}",
        entry.profile,
        entry.created[:10],
        counted(entry.hands, "hand"),
        status_text(entry),
    ]
    return record(entry.id, pieces, style="dim")


def _codes(console: Console, style: str) -> tuple[str, str]:
    """The codes that start and end `style` on this console, as Rich writes them."""
    if console.legacy_windows:
        return "", ""
    with console.capture() as captured:
        console.print(Text("|", style=style), end="")
    start, _, end = captured.get().partition("|")
    return start, end


def print_matches(entries: list[MatchSummary], current: str | None) -> None:
    console = make_console()
    lines = list_lines(entries, current, console.width)
    if not lines:
        console.print(Group(*(_record(entry, current) for entry in entries)))
    elif any(e.id == current for e in entries):
        lines.append(("* current match", "dim"))
    codes = {"": ("", ""), "bold": _codes(console, "bold"), "dim": _codes(console, "dim")}
    console.file.write("".join(f"{codes[s][0]}{line}{codes[s][1]}\n" for line, s in lines))
    console.file.flush()
