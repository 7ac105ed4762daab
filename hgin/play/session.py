"""A session at the table without any terminal: one typed line in, one reply out (what to show
and say). Every hand goes through `ScoreKeeper`, saved as it is entered; every refusal is an
`HginError` the caller shows as one line; nothing here prints."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hgin.engine.editing import JournalRow, typed_name
from hgin.engine.match import Match
from hgin.errors import HginError
from hgin.play.parser import (
    COMMANDS,
    ENTRY_KINDS,
    HELP_INTRO,
    NEXT_MATCH,
    Command,
    CountCards,
    NextMatch,
    help_rows,
    parse_line,
)
from hgin.reports.card_text import hand_count_blocks, plain_lines
from hgin.scorekeeper import Outcome, ScoreKeeper

if TYPE_CHECKING:
    from hgin.engine.card_entry import CountedHand


LOG_SHOWN = 20


def still_working() -> str:
    """The words that still work once the match is over, but for those that start the next."""
    left = (*ENTRY_KINDS, *NEXT_MATCH)
    names = [word.name for word in COMMANDS if word not in left and word.name != "notice"]
    return ", ".join(names[:-1]) + " and " + names[-1]


NEXT = (
    "Next: new (same players and rules; in a series, its next match), or new NAME1 NAME2 [options]"
)


def greeting(match: Match) -> str:
    """The first words at a terminal, with the match's own players as the example."""
    if match.sheet.finished:  # what still works, and what is next, the sheet's note says
        return "Type a word, or help."
    first, second = (typed_name(player) for player in match.players)
    return f"Type a hand: gin {first} 18, knock {second} 7 12, draw; or help."


# What `hgin new` reads of a `new` line's words: the names, rules, dealer and rule values.
NewMatch = tuple[str, str, str | None, str | None, dict[str, Any]]
NewArguments = Callable[[Sequence[str]], NewMatch]


@dataclass(frozen=True, slots=True)
class Reply:
    """What to show for one line: a sheet or a summary, then sentences, help or changes."""

    lines: tuple[str, ...] = ()
    help: tuple[tuple[str, str], ...] = ()
    log: tuple[JournalRow, ...] = ()  # the latest changes, drawn as `hgin log` draws them
    sheet: Match | None = None
    summary: Match | None = None
    quit: bool = False
    counted: CountedHand | None = None
    saved: bool = False  # the line changed the match, and the change is saved


class TableSession:
    """Lines typed at the table for one match, chosen once so that 'hgin use' elsewhere
    cannot move the session to another match."""

    def __init__(self, keeper: ScoreKeeper, match: str | None, new_arguments: NewArguments) -> None:
        """`new_arguments` reads a `new` line's words as `hgin new` reads its own."""
        self.keeper = keeper
        self.new_arguments = new_arguments
        chosen = keeper.choose(match)
        self.match_id = chosen.id
        self.notices = chosen.notices  # how a player's name chose the match
        self.match = keeper.load(self.match_id)

    def start(self) -> Reply:
        """The sheet as the session opens (and a word if the match is already over)."""
        return Reply(self._over_note(), sheet=self.match)

    @property
    def prompt(self) -> str:
        """'hand 5> ' while hands can be recorded, 'over> ' once the match is finished."""
        if self.match.sheet.finished:
            return "over> "
        return f"hand {len(self.match.hands) + 1}> "

    def _over_note(self) -> tuple[str, ...]:
        """Said when the match ends, and again whenever its sheet is shown."""
        if not self.match.sheet.finished:
            return ()
        return (
            f"The match is over: nothing more to record ({still_working()} still work). {NEXT}.",
        )

    def _changed(self, outcome: Outcome) -> Reply:
        was_over = self.match.sheet.finished
        self.match = outcome.match
        note = self._over_note() if not was_over else ()
        lines = (*outcome.lines, *note)
        return Reply(lines, sheet=outcome.match, counted=outcome.counted, saved=True)

    def handle(self, line: str) -> Reply:
        """Carry out one typed line; a refusal raises HginError and records nothing."""
        action = parse_line(line)
        if action is None:
            return Reply()
        if isinstance(action, CountCards):
            count = self.keeper.count(action.cards, action.opponent)
            return Reply(tuple(plain_lines(*hand_count_blocks(count))))
        if isinstance(action, NextMatch):
            return self._next(action)
        return self._command(action)

    def _next(self, action: NextMatch) -> Reply:
        """Start the next match and carry on in it."""
        if not action.words:
            started = self.keeper.rematch(self.match_id, series_only=action.series)
        else:
            first, second, rules, dealer, options = self.new_arguments(action.words)
            started = self.keeper.new(first, second, rules=rules, options=options, dealer=dealer)
        self.match_id, self.match = started.match.id, started.match
        return Reply(tuple(started.lines), sheet=started.match)

    def _command(self, action: Command) -> Reply:
        keeper, match_id, entry, number = self.keeper, self.match_id, action.entry, action.number
        if action.name == "help":
            intro = () if action.topic else (HELP_INTRO,)
            return Reply(intro, help=tuple(help_rows(action.topic)))
        if action.name == "quit":
            return Reply(quit=True)
        if action.name in ("gin", "knock", "draw"):
            assert entry is not None
            self.match = keeper.load(match_id)
            if self.match.sheet.finished:
                raise HginError(
                    f"the match is over, no hand can be recorded: {still_working()} still work"
                )
            return self._changed(keeper.record(entry, match_id))
        if action.name == "edit":
            assert entry is not None and number is not None
            return self._changed(keeper.edit(number, entry, match=match_id))
        if action.name in ("delete", "restore"):
            assert number is not None
            by_number = keeper.delete if action.name == "delete" else keeper.restore
            return self._changed(by_number(number, match=match_id))
        unnumbered = {"undo": keeper.undo, "redo": keeper.redo, "notice": keeper.notice}
        if action.name in unnumbered:
            return self._changed(unnumbered[action.name](match=match_id))
        if action.name == "log":
            logged = keeper.log(match_id)
            self.match = logged.match
            rows = logged.rows
            if not rows:
                return Reply(("No changes yet.",))
            intro = (
                () if len(rows) <= LOG_SHOWN else (f"The last {LOG_SHOWN} of {len(rows)} changes:",)
            )
            return Reply(intro, log=tuple(rows[-LOG_SHOWN:]))
        self.match = keeper.load(match_id)
        if action.name == "summary":
            return Reply(summary=self.match)
        return Reply(self._over_note(), sheet=self.match)
