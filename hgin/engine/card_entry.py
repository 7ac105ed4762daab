"""Counting from the cards: `hgin count`, and gin or knock entries recorded from the hands.
Cards in, counts and a `Hand` out, every refusal an HginError."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from hgin.cards.melds import (
    Arrangement,
    DefenderResult,
    KnockCount,
    best_arrangement,
    best_discard,
    count_knock,
    own_count,
)
from hgin.cards.model import Card, format_cards, parse_cards
from hgin.engine.hands import Hand, upcard_facts
from hgin.engine.rules import KNOCK_LIMIT, Rules, knock_limit
from hgin.errors import HginError

CardsText = str | Sequence[str]
"""Cards as typed: one string ("7s 8s 9s") or several ("7s", "8s 9s")."""


def read_cards(text: CardsText, whose: str, count: int | tuple[int, ...]) -> tuple[Card, ...]:
    """Parse cards, naming whose cards a refusal is about."""
    try:
        return parse_cards(text, count)
    except HginError as refusal:
        raise HginError(f"{whose}: {refusal}") from None


def refuse_shared(first: Sequence[Card], second: Sequence[Card]) -> None:
    """Refuse two hands that hold the same card."""
    shared = sorted(set(first) & set(second))
    if shared:
        listed = format_cards(shared)
        verb = "is" if len(shared) == 1 else "are"
        raise HginError(f"{listed} {verb} in both hands: each card is in one hand only")


@dataclass(frozen=True, slots=True)
class HandCount:
    """What 10 or 11 cards are worth, and (given the opponent's ten) the knock counted."""

    cards: tuple[Card, ...]
    arrangement: Arrangement
    discard: Card | None = None
    big_gin: bool = False
    eleven: Arrangement | None = None
    knock: KnockCount | None = None


def count_hand(cards: CardsText, opponent: CardsText | None = None) -> HandCount:
    """Best melds and deadwood of 10 cards, or the best discard from 11 (and big gin)."""
    hand = read_cards(cards, "the cards", (10, 11))
    theirs = read_cards(opponent, "the opponent's cards", 10) if opponent is not None else None
    if theirs is not None:
        refuse_shared(hand, theirs)
    if len(hand) == 10:
        kept, found = hand, HandCount(hand, best_arrangement(hand))
    else:
        best = best_discard(hand)
        kept = tuple(card for card in hand if card != best.discard)
        eleven = best_arrangement(hand) if best.big_gin else None
        found = HandCount(hand, best.arrangement, best.discard, best.big_gin, eleven)
    if theirs is None:
        return found
    counted = count_knock(kept, theirs)
    view = KnockCount(found.eleven or counted.knocker, counted.defender, counted.gin)
    # Among equal arrangements the knocker lays down the one that leaves the opponent the most.
    shown = found.arrangement if found.big_gin else counted.knocker
    return HandCount(found.cards, shown, found.discard, found.big_gin, found.eleven, view)


KnockOutcome = Literal["gin", "over_limit", "knock", "undercut"]


def knock_outcome(knock: KnockCount) -> KnockOutcome:
    """What the two counts make before any house rule."""
    if knock.gin:
        return "gin"
    mine = knock.knocker.deadwood
    if mine > KNOCK_LIMIT:
        return "over_limit"
    return "knock" if mine < knock.defender.deadwood else "undercut"


@dataclass(frozen=True, slots=True)
class CountedHand:
    """A gin or knock counted from the cards, ready to become a `Hand`."""

    kind: Literal["gin", "big_gin", "knock"]
    deadwood: int | None
    opponent_deadwood: int
    hand_cards: tuple[Card, ...] | None
    opponent_cards: tuple[Card, ...] | None
    mine: Arrangement | None
    theirs: DefenderResult | None


def _agree(counted: int, typed: int | None, what: str) -> int:
    if typed is not None and typed != counted:
        raise HginError(f"the cards put {what} at {counted}, not {typed} as typed")
    return counted


def _deadwood_phrase(arrangement: Arrangement) -> str:
    return f"{arrangement.deadwood} deadwood ({format_cards(arrangement.deadwood_cards)})"


def _gin_hand(cards: CardsText, big: bool) -> tuple[tuple[Card, ...], Arrangement]:
    """The winner's cards for a gin (10) or a big gin (11), refused unless they all meld."""
    if big:
        hand = read_cards(cards, "a big gin's cards", 11)
        best = best_discard(hand)
        if best.big_gin:
            return hand, best_arrangement(hand)
        if best.arrangement.deadwood == 0:
            raise HginError(
                f"not a big gin: the eleven cards do not all meld; discarding {best.discard} "
                "leaves a gin, so record it without --big"
            )
        left = _deadwood_phrase(best.arrangement)
        raise HginError(f"not a big gin: the best discard, {best.discard}, still leaves {left}")
    hand = read_cards(cards, "a gin's cards (the ten kept after the discard)", (10, 11))
    if len(hand) == 11:
        raise HginError(
            "a gin is the ten cards kept after the discard; for all eleven melded use --big"
        )
    arrangement = best_arrangement(hand)
    if arrangement.deadwood:
        hint = "; record it as a knock" if arrangement.deadwood <= KNOCK_LIMIT else ""
        raise HginError(f"not a gin: these cards leave {_deadwood_phrase(arrangement)}{hint}")
    return hand, arrangement


def count_entry(
    kind: Literal["gin", "big_gin", "knock"],
    *,
    hand: CardsText | None = None,
    opponent: CardsText | None = None,
    deadwood: int | None = None,
    opponent_deadwood: int | None = None,
) -> CountedHand:
    """A gin, big gin or knock from the winner's and/or the opponent's cards (a knock needs
    both); typed counts must agree with the cards."""
    if kind == "knock" and (hand is None or opponent is None):
        raise HginError(
            "a knock is counted from both hands: give --hand and --opponent "
            "(the layoffs depend on both)"
        )
    mine: tuple[Card, ...] | None = None
    arrangement: Arrangement | None = None
    if kind == "knock" and hand is not None:
        mine = read_cards(hand, "the knocker's cards (the ten kept after the discard)", 10)
    elif hand is not None:
        mine, arrangement = _gin_hand(hand, kind == "big_gin")
    theirs: tuple[Card, ...] | None = None
    result: DefenderResult | None = None
    if opponent is not None:
        theirs = read_cards(opponent, "the opponent's cards", 10)
        if mine is not None:
            refuse_shared(mine, theirs)
        if kind == "knock" and mine is not None:
            counted = count_knock(mine, theirs)
            if counted.gin:
                raise HginError(
                    "these cards are a gin (no deadwood), not a knock: record it with 'gin'"
                )
            arrangement, result = counted.knocker, counted.defender
            deadwood = _agree(arrangement.deadwood, deadwood, "the knocker's deadwood")
        else:
            result = own_count(theirs)
        opponent_deadwood = _agree(result.deadwood, opponent_deadwood, "the opponent's deadwood")
    elif opponent_deadwood is None:
        raise HginError("give the opponent's deadwood or their cards (--opponent)")
    own = deadwood if kind == "knock" else None
    return CountedHand(kind, own, opponent_deadwood, mine, theirs, arrangement, result)


def record_counted(
    counted: CountedHand,
    rules: Rules,
    player: str,
    upcard: str | None = None,
    recorded_at: str | None = None,
) -> Hand:
    """The Hand to record for a counted gin or knock under `rules` (player already resolved)."""
    if counted.kind == "knock" and counted.deadwood is not None and counted.mine is not None:
        rank, _ = upcard_facts(rules, Hand("knock", upcard=upcard))
        limit = knock_limit(rules, rank)
        if 0 < limit < counted.deadwood:
            raise HginError(
                f"no knock: these cards leave {_deadwood_phrase(counted.mine)}, "
                f"over the knock limit of {limit}"
            )
    return Hand(
        counted.kind,
        player=player,
        deadwood=counted.deadwood,
        opponent_deadwood=counted.opponent_deadwood,
        upcard=upcard,
        hand_cards=format_cards(counted.hand_cards) if counted.hand_cards else None,
        opponent_cards=format_cards(counted.opponent_cards) if counted.opponent_cards else None,
        recorded_at=recorded_at,
    )
