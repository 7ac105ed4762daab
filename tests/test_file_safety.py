"""Every change to hgin's files is safe: read-modify-writes hold the lock, a refused command
leaves every file as it was (or says exactly what it left), and what was saved is never
reported as a failure. Faults are injected in-process, and each test counts its injections."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hgin.store.config import STARTER
from tests.conftest import Run, snapshot

HGIN = str(Path(sys.executable).with_name("hgin"))


@pytest.mark.skipif(not os.access(HGIN, os.X_OK), reason="the installed hgin script is needed")
def test_concurrent_rules_save_keeps_every_preset(run: Run) -> None:
    savers = [
        subprocess.Popen(
            [HGIN, "rules", "save", f"pre{i}", "--gin-bonus", str(10 + i)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(1, 9)
    ]
    for saver in savers:
        _, err = saver.communicate(timeout=60)
        assert saver.returncode == 0, err
    listed = json.loads(run("rules", "--list", "--json").stdout)
    assert {name: listed[name]["gin_bonus"] for name in listed if name.startswith("pre")} == {
        f"pre{i}": 10 + i for i in range(1, 9)
    }


class Faults:
    """Makes the named `os` function fail with `errno` on calls number `when` (counted from 1)
    whose first argument passes `matching`; counts the calls it made fail."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        name: str,
        *,
        when: Callable[[int], bool] = lambda n: n == 1,
        matching: Callable[[str], bool] = lambda path: True,
        code: int = errno.EIO,
    ) -> None:
        self.injected = 0
        self.on = True
        calls = 0
        real = getattr(os, name)

        def failing(target: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            if self.on and matching(str(target)):
                calls += 1
                if when(calls):
                    self.injected += 1
                    raise OSError(code, os.strerror(code))
            return real(target, *args, **kwargs)

        monkeypatch.setattr(os, name, failing)


def is_temp(path: str) -> bool:
    return path.endswith(".tmp")


def test_a_backup_whose_temporary_file_cannot_be_removed_is_still_a_saved_hand(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    faults = Faults(monkeypatch, "unlink", matching=is_temp)
    result = run("gin", "ann", "3")
    assert faults.injected == 1
    assert (result.exit_code, result.stderr) == (0, "")
    assert len(json.loads(run("show", "--json").stdout)["hands"]) == 2
    listed = run("restore", "--backup").stdout
    kept = [p.name for p in (hgin_home / "backups").rglob("*.json")]
    assert len(kept) == 2 and all(name in listed for name in kept)  # one per save


def test_config_init_whose_temporary_file_cannot_be_removed_writes_the_file(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    faults = Faults(monkeypatch, "unlink", matching=is_temp)
    result = run("config", "--init")
    assert faults.injected == 1 and result.exit_code == 0, result.stderr
    assert (hgin_home / "config" / "config.toml").read_text(encoding="utf-8") == STARTER


def test_a_failed_write_says_which_temporary_file_it_left(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flushes = Faults(monkeypatch, "fsync")
    removals = Faults(monkeypatch, "unlink", matching=is_temp)
    result = run("config", "--init")
    assert (flushes.injected, removals.injected, result.exit_code) == (1, 1, 1)
    path = hgin_home / "config" / "config.toml"
    [left] = (hgin_home / "config").glob(".config.toml.*.tmp")
    assert result.stderr == f"hgin: cannot write {path}: Input/output error (and {left} is left)\n"
    assert not path.exists()


def test_series_new_whose_series_file_fails_leaves_every_file_as_it_was(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("new", "Cy", "Di", "--dealer", "Cy")
    before = snapshot(hgin_home)
    faults = Faults(monkeypatch, "replace", matching=lambda path: f"{os.sep}series{os.sep}" in path)
    result = run("series", "new", "Ann", "Bob", "--dealer", "Ann")
    assert faults.injected == 1 and result.exit_code == 1
    assert result.stderr.startswith(f"hgin: cannot write {hgin_home / 'series'}")
    assert result.stderr.endswith("-series.json: Input/output error; nothing was changed\n")
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    ("command", "nth"),  # the pointer is the last file written: the 2nd or the 3rd
    [(("new", "Ivy", "Jo"), 2), (("series", "new", "Ivy", "Jo"), 3), (("series", "next"), 3)],
)
def test_a_new_match_whose_pointer_fails_leaves_every_file_as_it_was(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...], nth: int
) -> None:
    run("series", "new", "Ann", "Bob", "--dealer", "Ann", "--games", "1")
    run("gin", "ann", "90")  # the first match is over
    before = {k: v for k, v in snapshot(hgin_home).items() if not k.startswith("cache.")}
    faults = Faults(monkeypatch, "replace", when=lambda n: n == nth)
    result = run(*command, "--dealer", "bob" if command[-1] == "next" else "ivy")
    assert faults.injected == 1 and result.exit_code == 1
    current = hgin_home / "current"
    assert result.stderr == (
        f"hgin: cannot write {current}: Input/output error; nothing was changed\n"
    )
    assert {k: v for k, v in snapshot(hgin_home).items() if not k.startswith("cache.")} == before
    assert run("show").exit_code == 0


def test_what_cannot_be_put_back_stays_named_and_consistent(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("series", "new", "Ann", "Bob", "--dealer", "Ann", "--games", "1")
    run("gin", "ann", "90")
    first = (hgin_home / "current").read_bytes()
    faults = Faults(monkeypatch, "replace", when=lambda n: n >= 3)  # a read-only disk from then on
    result = run("series", "next", "--dealer", "bob")
    assert faults.injected == 2 and result.exit_code == 1  # the pointer, then the series' undo
    [match] = [
        p for p in (hgin_home / "matches").glob("*.json") if p.stem != first.decode().strip()
    ]
    [series] = (hgin_home / "series").glob("*.json")
    assert result.stderr == (
        f"hgin: cannot write {hgin_home / 'current'}: Input/output error; "
        f"{match.name} and {series.name} stay written\n"
    )
    faults.on = False
    assert (hgin_home / "current").read_bytes() == first
    shown = run("series", "show")
    assert shown.exit_code == 0, shown.stderr  # the series names only matches that exist


def test_series_next_cannot_fail_once_everything_is_written(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("series", "new", "Ann", "Bob", "--dealer", "Ann", "--games", "1")
    run("gin", "ann", "90")  # the first match is over
    [first] = (hgin_home / "matches").glob("*.json")
    written = lambda n: len(list((hgin_home / "matches").glob("*.json"))) == 2  # noqa: E731
    faults = Faults(monkeypatch, "open", when=written, matching=lambda path: path == str(first))
    result = run("series", "next", "--dealer", "bob")
    assert (result.exit_code, result.stderr) == (0, "")
    series = json.loads(next((hgin_home / "series").glob("*.json")).read_text(encoding="utf-8"))
    assert len(series["matches"]) == 2
    assert (hgin_home / "current").read_text(encoding="utf-8") == f"{series['matches'][1]}\n"
    assert faults.injected == 0  # nothing read the finished match once the new one was written
    assert run("show", "--match", first.stem).exit_code == 1  # as any read of it now would
    assert faults.injected == 1
