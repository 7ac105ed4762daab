"""Every change to a match as a pure function: record, edit, delete, rules, import, undo, redo
and restore. Each returns the changed match (one more journal entry, its sentence set) and the
message that says what happened. A change that would leave a later hand impossible (recorded
after the match would now have ended) is refused and names that hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, NamedTuple

from hgin.engine.hands import Hand, hand_award, written_plainly
from hgin.engine.match import Match
from hgin.engine.narrate import (
    describe_changes,
    describe_hand,
    describe_notice,
    describe_result,
)
from hgin.engine.rules import ROLLING_GAMES, Rules, find_option, option_flag
from hgin.engine.sheet import (
    PlayedHand,
    Sheet,
    check_rolling_change,
    empty_sheet,
    extend,
    game_name,
)
from hgin.errors import HginError

Done = tuple[Match, str]


# -- sentences ---------------------------------------------------------------------------


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


def hand_phrase(hand: Hand) -> str:
    """'gin by Ann', 'knock by Bob 3 v 25', 'dead hand' (with an Oklahoma upcard if any)."""
    if hand.kind == "draw":
        return "dead hand"
    name = "big gin" if hand.kind == "big_gin" else hand.kind
    text = f"{name} by {hand.player}"
    if hand.kind == "knock":
        text += f" {hand.deadwood} v {hand.opponent_deadwood}"
    if hand.upcard is not None:
        text += f" (upcard {hand.upcard})"
    return text


def score_phrase(played: PlayedHand) -> str:
    """'25 + 18 = 43', 'undercut, Bob scores 9 − 7 + 25 = 27', 'no score'."""
    award = played.award
    if award.winner is None:
        return "no score"
    if award.result == "undercut":
        return f"undercut, {award.winner} scores {award.formula}"
    return award.formula


def played_phrase(played: PlayedHand) -> str:
    """'gin by Ann, 25 + 18 = 43'."""
    return f"{hand_phrase(played.hand)}, {score_phrase(played)}"


def short_text(text: str) -> str:
    """The start of a change's sentence that names it: 'edited hand 2', 'rules: …'."""
    return text if text.startswith("rules:") else _naming(text)


def _naming(text: str) -> str:
    """The words that name a change: 'edited hand 2' of 'edited hand 2: gin by Ann, …'."""
    return text.split(": ", 1)[0].split(" (", 1)[0]


QUOTED_LENGTH = 60  # "Undone: change 12 (…)." then still fits a line of 80 columns


def quoted_text(text: str, players: tuple[str, str], limit: int = QUOTED_LENGTH) -> str:
    """A change's sentence as a message quotes it: whole when short, else with whole phrases
    of its middle or end left out for '…', keeping as much as fits in `limit`. What names the
    change ('edited hand 2') always stays, and every bracket shown is closed."""
    if len(text) <= limit:
        return text
    named = len(_naming(text))
    cuts = _phrase_ends(text, players, named)
    best = text[:named] + " …"
    for first, at in enumerate(cuts):
        for end in [*cuts[first + 1 :], len(text)]:
            closed = _closed_alone(text[at + 1 : end])
            if closed is None or (closed and end < len(text)):
                continue
            # Cut to the end: '…' is followed by the brackets the left-out phrases closed.
            rest = f" {text[end + 1 :]}" if end < len(text) else ")" * closed
            shown = f"{text[:at]} …{rest}"
            if len(best) < len(shown) <= limit:
                best = shown
    return best


def _phrase_ends(text: str, players: tuple[str, str], start: int) -> list[int]:
    """The spaces of `text` after `start` that end a phrase: after ':' or ';', before '(',
    after ',' unless a score follows (it belongs to the hand before it); never one inside a
    player's name."""
    inside: set[int] = set()
    for name in players:
        found = text.find(name)
        while found != -1:
            inside.update(range(found, found + len(name)))
            found = text.find(name, found + 1)
    return [
        at
        for at in range(start, len(text) - 1)
        if text[at] == " "
        and at not in inside
        and (
            text[at - 1] in ":;"
            or text[at + 1] == "("
            or (text[at - 1] == "," and not text[at + 1].isdigit())
        )
    ]


def _closed_alone(text: str) -> int | None:
    """How many brackets `text` closes that it did not open; None when it leaves one open."""
    depth = lowest = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        lowest = min(lowest, depth)
    return -depth if depth == lowest else None


def _aside_note(match: Match) -> str:
    aside = match.state.aside
    if aside is None or aside[1] != len(match.journal):
        return ""
    count = aside[0]
    return f" {count} undone change{'s' if count != 1 else ''} set aside; see 'hgin log'."


def _who(winner: str | None) -> str:
    return f"won by {winner}" if winner else "open"


def result_changes(old: Sheet, new: Sheet) -> list[str]:
    """What changed in the games' and the match's results, as short phrases."""
    changes = []
    for before, after in zip(old.games, new.games, strict=False):
        if before.winner != after.winner:
            changes.append(
                f"game {game_name(after.number)} is now {_who(after.winner)} "
                f"(was {_who(before.winner)})"
            )
    if (old.finished, old.winner) != (new.finished, new.winner):
        if new.finished:
            changes.append(describe_result(new)[:-1].replace("Match over", "the match is now over"))
        else:
            changes.append("the match is open again")
    return changes


def _with_changes(sentence: str, old: Sheet, new: Sheet) -> str:
    changes = result_changes(old, new)
    if changes:
        sentence += "; " + "; ".join(changes)
    return sentence + "."


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


def _end_of_match(match: Match, hands: list[Hand]) -> int | None:
    """The number of the hand that would now end the match, when hands follow it."""
    sheet = empty_sheet(match.players, match.rules, match.first_dealer)
    for end, hand in enumerate(hands[:-1], start=1):
        sheet = extend(sheet, [hand])
        if sheet.finished:
            return end
    return None


def _rescored(match: Match, kind: str, data: dict[str, Any], at: str, doing: str) -> Match:
    """The match with one more hand-changing change, or a refusal naming the hand in the way."""
    try:
        return match.change(kind, data, at=at)
    except HginError as refusal:
        hands = list(match.hands)
        if kind == "edit":
            hands[data["hand_number"] - 1] = data["hand"]
        else:
            del hands[data["hand_number"] - 1]
        end = _end_of_match(match, hands)
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


def record(match: Match, hand: Hand, at: str) -> Done:
    """One more hand (its player already resolved)."""
    match.check_open()
    hand_award(match.rules, match.players, hand)
    changed = match.change("record", {"hand": written_plainly(hand)}, at=at)
    last = changed.sheet.hands[-1]
    changed = changed.worded(f"recorded hand {last.number}: {played_phrase(last)}")
    return changed, describe_hand(last) + _aside_note(changed)


def _scored(hand: Hand) -> tuple[object, ...]:
    """What decides a hand's score (not when it was entered, nor the cards it was counted from)."""
    return (hand.kind, hand.player, hand.deadwood, hand.opponent_deadwood, hand.upcard)


def _said(played: PlayedHand) -> str:
    return f"{entry_text(played.hand)} ({describe_hand(played)[:-1]})"


def edit(match: Match, number: int, typed: Hand, at: str) -> Done:
    """Hand `number` replaced by `typed` (its player as typed; keeping when it was recorded),
    every later hand re-scored."""
    if typed.hand_cards is not None or typed.opponent_cards is not None:
        raise HginError("a correction takes the counts, not the cards ('hgin count' gives them)")
    index = hand_index(match, number)
    old = match.hands[index]
    player = match.player(typed.player) if typed.player is not None else None
    new = written_plainly(typed._replace(player=player, recorded_at=old.recorded_at))
    if _scored(new) == _scored(old):
        raise HginError(f"hand {number} is already {entry_text(old)}: nothing to change")
    try:
        hand_award(match.rules, match.players, new)
    except HginError as refusal:
        raise HginError(f"cannot change hand {number}: {refusal}") from None
    data = {"hand_number": number, "hand": new, "old": old}
    changed = _rescored(match, "edit", data, at, f"change hand {number}")
    before, after = match.sheet.hands[index], changed.sheet.hands[index]
    was = f"{hand_phrase(old)}, {score_phrase(before)}"
    changed = changed.worded(f"edited hand {number}: {played_phrase(after)} (was {was})")
    sentence = f"Hand {number} corrected: {_said(before)} → {_said(after)}"
    message = _with_changes(sentence, match.sheet, changed.sheet) + _aside_note(changed)
    return changed, message


def delete(match: Match, number: int, at: str) -> Done:
    """Hand `number` taken out; the hands after it move up one and are re-scored."""
    index = hand_index(match, number)
    changed = _rescored(match, "delete", {"hand_number": number}, at, f"delete hand {number}")
    gone = match.sheet.hands[index]
    changed = changed.worded(f"deleted hand {number} ({played_phrase(gone)})")
    sentence = f"Hand {number} deleted: {_said(gone)}"
    after = len(match.hands) - number
    if after == 1:
        sentence += f"; hand {number + 1} is now hand {number}"
    elif after > 1:
        joint = " and " if after == 2 else " to "
        moved = f"{number + 1}{joint}{len(match.hands)}"
        sentence += f"; hands {moved} are now {number}{joint}{len(match.hands) - 1}"
    message = _with_changes(sentence, match.sheet, changed.sheet) + _aside_note(changed)
    return changed, message


# -- rules and imports -------------------------------------------------------------------


def rule_label(name: str) -> str:
    """'gin bonus' for the field gin_bonus."""
    return name.replace("_", " ")


def set_rules(match: Match, values: Mapping[str, Any], at: str) -> Done:
    """The match under other rule values, every hand re-scored from the start (an option that
    never changes a score, such as the stake, says so instead)."""
    rules = match.rules
    new = {k: v for k, v in values.items() if getattr(rules, k) != v}
    if "rolling" in new:
        # Three games are always in progress in a rolling match, and the switch is refused
        # once it would change something already decided.
        if new["rolling"] and rules.games != ROLLING_GAMES:
            new["games"] = ROLLING_GAMES
        check_rolling_change(match.sheet, dataclasses.replace(rules, **new))
    if not new:
        name, value = next(iter(values.items()))
        raise HginError(f"{option_flag(name)} is already {_shown(value)} in this match")
    old = {k: getattr(rules, k) for k in new}
    changed = match.change("rules", {"old": old, "new": new}, at=at)
    said = ", ".join(f"{rule_label(k)} {_shown(old[k])} → {_shown(v)}" for k, v in new.items())
    changed = changed.worded(f"rules: {said}")
    flags = ", ".join(f"{option_flag(k)} {_shown(old[k])} → {_shown(v)}" for k, v in new.items())
    if not any(find_option(k).scoring for k in new):
        return changed, f"Rule changed: {flags}; no score changes." + _aside_note(changed)
    head = f"Rule changed: {flags}; every hand re-scored."
    lines = describe_changes(match.sheet, changed.sheet)
    return changed, " ".join([head, *lines]) + _aside_note(changed)


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def replace_all(match: Match, hands: tuple[Hand, ...], rules: Rules, at: str) -> Done:
    """The match's hands and rules replaced at once (an import over a stored match)."""
    data = {"hands": tuple(hands), "rules": rules}
    changed = match.change("import", data, at=at)
    count = len(hands)
    said = f"{count} hand{'s' if count != 1 else ''}, rules {rules.label}"
    changed = changed.worded(f"imported the match: {said}")
    return changed, f"Imported: {said}." + _aside_note(changed)


# -- moving in the journal ---------------------------------------------------------------


def _effect(before: Match, after: Match) -> str:
    lines = describe_changes(before.sheet, after.sheet)
    if len(before.hands) != len(after.hands):
        count = len(after.hands)
        lines.insert(0, f"The sheet has {count} hand{'s' if count != 1 else ''}.")
    return " ".join(lines)


def _text_of(match: Match, number: int) -> str:
    return match.journal[number - 1].text


def _quoted(match: Match, number: int) -> str:
    return quoted_text(_text_of(match, number), match.players)


def notice(match: Match, at: str) -> Done:
    """Notice in a rolling match: from now on no new game opens; the games in progress are
    played out and the match ends when the last of them closes."""
    match.check_open()
    if not match.rules.rolling:
        raise HginError("notice is given only in a rolling match (see 'hgin rules set rolling')")
    if match.notice_after is not None:
        raise HginError(f"notice was already given, after hand {match.notice_after}")
    changed = match.change("notice", {"after": len(match.hands)}, at=at)
    changed = changed.worded(f"notice given after hand {len(match.hands)}")
    return changed, describe_notice(changed.sheet) + _aside_note(changed)


def undo(match: Match, at: str) -> Done:
    """The latest change still in force reverted, whatever its kind."""
    applied = match.state.applied
    if not applied:
        if not match.journal:
            raise HginError("there is nothing to undo: this match has no changes yet")
        raise HginError("there is nothing to undo: every change is undone")
    target = applied[-1]
    changed = match.change("undo", {"change": target}, at=at)
    text = short_text(_text_of(match, target))
    changed = changed.worded(f"undid change {target} ({text})")
    return changed, f"Undone: change {target} ({_quoted(match, target)}). {_effect(match, changed)}"


def redo_refusal(match: Match) -> str:
    """Why there is nothing to redo, and where undone changes set aside still are."""
    aside = match.state.aside
    if aside is None:
        return "there is nothing to redo"
    count, by = aside
    them = "it is" if count == 1 else "they are"
    return (
        f"there is nothing to redo: change {by} set aside {count} undone "
        f"change{'s' if count != 1 else ''}; {them} still in 'hgin log', and "
        f"'hgin restore {by - 1}' brings {'it' if count == 1 else 'them'} back"
    )


def redo(match: Match, at: str) -> Done:
    """The latest undone change applied again."""
    undone = match.state.undone
    if not undone:
        raise HginError(redo_refusal(match))
    target = undone[-1]
    changed = match.change("redo", {"change": target}, at=at)
    text = short_text(_text_of(match, target))
    changed = changed.worded(f"redid change {target} ({text})")
    return changed, f"Redone: change {target} ({_quoted(match, target)}). {_effect(match, changed)}"


def restore(match: Match, number: int, at: str) -> Done:
    """The match exactly as right after change `number`, as a new change."""
    last = len(match.journal)
    if last == 0:
        raise HginError("there is no change to go back to: this match has no changes yet")
    if not 1 <= number <= last:
        raise HginError(f"there is no change {number}: give a number from 1 to {last}")
    if match.state_after(number).same_as(match.state):
        raise HginError(f"the match is already as it was after change {number}")
    changed = match.change("restore", {"change": number}, at=at)
    changed = changed.worded(f"restored the match as after change {number}")
    head = f"Restored the match as after change {number} ({_quoted(match, number)})."
    note = _aside_note(changed)
    return changed, f"{head} {_effect(match, changed)}{note}"


# -- the log -----------------------------------------------------------------------------


class JournalRow(NamedTuple):
    """One change as `hgin log` lists it; `status` says where it stands now: 'in force',
    'undone' (redo brings it back), 'set aside' (only 'hgin restore' brings it back), or ''
    for undos, redos and what they moved."""

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
