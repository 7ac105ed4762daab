"""Every summary format as the text of a file (`BUILDERS`); the plain text and the SVG are
drawn with Rich."""

from __future__ import annotations

import io
from html import escape

from rich.console import Console
from rich.measure import Measurement
from rich.terminal_theme import DEFAULT_TERMINAL_THEME

from hgin.cli.layout import UNLIMITED, plain_text
from hgin.cli.render import summary_view
from hgin.engine.match import Match
from hgin.reports.charts import summary_page
from hgin.reports.text_formats import summary_csv, summary_json, summary_markdown

# The SVG is drawn as wide as the summary's widest line (a hand's row on one line), within these
# columns: narrower prints larger, and wider than the last would print too small to read.
SVG_COLUMNS = (80, 120)
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


def summary_svg(match: Match) -> str:
    """The terminal summary, black on white, as an SVG the size of an A4 page."""
    view = summary_view(match, records=False)
    console = Console(
        file=io.StringIO(),
        record=True,
        width=UNLIMITED,
        highlight=False,
        color_system="truecolor",
        no_color=False,
        legacy_windows=False,
    )
    widest = Measurement.get(console, console.options, view).maximum
    console.width = min(max(widest, SVG_COLUMNS[0]), SVG_COLUMNS[1])
    console.print(view)
    first, second = match.players
    title = escape(f"Hollywood Gin: {first} v {second}").replace("{", "{{").replace("}", "}}")
    return console.export_svg(
        theme=DEFAULT_TERMINAL_THEME,
        code_format=SVG_PAGE.replace("@TITLE@", title),
        font_aspect_ratio=FONT_ASPECT,
        unique_id="hgin",
    )


BUILDERS = {
    "text": lambda match: plain_text(summary_view(match, records=False), 80),
    "markdown": summary_markdown,
    "html": summary_page,
    "svg": summary_svg,
    "csv": summary_csv,
    "json": summary_json,
}
