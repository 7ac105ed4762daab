"""Properties of the journal over random sequences of changes, undos, redos and restores.

The test keeps its own record of the hands and rules seen after each change number, and checks
the match against it: `restore N` gives what was seen after change N, an undo right after a
change gives what was seen before it, a redo right after an undo gives what was seen before
the undo; and at every step the match read back from its file data is the same state.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.engine import editing
from hgin.engine.hands import Hand
from hgin.engine.match import Match
from hgin.engine.rules import PROFILES
from hgin.errors import HginError
from hgin.store.schema import match_from_dict, match_to_dict

PLAYERS = ("Ann", "Bob")
AT = "2026-01-01T20:00:00+01:00"

hands = st.one_of(
    st.builds(lambda p, d: Hand("gin", p, None, d), st.sampled_from(PLAYERS), st.integers(0, 40)),
    st.builds(
        lambda p, k, d: Hand("knock", p, k, d),
        st.sampled_from(PLAYERS),
        st.integers(1, 10),
        st.integers(0, 40),
    ),
    st.just(Hand("draw")),
)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("record"), hands),
        st.tuples(st.just("edit"), st.integers(1, 8), hands),
        st.tuples(st.just("delete"), st.integers(1, 8)),
        st.tuples(st.just("rules"), st.sampled_from([15, 20, 25, 30])),
        st.tuples(st.just("undo")),
        st.tuples(st.just("redo")),
        st.tuples(st.just("restore"), st.integers(1, 40)),
    ),
    max_size=40,
)


def seen(match: Match) -> tuple[object, ...]:
    return (match.hands, match.rules)


def read_back(match: Match) -> Match:
    return match_from_dict(json.loads(json.dumps(match_to_dict(match))))[0]


def apply(match: Match, step: tuple[object, ...]) -> Match:
    kind = step[0]
    if kind == "record":
        return editing.record(match, step[1], AT)  # type: ignore[arg-type]
    if kind == "edit":
        return editing.edit(match, step[1], step[2], AT)  # type: ignore[arg-type]
    if kind == "delete":
        return editing.delete(match, step[1], AT)  # type: ignore[arg-type]
    if kind == "rules":
        return editing.set_rules(match, {"gin_bonus": step[1]}, AT)
    if kind == "undo":
        return editing.undo(match, AT)
    if kind == "redo":
        return editing.redo(match, AT)
    return editing.restore(match, step[1], AT)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(steps)
def test_any_sequence_replays_and_restores_what_was_seen(sequence: list[tuple[Any, ...]]) -> None:
    match = Match("m", PLAYERS, PROFILES["friendly"], "Ann", "2026-01-01T19:00:00+01:00")
    after = [seen(match)]  # after[n]: the hands and rules seen right after change n
    previous: tuple[object, ...] = ("start",)
    for step in sequence:
        try:
            changed = apply(match, step)
        except HginError:
            continue
        number = len(changed.journal)
        assert number == len(match.journal) + 1
        if step[0] == "restore":
            assert seen(changed) == after[step[1]]  # type: ignore[index]
        if step[0] == "undo" and previous[0] in ("record", "edit", "delete", "rules", "restore"):
            assert seen(changed) == after[number - 2]
        if step[0] == "redo" and previous[0] == "undo":
            assert seen(changed) == after[number - 2]
        after.append(seen(changed))
        again = read_back(changed)
        assert again.state.same_as(changed.state)
        assert again.sheet == changed.sheet
        match, previous = changed, step
    # Every state recorded along the way is what the journal gives after that change.
    for number, state in enumerate(after):
        if number:
            rebuilt = match.state_after(number)
            assert (tuple(rebuilt.hands), rebuilt.rules) == state
