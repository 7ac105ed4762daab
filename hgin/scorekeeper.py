"""The library API: every action on stored matches, each a locked read-modify-write.

from hgin.scorekeeper import ScoreKeeper
keeper = ScoreKeeper()                 # $HGIN_HOME or the platformdirs data folder
keeper.new_match("Ann", "Bob", dealer="Ann")
outcome = keeper.gin("ann", 18)
print(outcome.message, outcome.match.sheet.totals)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from hgin.errors import HginError
from hgin.store.paths import data_dir

# The engine and the storage are imported where they are used: every command module imports
# this one, and a command that never opens a match should not pay for them (start-up time).
if TYPE_CHECKING:
    import random

    from hgin.engine.card_entry import CardsText, CountedHand
    from hgin.engine.hands import Hand
    from hgin.engine.match import Match
    from hgin.engine.rules import Rules
    from hgin.engine.settle import Settlement
    from hgin.engine.series import Standing
    from hgin.store.matches import MatchEntry
    from hgin.store.series import SeriesFiles

MAX_SERIES_TARGET = 1_000_000


def now_text() -> str:
    """The local time with its offset, to the second."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Outcome:
    """A changed match and the sentences that say what changed."""

    match: Match
    message: str

    @property
    def lines(self) -> list[str]:
        return [self.message]


@dataclass(frozen=True, slots=True)
class CardOutcome(Outcome):
    """An outcome recorded from the cards, with the count (melds, layoffs) it came from."""

    counted: CountedHand


@dataclass(frozen=True, slots=True)
class Settled:
    """A match's settlement, where its stake came from ('option', 'match', 'config') and the
    currency label to print beside amounts."""

    match: Match
    settlement: Settlement
    stake_from: str | None
    currency: str | None = None


class ScoreKeeper:
    """Matches kept in one data folder."""

    def __init__(self, home: Path | None = None) -> None:
        from hgin.store.matches import Store

        self.store = Store(home if home is not None else data_dir())

    # -- choosing a match ----------------------------------------------------------------

    def match_id(self, match: str | None = None) -> str:
        """The identifier meant by `match` (a prefix is fine), else the current match's."""
        if match is not None:
            return self.store.find(match)
        current = self.store.current_id()
        if current is None:
            raise HginError("no match yet: start one with 'hgin new NAME1 NAME2'")
        return current

    def load(self, match: str | None = None) -> Match:
        """The match named (or the current one), validated."""
        return self.store.load(self.match_id(match))

    def use(self, match: str) -> Match:
        """Make a stored match the current one."""
        self.store.find(match)  # refuse a missing match before the lock creates the data folder
        with self.store.locked():
            loaded = self.store.load(self.store.find(match))
            self.store.set_current(loaded.id)
        return loaded

    def matches(self) -> list[MatchEntry]:
        """Every stored match, newest first."""
        return self.store.entries()

    def current_id(self) -> str | None:
        """The current match's identifier, or None before the first match."""
        return self.store.current_id()

    def match_ids(self) -> list[str]:
        """Every stored match's identifier (for completion: no file is validated)."""
        return self.store.match_ids()

    def players_of(self, match: str | None = None) -> tuple[str, ...]:
        """The two names a match's file states, without loading the engine (for completion);
        () when there is no such match or its file does not state them."""
        from hgin.store.peek import match_players

        return match_players(self.store, match)

    # -- starting ------------------------------------------------------------------------

    def new_match(
        self,
        first: str,
        second: str,
        rules: Rules | None = None,
        dealer: str | None = None,
        chooser: random.Random | None = None,
        also: Callable[[Match], None] | None = None,
    ) -> Match:
        """Start a match and make it current; the first dealer is drawn by lot unless named.

        `also` runs under the same lock once the match is saved (a series records it there);
        if it refuses, the new match is removed again.
        """
        from hgin.engine.match import Match, check_name
        from hgin.engine.rules import PROFILES

        players = (check_name(first), check_name(second))
        if players[0].casefold() == players[1].casefold():
            raise HginError("the two players need different names")
        if dealer is None:
            import random

            first_dealer = (chooser or random.SystemRandom()).choice(players)
        else:
            from hgin.engine.match import resolve_player

            first_dealer = resolve_player(players, dealer)
        created = now_text()
        with self.store.locked():
            match = Match(
                id=self.store.new_id(players, created),
                players=players,
                rules=rules or PROFILES["friendly"],
                first_dealer=first_dealer,
                created=created,
            )
            previous = self.store.current_id() if also is not None else None
            self.store.create(match)
            if also is not None:
                try:
                    also(match)
                except BaseException:
                    self.store.discard_new(match.id, previous)
                    raise
        return match

    # -- changing a match ----------------------------------------------------------------

    def update(self, match: str | None, change: Callable[[Match], Outcome]) -> Outcome:
        """Apply `change` to a match under the lock and save the result."""
        self.match_id(match)  # refuse a missing match before the lock creates the data folder
        with self.store.locked():
            loaded = self.store.load_for_update(self.match_id(match))
            outcome = change(loaded)
            self.store.save(outcome.match)
        return outcome

    def record(self, hand: Callable[[Match], Hand], match: str | None = None) -> Outcome:
        """Record the hand built from the loaded match (names resolved against its players)."""
        from hgin.engine.narrate import describe_hand

        def add(loaded: Match) -> Outcome:
            changed = loaded.with_hand(hand(loaded))
            last = changed.sheet.hands[-1]
            return Outcome(changed, describe_hand(last))

        return self.update(match, add)

    def gin(
        self,
        player: str,
        opponent_deadwood: int,
        *,
        big: bool = False,
        upcard: str | None = None,
        match: str | None = None,
    ) -> Outcome:
        """Record a gin (or a big gin) by `player` against the opponent's deadwood."""
        from hgin.engine.hands import Hand

        return self.record(
            lambda m: Hand(
                "big_gin" if big else "gin",
                player=m.player(player),
                opponent_deadwood=opponent_deadwood,
                upcard=upcard,
                recorded_at=now_text(),
            ),
            match,
        )

    def knock(
        self,
        knocker: str,
        deadwood: int,
        opponent_deadwood: int,
        *,
        upcard: str | None = None,
        match: str | None = None,
    ) -> Outcome:
        """Record a knock; the engine decides between a knock win and an undercut."""
        from hgin.engine.hands import Hand

        return self.record(
            lambda m: Hand(
                "knock",
                player=m.player(knocker),
                deadwood=deadwood,
                opponent_deadwood=opponent_deadwood,
                upcard=upcard,
                recorded_at=now_text(),
            ),
            match,
        )

    def gin_from_cards(
        self,
        player: str,
        *,
        opponent_cards: CardsText | None = None,
        hand_cards: CardsText | None = None,
        opponent_deadwood: int | None = None,
        big: bool = False,
        upcard: str | None = None,
        match: str | None = None,
    ) -> CardOutcome:
        """Record a gin counted from the cards; with `hand_cards`, refused unless they all meld."""
        from hgin.engine.card_entry import count_gin

        counted = count_gin(
            opponent=opponent_cards,
            hand=hand_cards,
            big=big,
            opponent_deadwood=opponent_deadwood,
        )
        return self._record_counted(player, counted, upcard, match)

    def knock_from_cards(
        self,
        knocker: str,
        *,
        hand_cards: CardsText,
        opponent_cards: CardsText,
        deadwood: int | None = None,
        opponent_deadwood: int | None = None,
        upcard: str | None = None,
        match: str | None = None,
    ) -> CardOutcome:
        """Record a knock counted from both hands (the opponent melds and lays off)."""
        from hgin.engine.card_entry import count_knock_entry

        counted = count_knock_entry(
            hand=hand_cards,
            opponent=opponent_cards,
            deadwood=deadwood,
            opponent_deadwood=opponent_deadwood,
        )
        return self._record_counted(knocker, counted, upcard, match)

    def _record_counted(
        self, player: str, counted: CountedHand, upcard: str | None, match: str | None
    ) -> CardOutcome:
        from hgin.engine.card_entry import record_counted

        outcome = self.record(
            lambda m: record_counted(counted, m.rules, m.player(player), upcard, now_text()),
            match,
        )
        return CardOutcome(outcome.match, outcome.message, counted)

    def draw(self, match: str | None = None) -> Outcome:
        """Record a dead hand: no score, no win counted."""
        from hgin.engine.hands import Hand

        return self.record(lambda m: Hand("draw", recorded_at=now_text()), match)

    def undo(self, match: str | None = None) -> Outcome:
        """Take back the last hand; it can be redone until a new hand is recorded."""
        from hgin.engine.narrate import describe_undo

        def take_back(loaded: Match) -> Outcome:
            removed = loaded.sheet.hands[-1] if loaded.sheet.hands else None
            changed, _ = loaded.without_last()
            assert removed is not None
            return Outcome(changed, describe_undo(removed))

        return self.update(match, take_back)

    def redo(self, match: str | None = None) -> Outcome:
        """Put back the hand most recently undone."""
        from hgin.engine.narrate import describe_redo

        def put_back(loaded: Match) -> Outcome:
            changed, _ = loaded.with_redo()
            return Outcome(changed, describe_redo(changed.sheet.hands[-1]))

        return self.update(match, put_back)

    # -- settling up ---------------------------------------------------------------------

    def settle(
        self, match: str | None = None, stake: str | None = None, currency: str | None = None
    ) -> Settled:
        """Who pays whom over the closed games, at `stake` a point if given, else at the
        match's own stake, else at the default stake in config.toml (else in points only)."""
        from hgin.engine.money import check_currency, parse_stake
        from hgin.engine.settle import settle

        label = check_currency(currency) if currency is not None else None
        chosen = parse_stake(stake) if stake is not None else None
        loaded = self.load(match)
        source = "option" if chosen is not None else None
        return Settled(loaded, settle(loaded.sheet, chosen), source, label)

    # -- series --------------------------------------------------------------------------

    @property
    def _series(self) -> SeriesFiles:
        from hgin.store.series import SeriesFiles

        return SeriesFiles(self.store)

    def series_new(
        self,
        first: str,
        second: str,
        target: int = 500,
        rules: Rules | None = None,
        dealer: str | None = None,
    ) -> tuple[Standing, Match]:
        """Start a series to `target` and its first match (which becomes the current match)."""
        from hgin.engine.identifiers import stem
        from hgin.engine.series import Series

        if not 1 <= target <= MAX_SERIES_TARGET:
            raise HginError(f"a series target must be between 1 and {MAX_SERIES_TARGET}")
        files = self._series
        made: list[Series] = []

        def record(match: Match) -> None:
            series_id = files.fresh_id(stem(match.created, match.players))
            made.append(Series(series_id, match.players, target, now_text(), (match.id,)))
            files.save(made[-1])

        match = self.new_match(first, second, rules, dealer=dealer, also=record)
        return files.standing(made[-1]), match

    def series_next(
        self,
        series: str | None = None,
        dealer: str | None = None,
        chooser: random.Random | None = None,
    ) -> tuple[Standing, Match]:
        """Start the next match of a series (named, else the current one) once the last is
        finished, with the same players and rules."""
        import dataclasses

        from hgin.engine.series import Series

        files = self._series
        chosen = files.find(series)
        state = files.standing(chosen)
        if state.finished:
            raise HginError(f"series {chosen.id} is over: {state.winner or 'nobody'} won it")
        if state.in_play is not None:
            raise HginError(f"match {state.in_play} of this series is still in play")
        last = self.store.load(chosen.matches[-1])
        made: list[Series] = []

        def record(match: Match) -> None:
            # Under the lock: the series must still be as it was checked.
            again = files.load(chosen.id)
            if again.matches != chosen.matches:
                raise HginError(f"series {chosen.id} changed meanwhile; try again")
            made.append(dataclasses.replace(again, matches=(*again.matches, match.id)))
            files.save(made[-1])

        match = self.new_match(
            *last.players, last.rules, dealer=dealer, chooser=chooser, also=record
        )
        return files.standing(made[-1]), match

    def series_show(self, series: str | None = None) -> Standing:
        """A series' running totals: the one named (its identifier or a start of it), else
        the one holding the current match, else the newest."""
        files = self._series
        return files.standing(files.find(series))

    def series_list(self) -> list[Standing]:
        """Every series' running totals, oldest identifier first."""
        files = self._series
        return [files.standing(files.load(i)) for i in files.ids()]
