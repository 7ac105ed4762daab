"""A match: players, first rules, first dealer and the journal of changes (the record)."""

import dataclasses
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from hgin.engine.hands import Hand, hand_award
from hgin.engine.identifiers import derived_uid
from hgin.engine.journal import Change, State, entered, next_state
from hgin.engine.names import JOINERS, control_character, fold, pick
from hgin.engine.rules import Rules
from hgin.engine.sheet import Sheet, extend, replay
from hgin.errors import HginError

MAX_NAME_LENGTH = 40


def check_name(name: str) -> str:
    """A player name as it will be stored: trimmed, composed (NFC), checked."""
    cleaned = unicodedata.normalize("NFC", name.strip())
    if not cleaned:
        raise HginError("a player name cannot be empty")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise HginError(f"a player name is at most {MAX_NAME_LENGTH} characters")
    if control_character(cleaned) or {cleaned[0], cleaned[-1]} & JOINERS:  # joiners: inside only
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


class Replayed(NamedTuple):
    """What a journal replays to: the states (the start, then after each change), hands, sheet."""

    states: tuple[State, ...]
    hands: tuple[Hand, ...]
    sheet: Sheet


@dataclass(frozen=True)
class Match:
    """Everything stored about one match; the hands, rules in force and sheet are what the
    journal replays to."""

    id: str
    players: tuple[str, str]
    start_rules: Rules
    first_dealer: str
    created: str
    journal: tuple[Change, ...] = ()
    # The match's identity on every device (`id` is for people, and two devices can give
    # two matches the same one): random for a new match, else derived from the record.
    uid: str = ""
    # Given only by `change` and `with_text`; otherwise the journal is replayed and checked.
    replayed: Replayed | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.replayed is not None:
            return
        first, second = (check_name(n) for n in self.players)
        if fold(first) == fold(second):
            raise HginError("the two players need different names")
        if self.first_dealer not in self.players:
            raise HginError(f"the dealer '{self.first_dealer}' is not a player")
        if not self.uid:
            object.__setattr__(
                self, "uid", derived_uid(self.created, list(self.players), self.first_dealer)
            )
        object.__setattr__(self, "replayed", self._replay())

    def _replay(self) -> Replayed:
        """The journal replayed, every change checked, each hand scored once."""
        states = [State(None, self.start_rules)]
        try:
            for change in self.journal:
                states.append(next_state(states, self.journal, change))
            replayed = self._replayed_from(tuple(states))
        except HginError:
            check_entries(self.journal, states, self.players)  # the earliest change at fault
            raise
        check_entries(self.journal, states, self.players, replayed.sheet)
        return replayed

    def _replayed_from(self, states: tuple[State, ...]) -> Replayed:
        last = states[-1]
        hands = last.hands
        sheet = replay(
            self.players, last.rules, self.first_dealer, hands, notice_after=last.notice_after
        )
        return Replayed(states, hands, sheet)

    @property
    def states(self) -> tuple[State, ...]:
        """The state at the start, then after each change (`states[n]`: after change n)."""
        assert self.replayed is not None  # set by __post_init__
        return self.replayed.states

    @property
    def state(self) -> State:
        """The current state: hands, rules, notice and the undo/redo position."""
        return self.states[-1]

    @property
    def hands(self) -> tuple[Hand, ...]:
        assert self.replayed is not None
        return self.replayed.hands

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def notice_after(self) -> int | None:
        """In a rolling match, the number of hands recorded when notice was given."""
        return self.state.notice_after

    @property
    def sheet(self) -> Sheet:
        assert self.replayed is not None
        return self.replayed.sheet

    @property
    def version(self) -> tuple[int, str]:
        """The number and time of the latest change (0 and the creation before any)."""
        last = self.journal[-1] if self.journal else None
        return (last.number, last.at) if last is not None else (0, self.created)

    def check_open(self) -> None:
        """Refuse anything that records a hand once the match is over."""
        sheet = self.sheet
        if sheet.finished:
            result = f"{sheet.winner} won it" if sheet.winner else "it ended level"
            raise HginError(
                f"match {self.id} is finished ({result}): start another with 'hgin new'"
            )

    def change(self, kind: str, data: dict[str, Any], *, at: str) -> "Match":
        """The match with one more change in its journal, applied and checked."""
        change = Change(len(self.journal) + 1, at, kind, "", data)
        state = next_state(self.states, self.journal, change)
        states, now = (*self.states, state), self.state
        same = state.rules is now.rules and state.notice_after == now.notice_after
        if same and state.hand_stack is not None and state.hand_stack.below is now.hand_stack:
            # One more hand: the sheet goes on from the present one (checking that hand).
            hand = state.hand_stack.top
            replayed = Replayed(states, (*self.hands, hand), extend(self.sheet, [hand]))
        else:
            replayed = self._replayed_from(states)  # replaying the sheet is the check
        return dataclasses.replace(self, journal=(*self.journal, change), replayed=replayed)

    def with_text(self, text: str) -> "Match":
        """The match with the sentence of its latest change set (the same replay)."""
        last = self.journal[-1]._replace(text=text)
        return dataclasses.replace(self, journal=(*self.journal[:-1], last))


def check_entries(
    journal: Sequence[Change],
    states: Sequence[State],
    players: tuple[str, str],
    sheet: Sheet | None = None,
) -> None:
    """Refuse the earliest change that enters a hand its rules do not score (those `sheet`
    scored are left out)."""
    if sheet is not None and all(change.kind == "record" for change in journal):
        return
    scored = {id(played.hand) for played in sheet.hands} if sheet is not None else set()
    for change, before in zip(journal, states, strict=False):
        rules, hands = entered(change, before)
        for hand in hands:
            if sheet is not None and rules is sheet.rules and id(hand) in scored:
                continue
            try:
                hand_award(rules, players, hand)
            except HginError as refusal:
                raise HginError(f"change {change.number} ({change.kind}): {refusal}") from None
