"""Saves that fail midway, folders that cannot be written, rotated backups and `hgin restore`,
the schema-1 upgrade and the list index, all through the real CLI."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hgin.store import guard
from hgin.store.schema import SCHEMA_VERSION
from tests.conftest import Run, copied_match, recorded_home, snapshot

NO_SPACE = OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A match with two hands, made once through the CLI."""
    return recorded_home(
        tmp_path_factory.mktemp("template") / "home",
        ("new", "Ann", "Bob", "--dealer", "Ann"),
        ("gin", "ann", "18"),
        ("knock", "bob", "3", "20"),
    )


@pytest.fixture
def match_file(template: Path, hgin_home: Path) -> Path:
    """A copy of the template's data folder as this test's; its match file."""
    return copied_match(template, hgin_home)


def hands_in(path: Path) -> int:
    journal = json.loads(path.read_text(encoding="utf-8"))["journal"]
    return sum(change["kind"] == "record" for change in journal)


def temp_files(home: Path) -> list[Path]:
    return sorted(home.rglob("*.tmp"))


class Counted:
    """`real`, counting its calls; call number `failing` (if any) raises ENOSPC instead."""

    def __init__(self, real: Callable[..., Any], failing: int | None = None) -> None:
        self.real, self.failing, self.calls, self.injected = real, failing, 0, False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls == self.failing:
            self.injected = True
            raise NO_SPACE
        return self.real(*args, **kwargs)


@pytest.mark.parametrize("name", ["replace", "fsync", "link"])
def test_a_save_failing_at_any_step_is_all_or_nothing(
    run: Run,
    hgin_home: Path,
    template: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
) -> None:
    import shutil

    def fresh() -> Path:
        shutil.rmtree(hgin_home, ignore_errors=True)
        return copied_match(template, hgin_home)

    fresh()
    counter = Counted(getattr(os, name))
    with monkeypatch.context() as patch:
        patch.setattr(os, name, counter)
        assert run("gin", "ann", "12").exit_code == 0
    steps = counter.calls
    assert steps >= 1, f"a save calls os.{name}"
    # Every call a save makes fails once, in its own run from the same files.
    for failing_call in range(1, steps + 1):
        match_file = fresh()
        before = snapshot(hgin_home)
        fault = Counted(getattr(os, name), failing_call)
        with monkeypatch.context() as patch:
            patch.setattr(os, name, fault)
            result = run("gin", "ann", "12")
        assert fault.injected, f"call {failing_call} of os.{name} was never made"
        assert temp_files(hgin_home) == []
        if result.exit_code == 1:
            # Refused: one clear line, and every file exactly as it was (backups included).
            assert result.stderr.count("\n") == 1
            assert "No space left on device" in result.stderr
            assert str(match_file) in result.stderr
            assert snapshot(hgin_home) == before
        else:
            # Only a failure after the new file was in place (flushing the folder entry, the
            # list cache) may let the command succeed, and then the hand is really there.
            assert result.exit_code == 0, result.output
            assert hands_in(match_file) == 3
            shown = run("show")
            assert shown.exit_code == 0, shown.stderr
        if failing_call == 1:
            assert result.exit_code == 1  # the very first write step always matters


def test_failing_main_write_says_the_previous_version_is_kept(
    run: Run, hgin_home: Path, match_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(hgin_home)
    # The backup is linked into place, never renamed over anything: the match file's rename
    # is the first.
    monkeypatch.setattr(os, "replace", Counted(os.replace, 1))
    result = run("undo")
    assert result.exit_code == 1
    assert result.stderr == (
        f"hgin: cannot save {match_file}: No space left on device; the previous version is kept\n"
    )
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.EROFS, "Read-only file system"),
        PermissionError(errno.EACCES, "Permission denied"),
    ],
)
def test_read_only_folder(
    run: Run,
    hgin_home: Path,
    match_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: OSError,
) -> None:
    # Tests run as root, whom permission bits do not stop, so the refusal the system would
    # give is injected where every write starts: creating the temporary file.
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise error

    before = snapshot(hgin_home)
    monkeypatch.setattr(guard, "_temp_copy", refuse)
    for args in (("gin", "ann", "5"), ("undo",), ("new", "Cy", "Di"), ("restore", "1")):
        result = run(*args)
        assert result.exit_code == 1, args
        assert result.stderr.count("\n") == 1
        assert error.strerror in result.stderr
        assert snapshot(hgin_home) == before
    assert run("show").exit_code == 0  # reading still works


def test_a_file_where_the_backup_folder_should_be(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    # The other way to make a folder unwritable as root: put a file where it must be.
    folder = hgin_home / "backups" / match_file.stem
    for old in folder.iterdir():
        old.unlink()
    folder.rmdir()
    folder.write_text("in the way")
    before = snapshot(hgin_home)
    result = run("gin", "ann", "5")
    assert result.exit_code == 1
    assert result.stderr == (
        f"hgin: cannot create the folder {folder}: a file is in the way; nothing was changed\n"
    )
    assert snapshot(hgin_home) == before


def test_a_file_where_the_matches_folder_should_be(run: Run, hgin_home: Path) -> None:
    hgin_home.mkdir()
    (hgin_home / "matches").write_text("in the way")
    before = snapshot(hgin_home)
    result = run("new", "Ann", "Bob")
    assert result.exit_code == 1
    assert result.stderr == (
        f"hgin: cannot create the folder {hgin_home / 'matches'}: a file is in the way\n"
    )
    assert snapshot(hgin_home) == before


def test_new_match_is_all_or_nothing_when_the_pointer_cannot_be_saved(
    run: Run, hgin_home: Path
) -> None:
    hgin_home.mkdir()
    (hgin_home / "current").mkdir()  # the pointer cannot be replaced by a file
    result = run("new", "Ann", "Bob")
    assert result.exit_code == 1
    assert result.stderr == f"hgin: cannot use {hgin_home / 'current'}: it is not a regular file\n"
    assert list((hgin_home / "matches").iterdir()) == []
    assert snapshot(hgin_home) == {}


# -- schema 1 files --------------------------------------------------------------------


def as_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """What hgin wrote before schema 2: the hands (from a journal of recorded hands) without
    `recorded_at`, and a sheet (never read, so its copy of each hand is left out here)."""
    hands = [{k: v for k, v in c["hand"].items() if k != "recorded_at"} for c in data["journal"]]
    keys = ("id", "players", "rules", "first_dealer", "created")
    return {"schema": 1, **{k: data[k] for k in keys}, "hands": hands, "undone": []} | {
        "sheet": data["sheet"]
    }


@pytest.fixture
def schema_1_file(match_file: Path) -> bytes:
    raw = json.dumps(as_schema_1(json.loads(match_file.read_text())), indent=1).encode()
    match_file.write_bytes(raw)
    return raw


def test_a_schema_1_file_is_read_without_being_rewritten(
    run: Run, hgin_home: Path, match_file: Path, schema_1_file: bytes
) -> None:
    before = snapshot(hgin_home)
    result = run("show", "--json")
    assert result.exit_code == 0, result.output
    assert [h["points"] for h in json.loads(result.stdout)["hands"]] == [43, 17]
    assert snapshot(hgin_home) == before


def test_a_schema_1_file_is_kept_before_it_is_upgraded(
    run: Run, hgin_home: Path, match_file: Path, schema_1_file: bytes, monkeypatch: Any
) -> None:
    placed: list[str] = []
    real_replace, real_link = os.replace, os.link

    def watch_replace(source: Any, target: Any) -> None:
        placed.append(Path(target).name)
        real_replace(source, target)

    def watch_link(source: Any, target: Any, **options: Any) -> None:
        placed.append(Path(target).name)
        real_link(source, target, **options)

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", watch_replace)
        patch.setattr(os, "link", watch_link)
        assert run("gin", "bob", "30").exit_code == 0
    assert placed[0] == "before-schema-1.json"  # written first, before anything else
    assert placed.index(match_file.name) > 1
    folder = hgin_home / "backups" / match_file.stem
    assert (folder / "before-schema-1.json").read_bytes() == schema_1_file
    data = json.loads(match_file.read_text())
    assert data["schema"] == SCHEMA_VERSION
    hands = [c["hand"] for c in data["journal"]]
    assert [h["recorded_at"] for h in hands[:2]] == [None, None]
    assert isinstance(hands[2]["recorded_at"], str)
    # The copy is kept once, outside the rotation, and listed as a backup.
    for _ in range(6):
        assert run("draw").exit_code == 0
    assert (folder / "before-schema-1.json").read_bytes() == schema_1_file
    listed = json.loads(run("restore", "--backup", "--json").stdout)["backups"]
    assert [(b["before_schema"], b["hands"]) for b in listed][-1] == (1, 2)
    assert len(listed) == 6


def test_a_failed_upgrade_leaves_the_schema_1_file_and_no_copy(
    run: Run, hgin_home: Path, match_file: Path, schema_1_file: bytes, monkeypatch: Any
) -> None:
    before = snapshot(hgin_home)
    monkeypatch.setattr(os, "replace", Counted(os.replace, 1))  # the match file's
    assert run("gin", "bob", "30").exit_code == 1
    assert snapshot(hgin_home) == before


def test_a_refused_change_does_not_upgrade_or_copy(
    run: Run, hgin_home: Path, match_file: Path, schema_1_file: bytes
) -> None:
    before = snapshot(hgin_home)
    assert run("gin", "bob", "99").exit_code == 1
    assert snapshot(hgin_home) == before


# -- the match list ----------------------------------------------------------------------


def test_a_damaged_match_file_is_left_out_of_the_list_not_deleted(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    match_file.write_text("{}")
    result = run("matches", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []
    assert match_file.read_text() == "{}"
