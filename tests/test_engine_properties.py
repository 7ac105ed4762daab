"""Properties of the engine over random hands and random rule values (hypothesis)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.engine.hands import Hand, hand_award
from hgin.engine.match import Match
from hgin.engine.rules import PROFILES, Rules, check_rules
from hgin.engine.sheet import Sheet, extend, replay
from hgin.errors import HginError

PLAYERS = ("Ann", "Bob")

rules_strategy = st.builds(
    Rules,
    profile=st.just("random"),
    gin_bonus=st.sampled_from([0, 10, 20, 25]),
    undercut_bonus=st.sampled_from([0, 10, 20, 25]),
    big_gin_bonus=st.sampled_from([0, 31, 50]),
    target=st.sampled_from([50, 100, 125, 150, 250]),
    games=st.sampled_from([1, 3, 5]),
    game_bonus=st.sampled_from([0, 100]),
    box_bonus=st.sampled_from([0, 20, 25]),
    shutout=st.sampled_from(["none", "bonus", "double"]),
    tie=st.sampled_from(["undercut", "knocker"]),
    entry=st.sampled_from(["count", "next-open"]),
    decide=st.sampled_from(["majority", "net"]),
    dealer_rule=st.sampled_from(["alternate", "winner", "loser"]),
    redeal=st.sampled_from(["same", "other"]),
)
player = st.sampled_from(PLAYERS)
hand_strategy = st.one_of(
    st.builds(lambda p, d: Hand("gin", player=p, opponent_deadwood=d), player, st.integers(0, 98)),
    st.builds(
        lambda p, k, d: Hand("knock", player=p, deadwood=k, opponent_deadwood=d),
        player,
        st.integers(1, 10),
        st.integers(0, 98),
    ),
    st.just(Hand("draw")),
)


def playable(rules: Rules, hands: list[Hand]) -> list[Hand]:
    """The hands up to the end of the match (later ones would be refused)."""
    kept: list[Hand] = []
    for hand in hands:
        if replay(PLAYERS, rules, "Ann", kept).finished:
            break
        if hand.kind == "big_gin" and rules.big_gin_bonus == 0:
            continue
        kept.append(hand)
    return kept


def snapshot_games(sheet: Sheet) -> list[tuple[object, ...]]:
    return [(g.scores, g.bonuses, g.winner, g.closed_by) for g in sheet.games]


@settings(max_examples=150, deadline=None)
@given(rules_strategy, st.lists(hand_strategy, max_size=40))
def test_closed_games_never_change(rules: Rules, hands: list[Hand]) -> None:
    check_rules(rules)
    hands = playable(rules, hands)
    closed_at: dict[int, tuple[object, ...]] = {}
    for count in range(len(hands) + 1):
        sheet = replay(PLAYERS, rules, "Ann", hands[:count])
        for game in sheet.games:
            state = (game.scores, game.bonuses, game.winner, game.closed_by)
            if game.number in closed_at:
                assert closed_at[game.number] == state
            elif game.closed:
                closed_at[game.number] = state


@settings(max_examples=150, deadline=None)
@given(rules_strategy, st.lists(hand_strategy, max_size=40))
def test_points_posted_equal_award_times_open_eligible_games(
    rules: Rules, hands: list[Hand]
) -> None:
    hands = playable(rules, hands)
    before = replay(PLAYERS, rules, "Ann", [])
    for count, hand in enumerate(hands, start=1):
        after = replay(PLAYERS, rules, "Ann", hands[:count])
        award = hand_award(rules, PLAYERS, hand)
        played = after.hands[-1]
        posted = sum(
            a.scores[p] - b.scores[p]
            for a, b in zip(after.games, before.games, strict=True)
            for p in PLAYERS
        )
        assert posted == award.points * len(played.games)
        assert all(not before.games[n - 1].closed for n in played.games)
        if rules.entry == "count" and award.winner is not None:
            wins = after.wins[award.winner]
            eligible = [n for n in range(1, min(wins, rules.games) + 1)]
            assert list(played.games) == [n for n in eligible if not before.games[n - 1].closed]
        before = after


@settings(max_examples=150, deadline=None)
@given(rules_strategy, st.lists(hand_strategy, max_size=40), st.integers(0, 40))
def test_replaying_a_prefix_then_the_rest_equals_the_whole(
    rules: Rules, hands: list[Hand], cut: int
) -> None:
    hands = playable(rules, hands)
    whole = replay(PLAYERS, rules, "Bob", hands)
    resumed = extend(replay(PLAYERS, rules, "Bob", hands[:cut]), hands[cut:])
    assert resumed == whole


@settings(max_examples=100, deadline=None)
@given(rules_strategy, st.lists(hand_strategy, min_size=1, max_size=30), st.integers(1, 5))
def test_undo_then_redo_is_the_identity(rules: Rules, hands: list[Hand], depth: int) -> None:
    hands = playable(rules, hands)
    match = Match("m", PLAYERS, rules, "Ann", "2026-01-01T00:00:00+00:00", tuple(hands))
    changed = match
    undone = 0
    for _ in range(min(depth, len(hands))):
        changed, _hand = changed.without_last()
        undone += 1
    for _ in range(undone):
        changed, _hand = changed.with_redo()
    assert changed.hands == match.hands
    assert changed.sheet == match.sheet
    assert changed.undone == ()


@settings(max_examples=100, deadline=None)
@given(rules_strategy, st.lists(hand_strategy, max_size=40))
def test_match_winner_and_totals_follow_the_games(rules: Rules, hands: list[Hand]) -> None:
    sheet = replay(PLAYERS, rules, "Ann", playable(rules, hands))
    for p in PLAYERS:
        assert sheet.totals[p] == sum(g.scores[p] + g.bonuses[p] for g in sheet.games)
        assert sheet.games_won[p] == sum(1 for g in sheet.games if g.winner == p)
    if not sheet.finished:
        assert sheet.winner is None
    elif rules.decide == "majority":
        assert sheet.winner is not None
        assert sheet.games_won[sheet.winner] > rules.games / 2
    for game in sheet.games:
        if game.winner is not None:
            assert game.scores[game.winner] >= rules.target
        for p in PLAYERS:
            if game.winner != p:
                assert game.scores[p] < rules.target


@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_knock_counts_are_accepted_exactly_in_range(mine: int, theirs: int) -> None:
    hand = Hand("knock", player="Ann", deadwood=mine, opponent_deadwood=theirs)
    valid = 1 <= mine <= 10 and 0 <= theirs <= 98
    try:
        award = hand_award(PROFILES["friendly"], PLAYERS, hand)
    except HginError:
        assert not valid
    else:
        assert valid
        assert award.points == (theirs - mine if mine < theirs else mine - theirs + 25)


def test_profiles_are_valid() -> None:
    for rules in PROFILES.values():
        assert check_rules(rules) == rules
    assert dataclasses.replace(PROFILES["classic"], profile="friendly") != PROFILES["friendly"]
