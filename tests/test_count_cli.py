"""`hgin count` through the real command line: melds, deadwood, discard, big gin, layoffs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, snapshot

SEED_000 = "4♥ 5♥ 6♥ 9♣ 9♦ 9♠ A♣ 2♣ 3♣ K♦ 7♥"
KNOCKER = "5h 6h 7h Ks Kd Kc Ac 2c 3c 4d"  # melds A-2-3♣, 5-6-7♥, K♠ K♦ K♣; 4♦ left: 4


def count_json(run: Run, *args: str) -> dict[str, Any]:
    result = run("count", *args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_seed_000_hand_discards_the_king_and_is_gin(run: Run, hgin_home: Path) -> None:
    assert count_json(run, SEED_000) == {
        "deadwood": 0,
        "melds": [["A♣", "2♣", "3♣"], ["4♥", "5♥", "6♥", "7♥"], ["9♣", "9♦", "9♠"]],
        "deadwood_cards": [],
        "discard": "K♦",
        "big_gin": False,
    }
    result = run("count", *SEED_000.split())
    assert result.exit_code == 0
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines == [
        "Your 11 cards",
        "Discard   K♦ (the best of the eleven)",
        "Melds     A♣ 2♣ 3♣",
        "          4♥ 5♥ 6♥ 7♥",
        "          9♣ 9♦ 9♠",
        "Deadwood  0: gin",
        "Big gin   no",
    ]
    assert snapshot(hgin_home) == {}  # no match needed, nothing written


def test_ten_cards_json_has_exactly_the_three_keys(run: Run) -> None:
    data = count_json(run, "7h 8h 9h 7s 7d 2c 3c Kd Qs As")
    # 7♥ fits a set and a run: the run leaves 7♠ 7♦ (14), the set would leave 8♥ 9♥ (17)
    assert data == {
        "deadwood": 40,
        "melds": [["7♥", "8♥", "9♥"]],
        "deadwood_cards": ["A♠", "2♣", "3♣", "7♦", "7♠", "Q♠", "K♦"],
    }


def test_a_card_in_both_a_set_and_a_run_goes_where_it_saves_most(run: Run) -> None:
    data = count_json(run, "7h 8h 9h 7s 7d 7c 2c 3c Kd Qs")
    # all four sevens as a set would strand 8♥ 9♥; the run takes 7♥ and the set keeps three
    assert data["deadwood"] == 25
    assert data["melds"] == [["7♣", "7♦", "7♠"], ["7♥", "8♥", "9♥"]]
    assert data["deadwood_cards"] == ["2♣", "3♣", "Q♠", "K♦"]


def test_queen_king_ace_is_not_a_run_but_ace_two_three_is(run: Run) -> None:
    assert count_json(run, "Qh Kh Ah 2s 3s 4s 5d 6d 7d 9c") == {
        "deadwood": 30,
        "melds": [["2♠", "3♠", "4♠"], ["5♦", "6♦", "7♦"]],
        "deadwood_cards": ["A♥", "9♣", "Q♥", "K♥"],
    }
    assert count_json(run, "Ah 2h 3h 2s 3s 4s 5d 6d 7d 9c")["deadwood"] == 9


def test_spellings_and_separators_all_give_the_same_count(run: Run) -> None:
    one = count_json(run, "8d 9d Td 10s 10c 2h,3h 4h  Ks 5c")
    two = count_json(run, "8D", "9♦", "t♦", "TS", "10C", "2♥", "3h", "4H", "k♠", "5♣")
    assert one == two
    # the set of tens (leaving 8♦ 9♦: 17) beats the run 8-9-10♦ (leaving two tens: 20)
    assert one == {
        "deadwood": 32,
        "melds": [["2♥", "3♥", "4♥"], ["10♣", "10♦", "10♠"]],
        "deadwood_cards": ["5♣", "8♦", "9♦", "K♠"],
    }


def test_big_gin_when_all_eleven_meld(run: Run) -> None:
    hand = "5h 6h 7h 8h 9s 9d 9c Ac 2c 3c 4c"
    data = count_json(run, hand)
    assert data["big_gin"] is True
    assert data["deadwood"] == 0
    assert data["discard"] == "8♥"  # among discards that keep gin, the highest value
    out = run("count", hand).stdout
    assert "Big gin   yes: all eleven meld" in out
    assert "5♥ 6♥ 7♥ 8♥" in out


def test_chained_layoffs_and_the_verdict(run: Run) -> None:
    data = count_json(run, KNOCKER, "--opponent", "8h 9h 2s 3d 4s Qs Qd Jd 5c 6c")
    assert data["deadwood"] == 4
    assert data["gin"] is False
    assert data["opponent"] == {
        "deadwood": 50,
        "melds": [],
        "layoffs": [
            {"card": "8♥", "onto": ["5♥", "6♥", "7♥"]},
            {"card": "9♥", "onto": ["5♥", "6♥", "7♥", "8♥"]},
        ],
        "deadwood_cards": ["2♠", "3♦", "4♠", "5♣", "6♣", "J♦", "Q♦", "Q♠"],
    }
    out = run("count", KNOCKER, "-o", "8h 9h 2s 3d 4s Qs Qd Jd 5c 6c").stdout
    assert "Lays off  8♥ onto 5♥ 6♥ 7♥" in out
    assert "          9♥ onto 5♥ 6♥ 7♥ 8♥" in out
    assert "Knock: 4 against 50 after layoffs; the knocker wins 46." in out


def test_the_fourth_card_of_a_set_is_laid_off(run: Run) -> None:
    data = count_json(run, KNOCKER, "--opponent", "Kh 2s 3d 4s Qs Qd Jd 5c 6c 9d")
    assert data["opponent"]["layoffs"] == [{"card": "K♥", "onto": ["K♣", "K♦", "K♠"]}]
    assert data["opponent"]["deadwood"] == 59


def test_no_layoffs_against_gin(run: Run) -> None:
    gin = "5h 6h 7h Ks Kd Kc Ac 2c 3c 4c"
    data = count_json(run, gin, "--opponent", "8h 9h Kh 2s 3d 4s Qs Qd 5c 6c")
    assert data["gin"] is True
    assert data["opponent"]["layoffs"] == []
    assert data["opponent"]["deadwood"] == 67
    out = run("count", gin, "--opponent", "8h 9h Kh 2s 3d 4s Qs Qd 5c 6c").stdout
    assert "Lays off  nothing: no layoffs against gin" in out
    assert "Gin: no layoffs against gin; the opponent counts 67." in out


def test_undercut_and_over_the_limit_verdicts(run: Run) -> None:
    opponent = ("--opponent", "8h 9h Qs Qd Qc 4s 4d 4c As 7c")
    out = run("count", "5h 6h 7h Ks Kd Kc Ac 2c 3c Td", *opponent).stdout
    verdict = "Undercut: 10 against 8 after layoffs; the opponent wins 2 plus the undercut bonus."
    assert out.splitlines()[-1] == verdict
    out = run("count", "5h 6h 7h Ks Kd Kc Ac 2c Jd Td", *opponent).stdout
    verdict = "No knock: deadwood 23 is over the usual limit of 10; the opponent would count 8"
    assert out.splitlines()[-1] == f"{verdict} after layoffs."


def test_eleven_cards_against_the_opponent_use_the_best_discard(run: Run) -> None:
    data = count_json(run, SEED_000, "--opponent", "Js Qs Ks Td Th Tc 2d 3h 5s 8s")
    assert data["discard"] == "K♦"
    assert data["gin"] is True
    assert data["opponent"]["deadwood"] == 18


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("7h 8h 9h 7s 7d 2c 3c Kd Qs",), "the cards: expected 10 or 11 cards, got 9"),
        (("7h 8h 9h 7s 7d 2c 3c Kd Qs As Ah Ad",), "expected 10 or 11 cards, got 12"),
        (("7h 8h 9h 7s 7d 2c 3c Kd Qs 7H",), "the cards: 7♥ is given twice"),
        (("7h 8h 9h 7s 7d 2c 3c Kd Qs 1h",), "'1h' is not a card"),
        (("7h 8h 9h 7s 7d 2c 3c Kd Qs Zx",), "'Zx' is not a card"),
        ((KNOCKER, "--opponent", "8h 9h 2s"), "the opponent's cards: expected 10 cards, got 3"),
        ((KNOCKER, "-o", "4d 9h 2s 3d 4s Qs Qd Jd 5c 6c"), "4♦ is in both hands"),
        ((SEED_000, "-o", "Kd Qs Ks Td Th Tc 2d 3h 5s 8s"), "K♦ is in both hands"),
    ],
)
def test_refusals_name_the_card_and_write_nothing(
    run: Run, hgin_home: Path, args: tuple[str, ...], message: str
) -> None:
    result = run("count", *args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
    assert snapshot(hgin_home) == {}


def test_no_cards_is_a_usage_error(run: Run) -> None:
    assert run("count").exit_code == 2


def test_readable_at_sixty_columns(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    result = run("count", SEED_000, "--opponent", "Js Qs Ks Td Th Tc 2d 3h 5s 8s")
    assert result.exit_code == 0
    assert all(len(line) <= 60 for line in result.stdout.splitlines())
    assert "Deadwood  2♦ 3♥ 5♠ 8♠ = 18" in result.stdout


def test_plain_lines_match_what_the_command_prints(run: Run) -> None:
    from hgin.engine.card_entry import count_hand
    from hgin.reports.card_text import hand_count_blocks, plain_lines

    opponent = "Js Qs Ks Td Th Tc 2d 3h 5s 8s"
    printed = run("count", SEED_000, "--opponent", opponent).stdout.splitlines()
    lines = plain_lines(*hand_count_blocks(count_hand(SEED_000, opponent)))
    assert [line.rstrip() for line in printed] == lines
    assert lines[-1] == "Gin: no layoffs against gin; the opponent counts 18."
