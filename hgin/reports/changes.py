"""The sentences of a change to a match (its journal line and its message, from the match before
and after it) and of bringing back a file (an abandoned match, a backup). Pure text."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from hgin.engine.editing import entry_text
from hgin.engine.hands import Hand
from hgin.engine.match import Match
from hgin.engine.rules import find_option, option_flag, shown_value
from hgin.engine.sheet import PlayedHand, Sheet, game_name
from hgin.reports.narrate import (
    describe_changes,
    describe_hand,
    describe_notice,
    describe_result,
    formula,
)
from hgin.reports.plural import counted
from hgin.reports.times import shown_time

if TYPE_CHECKING:
    from hgin.engine.copies import Combined


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


def played_phrase(played: PlayedHand) -> str:
    """'gin by Ann, 25 + 18 = 43', 'knock by Ann 9 v 7, undercut, Bob scores 9 − 7 + 25 = 27'."""
    award = played.award
    if award.winner is None:
        return f"{hand_phrase(played.hand)}, no score"
    if award.result == "undercut":
        return f"{hand_phrase(played.hand)}, undercut, {award.winner} scores {formula(award)}"
    return f"{hand_phrase(played.hand)}, {formula(award)}"


def _naming(text: str) -> str:
    """The words that name a change: 'edited hand 2' of 'edited hand 2: gin by Ann, …'."""
    return text.split(": ", 1)[0].split(" (", 1)[0]


QUOTED_LENGTH = 60  # "Undone: change 12 (…)." then still fits a line of 80 columns


def quoted_text(text: str, players: tuple[str, str]) -> str:
    """A change's sentence cut to QUOTED_LENGTH: whole phrases left out for '…', brackets closed."""
    if len(text) <= QUOTED_LENGTH:
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
            if len(best) < len(shown) <= QUOTED_LENGTH:
                best = shown
    return best


def _phrase_ends(text: str, players: tuple[str, str], start: int) -> list[int]:
    """The spaces of `text` after `start` that end a phrase (never inside a player's name)."""
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
    """What the latest change set aside: the undone changes it made unreachable by redo."""
    aside = match.state.aside
    if aside is None or aside[1] != len(match.journal):
        return ""
    return f" {counted(aside[0], 'undone change')} set aside; see 'hgin log'."


def _won_by(winner: str | None) -> str:
    return f"won by {winner}" if winner else "open"


def _with_changes(sentence: str, old: Sheet, new: Sheet) -> str:
    """`sentence` and what changed in the games' and the match's results."""
    changes = []
    for before, after in zip(old.games, new.games, strict=False):
        if before.winner != after.winner:
            changes.append(
                f"game {game_name(after.number)} is now {_won_by(after.winner)} "
                f"(was {_won_by(before.winner)})"
            )
    if (old.finished, old.winner) != (new.finished, new.winner):
        if new.finished:
            changes.append(describe_result(new)[:-1].replace("Match over", "the match is now over"))
        else:
            changes.append("the match is open again")
    if changes:
        sentence += "; " + "; ".join(changes)
    return sentence + "."


def _entry_and_result(played: PlayedHand) -> str:
    """'gin ann 20 (Gin: Ann scores 25 + 20 = 45 in game I)'."""
    return f"{entry_text(played.hand)} ({describe_hand(played)[:-1]})"


def _hands_moved(number: int, count: int) -> str:
    """'; hands 3 to 5 are now 2 to 4' when hand `number` of `count` is deleted."""
    after = count - number
    if after == 1:
        return f"; hand {number + 1} is now hand {number}"
    if after > 1:
        joint = " and " if after == 2 else " to "
        return f"; hands {number + 1}{joint}{count} are now {number}{joint}{count - 1}"
    return ""


def change_sentences(before: Match, after: Match) -> tuple[str, str]:
    """The journal's line for the latest change of `after` and the message saying what it did."""
    change = after.journal[-1]
    data = change.data
    match change.kind:
        case "record":
            last = after.sheet.hands[-1]
            text = f"recorded hand {last.number}: {played_phrase(last)}"
            said = describe_hand(last)
        case "edit":
            number = data["hand_number"]
            was, now = before.sheet.hands[number - 1], after.sheet.hands[number - 1]
            text = f"edited hand {number}: {played_phrase(now)} (was {played_phrase(was)})"
            sentence = f"Hand {number} corrected: {_entry_and_result(was)} → "
            said = _with_changes(sentence + _entry_and_result(now), before.sheet, after.sheet)
        case "delete":
            number = data["hand_number"]
            gone = before.sheet.hands[number - 1]
            text = f"deleted hand {number}: {played_phrase(gone)}"  # as 'recorded hand N: …'
            sentence = f"Hand {number} deleted: {_entry_and_result(gone)}"
            sentence += _hands_moved(number, len(before.hands))
            said = _with_changes(sentence, before.sheet, after.sheet)
        case "rules":
            old, new = data["old"], data["new"]
            moves = [(k, f"{shown_value(old[k])} → {shown_value(v)}") for k, v in new.items()]
            text = "rules: " + ", ".join(f"{k.replace('_', ' ')} {move}" for k, move in moves)
            flags = ", ".join(f"{option_flag(k)} {move}" for k, move in moves)
            if not any(find_option(k).scoring for k in new):
                said = f"Rule changed: {flags}; no score changes."
            else:
                lines = describe_changes(before.sheet, after.sheet)
                said = " ".join([f"Rule changed: {flags}; every hand re-scored.", *lines])
        case "import":
            held = f"{counted(len(data['hands']), 'hand')}, rules {data['rules'].label}"
            text, said = f"imported the match: {held}", f"Imported: {held}."
        case "notice":
            text, said = f"notice given after hand {data['after']}", describe_notice(after.sheet)
        case "combine":
            joined = data["joined"]
            parted = f"after change {joined.common}" if joined.common else "at the start"
            held = counted(len(data["hands"]), "hand")
            text = f"combined with {joined.id} (they parted {parted}): {held}"
            said = f"Combined {joined.id} into {after.id}: the sheet has {held}. "
            said += " ".join(describe_changes(before.sheet, after.sheet))
        case _:  # undo, redo, restore: what moving in the journal did to the sheet
            target = data["change"]
            named = before.journal[target - 1].text
            quoted = quoted_text(named, before.players)
            if change.kind == "restore":
                text = f"restored the match as after change {target}"
                said = f"Restored the match as after change {target} ({quoted}). "
            else:
                verb, done = ("undid", "Undone") if change.kind == "undo" else ("redid", "Redone")
                if not named.startswith("rules:"):  # a rule change is named by all it says
                    named = _naming(named)
                text = f"{verb} change {target} ({named})"
                said = f"{done}: change {target} ({quoted}). "
            lines = describe_changes(before.sheet, after.sheet)
            if len(before.hands) != len(after.hands):
                lines.insert(0, f"The sheet has {counted(len(after.hands), 'hand')}.")
            said += " ".join(lines)
    return text, said + _aside_note(after)


def combine_notes(combined: Combined, other: str) -> list[str]:
    """What a combine says beyond its sentence: hands brought, conflicts, the rules."""
    notes = []
    if combined.theirs_added:
        numbers = ", ".join(map(str, combined.theirs_added))
        hands = "hand" if len(combined.theirs_added) == 1 else "hands"
        notes.append(f"From {other}: {hands} {numbers}.")
    for conflict in combined.conflicts:
        dropped_from = other if conflict.kept_from != other else combined.match.id
        notes.append(
            f"Hand {conflict.number} was changed in both copies: kept {conflict.kept_from}'s "
            f"{_version(conflict.kept)}, dropped {dropped_from}'s {_version(conflict.dropped)}."
        )
    if combined.rules_conflict:
        notes.append(
            f"Both copies changed the rules: the later change is kept "
            f"({combined.match.rules.label}); 'hgin rules' shows them."
        )
    return notes


def held_copy_off(other: str, match_id: str) -> str:
    """What a redo or restore that brings a combine back says of the copy it took in."""
    return (
        f"{other} is taken off the list again: {match_id} holds it ('hgin undo' straight after "
        "brings both back)."
    )


def _version(hand: Hand | None) -> str:
    return "delete" if hand is None else f"version ({hand_phrase(hand)})"


def brought_back(match: Match) -> str:
    """What `undo` straight after `abandon` says."""
    first, second = match.players
    return f"Brought back match {match.id} ({first} v {second})."


def backup_restored(
    match_id: str, *, number: int, file: str, kept_at: datetime, hands: int, replaced: str
) -> str:
    """What bringing back backup `number` says of it and of the file it `replaced`."""
    message = (
        f"Restored match {match_id} from backup {number} ({file}, kept {shown_time(kept_at)}): "
        f"{counted(hands, 'hand')}."
    )
    if replaced == "readable":
        undo = "'hgin restore --backup 1' takes this back"
        return f"{message} The version it replaced is now backup 1: {undo}."
    if replaced == "damaged":
        return f"{message} The damaged file it replaced is kept as backup 1."
    return message
