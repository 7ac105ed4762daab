"""The journal of a match, and its replay: every change as stored, and the state after each.

Each kind of change that acts on the match is one function from an immutable state to the
next; undo, redo and restore only move between states already reached.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from hgin.engine.hands import Hand
from hgin.engine.rules import Rules, check_rules
from hgin.errors import HginError

NO_DATA: Mapping[str, Any] = MappingProxyType({})


class Change(NamedTuple):
    """One journal entry: its number (from 1), time, kind, sentence and data (see `KINDS`)."""

    number: int
    at: str
    kind: str
    text: str
    data: Mapping[str, Any] = NO_DATA


class Joined(NamedTuple):
    """The copy a combine made one with ours: its identifier, how many changes it shared with
    ours, and its changes after those."""

    id: str
    common: int
    changes: tuple[Change, ...]


class Link:
    """An immutable stack (None: empty), which states share: compared by identity."""

    __slots__ = ("below", "size", "top")

    def __init__(self, top: Any, below: "Link | None") -> None:
        self.top = top
        self.below = below
        self.size: int = 1 if below is None else below.size + 1


def items(stack: Link | None) -> list[Any]:
    """A stack's items, the bottom first."""
    found = []
    while stack is not None:
        found.append(stack.top)
        stack = stack.below
    found.reverse()
    return found


def stacked(stack: Link | None, more: Iterable[Any]) -> Link | None:
    """`stack` with `more` pushed on it in order."""
    for item in more:
        stack = Link(item, stack)
    return stack


class State(NamedTuple):
    """The match right after a change (see the module's docstring); compare with `same_as`."""

    hand_stack: Link | None
    rules: Rules
    notice_after: int | None = None
    in_force: Link | None = None  # (change number, the state it was made on)
    undone_stack: Link | None = None  # change numbers

    aside: tuple[int, int] | None = None  # (undone changes set aside, by which change)

    @property
    def hands(self) -> tuple[Hand, ...]:
        return tuple(items(self.hand_stack))

    @property
    def applied(self) -> list[int]:
        """The changes undo can take back, the latest last."""
        return [number for number, _ in items(self.in_force)]

    @property
    def undone(self) -> list[int]:
        """The changes redo can bring back, the latest last."""
        return items(self.undone_stack)

    def same_as(self, other: "State") -> bool:
        """The same hands, rules, notice and undo/redo position."""
        return (
            self.rules == other.rules
            and self.notice_after == other.notice_after
            and self.aside == other.aside
            and self.applied == other.applied
            and self.undone == other.undone
            and self.hands == other.hands
        )


Content = tuple[Link | None, Rules, int | None]  # the hands, the rules in force, the notice
Apply = Callable[[State, Mapping[str, Any]], Content]


class Kind(NamedTuple):
    """A kind of change: its data fields (name -> value type for the match file's schema) and
    what it makes of the hands, rules and notice (None for undo, redo and restore)."""

    fields: Mapping[str, str]
    apply: Apply | None = None


def _split(state: State, number: Any) -> tuple[Link | None, list[Hand]]:
    """The hands before hand `number`, and the list of it and those after it."""
    count = 0 if state.hand_stack is None else state.hand_stack.size
    if type(number) is not int or not 1 <= number <= count:
        raise HginError(f"there is no hand {number} (the match then had {count})")
    stack, later = state.hand_stack, []
    while stack is not None and stack.size >= number:
        later.append(stack.top)
        stack = stack.below
    later.reverse()
    return stack, later


def _record(state: State, data: Mapping[str, Any]) -> Content:
    return Link(data["hand"], state.hand_stack), state.rules, state.notice_after


def _edit(state: State, data: Mapping[str, Any]) -> Content:
    before, later = _split(state, data["hand_number"])
    if later[0] != data["old"]:
        raise HginError(f"hand {data['hand_number']} is not the hand it replaces")
    return stacked(before, [data["hand"], *later[1:]]), state.rules, state.notice_after


def _delete(state: State, data: Mapping[str, Any]) -> Content:
    number, notice_after = data["hand_number"], state.notice_after
    before, later = _split(state, number)
    if notice_after is not None and number <= notice_after:
        notice_after -= 1  # the notice stays between the same two hands
    return stacked(before, later[1:]), state.rules, notice_after


def _set_rules(state: State, data: Mapping[str, Any]) -> Content:
    old, new = data["old"], data["new"]
    if set(old) != set(new) or not old:
        raise HginError("it does not name the same rules before and after")
    for name, value in old.items():
        if getattr(state.rules, name, None) != value:
            raise HginError(f"the rule {name} was not {value!r} then")
    rules = check_rules(state.rules._replace(**new))
    return state.hand_stack, rules, state.notice_after


def _import(state: State, data: Mapping[str, Any]) -> Content:
    return stacked(None, data["hands"]), check_rules(data["rules"]), state.notice_after


def _combine(state: State, data: Mapping[str, Any]) -> Content:
    hands, rules, notice_after = data["hands"], check_rules(data["rules"]), data["notice_after"]
    if notice_after is not None and not (rules.rolling and notice_after <= len(hands)):
        raise HginError(f"no notice can be given after hand {notice_after}")
    return stacked(None, hands), rules, notice_after


def _notice(state: State, data: Mapping[str, Any]) -> Content:
    count = 0 if state.hand_stack is None else state.hand_stack.size
    if not getattr(state.rules, "rolling", False):
        raise HginError("notice is given only in a rolling match")
    if state.notice_after is not None:
        raise HginError(f"notice was already given after hand {state.notice_after}")
    if data["after"] != count:
        raise HginError(f"the match then had {count} hands, not {data['after']}")
    return state.hand_stack, state.rules, data["after"]


KINDS: dict[str, Kind] = {
    "record": Kind({"hand": "hand"}, _record),
    "edit": Kind({"hand_number": "count", "hand": "hand", "old": "hand"}, _edit),
    "delete": Kind({"hand_number": "count"}, _delete),
    "rules": Kind({"old": "values", "new": "values"}, _set_rules),
    "import": Kind({"hands": "hands", "rules": "rules"}, _import),
    "notice": Kind({"after": "count"}, _notice),
    # Two copies of the match made one (`hgin.engine.copies`): the hands, rules and notice of
    # both, and the other copy's changes, so that a device holding it knows it is held here.
    "combine": Kind(
        {"hands": "hands", "rules": "rules", "notice_after": "notice", "joined": "joined"},
        _combine,
    ),
    "restore": Kind({"change": "count"}),
    "undo": Kind({"change": "count"}),
    "redo": Kind({"change": "count"}),
}


def _restored(target: State, before: State, number: int) -> State:
    """The state after an earlier change, made current by change `number` from `before`."""
    aside = target.aside
    if before.undone_stack is not None and before.undone != target.undone:
        aside = (before.undone_stack.size, number)
    return target._replace(in_force=Link((number, before), target.in_force), aside=aside)


def _moved(states: Sequence[State], journal: Sequence[Change], change: Change) -> State:
    """The state an undo, redo or restore goes to."""
    now, target = states[-1], int(change.data["change"])
    if change.kind == "restore":
        if not 1 <= target < change.number:
            raise HginError(f"there is no earlier change {target} to go back to")
        return _restored(states[target], now, change.number)
    if change.kind == "undo":
        if now.in_force is None or now.in_force.top[0] != target:
            raise HginError(f"change {target} is not the latest change in force")
        made_on: State = now.in_force.top[1]
        if journal[target - 1].kind == "restore":
            return made_on._replace(undone_stack=Link(target, made_on.undone_stack))
        undone = Link(target, now.undone_stack)
        return made_on._replace(in_force=now.in_force.below, undone_stack=undone, aside=now.aside)
    if now.undone_stack is None or now.undone_stack.top != target:
        raise HginError(f"change {target} is not the latest undone change")
    rest = now._replace(undone_stack=now.undone_stack.below)
    again = journal[target - 1]
    if again.kind == "restore":
        return _restored(states[again.data["change"]], rest, target)
    return states[target]._replace(
        in_force=Link((target, rest), rest.in_force),
        undone_stack=rest.undone_stack,
        aside=rest.aside,
    )


def next_state(states: Sequence[State], journal: Sequence[Change], change: Change) -> State:
    """The state after `change`, from the states and journal before it."""
    if change.number != len(states):
        raise HginError(f"change {change.number} is out of order")
    kind = KINDS.get(change.kind)
    if kind is None:
        raise HginError(f"change {change.number} has an unknown kind '{change.kind}'")
    try:
        if kind.apply is None:
            return _moved(states, journal, change)
        now = states[-1]
        hands, rules, notice_after = kind.apply(now, change.data)
    except HginError as refusal:
        raise HginError(f"change {change.number} ({change.kind}): {refusal}") from None
    aside = now.aside if now.undone_stack is None else (now.undone_stack.size, change.number)
    in_force = Link((change.number, now), now.in_force)
    # Made without the named tuple's Python-level constructor (once per change of a replay).
    return tuple.__new__(State, (hands, rules, notice_after, in_force, None, aside))


def entered(change: Change, before: State) -> tuple[Rules, Sequence[Hand]]:
    """The hands a change enters and the rules they are scored under."""
    if change.kind in ("import", "combine"):
        return change.data["rules"], change.data["hands"]
    if change.kind in ("record", "edit"):
        return before.rules, (change.data["hand"],)
    return before.rules, ()
