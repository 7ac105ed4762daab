"""Every summary format in one place; the terminal text and the SVG are drawn with Rich.

`build_summary(match, "svg")` returns the file's text; the `summary` command only chooses
where it goes. Rich is imported inside the functions that draw, so importing this is cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, get_args

from hgin.errors import HginError

if TYPE_CHECKING:
    from rich.console import Console

    from hgin.engine.match import Match

SummaryFormat = Literal["text", "markdown", "html", "svg", "csv", "json"]
FORMATS: tuple[str, ...] = get_args(SummaryFormat)
TEXT_WIDTH = 80
# The SVG is drawn at the first of these widths that prints largest on the page: a long
# match with long names wraps less when wider, and then shrinks less to fit the height.
SVG_WIDTHS = (80, 100, 120)
PAGE_AREA_MM = (182, 269)
CHAR_HEIGHT = 20  # Rich's SVG units per line of text, before its 1.22 line spacing
# DejaVu Sans Mono, Menlo and Consolas are all close to 0.6 em wide per character.
FONT_ASPECT = 0.6

# An A4 page (in millimetres) holding the recorded console, scaled to fit inside 14 mm
# margins: a short match fills the width, a long one is shrunk to the page height.
# Rich fills the {placeholders}; @TITLE@ is replaced (escaped) before that.
SVG_PAGE = """\
<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" viewBox="0 0 210 297">
<title>@TITLE@</title>
<style>
@page {{ size: A4; margin: 0; }}
.{unique_id}-matrix {{
    font-family: "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", "Courier New", monospace;
    font-size: {char_height}px;
}}
{styles}
</style>
<rect width="210" height="297" fill="#ffffff"/>
<svg x="14" y="14" width="182" height="269" viewBox="0 0 {terminal_width} {terminal_height}" \
preserveAspectRatio="xMidYMin meet">
<defs>
{lines}
</defs>
{backgrounds}
<g class="{unique_id}-matrix">
{matrix}
</g>
</svg>
</svg>
"""


def _recording(width: int) -> Console:
    """A console that draws into memory and keeps what it drew, at a fixed width."""
    import io

    from rich.console import Console

    return Console(
        file=io.StringIO(),
        record=True,
        width=width,
        highlight=False,
        emoji=False,
        color_system="truecolor",
        no_color=False,
        legacy_windows=False,
    )


def summary_text(match: Match, width: int = TEXT_WIDTH) -> str:
    """The terminal summary as plain text (no colour codes, no trailing spaces)."""
    from hgin.cli.render import summary_view

    console = _recording(width)
    console.print(summary_view(match, records=False))
    lines = console.export_text(styles=False).splitlines()
    return "\n".join(line.rstrip() for line in lines) + "\n"


def page_scale(width: int, lines: int) -> float:
    """Millimetres per SVG unit when `lines` lines of `width` characters fill the page."""
    across = width * CHAR_HEIGHT * FONT_ASPECT
    down = (lines + 1) * CHAR_HEIGHT * 1.22
    return min(PAGE_AREA_MM[0] / across, PAGE_AREA_MM[1] / down)


def summary_svg(match: Match, widths: tuple[int, ...] = SVG_WIDTHS) -> str:
    """The terminal summary, black on white, as an SVG the size of an A4 page."""
    from html import escape

    from rich.terminal_theme import DEFAULT_TERMINAL_THEME

    from hgin.cli.render import summary_view

    best: tuple[float, Console] | None = None
    for width in widths:
        drawn = _recording(width)
        drawn.print(summary_view(match, records=False))
        scale = page_scale(width, len(drawn.export_text(clear=False).splitlines()))
        if best is None or scale > best[0]:
            best = (scale, drawn)
    if best is None:
        raise ValueError("summary_svg needs at least one width")
    console = best[1]
    first, second = match.players
    title = escape(f"Hollywood Gin: {first} v {second}").replace("{", "{{").replace("}", "}}")
    return console.export_svg(
        theme=DEFAULT_TERMINAL_THEME,
        code_format=SVG_PAGE.replace("@TITLE@", title),
        font_aspect_ratio=FONT_ASPECT,
        unique_id="hgin",
    )


def summary_page(match: Match) -> str:
    """The HTML page, with the chart of the scores hand by hand as its figure."""
    from hgin.reports.charts import chart_sections
    from hgin.reports.html import summary_html

    return summary_html(match, chart_sections(match))


def _markdown(match: Match) -> str:
    from hgin.reports.text_formats import summary_markdown

    return summary_markdown(match)


def _csv(match: Match) -> str:
    from hgin.reports.text_formats import summary_csv

    return summary_csv(match)


def _json(match: Match) -> str:
    from hgin.reports.text_formats import summary_json

    return summary_json(match)


# Each builder imports what it needs when called: `hgin` starts without loading them.
BUILDERS: dict[str, Callable[[Match], str]] = {
    "text": summary_text,
    "markdown": _markdown,
    "html": summary_page,
    "svg": summary_svg,
    "csv": _csv,
    "json": _json,
}


def build_summary(match: Match, form: str) -> str:
    """The summary of `match` in format `form` (one of FORMATS), as the text of a file."""
    try:
        builder = BUILDERS[form]
    except KeyError:
        raise HginError(f"no summary format '{form}' (choose from {', '.join(FORMATS)})") from None
    return builder(match)
