"""Series files: `series/<id>.json` beside the matches, written atomically under the lock."""

from __future__ import annotations

from pathlib import Path

from hgin.engine.names import pick
from hgin.engine.series import SERIES_ID, Series, Standing, series_from_dict, standing
from hgin.errors import HginError
from hgin.store.guard import SMALL_CAP, Unusable, dump_json, ensure_folder, load_json, real_folder
from hgin.store.matches import Store


class SeriesFiles:
    """The series kept in one data folder, beside its matches."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.folder = store.home / "series"

    def path(self, series_id: str) -> Path:
        if not SERIES_ID.fullmatch(series_id):
            raise HginError(f"'{series_id}' is not a series identifier (see 'hgin series list')")
        return self.folder / f"{series_id}.json"

    def ids(self) -> list[str]:
        if not real_folder(self.folder):
            return []
        return sorted(p.stem for p in self.folder.glob("*.json") if SERIES_ID.fullmatch(p.stem))

    def load(self, series_id: str) -> Series:
        path = self.path(series_id)
        data = load_json(
            path, cap=SMALL_CAP, missing=f"no series '{series_id}' (see 'hgin series list')"
        )
        try:
            series = series_from_dict(data)
        except HginError as error:
            raise Unusable(path, str(error)) from None
        if series.id != series_id:
            raise Unusable(path, f"it holds series '{series.id}'")
        return series

    def file(self, series: Series) -> tuple[Path, bytes]:
        """A series' file and its bytes, for `write_files` (under the store's lock: its folder
        is made here)."""
        path = self.path(series.id)
        ensure_folder(self.folder, below=self.store.home)
        return path, dump_json(series.to_dict()).encode("utf-8")

    def find(self, typed: str | None = None) -> Series:
        """The series named (identifier or its start), else the one holding the current match,
        else the newest."""
        ids = self.ids()
        if typed is not None:
            return self.load(
                pick(typed, ids, missing="no series '{typed}' (see 'hgin series list')", more="it")
            )
        if not ids:
            raise HginError("no series yet: start one with 'hgin series new NAME1 NAME2 --to 500'")
        every = [self.load(i) for i in ids]
        current = self.store.current_id()
        holding = [s for s in every if current in s.matches]
        return (holding or sorted(every, key=lambda s: (s.created, s.id)))[-1]

    def fresh_id(self, base: str) -> str:
        """`BASE-series`, or `BASE-series-N` when that is taken."""
        taken, series_id, n = set(self.ids()), f"{base}-series", 1
        while series_id in taken:
            n += 1
            series_id = f"{base}-series-{n}"
        return series_id

    def standing(self, series: Series) -> Standing:
        """Where the series stands; a match abandoned (its file gone) does not count."""
        return standing(series, [self.store.load(m) for m in self.present(series)])

    def present(self, series: Series) -> list[str]:
        """The series' matches whose files are there, in order."""
        return [m for m in series.matches if self.store.match_path(m).exists()]
