"""The fourth round of attacks, outside the board: a forged cache's texts, an export that trusts
no stamp, Ctrl-C while import waits for standard input, a port out of range, and rematch's
notice of the match it leaves (each failed before this round)."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Run, snapshot

TIMEOUT = 30


@pytest.fixture
def played(run: Run) -> str:
    """A match with two hands; its identifier."""
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "10").exit_code == 0
    assert run("knock", "bob", "3", "20").exit_code == 0
    current: str = (
        run("matches", "--json").stdout and json.loads(run("matches", "--json").stdout)[0]["id"]
    )
    return current


def test_export_checks_every_match_even_one_whose_stamp_the_cache_holds(
    run: Run, hgin_home: Path, played: str, tmp_path: Path
) -> None:
    path = hgin_home / "matches" / f"{played}.json"
    assert run("matches").exit_code == 0  # the cache now holds the file's stamp
    info = path.stat()
    raw = path.read_bytes()
    assert b'"kind": "knock"' in raw
    with path.open("r+b") as file:  # in place: the same size, inode and (set back) mtime
        file.write(raw.replace(b'"kind": "knock"', b'"kind": "knoc!"', 1))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert (path.stat().st_ino, path.stat().st_size) == (info.st_ino, info.st_size)
    result = run("export", "--all", str(tmp_path / "out.json"))
    assert result.exit_code == 1
    assert "unknown kind 'knoc!'" in result.stderr
    assert not (tmp_path / "out.json").exists()


def test_ctrl_c_while_import_waits_for_standard_input_imports_nothing(
    hgin_home: Path,
) -> None:
    main, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "hgin", "import", "-"],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], TIMEOUT)
        assert ready, "import never said it was waiting"
        waiting = process.stderr.readline()  # said once it is about to wait
        assert waiting == (
            "hgin: waiting for the export on standard input (Ctrl-D ends it, Ctrl-C stops)\n"
        )
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=TIMEOUT)
    finally:
        process.kill()
        os.close(main)
        os.close(terminal)
    assert (process.returncode, out, err) == (130, "", "hgin: interrupted\n")
    assert snapshot(hgin_home) == {}


@pytest.mark.parametrize("port", ["99999999999999999999", "-1", "2147483648", "0", "http"])
def test_a_port_out_of_range_is_a_usage_error(run: Run, port: str, hgin_home: Path) -> None:
    result = run("board", "--local", "--port", port)
    assert result.exit_code == 2
    assert f"a port is a number from 1 to 65535, not '{port}'" in " ".join(result.stderr.split())
    assert "Traceback" not in result.output


def test_rematch_says_which_unfinished_match_stops_being_current(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann", "--target", "10").exit_code == 0
    for _ in range(3):
        assert run("gin", "ann", "10").exit_code == 0
    assert run("new", "Cy", "Dee", "--dealer", "Cy").exit_code == 0
    assert run("gin", "cy", "3").exit_code == 0
    cy_dee = json.loads(run("matches", "--json").stdout)[0]["id"]
    result = run("rematch", "-m", "ann")
    assert result.exit_code == 0, result.output
    assert (
        f"Match {cy_dee} (Cy v Dee, 1 hand) is not finished and is no longer current; "
        f"'hgin use {cy_dee}' goes back to it."
    ) in " ".join(result.stdout.split())
