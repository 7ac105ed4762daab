"""The line parser of `hgin play`, on its own: every line becomes an action or a refusal."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hgin.engine.editing import entry_text
from hgin.engine.hands import Hand
from hgin.errors import HginError
from hgin.play.parser import (
    COMMANDS,
    Action,
    Command,
    CountCards,
    find_word,
    parse_entry,
    parse_line,
)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("gin ines 18", Command("gin", Hand("gin", "ines", None, 18))),
        ("g i 0", Command("gin", Hand("gin", "i", None, 0))),
        ("GIN Ines 18", Command("gin", Hand("gin", "Ines", None, 18))),
        ("gin ines 18 --big", Command("gin", Hand("big_gin", "ines", None, 18))),
        ("g i 18 -b -u Qh", Command("gin", Hand("big_gin", "i", None, 18, "Qh"))),
        ("knock osk 7 12", Command("knock", Hand("knock", "osk", 7, 12))),
        ("kn o 7 12 --upcard 7s", Command("knock", Hand("knock", "o", 7, 12, "7s"))),
        ("k --upcard=7s o 7 12", Command("knock", Hand("knock", "o", 7, 12, "7s"))),
        ('k "Mary Ann" 3 20', Command("knock", Hand("knock", "Mary Ann", 3, 20))),
        ("k o +7 012", Command("knock", Hand("knock", "o", 7, 12))),
        (
            'k a -o "2s 3s" --hand=4d',
            Command("knock", Hand("knock", "a", None, None, None, "4d", "2s 3s")),
        ),
        (
            "k a 4 --hand 4d -o 2s",
            Command("knock", Hand("knock", "a", 4, None, None, "4d", "2s")),
        ),
        ("g a --opponent 2s", Command("gin", Hand("gin", "a", None, None, None, None, "2s"))),
        ("d", Command("draw", Hand("draw"))),
        ("dr", Command("draw", Hand("draw"))),
        ("draw", Command("draw", Hand("draw"))),
        ("hgin draw", Command("draw", Hand("draw"))),
        ("u", Command("undo")),
        ("r", Command("redo")),
        ("s", Command("show")),
        ("sh", Command("show")),
        ("su", Command("summary")),
        ("q", Command("quit")),
        ("exit", Command("quit")),
        ("  quit  ", Command("quit")),
        ("h", Command("help")),
        ("?", Command("help")),
        ("help k", Command("help", topic="knock")),
        ("e 3 k bob 4 20", Command("edit", Hand("knock", "bob", 4, 20), 3)),
        ("edit 1 d", Command("edit", Hand("draw"), 1)),
        ("edit 2 g a 10 --big", Command("edit", Hand("big_gin", "a", None, 10), 2)),
        ("del 3", Command("delete", number=3)),
        ("delete 12", Command("delete", number=12)),
        ("", None),
        ("   ", None),
        ("# a comment", None),
        ("hgin", None),
    ],
)
def test_lines_become_actions(line: str, action: object) -> None:
    assert parse_line(line) == action


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("x", "no command 'x' (help lists them)"),
        ("drow", "no command 'drow': did you mean 'draw'?"),
        ("de 3", "'de' is too short: type 'del' for delete"),
        ("gin", "missing words for gin: type gin PLAYER THEIRS"),
        ("gin a 1 2", "too many words for gin: type gin PLAYER THEIRS"),
        ("knock a 1", "missing words for knock: type knock PLAYER MINE THEIRS"),
        ("draw now", "a dead hand is just draw: no player, counts or cards"),
        ("draw -u 7s", "a dead hand needs no upcard"),
        ("knock a 1 2 --big", "--big goes with gin only"),
        ("gin a 1 -u", "-u needs a card, as in -u 7s"),
        ("gin a 1.5", "the opponent's deadwood must be a whole number, not '1.5'"),
        ("gin a 1234567", "the opponent's deadwood 1234567 is far too large"),
        ("knock a x 3", "the knocker's deadwood must be a whole number, not 'x'"),
        ("edit", "say which hand: edit N gin|knock|draw ..."),
        ("edit two gin a 3", "the hand number must be a whole number, not 'two'"),
        ("edit 2", "say what happened: gin, knock or draw, for example 'knock bob 4 20'"),
        (
            "edit 2 undo",
            "'undo' is not a kind of hand: use gin|knock|draw, for example 'knock bob 4 20'",
        ),
        ("del", "say which hand: delete N"),
        ("del 3 4", "too many words for delete: type delete N"),
        ("undo 2", "undo takes nothing more: type just u"),
        ("help me please", "type help, or help and one command word"),
        ("'open", "cannot read that line: no closing quotation"),
        ("k a 1 2 3 --hand 4d -o 2s", "too many words for knock: type knock PLAYER MINE THEIRS"),
        ("g a --hand", '--hand needs the cards, as in --hand "7s 8s 9s ..."'),
        ("d --hand 4d", "a dead hand is just draw: no player, counts or cards"),
    ],
)
def test_mistyped_lines_are_refused_with_a_hint(line: str, message: str) -> None:
    with pytest.raises(HginError) as refusal:
        parse_line(line)
    assert str(refusal.value) == message


def test_no_start_of_a_word_can_mean_two_commands() -> None:
    for word in COMMANDS:
        for end in range(1, len(word.name) + 1):
            typed = word.name[:end]
            hits = [w for w in COMMANDS if w.name.startswith(typed) and end >= len(w.shortest)]
            assert len(hits) <= 1, typed
            if end >= len(word.shortest):
                assert find_word(typed.upper()) == word


def test_count_lines_give_the_cards_to_count() -> None:
    assert parse_line("C\n0") == CountCards(("0",))  # counted (and refused) later, as cards
    assert parse_line("c 7s 8s -o 'Kd Qd'") == CountCards(("7s", "8s"), "Kd Qd")


@given(st.text())
def test_any_line_gives_an_action_or_a_refusal(line: str) -> None:
    try:
        action = parse_line(line)
    except HginError:
        return  # a refusal is the only exception a line may cause
    assert action is None or isinstance(action, Action)


words = st.sampled_from(
    [
        "g",
        "gin",
        "k",
        "knock",
        "d",
        "del",
        "e",
        "edit",
        "u",
        "s",
        "su",
        "q",
        "h",
        "c",
        "count",
        "-o",
        "7s",
        "-u",
        "--big",
        "-b",
        "--upcard=7s",
        "--x",
        "ines",
        "o",
        "0",
        "7",
        "12",
        "99",
        "-3",
        "1e3",
        '"',
        "'",
        "#",
    ]
)


@given(st.lists(words, max_size=7))
def test_any_sequence_of_likely_words_gives_an_action_or_a_refusal(typed: list[str]) -> None:
    try:
        action = parse_line(" ".join(typed))
    except HginError:
        return
    assert action is None or isinstance(action, Action)


@given(
    st.sampled_from(["gin", "big_gin", "knock", "draw"]),
    st.sampled_from(["Ann", "Mary Ann", "Bob"]),
    st.integers(0, 98),
    st.integers(1, 10),
    st.one_of(st.none(), st.sampled_from(["7s", "Kd", "A♠"])),
)
def test_a_hand_written_back_parses_to_the_same_entry(
    kind: str, player: str, theirs: int, mine: int, upcard: str | None
) -> None:
    if kind == "draw":
        hand = Hand("draw")
    elif kind == "knock":
        hand = Hand("knock", player, mine, theirs, upcard)
    else:
        hand = Hand(kind, player, None, theirs, upcard)  # type: ignore[arg-type]
    entry = parse_entry(shlex.split(entry_text(hand)))
    assert (entry.kind, entry.player, entry.deadwood) == (hand.kind, hand.player, hand.deadwood)
    assert (entry.opponent_deadwood, entry.upcard) == (hand.opponent_deadwood, hand.upcard)
