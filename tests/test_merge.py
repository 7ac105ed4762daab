"""One match in two places: `hgin import` merges the copies of a match by their journals."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Run, recorded_home, snapshot

ID = "2026-12-01-ann-bob"
# The changes of the match both laptops play, as 'hgin' commands.
PLAYED = (
    ("gin", "ann", "10"),
    ("knock", "bob", "3", "9"),
    ("rules", "set", "target", "150"),
    ("draw",),
    ("undo",),
    ("gin", "bob", "20"),
    ("edit", "1", "gin", "ann", "12"),
)


@pytest.fixture(autouse=True)
def piped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped output, its sentences whole: they name temporary paths longer than a line."""
    monkeypatch.delenv("COLUMNS")


def clock() -> Callable[[], str]:
    """Every match starts on 1 December 2026; the clock moves a second each time it is read."""
    ticks = iter(range(3600))
    return lambda: f"2026-12-01T20:{(tick := next(ticks)) // 60:02d}:{tick % 60:02d}+01:00"


@pytest.fixture(autouse=True)
def clock_on_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", clock())


class Laptops:
    """Two data folders, as on two laptops: `on(name)` makes one the folder hgin uses."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run) -> None:
        self.tmp_path, self.monkeypatch, self.run = tmp_path, monkeypatch, run

    def home(self, name: str) -> Path:
        return self.tmp_path / name

    def on(self, name: str, *commands: tuple[str, ...]) -> None:
        self.monkeypatch.setenv("HGIN_HOME", str(self.home(name)))
        for command in commands:
            result = self.run(*command)
            assert result.exit_code == 0, (command, result.output)

    def export(self, name: str, file: str = "copy.json") -> Path:
        """The current match of laptop `name`, exported to a file."""
        self.on(name)
        path = self.tmp_path / file
        assert self.run("export", "--force", str(path)).exit_code == 0
        return path

    def log(self, match: str = ID) -> list[dict[str, Any]]:
        result = self.run("log", "--json", "-m", match)
        assert result.exit_code == 0, result.output
        changes: list[dict[str, Any]] = json.loads(result.stdout)
        return changes


@pytest.fixture
def laptops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run) -> Laptops:
    return Laptops(tmp_path, monkeypatch, run)


def imported(run: Run, path: Path, *options: str) -> list[str]:
    """The lines `hgin import` prints (it must succeed and say nothing on stderr)."""
    result = run("import", str(path), *options)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    return result.stdout.splitlines()


def again_changes_nothing(run: Run, path: Path, home: Path) -> None:
    """Importing the same file once more changes no byte and says so."""
    before = snapshot(home)
    assert imported(run, path) == [f"Imported from {path}: 1 already up to date."]
    assert snapshot(home) == before


def test_a_copy_that_goes_further_brings_ours_up_to_date(laptops: Laptops, run: Run) -> None:
    laptops.on("ann", ("new", "Ann", "Bob", "--dealer", "Ann"), PLAYED[0])
    first = laptops.export("ann", "first.json")
    laptops.on("bob")
    assert imported(run, first) == [f"Imported from {first}: 1 new.", f"Current match: {ID}."]
    laptops.on("bob", *PLAYED[1:4])
    further = laptops.export("bob")
    bob = laptops.log()
    laptops.on("ann")
    assert imported(run, further) == [f"Imported from {further}: 1 updated."]
    assert laptops.log() == bob  # the same journal: every change, not only the hands
    again_changes_nothing(run, further, laptops.home("ann"))
    # The older file is behind ours now: nothing to take from it.
    again_changes_nothing(run, first, laptops.home("ann"))
    assert len(laptops.log()) == 4


def test_two_matches_started_apart_keep_both(laptops: Laptops, run: Run) -> None:
    """The same players, the same day, on two laptops: the same readable identifier, but two
    matches; neither replaces the other, even begun in the same second."""
    laptops.monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2026-12-01T20:00:00+01:00")
    laptops.on("ann", ("new", "Ann", "Bob", "--dealer", "Ann"), PLAYED[0])
    laptops.on("bob", ("new", "Ann", "Bob", "--dealer", "Ann"), PLAYED[1])
    bobs = laptops.export("bob")
    laptops.on("ann")
    before = (laptops.home("ann") / "matches" / f"{ID}.json").read_bytes()
    assert imported(run, bobs) == [
        f"Imported from {bobs}: 1 kept beside ours.",
        f"The file's {ID} is another match than ours with that identifier: it is kept as {ID}-2.",
    ]
    assert (laptops.home("ann") / "matches" / f"{ID}.json").read_bytes() == before
    assert [c["text"] for c in laptops.log(f"{ID}-2")] == [
        "recorded hand 1: knock by Bob 3 v 9, 9 − 3 = 6"
    ]
    again_changes_nothing(run, bobs, laptops.home("ann"))


def test_copies_that_went_two_ways_are_both_kept(laptops: Laptops, run: Run) -> None:
    laptops.on("ann", ("new", "Ann", "Bob", "--dealer", "Ann"), *PLAYED[:2])
    shared = laptops.export("ann", "shared.json")
    laptops.on("bob")
    imported(run, shared)
    laptops.on("bob", PLAYED[2], ("gin", "ann", "4"))
    bobs = laptops.export("bob")
    laptops.on("ann", ("draw",))
    ours = laptops.log()
    assert imported(run, bobs) == [
        f"Imported from {bobs}: 1 kept beside ours.",
        f"{ID} went two ways after change 2: the file's copy is kept as {ID}-2; "
        f"'hgin matches combine {ID} {ID}-2' makes them one match.",
    ]
    assert laptops.log() == ours
    theirs = laptops.log(f"{ID}-2")
    assert theirs[:2] == ours[:2] and len(theirs) == 4
    again_changes_nothing(run, bobs, laptops.home("ann"))
    # Bob goes on: his next file brings the copy kept for him up to date, not ours.
    laptops.on("bob", ("draw",))
    later = laptops.export("bob")
    laptops.on("ann")
    assert imported(run, later) == [f"Imported from {later}: 1 updated."]
    assert (len(laptops.log()), len(laptops.log(f"{ID}-2"))) == (3, 5)


def under_old_identifiers(folder: Path, long: str, short: str) -> None:
    """The matches and current pointer in `folder` (a data folder, or an export file) named
    as an earlier release named them: `long` where `short` is now."""
    files = [folder] if folder.is_file() else [*folder.glob("matches/*.json"), folder / "current"]
    for path in files:
        path.write_text(path.read_text(encoding="utf-8").replace(short, long), encoding="utf-8")
        if short in path.name:
            path.rename(path.with_name(path.name.replace(short, long)))


@pytest.mark.parametrize(
    ("players", "short", "long"),
    [
        (
            ("Christabel-Annabelle", "Bartholomew-Montgomery"),
            "2026-12-01-christabe-bartholom",
            "2026-12-01-christabel-annab-bartholomew-mont",
        ),
        (("李", "王"), "2026-12-01-x9cc12f-x8c86f0", "2026-12-01-player-player"),
    ],
)
def test_copies_kept_under_the_identifiers_of_earlier_releases_are_found(
    laptops: Laptops, run: Run, players: tuple[str, str], short: str, long: str
) -> None:
    """Earlier releases made 'christabel-annab-bartholomew-mont' of the first names, and
    'player-player' of the second: a copy kept beside ours then is still the one the file's
    match brings up to date."""
    laptops.on("ann", ("new", *players), ("draw",))
    shared = laptops.export("ann", "shared.json")
    laptops.on("bob")
    imported(run, shared)
    laptops.on("bob", ("gin", players[0], "4"))
    bobs = laptops.export("bob")
    laptops.on("ann", ("draw",))
    assert imported(run, bobs)[0] == f"Imported from {bobs}: 1 kept beside ours."
    laptops.on("bob", ("draw",))
    later = laptops.export("bob")
    for folder in (laptops.home("ann"), laptops.home("bob"), later):
        under_old_identifiers(folder, long, short)
    laptops.on("ann")
    assert imported(run, later) == [f"Imported from {later}: 1 updated."]
    assert (len(laptops.log(long)), len(laptops.log(f"{long}-2"))) == (2, 3)


def test_replace_still_takes_the_files_copy(laptops: Laptops, run: Run) -> None:
    laptops.on("ann", ("new", "Ann", "Bob", "--dealer", "Ann"), PLAYED[0])
    shared = laptops.export("ann", "shared.json")
    laptops.on("bob")
    imported(run, shared)
    laptops.on("bob", ("gin", "bob", "5"))
    bobs = laptops.export("bob")
    laptops.on("ann", ("draw",))
    assert imported(run, bobs, "--replace") == [f"Imported from {bobs}: 1 replaced."]
    log = laptops.log()
    assert [c["kind"] for c in log] == ["record", "record", "import"]
    assert imported(run, bobs, "--replace") == [f"Imported from {bobs}: 1 already up to date."]


def test_matches_written_before_they_had_an_identity_merge_too(laptops: Laptops, run: Run) -> None:
    """Two copies of a file of the earlier schema (no stored identity) are one match."""
    corpus = Path(__file__).parent / "corpus" / "schema4-rules-undone.json"
    old_id = json.loads(corpus.read_text(encoding="utf-8"))["id"]
    for name in ("ann", "bob"):
        (laptops.home(name) / "matches").mkdir(parents=True)
        shutil.copy(corpus, laptops.home(name) / "matches" / f"{old_id}.json")
    laptops.on("bob", ("use", old_id), ("draw",))
    bobs = laptops.export("bob")
    bob = laptops.log(old_id)
    laptops.on("ann", ("use", old_id))
    assert imported(run, bobs) == [f"Imported from {bobs}: 1 updated."]
    assert laptops.log(old_id) == bob
    again_changes_nothing(run, bobs, laptops.home("ann"))


def test_the_same_journal_in_a_file_of_another_schema_changes_nothing(
    laptops: Laptops, run: Run
) -> None:
    """Our file is of the earlier schema, the file's copy of this one: the same journal, other
    bytes. Neither a merge nor --replace writes anything."""
    corpus = Path(__file__).parent / "corpus" / "schema4-rules-undone.json"
    old_id = json.loads(corpus.read_text(encoding="utf-8"))["id"]
    (laptops.home("ann") / "matches").mkdir(parents=True)
    shutil.copy(corpus, laptops.home("ann") / "matches" / f"{old_id}.json")
    laptops.on("ann", ("use", old_id))
    same = laptops.export("ann")
    before = snapshot(laptops.home("ann"))
    for options in ((), ("--replace",)):
        assert imported(run, same, *options) == [f"Imported from {same}: 1 already up to date."]
        assert snapshot(laptops.home("ann")) == before


# -- a synced folder ---------------------------------------------------------------------------


def synced_copy(laptops: Laptops, run: Run, name: str, *bobs: tuple[str, ...]) -> Path:
    """Ann's match, and Bob's copy of it after `bobs`, left by a sync tool beside Ann's file
    in her matches folder as `name`; returns the copy."""
    laptops.on("ann", ("new", "Ann", "Bob", "--dealer", "Ann"), *PLAYED[:2])
    shared = laptops.export("ann", "shared.json")
    laptops.on("bob")
    imported(run, shared)
    laptops.on("bob", *bobs)
    copy = laptops.home("ann") / "matches" / name
    shutil.copy(laptops.home("bob") / "matches" / f"{ID}.json", copy)
    laptops.on("ann")
    return copy


def listed(run: Run) -> tuple[list[str], str]:
    """The identifiers `hgin matches` lists, and what it says on stderr."""
    result = run("matches", "--json")
    assert result.exit_code == 0, result.output
    return [row["id"] for row in json.loads(result.stdout)], result.stderr


def test_a_conflicted_copy_is_listed_as_such_and_merged_by_import(
    laptops: Laptops, run: Run
) -> None:
    name = f"{ID} (Bob's conflicted copy 2026-12-01).json"
    copy = synced_copy(laptops, run, name, PLAYED[2], PLAYED[3])
    assert listed(run) == (
        [ID],
        f"hgin: {name} is a sync tool's conflicted copy of match {ID}: merge it with "
        f"hgin import '{copy.parent}/{ID} (Bob'\"'\"'s conflicted copy 2026-12-01).json' "
        "(if it went its own way, it is kept beside ours, and 'hgin matches combine' makes them "
        "one)\n",
    )
    assert imported(run, copy) == [
        f"Imported from {copy}: 1 updated.",
        f"Removed the conflicted copy {copy}: it is merged.",
    ]
    assert not copy.exists()
    assert len(laptops.log()) == 4
    assert listed(run) == ([ID], "")


def test_a_conflicted_copy_that_went_its_own_way_is_kept_beside(laptops: Laptops, run: Run) -> None:
    name = f"{ID}.sync-conflict-20261201-201500-ABCDEFG.json"
    copy = synced_copy(laptops, run, name, ("gin", "bob", "8"))
    laptops.on("ann", ("draw",))
    assert listed(run) == (
        [ID],
        f"hgin: {name} is a sync tool's conflicted copy of match {ID}: merge it with "
        f"hgin import {copy} (if it went its own way, it is kept beside ours, and 'hgin "
        "matches combine' makes them one)\n",
    )
    assert imported(run, copy) == [
        f"Imported from {copy}: 1 kept beside ours.",
        f"{ID} went two ways after change 2: the file's copy is kept as {ID}-2; "
        f"'hgin matches combine {ID} {ID}-2' makes them one match.",
        f"Removed the conflicted copy {copy}: it is kept as {ID}-2.",
    ]
    assert listed(run) == (
        [f"{ID}-2", ID],
        f"hgin: {ID} and {ID}-2 are copies of one match that went their own ways: 'hgin "
        f"matches combine {ID} {ID}-2' makes them one\n",
    )


def test_a_damaged_conflicted_copy_is_refused_and_left(laptops: Laptops, run: Run) -> None:
    name = f"{ID} (1).json"
    copy = synced_copy(laptops, run, name, ("draw",))
    copy.write_bytes(copy.read_bytes()[:-20])
    before = snapshot(laptops.home("ann"))
    result = run("import", str(copy))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"hgin: cannot import {copy}: it is not valid JSON")
    assert snapshot(laptops.home("ann")) == before
    ids, said = listed(run)
    assert ids == [ID] and "conflicted copy" in said and "cannot be used" not in said


# -- any two copies of one journal -----------------------------------------------------------


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An export file of one match with every kind of change, as JSON data."""
    folder = tmp_path_factory.mktemp("whole")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("hgin.scorekeeper.now_text", clock())
        export = ("export", str(folder / "x.json"))
        recorded_home(folder / "home", ("new", "Ann", "Bob", "--dealer", "Ann"), *PLAYED, export)
    data: dict[str, Any] = json.loads((folder / "x.json").read_text(encoding="utf-8"))
    return data


def cut(data: dict[str, Any], changes: int, path: Path) -> Path:
    """The export file with only the first `changes` changes of the match's journal."""
    match = {k: v for k, v in data["matches"][0].items() if k != "sheet"}
    match["journal"] = match["journal"][:changes]
    path.write_text(json.dumps({**data, "matches": [match]}), encoding="utf-8")
    return path


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ours=st.integers(0, len(PLAYED)),
    theirs=st.integers(0, len(PLAYED)),
)
def test_a_journal_and_its_prefix_merge_to_the_longer(
    run: Run, whole: dict[str, Any], tmp_path: Path, hgin_home: Path, ours: int, theirs: int
) -> None:
    shutil.rmtree(hgin_home, ignore_errors=True)
    first = cut(whole, ours, tmp_path / "ours.json")
    second = cut(whole, theirs, tmp_path / "theirs.json")
    imported(run, first)
    what = "updated" if theirs > ours else "already up to date"
    assert imported(run, second) == [f"Imported from {second}: 1 {what}."]
    log = json.loads(run("log", "--json", "-m", ID).stdout)
    assert [c["text"] for c in log] == [c["text"] for c in whole["matches"][0]["journal"]][
        : max(ours, theirs)
    ]
    for path in (first, second):  # idempotent: either file again changes no byte
        before = snapshot(hgin_home)
        assert imported(run, path) == [f"Imported from {path}: 1 already up to date."]
        assert snapshot(hgin_home) == before


def test_the_help_of_import_says_it_takes_a_match_file_too(run: Run) -> None:
    text = " ".join(run("import", "--help").stdout.split())
    assert (
        "FILE.json An export file or a match file, a sync tool's copy too ('-' for stdin)." in text
    )
    text = " ".join(run("export", "--help").stdout.split())
    assert "FILE.json The file to write ('-' for stdout)." in text
