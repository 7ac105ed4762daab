"""Exact meld solver for gin rummy: best arrangement, best discard, layoffs and knock counting.

A meld is a set of 3 or 4 cards of one rank, or a run of 3 or more ranks in one suit (ace low:
Q-K-A is no run); deadwood is the value of the unmelded cards. Cards are numbered 0..51 (suit *
13 + rank - 1) and a hand, like each candidate meld in it, is a bitmask. A depth-first search
takes the lowest remaining card and either leaves it as deadwood or removes a candidate meld
whose lowest card it is, memoised on the remaining mask: exact, one search path per arrangement.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from hgin.cards.model import SUITS, Card
from hgin.errors import HginError

_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_INDEX: dict[Card, int] = {card: i for i, card in enumerate(_DECK)}
_VALUE: tuple[int, ...] = tuple(card.value for card in _DECK)

Meld = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A way to lay out a hand: melds (each sorted, ordered by first card) and the rest."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int


@dataclass(frozen=True, slots=True)
class BestDiscard:
    """The best discard from 11 cards, the best arrangement of the 10 left, and big gin."""

    discard: Card
    arrangement: Arrangement
    big_gin: bool


@dataclass(frozen=True, slots=True)
class Layoff:
    """A defender's card laid off onto the knocker's meld number `onto`."""

    card: Card
    onto: int


@dataclass(frozen=True, slots=True)
class DefenderResult:
    """The defender's least-deadwood outcome, the layoffs in playing order (8♥ before 9♥)."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int


@dataclass(frozen=True, slots=True)
class KnockCount:
    """A counted knock: the knocker's arrangement and the defender's best reply."""

    knocker: Arrangement
    defender: DefenderResult
    gin: bool


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _cards_of(mask: int) -> tuple[Card, ...]:
    return tuple(sorted(_DECK[i] for i in _bits(mask)))


def _mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        bit = 1 << _INDEX[card]
        if mask & bit:
            raise HginError(f"{card} is given twice")
        mask |= bit
    return mask


def _candidate_melds(mask: int) -> dict[int, list[int]]:
    """Every meld inside `mask`, grouped by its lowest card index; longer melds first."""
    melds: list[int] = []
    for rank0 in range(13):
        present = [1 << (s * 13 + rank0) for s in range(4) if mask >> (s * 13 + rank0) & 1]
        for size in (3, 4):
            melds.extend(sum(bits) for bits in combinations(present, size))
    for low in (s * 13 + rank0 for s in range(4) for rank0 in range(11)):
        # Every run held from `low` up, while the suit's ranks last: 3 cards or more.
        for length in range(1, 14 - low % 13):
            if not mask >> (low + length - 1) & 1:
                break
            if length >= 3:
                melds.append(((1 << length) - 1) << low)
    by_low: dict[int, list[int]] = {}
    for meld in melds:
        by_low.setdefault((meld & -meld).bit_length() - 1, []).append(meld)
    for group in by_low.values():
        group.sort(key=lambda m: (-m.bit_count(), m))
    return by_low


class _Solver:
    """Least deadwood of any subset of a fixed hand, memoised on the subset's bitmask."""

    __slots__ = ("_by_low", "_memo")

    def __init__(self, hand_mask: int) -> None:
        self._by_low = _candidate_melds(hand_mask)
        self._memo: dict[int, int] = {0: 0}

    def deadwood(self, mask: int) -> int:
        memo = self._memo
        found = memo.get(mask)
        if found is not None:
            return found
        low = mask & -mask
        index = low.bit_length() - 1
        best = _VALUE[index] + self.deadwood(mask ^ low)
        if best:
            for meld in self._by_low.get(index, ()):
                if meld & mask == meld:
                    rest = self.deadwood(mask ^ meld)
                    if rest < best:
                        best = rest
                        if not best:
                            break
        memo[mask] = best
        return best

    def _options(self, mask: int) -> Iterator[tuple[int, bool]]:
        """Optimal first moves from `mask`: (meld mask, True) or (lowest card bit, False)."""
        target = self.deadwood(mask)
        low = mask & -mask
        index = low.bit_length() - 1
        for meld in self._by_low.get(index, ()):
            if meld & mask == meld and self.deadwood(mask ^ meld) == target:
                yield meld, True
        if _VALUE[index] + self.deadwood(mask ^ low) == target:
            yield low, False

    def every(self, mask: int) -> Iterator[tuple[list[int], int]]:
        """Every optimal (meld masks, deadwood mask) of `mask` once, the chosen one first."""
        if not mask:
            yield [], 0
            return
        for move, is_meld in list(self._options(mask)):
            for melds, dead in self.every(mask ^ move):
                if is_meld:
                    yield [move, *melds], dead
                else:
                    yield melds, dead | move


def _arrangement(meld_masks: Iterable[int], dead_mask: int) -> Arrangement:
    melds = tuple(sorted(_cards_of(m) for m in meld_masks))
    dead = _cards_of(dead_mask)
    return Arrangement(melds, dead, sum(card.value for card in dead))


def best_arrangement(cards: Iterable[Card]) -> Arrangement:
    """A least-deadwood arrangement of distinct cards (deterministic among ties)."""
    mask = _mask_of(cards)
    return _arrangement(*next(_Solver(mask).every(mask)))


def best_discard(cards: Iterable[Card]) -> BestDiscard:
    """The discard leaving least deadwood; ties: highest value, higher rank, ♠ ♥ ♦ ♣ order."""
    mask = _mask_of(cards)
    if mask.bit_count() != 11:
        raise HginError(f"choosing a discard needs 11 cards, got {mask.bit_count()}")
    solver = _Solver(mask)

    def key(index: int) -> tuple[int, int, int, int]:
        card = _DECK[index]
        left = solver.deadwood(mask ^ (1 << index))
        return (left, -card.value, -card.rank, SUITS.index(card.suit))

    best = min(_bits(mask), key=key)
    kept = _arrangement(*next(solver.every(mask ^ (1 << best))))
    return BestDiscard(_DECK[best], kept, solver.deadwood(mask) == 0)


def _layoff_options(meld: Sequence[Card], defender_mask: int) -> list[tuple[int, tuple[int, ...]]]:
    """Ways the defender can add to one knocker meld: (mask, card indices in playing order)."""
    if len(meld) < 3:
        raise HginError(f"{' '.join(map(str, meld)) or 'nothing'} is not a meld: too few cards")
    ranks = sorted(card.rank for card in meld)
    suits = {card.suit for card in meld}
    options: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    if len(set(ranks)) == 1 and len(suits) == len(meld):
        for missing in set(SUITS) - suits:
            index = _INDEX[Card(ranks[0], missing)]
            if defender_mask >> index & 1:
                options.append((1 << index, (index,)))
        return options
    if len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        base = SUITS.index(next(iter(suits))) * 13 - 1  # + rank gives the card index
        below = [base + rank for rank in range(ranks[0] - 1, 0, -1)]
        above = [base + rank for rank in range(ranks[-1] + 1, 14)]
        options = []
        for n_below in range(len(below) + 1):
            for n_above in range(len(above) + 1):
                order = (*above[:n_above], *below[:n_below])
                mask = sum(1 << i for i in order)
                if defender_mask & mask == mask:  # the defender holds every card of it
                    options.append((mask, order))
        return options
    raise HginError(f"{' '.join(map(str, sorted(meld)))} is not a meld")


def _defender(knocker_melds: Sequence[Sequence[Card]], defender_mask: int) -> DefenderResult:
    per_meld = [_layoff_options(meld, defender_mask) for meld in knocker_melds]
    solver = _Solver(defender_mask)
    best: tuple[int, int, list[tuple[int, tuple[int, ...]]]] | None = None

    def search(i: int, used: int, chosen: list[tuple[int, tuple[int, ...]]]) -> None:
        nonlocal best
        if i == len(per_meld):
            score = solver.deadwood(defender_mask ^ used)
            if best is None or score < best[0]:
                best = (score, used, list(chosen))
            return
        for option in per_meld[i]:
            if not option[0] & used:
                chosen.append(option)
                search(i + 1, used | option[0], chosen)
                chosen.pop()
                if best is not None and best[0] == 0:
                    return

    search(0, 0, [])
    assert best is not None
    _, used, chosen = best
    layoffs = tuple(
        Layoff(_DECK[index], onto) for onto, (_, order) in enumerate(chosen) for index in order
    )
    left = _arrangement(*next(solver.every(defender_mask ^ used)))
    return DefenderResult(left.melds, layoffs, left.deadwood_cards, left.deadwood)


def own_count(cards: Iterable[Card]) -> DefenderResult:
    """The opponent's count against gin: their own best melds, nothing laid off."""
    return _defender((), _mask_of(cards))


def count_knock(knocker_cards: Iterable[Card], defender_cards: Iterable[Card]) -> KnockCount:
    """Count a knock: the knocker's least-deadwood melds (among ties, the worst for the defender),
    the defender's least deadwood after layoffs (none against gin)."""
    knocker_mask = _mask_of(knocker_cards)
    defender_mask = _mask_of(defender_cards)
    both = knocker_mask & defender_mask
    if both:
        raise HginError(f"{_cards_of(both)[0]} is in both hands")
    solver = _Solver(knocker_mask)
    if solver.deadwood(knocker_mask) == 0:
        knocker = _arrangement(*next(solver.every(knocker_mask)))
        return KnockCount(knocker=knocker, defender=own_count(_cards_of(defender_mask)), gin=True)
    chosen: tuple[Arrangement, DefenderResult] | None = None
    for melds, dead in solver.every(knocker_mask):
        arrangement = _arrangement(melds, dead)
        result = _defender(arrangement.melds, defender_mask)
        if chosen is None or result.deadwood > chosen[1].deadwood:
            chosen = (arrangement, result)
    assert chosen is not None
    return KnockCount(knocker=chosen[0], defender=chosen[1], gin=False)
