"""The match summary as one self-contained HTML page that prints on an A4 sheet: overview, games,
any figures (charts), then the hands; every piece of user text goes through `html.escape`."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from hgin.engine.match import Match
from hgin.engine.sheet import game_name
from hgin.reports.settlement import settlement_lines
from hgin.reports.summary import (
    game_score,
    hands_table,
    hands_won_line,
    has_upcards,
    result_sentence,
    rules_label,
    summary_settlement,
)
from hgin.reports.times import shown_time

# Above this many hands the hands table and any chart are set smaller, to keep to one A4 sheet
# (a classic match with a stake prints on one sheet up to ONE_SHEET hands).
LONG_MATCH = 10
ONE_SHEET = 16

STYLE = """
@page { size: A4; margin: 14mm; }
html { color: #000; background: #fff; }
body {
  font-family: "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif;
  font-size: 10.5pt; line-height: 1.3; max-width: 182mm; margin: 0 auto; padding: 10mm 0;
}
@media print {
  body { padding: 0; max-width: none; }
  figure svg { max-height: 100mm; width: auto; }
  body.long figure svg { max-height: 90mm; }
}
h1 { font-size: 17pt; margin: 0 0 3pt; }
h2 { font-size: 12pt; margin: 0 0 3pt; border-bottom: 1pt solid #000; padding-bottom: 1pt; }
p { margin: 3pt 0; }
.result { font-size: 12.5pt; font-weight: bold; }
.meta { color: #333; }
section { margin-top: 12pt; break-inside: avoid; }
section.hands { break-inside: auto; }
table { border-collapse: collapse; width: 100%; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { text-align: left; vertical-align: top; padding: 2pt 6pt 2pt 0; }
th { border-bottom: 0.75pt solid #000; font-weight: bold; }
td { border-bottom: 0.5pt solid #bbb; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.total td { font-weight: bold; border-top: 0.75pt solid #000; border-bottom: none; }
.open { color: #555; font-style: italic; }
figure { margin: 0; }
figure svg { max-width: 100%; height: auto; }
body.long section.hands { font-size: 8.5pt; }
body.long section.hands td, body.long section.hands th { padding-top: 0; padding-bottom: 0; }
"""


def section(key: str, heading: str, body: str) -> str:
    """One part of the page: `key` names it (id and CSS class), `body` is ready HTML."""
    heading = f"<h2>{escape(heading)}</h2>\n" if heading else ""
    return f'<section id="{key}" class="{key}">\n{heading}{body}\n</section>'


def _cells(tag: str, values: Sequence[str], numeric: Sequence[bool]) -> str:
    parts = []
    for value, num in zip(values, numeric, strict=True):
        scope = ' scope="col"' if tag == "th" else ""
        css = ' class="num"' if num else ""
        parts.append(f"<{tag}{scope}{css}>{value}</{tag}>")
    return "".join(parts)


def _table(
    header: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool], last: str = ""
) -> str:
    """A table from cells that are already HTML; `last` is an extra final row, as HTML."""
    head = f"<thead><tr>{_cells('th', header, numeric)}</tr></thead>"
    lines = [f"<tr>{_cells('td', row, numeric)}</tr>" for row in rows]
    if last:
        lines.append(last)
    body = "\n".join(lines)
    return f"<table>\n{head}\n<tbody>\n{body}\n</tbody>\n</table>"


def overview_section(match: Match) -> str:
    """Title, result sentence, rules, first dealer and when the match started."""
    first, second = (escape(p) for p in match.players)
    meta = (
        f"{escape(rules_label(match.rules))} · first dealer {escape(match.first_dealer)}<br>"
        f"Match {escape(match.id)}, started {escape(shown_time(match.created))}"
    )
    body = (
        f"<h1>Hollywood Gin: {first} v {second}</h1>\n"
        f'<p class="result">{escape(result_sentence(match))}</p>\n'
        f'<p class="meta">{meta}</p>'
    )
    return section("overview", "", body)


def games_section(match: Match) -> str:
    """Per game: the winner and each player's points (+ bonuses), then the sheet totals."""
    sheet = match.sheet
    header = ["Game", "Winner", *(escape(p) for p in sheet.players)]
    numeric = [False, False, *(True for _ in sheet.players)]
    rows = []
    for game in sheet.games:
        winner = escape(game.winner) if game.winner else '<span class="open">open</span>'
        scores = [escape(game_score(game, p)) for p in sheet.players]
        rows.append([game_name(game.number), winner, *scores])
    total_row = ""
    if sheet.rules.shows_totals:
        totals = "".join(f'<td class="num">{sheet.totals[p]}</td>' for p in sheet.players)
        total_row = f'<tr class="total"><td>Total</td><td></td>{totals}</tr>'
    body = f"{_table(header, rows, numeric, total_row)}\n<p>{escape(hands_won_line(sheet))}</p>"
    return section("games", "Games", body)


def settlement_sections(match: Match) -> list[str]:
    """Who pays whom, game by game, when the match has a stake (else nothing)."""
    settlement = summary_settlement(match)
    if settlement is None:
        return []
    body = "\n".join(f"<p>{escape(line)}</p>" for line in settlement_lines(settlement))
    return [section("settlement", "Settling up", body)]


def hands_section(match: Match) -> str:
    """Every hand: number, dealer, result, the arithmetic, and the games it went into."""
    sheet = match.sheet
    if not sheet.hands:
        return section("hands", "Hands", "<p>No hands yet.</p>")
    header, rows = hands_table(sheet)
    upcard = [False] if has_upcards(sheet) else []
    numeric = [True, False, *upcard, False, True, False, False]
    header, rows = [escape(h) for h in header], [[escape(c) for c in row] for row in rows]
    body = _table(header, rows, numeric)
    if len(rows) > ONE_SHEET:
        body = (
            f'<p class="meta">{len(rows)} hands: printed, the list runs on to further sheets, '
            "its heading repeated on each.</p>\n" + body
        )
    return section("hands", "Hands", body)


def summary_html(match: Match, figures: Sequence[str] = ()) -> str:
    """The printable summary page, `figures` (charts) between the games and the hands."""
    first, second = match.players
    css = ' class="long"' if len(match.hands) > LONG_MATCH else ""
    sections = [
        overview_section(match),
        games_section(match),
        *settlement_sections(match),
        *figures,
        hands_section(match),
    ]
    content = "\n".join(sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(f'Hollywood Gin: {first} v {second}')}</title>\n"
        f"<style>{STYLE}</style>\n</head>\n"
        f"<body{css}>\n<main>\n{content}\n</main>\n</body>\n</html>\n"
    )
