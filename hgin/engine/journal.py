"""The journal of a match: every change as one small operation, and the fold that derives the
current state (hands, rules in force, notice, undo/redo position) from it.

Each kind of change is one entry of `KINDS`: the data fields it stores, how it applies to the
state and how it is reverted. `undo` and `redo` are journaled too; they revert or re-apply an
earlier change, so the stacks of changes in force and of undone ones are part of the state.
The fold works on one mutable state in place (a long match is thousands of changes) and keeps a
copy every `SNAPSHOT_EVERY` changes, from which the state after any change N is rebuilt.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from hgin.engine.hands import Hand, hand_award
from hgin.engine.rules import Rules, check_rules
from hgin.errors import HginError

SNAPSHOT_EVERY = 128


NO_DATA: Mapping[str, Any] = MappingProxyType({})

# Change and Kind are named tuples, as immutable as frozen dataclasses and much quicker to
# define: every command that opens a match loads this module.


class Change(NamedTuple):
    """One journal entry: its number (from 1), local time, kind, the sentence made when it was
    made (never read back as truth) and the operation's data (see `KINDS`)."""

    number: int
    at: str
    kind: str
    text: str
    data: Mapping[str, Any] = NO_DATA


class State:
    """What the journal folds to. `applied` holds the changes in force that `undo` can revert
    (the last first); `undone` those `redo` can re-apply (the last first); `aside` how many
    undone changes the latest new change set aside, and its number. (A plain class: it
    changes in place as changes fold, and defining a dataclass costs every start.)"""

    __slots__ = ("applied", "aside", "hands", "notice_after", "rules", "undone")

    def __init__(
        self,
        hands: list[Hand],
        rules: Rules,
        notice_after: int | None = None,
        applied: list[int] | None = None,
        undone: list[int] | None = None,
        aside: tuple[int, int] | None = None,
    ) -> None:
        self.hands = hands
        self.rules = rules
        self.notice_after = notice_after
        self.applied = [] if applied is None else applied
        self.undone = [] if undone is None else undone
        self.aside = aside

    def copy(self) -> State:
        return State(
            list(self.hands),
            self.rules,
            self.notice_after,
            list(self.applied),
            list(self.undone),
            self.aside,
        )

    def same_as(self, other: State) -> bool:
        """The same hands, rules, notice and undo/redo position."""
        return (
            self.hands == other.hands
            and self.rules == other.rules
            and self.notice_after == other.notice_after
            and self.applied == other.applied
            and self.undone == other.undone
            and self.aside == other.aside
        )


Step = Callable[["Fold", Change], None]


class Kind(NamedTuple):
    """A kind of change: its data fields (name -> value type, read and written by the match
    file's schema: hand, hands, count, values, rules) and how it applies and reverts.
    `reverted` is None for the kinds that cannot themselves be undone (undo, redo)."""

    name: str
    fields: Mapping[str, str]
    apply: Step
    revert: Step | None = None
    clears_redo: bool = True


def hand_position(state: State, number: Any) -> int:
    """The 0-based position of hand `number` in the current hands, refusing others."""
    count = len(state.hands)
    if type(number) is not int or not 1 <= number <= count:
        raise HginError(f"there is no hand {number} (the match then had {count})")
    return number - 1


def _check_hand(fold: Fold, hand: Hand) -> None:
    hand_award(fold.state.rules, fold.players, hand)


def _record(fold: Fold, change: Change) -> None:
    hand = change.data["hand"]
    _check_hand(fold, hand)
    fold.state.hands.append(hand)


def _unrecord(fold: Fold, change: Change) -> None:
    hands = fold.state.hands
    if not hands or hands[-1] != change.data["hand"]:
        raise HginError("its hand is not the last one")
    hands.pop()


def _edit(fold: Fold, change: Change) -> None:
    _replace(fold, change, change.data["old"], change.data["hand"])


def _unedit(fold: Fold, change: Change) -> None:
    _replace(fold, change, change.data["hand"], change.data["old"])


def _replace(fold: Fold, change: Change, old: Hand, new: Hand) -> None:
    hands = fold.state.hands
    at = hand_position(fold.state, change.data["hand_number"])
    if hands[at] != old:
        raise HginError(f"hand {at + 1} is not the hand it replaces")
    _check_hand(fold, new)
    hands[at] = new


def _delete(fold: Fold, change: Change) -> None:
    at = hand_position(fold.state, change.data["hand_number"])
    fold.memo[change.number] = fold.state.hands.pop(at)


def _undelete(fold: Fold, change: Change) -> None:
    at = change.data["hand_number"] - 1
    if not 0 <= at <= len(fold.state.hands):
        raise HginError(f"hand {at + 1} cannot be put back")
    fold.state.hands.insert(at, fold.memo[change.number])


def _set_rules(fold: Fold, change: Change) -> None:
    _swap_rules(fold, change.data["old"], change.data["new"])


def _unset_rules(fold: Fold, change: Change) -> None:
    _swap_rules(fold, change.data["new"], change.data["old"])


def _swap_rules(fold: Fold, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    rules = fold.state.rules
    if set(old) != set(new) or not old:
        raise HginError("it does not name the same rules before and after")
    for name, value in old.items():
        if getattr(rules, name, None) != value:
            raise HginError(f"the rule {name} was not {value!r} then")
    fold.state.rules = check_rules(dataclasses.replace(rules, **new))


def _import(fold: Fold, change: Change) -> None:
    state = fold.state
    fold.memo[change.number] = (list(state.hands), state.rules)
    rules = check_rules(change.data["rules"])
    for hand in change.data["hands"]:
        hand_award(rules, fold.players, hand)
    state.hands[:] = change.data["hands"]
    state.rules = rules


def _unimport(fold: Fold, change: Change) -> None:
    hands, rules = fold.memo[change.number]
    fold.state.hands[:] = hands
    fold.state.rules = rules


def _notice(fold: Fold, change: Change) -> None:
    state = fold.state
    if not getattr(state.rules, "rolling", False):
        raise HginError("notice is given only in a rolling match")
    if state.notice_after is not None:
        raise HginError(f"notice was already given after hand {state.notice_after}")
    if change.data["after"] != len(state.hands):
        raise HginError(f"the match then had {len(state.hands)} hands, not {change.data['after']}")
    state.notice_after = change.data["after"]


def _unnotice(fold: Fold, change: Change) -> None:
    fold.state.notice_after = None


def _restore(fold: Fold, change: Change) -> None:
    target = change.data["change"]
    if not 1 <= target < change.number:
        raise HginError(f"there is no earlier change {target} to go back to")
    before = fold.state
    fold.memo[change.number] = before.copy()
    after = fold.state_after(target)
    if before.undone and before.undone != after.undone:
        after.aside = (len(before.undone), change.number)
    fold.state = after


def _unrestore(fold: Fold, change: Change) -> None:
    fold.state = fold.memo[change.number].copy()


def _undo(fold: Fold, change: Change) -> None:
    state = fold.state
    target = change.data["change"]
    if not state.applied or state.applied[-1] != target:
        raise HginError(f"change {target} is not the latest change in force")
    revert = KINDS[fold.kind_of(target)].revert
    assert revert is not None  # only changes that can be undone are ever in force
    state.applied.pop()
    revert(fold, fold.changes[target - 1])
    fold.state.undone.append(target)


def _redo(fold: Fold, change: Change) -> None:
    state = fold.state
    target = change.data["change"]
    if not state.undone or state.undone[-1] != target:
        raise HginError(f"change {target} is not the latest undone change")
    state.undone.pop()
    KINDS[fold.kind_of(target)].apply(fold, fold.changes[target - 1])
    fold.state.applied.append(target)


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("record", {"hand": "hand"}, _record, _unrecord),
        Kind("edit", {"hand_number": "count", "hand": "hand", "old": "hand"}, _edit, _unedit),
        Kind("delete", {"hand_number": "count"}, _delete, _undelete),
        Kind("rules", {"old": "values", "new": "values"}, _set_rules, _unset_rules),
        Kind("import", {"hands": "hands", "rules": "rules"}, _import, _unimport),
        Kind("notice", {"after": "count"}, _notice, _unnotice),
        Kind("restore", {"change": "count"}, _restore, _unrestore, clears_redo=False),
        Kind("undo", {"change": "count"}, _undo),
        Kind("redo", {"change": "count"}, _redo),
    )
}


class Fold:
    """The state after a journal, built change by change; `memo` keeps what a change removed
    (a deleted hand, the state a restore replaced) for its undo, `snapshots` copies of the
    state every `SNAPSHOT_EVERY` changes for restores."""

    def __init__(self, players: tuple[str, str], rules: Rules) -> None:
        self.players = players
        self.state = State([], rules)
        self.changes: list[Change] = []
        self.memo: dict[int, Any] = {}
        self.snapshots: dict[int, State] = {0: self.state.copy()}

    def kind_of(self, number: int) -> str:
        return self.changes[number - 1].kind

    def step(self, change: Change) -> None:
        """Apply one more change in place; an HginError names the change."""
        if change.number != len(self.changes) + 1:
            raise HginError(f"change {change.number} is out of order")
        kind = KINDS.get(change.kind)
        if kind is None:
            raise HginError(f"change {change.number} has an unknown kind '{change.kind}'")
        self.changes.append(change)
        try:
            self._apply(kind, change)
        except HginError as refusal:
            self.changes.pop()
            raise HginError(f"change {change.number} ({change.kind}): {refusal}") from None
        if change.number % SNAPSHOT_EVERY == 0:
            self.snapshots[change.number] = self.state.copy()

    def _apply(self, kind: Kind, change: Change) -> None:
        if kind.revert is None:  # undo and redo move along the stacks themselves
            kind.apply(self, change)
            return
        undone = self.state.undone
        kind.apply(self, change)
        state = self.state
        if kind.clears_redo and undone:
            state.aside = (len(undone), change.number)
            undone.clear()
        state.applied.append(change.number)

    def state_after(self, number: int) -> State:
        """A copy of the state right after change `number`, rebuilt from the nearest snapshot."""
        base = max(n for n in self.snapshots if n <= number)
        again = Fold(self.players, self.state.rules)
        again.changes = self.changes
        again.memo = self.memo
        again.snapshots = self.snapshots
        again.state = self.snapshots[base].copy()
        for change in self.changes[base:number]:
            again._apply(KINDS[change.kind], change)
        return again.state

    def branch(self) -> Fold:
        """An independent fold that continues from this one (for one more change)."""
        other = Fold(self.players, self.state.rules)
        other.state = self.state.copy()
        other.changes = list(self.changes)
        other.memo = dict(self.memo)
        other.snapshots = dict(self.snapshots)
        return other


def fold_journal(players: tuple[str, str], rules: Rules, changes: Sequence[Change]) -> Fold:
    """The fold of a whole journal from the match's first rules."""
    fold = Fold(players, rules)
    for change in changes:
        fold.step(change)
    return fold
