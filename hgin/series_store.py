"""Series files: `series/<id>.json` beside the matches, written atomically under the lock."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from hgin.engine.identifiers import stem
from hgin.engine.match import Match
from hgin.engine.rules import Rules
from hgin.engine.series import SERIES_ID, Series, Standing, series_from_dict, standing
from hgin.errors import HginError
from hgin.scorekeeper import ScoreKeeper, now_text
from hgin.store.matches import atomic_write

MAX_SERIES_TARGET = 1_000_000


class SeriesBook:
    """The series kept in one data folder, on top of its matches."""

    def __init__(self, keeper: ScoreKeeper | None = None) -> None:
        self.keeper = keeper or ScoreKeeper()
        self.folder = self.keeper.store.home / "series"

    def path(self, series_id: str) -> Path:
        if not SERIES_ID.match(series_id):
            raise HginError(f"'{series_id}' is not a series identifier (see 'hgin series list')")
        return self.folder / f"{series_id}.json"

    def ids(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json") if SERIES_ID.match(p.stem))

    def load(self, series_id: str) -> Series:
        path = self.path(series_id)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise HginError(f"no series '{series_id}' (see 'hgin series list')") from None
        except (OSError, ValueError) as error:
            raise HginError(f"cannot read {path}: {error}") from None
        try:
            series = series_from_dict(data)
        except HginError as error:
            raise HginError(f"cannot use {path}: {error}") from None
        if series.id != series_id:
            raise HginError(f"cannot use {path}: it holds series '{series.id}'")
        return series

    def _save(self, series: Series) -> None:
        text = json.dumps(series.to_dict(), ensure_ascii=False, indent=1) + "\n"
        series_from_dict(json.loads(text))
        path = self.path(series.id)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write(path, text)
        except OSError as error:
            raise HginError(f"could not save {path}: {error.strerror or error}") from None

    def find(self, typed: str | None = None) -> Series:
        """The series named (identifier or its start), else the one holding the current match,
        else the newest."""
        ids = self.ids()
        if typed is not None:
            wanted = typed.strip().lower()
            hits = [i for i in ids if i == wanted] or [i for i in ids if i.startswith(wanted)]
            if len(hits) == 1:
                return self.load(hits[0])
            if hits:
                raise HginError(f"'{typed}' could be {', '.join(hits[:3])}: type more of it")
            raise HginError(f"no series '{typed}' (see 'hgin series list')")
        if not ids:
            raise HginError("no series yet: start one with 'hgin series new NAME1 NAME2 --to 500'")
        every = [self.load(i) for i in ids]
        current = self.keeper.store.current_id()
        holding = [s for s in every if current in s.matches]
        return (holding or sorted(every, key=lambda s: (s.created, s.id)))[-1]

    def standing(self, series: Series) -> Standing:
        return standing(series, [self.keeper.store.load(m) for m in series.matches])

    def create(
        self,
        first: str,
        second: str,
        target: int,
        rules: Rules | None = None,
        dealer: str | None = None,
    ) -> tuple[Series, Match]:
        """Start a series and its first match (which becomes the current match)."""
        if not 1 <= target <= MAX_SERIES_TARGET:
            raise HginError(f"a series target must be between 1 and {MAX_SERIES_TARGET}")
        made: list[Series] = []

        def record(match: Match) -> None:
            base = stem(match.created, match.players)
            taken, series_id, n = set(self.ids()), f"{base}-series", 1
            while series_id in taken:
                n += 1
                series_id = f"{base}-series-{n}"
            made.append(Series(series_id, match.players, target, now_text(), (match.id,)))
            self._save(made[-1])

        match = self.keeper.new_match(first, second, rules, dealer=dealer, also=record)
        return made[-1], match

    def next_match(
        self, series: Series, dealer: str | None = None, chooser: random.Random | None = None
    ) -> tuple[Series, Match]:
        """Start the series' next match with the same players and rules."""
        state = self.standing(series)
        if state.finished:
            raise HginError(f"series {series.id} is over: {state.winner or 'nobody'} won it")
        if state.in_play is not None:
            raise HginError(f"match {state.in_play} of this series is still in play")
        last = self.keeper.store.load(series.matches[-1])
        made: list[Series] = []

        def record(match: Match) -> None:
            # Under the lock: the series must still be as it was checked.
            again = self.load(series.id)
            if again.matches != series.matches:
                raise HginError(f"series {series.id} changed meanwhile; try again")
            made.append(dataclasses.replace(again, matches=(*again.matches, match.id)))
            self._save(made[-1])

        match = self.keeper.new_match(
            *last.players, last.rules, dealer=dealer, chooser=chooser, also=record
        )
        return made[-1], match
