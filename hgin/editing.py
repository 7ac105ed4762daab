"""Correcting the past: replace or remove hand N and re-score every hand after it.

Pure functions of a `Match` (`replace_hand`, `remove_hand`) and their locked, saving forms
(`edit_hand`, `delete_hand`) on a `ScoreKeeper`. A change that would leave a later hand
impossible (recorded after the match would now have ended) is refused and names that hand.
"""

from __future__ import annotations

from hgin.engine.hands import Hand, hand_award
from hgin.engine.match import Match
from hgin.engine.narrate import describe_hand, describe_result
from hgin.engine.sheet import PlayedHand, Sheet, empty_sheet, extend, game_name
from hgin.errors import HginError
from hgin.play.parser import TypedHand, entry_text, resolved
from hgin.scorekeeper import Outcome, ScoreKeeper


def hand_index(match: Match, number: int) -> int:
    """The 0-based position of hand `number`, refusing numbers the match does not have."""
    count = len(match.hands)
    if count == 0:
        raise HginError("there are no hands to change yet")
    if not 1 <= number <= count:
        last = "hand 1 only" if count == 1 else f"hands 1 to {count}"
        raise HginError(f"there is no hand {number}: this match has {last}")
    return number - 1


def _end_of_match(match: Match, hands: tuple[Hand, ...]) -> int | None:
    """The number of the hand that would now end the match, when hands follow it."""
    sheet = empty_sheet(match.players, match.rules, match.first_dealer)
    for end, hand in enumerate(hands[:-1], start=1):
        sheet = extend(sheet, [hand])
        if sheet.finished:
            return end
    return None


def rescored(match: Match, hands: tuple[Hand, ...], doing: str) -> Match:
    """The match with `hands` instead of its own, or a refusal that names the hand in the way."""
    try:
        return match.with_hands(hands)
    except HginError as refusal:
        end = _end_of_match(match, hands)
        if end is None:
            raise HginError(f"cannot {doing}: {refusal}") from None
        later = len(hands) - end
        joint = " and " if later == 2 else " to "
        which = f"hand {end + 1}" if later == 1 else f"hands {end + 1}{joint}{len(hands)}"
        raise HginError(
            f"cannot {doing}: the match would then end at hand {end}, but {which} "
            f"{'was' if later == 1 else 'were'} recorded after it (delete or change "
            f"{'it' if later == 1 else 'them'} first)"
        ) from None


def _scored(hand: Hand) -> tuple[object, ...]:
    """What decides a hand's score (not when it was entered, nor the cards it was counted from)."""
    return (hand.kind, hand.player, hand.deadwood, hand.opponent_deadwood, hand.upcard)


def _said(played: PlayedHand) -> str:
    return f"{entry_text(played.hand)} ({describe_hand(played)[:-1]})"


def _who(winner: str | None) -> str:
    return f"won by {winner}" if winner else "open"


def result_changes(old: Sheet, new: Sheet) -> list[str]:
    """What changed in the games' and the match's results, as short phrases."""
    changes = []
    for before, after in zip(old.games, new.games, strict=True):
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


def replace_hand(match: Match, number: int, entry: TypedHand) -> Outcome:
    """Hand `number` replaced by `entry` (keeping when it was recorded), the rest re-scored."""
    index = hand_index(match, number)
    old_hand = match.hands[index]
    new_hand = resolved(entry, match, recorded_at=old_hand.recorded_at)
    if _scored(new_hand) == _scored(old_hand):
        raise HginError(f"hand {number} is already {entry_text(old_hand)}: nothing to change")
    try:
        hand_award(match.rules, match.players, new_hand)
    except HginError as refusal:
        raise HginError(f"cannot change hand {number}: {refusal}") from None
    hands = (*match.hands[:index], new_hand, *match.hands[index + 1 :])
    changed = rescored(match, hands, f"change hand {number}")
    before, after = match.sheet.hands[index], changed.sheet.hands[index]
    sentence = f"Hand {number} corrected: {_said(before)} → {_said(after)}"
    return Outcome(changed, _with_changes(sentence, match.sheet, changed.sheet))


def remove_hand(match: Match, number: int) -> Outcome:
    """Hand `number` taken out; the hands after it move up one and are re-scored."""
    index = hand_index(match, number)
    hands = (*match.hands[:index], *match.hands[index + 1 :])
    changed = rescored(match, hands, f"delete hand {number}")
    sentence = f"Hand {number} deleted: {_said(match.sheet.hands[index])}"
    after = len(match.hands) - number
    if after == 1:
        sentence += f"; hand {number + 1} is now hand {number}"
    elif after > 1:
        joint = " and " if after == 2 else " to "
        moved = f"{number + 1}{joint}{len(match.hands)}"
        sentence += f"; hands {moved} are now {number}{joint}{len(hands)}"
    return Outcome(changed, _with_changes(sentence, match.sheet, changed.sheet))


def edit_hand(
    keeper: ScoreKeeper, number: int, entry: TypedHand, match: str | None = None
) -> Outcome:
    """Replace hand `number` of a stored match, under the lock, and save it."""
    return keeper.update(match, lambda loaded: replace_hand(loaded, number, entry))


def delete_hand(keeper: ScoreKeeper, number: int, match: str | None = None) -> Outcome:
    """Remove hand `number` of a stored match, under the lock, and save it."""
    return keeper.update(match, lambda loaded: remove_hand(loaded, number))
