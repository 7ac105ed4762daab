"""The cache behind `hgin matches` and `hgin stats`: checked as a whole, so a damaged or edited
cache is rebuilt from the match files and never changes what they show."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hgin.store.cache import parse_cache, seal, unseal
from tests.conftest import Run, recorded_home
from tests.history_data import record_history

READERS = (("matches", "--json"), ("stats", "--json"))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with the five recorded matches and one played at a stake, no cache."""
    home = record_history(tmp_path_factory.mktemp("template") / "home")
    new = ("new", "Eve", "Fay", "--stake", "0.05", "--dealer", "eve")
    return recorded_home(home, new, ("gin", "eve", "20"))


@pytest.fixture
def cached(run: Run, template: Path, hgin_home: Path) -> dict[str, Any]:
    """A copy of the template as this test's data folder; what the readers print with no
    cache yet (which builds the cache), and the cache they built."""
    shutil.copytree(template, hgin_home)
    assert not (hgin_home / "cache.json").exists()
    return {"outputs": outputs(run), "cache": (hgin_home / "cache.json").read_bytes()}


def outputs(run: Run, cache: Path | None = None, damage: bytes = b"") -> list[str]:
    """What the readers print, each reading `damage` in place of the cache, if given."""
    found = []
    for args in READERS:
        if cache is not None:
            cache.write_bytes(damage)
        result = run(*args)
        assert (result.exit_code, result.stderr) == (0, ""), result.output
        found.append(result.stdout)
    return found


def leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path to every number, text, truth value and null in parsed JSON."""
    if isinstance(data, dict):
        return [p for key, value in data.items() for p in leaves(value, (*path, key))]
    if isinstance(data, list):
        return [p for at, value in enumerate(data) for p in leaves(value, (*path, at))]
    return [path]


def edited(value: Any, other: str) -> Any:
    """Another value of the same type (as a person editing the file might write)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return other if other != value else value + "x"
    return other  # null: a name


@st.composite
def damaged(draw: st.DrawFn, original: bytes) -> bytes:
    """The cache with one byte changed, or one value edited to another of its type."""
    if draw(st.booleans()):
        at = draw(st.integers(0, len(original) - 1))
        flipped = original[at] ^ draw(st.integers(1, 255))
        return original[:at] + bytes([flipped]) + original[at + 1 :]
    data = json.loads(original)
    path = draw(st.sampled_from(leaves(data)))
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = edited(parent[path[-1]], draw(st.sampled_from(["Ann", "Bob", "Zed"])))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@settings(
    max_examples=60,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_damaged_or_edited_cache_never_changes_what_is_shown(
    run: Run, hgin_home: Path, cached: dict[str, Any], data: st.DataObject
) -> None:
    cache = hgin_home / "cache.json"
    damage = data.draw(damaged(cached["cache"]))
    assert outputs(run, cache, damage) == cached["outputs"]  # and nothing on stderr
    assert parse_cache(cache.read_bytes()) is not None  # rebuilt and written back


def body_of(cache: Path) -> dict[str, Any]:
    body = unseal(cache.read_bytes())
    assert body is not None
    data: dict[str, Any] = json.loads(body)
    return data


def resealed(data: dict[str, Any]) -> str:
    return seal(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


# Bodies under a checksum made to fit that are not this hgin's cache, or whose texts no file
# hgin reads may hold: rebuilt. (Numbers are not checked one by one: the checksum tells a body
# an hgin wrote from a damaged one, not from a forger's, who could edit the match files too.)
FORGED = {
    "version": lambda d: d.update(version=1),
    "version as text": lambda d: d.update(version="2"),
    "a column short": lambda d: d["matches"]["created"].pop(),
    "a column missing": lambda d: d["matches"].pop("profile"),
    "a figure missing": lambda d: d["figures"][1].pop("settled"),
    "one player's figures": lambda d: d["figures"].pop(),
    "not an object": lambda d: d.clear(),
    "escapes in a winner": lambda d: d["matches"]["winner"].__setitem__(
        0, "Bob\x1b]0;OWNED\x07\x1b[41m"
    ),
    "escapes in a name": lambda d: d["matches"]["players"][0].__setitem__(0, "\u202eAnn"),
    "a winner who did not play": lambda d: d["matches"]["winner"].__setitem__(0, "Zed"),
    "an identifier with a slash": lambda d: d["matches"]["id"].__setitem__(0, "../x"),
}


@pytest.mark.parametrize("forge", FORGED.values(), ids=FORGED.keys())
def test_a_cache_of_another_layout_under_a_fitting_checksum_is_rebuilt(
    run: Run, hgin_home: Path, cached: dict[str, Any], forge: Any
) -> None:
    cache = hgin_home / "cache.json"
    data = body_of(cache)
    forge(data)
    assert outputs(run, cache, resealed(data).encode("utf-8")) == cached["outputs"]
    assert parse_cache(cache.read_bytes()) is not None


def test_a_rebuilt_cache_is_written_back(
    run: Run, hgin_home: Path, cached: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    (hgin_home / "cache.json").write_text("{not json", encoding="utf-8")
    assert run("matches").exit_code == 0
    read: list[str] = []
    import hgin.store.cache

    real = hgin.store.cache.summarize
    monkeypatch.setattr(hgin.store.cache, "summarize", lambda m: read.append(m.id) or real(m))
    assert outputs(run) == cached["outputs"]
    assert read == []  # the rebuilt cache was believed: no match file read again


def test_a_cache_that_cannot_be_written_fails_nothing(
    run: Run, hgin_home: Path, cached: dict[str, Any]
) -> None:
    (hgin_home / "cache.json").unlink()
    (hgin_home / "cache.json").mkdir()
    assert outputs(run) == cached["outputs"]
    assert run("gin", "eve", "5").exit_code == 0
    assert list((hgin_home / "cache.json").iterdir()) == []
    assert not list(hgin_home.glob(".cache.json.*"))  # no temporary file left behind


def test_the_caches_of_earlier_releases_are_deleted(
    run: Run, hgin_home: Path, cached: dict[str, Any], tmp_path: Path
) -> None:
    (hgin_home / "cache.tsv").write_text("hgin-cache 1\n", encoding="utf-8")
    (hgin_home / "index.json").write_text("{}", encoding="utf-8")
    left = hgin_home / ".cache.tsv.k3j2h1.tmp"  # what a killed writer of one left
    left.write_text("hgin-cache 1\n", encoding="utf-8")
    outside = tmp_path / "not-hgins.json"
    outside.write_text("keep", encoding="utf-8")
    (hgin_home / "stats-cache.json").symlink_to(outside)
    (hgin_home / "cache.json").unlink()
    assert outputs(run) == cached["outputs"]
    assert not (hgin_home / "cache.tsv").exists()
    assert not (hgin_home / "index.json").exists()
    assert (hgin_home / "stats-cache.json").is_symlink()  # a link is never followed or removed
    assert outside.read_text(encoding="utf-8") == "keep"
    assert run("gin", "eve", "5").exit_code == 0  # a writer sweeps what killed writers left
    assert not left.exists()
