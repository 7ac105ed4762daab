"""Properties of the engine over random hands and random rule values (hypothesis), Oklahoma and
Straight Gin included.

The sheet is checked against a small reference written from the rules as the README states
them (a hand's award; win n enters games 1..n, or the games entered before plus the first open
one never entered; a game closes at the target, points only), not from the engine's code.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.engine import editing
from hgin.engine.hands import Hand, hand_award
from hgin.engine.rules import PROFILES, Rules, check_rules
from hgin.engine.sheet import extend, replay
from hgin.errors import HginError
from tests.match_data import start_match

PLAYERS = ("Ann", "Bob")
UPCARDS = ["As", "Ah", "2c", "3s", "5d", "7s", "7h", "9c", "10s", "10d", "Js", "Qh", "Kc"]

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
    oklahoma=st.booleans(),
    oklahoma_ace=st.sampled_from(["gin", "one"]),
    straight=st.booleans(),
    rolling=st.just(False),
    stake=st.none(),
).filter(lambda rules: not (rules.oklahoma and rules.straight))  # refused together
player = st.sampled_from(PLAYERS)
upcard = st.one_of(st.none(), st.sampled_from(UPCARDS))
hand_strategy = st.one_of(
    st.builds(
        lambda kind, p, d, u: Hand(kind, player=p, opponent_deadwood=d, upcard=u),
        st.sampled_from(["gin", "gin", "big_gin"]),
        player,
        st.integers(0, 98),
        upcard,
    ),
    st.builds(
        lambda p, k, d, u: Hand("knock", player=p, deadwood=k, opponent_deadwood=d, upcard=u),
        player,
        st.integers(1, 11),
        st.integers(0, 98),
        upcard,
    ),
    st.just(Hand("draw")),
)


# -- the reference -----------------------------------------------------------------------------


def rank_of(card: str) -> int:
    face = card[:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(face) or int(face)


def reference_award(rules: Rules, hand: Hand) -> tuple[str | None, int] | None:
    """(winner, points) of one hand, or None when the rules refuse it."""
    if hand.kind == "draw":
        return None, 0
    assert hand.player is not None and hand.opponent_deadwood is not None
    if rules.oklahoma != (hand.upcard is not None):
        return None  # an Oklahoma hand needs its upcard; any other hand has none
    double = 2 if hand.upcard is not None and hand.upcard.endswith("s") else 1
    opponent = PLAYERS[1] if hand.player == PLAYERS[0] else PLAYERS[0]
    theirs = hand.opponent_deadwood
    if hand.kind == "gin":
        return hand.player, (rules.gin_bonus + theirs) * double
    if hand.kind == "big_gin":
        if rules.big_gin_bonus == 0:
            return None
        return hand.player, (rules.big_gin_bonus + theirs) * double
    if rules.straight:
        return None
    limit = 10
    if hand.upcard is not None:
        rank = rank_of(hand.upcard)
        limit = (0 if rules.oklahoma_ace == "gin" else 1) if rank == 1 else min(rank, 10)
    mine = hand.deadwood
    assert mine is not None
    if not 1 <= mine <= limit:
        return None
    if mine < theirs or (mine == theirs and rules.tie == "knocker"):
        return hand.player, (theirs - mine) * double
    return opponent, (mine - theirs + rules.undercut_bonus) * double


@dataclasses.dataclass
class Reference:
    """The games' points and winners after some hands, kept the simple way."""

    rules: Rules
    scores: list[dict[str, int]] = dataclasses.field(default_factory=list)
    winners: list[str | None] = dataclasses.field(default_factory=list)
    wins: dict[str, int] = dataclasses.field(default_factory=lambda: dict.fromkeys(PLAYERS, 0))
    entered: dict[str, set[int]] = dataclasses.field(
        default_factory=lambda: {p: set() for p in PLAYERS}
    )

    def __post_init__(self) -> None:
        self.scores = [dict.fromkeys(PLAYERS, 0) for _ in range(self.rules.games)]
        self.winners = [None] * self.rules.games

    @property
    def over(self) -> bool:
        return all(w is not None for w in self.winners)

    def open_games(self, winner: str) -> list[int]:
        """The open games (0-based) a new win of `winner` enters."""
        games = range(self.rules.games)
        if self.rules.entry == "count":
            reach = min(self.wins[winner], self.rules.games)
            return [g for g in range(reach) if self.winners[g] is None]
        fresh = [g for g in games if self.winners[g] is None and g not in self.entered[winner]]
        if fresh:
            self.entered[winner].add(fresh[0])
        return [g for g in sorted(self.entered[winner]) if self.winners[g] is None]

    def play(self, winner: str | None, points: int) -> list[int]:
        """Post one hand; the 1-based games it was posted in."""
        if winner is None:
            return []
        self.wins[winner] += 1
        posted = self.open_games(winner)
        for g in posted:
            self.scores[g][winner] += points
            if self.scores[g][winner] >= self.rules.target:
                self.winners[g] = winner
        return [g + 1 for g in posted]


def playable(rules: Rules, hands: list[Hand]) -> list[Hand]:
    """The hands the reference accepts, up to the end of the match; the engine must refuse
    exactly the others."""
    model = Reference(rules)
    kept: list[Hand] = []
    for hand in hands:
        if model.over:
            break
        award = reference_award(rules, hand)
        if award is None:
            try:
                hand_award(rules, PLAYERS, hand)
            except HginError:
                continue
            raise AssertionError(f"the engine accepts {hand} under {rules}")
        model.play(*award)
        kept.append(hand)
    return kept


# -- properties --------------------------------------------------------------------------------


def test_the_friendly_rule_books_worked_example() -> None:
    """A's first win scores 30 (30 / – / –); a gin against 18 deadwood, 25 + 18 = 43
    (73 / 43 / –); a third win of 35 (108 / 78 / 35): game I closes for A, and that third
    win still opened game III."""
    hands = [
        Hand("knock", player="Ann", deadwood=4, opponent_deadwood=34),
        Hand("gin", player="Ann", opponent_deadwood=18),
        Hand("knock", player="Ann", deadwood=5, opponent_deadwood=40),
    ]
    sheet = replay(PLAYERS, PROFILES["friendly"], "Bob", hands)
    assert [g.scores["Ann"] for g in sheet.games] == [108, 78, 35]
    assert [g.winner for g in sheet.games] == ["Ann", None, None]
    assert [p.games for p in sheet.hands] == [(1,), (1, 2), (1, 2, 3)]
    assert [p.award.points for p in sheet.hands] == [30, 43, 35]
    assert not sheet.finished


@settings(max_examples=300)
@given(rules_strategy, st.lists(hand_strategy, max_size=40))
def test_the_sheet_agrees_with_the_reference(rules: Rules, hands: list[Hand]) -> None:
    check_rules(rules)
    hands = playable(rules, hands)
    model = Reference(rules)
    before = replay(PLAYERS, rules, "Ann", [])
    for count, hand in enumerate(hands, start=1):
        award = reference_award(rules, hand)
        assert award is not None
        games = model.play(*award)
        after = extend(before, [hand])
        played = after.hands[-1]
        assert (played.award.winner, played.award.points) == award
        assert list(played.games) == games
        # Points posted = the award times the open games it enters, nothing anywhere else.
        posted = sum(
            a.scores[p] - b.scores[p]
            for a, b in zip(after.games, before.games, strict=True)
            for p in PLAYERS
        )
        assert posted == award[1] * len(games)
        assert [g.scores for g in after.games] == model.scores, f"after hand {count}"
        assert [g.winner for g in after.games] == model.winners
        assert after.wins == model.wins
        assert after.finished == model.over
        before = after


@settings(max_examples=150)
@given(rules_strategy, st.lists(hand_strategy, max_size=40))
def test_closed_games_never_change(rules: Rules, hands: list[Hand]) -> None:
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


@settings(max_examples=150)
@given(rules_strategy, st.lists(hand_strategy, max_size=40), st.integers(0, 40))
def test_replaying_a_prefix_then_the_rest_equals_the_whole(
    rules: Rules, hands: list[Hand], cut: int
) -> None:
    hands = playable(rules, hands)
    whole = replay(PLAYERS, rules, "Bob", hands)
    resumed = extend(replay(PLAYERS, rules, "Bob", hands[:cut]), hands[cut:])
    assert resumed == whole


@settings(max_examples=150)
@given(rules_strategy, st.lists(hand_strategy, max_size=40))
def test_bonuses_come_only_with_a_close_and_totals_add_up(rules: Rules, hands: list[Hand]) -> None:
    sheet = replay(PLAYERS, rules, "Ann", playable(rules, hands))
    for game in sheet.games:
        if not game.closed or not rules.has_bonuses:
            assert game.bonuses == dict.fromkeys(PLAYERS, 0)
    for p in PLAYERS:
        assert sheet.totals[p] == sum(g.scores[p] + g.bonuses[p] for g in sheet.games)
        assert sheet.games_won[p] == sum(1 for g in sheet.games if g.winner == p)
    if not sheet.finished:
        assert sheet.winner is None
    elif rules.decide == "majority":
        assert sheet.winner is not None
        assert sheet.games_won[sheet.winner] > rules.games / 2
    else:
        first, second = (sheet.totals[p] for p in PLAYERS)
        assert sheet.winner == (None if first == second else PLAYERS[first < second])


AT = "2026-01-01T20:00:00+01:00"


@settings(max_examples=100)
@given(rules_strategy, st.lists(hand_strategy, min_size=1, max_size=30), st.integers(1, 5))
def test_undo_then_redo_is_the_identity(rules: Rules, hands: list[Hand], depth: int) -> None:
    hands = playable(rules, hands)
    match = start_match("m", PLAYERS, rules, "Ann", "2026-01-01T00:00:00+00:00", tuple(hands))
    changed = match
    undone = 0
    for _ in range(min(depth, len(hands))):
        changed = editing.undo(changed, AT)
        undone += 1
    assert changed.hands == match.hands[: len(hands) - undone]
    for _ in range(undone):
        changed = editing.redo(changed, AT)
    assert changed.hands == match.hands
    assert changed.sheet == match.sheet
    assert changed.state.undone == []


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
    assert PROFILES["classic"]._replace(profile="friendly") != PROFILES["friendly"]
