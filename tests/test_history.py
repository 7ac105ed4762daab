"""`hgin matches` (columns, filters, JSON), progress bars on the sheet, the summary's chart."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run
from tests.history_data import IDS

SVG = "{http://www.w3.org/2000/svg}"


def listed(run: Run, *args: str) -> list[dict[str, Any]]:
    result = run("matches", "--json", *args)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def ids(run: Run, *args: str) -> list[str]:
    return [row["id"] for row in listed(run, *args)]


@pytest.mark.usefixtures("history")
def test_json_newest_first_with_every_field(run: Run) -> None:
    rows = listed(run)
    assert [r["id"] for r in rows] == IDS
    assert rows[1] == {
        "id": "2024-03-04-cy-ann",
        "players": ["Cy", "ANN"],
        "profile": "classic",
        "created": rows[1]["created"],
        "hands": 4,
        "finished": True,
        "winner": "ANN",
        "current": False,
    }
    assert rows[1]["created"].startswith("2024-03-04T10:")
    assert [(r["hands"], r["finished"], r["winner"], r["current"]) for r in rows] == [
        (1, False, None, True),
        (4, True, "ANN", False),
        (7, True, "Bob", False),
        (8, True, "ann", False),
        (9, True, "Ann", False),
    ]
    assert [r["profile"] for r in rows] == [
        "friendly",
        "classic",
        "friendly",
        "classic",
        "friendly",
    ]


def test_matches_of_one_second_by_identifier_the_greatest_first(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2026-12-01T20:15:00+01:00")
    for players in (("Cy", "Di"), ("Ann", "Bob"), ("Ed", "Flo"), ("Ann", "Bob")):
        assert run("new", *players).exit_code == 0
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2026-12-01T20:16:00+01:00")
    assert run("new", "Gil", "Hal").exit_code == 0
    expected = [
        "2026-12-01-gil-hal",
        "2026-12-01-ed-flo",
        "2026-12-01-cy-di",
        "2026-12-01-ann-bob-2",
        "2026-12-01-ann-bob",
    ]
    assert ids(run) == expected  # the cache rebuilt
    assert ids(run) == expected  # the cache read
    (hgin_home / "cache.json").unlink()
    table = run("matches").stdout
    assert re.findall(r"2026-12-01-[a-z0-9-]+", table) == expected


def test_matches_begun_under_other_offsets_go_by_the_instant(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20:00 at +01:00 (19:00 UTC) came before 19:30 at +00:00, though its text sorts after:
    the list, a player's latest match and the statistics all take the first as the older."""
    for began, spelt in (
        ("2026-12-01T19:30:00+00:00", "Ann"),
        ("2026-12-01T20:00:00+01:00", "ANN"),
    ):
        monkeypatch.setattr("hgin.scorekeeper.now_text", lambda began=began: began)
        assert run("new", spelt, "Bob", "--games", "1", "--dealer", "Bob").exit_code == 0
        assert run("gin", "bob", "98").exit_code == 0
    assert ids(run) == ["2026-12-01-ann-bob", "2026-12-01-ann-bob-2"]
    chosen = run("use", "ann")
    assert chosen.stderr == "hgin: match 2026-12-01-ann-bob (Ann v Bob), the latest with Ann\n"
    stats = json.loads(run("stats", "--json").stdout)
    assert list(stats["players"]) == ["Ann", "Bob"]  # as spelt in the latest match


@pytest.mark.usefixtures("history")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--player", "ann"), [IDS[1], IDS[3], IDS[4]]),  # Ann, ann and ANN alike
        (("--player", "A"), [IDS[1], IDS[3], IDS[4]]),  # the start of a name
        (("-p", "BOB"), [IDS[2], IDS[4]]),
        (("--player", "de"), [IDS[0]]),  # Dee and Deb both start with it
        (("--player", "Deb"), [IDS[0]]),
        (("--player", "zed"), []),
        (("--finished",), IDS[1:]),
        (("--unfinished",), IDS[:1]),
        (("--player", "cy", "--finished"), IDS[1:4]),
        (("--player", "cy", "--unfinished"), []),
    ],
)
def test_filters(run: Run, args: tuple[str, ...], expected: list[str]) -> None:
    assert ids(run, *args) == expected


def test_exact_name_beats_a_longer_one(run: Run) -> None:
    assert run("new", "Ann", "Bob").exit_code == 0
    assert run("new", "Anna", "Bob").exit_code == 0
    assert [r["players"][0] for r in listed(run, "--player", "ANN")] == ["Ann"]
    assert sorted(r["players"][0] for r in listed(run, "--player", "an")) == ["Ann", "Anna"]


@pytest.mark.usefixtures("history")
def test_table_columns(run: Run) -> None:
    result = run("matches")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "Match",
        "Players",
        "Rules",
        "Started",
        "Hands",
        "Status",
        "Winner",
    ]
    row = next(line for line in lines if IDS[1] in line).split()
    assert row[:5] == [IDS[1], "Cy", "v", "ANN", "classic"]
    assert row[5:9] == ["Mon", "4", "Mar", "2024,"] and re.fullmatch(r"10:\d\d", row[9])
    assert row[10:] == ["4", "finished", "ANN"]
    current = next(line for line in lines if IDS[0] in line).split()
    assert current[0] == "*"
    assert current[-3:] == ["1", "in", "play"]
    assert lines[-1] == "* current match"


@pytest.mark.usefixtures("history")
def test_narrow_terminal(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    result = run("matches", "--finished")
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 60
    words = result.stdout.split()
    for match_id in IDS[1:]:
        assert match_id in words
    assert words.count("won") == 4
    lines = result.stdout.splitlines()
    row = next(i for i, line in enumerate(lines) if IDS[1] in line)
    assert lines[row].split() == [IDS[1], "4", "won", "by", "ANN"]
    assert lines[row + 1].split() == ["Cy", "v", "ANN", "·", "classic", "·", "2024-03-04"]


def test_empty_and_no_fit(run: Run) -> None:
    result = run("matches")
    assert result.stdout == "No matches yet: start one with 'hgin new NAME1 NAME2'.\n"
    assert run("new", "Ann", "Bob").exit_code == 0
    result = run("matches", "--finished")
    assert result.exit_code == 0
    assert result.stdout == "No stored match fits.\n"
    assert run("matches", "--player", " ").exit_code == 1


@pytest.mark.usefixtures("history")
def test_unreadable_file_is_named(run: Run, hgin_home: Path) -> None:
    (hgin_home / "matches" / f"{IDS[2]}.json").write_text("[]", encoding="utf-8")
    result = run("matches", "--json")
    assert result.exit_code == 0
    assert [r["id"] for r in json.loads(result.stdout)] == [IDS[0], IDS[1], IDS[3], IDS[4]]
    assert IDS[2] in result.stderr


# -- progress bars on the sheet ----------------------------------------------------------------


def row_of(lines: list[str], name: str) -> int:
    """The sheet row of a player (not the title line, which also starts with a name)."""
    return next(
        i for i, line in enumerate(lines) if line.split()[:1] == [name] and " v " not in line
    )


def test_progress_bars_of_open_games(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Bob")
    run("knock", "ann", "4", "34")  # Ann 30 in game I
    run("gin", "ann", "18")  # Ann 73 in I, 43 in II
    result = run("knock", "bob", "3", "38")  # Bob 35 in I
    lines = result.stdout.splitlines()
    ann = row_of(lines, "Ann")
    # To the nearest cell: 73 of 100 fills 6 of 8 (5.84), 43 fills 3 (3.44); Bob's 35 fills 3
    # (2.8); no bar where not entered.
    assert lines[ann + 1].split() == ["██████░░", "███░░░░░"]
    assert lines[ann + 3].split() == ["███░░░░░"]
    assert "█ share of the 100 reached" in result.stdout
    result = run("knock", "ann", "3", "38")  # game I closes at 108: no bar there any more
    lines = result.stdout.splitlines()
    ann = row_of(lines, "Ann")
    assert lines[ann].split()[-5:] == ["✓", "108", "78", "35", "3"]
    assert lines[ann + 1].split() == ["██████░░", "███░░░░░"]


@pytest.mark.parametrize(
    ("points", "target", "bar"),
    [
        (0, 100, "░░░░░░░░"),
        (6, 100, "░░░░░░░░"),  # 0.48 of a cell
        (7, 100, "█░░░░░░░"),  # 0.56
        (50, 100, "████░░░░"),
        (93, 100, "███████░"),  # 7.44
        (98, 100, "███████░"),  # 7.84 rounds to 8, but only a reached target is full
        (100, 100, "████████"),
        (130, 100, "████████"),
        (-20, 100, "░░░░░░░░"),
    ],
)
def test_progress_bar_rounds_to_the_nearest_cell(points: int, target: int, bar: str) -> None:
    from hgin.reports.bars import progress_bar

    assert progress_bar(points, target) == bar


def test_progress_bars_at_sixty_columns(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    run("new", "Annabelle Longname", "Bob", "--rules", "classic", "--dealer", "Bob")
    run("knock", "ann", "4", "34")
    result = run("gin", "bob", "70")  # Bob 95 in game I: 7 of 8 cells, never full while open
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 60
    assert "███████░" in result.stdout
    assert "██░░░░░░" in result.stdout


# -- the chart in the HTML summary ----------------------------------------------------------


def test_summary_html_has_the_scores_chart(run: Run, tmp_path: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Bob")
    for hand in (
        ("knock", "ann", "4", "34"),
        ("draw",),
        ("gin", "ann", "18"),
        ("knock", "bob", "5", "27"),
        ("knock", "ann", "3", "38"),
    ):
        assert run(*hand).exit_code == 0
    target = tmp_path / "summary.html"
    result = run("summary", "--format", "html", "--output", str(target))
    assert result.exit_code == 0, result.output
    page = target.read_text(encoding="utf-8")
    found = re.findall(r"<svg\b.*?</svg>", page, re.S)
    assert len(found) == 1
    svg = ET.fromstring(found[0])
    assert svg.findtext(f"{SVG}title") == "Scores hand by hand: Ann v Bob"
    assert svg.findtext(f"{SVG}desc") == (
        "Game I (won by Ann at hand 5): Ann 108, Bob 22. "
        "Game II (still open): Ann 78, Bob 0. "
        "Game III (still open): Ann 35, Bob 0."
    )
    lines = svg.findall(f"{SVG}polyline")
    assert len(lines) == 6  # two players in each of three games
    # Game I: Ann's line ends where the game closed (hand 5); both start at 0 before hand 1.
    points = [p.split(",") for p in lines[0].get("points", "").split()]
    assert len(points) == 6
    assert len({line.get("stroke-dasharray") for line in lines[:2]}) == 2
    closing = svg.findall(f".//{SVG}circle[@class='closing']")
    assert len(closing) == 1
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "closes at 108" in texts
    assert texts.count("target 100") == 3


@pytest.mark.parametrize(
    ("hands", "label_y"),
    [
        ([("knock", "ann", "4", "34")], {"target 100": "68.0"}),
        ([("gin", "ann", "80")], {"target 100": "73.0", "closes at 105": "62.8"}),
        ([("gin", "ann", "75"), ("draw",)], {"target 100": "68.0", "closes at 100": "74.0"}),
    ],
)
def test_the_labels_at_the_top_of_the_plot_keep_clear_of_the_game_title(
    run: Run, hands: list[tuple[str, ...]], label_y: dict[str, str]
) -> None:
    """With 30 points, or a game closed at 100, the target tops the scale, where the plot
    starts (56) 10 under the title: the labels go below their point, not over the title;
    with 105 (a scale to 125) above it."""
    run("new", "Ann", "Bob", "--dealer", "Bob")
    for hand in hands:
        assert run(*hand).exit_code == 0
    found = re.findall(r"<svg\b.*?</svg>", run("summary", "--format", "html").stdout, re.S)
    texts = [(t.text or "", t.get("y")) for t in ET.fromstring(found[0]).iter(f"{SVG}text")]
    first = dict(reversed(texts))  # game I's
    title = next(y for text, y in texts if text.startswith("Game I:"))
    assert (title, {text: first.get(text) for text in label_y}) == ("46", label_y)


def test_summary_html_without_hands_has_no_chart(run: Run) -> None:
    run("new", "Ann", "Bob")
    result = run("summary", "--format", "html")
    assert result.exit_code == 0
    assert "<svg" not in result.stdout
