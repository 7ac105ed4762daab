"""Properties of the journal over random sequences of changes, undos, redos and restores.

The match is checked, at every step, against a model of its own: positions like a browser's
history, each holding the hands and the gin bonus (worked out here from the step, not by the
engine), the positions undo goes back to and those redo goes forward to. A change goes forward
and forgets the way forward (setting it aside); undo goes back; redo goes forward again;
restore N goes to the position after change N, keeping the way back to where it came from.
The file data of every step reads back as the same match.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from hypothesis import example, given, settings
from hypothesis import strategies as st

from hgin.engine import editing
from hgin.engine.hands import Hand
from hgin.engine.match import Match
from hgin.engine.rules import PROFILES
from hgin.errors import HginError
from hgin.store.schema import file_bytes, match_from_dict

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
        st.tuples(st.just("restore"), st.integers(1, 12)),
    ),
    max_size=40,
)

Content = tuple[tuple[tuple[object, ...], ...], int]  # the hands (as scored) and the gin bonus


class Position(NamedTuple):
    """Where the model stands: what the match holds; the ways back, latest last, each with the
    change that came forward from there (and whether it was a restore); the ways forward, each
    with the change redo brings back; and the undone changes the latest new change set aside
    (how many, by which change)."""

    content: Content
    back: tuple[tuple[Position, int, bool], ...] = ()
    forward: tuple[tuple[Position, int], ...] = ()
    aside: tuple[int, int] | None = None

    def summary(self) -> tuple[object, ...]:
        return (self.content, self.applied, self.undone, self.aside)

    @property
    def applied(self) -> list[int]:
        return [number for _, number, _ in self.back]

    @property
    def undone(self) -> list[int]:
        return [number for _, number in self.forward]


def scored(hand: Hand) -> tuple[object, ...]:
    return (hand.kind, hand.player, hand.deadwood, hand.opponent_deadwood)


def seen(match: Match) -> Content:
    return tuple(scored(h) for h in match.hands), match.rules.gin_bonus


def changed_content(content: Content, step: tuple[Any, ...]) -> Content:
    """What a change that acts on the match makes of it, worked out here."""
    held, bonus = list(content[0]), content[1]
    if step[0] == "record":
        held.append(scored(step[1]))
    elif step[0] == "edit":
        held[step[1] - 1] = scored(step[2])
    elif step[0] == "delete":
        del held[step[1] - 1]
    else:
        bonus = step[1]
    return tuple(held), bonus


def go_forward(now: Position, content: Content, number: int) -> Position:
    aside = (len(now.forward), number) if now.forward else now.aside
    return Position(content, (*now.back, (now, number, False)), (), aside)


def go_back(now: Position) -> Position:
    before, number, was_restore = now.back[-1]
    if was_restore:  # the whole position the restore left, which can then redo it
        return before._replace(forward=(*before.forward, (now, number)))
    forward = (*now.forward, (now, number))
    return before._replace(back=now.back[:-1], forward=forward, aside=now.aside)


def go_to(target: Position, now: Position, number: int) -> Position:
    """Restore: the position after an earlier change, with the way back to `now`."""
    aside = target.aside
    if now.forward and now.undone != target.undone:
        aside = (len(now.forward), number)
    return target._replace(back=(*target.back, (now, number, True)), aside=aside)


def go_redo(now: Position, after: list[Position], targets: dict[int, int]) -> Position:
    ahead, number = now.forward[-1]
    rest = now._replace(forward=now.forward[:-1])
    if number in targets:  # a restore goes again to the position after its change
        return go_to(after[targets[number]], rest, number)
    back = (*rest.back, (rest, number, False))
    return ahead._replace(back=back, forward=rest.forward, aside=rest.aside)


def apply(match: Match, step: tuple[Any, ...]) -> Match:
    kind = step[0]
    if kind == "record":
        return editing.record(match, step[1], AT)
    if kind == "edit":
        return editing.edit(match, step[1], step[2], AT)
    if kind == "delete":
        return editing.delete(match, step[1], AT)
    if kind == "rules":
        return editing.set_rules(match, {"gin_bonus": step[1]}, AT)
    if kind == "undo":
        return editing.undo(match, AT)
    if kind == "redo":
        return editing.redo(match, AT)
    return editing.restore(match, step[1], AT)


def read_back(match: Match) -> Match:
    return match_from_dict(json.loads(file_bytes(match)))


GIN = Hand("gin", "Ann", None, 10)


@settings(max_examples=200, deadline=None)
@given(steps)
# Undoing a restore puts back the undone changes of the position it left.
@example([("record", GIN), ("record", GIN), ("undo",), ("restore", 1), ("undo",), ("redo",)])
def test_any_sequence_of_changes_moves_as_the_model_does(sequence: list[tuple[Any, ...]]) -> None:
    match = Match("m", PLAYERS, PROFILES["friendly"], "Ann", "2026-01-01T19:00:00+01:00")
    now = Position(seen(match))
    after = [now]  # after[n]: the model's position right after change n
    targets: dict[int, int] = {}  # each restore's change number and the change it went to
    for step in sequence:
        number = len(match.journal) + 1
        try:
            changed = apply(match, step)
        except HginError:
            # Undo, redo and restore are refused exactly when the model cannot move so.
            if step[0] == "undo":
                assert not now.back
            elif step[0] == "redo":
                assert not now.forward
            elif step[0] == "restore" and 1 <= step[1] < number:
                assert after[step[1]].summary() == now.summary()
            continue
        if step[0] == "undo":
            now = go_back(now)
        elif step[0] == "redo":
            now = go_redo(now, after, targets)
        elif step[0] == "restore":
            targets[number] = step[1]
            now = go_to(after[step[1]], now, number)
        else:
            now = go_forward(now, changed_content(now.content, step), number)
        after.append(now)
        state = changed.state
        assert (seen(changed), state.applied, state.undone, state.aside) == now.summary()
        again = read_back(changed)
        assert again.state.same_as(state)
        assert again.sheet == changed.sheet
        match = changed
    for number, position in enumerate(after):
        state = match.states[number]
        assert (tuple(scored(h) for h in state.hands), state.rules.gin_bonus) == position.content
