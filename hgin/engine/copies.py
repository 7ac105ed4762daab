"""Copies of one match kept on two devices: when one copy holds another, and the combine of
two copies that went their own ways into one match. Hands are told apart by the time they were
recorded, which an edit keeps.
"""

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import NamedTuple, TypeVar

from hgin.engine.hands import Hand
from hgin.engine.journal import Change, Joined
from hgin.engine.match import Match
from hgin.engine.rules import Rules, check_rules
from hgin.errors import HginError

# A hand's key: when it was recorded, and how many hands before it in its list were recorded
# at that very time (hands entered within one second).
Key = tuple[str | None, int]
Merged = TypeVar("Merged")
# How many combines a combine may hold within one another (each nests the copy it joined).
MAX_NESTING = 50


def same_start(one: Match, other: Match) -> bool:
    """Whether two copies are of one match: identity, players, rules, dealer and creation."""
    return (one.uid, one.players, one.start_rules, one.first_dealer, one.created) == (
        other.uid, other.players, other.start_rules, other.first_dealer, other.created
    )  # fmt: skip


def common_changes(one: Match, other: Match) -> int:
    """How many changes the two journals begin with alike."""
    count = 0
    for mine, theirs in zip(one.journal, other.journal, strict=False):
        if mine != theirs:
            break
        count += 1
    return count


def holds(newer: Match, older: Match) -> bool:
    """Whether `newer` is `older` plus more (in its journal, or that of a copy it combined)."""
    return same_start(newer, older) and _holds_journal(newer, older.journal)


def _holds_journal(newer: Match, journal: tuple[Change, ...]) -> bool:
    if newer.journal[: len(journal)] == journal:
        return True
    in_force = set(newer.state.applied)
    for change in newer.journal:
        if change.kind != "combine" or change.number not in in_force:
            continue
        joined: Joined = change.data["joined"]
        whole = (*newer.journal[: joined.common], *joined.changes)
        if whole[: len(journal)] == journal:
            return True
        if any(c.kind == "combine" for c in joined.changes):
            try:
                copy = dataclasses.replace(newer, journal=whole, replayed=None)
            except HginError:
                continue
            if _holds_journal(copy, journal):
                return True
    return False


def nesting(journal: Sequence[Change]) -> int:
    """How many combines `journal` holds within one another."""
    return max(
        (1 + nesting(c.data["joined"].changes) for c in journal if c.kind == "combine"),
        default=0,
    )


class Conflict(NamedTuple):
    """A hand both copies changed after they parted: the version kept (None: deleted), the
    one dropped, and which copy the kept one is from."""

    number: int
    kept: Hand | None
    dropped: Hand | None
    kept_from: str


class Combined(NamedTuple):
    """Two copies made one: `ours` with one more change, the hands that came from the other
    copy, the hands both changed, and whether both changed the rules differently."""

    match: Match
    theirs_added: tuple[int, ...]
    conflicts: tuple[Conflict, ...]
    rules_conflict: bool


def _keyed(hands: Sequence[Hand]) -> dict[Key, Hand]:
    seen: dict[str | None, int] = {}
    keyed = {}
    for hand in hands:
        count = seen.get(hand.recorded_at, 0)
        seen[hand.recorded_at] = count + 1
        keyed[hand.recorded_at, count] = hand
    return keyed


def instant(text: str | None) -> float:
    """A recorded time as seconds since the epoch (a time without an offset taken as UTC)."""
    if text is None:
        return float("-inf")
    moment = datetime.fromisoformat(text)
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _last_moves(match: Match, since: int, wanted: set[Key]) -> dict[Key | str, float]:
    """When each hand `wanted`, and the rules, last changed in `match` after change `since`."""
    moves: dict[Key | str, float] = {}
    before = match.states[since]
    hands_before = {k: h for k, h in _keyed(before.hands).items() if k in wanted}
    for change, state in zip(match.journal[since:], match.states[since + 1 :], strict=True):
        if state.rules != before.rules:
            moves["rules"] = instant(change.at)
        if state.hand_stack is not before.hand_stack:
            now = {k: h for k, h in _keyed(state.hands).items() if k in wanted}
            for key in wanted:
                if now.get(key) != hands_before.get(key):
                    moves[key] = instant(change.at)
            hands_before = now
        before = state
    return moves


def combine(ours: Match, theirs: Match, at: str) -> Combined:
    """One match of two copies that went their own ways: what either changed, the later change
    where both did (equal times: ours), the new hands of both in recorded order."""
    if not same_start(ours, theirs):
        raise HginError(
            f"{theirs.id} is not a copy of {ours.id}: their players, rules, first dealer or "
            "start differ"
        )
    for one, other in ((ours, theirs), (theirs, ours)):
        if holds(one, other):
            raise HginError(
                f"{one.id} already holds every change of {other.id}: nothing to combine "
                f"('hgin abandon -m {other.id}' takes {other.id} off the list)"
            )
    common = common_changes(ours, theirs)
    if max(nesting(ours.journal), nesting(theirs.journal[common:])) >= MAX_NESTING:
        raise HginError(
            f"cannot combine {ours.id} and {theirs.id}: they hold {MAX_NESTING} combines "
            "within one another already"
        )
    base = ours.states[common]
    shared = _keyed(base.hands)
    mine, yours = _keyed(ours.hands), _keyed(theirs.hands)
    # Hands both copies hold that were recorded after they parted: a copy combined before
    # (or imported) on both sides. One hand, not two.
    both = {k for k in mine if k in yours and k not in shared}
    wanted = {*shared, *both}
    moved = (_last_moves(ours, common, wanted), _last_moves(theirs, common, wanted))
    hands: list[tuple[tuple[str, Key], Hand]] = []
    differing: list[tuple[tuple[str, Key], Hand | None, Hand | None, bool]] = []
    for key, hand in shared.items():
        our_hand, their_hand = mine.get(key), yours.get(key)
        kept = _merged(hand, our_hand, their_hand, moved, key)
        if hand not in (our_hand, their_hand) and our_hand != their_hand:
            from_theirs = kept is their_hand
            differing.append(
                (("shared", key), kept, our_hand if from_theirs else their_hand, from_theirs)
            )
        if kept is not None:
            hands.append((("shared", key), kept))
    added: list[tuple[float, int, tuple[str, Key], Hand]] = []
    for key, hand in mine.items():
        if key in shared:
            continue
        if key in both and yours[key] != hand:
            kept = _merged(None, hand, yours[key], moved, key)
            from_theirs = kept is yours[key]
            differing.append(
                (("ours", key), kept, yours[key] if not from_theirs else hand, from_theirs)
            )
        added.append((instant(key[0]), 0, ("ours", key), hand))
    added += [
        (instant(k[0]), 1, ("theirs", k), h)
        for k, h in yours.items()
        if k not in shared and k not in both
    ]
    added.sort(key=lambda item: item[:2])  # stable: each copy's own order on equal times
    hands += [(tag, hand) for _, _, tag, hand in added]
    tags = [tag for tag, _ in hands]
    theirs_added = tuple(n for n, tag in enumerate(tags, 1) if tag[0] == "theirs")
    place = {tag: number for number, tag in enumerate(tags, 1)}
    conflicts = [
        Conflict(place.get(tag, 0), kept, dropped, (ours, theirs)[from_theirs].id)
        for tag, kept, dropped, from_theirs in differing
    ]
    rules, rules_conflict = _merged_rules(base.rules, ours.rules, theirs.rules, moved)
    notice = _notice(place, ((ours, "ours", mine), (theirs, "theirs", yours)), shared)
    data = {
        "hands": tuple(hand for _, hand in hands),
        "rules": rules,
        "notice_after": notice,
        "joined": Joined(theirs.id, common, theirs.journal[common:]),
    }
    try:
        match = ours.change("combine", data, at=at)
    except HginError as refusal:
        message = str(refusal).split("): ", 1)[-1]
        raise HginError(f"cannot combine {ours.id} and {theirs.id}: {message}") from None
    return Combined(match, theirs_added, tuple(conflicts), rules_conflict)


def _merged_rules(
    base: Rules, ours: Rules, theirs: Rules, moved: tuple[dict[Key | str, float], ...]
) -> tuple[Rules, bool]:
    """Each rule as both copies left it; whether both changed one rule differently."""
    values = {}
    conflict = False
    for name in Rules._fields:
        before, mine, yours = getattr(base, name), getattr(ours, name), getattr(theirs, name)
        values[name] = _merged(before, mine, yours, moved, "rules")
        conflict = conflict or (before not in (mine, yours) and mine != yours)
    return check_rules(base._replace(**values)), conflict


def _merged(
    base: Merged,
    ours: Merged,
    theirs: Merged,
    moved: tuple[dict[Key | str, float], ...],
    key: Key | str,
) -> Merged:
    """What both copies made of one thing: the later change where both changed it."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    return theirs if moved[1].get(key, 0.0) > moved[0].get(key, 0.0) else ours


def _notice(
    place: dict[tuple[str, Key], int],
    copies: tuple[tuple[Match, str, dict[Key, Hand]], ...],
    shared: dict[Key, Hand],
) -> int | None:
    """Where the combined match's notice goes: the earlier of the two copies' places."""
    found = []
    for match, side, keyed in copies:
        if match.notice_after is None:
            continue
        keys = list(keyed)[: match.notice_after]
        spots = [place.get(("shared", k) if k in shared else (side, k)) for k in keys]
        found.append(next((spot for spot in reversed(spots) if spot is not None), 0))
    return min(found, default=None)
