"""The statistics as a self-contained HTML page with an inline SVG chart (pure text)."""

from __future__ import annotations

from html import escape

from hgin.reports.charts import results_chart_svg
from hgin.reports.stats import (
    FIGURES,
    Pair,
    Stats,
    Tally,
    count_line,
    figure,
    money_line,
    win_series,
)

STYLE = """
body { font-family: Helvetica, Arial, sans-serif; color: #222; margin: 2em auto; max-width: 60em;
  padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #888; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #ccc; text-align: right; }
td, tbody th { white-space: nowrap; font-variant-numeric: tabular-nums; }
th:first-child, td:first-child { text-align: left; }
th { font-weight: bold; vertical-align: bottom; }
p.note { color: #444; font-size: 0.9em; }
figure { margin: 1em 0; }
svg { max-width: 100%; height: auto; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; }
  figure, table { break-inside: avoid; } }
"""
NOTES = (
    "Only finished matches count. Names equal apart from capitals are one person, shown as "
    "spelled in their latest match. Gins include big gins; knocks are knocks won; undercuts are "
    "undercuts scored. Points are a hand's own points, without game or box bonuses. The longest "
    "streak is the most hands won in a row within one match (dead hands do not break it)."
)


def _player_rows(players: dict[str, Tally]) -> str:
    rows = []
    for name, tally in players.items():
        cells = "".join(f"<td>{figure(getattr(tally, k))}</td>" for k, _ in FIGURES)
        rows.append(f"<tr><th scope='row'>{escape(name)}</th>{cells}</tr>")
    return "".join(rows)


def _pair_rows(pairs: list[Pair]) -> str:
    rows = []
    for pair in pairs:
        a, b = pair.players
        ta, tb = pair.tallies
        cells = [f"<th scope='row'>{escape(a)} v {escape(b)}</th>", f"<td>{pair.matches}</td>"]
        for k in ("match_wins", "games_won", "hands_won", "gins", "biggest_hand"):
            cells.append(f"<td>{getattr(ta, k)}–{getattr(tb, k)}</td>")
        cells.append(f"<td>{pair.level}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return "".join(rows)


def stats_html(stats: Stats) -> str:
    """A printable page: per-player table, head-to-head table and a chart of wins over time."""
    head = "".join(f"<th scope='col'>{label}</th>" for _, label in FIGURES)
    title = "Hollywood Gin: statistics"
    parts = [
        "<!DOCTYPE html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p class='note'>{escape(count_line(stats))}</p>",
    ]
    if not stats.records:
        parts.append("<p>No finished matches yet.</p>")
    parts.append("<h2>Players</h2>")
    parts.append(
        f"<table class='players'><thead><tr><th scope='col'>Player</th>{head}</tr></thead>"
        f"<tbody>{_player_rows(stats.players)}</tbody></table>"
    )
    money = money_line(stats)
    if money:
        parts.append(f"<p class='money'>{escape(money)}</p>")
    if stats.records:
        dates, series, left_out = win_series(stats)
        chart = results_chart_svg(series, dates, "Match wins over time")
        caption = (
            f"<figcaption>{len(series)} players shown: every match winner, then the most "
            f"active; {left_out} more in the tables.</figcaption>"
            if left_out
            else ""
        )
        parts.append(f"<h2>Results over time</h2><figure>{chart}{caption}</figure>")
    if stats.pairs:
        parts.append("<h2>Head to head</h2>")
        labels = ("Pair", "Matches", "Matches won", "Games won", "Hands won", "Gins")
        pair_head = "".join(f"<th scope='col'>{label}</th>" for label in labels)
        parts.append(
            f"<table class='pairs'><thead><tr>{pair_head}<th scope='col'>Biggest hand</th>"
            f"<th scope='col'>Level</th></tr></thead><tbody>{_pair_rows(stats.pairs)}</tbody>"
            "</table>"
        )
        parts.append("<p class='note'>Each figure reads first player–second player.</p>")
    parts.append(f"<p class='note'>{escape(NOTES)}</p></body></html>")
    return "\n".join(parts) + "\n"
