"""Inline SVG charts: scores hand by hand in each game, and results over time; series differ by
dash pattern and marker shape as well as by colour, to read the same in black and white."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from hgin.engine.sheet import Sheet, game_name
from hgin.reports.html import section, summary_html
from hgin.reports.summary import points_after_each_hand

if TYPE_CHECKING:
    from hgin.engine.match import Match

WIDTH = 640
PANELS = 3  # game panels a row in the scores chart
FONT = "font-family='Helvetica, Arial, sans-serif'"
INK = "#222222"
GRID = "#c8c8c8"


# Six colours, each with its dash pattern, and nine markers (a cross has no inside to fill).
LINES = (
    ("#1f4e9c", ""), ("#b3440b", "7 4"), ("#2e7d32", "2 3"), ("#6a1b9a", "10 3 2 3"),
    ("#555555", "4 2"), ("#8d6e00", "1 5"),
)  # fmt: skip
MARKERS = (
    ("circle", True), ("square", False), ("triangle", True), ("diamond", False), ("cross", True),
    ("circle", False), ("square", True), ("triangle", False), ("diamond", True),
)  # fmt: skip


def _pen(index: int) -> str:
    """The stroke of the `index`-th series' line."""
    colour, dash = LINES[index % len(LINES)]
    return f"stroke='{colour}' stroke-width='2'" + (f" stroke-dasharray='{dash}'" if dash else "")


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its name and its (x, y) points in data units."""

    name: str
    points: tuple[tuple[float, float], ...]
    marked: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Frame:
    """Where a plot sits and how data units map into it."""

    left: float
    top: float
    width: float
    height: float
    x_max: float
    y_max: float

    def x(self, value: float) -> float:
        return round(self.left + self.width * value / (self.x_max or 1), 1)

    def y(self, value: float) -> float:
        return round(self.top + self.height * (1 - value / (self.y_max or 1)), 1)


def nice_scale(peak: float) -> tuple[int, int]:
    """A round grid step giving about five lines up to `peak`, and the first line above it."""
    raw = max(peak / 5, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):  # 10 always serves: raw is under 10 × power
        if factor * power >= raw and float(factor * power).is_integer():
            break
    step = int(factor * power)
    return step, math.ceil(peak / step) * step


def _text(x: float, y: float, content: str, anchor: str = "start", size: int = 11) -> str:
    return (
        f"<text x='{x}' y='{y}' font-size='{size}' text-anchor='{anchor}' fill='{INK}'>"
        f"{escape(content)}</text>"
    )


def marker(index: int, x: float, y: float) -> str:
    """The `index`-th series' marker at (x, y), one further on each time the lines come round,
    so no two of the first 54 series look alike."""
    colour = LINES[index % len(LINES)][0]
    shape, filled = MARKERS[(index + index // len(LINES)) % len(MARKERS)]
    common = f"fill='{colour if filled else 'white'}' stroke='{colour}' stroke-width='1.5'"
    s = 3.5  # the half width
    if shape == "circle":
        return f"<circle cx='{x}' cy='{y}' r='{s}' {common}/>"
    if shape == "square":
        return f"<rect x='{x - s}' y='{y - s}' width='{2 * s}' height='{2 * s}' {common}/>"
    if shape == "triangle":
        pts = f"{x},{y - s - 1} {x - s - 1},{y + s} {x + s + 1},{y + s}"
        return f"<polygon points='{pts}' {common}/>"
    if shape == "diamond":
        pts = f"{x},{y - s - 1} {x + s + 1},{y} {x},{y + s + 1} {x - s - 1},{y}"
        return f"<polygon points='{pts}' {common}/>"
    return (
        f"<path d='M{x - s},{y - s}L{x + s},{y + s}M{x - s},{y + s}L{x + s},{y - s}' "
        f"stroke='{colour}' stroke-width='2'/>"
    )


def _line(frame: Frame, series: Series, index: int) -> list[str]:
    coords = " ".join(f"{frame.x(x)},{frame.y(y)}" for x, y in series.points)
    parts = [f"<polyline points='{coords}' fill='none' {_pen(index)} stroke-linejoin='round'/>"]
    for at in series.marked:
        x, y = series.points[at]
        parts.append(marker(index, frame.x(x), frame.y(y)))
    return parts


def _across(frame: Frame, y: float, stroke: str) -> str:
    """A line across the plot at height `y`."""
    return f"<line x1='{frame.left}' y1='{y}' x2='{frame.left + frame.width}' y2='{y}' {stroke}/>"


def _axes(frame: Frame, x_labels: dict[float, str], y_step: int) -> list[str]:
    parts = []
    value = 0
    while value <= frame.y_max:
        y = frame.y(value)
        parts.append(_across(frame, y, f"stroke='{GRID}' stroke-width='0.8'"))
        parts.append(_text(frame.left - 6, y + 4, str(value), "end", 10))
        value += y_step
    bottom = frame.top + frame.height
    parts.append(_across(frame, bottom, f"stroke='{INK}' stroke-width='1'"))
    for x_value, label in x_labels.items():
        x = frame.x(x_value)
        parts.append(f"<line x1='{x}' y1='{bottom}' x2='{x}' y2='{bottom + 4}' stroke='{INK}'/>")
        parts.append(_text(x, bottom + 15, label, "middle", 10))
    return parts


def text_width(text: str) -> int:
    """About how wide `text` is drawn at font size 11 (twice for a wide character, as 李)."""
    return 7 * sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _legend(names: Sequence[str], left: float, y: float) -> tuple[list[str], float]:
    """A sample of each line beside its name, in as many rows as needed; the last row's y."""
    parts = []
    x = left
    for index, name in enumerate(names):
        width = 46 + text_width(name)
        if x > left and x + width > WIDTH:
            x, y = left, y + 18
        parts.append(f"<line x1='{x}' y1='{y}' x2='{x + 30}' y2='{y}' {_pen(index)}/>")
        parts.append(marker(index, x + 15, y))
        parts.append(_text(x + 36, y + 4, name))
        x += width
    return parts, y


def _svg(height: float, title: str, desc: str, body: list[str]) -> str:
    head = (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' "
        f"viewBox='0 0 {WIDTH} {height}' role='img' aria-label='{escape(title)}' {FONT}>"
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>"
        f"<rect width='{WIDTH}' height='{height}' fill='white'/>"
    )
    return head + "".join(body) + "</svg>"


def game_series(sheet: Sheet) -> list[list[Series]]:
    """Per game, each player's score after every hand up to the hand that closed it."""
    after = points_after_each_hand(sheet)
    result = []
    for game in sheet.games:
        end = game.closed_by or len(sheet.hands)
        lines = []
        for player in sheet.players:
            points, marked = [(0.0, 0.0)], [0]
            for played, columns in zip(sheet.hands[:end], after, strict=False):
                if played.award.winner == player and game.number in played.games:
                    marked.append(len(points))
                score = columns.get(game.number, {}).get(player, 0)
                points.append((float(played.number), float(score)))
            lines.append(Series(player, tuple(points), tuple(marked)))
        result.append(lines)
    return result


def _end_labels(frame: Frame, lines: list[Series], closer: str | None) -> list[str]:
    """Each line's last score just above its end, nudged apart when the two would touch."""
    ends = [(frame.x(s.points[-1][0]) + 6, frame.y(s.points[-1][1]) - 5, s) for s in lines]
    if len(ends) == 2 and abs(ends[0][1] - ends[1][1]) < 12:
        high = 0 if lines[0].points[-1][1] >= lines[1].points[-1][1] else 1
        x, _, series = ends[high]
        ends[high] = (x, ends[1 - high][1] - 12, series)
    return [
        _text(x, y, str(int(series.points[-1][1])), size=10)
        for x, y, series in ends
        if series.name != closer
    ]


def match_chart_svg(sheet: Sheet) -> str:
    """Both players' points in each game, hand by hand, one panel per game."""
    hands = max(1, len(sheet.hands))
    target = sheet.rules.target
    peak = max([target, *(g.scores[p] for g in sheet.games for p in sheet.players)])
    y_step, y_max = nice_scale(peak)
    # The panels stand side by side, PANELS a row (a classic match's three games in one), so
    # that the printed summary keeps to one A4 sheet with its charts still readable.
    columns = min(PANELS, len(sheet.games))
    panel, panel_width = 165, (WIDTH - 8) / columns
    body, legend_end = _legend(sheet.players, 54, 16)
    first_top = legend_end + 18
    every = max(1, math.ceil(hands * columns / 16))
    hand_ticks = {float(n): str(n) for n in range(0, hands + 1, every)}
    desc = []
    for index, (game, lines) in enumerate(zip(sheet.games, game_series(sheet), strict=True)):
        row, column = divmod(index, columns)
        top, left = first_top + row * panel, 8 + column * panel_width
        frame = Frame(left + 34, top + 22, panel_width - 34 - 24, panel - 60, hands, y_max)
        state = f"won by {game.winner} at hand {game.closed_by}" if game.winner else "still open"
        body.append(_text(left, top + 12, f"Game {game_name(game.number)}: {state}", size=10))
        body.extend(_axes(frame, hand_ticks, y_step))
        target_y = frame.y(target)
        body.append(
            _across(frame, target_y, f"stroke='{INK}' stroke-width='1' stroke-dasharray='1 3'")
        )
        # Labels go above their point, or below it at the top of the plot, clear of the title.
        label_y = target_y - 4 if target_y - frame.top >= 6 else target_y + 12
        body.append(_text(frame.left + 4, label_y, f"target {target}", size=10))
        for index, series in enumerate(lines):
            body.extend(_line(frame, series, index))
        body.extend(_end_labels(frame, lines, game.winner if game.closed else None))
        if game.winner is not None and game.closed_by is not None:
            score = game.scores[game.winner]
            cx, cy = frame.x(game.closed_by), frame.y(score)
            body.append(
                f"<circle cx='{cx}' cy='{cy}' r='8' fill='none' stroke='{INK}' "
                f"stroke-width='1.5' class='closing'/>"
            )
            label_y = cy - 10 if cy - frame.top >= 12 else cy + 18
            body.append(_text(cx - 10, label_y, f"closes at {score}", "end", 10))
        scores = ", ".join(f"{p} {game.scores[p]}" for p in sheet.players)
        desc.append(f"Game {game_name(game.number)} ({state}): {scores}.")
        body.append(_text(frame.left + frame.width / 2, top + panel - 8, "hand", "middle", 10))
    title = f"Scores hand by hand: {sheet.players[0]} v {sheet.players[1]}"
    rows = math.ceil(len(sheet.games) / columns)
    return _svg(first_top + rows * panel + 6, title, " ".join(desc), body)


def results_chart_svg(
    series: Sequence[tuple[str, Sequence[int]]], dates: Sequence[str], title: str
) -> str:
    """Cumulative match wins of each person over the finished matches in time order."""
    count = len(dates)
    peak = max([1, *(values[-1] for _, values in series if values)])
    y_step, y_max = nice_scale(peak)
    legend, legend_end = _legend([name for name, _ in series], 54, 36)
    # The end labels' room on the right, and a line of the plot's height for each.
    finals = [values[-1] if values else 0 for _, values in series]
    labels = [f"{name} {final}" for (name, _), final in zip(series, finals, strict=True)]
    room = max(96, 26 + max(map(text_width, labels), default=0))
    height = max(260, 13 * len(series))
    frame = Frame(54, legend_end + 20, max(WIDTH - 54 - room, 240), height, max(count, 1), y_max)
    body = [_text(frame.left, 18, title, size=13), *legend]
    every = max(1, math.ceil(count / 8))
    ticks = {float(n): str(n) for n in [*range(1, count + 1, every), count] if n}
    body.extend(_axes(frame, ticks, y_step))
    stride = max(1, math.ceil(count / 20))
    for index, (name, values) in enumerate(series):
        points = ((0.0, 0.0), *((float(n), float(v)) for n, v in enumerate(values, 1)))
        marked = tuple(sorted({*range(stride, len(points), stride), len(points) - 1}))
        body.extend(_line(frame, Series(name, points, marked), index))
    # End labels in the order of the line ends, 13 apart so that none overlaps, and none below
    # the plot; each carries its series' marker, which ties it to its line without colour.
    bottom = frame.top + frame.height
    order = sorted(range(len(series)), key=lambda index: -finals[index])
    ys = [frame.y(finals[index]) for index in order]
    for n in range(1, len(ys)):
        ys[n] = max(ys[n], ys[n - 1] + 13)
    for n in range(len(ys)):
        ys[n] = min(ys[n], bottom - 13 * (len(ys) - 1 - n))
    for y, index in zip(ys, order, strict=True):
        x = frame.x(count) + 12
        body.append(marker(index, x, y))
        body.append(_text(x + 8, y + 4, labels[index]))
    if dates:
        span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
        caption = f"finished matches in the order they started ({span})"
        body.append(_text(frame.left + frame.width / 2, bottom + 32, caption, "middle", 10))
    body.append(_text(14, frame.top - 8, "wins", size=10))
    return _svg(bottom + 44, title, "Match wins so far: " + ", ".join(labels) + ".", body)


def summary_page(match: Match) -> str:
    """The printable HTML summary with the scores chart, once a hand is recorded."""
    if not match.hands:
        return summary_html(match)
    svg = match_chart_svg(match.sheet)
    caption = (
        "<figcaption>Points in each game after every hand (bonuses not included); "
        "a ring marks the hand that closed a game.</figcaption>"
    )
    return summary_html(
        match, [section("chart", "Scores hand by hand", f"<figure>{svg}{caption}</figure>")]
    )
