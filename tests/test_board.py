"""`hgin board` without its extra, and what the board costs every other command: nothing (its
server and libraries are imported only when it runs). The server itself: test_board_server.py;
the page in a browser: test_board_browser.py."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from hgin.scorekeeper import ScoreKeeper
from tests.board_process import NO_EXTRA
from tests.conftest import Run

BOARD_LIBRARIES = ("starlette", "uvicorn", "segno", "hgin.board")
# Prints, as the process ends, every module it imported: the command runs as `hgin` runs it.
LIST_MODULES = (
    "import atexit, sys\n"
    "atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))\n"
    "sys.argv = ['hgin', *sys.argv[1:]]\n"
    "from hgin.cli import main\n"
    "main()\n"
)


def modules_of(home: Path, *args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", LIST_MODULES, *args],
        env={**os.environ, "HGIN_HOME": str(home)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(done.stderr.splitlines()[-1].split())


def board_modules(names: set[str]) -> list[str]:
    return sorted(
        n for n in names if n.split(".")[0] in BOARD_LIBRARIES or n.startswith("hgin.board")
    )


@pytest.mark.parametrize("args", [("show",), ("gin", "ann", "18"), ("--help",)])
def test_other_commands_never_import_the_board_or_its_libraries(
    hgin_home: Path, args: tuple[str, ...]
) -> None:
    ScoreKeeper(hgin_home).new_match("Ann", "Bob", dealer="Ann")
    names = modules_of(hgin_home, *args)
    assert "hgin.cli.application" in names  # the probe saw the command run
    assert board_modules(names) == []


def test_the_probe_sees_the_board_import_its_libraries(hgin_home: Path) -> None:
    """The check above can fail: `hgin board` itself imports them (here refused before it
    serves, as its port is taken)."""
    pytest.importorskip("uvicorn", reason=NO_EXTRA)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        done = subprocess.run(
            [sys.executable, "-c", LIST_MODULES, "board", "--local", "--port", port],
            env={**os.environ, "HGIN_HOME": str(hgin_home)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr.startswith(f"hgin: cannot listen on 127.0.0.1 port {port}: ")
    names = set(done.stderr.splitlines()[-1].split())
    assert {"starlette", "uvicorn", "segno", "hgin.board.serve"} <= names


def test_without_the_extra_the_board_says_in_one_line_what_to_install(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "hgin.board.serve", raising=False)
    result = run("board", "--local")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        'hgin: the board needs the board extra: pip install "hgin[board]" (from a clone: '
        'pip install ".[board]")\n'
    )


def test_local_and_host_together_are_a_usage_error(run: Run) -> None:
    result = run("board", "--local", "--host", "0.0.0.0")
    assert result.exit_code == 2
    assert "give --local or --host, not both" in result.stderr
