"""One hand: what was entered at the table, and what it is worth (as README.md scores it)."""

from typing import Literal, NamedTuple

from hgin.engine.rules import KNOCK_LIMIT, MAX_DEADWOOD, Rules, knock_limit
from hgin.errors import HginError

HandKind = Literal["gin", "big_gin", "knock", "draw"]
Result = Literal["gin", "big_gin", "knock", "undercut", "draw"]
HAND_KINDS: tuple[HandKind, ...] = ("gin", "big_gin", "knock", "draw")


class Hand(NamedTuple):
    """A hand as entered: the counts are the only facts; points are always derived."""

    kind: HandKind
    player: str | None = None
    deadwood: int | None = None
    opponent_deadwood: int | None = None
    upcard: str | None = None
    hand_cards: str | None = None
    opponent_cards: str | None = None
    recorded_at: str | None = None


class Award(NamedTuple):
    """Who won a hand and how many points, and the `terms` they are made of."""

    result: Result
    winner: str | None
    loser: str | None
    points: int
    terms: tuple[int, ...] = ()
    doubled: bool = False


DRAW = Award("draw", None, None, 0)


def other_player(players: tuple[str, str], name: str) -> str:
    """The opponent of `name`."""
    return players[1] if name == players[0] else players[0]


def _check_count(what: str, value: int | None, low: int, high: int) -> int:
    if type(value) is not int:
        raise HginError(f"{what} must be a whole number")
    if not low <= value <= high:
        between = f"{low}" if low == high else f"between {low} and {high}"
        raise HginError(f"{what} must be {between}, not {value}")
    return value


def written_plainly(hand: Hand) -> Hand:
    """The hand with its upcard in the one canonical spelling ('qS' and 'Q♠' are one card)."""
    if hand.upcard is None:
        return hand
    from hgin.cards.model import parse_card

    return hand._replace(upcard=str(parse_card(hand.upcard)))


def upcard_facts(rules: Rules, hand: Hand) -> tuple[int | None, bool]:
    """The upcard's rank and whether it is a spade, refusing what the rules forbid."""
    if hand.upcard is None:
        if rules.oklahoma and hand.kind != "draw":
            raise HginError("this is an Oklahoma match: give the upcard (for example --upcard 7s)")
        return None, False
    if not rules.oklahoma:
        raise HginError("an upcard is only entered in an Oklahoma match")
    from hgin.cards.model import parse_card  # only Oklahoma needs the card model

    card = parse_card(hand.upcard)
    return card.rank, card.suit == "s"


def hand_award(rules: Rules, players: tuple[str, str], hand: Hand) -> Award:
    """Score one hand under `rules`, refusing an impossible entry (a replay runs this for every
    hand)."""
    kind = hand.kind
    if kind == "draw":
        if hand.player is not None:
            raise HginError("a dead hand has no winner")
        return DRAW
    if kind not in HAND_KINDS:
        raise HginError(f"unknown kind of hand '{kind}'")
    player = hand.player
    if player != players[0] and player != players[1]:
        raise HginError(f"'{player}' is not a player in this match")
    opponent = players[1] if player == players[0] else players[0]
    upcard_rank, spade = upcard_facts(rules, hand)
    their = _check_count("the opponent's deadwood", hand.opponent_deadwood, 0, MAX_DEADWOOD)
    result: Result = kind
    terms: tuple[int, ...]  # what the points are made of (`formula` in reports spells them out)
    if kind != "knock":
        if hand.deadwood not in (None, 0):
            raise HginError("a gin has 0 deadwood")
        if kind == "big_gin" and rules.big_gin_bonus == 0:
            raise HginError("big gin is not played in this match (see big-gin-bonus)")
        bonus = rules.big_gin_bonus if kind == "big_gin" else rules.gin_bonus
        winner, loser, points, terms = player, opponent, bonus + their, (bonus, their)
    else:
        if rules.straight:
            raise HginError("Straight Gin has no knocks: only gin ends a hand")
        limit = knock_limit(rules, upcard_rank)
        if limit == 0:
            raise HginError("no knocking in this hand: an ace upcard means gin only")
        if hand.deadwood == 0:
            raise HginError(f"a knock with 0 deadwood is a gin: enter it as gin by {player}")
        what = "the knocker's deadwood"
        if limit < KNOCK_LIMIT:  # an Oklahoma upcard sets it
            what = f"with the upcard {hand.upcard}, {what}"
        mine = _check_count(what, hand.deadwood, 1, limit)
        if mine < their or (mine == their and rules.tie == "knocker"):
            winner, loser, points, terms = player, opponent, their - mine, (their, mine)
        else:
            result, bonus = "undercut", rules.undercut_bonus
            winner, loser, points = opponent, player, mine - their + bonus
            terms = (mine, their, bonus)
    if spade:  # an Oklahoma spade upcard doubles the whole hand
        points *= 2
    # Made without the named tuple's Python-level constructor (a replay scores every hand).
    return tuple.__new__(Award, (result, winner, loser, points, terms, spade))
