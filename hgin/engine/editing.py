"""Every change to a match as a pure function, each returning the match with one more journal
change (`hgin.reports.changes` words it).
"""

from collections.abc import Mapping
from typing import Any, NamedTuple

from hgin.engine.hands import Hand, hand_award, written_plainly
from hgin.engine.journal import KINDS, items
from hgin.engine.match import Match, resolve_player
from hgin.engine.rules import ROLLING_GAMES, option_flag, shown_value
from hgin.engine.sheet import check_rolling_change, empty_sheet, extend
from hgin.errors import HginError


def typed_name(name: str) -> str:
    """A player's name as it would be typed on a line: quoted when it holds a space."""
    return f'"{name}"' if " " in name else name


def entry_text(hand: Hand) -> str:
    """A recorded hand written back as it would be typed: 'knock Bob 4 20 --upcard 7s'."""
    if hand.kind == "draw":
        return "draw"
    player = typed_name(hand.player or "?")
    if hand.kind == "knock":
        text = f"knock {player} {hand.deadwood} {hand.opponent_deadwood}"
    else:
        text = f"gin {player} {hand.opponent_deadwood}"
        if hand.kind == "big_gin":
            text += " --big"
    if hand.upcard is not None:
        text += f" --upcard {hand.upcard}"
    return text


# -- hands -------------------------------------------------------------------------------


def hand_index(match: Match, number: int) -> int:
    """The 0-based position of hand `number`, refusing numbers the match does not have."""
    count = len(match.hands)
    if count == 0:
        raise HginError("there are no hands to change yet")
    if not 1 <= number <= count:
        last = "hand 1 only" if count == 1 else f"hands 1 to {count}"
        raise HginError(f"there is no hand {number}: this match has {last}")
    return number - 1


def _end_of_match(match: Match, hands: list[Hand], notice_after: int | None) -> int | None:
    """The number of the hand that would now end the match, when hands follow it: one replay
    refuses the first hand after the end (the other hands are valid)."""
    rest = iter(hands)  # what is left of it tells how many hands the replay took
    try:
        sheet = empty_sheet(
            match.players, match.rules, match.first_dealer, notice_after=notice_after
        )
        extend(sheet, rest)
    except HginError:
        return len(hands) - len(list(rest)) - 1
    return None


def _rescored(match: Match, kind: str, data: dict[str, Any], at: str, doing: str) -> Match:
    """The match with one more hand-changing change, or a refusal naming the hand in the way."""
    try:
        return match.change(kind, data, at=at)
    except HginError as refusal:
        apply = KINDS[kind].apply
        assert apply is not None  # an edit or a delete
        stack, _, notice_after = apply(match.state, data)  # the hands and notice it would leave
        hands = items(stack)
        end = _end_of_match(match, hands, notice_after)
        if end is None:
            message = str(refusal)
            if message.startswith("change "):
                message = message.split("): ", 1)[-1]
            raise HginError(f"cannot {doing}: {message}") from None
        later = len(hands) - end
        joint = " and " if later == 2 else " to "
        which = f"hand {end + 1}" if later == 1 else f"hands {end + 1}{joint}{len(hands)}"
        raise HginError(
            f"cannot {doing}: the match would then end at hand {end}, but {which} "
            f"{'was' if later == 1 else 'were'} recorded after it (delete or change "
            f"{'it' if later == 1 else 'them'} first)"
        ) from None


def record(match: Match, hand: Hand, at: str) -> Match:
    """One more hand (its player already resolved)."""
    match.check_open()
    hand_award(match.rules, match.players, hand)
    return match.change("record", {"hand": written_plainly(hand)}, at=at)


def edit(match: Match, number: int, typed: Hand, at: str) -> Match:
    """Hand `number` replaced by `typed` (its player as typed), every later hand re-scored."""
    if typed.hand_cards is not None or typed.opponent_cards is not None:
        raise HginError("a correction takes the counts, not the cards ('hgin count' gives them)")
    index = hand_index(match, number)
    old = match.hands[index]
    player = resolve_player(match.players, typed.player) if typed.player is not None else None
    new = written_plainly(typed._replace(player=player, recorded_at=old.recorded_at))
    if new[:5] == old[:5]:  # kind, player, counts and upcard: what decides the score
        raise HginError(f"hand {number} is already {entry_text(old)}: nothing to change")
    try:
        hand_award(match.rules, match.players, new)
    except HginError as refusal:
        raise HginError(f"cannot change hand {number}: {refusal}") from None
    data = {"hand_number": number, "hand": new, "old": old}
    return _rescored(match, "edit", data, at, f"change hand {number}")


def delete(match: Match, number: int, at: str) -> Match:
    """Hand `number` taken out; the hands after it move up one and are re-scored."""
    hand_index(match, number)
    return _rescored(match, "delete", {"hand_number": number}, at, f"delete hand {number}")


# -- rules -------------------------------------------------------------------------------


def set_rules(match: Match, values: Mapping[str, Any], at: str) -> Match:
    """The match under other rule values, every hand re-scored from the start."""
    rules = match.rules
    new = {k: v for k, v in values.items() if getattr(rules, k) != v}
    if "rolling" in new:
        # Three games are always in progress in a rolling match, and the switch is refused
        # once it would change something already decided.
        if new["rolling"] and rules.games != ROLLING_GAMES:
            new["games"] = ROLLING_GAMES
        check_rolling_change(match.sheet, rules._replace(**new))
    if not new:
        name, value = next(iter(values.items()))
        raise HginError(f"{option_flag(name)} is already {shown_value(value)} in this match")
    old = {k: getattr(rules, k) for k in new}
    return match.change("rules", {"old": old, "new": new}, at=at)


# -- moving in the journal ---------------------------------------------------------------


def notice(match: Match, at: str) -> Match:
    """Notice in a rolling match: from now on no new game opens."""
    match.check_open()
    if not match.rules.rolling:
        raise HginError("notice is given only in a rolling match (see 'hgin rules set rolling')")
    if match.notice_after is not None:
        raise HginError(f"notice was already given, after hand {match.notice_after}")
    return match.change("notice", {"after": len(match.hands)}, at=at)


def undo(match: Match, at: str) -> Match:
    """The latest change still in force reverted, whatever its kind."""
    applied = match.state.applied
    if not applied:
        if not match.journal:
            raise HginError("there is nothing to undo: this match has no changes yet")
        raise HginError("there is nothing to undo: every change is undone")
    return match.change("undo", {"change": applied[-1]}, at=at)


def redo(match: Match, at: str) -> Match:
    """The latest undone change applied again."""
    undone, aside = match.state.undone, match.state.aside
    if undone:
        return match.change("redo", {"change": undone[-1]}, at=at)
    if aside is None:
        raise HginError("there is nothing to redo")
    # Where the undone changes set aside still are.
    count, by = aside
    them = "it is" if count == 1 else "they are"
    raise HginError(
        f"there is nothing to redo: change {by} set aside {count} undone "
        f"change{'s' if count != 1 else ''}; {them} still in 'hgin log', and "
        f"'hgin restore {by - 1}' brings {'it' if count == 1 else 'them'} back"
    )


def restore(match: Match, number: int, at: str) -> Match:
    """The match exactly as right after change `number`, as a new change."""
    last = len(match.journal)
    if last == 0:
        raise HginError("there is no change to go back to: this match has no changes yet")
    if not 1 <= number <= last:
        raise HginError(f"there is no change {number}: give a number from 1 to {last}")
    if match.states[number].same_as(match.state):
        raise HginError(f"the match is already as it was after change {number}")
    return match.change("restore", {"change": number}, at=at)


# -- the log -----------------------------------------------------------------------------


class JournalRow(NamedTuple):
    """One change as `hgin log` lists it, with where it stands now (`status`)."""

    number: int
    at: str
    kind: str
    text: str
    status: str


def journal_rows(match: Match) -> list[JournalRow]:
    """Every change of the match, oldest first, with where it stands now."""
    state = match.state
    applied, undone = set(state.applied), set(state.undone)
    rows = []
    for change in match.journal:
        if change.kind in ("undo", "redo"):
            status = ""
        elif change.number in applied:
            status = "in force"
        elif change.number in undone:
            status = "undone"
        else:
            status = "set aside"
        rows.append(JournalRow(change.number, change.at, change.kind, change.text, status))
    return rows
