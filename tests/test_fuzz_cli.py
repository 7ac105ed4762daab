"""Property-based fuzzing of the command line: any argument list, drawn from the real command
words, option names, player names, numbers and junk, ends with exit 0, 1 or 2 and never a
traceback, and a non-zero exit leaves every file byte for byte as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hgin.cli import app
from tests.conftest import Run, snapshot

# Options that would reach outside the test's folders (the user's shell start-up files).
UNSAFE = {"--install-completion", "--show-completion"}


def command_table() -> dict[tuple[str, ...], tuple[list[str], int]]:
    """Every command path of the real app: its option names and how many arguments it takes."""
    table: dict[tuple[str, ...], tuple[list[str], int]] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        names = [
            name
            for param in command.params
            for name in (*param.opts, *param.secondary_opts)
            if name.startswith("-") and name not in UNSAFE
        ]
        arguments = sum(1 for param in command.params if param.param_type_name == "argument")
        table[path] = ([*names, "--help"], arguments)
        for word, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*path, word))

    walk(typer.main.get_command(app), ())
    return table


COMMANDS = command_table()
ALL_OPTIONS = sorted({name for names, _ in COMMANDS.values() for name in names})
PLAYERS = ["ann", "Ann", "BOB", "b", "a", "zed", "", " ", "[red]x[/]", "فاطمة", "Jose\u0301"]
WORDS = [
    "friendly",
    "classic",
    "undercut",
    "knocker",
    "on",
    "off",
    "majority",
    "count",
    "20",
    "2",
    "../../etc/passwd",
    "-",
    "--",
    "7s",
    "A♠",
    "AS 2S 3S 4H 5H 6H 7C 8C 9C KD",
]
NUMBERS = st.one_of(
    st.integers(-5, 120).map(str),
    st.sampled_from(["0", "-0", "+3", "98", "99", "1e3", "0x10", "9" * 30, "١٢", "½", "3.5"]),
)
# Junk without path separators, so that a command that writes a file named by its argument
# (export, --output) can only write into the test's own working folder.
JUNK = st.text(
    st.characters(blacklist_characters="/\\~", blacklist_categories=("Cs",)), max_size=12
)


VALUES = st.one_of(st.sampled_from(PLAYERS), st.sampled_from(WORDS), NUMBERS, NUMBERS, JUNK)


@st.composite
def argument_lists(draw: st.DrawFn) -> list[str]:
    """A command path, usually with as many values as it takes, then a few options (mostly
    its own, often with a value), shuffled now and then."""
    path = draw(st.sampled_from(sorted(p for p in COMMANDS if p)))
    own, arguments = COMMANDS[path]
    count = draw(st.sampled_from([arguments] * 4 + [0, arguments + 1, max(arguments - 1, 0)]))
    values = draw(st.lists(VALUES, min_size=count, max_size=count))
    option = st.one_of(
        st.tuples(st.sampled_from(own), VALUES).map(list),
        st.sampled_from(own).map(lambda name: [name]),
        st.sampled_from(ALL_OPTIONS).map(lambda name: [name]),
    )
    options = [token for part in draw(st.lists(option, max_size=2)) for token in part]
    rest = values + options
    if draw(st.booleans()) and draw(st.booleans()):
        rest = draw(st.permutations(rest))
    if draw(st.sampled_from(range(20))) == 10:  # now and then, junk or a root option first
        return [draw(st.one_of(JUNK, st.sampled_from(COMMANDS[()][0]))), *rest]
    return [*path, *rest]


@pytest.fixture
def fuzz_home(
    run: Run, hgin_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[Path]:
    """A data folder with a match in play; the folders a fuzzed command could touch."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "18").exit_code == 0
    assert run("knock", "bob", "3", "20").exit_code == 0
    return [hgin_home, work]


@settings(
    max_examples=100,
    deadline=2000,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(args=argument_lists())
def test_any_argument_list_exits_cleanly(run: Run, fuzz_home: list[Path], args: list[str]) -> None:
    before = [snapshot(folder) for folder in fuzz_home]
    result = run(*args)
    event(f"exit {result.exit_code}")
    assert result.exit_code in (0, 1, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        result.exception,
    )
    assert "Traceback" not in result.output
    if result.exit_code != 0:
        assert [snapshot(folder) for folder in fuzz_home] == before, args
    if result.exit_code == 1:
        assert result.stderr.startswith("hgin: "), (args, result.stderr)
        assert result.stderr.count("\n") == 1, (args, result.stderr)
