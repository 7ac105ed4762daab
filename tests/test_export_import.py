"""`hgin export` and `hgin import`: the whole history moved between data folders."""

from __future__ import annotations

import errno
import gc
import json
import os
from pathlib import Path
from typing import Any

import pytest

from hgin.store.schema import SCHEMA_VERSION
from tests.conftest import Run, snapshot
from tests.history_data import IDS


@pytest.fixture(autouse=True)
def piped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped output, its sentences whole: they name temporary paths longer than a line."""
    monkeypatch.delenv("COLUMNS")


@pytest.fixture
def exported(run: Run, history: Path, tmp_path: Path) -> Path:
    """The five recorded matches exported with --all; returns the file."""
    target = tmp_path / "history.json"
    result = run("export", "--all", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Exported 5 matches to {target}.\n"
    return target


@pytest.fixture
def other_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Switch $HGIN_HOME to a second, empty data folder (the other machine)."""
    home = tmp_path / "other-machine"
    monkeypatch.setenv("HGIN_HOME", str(home))
    return home


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_export_file(exported: Path, hgin_home: Path) -> None:
    data = load(exported)
    assert list(data) == ["format", "version", "exported", "current", "matches"]
    assert (data["format"], data["version"], data["current"]) == ("hgin-history", 1, IDS[0])
    assert [m["id"] for m in data["matches"]] == sorted(IDS)
    for match in data["matches"]:
        stored = json.loads((hgin_home / "matches" / f"{match['id']}.json").read_text("utf-8"))
        assert match == stored


def test_round_trip_to_an_empty_folder(
    run: Run, exported: Path, hgin_home: Path, other_home: Path
) -> None:
    result = run("import", str(exported))
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"Imported from {exported}: 5 new.\nCurrent match: {IDS[0]}.\n")
    for match_id in IDS:
        name = f"{match_id}.json"
        assert (other_home / "matches" / name).read_bytes() == (
            hgin_home / "matches" / name
        ).read_bytes()
    # The list and the statistics read the imported matches like any others.
    listing = json.loads(run("matches", "--json").stdout)
    assert [r["id"] for r in listing] == IDS
    assert listing[0]["current"] is True
    stats = json.loads(run("stats", "--json").stdout)
    assert stats["players"]["ANN"]["matches"] == 3
    assert stats["players"]["Bob"]["average_points"] == 39.71
    # Play goes on where it stopped.
    assert run("gin", "deb", "20").exit_code == 0


def test_matches_already_here_are_left_and_counted(
    run: Run, exported: Path, hgin_home: Path
) -> None:
    before = snapshot(hgin_home)
    result = run("import", str(exported), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "added": [],
        "updated": [],
        "up_to_date": sorted(IDS),
        "kept": [],
        "replaced": [],
        "taken_off": [],
        "current": None,
        "copy_removed": False,
    }
    assert snapshot(hgin_home) == before


def test_replace_takes_the_files_copy_of_a_match_we_hold_further(
    run: Run, exported: Path, hgin_home: Path, other_home: Path
) -> None:
    assert run("import", str(exported)).exit_code == 0
    # On the other machine, Dee and Deb's match goes on with another hand.
    assert run("gin", "deb", "20").exit_code == 0
    changed = (other_home / "matches" / f"{IDS[0]}.json").read_bytes()
    result = run("import", str(exported), "--replace")
    assert result.exit_code == 0
    assert result.stdout == f"Imported from {exported}: 4 already up to date, 1 replaced.\n"
    kept = [p.read_bytes() for p in (other_home / "backups" / IDS[0]).iterdir()]
    assert changed in kept
    # The import is one change of the stored match's journal: the file's hands are in force,
    # the stored history stays in the log, and undo takes the import back.
    imported = json.loads(run("show", "--json", "-m", IDS[0]).stdout)
    assert [h["points"] for h in imported["hands"]] == [35]
    log = json.loads(run("log", "--json", "-m", IDS[0]).stdout)
    assert [c["kind"] for c in log][-1] == "import"
    assert log[-1]["text"].startswith("imported the match: 1 hand, rules ")
    assert run("undo", "-m", IDS[0]).exit_code == 0
    again = json.loads(run("show", "--json", "-m", IDS[0]).stdout)
    assert len(again["hands"]) == 2


def test_a_refused_import_writes_nothing_at_all(
    run: Run, exported: Path, other_home: Path, tmp_path: Path
) -> None:
    data = load(exported)
    # The first four matches are fine; the last one has an impossible count.
    data["matches"][-1]["journal"][0]["hand"]["opponent_deadwood"] = 99
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    result = run("import", str(broken))
    assert result.exit_code == 1
    assert result.stderr == (
        f"hgin: cannot import {broken}: match 5 ('{IDS[0]}'): change 1, 'hand': "
        "'opponent_deadwood' 99 is out of range 0..98; nothing was imported\n"
    )
    assert snapshot(other_home) == {}
    assert gc.isenabled()  # an import pauses the garbage collector only while it runs


def edit(data: dict[str, Any], where: str) -> dict[str, Any]:
    """One way to spoil an export file."""
    first = data["matches"][0]
    if where == "format":
        data["format"] = "something-else"
    elif where == "newer":
        data["version"] = 2
    elif where == "matches":
        data["matches"] = {"a": 1}
    elif where == "duplicate":
        data["matches"].append(dict(first))
    elif where == "path":
        first["id"] = "../../etc/passwd"
    elif where == "winner":
        first["journal"][0]["hand"]["player"] = "Mallory"
    elif where == "schema":
        first["schema"] = 99
    elif where == "not-object":
        data["matches"][0] = "match"
    return data


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("format", 'it is not an hgin history export (no "format": "hgin-history")'),
        ("newer", "it was written by a newer hgin (export version 2; this hgin reads up to 1)"),
        ("matches", "its 'matches' is not a list"),
        ("duplicate", f"it holds match '{sorted(IDS)[0]}' twice"),
        ("path", "match 1 ('../../etc/passwd'): '../../etc/passwd' is not a match identifier"),
        ("winner", "'Mallory' is not a player in this match"),
        ("schema", "it was written by a newer hgin (schema 99"),
        ("not-object", "match 1: it is not an object"),
    ],
)
def test_files_that_do_not_validate(
    run: Run, exported: Path, hgin_home: Path, tmp_path: Path, where: str, message: str
) -> None:
    spoiled = tmp_path / "spoiled.json"
    spoiled.write_text(json.dumps(edit(load(exported), where)), encoding="utf-8")
    before = snapshot(hgin_home)
    result = run("import", str(spoiled))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"hgin: cannot import {spoiled}: ")
    assert message in result.stderr
    assert result.stderr.endswith("; nothing was imported\n")
    assert snapshot(hgin_home) == before
    assert not (tmp_path / "etc").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "it is not valid JSON"),
        (b"\xff\xfe", "it is not UTF-8 text"),
        (b"[]", "it is not an hgin history export"),
    ],
)
def test_unreadable_files(
    run: Run, exported: Path, hgin_home: Path, tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    before = snapshot(hgin_home)
    result = run("import", str(bad))
    assert result.exit_code == 1
    assert message in result.stderr
    assert snapshot(hgin_home) == before
    result = run("import", str(tmp_path / "missing.json"))
    assert result.exit_code == 1
    assert "cannot read" in result.stderr
    assert snapshot(hgin_home) == before


def test_an_older_schema_is_migrated_on_import(
    run: Run, exported: Path, other_home: Path, tmp_path: Path
) -> None:
    data = load(exported)
    new = data["matches"][0]
    hands = [
        {k: v for k, v in c["hand"].items() if k != "recorded_at"}
        for c in new["journal"]
        if c["kind"] == "record"
    ]
    keys = ("id", "players", "rules", "first_dealer", "created")
    old = {"schema": 1, **{k: new[k] for k in keys}, "hands": hands, "undone": []}
    data["matches"][0] = old
    older = tmp_path / "older.json"
    older.write_text(json.dumps(data), encoding="utf-8")
    result = run("import", str(older), "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["added"]) == 5
    stored = load(other_home / "matches" / f"{old['id']}.json")
    assert stored["schema"] == SCHEMA_VERSION
    assert [c["hand"] for c in stored["journal"]] == [{**h, "recorded_at": None} for h in hands]


def test_export_choices_and_refusals(run: Run, exported: Path, tmp_path: Path) -> None:
    before = exported.read_bytes()
    result = run("export", "--all", str(exported))
    assert result.exit_code == 1
    assert result.stderr == f"hgin: {exported} already exists: add --force to replace it\n"
    assert exported.read_bytes() == before
    assert run("export", "--all", str(exported), "--force").exit_code == 0
    assert [m["id"] for m in load(exported)["matches"]] == sorted(IDS)
    # Without --all: the current match, or the one named.
    one = tmp_path / "one.json"
    assert run("export", str(one)).exit_code == 0
    assert [m["id"] for m in load(one)["matches"]] == [IDS[0]]
    assert run("export", str(one), "--force", "--match", "2024-03-02").exit_code == 0
    data = load(one)
    assert [m["id"] for m in data["matches"]] == [IDS[3]]
    assert data["current"] is None
    result = run("export", "-")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["matches"][0]["id"] == IDS[0]
    assert run("export", "--all", "--match", IDS[1], str(tmp_path / "x.json")).exit_code == 2
    result = run("export", str(tmp_path / "nowhere" / "x.json"))
    assert result.exit_code == 1
    assert "does not exist" in result.stderr


def test_export_with_nothing_stored(run: Run, tmp_path: Path) -> None:
    result = run("export", "--all", str(tmp_path / "x.json"))
    assert result.exit_code == 1
    assert result.stderr == "hgin: there are no stored matches to export\n"
    assert not (tmp_path / "x.json").exists()


def test_import_from_stdin(run: Run, exported: Path, other_home: Path) -> None:
    result = run("import", "-", input=exported.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Imported from stdin: 5 new.\n")
    assert sorted(p.name for p in (other_home / "matches").iterdir()) == sorted(
        f"{i}.json" for i in IDS
    )


def test_current_match_is_kept(run: Run, exported: Path, other_home: Path) -> None:
    assert run("new", "Xi", "Yo").exit_code == 0
    result = run("import", str(exported))
    assert result.exit_code == 0
    assert "Current match" not in result.stdout
    assert run("show", "--json").exit_code == 0
    assert json.loads(run("show", "--json").stdout)["players"] == ["Xi", "Yo"]


def test_importing_the_same_file_again_changes_nothing(
    run: Run, exported: Path, hgin_home: Path, other_home: Path
) -> None:
    assert run("import", str(exported)).exit_code == 0
    assert run("gin", "deb", "20").exit_code == 0
    assert run("import", str(exported), "--replace").exit_code == 0
    before = {k: v for k, v in snapshot(other_home).items() if not k.startswith("cache.")}
    for again in (("--replace",), ()):
        result = run("import", str(exported), *again)
        assert (result.exit_code, result.stderr) == (0, "")
        assert result.stdout == f"Imported from {exported}: 5 already up to date.\n"
    assert {k: v for k, v in snapshot(other_home).items() if not k.startswith("cache.")} == before


def test_an_import_that_fails_partway_says_what_it_imported(
    run: Run, exported: Path, hgin_home: Path, other_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("import", str(exported)).exit_code == 0
    assert run("gin", "deb", "20").exit_code == 0  # IDS[0] now differs from the file's copy
    (other_home / "matches" / f"{IDS[1]}.json").unlink()  # and IDS[1] is new again
    changed = (other_home / "matches" / f"{IDS[0]}.json").read_bytes()
    real_link, injected = os.link, []

    def full_disk(source: Any, target: Any, **kwargs: Any) -> None:
        if f"{os.sep}backups{os.sep}" in str(target):
            injected.append(target)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_link(source, target, **kwargs)

    monkeypatch.setattr(os, "link", full_disk)
    result = run("import", str(exported), "--replace")
    assert len(injected) == 1 and result.exit_code == 1
    assert result.stderr.startswith(
        f"hgin: imported 1 match ({IDS[1]}) before this failure: cannot back up "
    )
    assert (other_home / "matches" / f"{IDS[1]}.json").is_file()
    assert (other_home / "matches" / f"{IDS[0]}.json").read_bytes() == changed


def test_a_match_keeps_the_bytes_the_export_gives_it(
    run: Run, exported: Path, other_home: Path, tmp_path: Path
) -> None:
    # A match's line laid out otherwise (here with spaces) goes in as the file gives it: what
    # was checked is what is written. A fault on a line is named as in the whole file.
    first, rest = exported.read_bytes().split(b'\n{"schema": ', 1)
    spaced = tmp_path / "spaced.json"
    spaced.write_bytes(first + b'\n{"schema":   ' + rest)
    result = run("import", str(spaced), "--json")
    assert result.exit_code == 0, result.output
    stored = (other_home / "matches" / f"{sorted(IDS)[0]}.json").read_bytes()
    assert stored == b'{"schema":   ' + rest.split(b'},\n{"schema": ', 1)[0] + b"}\n"
    broken = tmp_path / "broken.json"
    broken.write_bytes(first + b'\n{"schema": 5,, ' + rest)
    result = run("import", str(broken))
    at = len(first) + 14
    assert "it is not valid JSON (Expecting property name enclosed in double quotes: " in (
        result.stderr
    )
    assert f"(char {at}))" in result.stderr
    headless = tmp_path / "headless.json"
    headless.write_bytes(b'{, "matches": [\n{"schema": ' + rest)
    assert "it is not valid JSON" in run("import", str(headless)).stderr


def test_a_file_changed_since_the_cache_stamped_it_is_checked_again(
    run: Run, history: Path, tmp_path: Path
) -> None:
    assert run("matches").exit_code == 0  # the cache now holds every file's stamp
    path = history / "matches" / f"{IDS[1]}.json"
    raw = path.read_bytes()
    at = raw.index(b'"kind": "')
    path.write_bytes(raw[:at] + b'"kind": "?' + raw[at + 10 :])  # the same size, in place
    result = run("export", "--all", str(tmp_path / "all.json"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"hgin: cannot use {path}: ")
    assert not (tmp_path / "all.json").exists()


def test_replace_brings_the_notice_given_in_the_files_copy(
    run: Run, hgin_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rolling match taken to a second folder; here notice is given, there a dead hand is
    # recorded and undone (the two copies went two ways). Replacing theirs with ours brings
    # the notice: without it their sheet would open new games that ours does not.
    there = tmp_path / "there"
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert run("new", "Ann", "Bob", "--rolling", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "80").exit_code == 0
    assert run("export", str(first)).exit_code == 0
    monkeypatch.setenv("HGIN_HOME", str(there))
    assert run("import", str(first)).exit_code == 0
    assert run("draw").exit_code == 0 and run("undo").exit_code == 0
    monkeypatch.setenv("HGIN_HOME", str(hgin_home))
    assert run("notice").exit_code == 0
    assert run("export", str(second)).exit_code == 0
    monkeypatch.setenv("HGIN_HOME", str(there))
    result = run("import", str(second), "--replace")
    assert result.stdout == f"Imported from {second}: 1 replaced.\n"
    assert json.loads(run("show", "--json").stdout)["notice"] is True
