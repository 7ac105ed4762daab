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
from hgin.store.cache import unseal
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
    # `hgin board` is fuzzed up to its start: once its arguments are good it binds its socket,
    # then closes it instead of serving until Ctrl-C (tests/test_board*.py serve it).
    serve = pytest.importorskip("hgin.board.serve")
    monkeypatch.setattr(serve.Board, "run", lambda board: board.socket.close())
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "18").exit_code == 0
    assert run("knock", "bob", "3", "20").exit_code == 0
    return [hgin_home, work]


@settings(
    max_examples=50,
    deadline=None,
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


# -- file contents ---------------------------------------------------------------------------

TEXTS = st.one_of(
    st.sampled_from(["Ann", "Bob", "friendly", "classic", "gin", "knock", "draw", "\x1b[2J", ""]),
    st.text(max_size=6),
)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.floats(), TEXTS)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXTS, inner, max_size=4)),
    max_leaves=12,
)


def toml_text(value: Any, depth: int = 0) -> str:
    """A TOML value's text for any JSON-like value (None becomes a string)."""
    import json as _json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float) and value == value and abs(value) != float("inf"):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_text(v, depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{_json.dumps(k)} = {toml_text(v, depth + 1)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    return _json.dumps(str(value))


@st.composite
def reshaped(draw: st.DrawFn, original: Any) -> Any:
    """The real content with one part replaced by a random shape (or all of it)."""
    import copy

    data = copy.deepcopy(original)
    if not isinstance(data, dict) or not data or draw(st.integers(0, 5)) == 0:
        return draw(JSON_VALUES)
    key = draw(st.sampled_from(sorted(data)))
    if isinstance(data[key], dict) and data[key] and draw(st.booleans()):
        inner = draw(st.sampled_from(sorted(data[key])))
        data[key][inner] = draw(JSON_VALUES)
    elif isinstance(data[key], list) and data[key] and draw(st.booleans()):
        data[key][draw(st.integers(0, len(data[key]) - 1))] = draw(JSON_VALUES)
    else:
        data[key] = draw(JSON_VALUES)
    return data


# Each kind of file hgin reads, with the commands that read it.
FILE_KINDS = {
    "match": (("show",), ("matches",), ("stats",), ("gin", "ann", "5"), ("summary", "-f", "csv")),
    "cache": (("matches",), ("stats",)),
    "presets": (("rules", "--list"), ("new", "Cy", "Di", "--rules", "pub")),
    "series": (("series", "show"), ("series", "list"), ("series", "next")),
    "config": (("config",), ("new",)),
    "import": (("import", "import.json"),),
}


@pytest.fixture
def files_home(fuzz_home: list[Path], run: Run) -> dict[str, Path]:
    """The data folder of `fuzz_home` with one file of every kind; their paths by kind."""
    home, work = fuzz_home
    assert run("rules", "save", "pub", "--gin-bonus", "20").exit_code == 0
    assert run("series", "new", "Cy", "Di", "--to", "500").exit_code == 0
    ann_bob = next((home / "matches").glob("*ann-bob.json")).stem
    assert run("use", ann_bob).exit_code == 0
    assert run("matches").exit_code == 0 and run("stats").exit_code == 0
    assert run("export", "import.json").exit_code == 0
    (home / "config" / "config.toml").write_text('players = ["Ann", "Bob"]\n', encoding="utf-8")
    paths = {
        "match": next(p for p in (home / "matches").glob("*ann-bob.json")),
        "presets": home / "config" / "presets.json",
        "series": next((home / "series").glob("*.json")),
        "config": home / "config" / "config.toml",
        "import": work / "import.json",
    }
    paths["cache"] = home / "cache.json"
    for path in paths.values():
        assert path.is_file()
    return paths


@settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(kind=st.sampled_from(sorted(FILE_KINDS)), data=st.data())
def test_any_file_content_exits_cleanly(
    run: Run, files_home: dict[str, Path], kind: str, data: st.DataObject
) -> None:
    import json as _json

    path = files_home[kind]
    original = path.read_bytes()
    # The cache is checked as a whole: whatever it holds, the list and the statistics show
    # what the match files hold.
    expected = [run(*args).stdout for args in FILE_KINDS[kind]] if kind == "cache" else None
    try:
        if kind == "config":
            value = data.draw(st.dictionaries(TEXTS, JSON_VALUES, max_size=4))
            text = "".join(f"{_json.dumps(k)} = {toml_text(v)}\n" for k, v in value.items())
        elif kind == "cache":
            body = unseal(original)
            assert body is not None
            text = _json.dumps(data.draw(reshaped(_json.loads(body))), ensure_ascii=False)
        else:
            value = data.draw(reshaped(_json.loads(original)))
            text = _json.dumps(value)
        shown = []
        for args in FILE_KINDS[kind]:
            path.write_text(text, encoding="utf-8")  # each command reads it as drawn
            result = run(*args)
            shown.append(result.stdout)
            event(f"{kind}: exit {result.exit_code}")
            assert result.exit_code in (0, 1, 2), (args, text, result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                args,
                text,
                result.exception,
            )
            assert "Traceback" not in result.output
            assert "\x1b" not in result.output, (args, text)
            if result.exit_code == 1:
                assert result.stderr.count("\n") == 1, (args, result.stderr)
        if expected is not None:
            assert shown == expected, text
    finally:
        path.write_bytes(original)


def objects_in(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every non-empty JSON object in parsed data."""
    found = [path] if isinstance(data, dict) and data else []
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, value in items:
        found += objects_in(value, (*path, key))
    return found


def with_key_twice(data: Any, path: tuple[Any, ...], key: str, value: Any) -> str:
    """JSON text of `data` where the object at `path` gives `key` a second time (first, as
    `value`); json.dumps cannot write that, so the object's text is spliced in."""
    import json as _json

    if not path:
        return "{" + f"{_json.dumps(key)}: {_json.dumps(value)}, " + _json.dumps(data)[1:]
    *outer, last = path
    holder = data
    for step in outer:
        holder = holder[step]
    inner = holder[last]
    holder[last] = "\x00spliced"
    text = _json.dumps(data)
    return text.replace(_json.dumps("\x00spliced"), with_key_twice(inner, (), key, value), 1)


@settings(
    max_examples=40,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(kind=st.sampled_from(["match", "presets", "series", "import"]), data=st.data())
def test_a_key_given_twice_is_refused_in_every_json_file(
    run: Run, files_home: dict[str, Path], kind: str, data: st.DataObject
) -> None:
    import json as _json

    path = files_home[kind]
    original = path.read_bytes()
    parsed = _json.loads(original)
    where = data.draw(st.sampled_from(objects_in(parsed)))
    holder = parsed
    for step in where:
        holder = holder[step]
    key = data.draw(st.sampled_from(sorted(holder)))
    text = with_key_twice(parsed, where, key, data.draw(JSON_VALUES))
    try:
        path.write_text(text, encoding="utf-8")
        home = files_home["match"].parent.parent
        before = {
            name: raw for name, raw in snapshot(home).items() if not name.startswith("cache.")
        }
        for args in FILE_KINDS[kind]:
            result = run(*args)
            event(f"{kind}: exit {result.exit_code}")
            if args[0] in ("matches", "stats"):  # a match file the list leaves out, and says so
                assert result.exit_code == 0, (args, result.output)
                assert f"left out match files that cannot be used: {path.stem}" in result.stderr
                continue
            assert result.exit_code == 1, (args, text, result.output)
            problem = f"it gives the key '{key}' twice in one object"
            expected = (
                f"hgin: cannot import {path.name}: {problem}; nothing was imported\n"
                if kind == "import"
                else f"hgin: cannot use {path}: {problem}\n"
            )
            assert result.stderr == expected, (args, text)
        assert {
            name: raw for name, raw in snapshot(home).items() if not name.startswith("cache.")
        } == before
    finally:
        path.write_bytes(original)
