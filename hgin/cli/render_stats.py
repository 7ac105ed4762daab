"""Drawing the statistics: results and hands won per player, and head to head, as tables
where they fit and as records where they do not, laid out by hand (`hgin.cli.text_layout`)."""

from __future__ import annotations

from hgin.cli.console import make_console
from hgin.cli.text_layout import (
    BLANK,
    Line,
    plain_text,
    record,
    table,
    width_of,
    wrapped,
    write_lines,
)
from hgin.reports.stats import Pair, Stats, Tally
from hgin.reports.stats_html import count_line, figure, money_line

STATS_NOTE = (
    "Only finished matches count. Best: most points in one hand won. Streak: most hands won "
    "in a row within one match. Avg: points per hand won (gins include big gins)."
)
PAIRS_NOTE = "Head to head reads first player–second player."


def _results_figures(t: Tally) -> list[str]:
    return [
        f"matches {t.matches}",
        f"won {t.match_wins}",
        f"games {t.games_won}",
        f"hands {t.hands_won}",
    ]


def _hands_figures(t: Tally) -> list[str]:
    return [
        f"gins {figure(t.gins)}",
        f"knocks {figure(t.knocks)}",
        f"undercuts {figure(t.undercuts)}",
        f"best {figure(t.biggest_hand)}",
        f"streak {t.longest_streak}",
        f"avg {figure(t.average_points)}",
    ]


def _players_lines(stats: Stats, width: int, wrap: int | None) -> list[Line]:
    """Both tables where they fit; else the results table and the hands as records; else one
    record per person, so that a narrow terminal never cuts a name or a figure."""
    players = stats.players.items()
    results_width, results = table(
        ("Player", "Matches", "Won", "Games", "Hands"),
        [
            [name, *map(str, (t.matches, t.match_wins, t.games_won, t.hands_won))]
            for name, t in players
        ],
        bold_first=True,
    )
    hands_width, hands = table(
        ("Player", "Gins", "Knocks", "Undercuts", "Best", "Streak", "Avg"),
        [
            [
                name,
                *map(figure, (t.gins, t.knocks, t.undercuts, t.biggest_hand)),
                str(t.longest_streak),
                figure(t.average_points),
            ]
            for name, t in players
        ],
        bold_first=True,
    )
    money = money_line(stats)  # the net amounts won at the stakes, under the results
    after = wrapped(money, wrap) if money else []
    if max(results_width, hands_width, width_of(money)) <= width:
        return [*results, *after, BLANK, *hands]
    if results_width <= width:
        hands_records = [
            line for name, t in players for line in record(name, _hands_figures(t), width, wrap)
        ]
        return [*results, *after, BLANK, *hands_records]
    every_figure = [
        line
        for name, t in players
        for line in record(name, _results_figures(t) + _hands_figures(t), width, wrap)
    ]
    return [*every_figure, *after]


def _won(pair: Pair) -> str:
    a, b = pair.tallies
    won = f"{a.match_wins}–{b.match_wins}"
    return f"{won} ({pair.level} level)" if pair.level else won


def _pairs_lines(stats: Stats, width: int, wrap: int | None) -> list[Line]:
    """Head to head as a table where it fits, else one record per pair."""
    rows = []
    for pair in stats.pairs:
        a, b = pair.tallies
        rows.append(
            [
                f"{pair.players[0]} v {pair.players[1]}",
                str(pair.matches),
                _won(pair),
                f"{a.games_won}–{b.games_won}",
                f"{a.hands_won}–{b.hands_won}",
            ]
        )
    pairs_width, lines = table(("Head to head", "Matches", "Won", "Games", "Hands"), rows)
    if pairs_width <= width:
        return lines
    records = []
    for row in rows:
        figures = [f"matches {row[1]}", f"won {row[2]}", f"games {row[3]}", f"hands {row[4]}"]
        records.extend(record(row[0], figures, width, wrap))
    return records


def stats_lines(stats: Stats, width: int, wrap: int | None) -> list[Line]:
    """The statistics for people at `width` columns, sentences wrapped at `wrap` (None: not
    wrapped): results, hands won, and head to head."""
    if not stats.records:
        who = f"{next(iter(stats.players))} has" if stats.players else "There are"
        return wrapped(f"{who} no finished matches yet: statistics count only those.", wrap)
    lines = [*wrapped(count_line(stats), wrap, "bold"), BLANK, *_players_lines(stats, width, wrap)]
    if stats.pairs:
        lines.extend([BLANK, *_pairs_lines(stats, width, wrap), *wrapped(PAIRS_NOTE, wrap, "dim")])
    lines.extend(wrapped(STATS_NOTE, wrap, "dim"))
    return lines


def print_stats(stats: Stats) -> None:
    console = make_console()
    wrap = None if console.soft_wrap else console.width
    write_lines(console, stats_lines(stats, console.width, wrap))


def stats_text(stats: Stats, width: int = 80) -> str:
    """The same statistics as plain text for a file."""
    return plain_text(stats_lines(stats, width, width))
