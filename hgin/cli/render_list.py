"""Drawing the match list: a line per match where the columns fit, two lines per match where
they do not, a record each in the narrowest terminals. Rich lays out a table cell by cell,
which over thousands of matches costs more than the rest of the command: so the columns are
padded here, and Rich gives the styles' codes (and draws the records)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, Group
from rich.padding import Padding
from rich.text import Text

from hgin.cli.layout import Pieces, make_console
from hgin.reports.times import shown_time

if TYPE_CHECKING:
    from hgin.engine.summary import MatchSummary

GAP = "  "
Line = tuple[str, str]  # a line and its Rich style ("" for none)


def _width(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


def _lines(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> tuple[int, list[str]]:
    """The rows (the header first) padded into columns GAP apart, flush right where `right`
    says, and their width. A row of ASCII cells, most of them, is padded by one format call."""
    widths = []
    for column in zip(*rows, strict=True):
        measure = len if "".join(column).isascii() else _width
        widths.append(max(map(measure, column)))
    template = GAP.join(f"{{:{'>' if r else '<'}{w}}}" for w, r in zip(widths, right, strict=True))
    lines = []
    for row in rows:
        if "".join(row).isascii():
            lines.append(template.format(*row).rstrip())
        else:
            spaces = [" " * (w - _width(c)) for c, w in zip(row, widths, strict=True)]
            cells = [s + c if r else c + s for c, s, r in zip(row, spaces, right, strict=True)]
            lines.append(GAP.join(cells).rstrip())
    return sum(widths) + len(GAP) * (len(widths) - 1), lines


def status_text(entry: MatchSummary) -> str:
    """Status and winner in one phrase, for the narrow layouts."""
    if not entry.finished:
        return "in play"
    return f"won by {entry.winner}" if entry.winner else "ended level"


def list_lines(entries: Sequence[MatchSummary], current: str | None, width: int) -> list[Line]:
    """Every listed match on a line: players, rules, start, hands, status and winner; where
    those columns do not fit, on two lines (identifier, hands and result, then players, rules
    and start date); none where even those do not fit."""
    mark = ["*" if e.id == current else " " for e in entries]
    players = [f"{e.players[0]} v {e.players[1]}" for e in entries]
    rows = [
        [m, e.id, both, e.profile, shown_time(e.created), str(e.hands)]
        + (["finished", e.winner or "level"] if e.finished else ["in play", ""])
        for m, e, both in zip(mark, entries, players, strict=True)
    ]
    header = ["", "Match", "Players", "Rules", "Started", "Hands", "Status", "Winner"]
    needed, lines = _lines([header, *rows], [False] * 5 + [True, False, False])
    if needed <= width:
        return [(lines[0], "bold"), ("─" * needed, ""), *((line, "") for line in lines[1:])]
    rows = [[m, e.id, str(e.hands), status_text(e)] for m, e in zip(mark, entries, strict=True)]
    needed, lines = _lines([["", "Match", "Hands", "Status"], *rows], [False, False, True, False])
    below = [
        f"   {both} · {e.profile} · {e.created[:10]}"
        for both, e in zip(players, entries, strict=True)
    ]
    if needed > width or max(map(_width, below)) > width:
        return []
    drawn = [(lines[0], "bold"), ("   players · rules · started", "dim"), ("─" * needed, "")]
    for line, under in zip(lines[1:], below, strict=True):
        drawn += [(line, ""), (under, "dim")]
    return drawn


def _record(entry: MatchSummary, current: str | None) -> Group:
    """A match as a record: its identifier, then players, rules, start, hands and status."""
    hands = f"{entry.hands} hand{'s' if entry.hands != 1 else ''}"
    pieces = [
        *(["* current"] if entry.id == current else []),
        f"{entry.players[0]} v {entry.players[1]}",
        entry.profile,
        entry.created[:10],
        hands,
        status_text(entry),
    ]
    figures = Pieces((Text(p, style="dim") for p in pieces), Text(" · ", style="dim"))
    return Group(Text(entry.id, style="bold"), Padding(figures, (0, 0, 0, 2)))


def _codes(console: Console, style: str) -> tuple[str, str]:
    """The codes that start and end `style` on this console, as Rich writes them (none
    without colour; on an old Windows console Rich styles by calls, not codes)."""
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
    if any(e.id == current for e in entries):
        lines.append(("* current match", "dim"))
    codes = {"": ("", ""), "bold": _codes(console, "bold"), "dim": _codes(console, "dim")}
    console.file.write("".join(f"{codes[s][0]}{line}{codes[s][1]}\n" for line, s in lines))
    console.file.flush()
