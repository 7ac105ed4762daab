"""One hand's award, the three games, the rule profiles and the command contract (exit
statuses, `show --json` keys, prefixes), through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Run, flat, snapshot


def test_seed_000_worked_example(run: Run, show_json) -> None:
    assert run("new", "A", "B", "--dealer", "B").exit_code == 0
    assert run("knock", "A", "4", "34").exit_code == 0
    assert [g["scores"]["A"] for g in show_json()["games"]] == [30, 0, 0]
    result = run("gin", "A", "18")
    assert result.exit_code == 0
    assert "Gin: A scores 25 + 18 = 43 in games I and II." in result.stdout
    assert [g["scores"]["A"] for g in show_json()["games"]] == [73, 43, 0]
    result = run("knock", "a", "3", "38")
    assert "Knock: A scores 38 − 3 = 35 in games I, II and III; game I closes, A wins it." in (
        result.stdout
    )
    data = show_json()
    assert [g["scores"]["A"] for g in data["games"]] == [108, 78, 35]
    assert [g["winner"] for g in data["games"]] == ["A", None, None]
    assert data["wins"] == {"A": 3, "B": 0}
    assert [h["games"] for h in data["hands"]] == [[1], [1, 2], [1, 2, 3]]
    assert [h["points"] for h in data["hands"]] == [30, 43, 35]


def test_new_reports_the_dealer_and_makes_the_match_current(run: Run, show_json) -> None:
    result = run("new", "Ines", "Oskar", "--dealer", "osk")
    assert result.exit_code == 0
    assert "Oskar deals first (chosen)." in result.stdout
    data = show_json()
    assert data["players"] == ["Ines", "Oskar"]
    assert data["dealer"] == "Oskar"
    assert data["finished"] is False
    assert data["winner"] is None
    assert data["rules"]["target"] == 100
    assert data["rules"]["profile"] == "friendly"


def test_random_first_dealer_is_one_of_the_players(run: Run, show_json) -> None:
    result = run("new", "Ines", "Oskar")
    assert result.exit_code == 0
    dealer = show_json()["dealer"]
    assert dealer in ("Ines", "Oskar")
    assert f"{dealer} deals first (drawn by lot)." in result.stdout


def test_show_json_has_every_promised_key(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--rules", "classic", "--dealer", "Ann")
    run("knock", "bob", "9", "7")
    run("draw")
    data = show_json()
    for key in ("players", "games", "wins", "hands", "dealer", "finished", "winner", "totals"):
        assert key in data
    assert set(data["rules"]) >= {"gin_bonus", "undercut_bonus", "target", "games"}
    assert data["games"][0] == {
        "number": 1,
        "scores": {"Ann": 27, "Bob": 0},
        "bonuses": {"Ann": 0, "Bob": 0},
        "winner": None,
        "closed_by_hand": None,
        "hands_won": {"Ann": 1, "Bob": 0},
        "entered": {"Ann": True, "Bob": False},
    }
    assert [(h["result"], h["winner"], h["points"], h["games"]) for h in data["hands"]] == [
        ("undercut", "Ann", 27, [1]),
        ("draw", None, 0, []),
    ]
    # classic: the hand's winner deals next, and a dead hand is dealt again by the same dealer
    assert data["dealer"] == "Ann"
    assert data["wins"] == {"Ann": 1, "Bob": 0}
    assert data["totals"] == {"Ann": 27, "Bob": 0}


def test_undercut_sentence(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "bob", "10")
    result = run("knock", "ann", "9", "7")
    assert "Undercut: Bob scores 9 − 7 + 25 = 27 in games I and II." in result.stdout


def test_closing_sentence_and_match_result(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--games", "1", "--dealer", "Ann")
    result = run("gin", "ann", "80")
    assert "Gin: Ann scores 25 + 80 = 105 in game I; game I closes, Ann wins it." in result.stdout
    assert "Match over: Ann wins the game." in result.stdout
    data = show_json()
    assert data["finished"] is True
    assert data["winner"] == "Ann"
    assert data["games"][0]["winner"] == "Ann"


def test_undo_and_redo(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    run("knock", "bob", "3", "20")
    result = run("undo")
    assert result.exit_code == 0
    assert flat(result.stdout).endswith(
        "Undone: change 2 (recorded hand 2: knock by Bob 3 v 20, 20 − 3 = 17). "
        "The sheet has 1 hand. Game I: Bob 17 → –."
    )
    assert len(show_json()["hands"]) == 1
    assert run("undo").exit_code == 0
    assert show_json()["hands"] == []
    refused = run("undo")
    assert refused.exit_code == 1
    assert refused.stderr == "hgin: there is nothing to undo: every change is undone\n"
    assert run("redo").exit_code == 0
    result = run("redo")
    assert flat(result.stdout).endswith(
        "Redone: change 2 (recorded hand 2: knock by Bob 3 v 20, 20 − 3 = 17). "
        "The sheet has 2 hands. Game I: Bob – → 17."
    )
    assert [h["points"] for h in show_json()["hands"]] == [35, 17]
    assert run("redo").stderr == "hgin: there is nothing to redo\n"


def test_a_new_hand_clears_redo(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    run("undo")
    run("draw")
    result = run("redo")
    assert result.exit_code == 1
    assert result.stderr == (
        "hgin: there is nothing to redo: change 3 set aside 1 undone change; it is still in "
        "'hgin log', and 'hgin restore 2' brings it back\n"
    )


def test_players_by_case_insensitive_unique_prefix(run: Run, show_json) -> None:
    run("new", "Alice", "Albert", "--dealer", "alb")
    assert run("gin", "ALI", "10").exit_code == 0
    ambiguous = run("gin", "al", "10")
    assert ambiguous.exit_code == 1
    assert "'al' could be Alice or Albert" in ambiguous.stderr
    assert [h["winner"] for h in show_json()["hands"]] == ["Alice"]


def test_exact_name_beats_a_longer_prefix(run: Run, show_json) -> None:
    run("new", "Al", "Alice", "--dealer", "al")
    assert show_json()["dealer"] == "Al"
    run("gin", "al", "5")
    assert show_json()["hands"][0]["winner"] == "Al"


REFUSALS = [
    (("knock", "ann", "11", "20"), "the knocker's deadwood must be between 1 and 10, not 11"),
    (("knock", "ann", "0", "20"), "a knock with 0 deadwood is a gin: enter it as gin by Ann"),
    (("knock", "ann", "5", "99"), "the opponent's deadwood must be between 0 and 98, not 99"),
    (("knock", "ann", "5", "-1"), "the opponent's deadwood must be between 0 and 98, not -1"),
    (("gin", "ann", "99"), "the opponent's deadwood must be between 0 and 98, not 99"),
    (("gin", "ann", "7.5"), "the opponent's deadwood must be a whole number, not '7.5'"),
    (("gin", "ann", "ten"), "the opponent's deadwood must be a whole number, not 'ten'"),
    (("gin", "cy", "10"), "'cy' is not a player in this match (Ann or Bob)"),
    (("gin", "ann", "10", "--big"), "big gin is not played in this match (see big-gin-bonus)"),
    (("gin", "ann", "10", "--upcard", "7s"), "an upcard is only entered in an Oklahoma match"),
    (("show", "--match", "nope"), "no match 'nope' (see 'hgin matches')"),
    (("use", "../../etc/passwd"), "no match '../../etc/passwd' (see 'hgin matches')"),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS)
def test_refusals_exit_1_with_one_line_and_leave_files_untouched(
    run: Run, hgin_home: Path, args: tuple[str, ...], message: str
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 1
    assert result.stderr == f"hgin: {message}\n"
    assert result.stdout == ""
    assert snapshot(hgin_home) == before


def test_no_match_yet(run: Run, hgin_home: Path) -> None:
    for args in (("show",), ("gin", "a", "1"), ("undo",), ("summary",), ("draw",)):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stderr == "hgin: no match yet: start one with 'hgin new NAME1 NAME2'\n"
    assert snapshot(hgin_home) == {}


def test_a_finished_match_takes_no_more_hands(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--games", "1", "--dealer", "Ann")
    run("gin", "ann", "80")
    before = snapshot(hgin_home)
    for args in (("gin", "bob", "10"), ("knock", "bob", "3", "10"), ("draw",)):
        result = run(*args)
        assert result.exit_code == 1
        assert "is finished (Ann won it)" in result.stderr
    assert snapshot(hgin_home) == before
    assert run("undo").exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("new", "Ann", "ann"), "the two players need different names"),
        (("new", "Ann", "  "), "a player name cannot be empty"),
        (("new", "Ann", "B\x1bob"), "a player name cannot hold control characters"),
        (("new", "Ann", "Bob", "--dealer", "Cy"), "'Cy' is not a player in this match"),
        (("new", "Ann", "Bob", "--target", "0"), "target must be between 1 and 100000, not 0"),
        (("new", "Ann", "Bob", "--games", "2"), "games must be one of 1, 3, 5, not 2"),
        (("new", "Ann", "Bob", "--rules", "bogus"), "no rules called 'bogus'"),
    ],
)
def test_new_refusals(run: Run, hgin_home: Path, args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert snapshot(hgin_home) == {}


@pytest.mark.parametrize(
    "args",
    [
        ("bogus",),
        ("gin",),
        ("gin", "ann"),
        ("knock", "ann", "3"),
        ("new", "Ann"),
        ("new", "Ann", "Bob", "Cy"),
        ("new", "Ann", "Bob", "--tie", "sometimes"),
        ("gin", "ann", "10", "--nope"),
        ("gin", "ann", "--bogus"),
        ("gin", "ann", "3", "--bogus"),
        ("knock", "ann", "-x", "20"),
        ("knock", "ann", "3", "20", "--bogus"),
        ("delete", "--bogus"),
        ("delete", "1", "--bogus"),
        ("edit", "--bogus", "draw"),
        ("edit", "1", "gin", "ann", "--bogus"),
        ("count", "2s", "3s", "4s", "5h", "6h", "7h", "8c", "9c", "tc", "jc", "--bogus"),
        ("show", "--match"),
    ],
)
def test_usage_errors_exit_2(run: Run, hgin_home: Path, args: tuple[str, ...]) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 2
    assert snapshot(hgin_home) == before


def test_names_are_printed_literally(run: Run, show_json) -> None:
    result = run("new", "[red]Rex[/red]", "[bold]B", "--dealer", "[red]")
    assert result.exit_code == 0
    assert "[red]Rex[/red]" in result.stdout
    result = run("gin", "[red]", "10")
    assert "Gin: [red]Rex[/red] scores 25 + 10 = 35 in game I." in result.stdout
    assert show_json()["players"] == ["[red]Rex[/red]", "[bold]B"]


def test_matches_use_and_match_option(run: Run, show_json) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    run("gin", "ann", "10")
    run("new", "Cy", "Di", "--dealer", "Cy")
    listed = json.loads(run("matches", "--json").stdout)
    ids = [m["id"] for m in listed]
    assert len(ids) == 2
    ann_bob = next(m for m in listed if m["players"] == ["Ann", "Bob"])
    cy_di = next(m for m in listed if m["players"] == ["Cy", "Di"])
    assert cy_di["current"] is True
    assert ann_bob["hands"] == 1
    assert run("gin", "ann", "5", "--match", ann_bob["id"]).exit_code == 0
    assert show_json()["players"] == ["Cy", "Di"]
    assert len(show_json("--match", ann_bob["id"])["hands"]) == 2
    result = run("use", ann_bob["id"][:-1])
    assert result.exit_code == 0
    assert f"Now playing match {ann_bob['id']}." in result.stdout
    assert show_json()["players"] == ["Ann", "Bob"]
    table = run("matches").stdout
    assert "Ann v Bob" in table
    assert "Cy v Di" in table


def test_bare_hgin_shows_the_sheet_or_help(run: Run) -> None:
    result = run()
    assert result.exit_code == 0
    assert "Usage" in result.stdout
    run("new", "Ann", "Bob", "--dealer", "Bob")
    result = run()
    assert result.exit_code == 0
    assert "Ann v Bob" in result.stdout
    assert "Next deal: Bob." in result.stdout


def test_summary_lists_rules_result_games_and_hands(run: Run) -> None:
    run("new", "Ann", "Bob", "--rules", "classic", "--games", "1", "--dealer", "Ann")
    run("knock", "bob", "3", "13")
    run("gin", "ann", "80")
    result = run("summary")
    assert result.exit_code == 0
    out = result.stdout
    assert "Hollywood Gin: Ann v Bob" in out
    assert "Rules: classic rules · one game to 100" in out
    assert "Match over: Ann wins the game." in out
    assert "105 + 125 = 230" in out  # 100 game bonus + 25 box
    assert "10 + 25 = 35" in out
    assert "13 − 3 = 10" in out
    assert "25 + 80 = 105" in out


def test_version_is_the_one_in_pyproject(run: Run) -> None:
    import tomllib

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"hgin {declared}\n"


def test_every_command_has_help(run: Run) -> None:
    from typer.main import get_command

    from hgin.cli import app

    group = get_command(app)
    names = sorted(group.commands)  # type: ignore[attr-defined]
    assert {
        "new",
        "gin",
        "knock",
        "draw",
        "undo",
        "redo",
        "show",
        "summary",
        "matches",
        "use",
    } <= set(names)
    for name in names:
        result = run(name, "--help")
        assert result.exit_code == 0, name
        assert "Usage" in result.stdout
        assert group.commands[name].help, f"{name} has no help text"  # type: ignore[attr-defined]


def test_python_dash_m_runs_the_same_program(hgin_home: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hgin", "new", "Ann", "Bob", "--dealer", "Ann"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "hgin", "knock", "ann", "11", "20"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr == "hgin: the knocker's deadwood must be between 1 and 10, not 11\n"
    assert "Traceback" not in done.stderr


def test_a_refusal_quoting_huge_input_stays_short(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    result = run("gin", "x" * 5000, "5")
    assert result.exit_code == 1
    line = result.stderr
    assert line.startswith("hgin: 'xxx")
    assert line == "hgin: '" + "x" * 100 + "…' is not a player in this match (Ann or Bob)\n"


def test_help_lists_commands_in_table_order(run: Run) -> None:
    listed = [
        line.split()[0]
        for line in run("--help").stdout.split("Commands:")[1].split("\n\n")[0].splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert listed[:8] == ["new", "gin", "knock", "draw", "undo", "redo", "notice", "show"]
    assert listed[-1] == "demo"


@pytest.mark.parametrize("rules", ["friendly", "classic"])
def test_demo_plays_a_whole_match_without_touching_the_users_data(
    run: Run, hgin_home: Path, rules: str
) -> None:
    run("new", "Cy", "Di", "--dealer", "Cy")
    before = snapshot(hgin_home)
    result = run("demo", "--rules", rules)
    assert result.exit_code == 0
    out = flat(result.stdout)
    assert "Gin: Ann scores 25 + 18 = 43 in games I and II." in out
    assert "Knock: Ann scores 38 − 3 = 35 in games I, II and III; game I closes, Ann wins it" in out
    assert "Match over: Ann wins 2 games to 1." in out
    assert snapshot(hgin_home) == before
    assert run("demo", "--rules", "bogus").exit_code == 2
