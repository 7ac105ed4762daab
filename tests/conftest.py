"""Shared fixtures: every test gets its own data folder through $HGIN_HOME."""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.testing
from hypothesis import settings
from typer.testing import CliRunner, Result

from hgin.cli import app
from tests.history_data import record_history

# No timing assertions in tests: a loaded machine must not fail a property (speed is measured
# by tests/bench/run.py). CI runs the whole suite on the default Python and again on the other
# supported ones; the second time, properties without their own example count try fewer cases.
# Under CI (the variable CI set, as `.ci/run` and most CI services do) the examples are the same
# on every run, so a clean clone is red only for a reason in the code; the runs at a desk go
# on searching for new ones.
DERANDOMIZE = bool(os.environ.get("CI"))
settings.register_profile("default", deadline=None, derandomize=DERANDOMIZE)
settings.register_profile("quick", max_examples=25, deadline=None, derandomize=DERANDOMIZE)
settings.load_profile(os.environ.get("HGIN_HYPOTHESIS_PROFILE", "default"))

# A shell starts a background job that ignores Ctrl-C, and every process the tests start would
# inherit that: the tests of Ctrl-C need it to interrupt, here and in those processes.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Typer's CliRunner builds the app's whole Click command tree again on every invoke, which costs
# more than the command itself; the suite builds each app's tree once (as a real run does).
typer.testing._get_command = functools.cache(typer.testing._get_command)


@pytest.fixture(scope="session", autouse=True)
def shared_bytecode(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Where Python is told not to write bytecode, every hgin process a test starts would
    compile hgin again: they share the compiled modules in this session's temporary folder
    (never in the source tree)."""
    with pytest.MonkeyPatch.context() as patch:
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            patch.delenv("PYTHONDONTWRITEBYTECODE")
            patch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path_factory.mktemp("bytecode")))
        yield


@pytest.fixture(autouse=True)
def hgin_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point hgin at a fresh folder, in one time zone, and keep output plain and wide enough
    to read."""
    home = tmp_path / "hgin-home"
    monkeypatch.setenv("HGIN_HOME", str(home))
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return home


Run = Callable[..., Result]


@pytest.fixture
def run() -> Run:
    """Invoke the real CLI: run("gin", "ann", "18") -> Result (stdout and stderr apart)."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input)

    return invoke


@pytest.fixture
def show_json(run: Run) -> Callable[..., dict[str, Any]]:
    """The current sheet as `hgin show --json` prints it."""

    def read(*args: str) -> dict[str, Any]:
        result = run("show", "--json", *args)
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    return read


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes, to prove a refusal changed nothing."""
    if not folder.exists():
        return {}
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def flat(text: str) -> str:
    """Text with every run of white space made one space (Rich wraps long sentences)."""
    return " ".join(text.split())


def recorded_home(home: Path, *commands: tuple[str, ...]) -> Path:
    """A data folder made by running `commands` through the CLI (for module-wide templates)."""
    runner = CliRunner()
    for args in commands:
        result = runner.invoke(app, list(args), env={"HGIN_HOME": str(home)})
        assert result.exit_code == 0, result.output
    return home


@pytest.fixture(scope="session")
def recorded_homes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[Any, ...], Path]:
    """The data folders `prepared` has recorded in this session, by their commands."""
    return {}


@pytest.fixture
def prepared(
    recorded_homes: dict[tuple[Any, ...], Path],
    tmp_path_factory: pytest.TempPathFactory,
    hgin_home: Path,
) -> Callable[..., Path]:
    """prepared(("new", "Ann", "Bob"), ("gin", "ann", "18")): this test's data folder as those
    commands leave it; recorded through the CLI once per session, then copied."""

    def prepare(*commands: tuple[str, ...]) -> Path:
        if commands not in recorded_homes:
            folder = tmp_path_factory.mktemp("prepared") / "home"
            recorded_homes[commands] = recorded_home(folder, *commands)
        shutil.copytree(recorded_homes[commands], hgin_home)
        return hgin_home

    return prepare


def copied_match(template: Path, home: Path) -> Path:
    """A copy of a template data folder as `home`; its one match file."""
    shutil.copytree(template, home)
    (path,) = (home / "matches").glob("*.json")
    return path


@pytest.fixture(scope="session")
def history_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The five matches of tests/history_data.py, recorded once per session."""
    return record_history(tmp_path_factory.mktemp("history") / "home")


@pytest.fixture
def history(history_template: Path, hgin_home: Path) -> Path:
    """This test's data folder: a copy of the five recorded matches."""
    shutil.copytree(history_template, hgin_home)
    return hgin_home


@pytest.fixture
def with_match(hgin_home: Path) -> Path:
    """A data folder whose current match, Ann v Bob, has one hand (for the board's tests)."""
    from hgin.scorekeeper import ScoreKeeper

    keeper = ScoreKeeper(hgin_home)
    keeper.new_match("Ann", "Bob", dealer="Ann")
    keeper.gin("Ann", 18)
    return hgin_home


@pytest.fixture
def board(with_match: Path) -> Iterator[Any]:
    """The real `hgin board --scorer` serving `with_match`, stopped after the test."""
    from tests.board_process import Board

    running = Board(with_match, "--scorer")
    yield running
    running.stop()
