"""Two small Rich layout helpers that keep output readable in a narrow terminal.

Imported only by drawing code (`hgin.cli.render`), so Rich is loaded only when drawing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.text import Text

# Wider than any terminal: measuring at this width gives a renderable's natural width.
UNLIMITED = 10_000


class Fit:
    """The first choice whose natural width fits the space; the last choice otherwise.

    `judged_by` names, for a choice that mixes a table with text that wraps anyway, the part
    whose width decides (the table); by default each choice is judged whole.
    """

    def __init__(
        self, *choices: RenderableType, judged_by: Sequence[RenderableType | None] = ()
    ) -> None:
        if not choices:
            raise ValueError("Fit needs at least one choice")
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
    """Pieces of text joined by a separator, with line breaks only between pieces.

    'Ann v Bob · classic rules · match 2025-06-01-ann-bob' never splits 'match' from its
    identifier; a piece longer than a whole line still wraps on its own.
    """

    def __init__(self, pieces: Iterable[Text], separator: Text | None = None) -> None:
        self.pieces: Sequence[Text] = [p for p in pieces if p.plain]
        self.separator = separator if separator is not None else Text(" · ")

    def lines(self, width: int) -> list[Text]:
        lines: list[Text] = []
        for piece in self.pieces:
            if lines and lines[-1].cell_len + self.separator.cell_len + piece.cell_len <= width:
                lines[-1].append_text(self.separator)
                lines[-1].append_text(piece)
            else:
                lines.append(piece.copy())
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((p.cell_len for p in self.pieces), default=0)
        whole = sum(p.cell_len for p in self.pieces)
        whole += self.separator.cell_len * max(len(self.pieces) - 1, 0)
        return Measurement(longest, whole).with_maximum(options.max_width)


def record(title: str, figures: Iterable[str]) -> Group:
    """One row of a table stacked as a record, for a terminal too narrow for the table: the
    title on a line of its own, then the figures indented, broken only between figures."""
    pieces = Pieces((Text(f) for f in figures), Text(" · ", style="dim"))
    return Group(Text(title, style="bold"), Padding(pieces, (0, 0, 0, 2)))
