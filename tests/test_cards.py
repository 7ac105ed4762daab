"""Tests for hgin.cards.model: the card model, parsing and formatting."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hgin.cards.model import RANK_NAMES, Card, format_cards, full_deck, parse_card, parse_cards
from hgin.errors import HginError

DECK = full_deck()


def test_full_deck_is_52_distinct_sorted_cards() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert list(DECK) == sorted(DECK)
    assert DECK[0] == Card(1, "c")
    assert DECK[-1] == Card(13, "s")


@pytest.mark.parametrize(
    ("card", "text", "ascii_text", "value"),
    [
        (Card(7, "s"), "7♠", "7s", 7),
        (Card(10, "d"), "10♦", "10d", 10),
        (Card(1, "c"), "A♣", "Ac", 1),
        (Card(13, "h"), "K♥", "Kh", 10),
        (Card(11, "s"), "J♠", "Js", 10),
        (Card(12, "d"), "Q♦", "Qd", 10),
        (Card(2, "h"), "2♥", "2h", 2),
        (Card(9, "c"), "9♣", "9c", 9),
    ],
)
def test_card_text_and_value(card: Card, text: str, ascii_text: str, value: int) -> None:
    assert str(card) == text
    assert parse_card(ascii_text) == card
    assert card.value == value


def test_card_values_over_the_deck() -> None:
    assert sum(card.value for card in DECK) == 4 * (sum(range(1, 11)) + 30)


def test_card_is_frozen_and_ordered() -> None:
    card = Card(5, "h")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 6  # type: ignore[misc]
    assert Card(2, "s") < Card(3, "c")
    assert Card(3, "c") < Card(3, "d")
    assert sorted([Card(13, "s"), Card(1, "h"), Card(10, "c")]) == [
        Card(1, "h"),
        Card(10, "c"),
        Card(13, "s"),
    ]


@pytest.mark.parametrize(("rank", "suit"), [(0, "s"), (14, "h"), (7, "x"), (7, "S")])
def test_card_refuses_bad_fields(rank: int, suit: str) -> None:
    with pytest.raises(ValueError):
        Card(rank, suit)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7♠", Card(7, "s")),
        ("10d", Card(10, "d")),
        ("Td", Card(10, "d")),
        ("td", Card(10, "d")),
        ("10D", Card(10, "d")),
        ("qS", Card(12, "s")),
        ("A♣", Card(1, "c")),
        ("ac", Card(1, "c")),
        ("kh", Card(13, "h")),
        ("KH", Card(13, "h")),
        ("J♦", Card(11, "d")),
        ("2c", Card(2, "c")),
        ("9♥", Card(9, "h")),
        ("  5s\t", Card(5, "s")),
        ("7♤", Card(7, "s")),
        ("7♡", Card(7, "h")),
        ("7♢", Card(7, "d")),
        ("7♧", Card(7, "c")),
        ("Q\u2665\ufe0f", Card(12, "h")),
    ],
)
def test_parse_card_spellings(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1s", "'1s' is not a card: the rank must be A, 2-10, T, J, Q or K"),
        ("11h", "'11h' is not a card: the rank must be A, 2-10, T, J, Q or K"),
        ("Zd", "'Zd' is not a card: the rank must be A, 2-10, T, J, Q or K"),
        ("7x", "'7x' is not a card: the suit must be s, h, d or c (or ♠ ♥ ♦ ♣)"),
        ("Kb", "'Kb' is not a card: the suit must be s, h, d or c (or ♠ ♥ ♦ ♣)"),
        ("xx", "'xx' is not a card: write rank then suit, like 7s, Td, Q♥"),
        ("7", "'7' is not a card: write rank then suit, like 7s, Td, Q♥"),
        ("", "'' is not a card: write rank then suit, like 7s, Td, Q♥"),
        ("s7", "'s7' is not a card: write rank then suit, like 7s, Td, Q♥"),
    ],
)
def test_parse_card_refusals_name_the_text(text: str, message: str) -> None:
    with pytest.raises(HginError) as info:
        parse_card(text)
    assert str(info.value) == message


def test_parse_cards_mixed_spellings_and_separators() -> None:
    expected = (
        Card(7, "s"),
        Card(10, "d"),
        Card(10, "h"),
        Card(12, "s"),
        Card(1, "c"),
        Card(13, "h"),
    )
    assert parse_cards("7♠ 10d Th qS A♣ kh") == expected
    assert parse_cards("7♠,10d,Th,qS,A♣,kh") == expected
    assert parse_cards(" 7♠ , 10d,, Th  qS,A♣\tkh ") == expected
    assert parse_cards(["7♠ 10d", "Th,qS", "A♣", "kh"]) == expected
    assert parse_cards(("7♠", "10d", "Th", "qS", "A♣", "kh"), count=6) == expected


def test_parse_cards_empty() -> None:
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()
    assert parse_cards([]) == ()


def test_parse_cards_refuses_unknown_card() -> None:
    with pytest.raises(HginError, match=r"^'7x' is not a card"):
        parse_cards("7s 7x 8s")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7s 8s 7♠", "7♠ is given twice"),
        ("Td 10d", "10♦ is given twice"),
        ("Ah, 2h, AH", "A♥ is given twice"),
    ],
)
def test_parse_cards_refuses_duplicates(text: str, message: str) -> None:
    with pytest.raises(HginError) as info:
        parse_cards(text)
    assert str(info.value) == message


def test_parse_cards_refuses_duplicates_across_sequence_items() -> None:
    with pytest.raises(HginError, match=r"^Q♣ is given twice$"):
        parse_cards(["Qc 3d", "qc"])


def test_parse_cards_counts() -> None:
    nine = "As 2s 3s 4s 5s 6s 7s 8s 9s"
    assert len(parse_cards(nine, count=9)) == 9
    assert len(parse_cards(nine, count=(9, 10))) == 9
    with pytest.raises(HginError) as info:
        parse_cards(nine, count=10)
    assert str(info.value) == "expected 10 cards, got 9"
    with pytest.raises(HginError) as info:
        parse_cards(nine, count=(10, 11))
    assert str(info.value) == "expected 10 or 11 cards, got 9"
    with pytest.raises(HginError) as info:
        parse_cards("As 2s", count=1)
    assert str(info.value) == "expected 1 card, got 2"
    with pytest.raises(HginError) as info:
        parse_cards("", count=(1, 2, 3))
    assert str(info.value) == "expected 1, 2 or 3 cards, got 0"


def test_format_cards() -> None:
    assert format_cards([Card(7, "s"), Card(10, "d"), Card(1, "c"), Card(13, "h")]) == (
        "7♠ 10♦ A♣ K♥"
    )
    assert format_cards([]) == ""


def ascii_of(card: Card) -> str:
    """A card as typed in plain ASCII: '7s', '10d', 'Ah'."""
    return f"{RANK_NAMES[card.rank]}{card.suit}"


@given(st.sampled_from(DECK))
def test_text_round_trips(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(ascii_of(card)) == card
    assert parse_card(ascii_of(card).lower()) == card
    assert parse_card(ascii_of(card).upper()) == card


@given(st.lists(st.sampled_from(DECK), unique=True, max_size=20))
def test_format_then_parse_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(", ".join(ascii_of(card) for card in cards), count=len(cards)) == tuple(
        cards
    )
