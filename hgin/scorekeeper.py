"""The library facade (docs/library.md): one public method of `ScoreKeeper` per
command, each change a locked read-modify-write of the match file.
May import: stdlib, folder, engine, cards, reports, store, errors.
"""

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hgin.engine import editing
from hgin.engine.hands import HAND_KINDS, Hand
from hgin.engine.identifiers import stem
from hgin.engine.match import Match, check_name, resolve_player
from hgin.engine.money import check_currency, parse_stake
from hgin.engine.names import candidates_for, fold, shown
from hgin.engine.rules import PROFILES, Rules, check_rules, find_option, with_options
from hgin.engine.series import Series, Standing, standing
from hgin.engine.settle import Settlement, settle, stake_of
from hgin.errors import HginError
from hgin.folder import Chosen, Folder, Loaded, Notices
from hgin.reports.changes import (
    backup_restored,
    brought_back,
    change_sentences,
    combine_notes,
    held_copy_off,
)
from hgin.reports.narrate import describe_left, describe_new, outside_series
from hgin.store.config import (
    Config,
    find_profile,
    init_config,
    load_config,
    load_presets,
    save_preset,
    settings_for_new,
)
from hgin.store.guard import Unusable, read_input, write_files
from hgin.store.matches import BackupEntry as BackupEntry
from hgin.store.matches import match_bytes, unused
from hgin.store.series import SeriesFiles

if TYPE_CHECKING:  # imported in the methods that need them (docs/development.md lists them)
    from hgin.engine.card_entry import CardsText, CountedHand, HandCount
    from hgin.engine.editing import JournalRow
    from hgin.engine.summary import MatchSummary
    from hgin.store.transfer import ImportReport as ImportReport
    from hgin.store.transfer import Progress

MAX_SERIES_TARGET = 1_000_000


def now_text() -> str:
    """The local time with its offset, to the second."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


class Outcome(NamedTuple):
    """A changed (or new) match, saved; what changed; for a hand from its cards, its count."""

    match: Match
    message: str
    notices: Notices = ()
    counted: "CountedHand | None" = None

    @property
    def lines(self) -> list[str]:
        return self.message.split("\n")


class Abandoned(NamedTuple):
    """A match taken off the list, whether it was current, and the match current now."""

    match: Match
    was_current: bool
    current: "MatchSummary | None"


class Settled(NamedTuple):
    """A match's settlement, where its stake came from ('option', 'match', 'config')."""

    match: Match
    settlement: Settlement
    stake_from: str | None
    currency: str | None = None
    notices: Notices = ()


class Logged(NamedTuple):
    """A match and its journal's rows, oldest first."""

    match: Match
    rows: "list[JournalRow]"
    notices: Notices = ()


class Exported(NamedTuple):
    """The text of an export file and how many matches it holds."""

    text: str
    match_count: int
    notices: Notices = ()


class Backups(NamedTuple):
    """A match's identifier, its present version (None: unreadable or gone), its backups."""

    id: str
    present: Match | None
    entries: list[BackupEntry]
    gone: bool = False


class SeriesStarted(NamedTuple):
    """A series' running totals with its new match (now the current match), saved, and the
    unfinished match that was current before it (if any)."""

    standing: Standing
    match: Match
    left: Match | None = None


class ScoreKeeper(Folder):
    """Matches kept in one data folder: every command (`Folder` reads)."""

    def use(self, match: str) -> Loaded:
        """Make a stored match the current one (named as `choose` reads it)."""
        chosen = self.choose(match)  # refused before the lock creates the data folder
        with self.store.locked():
            loaded = self.store.load(self.store.find(chosen.id))
            self.store.set_current(loaded.id)
        return Loaded(loaded, chosen.notices)

    # -- rules, presets and settings -------------------------------------------------------

    def rules_named(
        self, name: str, options: Mapping[str, object] | None = None, *, renamed: str | None = None
    ) -> Rules:
        """A built-in profile or a saved preset by name, with rule `options` set."""
        rules = find_profile(name, self.config_folder)
        profile = renamed.strip().lower() if renamed is not None else None
        return with_options(rules, dict(options or {}), profile=profile)

    def profiles(self) -> dict[str, Rules]:
        """The built-in profiles, then the saved presets, by name."""
        return {**PROFILES, **load_presets(self.config_folder)}

    def save_preset(self, name: str, rules: Rules, *, replace: bool = False) -> Path:
        """Save `rules` as the preset `name`; its file."""
        return save_preset(name, rules, self.config_folder, replace=replace)

    def config(self) -> Config:
        """The settings file as read (each value None when the file does not set it)."""
        return load_config(self.config_folder)

    def init_config(self) -> Path:
        """Write a commented starter settings file; its path."""
        return init_config(self.config_folder)

    # -- counting cards (no match needed) --------------------------------------------------

    @staticmethod
    def count(cards: "CardsText", opponent: "CardsText | None" = None) -> "HandCount":
        """What `hgin count` counts."""
        from hgin.engine.card_entry import count_hand

        return count_hand(cards, opponent)

    @staticmethod
    def count_data(counted: "HandCount") -> dict[str, object]:
        """A count as `hgin count --json` prints it."""
        from hgin.reports.card_text import count_json

        return count_json(counted)

    # -- starting ------------------------------------------------------------------------

    def new(
        self,
        first: str | None = None,
        second: str | None = None,
        *,
        rules: str | None = None,
        options: Mapping[str, object] | None = None,
        dealer: str | None = None,
    ) -> Outcome:
        """Start a match as `hgin new` does: what is left out comes from the settings file."""
        chosen = settings_for_new(first, second, rules, dict(options or {}), self.config())
        match, left, _ = self._create(chosen.first, chosen.second, chosen.rules, dealer)
        lines = [describe_new(match, chosen=dealer is not None)]
        if left is not None:
            lines.append(describe_left(left))
        return Outcome(match, "\n".join([*lines, *chosen.notes]))

    def rematch(
        self, match: str | None = None, *, dealer: str | None = None, series_only: bool = False
    ) -> Outcome:
        """The next match after a finished one (in a series not yet over, the series' next)."""
        last = self.load(match)
        if not last.sheet.finished:
            raise HginError(
                f"match {last.id} is still in play: the next one starts once it is over"
            )
        series = self.series_of(last.id)
        over = series is not None and series.finished
        if series is not None and not over:
            _, started, left = self.series_next(series.series.id, dealer=dealer)
        elif series_only:
            raise HginError(f"match {last.id} is in no series still in play: new starts the next")
        else:  # the match left unfinished is told under the lock, as the new one is made
            started, left, _ = self._create(*last.players, last.rules, dealer or last.sheet.dealer)
        lines = [describe_new(started, chosen=dealer is not None, after=last.id)]
        if series is not None and over:
            lines.append(outside_series(series.series.id, started.id))
        if left is not None:
            lines.append(describe_left(left))
        return Outcome(started, "\n".join(lines))

    def new_match(
        self,
        first: str,
        second: str,
        rules: Rules | None = None,
        dealer: str | None = None,
    ) -> Match:
        """Start a match and make it current; the first dealer is drawn by lot unless named."""
        return self._create(first, second, rules, dealer)[0]

    def _create(
        self,
        first: str,
        second: str,
        rules: Rules | None,
        dealer: str | None,
        series: Callable[[Match], Series] | None = None,
    ) -> tuple[Match, Match | None, Series | None]:
        """The new match, the unfinished match that was current, the series `series` makes."""
        players = (check_name(first), check_name(second))
        if fold(players[0]) == fold(players[1]):
            raise HginError("the two players need different names")
        if dealer is None:
            first_dealer = players[os.urandom(1)[0] % 2]  # drawn by lot
        else:
            first_dealer = resolve_player(players, dealer)
        start_rules = PROFILES["friendly"] if rules is None else check_rules(rules)
        created = now_text()
        with self.store.locked():
            match = Match(
                id=self.store.new_id(players, created),
                players=players,
                start_rules=start_rules,
                first_dealer=first_dealer,
                created=created,
                uid=os.urandom(8).hex(),  # never the same on two devices
            )
            left = self._unfinished_current()
            made = series(match) if series is not None else None
            files = [(self.store.match_path(match.id), match_bytes(match))]
            if made is not None:
                files.append(self._series.file(made))
            files.append((self.store.current_file, f"{match.id}\n".encode()))
            write_files(files)
            self.store.forget_abandoned()
        return match, left, made

    def _unfinished_current(self) -> Match | None:
        """The current match if unfinished (a damaged one is left for other commands to say)."""
        try:
            current = self.store.current_id()
            loaded = self.store.load(current) if current is not None else None
        except HginError:
            return None
        return loaded if loaded is not None and not loaded.sheet.finished else None

    # -- changing a match ----------------------------------------------------------------

    def change(
        self,
        match: str | None,
        make: Callable[[Match], Match],
        *,
        version: tuple[int, str] | None = None,
    ) -> Outcome:
        """Make one change under the lock, word it, save it; with `version`, only at that one."""
        # Refuse a missing match before the lock creates the data folder.
        chosen = self.choose(match)
        with self.store.locked():
            again = chosen.id if match is not None else self.choose(None).id
            loaded = self.store.load(again)
            if version is not None and tuple(version) != loaded.version:
                raise HginError("the sheet changed: look again")
            changed = make(loaded)
            text, message = change_sentences(loaded, changed)
            changed = changed.with_text(text)
            self.store.save(changed)
        return Outcome(changed, message, chosen.notices)

    def record(
        self,
        typed: Hand,
        match: str | None = None,
        *,
        version: tuple[int, str] | None = None,
    ) -> Outcome:
        """Record a hand as typed (a gin or knock with its cards is counted from them)."""
        if typed.hand_cards is not None or typed.opponent_cards is not None:
            return self._from_cards(typed, match)
        player = typed.player or ""

        def entered(loaded: Match) -> Match:
            named = self._player(loaded, player) if typed.player is not None else None
            hand = typed._replace(player=named, recorded_at=now_text())
            return editing.record(loaded, hand, now_text())

        return self.change(match, entered, version=version)

    def _player(self, match: Match, typed: str) -> str:
        """The player of `match` that `typed` names; a refusal names another match of theirs."""
        try:
            return resolve_player(match.players, typed)
        except HginError:
            if candidates_for(typed, match.players):
                raise
            entries = [e for e in self._cache().summaries() if e.id != match.id]
            found = [e for e in entries if len(candidates_for(typed, e.players)) == 1]
            in_play = [e for e in found if not e.finished]
            if len(in_play) != 1:
                raise
        other, (first, second) = in_play[0], match.players
        name = candidates_for(typed, other.players)[0]
        people = {fold(n) for n in candidates_for(typed, (n for e in entries for n in e.players))}
        # `use NAME` picks the latest match with that one person: else name the match itself.
        switch = shown(typed) if len(people) == 1 and found[0] is other else other.id
        raise HginError(
            f"'{shown(typed)}' is not in {first} v {second}; {name} plays in {other.id}: "
            f"hgin use {switch}, or add -m {switch}"
        ) from None

    def gin(
        self,
        player: str,
        opponent_deadwood: int,
        *,
        big: bool = False,
        upcard: str | None = None,
        match: str | None = None,
        version: tuple[int, str] | None = None,
    ) -> Outcome:
        """Record a gin (or a big gin)."""
        hand = Hand("big_gin" if big else "gin", player, None, opponent_deadwood, upcard)
        return self.record(hand, match, version=version)

    def knock(
        self,
        knocker: str,
        deadwood: int,
        opponent_deadwood: int,
        *,
        upcard: str | None = None,
        match: str | None = None,
        version: tuple[int, str] | None = None,
    ) -> Outcome:
        """Record a knock (or an undercut)."""
        hand = Hand("knock", knocker, deadwood, opponent_deadwood, upcard)
        return self.record(hand, match, version=version)

    def _from_cards(self, typed: Hand, match: str | None) -> Outcome:
        """Count a gin or knock from its cards, then record it."""
        from hgin.engine.card_entry import count_entry, record_counted

        kind, player = typed.kind, typed.player or ""
        if kind == "draw":
            raise HginError("a dead hand is just draw: no player, counts or cards")
        counted = count_entry(
            kind,
            hand=typed.hand_cards,
            opponent=typed.opponent_cards,
            deadwood=typed.deadwood,
            opponent_deadwood=typed.opponent_deadwood,
        )

        def entered(loaded: Match) -> Match:
            named = self._player(loaded, player)
            hand = record_counted(counted, loaded.rules, named, typed.upcard, now_text())
            return editing.record(loaded, hand, now_text())

        return self.change(match, entered)._replace(counted=counted)

    def draw(self, match: str | None = None, *, version: tuple[int, str] | None = None) -> Outcome:
        """Record a dead hand: no score, no win counted."""
        return self.record(Hand("draw"), match, version=version)

    # -- correcting and going back ---------------------------------------------------------

    def edit(
        self,
        number: int,
        hand: Hand,
        match: str | None = None,
        *,
        version: tuple[int, str] | None = None,
    ) -> Outcome:
        """Replace hand `number` by `hand` (its player as typed)."""
        return self.change(
            match, lambda loaded: editing.edit(loaded, number, hand, now_text()), version=version
        )

    def correct(
        self,
        number: int,
        kind: str,
        player: str | None,
        counts: tuple[int, ...],
        *,
        upcard: str | None = None,
        match: str | None = None,
        version: tuple[int, str] | None = None,
    ) -> Outcome:
        """`edit` with the hand given as a page gives it: its kind, player and counts."""
        if kind not in HAND_KINDS or len(counts) != {"knock": 2, "draw": 0}.get(kind, 1):
            raise HginError(f"a {kind.replace('_', ' ')} cannot be entered with these counts")
        deadwood, opponent = (counts[0], counts[1]) if kind == "knock" else (None, None)
        if kind in ("gin", "big_gin"):
            opponent = counts[0]
        hand = Hand(kind, player, deadwood, opponent, upcard)
        return self.edit(number, hand, match, version=version)

    def delete(
        self, number: int, match: str | None = None, *, version: tuple[int, str] | None = None
    ) -> Outcome:
        """Remove hand `number`."""
        return self.change(
            match, lambda loaded: editing.delete(loaded, number, now_text()), version=version
        )

    def set_rule(self, option: str, value: str, match: str | None = None) -> Outcome:
        """Change one rule (`gin-bonus`, `20`)."""
        chosen = find_option(option)
        values = {chosen.name: chosen.parse(value)}
        return self.change(match, lambda loaded: editing.set_rules(loaded, values, now_text()))

    def notice(
        self, match: str | None = None, *, version: tuple[int, str] | None = None
    ) -> Outcome:
        """Give notice in a rolling match."""
        return self.change(
            match, lambda loaded: editing.notice(loaded, now_text()), version=version
        )

    def undo(self, match: str | None = None, *, version: tuple[int, str] | None = None) -> Outcome:
        """Revert the latest change (straight after `abandon` or `combine`, what they took)."""
        note = self.store.noted() if version is None else None
        if note is not None and note.into is not None:
            if match is None or self.choose(match).id == note.into:
                # The copy first: stopped between the two, both copies are on the list.
                with self.store.locked():
                    back = self.store.bring_back(note)
                outcome = self.change(note.into, lambda m: editing.undo(m, now_text()))
                if back is None:
                    return outcome
                added = brought_back(self.store.load(back))
                return outcome._replace(message=f"{outcome.message}\n{added}")
        elif note is not None and match is None:
            with self.store.locked():
                back = self.store.bring_back()
            if back is not None:
                loaded = self.store.load(back)
                return Outcome(loaded, brought_back(loaded))
        outcome = self.change(match, lambda m: editing.undo(m, now_text()), version=version)
        return self._combined_copy_back(outcome)

    def _combined_copy_back(self, outcome: Outcome) -> Outcome:
        """After an undo that took back a combine, the other copy back on the list as the
        combine's record holds it (on any device): its hands are never only in a backup."""
        match, state = outcome.match, outcome.match.state
        change = match.journal[state.undone[-1] - 1] if state.undone else None
        if change is None or change.kind != "combine":
            return outcome
        joined = change.data["joined"]
        journal = (*match.journal[: joined.common], *joined.changes)
        back = replace(match, id=joined.id, journal=journal, replayed=None)
        with self.store.locked():
            if self.store.match_path(joined.id).exists():
                return outcome
            try:
                self.store.save(back)
            except HginError as error:  # the undo is saved: said, not refused
                return outcome._replace(notices=(*outcome.notices, str(error)))
        return outcome._replace(message=f"{outcome.message}\n{brought_back(back)}")

    def redo(self, match: str | None = None, *, version: tuple[int, str] | None = None) -> Outcome:
        """Apply again the change most recently undone."""
        outcome = self.change(
            match, lambda loaded: editing.redo(loaded, now_text()), version=version
        )
        return self._held_copies_off(outcome)

    def restore(self, change: int, match: str | None = None) -> Outcome:
        """Bring the match back to its state right after change `change`, as a new change."""
        outcome = self.change(match, lambda m: editing.restore(m, change, now_text()))
        return self._held_copies_off(outcome)

    def _held_copies_off(self, outcome: Outcome) -> Outcome:
        """Take off the list, as a combine does, every other copy the changed match holds."""
        changed = outcome.match
        if not any(c.kind == "combine" for c in changed.journal):
            return outcome
        from hgin.engine.copies import holds

        day = changed.created[:10]
        lines: list[str] = []
        notices: list[str] = []
        with self.store.locked():
            for other_id in self.store.match_ids():
                if other_id == changed.id or not other_id.startswith(day):
                    continue
                try:
                    other = self.store.load(other_id)
                except HginError:
                    continue
                if not holds(changed, other):
                    continue
                try:
                    self.store.abandon(other_id, changed.id, into=changed.id)
                except HginError as error:  # the change is saved: said, not refused
                    notices.append(f"{other_id} is still on the list: {error}")
                    continue
                lines.append(held_copy_off(other_id, changed.id))
        message = "\n".join([outcome.message, *lines])
        return outcome._replace(message=message, notices=(*outcome.notices, *notices))

    def log(self, match: str | None = None) -> Logged:
        """A match's journal."""
        loaded, notices = self.read(match)
        return Logged(loaded, editing.journal_rows(loaded), notices)

    # -- file-level recovery -------------------------------------------------------------

    def _restore_target(self, match: str | None) -> str:
        """`match` as every command names one, else one with backups only."""
        if match is None:
            return self.choose(None).id
        try:
            return self.choose(match).id
        except HginError:
            return self.store.find(match, with_backups=True)

    def backups(self, match: str | None = None) -> Backups:
        """A match's backups, newest first, beside its present version."""
        match_id = self._restore_target(match)
        entries = self.store.backup_entries(match_id)
        present: Match | None
        try:
            present = self.store.load(match_id)
        except HginError:
            present = None
        gone = not self.store.match_path(match_id).exists()
        return Backups(match_id, present, entries, gone)

    def restore_backup(self, which: str, match: str | None = None) -> Outcome:
        """Bring back backup `which` (its number or file name)."""
        if not which.strip():
            raise HginError(
                "name a backup: a number from 'hgin restore --backup', or its file name"
            )
        self._restore_target(match)  # refuse a missing match before the lock makes the folder
        with self.store.locked():
            match_id = self._restore_target(match)
            entry, kept, replaced_readable = self.store.restore(match_id, which)
        restored = entry.match
        assert restored is not None  # Store.restore refuses an unreadable backup
        message = backup_restored(
            match_id,
            number=entry.number,
            file=entry.backup.name,
            kept_at=entry.backup.kept_at,
            hands=len(restored.hands),
            replaced="none" if kept is None else "readable" if replaced_readable else "damaged",
        )
        return Outcome(restored, message)

    def abandon(self, match: str | None = None) -> Abandoned:
        """Take a match off the list; the newest other match in play becomes current."""
        named = self.choose(match).id
        with self.store.locked():
            match_id = self.store.find(named) if match is not None else self.choose(None).id
            gone = self.store.load(match_id)
            was_current = self.store.current_id() == match_id
            others = [e for e in self._cache().summaries() if e.id != match_id]
            in_play = next((e.id for e in others if not e.finished), None)
            self.store.abandon(match_id, in_play)
            current = self.store.current_id()
        return Abandoned(gone, was_current, next((e for e in others if e.id == current), None))

    def combine(self, match: str, other: str) -> Outcome:
        """Make one match of two copies of it; `other` leaves the list."""
        from hgin.engine.copies import combine

        ours_id, other_id = self.choose(match).id, self.choose(other).id
        if ours_id == other_id:
            raise HginError(f"name two copies to combine, not {ours_id} twice")
        with self.store.locked():
            theirs = self.store.load(other_id)
            ours = self.store.load(ours_id)  # loaded last: saving it reuses its journal's bytes
            combined = combine(ours, theirs, now_text())
            text, message = change_sentences(ours, combined.match)
            changed = combined.match.with_text(text)
            self.store.save(changed)
            notices: Notices = ()
            try:
                self.store.abandon(other_id, ours_id, into=ours_id)
            except HginError as error:
                notices = (f"{other_id} is still on the list: {error}",)
        lines = [message, *combine_notes(combined, other_id)]
        return Outcome(changed, "\n".join(lines), notices)

    def summary_page(self, match: str | None = None) -> str:
        """A match's printable HTML summary, with its charts."""
        from hgin.reports.charts import summary_page

        return summary_page(self.load(match))

    # -- settling up ---------------------------------------------------------------------

    def settle(
        self, match: str | None = None, stake: str | None = None, currency: str | None = None
    ) -> Settled:
        """Who pays whom, at `stake`, else the match's stake, else the settings file's."""
        label = check_currency(currency) if currency is not None else None
        chosen = parse_stake(stake) if stake is not None else None
        loaded, notices = self.read(match)
        source = "option" if chosen is not None else None
        if chosen is None:
            chosen, source = stake_of(loaded.rules), "match"
        if chosen is None:  # the stake a new match would get from the settings file
            config = self.config()
            chosen, source = stake_of(with_options(config.base_rules(), config.options)), "config"
        source = source if chosen is not None else None
        return Settled(loaded, settle(loaded.sheet, chosen), source, label, notices)

    # -- moving matches between machines ------------------------------------------------

    def export(
        self, match: str | None = None, *, every: bool = False, progress: "Progress | None" = None
    ) -> Exported:
        """An export file's text holding a match or `every` stored one."""
        from hgin.store.transfer import export_matches

        chosen = Chosen("") if every else self.choose(match)
        ids = self.store.match_ids() if every else [chosen.id]
        if not ids:
            raise HginError("there are no stored matches to export")
        return Exported(*export_matches(self.store, ids, now_text(), progress), chosen.notices)

    @staticmethod
    def read_import(file: str) -> tuple[bytes, str]:
        """The bytes of an export or match file ('-': standard input) and where they came from."""
        try:
            return read_input(file)
        except Unusable as error:
            raise HginError(
                f"cannot import {error.where}: {error.problem}; nothing was imported"
            ) from None

    def import_file(
        self,
        file: str,
        *,
        replace: bool = False,
        progress: "Progress | None" = None,
        read: tuple[bytes, str] | None = None,
    ) -> "tuple[str, ImportReport]":
        """Merge the matches of an export or match file with ours; where from, what was done."""
        from hgin.store.transfer import import_matches, parse_export

        copy = Path(file).expanduser()
        raw, source = read if read is not None else self.read_import(file)
        try:
            export = parse_export(raw, source, progress)
        except Unusable as error:
            raise HginError(
                f"cannot import {error.where}: {error.problem}; nothing was imported"
            ) from None
        report = import_matches(
            self.store,
            export,
            change_line=lambda before, after: change_sentences(before, after)[0],
            at=now_text(),
            replace=replace,
            progress=progress,
            merged_copy=copy if file != "-" and self.store.is_conflicted_copy(copy) else None,
        )
        return source, report

    # -- series --------------------------------------------------------------------------

    @property
    def _series(self) -> SeriesFiles:
        return SeriesFiles(self.store)

    def series_new(
        self,
        first: str,
        second: str,
        target: int = 500,
        rules: Rules | None = None,
        dealer: str | None = None,
    ) -> SeriesStarted:
        """Start a series to `target` and its first match."""
        if not 1 <= target <= MAX_SERIES_TARGET:
            raise HginError(f"a series target must be between 1 and {MAX_SERIES_TARGET}")
        files = self._series

        def start(match: Match) -> Series:
            series_id = unused(f"{stem(match.created, match.players)}-series", files.ids())
            return Series(series_id, match.players, target, now_text(), (match.id,))

        match, left, made = self._create(first, second, rules, dealer, start)
        assert made is not None
        return SeriesStarted(standing(made, [match]), match, left)

    def series_next(self, series: str | None = None, dealer: str | None = None) -> SeriesStarted:
        """Start the next match of a series once the last is finished."""
        files = self._series
        chosen = files.find(series)
        played = [self.store.load(m) for m in files.present(chosen)]  # not those abandoned
        state = standing(chosen, played)
        if state.finished:
            raise HginError(f"series {chosen.id} is over: {state.winner or 'nobody'} won it")
        if state.in_play is not None:
            raise HginError(f"match {state.in_play} of this series is still in play")
        if not played:
            raise HginError(
                f"series {chosen.id} has no match left: 'hgin restore --backup -m "
                f"{chosen.matches[-1]}' brings its last one back"
            )
        last = played[-1]

        def extend(match: Match) -> Series:
            # Under the lock: the series must still be as it was checked.
            again = files.load(chosen.id)
            if again.matches != chosen.matches:
                raise HginError(f"series {chosen.id} changed meanwhile; try again")
            return again._replace(matches=(*again.matches, match.id))

        first_dealer = dealer or last.sheet.dealer
        match, left, made = self._create(*last.players, last.rules, first_dealer, extend)
        assert made is not None
        return SeriesStarted(standing(made, [*played, match]), match, left)

    def series_of(self, match: str) -> Standing | None:
        """The running totals of the series that holds `match`, if one does."""
        files = self._series
        holding = [s for s in map(files.load, files.ids()) if match in s.matches]
        return files.standing(holding[0]) if holding else None

    def series_show(self, series: str | None = None) -> Standing:
        """A series' running totals: the one named, else the current match's, else the newest."""
        files = self._series
        return files.standing(files.find(series))

    def series_current(self) -> Standing | None:
        """`series_show()`, or None when there is no series yet."""
        return self.series_show() if self._series.ids() else None

    def series_list(self) -> list[Standing]:
        """Every series' running totals, oldest identifier first."""
        files = self._series
        return [files.standing(files.load(i)) for i in files.ids()]
