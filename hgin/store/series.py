"""Series files: `series/<id>.json` beside the matches, written atomically under the lock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hgin.engine.identifiers import IDENTIFIER
from hgin.engine.match import check_name
from hgin.engine.names import fold, pick
from hgin.engine.series import Series, Standing, standing
from hgin.errors import HginError
from hgin.store.guard import SMALL_CAP, Unusable, dump_json, ensure_folder, load_json, real_folder
from hgin.store.matches import Store

SERIES_SCHEMA = 1
SERIES_KEYS = ("schema", "id", "players", "target", "created", "matches")


def series_to_dict(series: Series) -> dict[str, Any]:
    return {
        "schema": SERIES_SCHEMA,
        "id": series.id,
        "players": list(series.players),
        "target": series.target,
        "created": series.created,
        "matches": list(series.matches),
    }


def series_from_dict(data: Any) -> Series:
    """A series read back from JSON, every field checked."""
    if not isinstance(data, dict):
        raise HginError("it does not hold a JSON object")
    if data.get("schema") != SERIES_SCHEMA:
        raise HginError(f"it has schema {data.get('schema')!r}; this hgin reads {SERIES_SCHEMA}")
    unknown = sorted(set(data) - set(SERIES_KEYS))
    if unknown:
        raise HginError(f"it has an unknown field '{unknown[0][:40]}'")
    players = data.get("players")
    if not (
        isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)
    ):
        raise HginError("'players' must be two names")
    if fold(check_name(players[0])) == fold(check_name(players[1])):
        raise HginError("'players' must be two different names")
    target = data.get("target")
    if type(target) is not int or target < 1:
        raise HginError("'target' must be a positive whole number")
    matches = data.get("matches")
    if not (
        isinstance(matches, list)
        and all(isinstance(m, str) and IDENTIFIER.fullmatch(m) for m in matches)
    ):
        raise HginError("'matches' must be a list of match identifiers")
    if not matches or len(set(matches)) != len(matches):
        raise HginError("'matches' must list at least one match, each once")
    series_id, created = data.get("id"), data.get("created")
    if not isinstance(series_id, str) or not IDENTIFIER.fullmatch(series_id):
        raise HginError("'id' is not a series identifier")
    if not isinstance(created, str):
        raise HginError("'created' must be text")
    return Series(series_id, (players[0], players[1]), target, created, tuple(matches))


class SeriesFiles:
    """The series kept in one data folder, beside its matches."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.folder = store.home / "series"

    def path(self, series_id: str) -> Path:
        if not IDENTIFIER.fullmatch(series_id):
            raise HginError(f"'{series_id}' is not a series identifier (see 'hgin series list')")
        return self.folder / f"{series_id}.json"

    def ids(self) -> list[str]:
        if not real_folder(self.folder):
            return []
        return sorted(p.stem for p in self.folder.glob("*.json") if IDENTIFIER.fullmatch(p.stem))

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
        """A series' file and its bytes, for `write_files` (under the lock: makes its folder)."""
        path = self.path(series.id)
        ensure_folder(self.folder, below=self.store.home)
        return path, dump_json(series_to_dict(series)).encode("utf-8")

    def find(self, typed: str | None = None) -> Series:
        """The series named, else the one holding the current match, else the newest."""
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

    def standing(self, series: Series) -> Standing:
        """Where the series stands; a match abandoned (its file gone) does not count."""
        return standing(series, [self.store.load(m) for m in self.present(series)])

    def present(self, series: Series) -> list[str]:
        """The series' matches whose files are there, in order."""
        return [m for m in series.matches if self.store.match_path(m).exists()]
