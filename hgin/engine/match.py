"""A match: players, first rules, first dealer and the journal of changes (the record)."""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hgin.engine.hands import Hand
from hgin.engine.journal import Change, Fold, State, fold_journal
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
    """Everything stored about one match: its players, first rules, first dealer, when it was
    created, and the journal of changes. The hands, the rules in force and the sheet are what
    the journal folds to (`hgin.engine.journal`); they are never stored as a second truth."""

    id: str
    players: tuple[str, str]
    start_rules: Rules
    first_dealer: str
    created: str
    journal: tuple[Change, ...] = ()

    def __post_init__(self) -> None:
        first, second = (check_name(n) for n in self.players)
        if fold(first) == fold(second):
            raise HginError("the two players need different names")
        if self.first_dealer not in self.players:
            raise HginError(f"the dealer '{self.first_dealer}' is not a player")
        check_rules(self.start_rules)

    @cached_property
    def folded(self) -> Fold:
        """The journal folded change by change (refuses a change that does not replay)."""
        return fold_journal(self.players, self.start_rules, self.journal)

    @property
    def state(self) -> State:
        """The current state: hands, rules, notice and the undo/redo position."""
        return self.folded.state

    @cached_property
    def hands(self) -> tuple[Hand, ...]:
        """The hands in force, in order."""
        return tuple(self.folded.state.hands)

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self.folded.state.rules

    @property
    def notice_after(self) -> int | None:
        """In a rolling match, the number of hands recorded when notice was given."""
        return self.folded.state.notice_after

    @cached_property
    def sheet(self) -> Sheet:
        """The score sheet after every hand in force."""
        return replay(
            self.players,
            self.rules,
            self.first_dealer,
            self.hands,
            notice_after=self.notice_after,
        )

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

    def change(self, kind: str, data: dict[str, Any], *, at: str, text: str = "") -> Match:
        """The match with one more change in its journal, applied and checked: the sheet of
        the result must replay. `text` may be set afterwards with `with_text`."""
        change = Change(len(self.journal) + 1, at, kind, text, data)
        branch = self.folded.branch()
        branch.step(change)
        changed = dataclasses.replace(self, journal=(*self.journal, change))
        changed.__dict__["folded"] = branch
        changed.sheet  # noqa: B018 - replaying is the check
        return changed

    def with_text(self, text: str) -> Match:
        """The match with the sentence of its latest change set."""
        last = self.journal[-1]._replace(text=text)
        changed = dataclasses.replace(self, journal=(*self.journal[:-1], last))
        for name in ("folded", "hands", "sheet"):
            if name in self.__dict__:
                changed.__dict__[name] = self.__dict__[name]
        return changed

    def state_after(self, number: int) -> State:
        """The state right after change `number` (hands, rules, notice, undo position)."""
        return self.folded.state_after(number)


def start_match(
    match_id: str,
    players: tuple[str, str],
    rules: Rules,
    first_dealer: str,
    created: str,
    hands: tuple[Hand, ...] = (),
) -> Match:
    """A match whose journal records `hands` one by one (each at its recorded time)."""
    match = Match(match_id, players, rules, first_dealer, created)
    if not hands:
        return match
    fold_ = match.folded.branch()
    changes = []
    for number, hand in enumerate(hands, 1):
        change = Change(number, hand.recorded_at or created, "record", "", {"hand": hand})
        fold_.step(change)
        changes.append(change)
    made = dataclasses.replace(match, journal=tuple(changes))
    made.__dict__["folded"] = fold_
    return made
