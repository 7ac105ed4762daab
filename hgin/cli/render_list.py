"""Drawing the match list: one line (or two, or a short record) per match, laid out by hand
(`hgin.cli.text_layout`), as Rich's tables and wrapping take a large part of a second over
thousands of matches."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from hgin.cli.console import make_console
from hgin.cli.text_layout import Line, minute, pad, pieces_lines, width_of, write_lines

if TYPE_CHECKING:
    from hgin.store.cache import MatchEntry

GAP = "  "


def status_of(entry: MatchEntry) -> tuple[str, str]:
    """The status and winner columns of a match."""
    if not entry.finished:
        return "in play", ""
    return "finished", entry.winner or "level"


def status_text(entry: MatchEntry) -> str:
    """Status and winner in one phrase, for the narrow layout."""
    if not entry.finished:
        return "in play"
    return f"won by {entry.winner}" if entry.winner else "ended level"


def _columns(header: Sequence[str], columns: Sequence[Sequence[str]]) -> list[int]:
    """The width of each column, its header included (an all-ASCII column, most of them, is
    measured in one pass)."""
    widths = []
    for title, cells in zip(header, columns, strict=True):
        measure = len if "".join(cells).isascii() else width_of
        widths.append(max(width_of(title), *map(measure, cells)))
    return widths


def _padded(cells: Sequence[str], widths: Sequence[int], right: Sequence[bool]) -> str:
    padded = (pad(c, w, right=r) for c, w, r in zip(cells, widths, right, strict=True))
    return GAP.join(padded).rstrip()


def _padded_rows(
    rows: Iterable[Sequence[str]], widths: Sequence[int], right: Sequence[bool]
) -> list[str]:
    """`_padded` of each row. One format call pads a row whose padded cells are ASCII (most
    rows; the last cell is never padded, only stripped)."""
    template = GAP.join(
        f"{{:{'>' if flush_right else '<'}{width}}}"
        for width, flush_right in zip(widths[:-1], right, strict=False)
    )
    template += GAP + "{}"
    return [
        template.format(*row).rstrip()
        if "".join(row[:-1]).isascii()
        else _padded(row, widths, right)
        for row in rows
    ]


def list_lines(entries: Sequence[MatchEntry], current: str | None, width: int) -> list[Line]:
    """Every listed match: players, rules, start, hands, status and winner, one line each.

    When the columns do not fit `width`, each match takes two lines: identifier, hands and
    result, then players, rules and start date; narrower still, a record each.
    """
    mark = ["*" if e.id == current else " " for e in entries]
    players = [f"{e.players[0]} v {e.players[1]}" for e in entries]
    header = ["", "Match", "Players", "Rules", "Started", "Hands", "Status", "Winner"]
    # Measured before the rows are built: at 80 columns the list takes the narrow layout.
    statuses = [status_of(e) for e in entries]
    started = [minute(e.created) for e in entries]
    columns = [
        mark,
        [e.id for e in entries],
        players,
        [e.profile for e in entries],
        started,
        [str(e.hands) for e in entries],
        [status for status, _ in statuses],
        [winner for _, winner in statuses],
    ]
    widths = _columns(header, columns)
    needed = sum(widths) + len(GAP) * (len(widths) - 1)
    if needed <= width:
        right = [False, False, False, False, False, True, False, False]
        return [
            ((_padded(header, widths, right), "bold"),),
            (("─" * needed, ""),),
            *(((line, ""),) for line in _padded_rows(zip(*columns, strict=True), widths, right)),
        ]
    header = ["", "Match", "Hands", "Status"]
    narrow = [mark, columns[1], columns[5], [status_text(e) for e in entries]]
    rows = list(zip(*narrow, strict=True))
    widths = _columns(header, narrow)
    needed = sum(widths) + len(GAP) * 3
    if needed > width:
        return stacked_lines(entries, mark, width)
    right = [False, False, True, False]
    lines: list[Line] = [
        ((_padded(header, widths, right), "bold"),),
        (("   players · rules · started", "dim"),),
        (("─" * needed, ""),),
    ]
    padded = _padded_rows(rows, widths, right)
    for row, entry, both in zip(padded, entries, players, strict=True):
        lines.append(((row, ""),))
        lines.append(((f"   {both} · {entry.profile} · {entry.created[:10]}", "dim"),))
    return lines


def stacked_lines(entries: Sequence[MatchEntry], mark: Sequence[str], width: int) -> list[Line]:
    """Every listed match as a record: the identifier, then players, rules, start, hands and
    status, broken only between those, for a terminal too narrow for any columns."""
    lines: list[Line] = []
    for i, entry in enumerate(entries):
        lines.append(((entry.id, "bold"),))
        hands = f"{entry.hands} hand{'s' if entry.hands != 1 else ''}"
        pieces = [
            *(["* current"] if mark[i].strip() else []),
            f"{entry.players[0]} v {entry.players[1]}",
            entry.profile,
            entry.created[:10],
            hands,
            status_text(entry),
        ]
        joined = pieces_lines(((piece, "dim") for piece in pieces), width - 2, None)
        lines.extend((("  ", "dim"), *line) for line in joined)
    return lines


def print_matches(entries: list[MatchEntry], current: str | None) -> None:
    console = make_console()
    lines = list_lines(entries, current, console.width)
    if any(e.id == current for e in entries):
        lines.append((("* current match", "dim"),))
    write_lines(console, lines)
