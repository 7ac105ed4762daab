"""Playing cards: the card model, parsing of what people type, and formatting. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hgin.cards.suits import SUIT_LETTERS
from hgin.errors import HginError

SUITS: tuple[str, ...] = ("s", "h", "d", "c")  # in display order

SUIT_SYMBOLS: dict[str, str] = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}

RANK_NAMES: dict[int, str] = {
    1: "A",
    **{r: str(r) for r in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
}

_RANK_INPUT: dict[str, int] = {
    "a": 1,
    **{str(r): r for r in range(2, 11)},
    "t": 10,
    "j": 11,
    "q": 12,
    "k": 13,
}

_SUIT_INPUT: dict[str, str] = {**{letter: letter for letter in SUITS}, **SUIT_LETTERS}

# Emoji presentation selectors that some keyboards append to ♠ ♥ ♦ ♣.
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")

_SEPARATORS = re.compile(r"[\s,]+")

_HOW_TO_WRITE = "write rank then suit, like 7s, Td, Q♥"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Ordering is by rank, then by suit letter."""

    rank: int  # 1 = ace, 2-10, 11 = jack, 12 = queen, 13 = king
    suit: str  # one of SUITS

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise ValueError(f"card rank must be 1..13, not {self.rank!r}")
        if self.suit not in SUIT_SYMBOLS:
            raise ValueError(f"card suit must be one of s h d c, not {self.suit!r}")

    @property
    def value(self) -> int:
        """Deadwood points: ace 1, 2-10 face value, J Q K 10."""
        return min(self.rank, 10)

    def __str__(self) -> str:
        return f"{RANK_NAMES[self.rank]}{SUIT_SYMBOLS[self.suit]}"


def parse_card(text: str) -> Card:
    """Parse one card such as "7♠", "10d", "Td", "qS" or "kh" (any case, spacing around)."""
    raw = text.strip()
    cleaned = raw.translate(_VARIATION_SELECTORS).lower()
    if len(cleaned) < 2:
        raise HginError(f"'{raw}' is not a card: {_HOW_TO_WRITE}")
    suit = _SUIT_INPUT.get(cleaned[-1])
    rank = _RANK_INPUT.get(cleaned[:-1])
    if suit is None and rank is None:
        raise HginError(f"'{raw}' is not a card: {_HOW_TO_WRITE}")
    if suit is None:
        raise HginError(f"'{raw}' is not a card: the suit must be s, h, d or c (or ♠ ♥ ♦ ♣)")
    if rank is None:
        raise HginError(f"'{raw}' is not a card: the rank must be A, 2-10, T, J, Q or K")
    return Card(rank, suit)


def parse_cards(
    text: str | Sequence[str], count: int | tuple[int, ...] | None = None
) -> tuple[Card, ...]:
    """Cards separated by spaces and/or commas in one or more strings, in order; refuses
    unknown cards, duplicates and a number of cards not `count` (or one of its counts)."""
    pieces = [text] if isinstance(text, str) else list(text)
    tokens = [tok for piece in pieces for tok in _SEPARATORS.split(piece) if tok]
    cards = tuple(parse_card(tok) for tok in tokens)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise HginError(f"{card} is given twice")
        seen.add(card)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else count
        if len(cards) not in allowed:
            *others, last = map(str, allowed)
            joined = f"{', '.join(others)} or {last}" if others else last
            noun = "card" if allowed == (1,) else "cards"
            raise HginError(f"expected {joined} {noun}, got {len(cards)}")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical form joined by single spaces, e.g. "7♠ 10♦ A♣"."""
    return " ".join(str(card) for card in cards)


def full_deck() -> tuple[Card, ...]:
    """All 52 cards, sorted."""
    return tuple(sorted(Card(rank, suit) for suit in SUITS for rank in range(1, 14)))
