"""Rolling Hollywood: three games in progress, each close opening the next numbered game,
until notice is given. The engine with exact numbers, and its properties (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.engine.hands import Hand
from hgin.engine.rules import PROFILES, Rules, with_options
from hgin.engine.sheet import Sheet, extend, game_name, replay

PLAYERS = ("Ann", "Bob")
ROLLING = with_options(PROFILES["friendly"], {"rolling": True})
CLASSIC_ROLLING = with_options(PROFILES["classic"], {"rolling": True})


def gin(player: str, deadwood: int) -> Hand:
    """A gin: 25 + deadwood points under both profiles."""
    return Hand("gin", player=player, opponent_deadwood=deadwood)


def sheet(*hands: Hand, rules: Rules = ROLLING, notice_after: int | None = None) -> Sheet:
    return replay(PLAYERS, rules, "Ann", hands, notice_after=notice_after)


def scores(result: Sheet) -> dict[str, tuple[int, int, str | None]]:
    """Per game: Ann's points, Bob's points, the winner, keyed by roman numeral."""
    return {game_name(g.number): (g.scores["Ann"], g.scores["Bob"], g.winner) for g in result.games}


def test_roman_numerals_for_any_number_of_games() -> None:
    names = [game_name(n) for n in (1, 3, 4, 5, 6, 9, 14, 19, 40, 44, 49, 90, 99, 400, 2026)]
    assert names == [
        "I", "III", "IV", "V", "VI", "IX", "XIV", "XIX", "XL", "XLIV", "XLIX", "XC", "XCIX",
        "CD", "MMXXVI",
    ]  # fmt: skip


def test_game_one_closing_opens_game_four_empty() -> None:
    result = sheet(gin("Ann", 75))
    assert scores(result) == {
        "I": (100, 0, "Ann"),
        "II": (0, 0, None),
        "III": (0, 0, None),
        "IV": (0, 0, None),
    }
    assert result.hands[0].games == (1,)  # the closing hand does not score in game IV
    assert [g.number for g in result.in_progress] == [2, 3, 4]
    assert not result.finished


def test_a_fourth_win_enters_game_four() -> None:
    result = sheet(gin("Ann", 75), gin("Ann", 5), gin("Ann", 5), gin("Ann", 5))
    assert [p.games for p in result.hands] == [(1,), (2,), (2, 3), (2, 3, 4)]
    assert scores(result) == {
        "I": (100, 0, "Ann"),
        "II": (90, 0, None),
        "III": (60, 0, None),
        "IV": (30, 0, None),
    }
    # Bob's first win would enter game I only, which is closed: it is entered nowhere.
    after = extend(result, [gin("Bob", 0)])
    assert after.hands[-1].games == ()
    assert after.wins == {"Ann": 4, "Bob": 1}


def test_a_win_that_closes_two_games_opens_two() -> None:
    result = sheet(gin("Ann", 25), gin("Ann", 5), gin("Ann", 45))
    assert [c.game for c in result.hands[-1].closings] == [1, 2]
    assert scores(result) == {
        "I": (150, 0, "Ann"),
        "II": (100, 0, "Ann"),
        "III": (70, 0, None),
        "IV": (0, 0, None),
        "V": (0, 0, None),
    }
    assert len(result.in_progress) == 3


def test_notice_then_the_last_three_games_closing_ends_the_match() -> None:
    hands = [gin("Ann", 75), gin("Ann", 75), gin("Ann", 75), gin("Ann", 75)]
    before = sheet(*hands[:1], notice_after=1)
    assert before.notice and [g.number for g in before.in_progress] == [2, 3, 4]
    result = sheet(*hands, notice_after=1)
    assert [[c.game for c in p.closings] for p in result.hands] == [[1], [2], [3], [4]]
    assert len(result.games) == 4  # no game opened after notice
    assert result.finished and result.winner == "Ann"
    assert result.games_won == {"Ann": 4, "Bob": 0}
    # Without notice the same hands keep three games in progress.
    going_on = sheet(*hands)
    assert [g.number for g in going_on.in_progress] == [5, 6, 7]
    assert not going_on.finished


def test_notice_before_the_first_hand_makes_games_one_to_three_the_last() -> None:
    result = sheet(gin("Ann", 75), gin("Ann", 75), gin("Ann", 75), notice_after=0)
    assert result.finished and len(result.games) == 3


def test_level_in_games_the_larger_sheet_total_wins() -> None:
    # Ann closes I; notice; Bob's first win enters nowhere (I is closed), his second and
    # third close II and III; Ann's second and third enter nowhere, her fourth closes IV.
    hands = [gin("Ann", 75), *[gin("Bob", 75)] * 3, gin("Ann", 75), gin("Ann", 75)]
    level = sheet(*hands, gin("Ann", 75), notice_after=1)
    assert scores(level) == {
        "I": (100, 0, "Ann"),
        "II": (0, 100, "Bob"),
        "III": (0, 100, "Bob"),
        "IV": (100, 0, "Ann"),
    }
    assert level.games_won == {"Ann": 2, "Bob": 2}
    assert level.totals == {"Ann": 200, "Bob": 200}
    assert level.finished and level.winner is None  # a drawn match
    ahead = sheet(*hands, gin("Ann", 80), notice_after=1)
    assert ahead.totals == {"Ann": 205, "Bob": 200}
    assert ahead.finished and ahead.winner == "Ann"


def test_classic_bonuses_boxes_and_shutouts_per_game() -> None:
    result = sheet(gin("Ann", 75), gin("Bob", 10), gin("Bob", 65), rules=CLASSIC_ROLLING)
    closing = result.hands[0].closings[0]
    assert (closing.game, closing.game_bonus, closing.shutout) == (1, 200, True)
    assert result.games[0].bonuses == {"Ann": 225, "Bob": 0}
    # Bob's first win enters only game I, closed: nowhere. His second (90) enters II.
    assert [p.games for p in result.hands] == [(1,), (), (2,)]
    assert scores(result)["II"] == (0, 90, None)
    assert result.totals == {"Ann": 325, "Bob": 90}
    # His third (50) closes II: 200 for the shutout and 2 boxes, and opens V.
    after = extend(result, [gin("Bob", 25)])
    assert after.games[1].bonuses == {"Ann": 0, "Bob": 250}
    assert scores(after)["III"] == (0, 50, None)
    assert [g.number for g in after.in_progress] == [3, 4, 5]
    assert after.totals == {"Ann": 325, "Bob": 140 + 250 + 50}


def test_next_open_in_a_rolling_match() -> None:
    rules = ROLLING._replace(entry="next-open")
    hands = [gin("Ann", 75), gin("Bob", 5), gin("Ann", 5), gin("Ann", 5), gin("Ann", 5)]
    result = sheet(*hands, rules=rules)
    # Bob's first win enters the first game in progress he has not entered: II.
    assert [p.games for p in result.hands] == [(1,), (2,), (2,), (2, 3), (2, 3, 4)]
    assert scores(result) == {
        "I": (100, 0, "Ann"),
        "II": (90, 30, None),
        "III": (60, 0, None),
        "IV": (30, 0, None),
    }


def long_rolling_match(games: int) -> list[Hand]:
    """Hands alternating in a fixed pattern until `games` games have closed."""
    hands: list[Hand] = []
    while len(sheet(*hands).closed_games) < games:
        number = len(hands)
        hands.append(gin(PLAYERS[(number // 3) % 2], 20 + (number * 7) % 60))
    return hands


def test_a_long_rolling_match_replays_the_same_in_one_go_and_hand_by_hand() -> None:
    hands = long_rolling_match(40)
    whole = sheet(*hands)
    assert len(whole.closed_games) == 40
    assert len(whole.in_progress) == 3
    assert len(whole.games) == 43
    stepwise = sheet()
    for hand in hands:
        stepwise = extend(stepwise, [hand])
    assert stepwise == whole
    noticed = sheet(*hands, notice_after=len(hands))
    assert [g.number for g in noticed.in_progress] == [g.number for g in whole.in_progress]


# -- properties over random rolling matches ---------------------------------------------------

player = st.sampled_from(PLAYERS)
hand_strategy = st.one_of(
    st.builds(gin, player, st.integers(0, 98)),
    st.builds(
        lambda p, k, d: Hand("knock", player=p, deadwood=k, opponent_deadwood=d),
        player,
        st.integers(1, 10),
        st.integers(0, 98),
    ),
    st.just(Hand("draw")),
)
rolling_rules = st.builds(
    lambda base, entry, target, decide: base._replace(entry=entry, target=target, decide=decide),
    st.sampled_from([ROLLING, CLASSIC_ROLLING]),
    st.sampled_from(["count", "next-open"]),
    st.sampled_from([50, 100, 150]),
    st.sampled_from(["majority", "net"]),
)


@settings(max_examples=120, deadline=None)
@given(rolling_rules, st.lists(hand_strategy, max_size=80), st.integers(0, 80) | st.none())
def test_random_rolling_matches(rules: Rules, hands: list[Hand], notice: int | None) -> None:
    """Closed games never change; three games are in progress until notice is given, then
    their number only falls, and the match is over exactly when it reaches 0. Games close in
    number order, so the games in progress are consecutive."""
    current = sheet(rules=rules, notice_after=notice)
    closed: dict[int, object] = {}
    for number, hand in enumerate(hands, start=1):
        if current.finished:
            break
        current = extend(current, [hand])
        for game in current.games:
            if game.number in closed:
                assert closed[game.number] == game
            elif game.closed:
                closed[game.number] = game
        open_now = len(current.in_progress)
        if notice is None or number <= notice:
            assert open_now == 3
        else:
            before = sheet(*hands[: number - 1], rules=rules, notice_after=notice)
            assert open_now <= len(before.in_progress)
        assert current.finished == (open_now == 0)
        in_progress = [g.number for g in current.in_progress]
        if in_progress:
            assert in_progress == list(range(in_progress[0], in_progress[0] + open_now))
        assert [g.number for g in current.games] == list(range(1, len(current.games) + 1))
    entered = [p.hand for p in current.hands]
    assert current == sheet(*entered, rules=rules, notice_after=notice)


def test_what_notice_says() -> None:
    from hgin.reports.narrate import describe_notice, notice_line

    assert notice_line(sheet(gin("Ann", 75))) == ""
    noticed = sheet(gin("Ann", 75), notice_after=1)
    assert notice_line(noticed) == "notice given: games II–IV are the last"
    assert describe_notice(noticed) == (
        "Notice given: games II–IV are the last; the match ends when they close."
    )
    # Games close in number order (a game takes every win the next one takes, and more),
    # so the games in progress are always consecutive.
    later = extend(noticed, [gin("Ann", 75), gin("Ann", 75)])
    assert [g.number for g in later.in_progress] == [4]
    assert notice_line(later) == "notice given: games II–IV are the last"
    assert describe_notice(later) == (
        "Notice given: games II–IV are the last; the match ends when it closes."
    )
