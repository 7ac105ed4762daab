"""The Rich console hgin prints on, `print_views` that prints on it, and what keeps a drawing
readable in a narrow terminal: a table where it fits, the same figures as records where it does
not, and pieces of text broken only between pieces. (Apart from the sheet's drawing, so that the
match list loads no engine.)"""

from __future__ import annotations

import errno
import io
import os
from collections.abc import Iterable, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

UNLIMITED = 10_000  # wider than any terminal: a renderable's natural width is measured at it
SEPARATOR = Text(" · ", style="dim")


class HginConsole(Console):
    """Rich's console, a reader gone away an output error like a full disk (Rich would exit)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def make_console(*, stderr: bool = False) -> Console:
    """A console honouring COLUMNS and NO_COLOR as set now; piped with no COLUMNS, sentences are
    not wrapped (tables still are, to 80 columns)."""
    console = HginConsole(highlight=False, emoji=False, stderr=stderr)
    if not console.is_terminal and not os.environ.get("COLUMNS"):
        console.soft_wrap = True
    return console


def simple_table(
    *headers: str | Text, right: Sequence[int] = (), unwrapped: Sequence[int] = ()
) -> Table:
    """A table without edges; the columns in `right` flush right, those in `unwrapped` unwrapped."""
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    for number, header in enumerate(headers):
        table.add_column(
            header,
            justify="right" if number in right else "left",
            overflow="fold",
            no_wrap=number in unwrapped,
        )
    return table


class Fit:
    """The first choice whose natural width fits, else the last; `judged_by` names, for a
    choice, the part whose width decides."""

    def __init__(
        self, *choices: RenderableType, judged_by: Sequence[RenderableType | None] = ()
    ) -> None:
        self.choices = choices
        self.judged_by = list(judged_by) + [None] * (len(choices) - len(judged_by))

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        wide = options.update_width(UNLIMITED)
        for choice, judge in zip(self.choices[:-1], self.judged_by, strict=False):
            measured = choice if judge is None else judge
            if Measurement.get(console, wide, measured).maximum <= options.max_width:
                return choice
        return self.choices[-1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.choose(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.choose(console, options))


class Pieces:
    """Pieces of text joined by a separator, lines broken only between pieces: 'Ann v Bob ·
    classic rules · match 2025-06-01-ann-bob' never splits 'match' from its identifier."""

    def __init__(self, pieces: Iterable[Text], separator: Text = SEPARATOR) -> None:
        self.pieces: Sequence[Text] = [p for p in pieces if p.plain]
        self.separator = separator

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines: list[Text] = []
        for piece in self.pieces:
            width = lines[-1].cell_len + self.separator.cell_len + piece.cell_len if lines else 0
            if lines and width <= options.max_width:
                lines[-1].append_text(self.separator)
                lines[-1].append_text(piece)
            else:
                lines.append(piece.copy())
        yield from lines

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((p.cell_len for p in self.pieces), default=0)
        whole = sum(p.cell_len for p in self.pieces)
        whole += self.separator.cell_len * max(len(self.pieces) - 1, 0)
        return Measurement(longest, whole).with_maximum(options.max_width)


def record(title: str, *lines: Iterable[str], style: str = "") -> Group:
    """A table's row as a record: the title, each line of figures indented below it."""
    pieces = (Pieces(Text(figure, style=style) for figure in figures) for figures in lines)
    return Group(Text(title, style="bold"), *(Padding(p, (0, 0, 0, 2)) for p in pieces))


def table_or_records(table: Table, records: Iterable[tuple[str, Iterable[str]]]) -> Fit:
    """`table` where it fits, else each of its rows as a `record` (title, figures)."""
    return Fit(table, Group(*(record(title, figures) for title, figures in records)))


def print_views(*views: RenderableType | str, stderr: bool = False) -> None:
    """Print each view; a string as it is (never markup), wrapped under its own indent."""
    console = make_console(stderr=stderr)
    for view in views:
        if isinstance(view, str):
            indent = len(view) - len(view.lstrip(" "))
            fits = console.soft_wrap or cell_len(view) <= console.width
            view = (
                Text(view)
                if fits or not indent
                else Padding(Text(view[indent:]), (0, 0, 0, indent), expand=False)
            )
        console.print(view)


def plain_text(view: RenderableType, width: int) -> str:
    """`view` drawn `width` columns wide as text for a file: no styles, no trailing blanks."""
    drawn = io.StringIO()
    Console(file=drawn, width=width, color_system=None, highlight=False).print(view)
    return "".join(line.rstrip() + "\n" for line in drawn.getvalue().splitlines())
