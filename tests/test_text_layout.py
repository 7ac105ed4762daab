"""What is laid out by hand gives the characters Rich's own tables and records give.

The statistics and the sheet are laid out by hand (`hgin.cli.text_layout`) because Rich took
much of a command's time. The references are Rich: below, the statistics drawn the way hgin
drew them with Rich tables; for the sheet, `hgin.cli.render.sheet_view`, which still draws
the layouts for narrow terminals. Any statistics or match, any width: the same text.
"""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from hgin.cli.layout import Fit
from hgin.cli.layout import record as rich_record
from hgin.cli.render import sheet_lines, sheet_view
from hgin.cli.render_stats import (
    PAIRS_NOTE,
    STATS_NOTE,
    _hands_figures,
    _results_figures,
    stats_lines,
)
from hgin.cli.text_layout import plain_text
from hgin.engine.hands import Hand
from hgin.engine.match import Match, start_match
from hgin.engine.names import fold
from hgin.engine.rules import PROFILES, with_options
from hgin.engine.sheet import empty_sheet, extend
from hgin.reports.stats import MatchRecord, PlayerLine, Stats, compute_stats
from hgin.reports.stats_html import count_line, figure, money_line

# -- the reference, drawn by Rich ------------------------------------------------------------


def rich_table(header: list[str], rows: list[list[str]], bold_first: bool) -> Table:
    drawn = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    drawn.add_column(header[0])
    for label in header[1:]:
        drawn.add_column(label, justify="right")
    for row in rows:
        drawn.add_row(Text(row[0], style="bold" if bold_first else ""), *map(Text, row[1:]))
    return drawn


def rich_view(stats: Stats) -> RenderableType:
    if not stats.records:
        who = f"{next(iter(stats.players))} has" if stats.players else "There are"
        return Text(f"{who} no finished matches yet: statistics count only those.")
    players = stats.players.items()
    results = rich_table(
        ["Player", "Matches", "Won", "Games", "Hands"],
        [[n, *map(str, (t.matches, t.match_wins, t.games_won, t.hands_won))] for n, t in players],
        True,
    )
    hands = rich_table(
        ["Player", "Gins", "Knocks", "Undercuts", "Best", "Streak", "Avg"],
        [
            [
                n,
                *map(figure, (t.gins, t.knocks, t.undercuts, t.biggest_hand)),
                str(t.longest_streak),
                figure(t.average_points),
            ]
            for n, t in players
        ],
        True,
    )
    money = money_line(stats)
    after = [Text(money)] if money else []
    hands_records = Group(*(rich_record(n, _hands_figures(t)) for n, t in players))
    every = Group(*(rich_record(n, _results_figures(t) + _hands_figures(t)) for n, t in players))
    parts: list[RenderableType] = [
        Text(count_line(stats), style="bold"),
        Text(""),
        Fit(
            Group(results, *after, Text(""), hands),
            Group(results, *after, Text(""), hands_records),
            Group(every, *after),
            judged_by=[None, results],
        ),
    ]
    if stats.pairs:
        rows = []
        for pair in stats.pairs:
            a, b = pair.tallies
            won = f"{a.match_wins}–{b.match_wins}"
            won += f" ({pair.level} level)" if pair.level else ""
            rows.append(
                [
                    f"{pair.players[0]} v {pair.players[1]}",
                    str(pair.matches),
                    won,
                    f"{a.games_won}–{b.games_won}",
                    f"{a.hands_won}–{b.hands_won}",
                ]
            )
        pairs_table = rich_table(["Head to head", "Matches", "Won", "Games", "Hands"], rows, False)
        pairs_records = Group(
            *(
                rich_record(
                    row[0],
                    [f"matches {row[1]}", f"won {row[2]}", f"games {row[3]}", f"hands {row[4]}"],
                )
                for row in rows
            )
        )
        parts += [Text(""), Fit(pairs_table, pairs_records), Text(PAIRS_NOTE, style="dim")]
    parts.append(Text(STATS_NOTE, style="dim"))
    return Group(*parts)


def drawn_by_rich(view: RenderableType, width: int, soft_wrap: bool) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, highlight=False, emoji=False)
    console.soft_wrap = soft_wrap
    console.print(view)
    # Rich leaves a space at the end of some wrapped lines; hgin never writes trailing blanks.
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())


# -- any statistics --------------------------------------------------------------------------

NAME_CHARS = st.sampled_from("AaBbZzoë Łł界李-'.") | st.characters(
    codec="utf-8", categories=["Lu", "Ll"]
)
NAMES = st.text(NAME_CHARS, min_size=1, max_size=40).map(str.strip).filter(bool)


@st.composite
def records(draw: st.DrawFn) -> list[MatchRecord]:
    people = draw(st.lists(NAMES, min_size=2, max_size=5, unique_by=str.casefold))
    found = []
    for number in range(draw(st.integers(0, 8))):
        first, second = draw(st.permutations(people))[:2]
        figures = st.lists(st.integers(0, 999), min_size=8, max_size=8)
        settled = draw(st.integers(-9999, 9999))
        lines = (
            PlayerLine(first, *draw(figures), settled),
            PlayerLine(second, *draw(figures), -settled),
        )
        winner = draw(st.sampled_from([first, second, None]))
        stake = draw(st.sampled_from([None, "0.05", "1"]))
        created = f"2025-01-{number + 1:02d}T20:00:00+00:00"
        found.append(MatchRecord(f"m{number}", created, draw(st.booleans()), winner, lines, stake))
    return found


@settings(max_examples=150, deadline=None)
@given(
    matches=records(),
    width=st.integers(10, 130),
    soft_wrap=st.booleans(),
    pick=st.integers(0, 5),
)
def test_the_statistics_read_as_rich_drew_them(
    matches: list[MatchRecord], width: int, soft_wrap: bool, pick: int
) -> None:
    if soft_wrap:  # sentences unbroken: only when piped with no COLUMNS, so at 80 columns
        width = 80
    names = [line.name for record in matches for line in record.lines]
    player = names[pick] if pick < len(names) and pick % 2 else None
    stats = compute_stats(matches, player)
    by_hand = plain_text(stats_lines(stats, width, None if soft_wrap else width))
    assert by_hand == drawn_by_rich(rich_view(stats), width, soft_wrap)


# -- the sheet -------------------------------------------------------------------------------

SHEET_NAMES = st.text(NAME_CHARS, min_size=1, max_size=22).map(str.strip).filter(bool)


def random_hand(draw: st.DrawFn, players: tuple[str, str]) -> Hand:
    kind = draw(st.sampled_from(["gin", "knock", "knock", "draw"]))
    player = draw(st.sampled_from(players))
    if kind == "draw":
        return Hand("draw")
    if kind == "gin":
        return Hand("gin", player=player, opponent_deadwood=draw(st.integers(0, 60)))
    knock = draw(st.integers(1, 10))
    return Hand("knock", player=player, deadwood=knock, opponent_deadwood=draw(st.integers(0, 60)))


@st.composite
def matches(draw: st.DrawFn) -> Match:
    players = tuple(draw(st.lists(SHEET_NAMES, min_size=2, max_size=2, unique_by=fold)))
    assert len(players) == 2
    base = PROFILES[draw(st.sampled_from(sorted(PROFILES)))]
    options: dict[str, object] = {"target": draw(st.sampled_from([25, 60, 100, 250]))}
    if draw(st.booleans()):
        options["rolling"] = True
    else:
        options["games"] = draw(st.sampled_from([1, 3, 5]))
    rules = with_options(base, options)
    sheet = empty_sheet(players, rules, players[0])
    hands: list[Hand] = []
    for _ in range(draw(st.integers(0, 14))):
        if sheet.finished:
            break
        hand = random_hand(draw, players)
        sheet = extend(sheet, [hand])
        hands.append(hand)
    return start_match(
        "2025-01-01-a-b", players, rules, players[0], "2025-01-01T20:00:00+00:00", tuple(hands)
    )


@settings(max_examples=200, deadline=None)
@given(match=matches(), width=st.integers(20, 140), soft_wrap=st.booleans())
def test_the_sheet_laid_out_by_hand_reads_as_rich_draws_it(
    match: Match, width: int, soft_wrap: bool
) -> None:
    if soft_wrap:
        width = 80
    by_hand = sheet_lines(match, width, None if soft_wrap else width)
    if by_hand is not None:  # else Rich draws it (a long name, or a narrow terminal)
        assert plain_text(by_hand) == drawn_by_rich(sheet_view(match), width, soft_wrap)


def test_the_sheet_is_laid_out_by_hand_at_the_table() -> None:
    # The common case takes the quick path: a reference that is never compared tests nothing.
    match = start_match(
        "2025-01-01-ann-bob",
        ("Ann", "Bob"),
        PROFILES["classic"],
        "Ann",
        "2025-01-01T20:00:00+00:00",
        (Hand("gin", player="Ann", opponent_deadwood=40), Hand("draw")),
    )
    for width in (60, 80, 120):
        assert sheet_lines(match, width, width) is not None
    assert sheet_lines(match, 30, 30) is None  # the narrow layouts stay Rich's
