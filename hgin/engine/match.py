"""A match: players, rules, first dealer and the ordered hands (the single source of truth)."""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass
from functools import cached_property

from hgin.engine.hands import Hand, hand_award, written_plainly
from hgin.engine.names import fold, pick
from hgin.engine.rules import Rules, check_rules
from hgin.engine.sheet import Sheet, replay
from hgin.errors import HginError

MAX_NAME_LENGTH = 40
JOINERS = ("\u200c", "\u200d")


def check_name(name: str) -> str:
    """A player name as it will be stored: trimmed, composed (NFC), printable, not empty, not
    too long, and not starting with a combining mark (which would attach to what precedes)."""
    cleaned = unicodedata.normalize("NFC", name.strip())
    if not cleaned:
        raise HginError("a player name cannot be empty")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise HginError(f"a player name is at most {MAX_NAME_LENGTH} characters")
    for at, char in enumerate(cleaned):
        # Zero-width (non-)joiners belong inside Persian or emoji names; other format
        # characters, such as bidi overrides, would reorder what the terminal shows.
        joiner = char in JOINERS and 0 < at < len(cleaned) - 1
        if not joiner and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            raise HginError(f"a player name cannot hold control characters ({cleaned!r})")
    if unicodedata.category(cleaned[0]).startswith("M"):
        raise HginError("a player name cannot start with a combining mark")
    return cleaned


def resolve_player(players: tuple[str, str], typed: str) -> str:
    """The player meant by `typed`: an exact name or a unique start, ignoring case and accents."""
    if not fold(typed):
        raise HginError("name a player")
    return pick(
        typed,
        players,
        missing=f"'{{typed}}' is not a player in this match ({players[0]} or {players[1]})",
    )


@dataclass(frozen=True)
class Match:
    """Everything stored about one match; the sheet is always recomputed from the hands."""

    id: str
    players: tuple[str, str]
    rules: Rules
    first_dealer: str
    created: str
    hands: tuple[Hand, ...] = ()
    undone: tuple[Hand, ...] = ()

    def __post_init__(self) -> None:
        first, second = (check_name(n) for n in self.players)
        if fold(first) == fold(second):
            raise HginError("the two players need different names")
        if self.first_dealer not in self.players:
            raise HginError(f"the dealer '{self.first_dealer}' is not a player")
        check_rules(self.rules)

    @cached_property
    def sheet(self) -> Sheet:
        """The score sheet after every recorded hand."""
        return replay(self.players, self.rules, self.first_dealer, self.hands)

    def player(self, typed: str) -> str:
        """Resolve a typed name or prefix to one of the players."""
        return resolve_player(self.players, typed)

    def check_open(self) -> None:
        """Refuse anything that records a hand once the match is over."""
        sheet = self.sheet
        if sheet.finished:
            result = f"{sheet.winner} won it" if sheet.winner else "it ended level"
            raise HginError(
                f"match {self.id} is finished ({result}): start another with 'hgin new'"
            )

    def with_hand(self, hand: Hand) -> Match:
        """The match with one more hand; clears what could be redone."""
        self.check_open()
        hand_award(self.rules, self.players, hand)
        hand = written_plainly(hand)
        return dataclasses.replace(self, hands=(*self.hands, hand), undone=())

    def without_last(self) -> tuple[Match, Hand]:
        """The match with its last hand taken back (kept for redo)."""
        if not self.hands:
            raise HginError("there is no hand to undo")
        last = self.hands[-1]
        return dataclasses.replace(self, hands=self.hands[:-1], undone=(*self.undone, last)), last

    def with_redo(self) -> tuple[Match, Hand]:
        """The match with the most recently undone hand put back."""
        if not self.undone:
            raise HginError("there is nothing to redo")
        hand = self.undone[-1]
        return dataclasses.replace(self, hands=(*self.hands, hand), undone=self.undone[:-1]), hand

    def with_rules(self, rules: Rules) -> Match:
        """The match re-scored under other rules; refuses when a recorded hand breaks them."""
        changed = dataclasses.replace(self, rules=check_rules(rules))
        changed.sheet  # noqa: B018 - replaying is the check
        return changed

    def with_hands(self, hands: tuple[Hand, ...]) -> Match:
        """The match with its hands replaced (edit, delete), checked by replaying them all."""
        hands = tuple(written_plainly(h) for h in hands)
        changed = dataclasses.replace(self, hands=hands, undone=())
        changed.sheet  # noqa: B018 - replaying is the check
        return changed
