"""What hgin prints when the output is not an ordinary UTF-8 terminal, in real processes: a
full disk or a closed reader behind standard output, and (below) other encodings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Run, snapshot

TIMEOUT = 60
FULL = Path("/dev/full")


def hgin(*args: str, stdout: int | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m hgin ARGS` in a real process ($HGIN_HOME comes from the fixture)."""
    return subprocess.run(
        [sys.executable, "-m", "hgin", *args],
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def to_full_disk(*args: str) -> subprocess.CompletedProcess[str]:
    """`hgin ARGS > /dev/full`: every write to standard output fails with ENOSPC."""
    with FULL.open("w") as full:
        return hgin(*args, stdout=full.fileno())


needs_full = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")


@needs_full
def test_a_saved_hand_that_cannot_be_shown_exits_0(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Bob")
    done = to_full_disk("gin", "ann", "7")
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "hgin: the change was saved, but could not be shown (No space left on device)"
    ]
    # The hand is there, once: a script need not (and must not) record it again.
    hands = json.loads(run("show", "--json").stdout)["hands"]
    assert len(hands) == 1


@needs_full
def test_a_new_match_and_an_undo_that_cannot_be_shown_exit_0(run: Run) -> None:
    done = to_full_disk("new", "Ann", "Bob", "--dealer", "Bob")
    assert (done.returncode, "was saved" in done.stderr) == (0, True)
    run("draw")
    done = to_full_disk("undo")
    assert (done.returncode, "was saved" in done.stderr) == (0, True)
    assert json.loads(run("show", "--json").stdout)["hands"] == []


@needs_full
@pytest.mark.parametrize("args", [("show",), ("show", "--json"), ("matches",), ("rules",)])
def test_a_reading_command_that_cannot_print_fails(
    run: Run, hgin_home: Path, args: tuple[str, ...]
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Bob")
    before = snapshot(hgin_home)
    done = to_full_disk(*args)
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["hgin: cannot write the output: No space left on device"]
    assert snapshot(hgin_home) == before


@needs_full
def test_a_refused_change_still_fails_whatever_the_output(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Bob")
    before = snapshot(hgin_home)
    done = to_full_disk("gin", "cy", "7")
    assert done.returncode == 1
    assert "not a player" in done.stderr
    assert snapshot(hgin_home) == before
