"""Series to a target (standard gin match play) through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Run, snapshot


def series_json(run: Run) -> dict:
    result = run("series", "show", "--json")
    assert result.exit_code == 0, result.output
    data: dict = json.loads(result.stdout)
    return data


def test_series_credits_finished_match_totals_until_the_target(run: Run) -> None:
    result = run("series", "new", "Ann", "Bob", "--to", "250", "--dealer", "Ann")
    assert result.exit_code == 0
    assert "New series" in result.stdout
    data = series_json(run)
    assert data["target"] == 250
    assert data["totals"] == {"Ann": 0, "Bob": 0}
    assert data["in_play"] is not None
    # Match 1 (friendly, three games): Ann's three gins of 105 close all three games.
    for _ in range(3):
        run("gin", "ann", "80")
    data = series_json(run)
    assert data["totals"] == {"Ann": 105 + 105 + 105, "Bob": 0}
    assert data["finished"] is True
    assert data["winner"] == "Ann"
    refused = run("series", "next")
    assert refused.exit_code == 1
    assert "is over: Ann won it" in refused.stderr


def test_series_next_needs_the_last_match_finished(run: Run, hgin_home: Path) -> None:
    run("series", "new", "Ann", "Bob", "--to", "500", "--dealer", "Ann")
    before = snapshot(hgin_home)
    refused = run("series", "next")
    assert refused.exit_code == 1
    assert "still in play" in refused.stderr
    assert snapshot(hgin_home) == before


def test_series_runs_over_several_matches(run: Run) -> None:
    run("series", "new", "Ann", "Bob", "--to", "600", "--dealer", "Ann")
    for _ in range(3):
        run("gin", "ann", "80")  # match 1: games I, II, III closed at 105 each
    assert series_json(run)["totals"] == {"Ann": 315, "Bob": 0}
    assert run("series", "next", "--dealer", "bob").exit_code == 0
    data = series_json(run)
    assert len(data["matches"]) == 1
    assert data["in_play"] is not None
    shown = json.loads(run("show", "--json").stdout)
    assert shown["id"] == data["in_play"]
    assert shown["dealer"] == "Bob"
    run("knock", "bob", "2", "12")  # Bob 10 in game I
    for _ in range(3):
        run("gin", "ann", "80")
    data = series_json(run)
    assert [m["totals"] for m in data["matches"]] == [
        {"Ann": 315, "Bob": 0},
        {"Ann": 315, "Bob": 10},
    ]
    assert data["totals"] == {"Ann": 630, "Bob": 10}
    assert data["matches_won"] == {"Ann": 2, "Bob": 0}
    assert data["finished"] is True
    table = run("series", "show").stdout
    assert "+315 = 630" in table
    assert "Series over: Ann wins, 630 to 10." in table


def test_series_list_and_refusals(run: Run, hgin_home: Path) -> None:
    assert run("series", "show").stderr.startswith("hgin: no series yet")
    assert "No series yet" in run("series", "list").stdout
    run("series", "new", "Ann", "Bob", "--dealer", "Ann")
    listed = json.loads(run("series", "list", "--json").stdout)
    assert len(listed) == 1
    assert listed[0]["target"] == 500
    assert run("series", "show", "--series", "zzz").stderr == (
        "hgin: no series 'zzz' (see 'hgin series list')\n"
    )
    assert run("series", "new", "Cy", "Di", "--to", "0").exit_code == 1


def test_bare_series_shows_the_current_one_or_how_to_start(run: Run) -> None:
    empty = run("series")
    assert (empty.exit_code, empty.stdout, empty.stderr) == (
        0,
        "No series yet: start one with 'hgin series new NAME1 NAME2 --to 500'.\n",
        "",
    )
    run("series", "new", "Ann", "Bob", "--to", "250", "--dealer", "Ann")
    bare = run("series")
    assert bare.exit_code == 0
    assert bare.stdout == run("series", "show").stdout
    assert bare.stdout.startswith("Series 20")
    assert "Totals: Ann 0, Bob 0." in bare.stdout
    listed = run("series", "--help").stdout
    assert all(f"  {name} " in listed for name in ("new", "next", "show", "list"))


def test_a_game_target_meant_for_the_series_is_refused_naming_to(run: Run, hgin_home: Path) -> None:
    refused = run("series", "new", "Ann", "Bob", "--target", "500")
    assert refused.exit_code == 2
    assert refused.stderr == (
        "hgin: --target: 500 is each game's target, not the series' total: for a series to "
        "500 type --to 500 (give --to as well to keep this --target)\n"
        "Try 'hgin series new --help'.\n"
    )
    assert snapshot(hgin_home) == {}
    run("series", "new", "Ann", "Bob", "--target", "500", "--to", "500", "--dealer", "Ann")
    run("series", "new", "Cy", "Di", "--target", "250", "--dealer", "Cy")
    listed = json.loads(run("series", "list", "--json").stdout)
    games = [json.loads(run("rules", "--json", "-m", s["in_play"]).stdout) for s in listed]
    assert [(s["target"], g["target"]) for s, g in zip(listed, games, strict=True)] == [
        (500, 500),
        (500, 250),
    ]


def test_damaged_series_file_is_refused_not_reset(run: Run, hgin_home: Path) -> None:
    run("series", "new", "Ann", "Bob", "--dealer", "Ann")
    path = next((hgin_home / "series").glob("*.json"))
    path.write_text('{"schema": 1, "id": 3}', encoding="utf-8")
    before = snapshot(hgin_home)
    result = run("series", "show")
    assert result.exit_code == 1
    assert str(path) in result.stderr
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("matches", [], "'matches' must list at least one match, each once"),
        ("players", ["Ann", "ANN"], "'players' must be two different names"),
    ],
)
def test_a_series_file_is_checked_as_a_whole_by_every_series_command(
    run: Run, hgin_home: Path, field: str, value: object, problem: str
) -> None:
    run("series", "new", "Ann", "Bob", "--dealer", "Ann")
    path = next((hgin_home / "series").glob("*.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, field: value}), encoding="utf-8")
    before = snapshot(hgin_home)
    for command in ("show", "list", "next"):
        result = run("series", command)
        assert (result.exit_code, result.stderr) == (1, f"hgin: cannot use {path}: {problem}\n")
    assert snapshot(hgin_home) == before
