"""Recording gin and knock from the cards (`--hand`, `--opponent`) through the real CLI."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hgin.cards.model import SUITS, Card, format_cards, full_deck
from hgin.engine.hands import Hand
from hgin.scorekeeper import ScoreKeeper
from tests.conftest import Run, snapshot

ShowJson = Callable[..., dict[str, Any]]

KNOCKER = "5h 6h 7h Ks Kd Kc Ac 2c 3c 4d"  # melds A-2-3♣, 5-6-7♥, K♠ K♦ K♣; 4♦ left: 4
CHAINED = "8h 9h 2s 3d 4s Qs Qd Jd 5c 6c"  # lays off 8♥ then 9♥; 50 left
ALL_MELDED = "4♥ 5♥ 6♥ 7♥ 9♣ 9♦ 9♠ A♣ 2♣ 3♣"  # the friendly rule book's gin, K♦ discarded


def new_match(run: Run, *extra: str) -> None:
    result = run("new", "Ann", "Bob", "--dealer", "Bob", *extra)
    assert result.exit_code == 0, result.output


def entered(show_json: ShowJson, index: int = -1) -> dict[str, Any]:
    hand: dict[str, Any] = show_json()["hands"][index]
    return hand


def stored_hand(hgin_home: Path) -> dict[str, Any]:
    """The last hand recorded in the match file's journal, as stored on disk."""
    (path,) = (hgin_home / "matches").glob("*.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    recorded = [c["hand"] for c in data["journal"] if c["kind"] == "record"]
    last: dict[str, Any] = recorded[-1]
    return last


def test_seed_000_example_entered_from_the_cards(run: Run, show_json: ShowJson) -> None:
    new_match(run)
    result = run("knock", "a", "--hand", KNOCKER, "--opponent", "8h 9h 2s 3d 4s 5c 6c Jd Ad 3h")
    assert result.exit_code == 0, result.output
    assert "Knock: Ann scores 34 − 4 = 30 in game I." in result.stdout
    result = run("gin", "ann", "--hand", ALL_MELDED, "--opponent", "Js Qs Ks Td Th Tc 2d 3h 5s 8s")
    assert result.exit_code == 0, result.output
    assert "Gin: Ann scores 25 + 18 = 43 in games I and II." in result.stdout
    hand3 = (
        "--hand",
        "5h 6h 7h Ks Kd Kc Ac 2c 3c 3d",
        "--opponent",
        "Kh 4c 2s 4s 9d Jd 5d 6d 2h 8h",
    )
    result = run("knock", "ann", *hand3)
    assert result.exit_code == 0, result.output
    assert "Knock: Ann scores 38 − 3 = 35 in games I, II and III; game I closes, Ann wins it." in (
        result.stdout
    )
    data = show_json()
    assert [g["scores"]["Ann"] for g in data["games"]] == [108, 78, 35]
    assert [h["points"] for h in data["hands"]] == [30, 43, 35]


def test_chained_layoffs_recorded_as_a_knock(
    run: Run, show_json: ShowJson, hgin_home: Path
) -> None:
    new_match(run)
    result = run("knock", "ann", "--hand", KNOCKER, "--opponent", CHAINED)
    assert result.exit_code == 0, result.output
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[:11] == [
        "Ann knocks",
        "Melds     A♣ 2♣ 3♣",
        "          5♥ 6♥ 7♥",
        "          K♣ K♦ K♠",
        "Deadwood  4♦ = 4",
        "",
        "Bob counts",
        "Melds     none",
        "Lays off  8♥ onto 5♥ 6♥ 7♥",
        "          9♥ onto 5♥ 6♥ 7♥ 8♥",
        "Deadwood  2♠ 3♦ 4♠ 5♣ 6♣ J♦ Q♦ Q♠ = 50",
    ]
    assert "Knock: Ann scores 50 − 4 = 46 in game I." in result.stdout
    hand = entered(show_json)
    assert (hand["result"], hand["winner"], hand["points"]) == ("knock", "Ann", 46)
    assert stored_hand(hgin_home) | {"recorded_at": None} == {
        "kind": "knock",
        "player": "Ann",
        "deadwood": 4,
        "opponent_deadwood": 50,
        "hand_cards": "5♥ 6♥ 7♥ K♠ K♦ K♣ A♣ 2♣ 3♣ 4♦",
        "opponent_cards": "8♥ 9♥ 2♠ 3♦ 4♠ Q♠ Q♦ J♦ 5♣ 6♣",
        "recorded_at": None,
    }


def test_cards_record_the_same_as_typed_counts(run: Run, show_json: ShowJson) -> None:
    new_match(run)
    run("knock", "ann", "--hand", KNOCKER, "--opponent", CHAINED)
    by_cards = show_json()
    run("undo")
    run("knock", "ann", "4", "50")
    typed = show_json()
    for key in ("games", "wins", "dealer", "totals"):
        assert by_cards[key] == typed[key]
    assert by_cards["hands"][0]["formula"] == typed["hands"][0]["formula"] == "50 − 4 = 46"


def test_typed_counts_that_agree_are_accepted(run: Run, show_json: ShowJson) -> None:
    new_match(run)
    assert run("knock", "ann", "4", "50", "--hand", KNOCKER, "--opponent", CHAINED).exit_code == 0
    assert run("gin", "bob", "67", "--opponent", "8h 9h Kh 2s 3d 4s Qs Qd 5c 6c").exit_code == 0
    assert [h["points"] for h in show_json()["hands"]] == [46, 92]


def test_the_fourth_card_of_a_set_is_laid_off(run: Run, show_json: ShowJson) -> None:
    new_match(run)
    result = run("knock", "bob", "--hand", KNOCKER, "--opponent", "Kh 2s 3d 4s Qs Qd Jd 5c 6c 9d")
    assert result.exit_code == 0, result.output
    assert "Lays off  K♥ onto K♣ K♦ K♠" in result.stdout
    assert "Knock: Bob scores 59 − 4 = 55 in game I." in result.stdout
    assert entered(show_json)["points"] == 55


def test_no_layoffs_against_gin(run: Run, show_json: ShowJson) -> None:
    new_match(run)
    gin = "5h 6h 7h Ks Kd Kc Ac 2c 3c 4c"
    result = run("gin", "ann", "--hand", gin, "--opponent", "8h 9h Kh 2s 3d 4s Qs Qd 5c 6c")
    assert result.exit_code == 0, result.output
    assert "Lays off  nothing: no layoffs against gin" in result.stdout
    assert "Deadwood  2♠ 3♦ 4♠ 5♣ 6♣ 8♥ 9♥ Q♦ Q♠ K♥ = 67" in result.stdout
    assert "Gin: Ann scores 25 + 67 = 92 in game I." in result.stdout
    assert entered(show_json)["points"] == 92


def test_gin_from_the_opponents_cards_alone(run: Run, hgin_home: Path) -> None:
    new_match(run)
    result = run("gin", "bob", "-o", "Js Qs Ks Td Th Tc 2d 3h 5s 8s")
    assert result.exit_code == 0, result.output
    assert "Bob goes gin" not in result.stdout  # Bob's cards were not given
    assert "Ann counts" in result.stdout
    assert "Melds     10♣ 10♦ 10♥" in result.stdout
    assert "Gin: Bob scores 25 + 18 = 43 in game I." in result.stdout
    assert "hand_cards" not in stored_hand(hgin_home)
    assert stored_hand(hgin_home)["opponent_cards"] == "J♠ Q♠ K♠ 10♦ 10♥ 10♣ 2♦ 3♥ 5♠ 8♠"


def test_an_undercut_from_the_cards(run: Run, show_json: ShowJson) -> None:
    new_match(run)
    hand = "5h 6h 7h Ks Kd Kc Ac 2c 3c Td"
    result = run("knock", "ann", "--hand", hand, "--opponent", "8h 9h Qs Qd Qc 4s 4d 4c As 7c")
    assert result.exit_code == 0, result.output
    assert "Undercut: Bob scores 10 − 8 + 25 = 27 in game I." in result.stdout
    assert (entered(show_json)["result"], entered(show_json)["winner"]) == ("undercut", "Bob")


def test_big_gin_checks_all_eleven(run: Run, show_json: ShowJson) -> None:
    new_match(run, "--big-gin-bonus", "31")
    big = "5h 6h 7h 8h 9s 9d 9c Ac 2c 3c 4c"
    result = run(
        "gin", "ann", "--big", "--hand", big, "--opponent", "Js Qs Ks Td Th Tc 2d 3h 5s 8s"
    )
    assert result.exit_code == 0, result.output
    assert "Ann goes big gin" in result.stdout
    assert "Big gin: Ann scores 31 + 18 = 49 in game I." in result.stdout
    assert entered(show_json)["result"] == "big_gin"


def test_oklahoma_upcard_sets_the_limit_and_spades_double(run: Run, show_json: ShowJson) -> None:
    new_match(run, "--oklahoma")
    result = run("knock", "ann", "--hand", KNOCKER, "--opponent", CHAINED, "--upcard", "7s")
    assert result.exit_code == 0, result.output
    assert "Knock: Ann scores (50 − 4) × 2 = 92 in game I." in result.stdout
    over = "5h 6h 7h Ks Kd Kc Ac 2c 3c 8d"
    result = run("knock", "bob", "--hand", over, "--opponent", CHAINED, "--upcard", "7h")
    assert result.exit_code == 1
    assert result.stderr == (
        "hgin: no knock: these cards leave 8 deadwood (8♦), over the knock limit of 7\n"
    )
    assert len(show_json()["hands"]) == 1


def test_names_are_printed_literally(run: Run) -> None:
    run("new", "[red]Rex[/red]", "[bold]B", "--dealer", "[red]")
    result = run("knock", "[red]", "--hand", KNOCKER, "--opponent", CHAINED)
    assert result.exit_code == 0, result.output
    assert "[red]Rex[/red] knocks" in result.stdout
    assert "[bold]B counts" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("knock", "ann", "--hand", "5h 6h 7h Ks Kd Kc Ac 2c 9d Td", "--opponent", CHAINED),
            "no knock: these cards leave 22 deadwood (A♣ 2♣ 9♦ 10♦), over the knock limit of 10",
        ),
        (
            ("knock", "ann", "--hand", "5h 6h 7h Ks Kd Kc Ac 2c 3c 4c", "--opponent", CHAINED),
            "these cards are a gin (no deadwood), not a knock: record it with 'gin'",
        ),
        (
            ("gin", "ann", "--hand", KNOCKER, "--opponent", CHAINED),
            "not a gin: these cards leave 4 deadwood (4♦); record it as a knock",
        ),
        (
            ("gin", "ann", "--hand", "5h 6h 7h Ks Kd Kc Ac 2c 9d Td", "-o", CHAINED),
            "not a gin: these cards leave 22 deadwood (A♣ 2♣ 9♦ 10♦)\n",
        ),
        (
            ("knock", "ann", "--hand", KNOCKER, "--opponent", "4d 9h 2s 3d 4s Qs Qd Jd 5c 6c"),
            "4♦ is in both hands",
        ),
        (
            ("gin", "ann", "--hand", ALL_MELDED, "--opponent", "4h 9h 2s 3d 4s Qs Qd Jd 5c 6c"),
            "4♥ is in both hands",
        ),
        (
            ("knock", "ann", "5", "--hand", KNOCKER, "--opponent", CHAINED),
            "the cards put the knocker's deadwood at 4, not 5 as typed",
        ),
        (
            ("knock", "ann", "4", "40", "--hand", KNOCKER, "--opponent", CHAINED),
            "the cards put the opponent's deadwood at 50, not 40 as typed",
        ),
        (
            (
                "gin",
                "ann",
                "20",
                "--hand",
                ALL_MELDED,
                "--opponent",
                "Js Qs Ks Td Th Tc 2d 3h 5s 8s",
            ),
            "the cards put the opponent's deadwood at 18, not 20 as typed",
        ),
        (
            ("knock", "ann", "--hand", KNOCKER),
            "a knock is counted from both hands: give --hand and --opponent",
        ),
        (
            ("knock", "ann", "4", "50", "--opponent", CHAINED),
            "a knock is counted from both hands: give --hand and --opponent",
        ),
        (
            ("knock", "ann", "--hand", f"{KNOCKER} 8c", "--opponent", CHAINED),
            "the knocker's cards (the ten kept after the discard): expected 10 cards, got 11",
        ),
        (
            ("gin", "ann", "--hand", f"{ALL_MELDED} Kd", "--opponent", CHAINED),
            "a gin is the ten cards kept after the discard; for all eleven melded use --big",
        ),
        (
            ("gin", "ann", "--hand", "Ac 2c 3c 4c"),
            "a gin's cards (the ten kept after the discard): expected 10 or 11 cards, got 4",
        ),
        (
            ("gin", "ann", "--hand", ALL_MELDED),
            "give the opponent's deadwood or their cards (--opponent)",
        ),
        (
            ("gin", "ann", "-o", "8h 9h 2s 3d 4s Qs Qd Jd 5c 6x"),
            "the opponent's cards: '6x' is not a card",
        ),
        (
            ("gin", "ann", "-o", "8h 9h 2s 3d 4s Qs Qd Jd 5c 8H"),
            "the opponent's cards: 8♥ is given twice",
        ),
        (
            ("gin", "ann", "--big", "--hand", "5h 6h 7h 8h 9s 9d 9c Ac 2c 3c 4c", "-o", "Js Qs"),
            "the opponent's cards: expected 10 cards, got 2",
        ),
        (
            ("gin", "ann", "--big", "-o", "Js Qs Ks Td Th Tc 2d 3h 5s 8s"),
            "big gin is not played in this match",
        ),
        (
            ("gin", "cy", "--hand", ALL_MELDED, "-o", CHAINED),
            "'cy' is not a player in this match",
        ),
    ],
)
def test_refusals_leave_every_file_byte_identical(
    run: Run, hgin_home: Path, args: tuple[str, ...], message: str
) -> None:
    new_match(run)
    run("gin", "bob", "10")
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("gin", "ann", "--big", "--hand", f"{ALL_MELDED} Kd", "-o", CHAINED),
            "not a big gin: the eleven cards do not all meld; discarding K♦ leaves a gin, "
            "so record it without --big",
        ),
        (
            ("gin", "ann", "--big", "--hand", f"{KNOCKER} 8c", "-o", CHAINED),
            "not a big gin: the best discard, 8♣, still leaves 4 deadwood (4♦)",
        ),
        (
            ("gin", "ann", "--big", "--hand", ALL_MELDED, "-o", CHAINED),
            "a big gin's cards: expected 11 cards, got 10",
        ),
    ],
)
def test_big_gin_refusals(run: Run, hgin_home: Path, args: tuple[str, ...], message: str) -> None:
    new_match(run, "--big-gin-bonus", "31")
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert message in result.stderr
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    "args",
    [("gin", "ann"), ("knock", "ann"), ("knock", "ann", "3"), ("gin", "ann", "--hand")],
)
def test_missing_counts_without_cards_are_usage_errors(
    run: Run, hgin_home: Path, args: tuple[str, ...]
) -> None:
    new_match(run)
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 2
    assert snapshot(hgin_home) == before


def test_undo_and_redo_keep_the_cards(run: Run, hgin_home: Path) -> None:
    new_match(run)
    run("knock", "ann", "--hand", KNOCKER, "--opponent", CHAINED)
    assert run("undo").exit_code == 0
    assert run("redo").exit_code == 0
    assert stored_hand(hgin_home)["opponent_cards"] == "8♥ 9♥ 2♠ 3♦ 4♠ Q♠ Q♦ J♦ 5♣ 6♣"


def test_library_entry_points(hgin_home: Path) -> None:
    keeper = ScoreKeeper()
    keeper.new_match("Ann", "Bob", dealer="Ann")
    outcome = keeper.record(Hand("knock", "ann", hand_cards=KNOCKER, opponent_cards=CHAINED))
    assert outcome.message == "Knock: Ann scores 50 − 4 = 46 in game I."
    assert outcome.counted.deadwood == 4
    assert outcome.counted.opponent_deadwood == 50
    theirs = outcome.counted.theirs
    assert theirs is not None
    assert [str(lay.card) for lay in theirs.layoffs] == ["8♥", "9♥"]
    outcome = keeper.record(Hand("gin", "bob", opponent_cards="Js Qs Ks Td Th Tc 2d 3h 5s 8s"))
    assert outcome.message == "Gin: Bob scores 25 + 18 = 43 in game I."
    assert outcome.match.sheet.totals == {"Ann": 46, "Bob": 43}


def melded_deal(rng: random.Random) -> tuple[str, str]:
    """Two hands of ten built from random melds plus loose cards, so that knocks, undercuts,
    gins and hands over the knock limit all turn up."""
    deck = set(full_deck())

    def take_meld() -> list[Card]:
        while True:
            if rng.random() < 0.5:
                suit, start = rng.choice(SUITS), rng.randint(1, 11)
                meld = [Card(rank, suit) for rank in range(start, start + 3)]
            else:
                rank = rng.randint(1, 13)
                meld = [Card(rank, suit) for suit in rng.sample(SUITS, 3)]
            if deck.issuperset(meld):
                deck.difference_update(meld)
                return meld

    def hand(melds: int) -> str:
        cards = [card for _ in range(melds) for card in take_meld()]
        loose = rng.sample(sorted(deck), 10 - len(cards))
        deck.difference_update(loose)
        return format_cards(cards + loose)

    mine = hand(rng.choice((2, 3, 3, 3)))
    return mine, hand(rng.choice((0, 1, 2, 3)))


def test_random_deals_record_what_count_says(run: Run, hgin_home: Path) -> None:
    """On seeded random deals, `knock --hand --opponent` records exactly the counts that
    `count --opponent --json` reports, or refuses (gin, over the limit) and changes nothing."""
    new_match(run)
    rng = random.Random(14)
    outcomes = {"knock": 0, "undercut": 0, "gin": 0, "over": 0}
    for _ in range(30):
        mine, theirs = melded_deal(rng)
        counted = json.loads(run("count", mine, "--opponent", theirs, "--json").stdout)
        knocker, defender = counted["deadwood"], counted["opponent"]["deadwood"]
        before = snapshot(hgin_home)
        result = run("knock", "ann", "--hand", mine, "--opponent", theirs)
        if knocker == 0 or knocker > 10:
            assert result.exit_code == 1
            assert ("a gin" if knocker == 0 else "over the knock limit of 10") in result.stderr
            assert snapshot(hgin_home) == before
            outcomes["gin" if knocker == 0 else "over"] += 1
            continue
        assert result.exit_code == 0, result.output
        if knocker < defender:
            expected = f"Knock: Ann scores {defender} − {knocker} = {defender - knocker} in"
            outcomes["knock"] += 1
        else:
            points = knocker - defender + 25
            expected = f"Undercut: Bob scores {knocker} − {defender} + 25 = {points} in"
            outcomes["undercut"] += 1
        assert expected in result.stdout
        assert run("undo").exit_code == 0
    assert min(outcomes.values()) >= 3, outcomes  # every branch was exercised
