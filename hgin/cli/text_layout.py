"""Text laid out by hand for the long outputs (the match list, the statistics): lines of
styled pieces, written straight to the console's stream with Rich's styles.

Rich's tables, measuring and wrapping cost more than the rest of `hgin stats` together the
first time they run in a process, and they run once per command. The layout here gives the
characters Rich's simple tables (no edge) and records gave; `tests/test_text_layout.py`
compares the two. Every text laid out here was checked for control characters when its file
was read, so it is written as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from rich.cells import cell_len

if TYPE_CHECKING:
    from rich.console import Console

Piece = tuple[str, str]  # a text and its Rich style ("" for none)
Line = tuple[Piece, ...]
GAP = "   "  # between table columns: a cell's padding, the rule's gap, the next cell's padding
SEPARATOR: Piece = (" · ", "dim")
BLANK: Line = ()


def width_of(text: str) -> int:
    """Terminal cells taken by `text` (most names are ASCII: one cell a character)."""
    return len(text) if text.isascii() else cell_len(text)


def minute(at: str) -> str:
    """'2026-11-30 15:02' from an ISO time (as stored: shown as it was written)."""
    return at[:16].replace("T", " ")


def pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` padded with spaces to `width` cells, on the left when `right`."""
    if text.isascii():
        return text.rjust(width) if right else text.ljust(width)
    spaces = " " * (width - cell_len(text))
    return spaces + text if right else text + spaces


def wrapped(text: str, width: int | None, style: str = "") -> list[Line]:
    """`text` broken between words into lines of at most `width` cells (a word longer than
    a line is folded), as Rich wraps a sentence; None: one line, never broken."""
    if width is None or width_of(text) <= width:
        return [((text, style),)]
    from rich.text import Text

    lines = Text(text).wrap(_measuring_console(), width)
    return [((line.plain.rstrip(), style),) for line in lines]


@cache
def _measuring_console() -> Console:
    """A console that only measures (wrapping asks one for nothing but cell widths), made
    once: a note, a sentence and a record may each need wrapping in one command."""
    from rich.console import Console

    return Console(color_system=None)


def _padded(lines: Sequence[Line], width: int, *, right: bool) -> list[Line]:
    """`lines` each padded to `width` cells."""
    padded = []
    for line in lines:
        spaces = (" " * (width - line_width(line)), "")
        padded.append((spaces, *line) if right else (*line, spaces))
    return padded


def row_lines(
    cells: Sequence[list[Line]], widths: Sequence[int], *, bottom: bool = False
) -> list[Line]:
    """One table row of cells several lines high, as lines: each cell padded to its column's
    width (the first flush left, the others right), aligned to the top (or `bottom`)."""
    height = max(len(cell) for cell in cells)
    columns = []
    for number, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        empty: list[Line] = [()] * (height - len(cell))
        stacked = [*empty, *cell] if bottom else [*cell, *empty]
        columns.append(_padded(stacked, width, right=number > 0))
    lines = []
    for parts in zip(*columns, strict=True):
        pieces: list[Piece] = []
        for number, part in enumerate(parts):
            if number:
                pieces.append((GAP, ""))
            pieces.extend(part)
        lines.append(_stripped(pieces))
    return lines


def _stripped(pieces: list[Piece]) -> Line:
    """The pieces without the blanks they end in."""
    while pieces and not pieces[-1][0].rstrip():
        pieces.pop()
    if pieces:
        text, style = pieces[-1]
        pieces[-1] = (text.rstrip(), style)
    return tuple(pieces)


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    bold_first: bool = False,
) -> tuple[int, list[Line]]:
    """A simple table: a bold header, a rule, then the rows; the first column flush left and
    the others flush right. Returns its width and its lines."""
    widths = [max(map(width_of, column)) for column in zip(header, *rows, strict=True)]
    total = sum(widths) + len(GAP) * (len(widths) - 1)
    first = "bold" if bold_first else ""
    titles: list[list[Line]] = [[((cell, "bold"),)] for cell in header]
    lines = row_lines(titles, widths)
    lines.append((("─" * total, ""),))
    for row in rows:
        cells: list[list[Line]] = [
            [((cell, first if number == 0 else ""),)] for number, cell in enumerate(row)
        ]
        lines.extend(row_lines(cells, widths))
    return total, lines


def line_width(line: Line) -> int:
    return sum(width_of(piece) for piece, _ in line)


def pieces_lines(
    pieces: Iterable[Piece], width: int, wrap: int | None, separator: Piece = SEPARATOR
) -> list[Line]:
    """Pieces joined by `separator` into lines of at most `width` cells, broken only between
    pieces, as `hgin.cli.layout.Pieces` draws them; a piece longer than a line gets a line of
    its own, wrapped at `wrap` (None: not wrapped)."""
    rows: list[list[Piece]] = []
    used = 0
    gap = width_of(separator[0])
    for piece in pieces:
        if not piece[0]:
            continue
        size = width_of(piece[0])
        if rows and used + gap + size <= width:
            rows[-1].extend([separator, piece])
            used += gap + size
        else:
            rows.append([piece])
            used = size
    lines: list[Line] = []
    for row in rows:
        if len(row) == 1 and wrap is not None and width_of(row[0][0]) > wrap:
            lines.extend(wrapped(row[0][0], wrap, row[0][1]))
        else:
            lines.append(tuple(row))
    return lines


def record(title: str, figures: Iterable[str], width: int, wrap: int | None) -> list[Line]:
    """One table row stacked as a record, for a terminal too narrow for the table: the title
    in bold on a line of its own, then the figures indented by two, broken only between
    figures (a figure longer than a line is wrapped on its own)."""
    indented = pieces_lines(
        ((figure, "") for figure in figures), width - 2, None if wrap is None else wrap - 2
    )
    return [*wrapped(title, wrap, "bold"), *((("  ", ""), *line) for line in indented)]


def write_lines(console: Console, lines: Sequence[Line]) -> None:
    """Write lines through `console`: its stream, its colour system, its styles."""
    if not lines:
        return
    from rich.style import Style

    if console.legacy_windows:  # styles there are calls to the console, not escape codes
        from rich.text import Text

        for line in lines:
            console.print(Text.assemble(*line), soft_wrap=True)
        return
    from rich.color import ColorSystem

    systems = {
        "standard": ColorSystem.STANDARD,
        "256": ColorSystem.EIGHT_BIT,
        "truecolor": ColorSystem.TRUECOLOR,
        "windows": ColorSystem.WINDOWS,
    }
    system = systems.get(console.color_system or "")  # None off a terminal: plain text
    if system is None:
        text = "\n".join("".join(piece for piece, _ in line) for line in lines)
    else:
        names = {style for line in lines for _, style in line if style}
        styles = {name: Style.parse(name) for name in names}
        if console.no_color:  # NO_COLOR: bold and dim stay, colours go (as Rich does)
            styles = {name: style.without_color for name, style in styles.items()}
        text = "\n".join(
            "".join(
                styles[style].render(piece, color_system=system) if style else piece
                for piece, style in line
            )
            for line in lines
        )
    console.file.write(text + "\n")
    console.file.flush()


def plain_text(lines: Sequence[Line]) -> str:
    """The lines as text without styles (for a file)."""
    return "".join("".join(piece for piece, _ in line) + "\n" for line in lines)
