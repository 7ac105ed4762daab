"""The pure rules engine: one hand's award and the three-game sheet, exact numbers."""

from __future__ import annotations

import pytest

from hgin.engine.hands import Hand, hand_award
from hgin.engine.rules import PROFILES, Rules
from hgin.engine.sheet import replay
from hgin.errors import HginError
from hgin.reports.narrate import formula

PLAYERS = ("Ann", "Bob")
FRIENDLY = PROFILES["friendly"]
CLASSIC = PROFILES["classic"]


def gin(player: str, theirs: int, **extra: str) -> Hand:
    return Hand("gin", player=player, opponent_deadwood=theirs, **extra)


def knock(player: str, mine: int, theirs: int, **extra: str) -> Hand:
    return Hand("knock", player=player, deadwood=mine, opponent_deadwood=theirs, **extra)


DRAW = Hand("draw")


@pytest.mark.parametrize(
    ("hand", "result", "winner", "points", "arithmetic"),
    [
        (gin("Ann", 18), "gin", "Ann", 43, "25 + 18 = 43"),
        (gin("Bob", 0), "gin", "Bob", 25, "25 + 0 = 25"),
        (knock("Ann", 4, 34), "knock", "Ann", 30, "34 − 4 = 30"),
        (knock("Bob", 9, 7), "undercut", "Ann", 27, "9 − 7 + 25 = 27"),
        (knock("Bob", 7, 7), "undercut", "Ann", 25, "7 − 7 + 25 = 25"),
        (knock("Ann", 10, 98), "knock", "Ann", 88, "98 − 10 = 88"),
        (knock("Ann", 1, 0), "undercut", "Bob", 26, "1 − 0 + 25 = 26"),
        (DRAW, "draw", None, 0, "no score"),
    ],
)
def test_hand_awards(
    hand: Hand, result: str, winner: str | None, points: int, arithmetic: str
) -> None:
    award = hand_award(FRIENDLY, PLAYERS, hand)
    assert (award.result, award.winner, award.points, formula(award)) == (
        result,
        winner,
        points,
        arithmetic,
    )


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (knock("Ann", 11, 20), "between 1 and 10, not 11"),
        (knock("Ann", 0, 20), "a knock with 0 deadwood is a gin"),
        (knock("Ann", -1, 20), "between 1 and 10, not -1"),
        (knock("Ann", 5, 99), "between 0 and 98, not 99"),
        (gin("Ann", -1), "between 0 and 98, not -1"),
        (gin("Ann", 99), "between 0 and 98, not 99"),
        (gin("Cy", 10), "'Cy' is not a player"),
        (Hand("big_gin", player="Ann", opponent_deadwood=5), "big gin is not played"),
        (Hand("draw", player="Ann"), "a dead hand has no winner"),
        (
            Hand("gin", player="Ann", opponent_deadwood=5, upcard="7s"),
            "only entered in an Oklahoma",
        ),
    ],
)
def test_invalid_hands_are_refused(hand: Hand, message: str) -> None:
    with pytest.raises(HginError, match=message):
        hand_award(FRIENDLY, PLAYERS, hand)


def test_seed_000_worked_example() -> None:
    sheet = replay(PLAYERS, FRIENDLY, "Bob", [knock("Ann", 4, 34), gin("Ann", 18)])
    assert [g.scores["Ann"] for g in sheet.games] == [73, 43, 0]
    sheet = replay(
        PLAYERS, FRIENDLY, "Bob", [knock("Ann", 4, 34), gin("Ann", 18), knock("Ann", 3, 38)]
    )
    assert [g.scores["Ann"] for g in sheet.games] == [108, 78, 35]
    assert [g.winner for g in sheet.games] == ["Ann", None, None]
    assert sheet.hands[-1].games == (1, 2, 3)
    assert sheet.wins == {"Ann": 3, "Bob": 0}
    assert not sheet.finished


def test_opponent_wins_do_not_open_your_games() -> None:
    sheet = replay(PLAYERS, FRIENDLY, "Ann", [gin("Ann", 5), gin("Ann", 5), gin("Bob", 10)])
    assert [g.scores["Bob"] for g in sheet.games] == [35, 0, 0]
    assert [g.entered["Bob"] for g in sheet.games] == [True, False, False]
    assert [g.entered["Ann"] for g in sheet.games] == [True, True, False]


def test_win_into_closed_games_only_is_entered_nowhere_but_counts() -> None:
    hands = [gin("Ann", 75), gin("Bob", 0), gin("Bob", 0)]
    sheet = replay(PLAYERS, FRIENDLY, "Ann", hands)
    assert sheet.games[0].winner == "Ann"
    assert sheet.hands[1].games == ()
    assert sheet.hands[2].games == (2,)
    assert sheet.wins["Bob"] == 2
    assert [g.scores["Bob"] for g in sheet.games] == [0, 25, 0]


def test_match_ends_when_every_game_closes_and_majority_wins() -> None:
    hands = [gin("Ann", 75), gin("Ann", 75), gin("Bob", 98), gin("Bob", 98), gin("Bob", 98)]
    sheet = replay(PLAYERS, FRIENDLY, "Ann", hands)
    assert [g.winner for g in sheet.games] == ["Ann", "Ann", "Bob"]
    assert sheet.finished
    assert sheet.winner == "Ann"
    with pytest.raises(HginError, match="hand 6 comes after the match ended at hand 5"):
        replay(PLAYERS, FRIENDLY, "Ann", [*hands, DRAW])


def test_single_game_match() -> None:
    rules = FRIENDLY._replace(games=1)
    sheet = replay(PLAYERS, rules, "Ann", [gin("Bob", 60), gin("Ann", 10), gin("Bob", 20)])
    assert sheet.finished
    assert sheet.winner == "Bob"
    assert sheet.games[0].scores == {"Ann": 35, "Bob": 130}


def test_classic_closing_bonuses_and_totals() -> None:
    # Ann wins game I with two hands in it; Bob won one hand there.
    hands = [gin("Ann", 25), knock("Bob", 2, 12), gin("Ann", 40)]
    sheet = replay(PLAYERS, CLASSIC, "Ann", hands)
    game = sheet.games[0]
    assert game.scores == {"Ann": 115, "Bob": 10}
    assert game.winner == "Ann"
    assert game.bonuses == {"Ann": 100 + 2 * 25, "Bob": 25}
    assert sheet.totals == {"Ann": 115 + 150 + 65, "Bob": 10 + 25}


def test_classic_shutout_doubles_the_game_bonus() -> None:
    sheet = replay(PLAYERS, CLASSIC, "Ann", [gin("Ann", 98)])
    game = sheet.games[0]
    assert game.scores == {"Ann": 123, "Bob": 0}
    assert game.bonuses == {"Ann": 200 + 25, "Bob": 0}
    assert sheet.hands[0].closings[0].shutout


@pytest.mark.parametrize(
    ("rules", "dealers"),
    [
        (FRIENDLY, ["Ann", "Bob", "Ann", "Bob", "Ann"]),
        (CLASSIC, ["Ann", "Bob", "Bob", "Ann", "Ann"]),
    ],
)
def test_dealer_sequence(rules: Rules, dealers: list[str]) -> None:
    hands = [gin("Bob", 1), DRAW, gin("Ann", 1), gin("Ann", 1)]
    sheet = replay(PLAYERS, rules, "Ann", hands)
    assert [p.dealer for p in sheet.hands] + [sheet.dealer] == dealers


def test_zero_point_win_still_counts_as_a_win() -> None:
    rules = FRIENDLY._replace(tie="knocker")
    sheet = replay(PLAYERS, rules, "Ann", [knock("Ann", 7, 7)])
    assert sheet.hands[0].award.result == "knock"
    assert sheet.hands[0].award.points == 0
    assert sheet.wins["Ann"] == 1
    assert sheet.games[0].entered["Ann"]


def test_a_hand_entered_under_earlier_rules_is_checked_under_them() -> None:
    from hgin.engine.journal import Change
    from hgin.engine.match import Match

    upcard = Change(1, "t", "record", "", {"hand": gin("Ann", 5, upcard="7♠")})
    oklahoma = Change(2, "t", "rules", "", {"old": {"oklahoma": False}, "new": {"oklahoma": True}})
    with pytest.raises(HginError, match=r"^change 1 \(record\): an upcard is only entered in an"):
        Match("m", PLAYERS, FRIENDLY, "Ann", "t", (upcard, oklahoma))
    alone = oklahoma._replace(number=1)
    assert Match("m", PLAYERS, FRIENDLY, "Ann", "t", (alone,)).rules.oklahoma
