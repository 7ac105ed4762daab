"""Tests for hgin.cards.melds, checked against brute-force references written here."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.cards import melds as solver
from hgin.cards.melds import (
    Arrangement,
    DefenderResult,
    Layoff,
    best_arrangement,
    best_discard,
    count_knock,
)
from hgin.cards.model import Card, full_deck, parse_cards
from hgin.errors import HginError

DECK = full_deck()
LOW_DECK = tuple(card for card in DECK if card.rank <= 7)  # 28 cards: melds and layoffs abound


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def all_best_arrangements(hand: Iterable[Card]) -> list[Arrangement]:
    """Every arrangement with the least deadwood, each once, as the solver lists them for
    `count_knock`; the first is `best_arrangement`'s."""
    mask = solver._mask_of(hand)
    return [solver._arrangement(m, dead) for m, dead in solver._Solver(mask).every(mask)]


def defender_count(
    knocker_melds: Sequence[Sequence[Card]], defender_cards: Iterable[Card]
) -> DefenderResult:
    """The defender's least deadwood against these melds as `count_knock` searches it (own
    melds and layoffs jointly: runs take cards at either end, a 3-card set its fourth card)."""
    defender = solver._mask_of(defender_cards)
    knocker = solver._mask_of(card for meld in knocker_melds for card in meld)
    if knocker & defender:
        raise HginError(f"{solver._cards_of(knocker & defender)[0]} is in both hands")
    return solver._defender(knocker_melds, defender)


def meld_texts(melds: Iterable[Sequence[Card]]) -> list[str]:
    return [" ".join(str(card) for card in meld) for meld in melds]


# --------------------------------------------------------------------------------------------
# Brute-force references: deliberately naive, sharing no code with the solver.


def is_meld(group: Iterable[Card]) -> bool:
    group = list(group)
    if len(group) < 3 or len(set(group)) != len(group):
        return False
    if len({card.rank for card in group}) == 1:
        return len(group) <= 4
    if len({card.suit for card in group}) != 1:
        return False
    ranks = sorted(card.rank for card in group)
    return all(b == a + 1 for a, b in pairwise(ranks))


def all_melds_within(hand: Sequence[Card]) -> list[frozenset[Card]]:
    return [
        frozenset(group)
        for size in range(3, len(hand) + 1)
        for group in combinations(hand, size)
        if is_meld(group)
    ]


def meld_selections(hand: Sequence[Card]) -> list[list[frozenset[Card]]]:
    """Every collection of pairwise disjoint melds inside `hand` (including none)."""
    candidates = all_melds_within(hand)
    found: list[list[frozenset[Card]]] = []

    def walk(start: int, used: frozenset[Card], chosen: list[frozenset[Card]]) -> None:
        found.append(list(chosen))
        for i in range(start, len(candidates)):
            if not candidates[i] & used:
                chosen.append(candidates[i])
                walk(i + 1, used | candidates[i], chosen)
                chosen.pop()

    walk(0, frozenset(), [])
    return found


def points(group: Iterable[Card]) -> int:
    return sum(min(card.rank, 10) for card in group)


def ref_deadwood(hand: Sequence[Card]) -> int:
    return min(points(set(hand) - set().union(*sel)) for sel in meld_selections(hand))


def ref_best_meld_sets(hand: Sequence[Card]) -> set[frozenset[frozenset[Card]]]:
    scored = [
        (points(set(hand) - set().union(*sel)), frozenset(sel)) for sel in meld_selections(hand)
    ]
    least = min(score for score, _ in scored)
    return {sel for score, sel in scored if score == least}


def ref_layoff_deadwood(knocker_melds: Sequence[Sequence[Card]], loose: Iterable[Card]) -> int:
    """Least deadwood of `loose` cards laid off one at a time, any card onto any meld it fits."""

    @cache
    def walk(table: tuple[frozenset[Card], ...], left: frozenset[Card]) -> int:
        best = points(left)
        for card in left:
            for i, meld in enumerate(table):
                if is_meld(meld | {card}):
                    grown = (*table[:i], meld | {card}, *table[i + 1 :])
                    best = min(best, walk(grown, left - {card}))
        return best

    return walk(tuple(frozenset(meld) for meld in knocker_melds), frozenset(loose))


def ref_defender_deadwood(knocker_melds: Sequence[Sequence[Card]], defender: Sequence[Card]) -> int:
    return min(
        ref_layoff_deadwood(knocker_melds, set(defender) - set().union(*sel))
        for sel in meld_selections(defender)
    )


# --------------------------------------------------------------------------------------------
# Consistency checks on the solver's own answers.


def check_arrangement(hand: Sequence[Card], arrangement: Arrangement) -> None:
    melded = [card for meld in arrangement.melds for card in meld]
    assert sorted(melded + list(arrangement.deadwood_cards)) == sorted(hand)
    assert len(set(melded)) == len(melded)
    for meld in arrangement.melds:
        assert is_meld(meld)
        assert list(meld) == sorted(meld)
    assert list(arrangement.melds) == sorted(arrangement.melds)
    assert list(arrangement.deadwood_cards) == sorted(arrangement.deadwood_cards)
    assert arrangement.deadwood == points(arrangement.deadwood_cards)


def check_defender(
    knocker_melds: Sequence[Sequence[Card]], defender: Sequence[Card], result: DefenderResult
) -> None:
    table = [set(meld) for meld in knocker_melds]
    for layoff in result.layoffs:  # each layoff must fit when played in the order given
        assert is_meld(table[layoff.onto] | {layoff.card}), layoff
        table[layoff.onto].add(layoff.card)
    laid = [layoff.card for layoff in result.layoffs]
    own = [card for meld in result.melds for card in meld]
    assert sorted(laid + own + list(result.deadwood_cards)) == sorted(defender)
    assert all(is_meld(meld) for meld in result.melds)
    assert list(result.deadwood_cards) == sorted(result.deadwood_cards)
    assert result.deadwood == points(result.deadwood_cards)


# --------------------------------------------------------------------------------------------
# best_arrangement / all_best_arrangements


def test_seed_hand_best_discard_is_king_for_gin() -> None:
    result = best_discard(cards("4♥ 5♥ 6♥ 9♣ 9♦ 9♠ A♣ 2♣ 3♣ K♦ 7♥"))
    assert result.discard == Card(13, "d")
    assert result.big_gin is False
    assert result.arrangement.deadwood == 0
    assert result.arrangement.deadwood_cards == ()
    assert meld_texts(result.arrangement.melds) == ["A♣ 2♣ 3♣", "4♥ 5♥ 6♥ 7♥", "9♣ 9♦ 9♠"]


def test_seed_hand_before_drawing() -> None:
    arrangement = best_arrangement(cards("4♥ 5♥ 6♥ 9♣ 9♦ 9♠ A♣ 2♣ 3♣ K♦"))
    assert meld_texts(arrangement.melds) == ["A♣ 2♣ 3♣", "4♥ 5♥ 6♥", "9♣ 9♦ 9♠"]
    assert arrangement.deadwood_cards == (Card(13, "d"),)
    assert arrangement.deadwood == 10


def test_big_gin_with_eleven_cards() -> None:
    result = best_discard(cards("A♠ 2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦ Q♦"))
    assert result.big_gin is True
    # A♠, 4♠, 9♦ and Q♦ each leave gin; the highest value among them goes.
    assert result.discard == Card(12, "d")
    assert result.arrangement.deadwood == 0
    assert meld_texts(result.arrangement.melds) == ["A♠ 2♠ 3♠ 4♠", "5♣ 5♦ 5♥", "9♦ 10♦ J♦"]


def test_eleven_card_gin_that_is_not_big_gin() -> None:
    # 3 + 3 + 4 melded plus one loose card: not big gin, discarding the loose card gives gin.
    result = best_discard(cards("2♠ 3♠ 4♠ 8♥ 8♦ 8♣ J♣ Q♣ K♣ 10♣ 6♦"))
    assert result.big_gin is False
    assert result.discard == Card(6, "d")
    assert result.arrangement.deadwood == 0


def test_discard_tie_prefers_highest_value_then_rank() -> None:
    # No melds at all: every discard leaves 10 cards; the kings and queen tie on value 10.
    result = best_discard(cards("A♠ 3♥ 5♦ 7♣ 9♠ J♥ K♦ Q♣ K♠ 2♦ 4♣"))
    assert result.big_gin is False
    assert result.discard == Card(13, "s")
    assert result.arrangement.deadwood == 1 + 3 + 5 + 7 + 9 + 10 + 10 + 10 + 2 + 4


def test_ace_is_low_only() -> None:
    arrangement = best_arrangement(cards("Q♠ K♠ A♠"))
    assert arrangement.melds == ()
    assert arrangement.deadwood == 21
    assert best_arrangement(cards("K♠ A♥ 2♥")).deadwood == 13  # no run across suits
    assert best_arrangement(cards("Q♥ K♥ A♦ 2♦")).melds == ()
    low = best_arrangement(cards("A♠ 2♠ 3♠ K♠"))
    assert meld_texts(low.melds) == ["A♠ 2♠ 3♠"]
    assert low.deadwood == 10


def test_card_fitting_set_and_run_takes_the_smaller_deadwood() -> None:
    # Set 7♠ 7♦ 7♥ leaves 5♥ 6♥ (11); run 5-6-7♥ leaves 7♠ 7♦ (14).
    arrangement = best_arrangement(cards("7♥ 7♠ 7♦ 5♥ 6♥"))
    assert meld_texts(arrangement.melds) == ["7♦ 7♥ 7♠"]
    assert arrangement.deadwood == 11
    # Set 7♠ 7♦ 7♥ leaves 8♥ 9♥ (17); run 7-8-9♥ leaves 7♠ 7♦ (14).
    arrangement = best_arrangement(cards("7♥ 7♠ 7♦ 8♥ 9♥"))
    assert meld_texts(arrangement.melds) == ["7♥ 8♥ 9♥"]
    assert arrangement.deadwood == 14


def test_not_greedy_four_of_a_kind_split() -> None:
    # Greedy four-of-a-kind leaves 5♥ 6♥ (11); a set of three plus 5-6-7♥ leaves nothing.
    arrangement = best_arrangement(cards("7♠ 7♦ 7♥ 7♣ 5♥ 6♥ K♣ K♦ K♥ 2♠"))
    assert meld_texts(arrangement.melds) == ["5♥ 6♥ 7♥", "7♣ 7♦ 7♠", "K♣ K♦ K♥"]
    assert arrangement.deadwood == 2


def test_set_cut_out_of_a_long_run() -> None:
    # 3♥..8♥ plus 5♠ 5♦: the six-card run leaves 5♠ 5♦ (10); taking 5♥ into a set and keeping
    # 6-7-8♥ leaves only 3♥ 4♥ (7).
    arrangement = best_arrangement(cards("3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 5♠ 5♦ 2♣ 9♣"))
    assert meld_texts(arrangement.melds) == ["5♦ 5♥ 5♠", "6♥ 7♥ 8♥"]
    assert arrangement.deadwood_cards == (Card(2, "c"), Card(3, "h"), Card(4, "h"), Card(9, "c"))
    assert arrangement.deadwood == 3 + 4 + 2 + 9


def test_empty_and_small_hands() -> None:
    assert best_arrangement([]) == Arrangement((), (), 0)
    assert best_arrangement(cards("K♠")) == Arrangement((), (Card(13, "s"),), 10)
    assert all_best_arrangements([]) == [Arrangement((), (), 0)]


def test_all_best_arrangements_lists_every_split() -> None:
    # A 6-card run: one run of six, or two runs of three. Same cards melded, different split.
    found = all_best_arrangements(cards("4♥ 5♥ 6♥ 7♥ 8♥ 9♥ K♠"))
    assert sorted(meld_texts(a.melds) for a in found) == [
        ["4♥ 5♥ 6♥", "7♥ 8♥ 9♥"],
        ["4♥ 5♥ 6♥ 7♥ 8♥ 9♥"],
    ]
    assert {a.deadwood for a in found} == {10}
    assert best_arrangement(cards("4♥ 5♥ 6♥ 7♥ 8♥ 9♥ K♠")) == found[0]


def test_all_best_arrangements_with_different_melded_cards() -> None:
    # Middle card of a run also in a set: 4-5-6♥ leaves 5♠ 5♦, 5♥ 5♠ 5♦ leaves 4♥ 6♥ (10 each).
    found = all_best_arrangements(cards("4♥ 5♥ 6♥ 5♠ 5♦"))
    assert sorted(meld_texts(a.melds) for a in found) == [["4♥ 5♥ 6♥"], ["5♦ 5♥ 5♠"]]
    assert {a.deadwood for a in found} == {10}


def test_duplicate_cards_refused() -> None:
    with pytest.raises(HginError, match=r"^7♠ is given twice$"):
        best_arrangement([Card(7, "s"), Card(8, "s"), Card(7, "s")])


def test_best_discard_needs_eleven_cards() -> None:
    with pytest.raises(HginError, match=r"^choosing a discard needs 11 cards, got 10$"):
        best_discard(cards("A♠ 2♠ 3♠ 4♠ 5♥ 5♦ 5♣ 9♦ 10♦ J♦"))


@pytest.mark.parametrize("seed", range(300))
def test_best_arrangement_matches_brute_force_random(seed: int) -> None:
    rng = random.Random(seed)
    hand = rng.sample(DECK if seed % 2 else LOW_DECK, 10)
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood == ref_deadwood(hand)


@pytest.mark.parametrize("seed", range(100))
def test_all_best_arrangements_match_brute_force_random(seed: int) -> None:
    rng = random.Random(1000 + seed)
    hand = rng.sample(LOW_DECK if seed % 3 else DECK, 10)
    found = all_best_arrangements(hand)
    for arrangement in found:
        check_arrangement(hand, arrangement)
    as_sets = [frozenset(frozenset(meld) for meld in a.melds) for a in found]
    assert len(set(as_sets)) == len(as_sets)  # no arrangement twice
    assert set(as_sets) == ref_best_meld_sets(hand)
    assert found[0] == best_arrangement(hand)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
def test_best_arrangement_matches_brute_force_hypothesis(hand: list[Card]) -> None:
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood == ref_deadwood(hand)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(LOW_DECK), min_size=10, max_size=10, unique=True))
def test_best_arrangement_matches_brute_force_dense_hypothesis(hand: list[Card]) -> None:
    assert best_arrangement(hand).deadwood == ref_deadwood(hand)


@pytest.mark.parametrize("seed", range(60))
def test_best_discard_matches_brute_force_random(seed: int) -> None:
    rng = random.Random(2000 + seed)
    hand = rng.sample(LOW_DECK if seed % 2 else DECK, 11)
    result = best_discard(hand)
    left = {card: ref_deadwood([c for c in hand if c != card]) for card in hand}
    least = min(left.values())
    assert result.arrangement.deadwood == least
    assert left[result.discard] == least
    assert result.discard.value == max(card.value for card in hand if left[card] == least)
    check_arrangement([c for c in hand if c != result.discard], result.arrangement)
    assert result.big_gin == (ref_deadwood(hand) == 0)


# --------------------------------------------------------------------------------------------
# Layoffs


def test_chained_layoffs_on_a_run() -> None:
    result = defender_count([cards("5♥ 6♥ 7♥")], cards("8♥ 9♥ 4♥ K♠ 2♣"))
    assert result.layoffs == (
        Layoff(Card(8, "h"), 0),
        Layoff(Card(9, "h"), 0),
        Layoff(Card(4, "h"), 0),
    )
    assert result.melds == ()
    assert result.deadwood_cards == (Card(2, "c"), Card(13, "s"))
    assert result.deadwood == 12


def test_layoff_chain_needs_the_link() -> None:
    # 9♥ does not touch 5-6-7♥ without 8♥.
    result = defender_count([cards("5♥ 6♥ 7♥")], cards("9♥ 3♥"))
    assert result.layoffs == ()
    assert result.deadwood == 12


def test_run_ends_at_king_and_ace() -> None:
    # Nothing goes above K♠ or below A♦: not A♠ (no wrap) and not the neighbouring suits' A♥ / K♥.
    result = defender_count([cards("J♠ Q♠ K♠"), cards("A♦ 2♦ 3♦")], cards("A♠ A♥ K♥ K♦ 10♠ 4♦"))
    assert result.layoffs == (Layoff(Card(10, "s"), 0), Layoff(Card(4, "d"), 1))
    assert result.deadwood_cards == (Card(1, "h"), Card(1, "s"), Card(13, "d"), Card(13, "h"))
    assert result.deadwood == 22


def test_fourth_card_of_a_set_laid_off() -> None:
    result = defender_count([cards("9♣ 9♦ 9♠"), cards("K♥ K♦ K♣ K♠")], cards("9♥ 2♦ Q♥"))
    assert result.layoffs == (Layoff(Card(9, "h"), 0),)
    assert result.deadwood_cards == (Card(2, "d"), Card(12, "h"))
    assert result.deadwood == 12


def test_card_for_set_or_run_goes_where_it_helps() -> None:
    # 7♥ fits the 7s and the run; only on the run does it let 8♥ follow.
    result = defender_count([cards("4♥ 5♥ 6♥"), cards("7♠ 7♦ 7♣")], cards("7♥ 8♥ K♠"))
    assert result.layoffs == (Layoff(Card(7, "h"), 0), Layoff(Card(8, "h"), 0))
    assert result.deadwood == 10


def test_breaking_own_meld_to_lay_off_is_better() -> None:
    # Own four 8s leave 9♥ (9). Three 8s plus 8♥ then 9♥ laid off on 5-6-7♥ leave nothing.
    result = defender_count([cards("5♥ 6♥ 7♥")], cards("8♠ 8♦ 8♣ 8♥ 9♥"))
    assert result.deadwood == 0
    assert meld_texts(result.melds) == ["8♣ 8♦ 8♠"]
    assert result.layoffs == (Layoff(Card(8, "h"), 0), Layoff(Card(9, "h"), 0))


def test_defender_keeps_own_meld_when_better() -> None:
    result = defender_count([cards("9♣ 10♣ J♣")], cards("6♣ 7♣ 8♣ Q♦"))
    # Laying off 8♣ 7♣ 6♣ or melding 6-7-8♣ both leave Q♦.
    assert result.deadwood == 10
    assert result.deadwood_cards == (Card(12, "d"),)


def test_defender_refuses_bad_input() -> None:
    with pytest.raises(HginError, match=r"^5♥ is in both hands$"):
        defender_count([cards("5♥ 6♥ 7♥")], cards("5♥ 9♠"))
    with pytest.raises(HginError, match=r"^5♥ 6♥ 8♥ is not a meld$"):
        defender_count([cards("5♥ 6♥ 8♥")], cards("9♠"))
    with pytest.raises(HginError, match=r"^9♠ is given twice$"):
        defender_count([cards("5♥ 6♥ 7♥")], [Card(9, "s"), Card(9, "s")])


def random_knock(rng: random.Random, deck: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    dealt = rng.sample(deck, 20)
    return dealt[:10], dealt[10:]


@pytest.mark.parametrize("seed", range(120))
def test_defender_count_matches_brute_force_random(seed: int) -> None:
    rng = random.Random(3000 + seed)
    knocker, defender = random_knock(rng, LOW_DECK if seed % 4 else DECK)
    knocker_melds = best_arrangement(knocker).melds
    result = defender_count(knocker_melds, defender)
    check_defender(knocker_melds, defender, result)
    assert result.deadwood == ref_defender_deadwood(knocker_melds, defender)


@pytest.mark.parametrize("seed", range(60))
def test_count_knock_matches_brute_force_random(seed: int) -> None:
    rng = random.Random(4000 + seed)
    knocker, defender = random_knock(rng, LOW_DECK if seed % 3 else DECK)
    counted = count_knock(knocker, defender)
    check_arrangement(knocker, counted.knocker)
    knocker_least = ref_deadwood(knocker)
    assert counted.knocker.deadwood == knocker_least
    assert counted.gin == (knocker_least == 0)
    if counted.gin:
        assert counted.defender.layoffs == ()
        assert counted.defender.deadwood == ref_deadwood(defender)
    else:
        options = ref_best_meld_sets(knocker)
        assert frozenset(frozenset(m) for m in counted.knocker.melds) in options
        worst = max(
            ref_defender_deadwood([sorted(m) for m in melds], defender) for melds in options
        )
        assert counted.defender.deadwood == worst
        check_defender(counted.knocker.melds, defender, counted.defender)


# --------------------------------------------------------------------------------------------
# Knock counting


def test_no_layoffs_against_gin() -> None:
    knocker = cards("5♥ 6♥ 7♥ 9♣ 9♦ 9♠ A♣ 2♣ 3♣ 4♣")
    defender = cards("8♥ 4♥ 9♥ 5♣ K♠ K♦ 2♥ 3♦ Q♠ J♦")
    counted = count_knock(knocker, defender)
    assert counted.gin is True
    assert counted.knocker.deadwood == 0
    assert counted.defender.layoffs == ()
    assert counted.defender.melds == ()
    assert counted.defender.deadwood == 8 + 4 + 9 + 5 + 10 + 10 + 2 + 3 + 10 + 10
    # The same cards against a knock (not gin) would lay off 8♥ 9♥ 4♥ and 5♣.
    without_gin = defender_count(counted.knocker.melds, defender)
    assert without_gin.deadwood == 10 + 10 + 2 + 3 + 10 + 10


def test_knocker_tie_break_leaves_defender_more_deadwood() -> None:
    # Knocker ties at 10: run 4-5-6♥ (deadwood 5♠ 5♦) or set 5♥ 5♠ 5♦ (deadwood 4♥ 6♥).
    knocker = cards("4♥ 5♥ 6♥ 5♠ 5♦ 9♣ 10♣ J♣ Q♣ K♣")
    assert len(all_best_arrangements(knocker)) == 2

    # Defender with 3♥ and 7♥ could lay both off on the run: the set is chosen instead.
    counted = count_knock(knocker, cards("3♥ 7♥ 2♠ 2♦ 2♣ 8♠ 8♦ 8♥ Q♦ J♠"))
    assert counted.gin is False
    assert counted.knocker.deadwood == 10
    assert meld_texts(counted.knocker.melds) == ["5♦ 5♥ 5♠", "9♣ 10♣ J♣ Q♣ K♣"]
    assert counted.defender.layoffs == ()
    assert counted.defender.deadwood == 3 + 7 + 10 + 10

    # Defender with 5♣ could lay it off on the set: the run is chosen instead.
    counted = count_knock(knocker, cards("5♣ 2♠ 2♦ 2♣ 8♠ 8♦ 8♥ Q♦ J♠ 3♦"))
    assert meld_texts(counted.knocker.melds) == ["4♥ 5♥ 6♥", "9♣ 10♣ J♣ Q♣ K♣"]
    assert counted.knocker.deadwood_cards == (Card(5, "d"), Card(5, "s"))
    assert counted.defender.layoffs == ()
    assert counted.defender.deadwood == 5 + 10 + 10 + 3


def test_knock_with_layoffs_counted() -> None:
    knocker = cards("5♥ 6♥ 7♥ 9♣ 9♦ 9♠ A♣ 2♣ 3♣ 4♦")
    defender = cards("8♥ 9♥ 4♣ 5♣ K♠ K♦ K♥ 2♦ 3♦ Q♠")
    counted = count_knock(knocker, defender)
    assert counted.gin is False
    assert counted.knocker.deadwood == 4
    assert meld_texts(counted.knocker.melds) == ["A♣ 2♣ 3♣", "5♥ 6♥ 7♥", "9♣ 9♦ 9♠"]
    assert meld_texts(counted.defender.melds) == ["K♦ K♥ K♠"]
    # 8♥ goes on the run; 9♥ then fits the run or the 9s (either is legal): 4♣ 5♣ go on A-2-3♣.
    laid = {layoff.card: layoff.onto for layoff in counted.defender.layoffs}
    assert laid.keys() == {Card(8, "h"), Card(9, "h"), Card(4, "c"), Card(5, "c")}
    assert (laid[Card(8, "h")], laid[Card(4, "c")], laid[Card(5, "c")]) == (1, 0, 0)
    assert laid[Card(9, "h")] in (1, 2)
    check_defender(counted.knocker.melds, defender, counted.defender)
    assert counted.defender.deadwood_cards == (Card(2, "d"), Card(3, "d"), Card(12, "s"))
    assert counted.defender.deadwood == 15


def test_count_knock_refuses_shared_cards() -> None:
    with pytest.raises(HginError, match=r"^A♣ is in both hands$"):
        count_knock(cards("A♣ 2♣ 3♣"), cards("A♣ K♦"))
