"""One hand: what was entered at the table, and what it is worth.

gin by P against deadwood D: P scores the gin bonus + D (a big gin: the big-gin bonus + D);
knock by P with K against D (after layoffs): P scores D - K when K < D, else the opponent
undercuts and scores K - D + the undercut bonus (equal counts too, unless `tie` says
otherwise); a dead hand scores nothing and counts as nobody's win. K is 1..knock limit (10, or
the Oklahoma upcard's value), D is 0..98; Straight Gin has no knocks.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from hgin.engine.rules import MAX_DEADWOOD, Rules, knock_limit
from hgin.errors import HginError

HandKind = Literal["gin", "big_gin", "knock", "draw"]
Result = Literal["gin", "big_gin", "knock", "undercut", "draw"]
HAND_KINDS: tuple[HandKind, ...] = ("gin", "big_gin", "knock", "draw")


class Hand(NamedTuple):
    """A hand as entered: the counts are the only facts; points are always derived. (Named
    tuples here, as the journal's changes and the sheet's parts: as immutable as frozen
    dataclasses, and far quicker to define on every command that opens a match.)"""

    kind: HandKind
    player: str | None = None
    deadwood: int | None = None
    opponent_deadwood: int | None = None
    upcard: str | None = None
    hand_cards: str | None = None
    opponent_cards: str | None = None
    recorded_at: str | None = None


class Award(NamedTuple):
    """Who won a hand and how many points, with the arithmetic spelled out."""

    result: Result
    winner: str | None
    loser: str | None
    points: int
    formula: str
    doubled: bool = False


def other_player(players: tuple[str, str], name: str) -> str:
    """The opponent of `name`."""
    return players[1] if name == players[0] else players[0]


def _check_count(what: str, value: int | None, low: int, high: int) -> int:
    if value is None or type(value) is not int:
        raise HginError(f"{what} must be a whole number")
    if not low <= value <= high:
        raise HginError(f"{what} must be between {low} and {high}, not {value}")
    return value


def written_plainly(hand: Hand) -> Hand:
    """The hand with its upcard in the one canonical spelling ('qS' and 'Q♠' are one card)."""
    if hand.upcard is None:
        return hand
    from hgin.cards.model import parse_card

    canonical = str(parse_card(hand.upcard))
    return hand if canonical == hand.upcard else hand._replace(upcard=canonical)


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
    """Score one hand under `rules`, refusing an impossible entry (a count out of range, a knock
    above the knock limit or in Straight Gin, a big gin the rules do not have)."""
    if hand.kind == "draw":
        if hand.player is not None:
            raise HginError("a dead hand has no winner")
        return Award("draw", None, None, 0, "no score")
    if hand.kind not in HAND_KINDS:
        raise HginError(f"unknown kind of hand '{hand.kind}'")
    if hand.player not in players:
        raise HginError(f"'{hand.player}' is not a player in this match")
    player = hand.player
    opponent = other_player(players, player)
    upcard_rank, spade = upcard_facts(rules, hand)
    their = _check_count("the opponent's deadwood", hand.opponent_deadwood, 0, MAX_DEADWOOD)

    if hand.kind in ("gin", "big_gin"):
        if hand.deadwood not in (None, 0):
            raise HginError("a gin has 0 deadwood")
        if hand.kind == "big_gin":
            if rules.big_gin_bonus == 0:
                raise HginError("big gin is not played in this match (see big-gin-bonus)")
            bonus = rules.big_gin_bonus
        else:
            bonus = rules.gin_bonus
        return _award(hand.kind, player, opponent, bonus + their, f"{bonus} + {their}", spade)

    if rules.straight:
        raise HginError("Straight Gin has no knocks: only gin ends a hand")
    limit = knock_limit(rules, upcard_rank)
    if limit == 0:
        raise HginError("no knocking in this hand: an ace upcard means gin only")
    if hand.deadwood == 0:
        raise HginError(f"a knock with 0 deadwood is a gin: enter it as gin by {player}")
    mine = _check_count("the knocker's deadwood", hand.deadwood, 1, limit)
    if mine < their or (mine == their and rules.tie == "knocker"):
        return _award("knock", player, opponent, their - mine, f"{their} − {mine}", spade)
    bonus = rules.undercut_bonus
    terms = f"{mine} − {their} + {bonus}"
    return _award("undercut", opponent, player, mine - their + bonus, terms, spade)


def _award(result: Result, winner: str, loser: str, points: int, terms: str, spade: bool) -> Award:
    """The award with its formula closed, the whole hand doubled for an Oklahoma spade upcard.
    (Built once: a replay scores every hand of the match, so this runs thousands of times.)"""
    if not spade:
        simple = terms.replace(" ", "").isdigit()
        formula = str(points) if simple else f"{terms} = {points}"
        return Award(result, winner, loser, points, formula)
    doubled = points * 2
    inner = f"({terms})" if " " in terms else terms
    return Award(result, winner, loser, doubled, f"{inner} × 2 = {doubled}", doubled=True)
