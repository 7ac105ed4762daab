"""The settings file (config.toml): defaults for `hgin new`, shown by `hgin config`."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from hgin.errors import HginError
from hgin.store.config import KNOWN, STARTER, parse_config
from tests.conftest import Run, snapshot


def config_path(home: Path) -> Path:
    return home / "config" / "config.toml"


def write_config(home: Path, text: str) -> Path:
    path = config_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_config_without_a_file(run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS")  # piped: the path is not wrapped, however long
    result = run("config")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Settings file:",
        f"  {config_path(hgin_home)}",
        "  (not there: 'hgin config --init' writes a starter)",
        "Defaults for 'hgin new':",
        "  rules    friendly  (default)",
        "  target   100  (from the rules)",
        "  games    3  (from the rules)",
        "  players  not set: name them, 'hgin new ANN BOB'",
    ]
    data = json.loads(run("config", "--json").stdout)
    assert data == {
        "path": str(config_path(hgin_home)),
        "exists": False,
        "in_force": {
            "rules": {"value": "friendly", "from": "default"},
            "target": {"value": 100, "from": "rules"},
            "games": {"value": 3, "from": "rules"},
            "players": {"value": None, "from": "none"},
        },
        "ascii": False,
    }


def test_init_writes_a_commented_starter_once(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS")  # piped, the sentence that names the file stays whole
    result = run("config", "--init")
    assert result.exit_code == 0
    path = config_path(hgin_home)
    assert result.stdout == f"Wrote {path}: remove the # in front of a setting to use it.\n"
    assert path.read_text(encoding="utf-8") == STARTER
    assert tomllib.loads(STARTER) == {}  # every setting is commented out
    path.write_text('players = ["Ann", "Bob"]\n', encoding="utf-8")
    before = snapshot(hgin_home)
    again = run("config", "--init")
    assert again.exit_code == 1
    assert again.stderr == f"hgin: {path} already exists; edit it, or remove it first\n"
    assert snapshot(hgin_home) == before


def test_uncommented_starter_lines_are_what_config_shows(run: Run, hgin_home: Path) -> None:
    run("config", "--init")
    path = config_path(hgin_home)
    text = path.read_text(encoding="utf-8")
    uncommented = [
        line[2:] if line.startswith("# ") and " = " in line else line for line in text.splitlines()
    ]
    path.write_text("\n".join(uncommented) + "\n", encoding="utf-8")
    data = json.loads(run("config", "--json").stdout)
    assert data["exists"] is True
    assert {k: v["value"] for k, v in data["in_force"].items()} == {
        "rules": "classic",
        "target": 100,
        "games": 3,
        "stake": "0.05",
        "tie": "knocker",
        "players": ["Ines", "Oskar"],
    }
    assert {v["from"] for v in data["in_force"].values()} == {"config"}


def test_bare_new_uses_the_config(run: Run, show_json, hgin_home: Path) -> None:
    path = write_config(hgin_home, 'rules = "classic"\ntarget = 250\nplayers = ["Ines", "Oskar"]\n')
    result = run("new", "--dealer", "osk")
    assert result.exit_code == 0, result.stderr
    # A long temporary path may be folded anywhere: compare without the white space.
    assert f"From{path}:players,rules,target." in "".join(result.stdout.split())
    data = show_json()
    assert data["players"] == ["Ines", "Oskar"]
    assert data["dealer"] == "Oskar"
    assert data["rules"]["profile"] == "classic"
    assert data["rules"]["target"] == 250
    assert data["rules"]["game_bonus"] == 100
    assert data["rules"]["games"] == 3


def test_the_command_line_wins_over_the_config(run: Run, show_json, hgin_home: Path) -> None:
    write_config(hgin_home, 'rules = "classic"\ntarget = 250\ngames = 1\nplayers = ["I", "O"]\n')
    result = run("new", "Ann", "Bob", "--rules", "friendly", "--target", "150")
    assert result.exit_code == 0, result.stderr
    assert f"From{config_path(hgin_home)}:games." in "".join(result.stdout.split())
    data = show_json()
    assert data["players"] == ["Ann", "Bob"]
    assert (data["rules"]["profile"], data["rules"]["target"]) == ("friendly", 150)
    assert data["rules"]["games"] == 1
    assert data["rules"]["game_bonus"] == 0


def test_no_config_means_the_old_behaviour(run: Run, show_json) -> None:
    result = run("new", "Ann", "Bob")
    assert result.exit_code == 0
    assert "From " not in result.stdout
    assert show_json()["rules"]["profile"] == "friendly"
    assert show_json()["rules"]["target"] == 100


def test_config_rules_may_name_a_saved_preset(run: Run, show_json, hgin_home: Path) -> None:
    assert run("rules", "save", "house", "--base", "classic", "--gin-bonus", "20").exit_code == 0
    write_config(hgin_home, 'rules = "house"\n')
    assert run("new", "Ann", "Bob").exit_code == 0
    rules = show_json()["rules"]
    assert (rules["profile"], rules["gin_bonus"], rules["game_bonus"]) == ("house", 20, 100)


def test_new_needs_both_names_or_neither(run: Run, hgin_home: Path) -> None:
    result = run("new")
    assert result.exit_code == 1
    assert result.stderr == (
        "hgin: name the two players (hgin new ANN BOB), or set players in "
        f"{config_path(hgin_home)}\n"
    )
    write_config(hgin_home, 'players = ["Ines", "Oskar"]\n')
    result = run("new", "Ann")
    assert result.exit_code == 2  # a usage error, as without a config file
    assert result.stderr == (
        "hgin: NAME2: name both players, or neither to play the two named by 'players' in "
        "config.toml\nTry 'hgin new --help'.\n"
    )
    assert not (hgin_home / "matches").exists()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("taget = 100\n", f"unknown setting 'taget' (did you mean 'target'? known: {KNOWN})"),
        (
            "gin_bonus = 20\n",
            f"unknown setting 'gin_bonus' (did you mean 'gin-bonus'? known: {KNOWN})",
        ),
        ("colour = 1\n", f"unknown setting 'colour' (known: {KNOWN})"),
        ("tie = 1\n", "'tie' must be text in quotes, not 1"),
        ('tie = "never"\n', "tie must be one of undercut, knocker, not 'never'"),
        ('oklahoma = "yes"\n', "'oklahoma' must be true or false, not 'yes'"),
        (
            "oklahoma = true\nstraight = true\n",
            "Oklahoma and Straight Gin cannot both be on: Straight Gin has no knocks",
        ),
        ("target = 100.5\n", "'target' must be a whole number, not 100.5"),
        ("target = true\n", "'target' must be a whole number, not True"),
        ('games = "3"\n', "'games' must be a whole number, not '3'"),
        ("games = 2\n", "games must be one of 1, 3, 5, not 2"),
        ("target = 0\n", "target must be between 1 and 100000, not 0"),
        ("rules = 3\n", "'rules' must be a name in quotes, as in rules = \"classic\""),
        ('rules = "clasic"\n', "rules: no rules called 'clasic' (known: friendly, classic)"),
        ('players = ["Ann"]\n', '\'players\' must be two names, as in players = ["Ann", "Bob"]'),
        ('players = "Ann, Bob"\n', '\'players\' must be two names, as in players = ["Ann", "Bob"]'),
        ("players = [1, 2]\n", "'players' must hold two names in quotes"),
        ('players = ["Ann", "ann"]\n', "players: the two players need different names"),
        ('players = ["Ann", " "]\n', "players: a player name cannot be empty"),
    ],
)
def test_a_mistyped_config_is_refused_with_path_and_problem(
    run: Run, hgin_home: Path, text: str, problem: str
) -> None:
    path = write_config(hgin_home, text)
    for args in (("config",), ("new", "Ann", "Bob"), ("new",)):
        result = run(*args)
        assert (result.exit_code, result.stderr) == (1, f"hgin: {path}: {problem}\n"), args
    assert not (hgin_home / "matches").exists()


def test_any_rule_option_can_be_a_default(run: Run, show_json, hgin_home: Path) -> None:
    path = write_config(hgin_home, 'tie = "knocker"\ngin-bonus = 20\noklahoma = true\n')
    shown = json.loads(run("config", "--json").stdout)["in_force"]
    assert list(shown) == ["rules", "gin-bonus", "target", "games", "tie", "oklahoma", "players"]
    assert shown["tie"] == {"value": "knocker", "from": "config"}
    assert shown["gin-bonus"] == {"value": 20, "from": "config"}
    result = run("new", "Ann", "Bob", "--dealer", "Ann", "--gin-bonus", "30")
    assert result.exit_code == 0, result.stderr
    assert f"From{path}:tie,oklahoma." in "".join(result.stdout.split())
    rules = show_json()["rules"]
    assert (rules["tie"], rules["gin_bonus"], rules["oklahoma"]) == ("knocker", 30, True)


def test_a_damaged_config_is_refused(run: Run, hgin_home: Path) -> None:
    path = write_config(hgin_home, 'rules = "classic\n')
    result = run("config")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"hgin: cannot use {path}: it is not valid TOML (")
    assert len(result.stderr.splitlines()) == 1
    path.write_bytes(b"target = 100 # \xff\n")
    result = run("new", "Ann", "Bob")
    assert result.stderr == f"hgin: cannot use {path}: it is not UTF-8 text\n"
    path.unlink()
    path.mkdir()
    result = run("config")
    assert result.exit_code == 1
    assert result.stderr == f"hgin: cannot use {path}: it is not a regular file\n"


def test_parse_config_never_raises_anything_but_a_refusal() -> None:
    path = Path("/somewhere/config.toml")
    for text in ("", "[table]\nx = 1\n", "players = []\n", "players = [[], {}]\n", "= 3"):
        try:
            parse_config(text.encode(), path)
        except HginError as refusal:
            assert str(path) in str(refusal)
