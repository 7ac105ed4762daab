"""`hgin summary --format text|markdown|csv|json`: each read back, with exact numbers.

The pages to print (html, svg) and the output file are tested in test_summary_pages.py.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Run
from tests.summary_data import (
    CLASSIC_HANDS,
    CSV_HEADER,
    CSV_TEXT,
    FIXED_TIME,
    MORE_HANDS,
    SEED_HANDS,
    TEXT,
    pin_clock,
    play,
    read_csv,
    read_page,
    summary,
)


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_clock(monkeypatch)


def test_text_is_the_terminal_summary(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # the width of the text file
    play(run, hands=MORE_HANDS)
    printed = summary(run)
    # At 80 columns the terminal stacks the hands into records; the file keeps the table.
    head = TEXT.split("Hands\n")[0]
    assert [line.rstrip() for line in printed.splitlines()][: head.count("\n")] == (
        head.splitlines()
    )
    assert "Hand 3: knock won by A" in printed and "after it (A v B): I 30/–" in printed
    assert summary(run, "--format", "text") == printed
    target = tmp_path / "summary.txt"
    monkeypatch.delenv("COLUMNS")  # piped, the sentence that names the file stays whole
    said = summary(run, "-f", "text", "-o", str(target))
    assert said == f"Wrote the text summary of match 2025-06-01-a-b to {target}\n"
    assert target.read_text(encoding="utf-8") == TEXT


def test_times_are_shown_in_local_time_and_kept_as_written(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    play(run)
    shown = "Sun 1 Jun 2025, 14:00"  # 20:00 in Paris (+02:00), where the match was started
    assert f"started {shown}" in summary(run)
    assert shown in run("matches").stdout
    assert run("log").stdout.count(shown) == len(SEED_HANDS)
    assert json.loads(run("matches", "--json").stdout)[0]["created"] == FIXED_TIME
    stored = json.loads((hgin_home / "matches" / "2025-06-01-a-b.json").read_text("utf-8"))
    assert stored["created"] == FIXED_TIME


# -- JSON ----------------------------------------------------------------------------------


def test_json_is_show_json_plus_the_summary_fields(run: Run, show_json) -> None:
    play(run, hands=MORE_HANDS)
    data = json.loads(summary(run, "--format", "json"))
    keys = ("created", "first_dealer", "rules_label", "result", "settlement")
    extra = {key: data.pop(key) for key in keys}
    assert data == show_json()
    assert extra == {
        "created": FIXED_TIME,
        "first_dealer": "B",
        "rules_label": "friendly rules · 3 games to 100",
        "result": "In progress after 5 hands; A deals next.",
        "settlement": None,  # no stake
    }
    assert data["id"] == "2025-06-01-a-b"
    assert [g["scores"] for g in data["games"]] == [
        {"A": 108, "B": 0},
        {"A": 78, "B": 0},
        {"A": 35, "B": 0},
    ]
    assert [h["points"] for h in data["hands"]] == [30, 43, 35, 22, 0]
    assert [h["games"] for h in data["hands"]] == [[1], [1, 2], [1, 2, 3], [], []]


def test_json_of_a_finished_classic_match(run: Run) -> None:
    play(run, rules="classic", hands=(("gin", "A", "30"), ("knock", "A", "2", "40")))
    data = json.loads(summary(run, "-f", "json"))
    assert data["result"] == "Match over: A wins 3 games to 0."
    assert data["rules_label"] == "classic rules · 3 games to 100"
    assert [g["scores"]["A"] for g in data["games"]] == [108, 133, 128]
    # Each game: B shut out (+200) and three of A's hands in it (+75).
    assert [g["bonuses"]["A"] for g in data["games"]] == [275, 275, 275]
    assert data["totals"] == {"A": 108 + 133 + 128 + 3 * 275, "B": 0}


# -- CSV -----------------------------------------------------------------------------------


def test_csv_has_a_row_per_hand_with_running_scores(run: Run) -> None:
    play(run, hands=MORE_HANDS)
    text = summary(run, "--format", "csv")
    assert text == CSV_TEXT
    rows = read_csv(text)
    assert rows[0] == CSV_HEADER
    assert all(len(row) == len(CSV_HEADER) for row in rows)
    by_name = [dict(zip(CSV_HEADER, row, strict=True)) for row in rows[1:]]
    assert [row["Game I A"] for row in by_name] == ["30", "73", "108", "108", "108"]
    assert [row["Game II A"] for row in by_name] == ["0", "43", "78", "78", "78"]
    assert [row["Game III A"] for row in by_name] == ["0", "0", "35", "35", "35"]
    assert [row["Games closed"] for row in by_name] == ["", "", "I", "", ""]


def test_csv_under_classic_rules_adds_running_sheet_totals(run: Run) -> None:
    play(run, rules="classic", hands=MORE_HANDS)
    rows = read_csv(summary(run, "-f", "csv"))
    assert rows[0][-2:] == ["Total A", "Total B"]
    # Game I closes at hand 3: 108 points + 200 (B shut out) + 3 boxes of 25.
    assert [row[-2:] for row in rows[1:]] == [
        ["30", "0"],
        ["116", "0"],
        ["496", "0"],
        ["496", "0"],
        ["496", "0"],
    ]
    # Classic: the winner of a hand deals the next; a dead hand is dealt again.
    assert [row[1] for row in rows[1:]] == ["B", "A", "A", "A", "B"]


def test_csv_keeps_names_from_running_as_formulas(run: Run) -> None:
    assert run("new", "=cmd|x", "@bob", "--dealer", "@").exit_code == 0
    assert run("gin", "=", "12").exit_code == 0
    rows = read_csv(summary(run, "-f", "csv"))
    assert rows[0][11:13] == ["Game I =cmd|x", "Game I @bob"]
    assert rows[1][1:5] == ["'@bob", "gin", "'=cmd|x", "'=cmd|x"]


# -- Markdown ------------------------------------------------------------------------------


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every table as rows of cells, split on unescaped pipes and unescaped back."""
    tables: list[list[list[str]]] = []
    inside = False
    for line in text.splitlines():
        if not line.startswith("|"):
            inside = False
            continue
        cells = re.split(r"(?<!\\)\|", line)[1:-1]
        row = [re.sub(r"\\(.)", r"\1", cell.strip()) for cell in cells]
        if not inside:
            tables.append([])
            inside = True
        tables[-1].append(row)
    return tables


def test_markdown_tables(run: Run) -> None:
    play(run, rules="classic", hands=MORE_HANDS)
    text = summary(run, "-f", "markdown")
    assert text.startswith(
        "## Hollywood Gin: A v B\n\n**In progress after 5 hands; B deals next.**"
    )
    assert "match `2025-06-01-a-b`" in text
    games, hands = markdown_tables(text)
    assert games == [
        ["Game", "Winner", "A", "B"],
        [":--", ":--", "--:", "--:"],
        ["I", "A", "108 + 275 = 383", "–"],
        ["II", "open", "78", "–"],
        ["III", "open", "35", "–"],
        ["**Total**", "", "**496**", "**0**"],
    ]
    assert [hands[0], *hands[2:]] == CLASSIC_HANDS  # hands[1]: the alignment row
    assert "Hands won: A 3, B 1" in text
    assert "\n### Hands\n\n| \\# | Dealer |" in text  # the hands table has its own heading


def test_markdown_escapes_names(run: Run) -> None:
    assert run("new", "*Ann*|x", "[B](u) <i>", "--dealer", "*").exit_code == 0
    assert run("knock", "[", "2", "9").exit_code == 0
    text = summary(run, "-f", "markdown")
    assert "## Hollywood Gin: \\*Ann\\*\\|x v \\[B\\](u) \\<i\\>" in text
    games, hands = markdown_tables(text)
    assert games[0] == ["Game", "Winner", "*Ann*|x", "[B](u) <i>"]
    assert all(len(row) == 4 for row in games)
    assert hands[0][-1] == "Scores after (*Ann*|x/[B](u) <i>)"
    assert hands[2] == [
        "1",
        "*Ann*|x",
        "knock won by [B](u) <i>",
        "9 − 2 = 7",
        "game I",
        "I –/7",
    ]
    assert "<i>" not in text.replace("\\<i\\>", "")


# -- every format agrees with the sheet, whatever was played -------------------------------

HAND = st.one_of(
    st.tuples(st.just("gin"), st.sampled_from("AB"), st.integers(0, 98)),
    st.tuples(st.just("knock"), st.sampled_from("AB"), st.integers(1, 10), st.integers(0, 98)),
    st.tuples(st.just("draw")),
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rules=st.sampled_from(["friendly", "classic"]), hands=st.lists(HAND, max_size=14))
def test_every_format_agrees_with_show_json(
    run: Run, show_json: Any, rules: str, hands: list[tuple[Any, ...]]
) -> None:
    assert run("new", "A", "B", "--dealer", "A", "--rules", rules).exit_code == 0
    for hand in hands:
        result = run(*(str(part) for part in hand))
        if result.exit_code != 0:  # only a finished match refuses a hand
            assert "is finished" in result.stderr, result.output
            break
    sheet = show_json()
    played = sheet["hands"]
    data = json.loads(summary(run, "-f", "json"))
    assert {k: v for k, v in data.items() if k in sheet} == sheet
    rows = read_csv(summary(run, "-f", "csv"))
    assert len(rows) == len(played) + 1
    assert [int(row[7]) for row in rows[1:]] == [h["points"] for h in played]
    assert [row[3] or None for row in rows[1:]] == [h["winner"] for h in played]
    final = [int(cell) for cell in rows[-1][11:17]] if played else [0] * 6
    assert final == [g["scores"][p] for g in sheet["games"] for p in ("A", "B")]
    if rules == "classic" and played:
        assert [int(cell) for cell in rows[-1][17:]] == [sheet["totals"]["A"], sheet["totals"]["B"]]
    page = read_page(summary(run, "-f", "html"))
    assert len(page.tables.get("hands", [])) == (len(played) + 1 if played else 0)
    for game, row in zip(sheet["games"], page.tables["games"][1:4], strict=True):
        shown = [cell.split()[-1] for cell in row[2:]]
        assert shown == [
            str(game["scores"][p] + game["bonuses"][p])
            if game["entered"][p] or game["scores"][p] or game["bonuses"][p]
            else "–"
            for p in ("A", "B")
        ]
