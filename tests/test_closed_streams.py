"""Streams that fail and Ctrl-C: a closed or full output, a closed input, a failure after a
save, an interrupt at any moment. Each ends in one line on stderr, never a traceback; a saved
change exits 0 (a script must not record it again), a reader that cannot print exits 1."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from hgin.cli import render
from hgin.cli.streams import OutputFront
from hgin.store import guard
from hgin.store.matches import Store
from tests.conftest import Run, snapshot

pytestmark = pytest.mark.skipif(
    os.name != "posix" or shutil.which("bash") is None, reason="closes streams in bash"
)

CLOSED = "hgin: cannot write the output: standard output is closed\n"
FULL = "hgin: cannot write the output: No space left on device\n"
PLAYED_UNSHOWN = "hgin: every hand entered was saved, but the output failed (Broken pipe)\n"
SAVED_UNSHOWN = "hgin: the change was saved, but could not be shown (standard output is closed)\n"


def shell(line: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m hgin ARGS` followed by the shell redirections `line` (inherits $HGIN_HOME)."""
    command = shlex.join([sys.executable, "-m", "hgin", *args])
    return subprocess.run(
        ["bash", "-c", f"{command} {line}"],  # bash: what --show-completion is asked for
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def two_hands(run: Run) -> None:
    for args in (("new", "Ann", "Bob", "--dealer", "Ann"), ("gin", "ann", "18"), ("draw",)):
        assert run(*args).exit_code == 0


READERS = [
    ("show",),
    ("show", "--json"),
    *(("summary", "-f", form) for form in ("text", "markdown", "html", "svg", "csv", "json")),
    ("matches",),
    ("matches", "--json"),
    ("log",),
    ("rules",),
    ("rules", "--json"),
    ("stats",),
    ("stats", "--json"),
    ("stats", "--format", "html"),
    ("settle", "--json"),
    ("config", "--json"),
    ("export", "-"),
]


def test_a_reader_with_its_output_closed_says_so_and_exits_1(
    two_hands: None, hgin_home: Path
) -> None:
    before = snapshot(hgin_home)
    for args in READERS:
        done = shell(">&-", *args)
        assert (done.returncode, done.stderr) == (1, CLOSED), args
    assert snapshot(hgin_home).keys() - before.keys() <= {"cache.tsv"}


def test_a_hand_saved_with_the_output_closed_exits_0(two_hands: None, show_json) -> None:
    done = shell(">&-", "gin", "bob", "5")
    assert (done.returncode, done.stderr) == (0, SAVED_UNSHOWN)
    assert show_json()["hands"][-1]["winner"] == "Bob"


def with_the_reader_gone(*args: str, lines: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m hgin ARGS` writing into a pipe whose reader has already gone (`| head -c1`
    once head has read its byte): every write fails with EPIPE."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        command = [sys.executable, "-m", "hgin", *args]
        return subprocess.run(
            command,
            input=lines,
            stdout=writer,
            capture_output=False,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)


def test_a_hand_saved_for_a_reader_that_went_away_exits_0(two_hands: None, show_json) -> None:
    done = with_the_reader_gone("gin", "bob", "5")
    saved = "hgin: the change was saved, but could not be shown (Broken pipe)\n"
    assert (done.returncode, done.stderr) == (0, saved)
    assert show_json()["hands"][-1]["winner"] == "Bob"


def test_a_hand_played_for_a_reader_that_went_away_exits_0(
    run: Run, show_json, two_hands: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[str] = []

    def reader_leaves_after_the_first_sheet(front: Any, text: str) -> None:
        if any("Next deal" in w for w in written):
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
        written.append(text)

    with monkeypatch.context() as patch:
        patch.setattr(OutputFront, "write_raw", reader_leaves_after_the_first_sheet)
        result = run("play", input="gin ann 7\ngin bob 8\n")
    assert (result.exit_code, result.stderr) == (0, PLAYED_UNSHOWN), result.stdout
    assert [h["winner"] for h in show_json()["hands"]] == ["Ann", None, "Ann"]


def test_a_closed_input_is_one_line(two_hands: None, hgin_home: Path) -> None:
    before = snapshot(hgin_home)
    done = shell("<&-", "import", "-")
    assert (done.returncode, done.stderr) == (
        1,
        "hgin: cannot import stdin: standard input is closed; nothing was imported\n",
    )
    done = shell("<&-", "play")
    assert (done.returncode, done.stderr) == (
        1,
        "hgin: standard input is closed: there are no lines to play\n",
    )
    assert snapshot(hgin_home) == before


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["--show-completion", "bash"]])
def test_help_and_version_on_a_full_output_are_one_line(args: list[str]) -> None:
    done = shell(">/dev/full", *args)
    assert (done.returncode, done.stderr) == (1, FULL)


# -- a failure once the change is saved ------------------------------------------------------


def test_an_unlock_that_fails_after_the_save_exits_0(
    run: Run, show_json, two_hands: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = fcntl.flock

    def flock(fd: int, operation: int) -> None:
        if operation == fcntl.LOCK_UN:
            raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))
        real(fd, operation)

    monkeypatch.setattr(guard.fcntl, "flock", flock)
    result = run("gin", "bob", "7")
    assert (result.exit_code, result.stderr) == (0, "")
    assert len(show_json()["hands"]) == 3


@pytest.mark.parametrize("args", [["notice"], ["matches"], ["gin", "ann", "4"]])
def test_closing_the_lock_with_an_error_changes_nothing(
    run: Run, two_hands: None, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    assert run("rules", "set", "rolling", "on").exit_code == 0
    failing = failing_close(monkeypatch, lambda path: path.endswith(".lock"))
    result = run(*args)
    assert failing, "the lock was never closed"
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert (result.exit_code, result.stderr) == (0, "")


def failing_close(monkeypatch: pytest.MonkeyPatch, which: Any) -> list[int]:
    """Make os.close report EIO (after closing) for the files whose path `which` accepts;
    the descriptors closed so."""
    real_open, real_close = os.open, os.close
    chosen: set[int] = set()
    failed: list[int] = []

    def fake_open(path: Any, *args: Any, **kwargs: Any) -> int:
        fd = real_open(path, *args, **kwargs)
        if which(os.fspath(path)):
            chosen.add(fd)
        return fd

    def fake_close(fd: int) -> None:
        real_close(fd)
        if fd in chosen:
            chosen.discard(fd)
            failed.append(fd)
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "close", fake_close)
    return failed


def test_a_refusal_whose_first_stderr_write_fails_still_exits_1(
    run: Run, two_hands: None, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import typer

    real = typer.echo
    calls: list[str] = []

    def echo(message: Any = None, *args: Any, err: bool = False, **kwargs: Any) -> None:
        if err and not calls:
            calls.append(str(message))
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(message, *args, err=err, **kwargs)

    monkeypatch.setattr(typer, "echo", echo)
    before = snapshot(hgin_home)
    result = run("gin", "zed", "3")
    assert calls == ["hgin: 'zed' is not a player in this match (Ann or Bob)"]
    assert isinstance(result.exception, SystemExit)
    assert result.exit_code == 1
    assert snapshot(hgin_home) == before


# -- Ctrl-C ----------------------------------------------------------------------------------


def test_ctrl_c_during_the_save_keeps_the_hand_and_exits_0(
    run: Run, show_json, two_hands: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Store.save

    def save(self: Store, match: Any) -> Any:
        kept = real(self, match)
        # Ctrl-C the moment the file is written, sent to this thread: under pytest-xdist the
        # test may not run in the main thread, and a signal sent to the process would land in
        # a thread that does not hold it back, as the command's own thread does.
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        return kept

    monkeypatch.setattr(Store, "save", save)
    result = run("gin", "bob", "9")
    assert (result.exit_code, result.stderr) == (0, "hgin: interrupted; the change was saved\n")
    assert show_json()["hands"][-1]["winner"] == "Bob"


def test_ctrl_c_while_a_saved_hand_is_shown_exits_0(
    run: Run, show_json, two_hands: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(render, "print_sheet", interrupted)
    result = run("knock", "ann", "3", "20")
    assert (result.exit_code, result.stderr) == (0, "hgin: interrupted; the change was saved\n")
    assert len(show_json()["hands"]) == 3


def test_ctrl_c_in_a_reader_is_one_line_and_130(
    run: Run, two_hands: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(render, "print_sheet", interrupted)
    result = run("show")
    assert (result.exit_code, result.stderr) == (130, "hgin: interrupted\n")


# Sends the process Ctrl-C while Python imports Typer, the bulk of a command's start-up.
INTERRUPTED_START = """
import builtins, os, signal, sys
real_import = builtins.__import__

def importing(name, *args, **kwargs):
    if name == "typer":
        builtins.__import__ = real_import
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, *args, **kwargs)

builtins.__import__ = importing
sys.argv = ["hgin", "show"]
from hgin.cli import main
main()
"""


def test_ctrl_c_during_start_up_is_one_line(two_hands: None) -> None:
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_START],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, "hgin: interrupted\n", "")


# -- smaller ---------------------------------------------------------------------------------


def test_a_match_file_that_cannot_be_read_is_named_when_a_player_is_asked_for(
    run: Run, two_hands: None, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (path,) = (hgin_home / "matches").glob("*.json")
    real_open = os.open

    def denied(name: Any, *args: Any, **kwargs: Any) -> int:
        if os.fspath(name) == str(path):  # as a file of mode 000 is, even to root here
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    result = run("use", "ann")
    assert (result.exit_code, result.stderr) == (
        1,
        f"hgin: cannot read {path}: Permission denied\n",
    )


@pytest.mark.parametrize("kind", ["fifo", "folder", "link to /dev/zero"])
def test_something_else_in_a_match_files_place_is_left_out_and_said(
    run: Run, two_hands: None, hgin_home: Path, kind: str
) -> None:
    odd = hgin_home / "matches" / "2020-01-01-odd.json"
    if kind == "fifo":
        os.mkfifo(odd)
    elif kind == "folder":
        odd.mkdir()
    else:
        odd.symlink_to("/dev/zero")
    result = run("matches", "--json")
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)) == 1
    assert result.stderr == (
        "hgin: left out match files that cannot be used: 2020-01-01-odd "
        "(see 'hgin show --match ID')\n"
    )


def test_an_error_closing_a_file_that_was_read_changes_nothing(
    run: Run, two_hands: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    failed = failing_close(monkeypatch, lambda path: "/matches/" in path)
    result = run("show")
    assert failed, "no match file was read"
    assert (result.exit_code, result.stderr) == (0, "")
    assert "Ann" in result.stdout


def test_a_refusal_is_one_line_even_when_reading_noticed_something(
    run: Run, two_hands: None, hgin_home: Path
) -> None:
    (path,) = (hgin_home / "matches").glob("*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["sheet"]["totals"]["Bob"] = 1  # a stored sheet that disagrees with its hands
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("gin", "zed", "3")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1, result.stderr
