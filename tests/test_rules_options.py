"""Every house rule option through the real CLI, with the numbers pinned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Run, flat, snapshot


def points(show_json) -> list[int]:
    return [h["points"] for h in show_json()["hands"]]


def test_undercut_bonus_10(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--undercut-bonus", "10", "--dealer", "Ann")
    result = run("knock", "ann", "3", "1")
    assert "Undercut: Bob scores 3 − 1 + 10 = 12 in game I." in result.stdout
    assert points(show_json) == [12]


def test_gin_bonus_20(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--gin-bonus", "20", "--dealer", "Ann")
    run("gin", "bob", "18")
    assert points(show_json) == [38]


def test_tie_knocker_wins_zero_and_still_opens_a_game(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--tie", "knocker", "--dealer", "Ann")
    result = run("knock", "ann", "7", "7")
    assert "Knock: Ann scores 7 − 7 = 0 in game I." in result.stdout
    data = show_json()
    assert data["wins"] == {"Ann": 1, "Bob": 0}
    assert data["hands"][0]["result"] == "knock"
    assert data["hands"][0]["games"] == [1]
    assert data["games"][0]["entered"] == {"Ann": True, "Bob": False}
    run("gin", "ann", "0")
    assert show_json()["hands"][1]["games"] == [1, 2]


def test_tie_undercut_is_the_default(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("knock", "ann", "7", "7")
    assert show_json()["hands"][0]["result"] == "undercut"
    assert points(show_json) == [25]


def test_big_gin(run: Run, show_json, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--big-gin-bonus", "31", "--dealer", "Ann")
    result = run("gin", "ann", "10", "--big")
    assert "Big gin: Ann scores 31 + 10 = 41 in game I." in result.stdout
    assert show_json()["hands"][0]["result"] == "big_gin"


def test_oklahoma_spade_doubles_the_undercut(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--oklahoma", "--dealer", "Ann")
    result = run("knock", "ann", "6", "4", "--upcard", "8♠")
    assert "Undercut: Bob scores (6 − 4 + 25) × 2 = 54 in game I." in result.stdout
    assert points(show_json) == [54]
    assert show_json()["hands"][0]["entered"]["upcard"] == "8♠"


def test_oklahoma_gin_on_a_spade_doubles_the_bonus_too(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--oklahoma", "--dealer", "Ann")
    run("gin", "ann", "10", "-u", "qS")
    run("gin", "ann", "10", "-u", "Qh")
    assert points(show_json) == [70, 35]
    assert [h["entered"]["upcard"] for h in show_json()["hands"]] == ["Q♠", "Q♥"]


@pytest.mark.parametrize(
    ("upcard", "knock_with", "ok"),
    [
        ("7d", "7", True),
        ("7d", "8", False),
        ("10c", "10", True),
        ("Td", "10", True),
        ("kh", "10", True),
        ("2h", "2", True),
        ("2h", "3", False),
    ],
)
def test_oklahoma_knock_limit_is_the_upcard(
    run: Run, hgin_home: Path, upcard: str, knock_with: str, ok: bool
) -> None:
    run("new", "Ann", "Bob", "--oklahoma", "--dealer", "Ann")
    before = snapshot(hgin_home)
    result = run("knock", "ann", knock_with, "40", "--upcard", upcard)
    assert result.exit_code == (0 if ok else 1)
    if not ok:
        limit = int(knock_with) - 1
        assert result.stderr == (
            f"hgin: with the upcard {upcard}, the knocker's deadwood must be between 1 and "
            f"{limit}, not {knock_with}\n"
        )
        assert snapshot(hgin_home) == before


def test_oklahoma_ace_gin_only_and_ace_one(run: Run, hgin_home: Path, show_json) -> None:
    run("new", "Ann", "Bob", "--oklahoma", "--dealer", "Ann")
    refused = run("knock", "ann", "1", "40", "--upcard", "As")
    assert refused.exit_code == 1
    assert refused.stderr == "hgin: no knocking in this hand: an ace upcard means gin only\n"
    missing = run("knock", "ann", "3", "40")
    assert missing.exit_code == 1
    assert "give the upcard" in missing.stderr
    bad_card = run("knock", "ann", "3", "40", "--upcard", "1s")
    assert bad_card.exit_code == 1
    assert "'1s' is not a card" in bad_card.stderr
    run("new", "Cy", "Di", "--oklahoma", "--oklahoma-ace", "one", "--dealer", "Cy")
    assert run("knock", "cy", "1", "40", "--upcard", "Ah").exit_code == 0
    over = run("knock", "cy", "2", "40", "--upcard", "Ah")
    assert over.exit_code == 1
    assert over.stderr == "hgin: with the upcard Ah, the knocker's deadwood must be 1, not 2\n"
    assert points(show_json) == [39]


def test_straight_gin_refuses_knocks(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--straight", "--dealer", "Ann")
    before = snapshot(hgin_home)
    result = run("knock", "ann", "3", "20")
    assert result.exit_code == 1
    assert result.stderr == "hgin: Straight Gin has no knocks: only gin ends a hand\n"
    assert snapshot(hgin_home) == before
    assert run("gin", "ann", "20").exit_code == 0


def test_next_open_entry_lets_a_shut_out_player_enter_game_two(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--entry", "next-open", "--dealer", "Ann")
    run("gin", "ann", "80")  # game I closes 105-0 before Bob has won a hand
    result = run("gin", "bob", "10")
    assert "Gin: Bob scores 25 + 10 = 35 in game II." in result.stdout
    data = show_json()
    assert [g["scores"]["Bob"] for g in data["games"]] == [0, 35, 0]
    run("gin", "bob", "10")
    assert show_json()["hands"][-1]["games"] == [2, 3]


def test_count_entry_loses_that_win(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "80")
    result = run("gin", "bob", "10")
    assert "entered nowhere" in result.stdout
    assert [g["scores"]["Bob"] for g in show_json()["games"]] == [0, 0, 0]


def test_classic_shutout_in_game_one_is_200_plus_boxes(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--rules", "classic", "--dealer", "Ann")
    run("gin", "ann", "40")
    result = run("gin", "ann", "40")
    assert "game I closes, Ann wins it (game bonus 200; Bob shut out; boxes Ann 50)" in flat(
        result.stdout
    )
    game = show_json()["games"][0]
    assert game["scores"] == {"Ann": 130, "Bob": 0}
    assert game["bonuses"] == {"Ann": 200 + 2 * 25, "Bob": 0}
    assert show_json()["totals"]["Ann"] == 130 + 250 + 65


def test_shutout_double_doubles_the_winners_game_total(run: Run, show_json) -> None:
    run(
        "new",
        "Ann",
        "Bob",
        "--shutout",
        "double",
        "--game-bonus",
        "100",
        "--box-bonus",
        "25",
        "--dealer",
        "Ann",
    )
    run("gin", "ann", "80")
    game = show_json()["games"][0]
    # 105 points + 100 game + 25 box = 230, doubled: a further 230.
    assert game["bonuses"]["Ann"] == 100 + 25 + 230
    assert game["scores"]["Ann"] + game["bonuses"]["Ann"] == 460


def test_shutout_none_pays_the_plain_game_bonus(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--rules", "classic", "--shutout", "none", "--dealer", "Ann")
    run("gin", "ann", "80")
    assert show_json()["games"][0]["bonuses"]["Ann"] == 125


def test_box_and_game_bonus_values(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--box-bonus", "20", "--game-bonus", "50", "--dealer", "Ann")
    run("knock", "bob", "2", "12")
    run("gin", "ann", "80")
    game = show_json()["games"][0]
    assert game["bonuses"] == {"Ann": 50 + 20, "Bob": 20}
    assert show_json()["totals"] == {"Ann": 105 + 70, "Bob": 10 + 20}


def test_decide_net_picks_the_larger_sheet_total(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--decide", "net", "--dealer", "Ann")
    run("gin", "bob", "70")  # I: Bob 95
    run("gin", "ann", "75")  # I: Ann 100, closes for Ann
    run("gin", "bob", "70")  # II: Bob 95
    run("gin", "ann", "75")  # II: Ann 100, closes for Ann
    run("gin", "bob", "98")  # III: Bob 123, closes for Bob
    data = show_json()
    assert data["finished"] is True
    assert [g["winner"] for g in data["games"]] == ["Ann", "Ann", "Bob"]
    assert data["totals"] == {"Ann": 200, "Bob": 95 + 95 + 123}
    assert data["winner"] == "Bob"
    assert "Match over: Bob wins on the sheet total, 313 to 200." in run("show").stdout


def test_five_games_need_three(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--games", "5", "--target", "50", "--dealer", "Ann")
    for _ in range(5):
        run("gin", "ann", "30")
    data = show_json()
    assert [g["scores"]["Ann"] for g in data["games"]] == [55, 55, 55, 55, 55]
    assert data["finished"] is True
    assert data["winner"] == "Ann"


@pytest.mark.parametrize(
    ("flags", "dealers"),
    [
        (("--dealer-rule", "loser"), ["Ann", "Ann", "Bob", "Bob"]),
        (("--dealer-rule", "winner", "--redeal", "other"), ["Ann", "Bob", "Ann", "Ann"]),
        (("--redeal", "same"), ["Ann", "Bob", "Bob", "Ann"]),
    ],
)
def test_dealer_rules(run: Run, show_json, flags: tuple[str, ...], dealers: list[str]) -> None:
    run("new", "Ann", "Bob", *flags, "--dealer", "Ann")
    run("gin", "bob", "1")
    run("draw")
    run("gin", "ann", "1")
    data = show_json()
    assert [h["dealer"] for h in data["hands"]] + [data["dealer"]] == dealers


def test_rules_command_shows_and_json(run: Run) -> None:
    run("new", "Ann", "Bob", "--rules", "classic", "--target", "250", "--dealer", "Ann")
    result = run("rules")
    assert result.exit_code == 0
    assert "classic" in result.stdout
    assert "box-bonus" in result.stdout
    data = json.loads(run("rules", "--json").stdout)
    assert data["target"] == 250
    assert data["game_bonus"] == 100
    assert data["shutout"] == "bonus"


def test_rules_set_rescores_every_hand(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("knock", "ann", "3", "1")
    run("gin", "bob", "50")
    result = run("rules", "set", "undercut-bonus", "10")
    assert result.exit_code == 0
    assert "Rule changed: undercut-bonus 25 → 10; every hand re-scored." in result.stdout
    assert "Game I: Bob 102 → 87, open again." in flat(result.stdout)
    assert points(show_json) == [12, 75]
    assert show_json()["rules"]["undercut_bonus"] == 10
    result = run("rules", "set", "target", "80")
    assert "Game I: won by Bob." in result.stdout
    assert show_json()["games"][0]["winner"] == "Bob"


def test_rules_set_refuses_a_change_that_breaks_a_hand(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    run("knock", "bob", "9", "20")
    before = snapshot(hgin_home)
    result = run("rules", "set", "straight", "on")
    assert result.exit_code == 1
    assert result.stderr == "hgin: hand 2: Straight Gin has no knocks: only gin ends a hand\n"
    result = run("rules", "set", "oklahoma", "on")
    assert result.stderr.startswith("hgin: hand 1: this is an Oklahoma match: give the upcard")
    assert run("rules", "set", "games", "2").exit_code == 1
    assert run("rules", "set", "colour", "red").stderr.startswith("hgin: unknown rule option")
    assert run("rules", "set", "target", "lots").stderr == (
        "hgin: target takes a whole number, not 'lots'\n"
    )
    # A negative value is a value, refused by its range; an unknown option is a usage error.
    result = run("rules", "set", "gin-bonus", "-5")
    assert (result.exit_code, result.stderr) == (
        1,
        "hgin: gin-bonus must be between 0 and 10000, not -5\n",
    )
    for words in (["--bogus", "5"], ["gin-bonus", "5", "--bogus"], ["gin-bonus", "--bogus"]):
        result = run("rules", "set", *words)
        assert result.exit_code == 2 and "hgin: no option --bogus" in result.stderr, words
    assert snapshot(hgin_home) == before


def test_rules_set_that_would_end_the_match_earlier_is_refused(run: Run) -> None:
    run("new", "Ann", "Bob", "--games", "1", "--dealer", "Ann")
    run("gin", "ann", "30")
    run("gin", "ann", "30")
    result = run("rules", "set", "target", "50")
    assert result.exit_code == 1
    assert result.stderr == "hgin: hand 2 comes after the match ended at hand 1\n"


def test_presets_save_list_and_use(run: Run, show_json) -> None:
    result = run("rules", "save", "pub", "--gin-bonus", "20", "--tie=knocker", "--straight")
    assert result.exit_code == 0, result.output
    listed = json.loads(run("rules", "--list", "--json").stdout)
    assert set(listed) == {"friendly", "classic", "pub"}
    assert listed["pub"]["gin_bonus"] == 20
    assert listed["pub"]["straight"] is True
    table = run("rules", "--list").stdout
    assert "pub" in table
    assert "gin-bonus 20, tie knocker, straight on" in table
    run("new", "Ann", "Bob", "--rules", "pub", "--dealer", "Ann")
    data = show_json()
    assert data["rules"]["profile"] == "pub"
    assert data["rules"]["tie"] == "knocker"
    run("gin", "ann", "10")
    assert points(show_json) == [30]


def test_preset_from_classic_base(run: Run) -> None:
    assert run("rules", "save", "club", "--base", "classic", "--box-bonus", "20").exit_code == 0
    listed = json.loads(run("rules", "--list", "--json").stdout)
    assert listed["club"]["box_bonus"] == 20
    assert listed["club"]["game_bonus"] == 100


@pytest.mark.parametrize(
    ("args", "message", "status"),
    [
        (("rules", "save", "friendly"), "'friendly' is a built-in profile", 1),
        (("rules", "save", "9lives"), "'9lives' cannot name a preset", 1),
        (("rules", "save", "x", "--oklahoma", "--straight"), "cannot both be on", 1),
        (("rules", "save", "x", "--target", "0"), "target must be between 1 and 100000", 1),
        (("rules", "save", "x", "--gin-bonus"), "option '--gin-bonus' requires an argument", 2),
        (("rules", "save", "x", "--shutout", "maybe"), "hgin: --shutout: 'maybe' is not one", 2),
        (("rules", "save", "x", "--bogus", "1"), "hgin: no option --bogus", 2),
    ],
)
def test_preset_refusals(
    run: Run, hgin_home: Path, args: tuple[str, ...], message: str, status: int
) -> None:
    result = run(*args)
    assert result.exit_code == status
    assert message in flat(result.stderr)
    assert snapshot(hgin_home) == {}


def test_saving_over_a_preset_needs_force(run: Run, hgin_home: Path) -> None:
    assert run("rules", "save", "pub", "--gin-bonus", "20").exit_code == 0
    before = snapshot(hgin_home)
    result = run("rules", "save", "pub", "--tie", "knocker")
    assert result.exit_code == 1
    assert result.stderr == "hgin: a preset 'pub' exists already: add --force to replace it\n"
    assert snapshot(hgin_home) == before
    assert run("rules", "save", "PUB", "--force", "--tie", "knocker").exit_code == 0
    listed = json.loads(run("rules", "--list", "--json").stdout)
    assert (listed["pub"]["gin_bonus"], listed["pub"]["tie"]) == (25, "knocker")
