"""Hostile input: markup, escapes and odd Unicode in names, huge numbers, identifiers that try
to leave the data folder, and a data folder that is a file or missing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, snapshot

ShowJson = Callable[..., dict[str, Any]]


def one_clean_line(text: str) -> str:
    """The single stderr line of a refusal; it holds no raw control character."""
    lines = text.splitlines()
    assert len(lines) == 1, lines
    assert all(ch.isprintable() for ch in lines[0]), lines[0]
    return lines[0]


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("[bold red]Rex[/]", "[link=https://example.com]Bo[/link]"),
        ("[/]", "[red"),
        ("Ann\\n", ":smile:"),
    ],
)
def test_markup_in_names_is_printed_literally(
    run: Run, show_json: ShowJson, first: str, second: str
) -> None:
    result = run("new", first, second, "--dealer", second)
    assert result.exit_code == 0, result.output
    assert first in result.stdout
    assert second in result.stdout
    assert show_json()["players"] == [first, second]
    summary = run("summary")
    assert first in summary.stdout
    assert second in summary.stdout


@pytest.mark.parametrize(
    "name",
    [
        "A\x1b[31mnn",  # ANSI colour
        "\x1b]0;pwned\x07Ann",  # terminal title
        "Ann\nBob",
        "Ann\rBob",
        "An\tn",
        "Ann\x00",
        "Ann\u202eboB",  # right-to-left override
        "Ann\u2066x",  # bidi isolate
        "\u200bAnn",  # zero-width space
        "Ann\u2028Bob",  # line separator
        "\ud800",  # lone surrogate
    ],
)
def test_control_and_format_characters_in_names_are_refused(
    run: Run, hgin_home: Path, name: str
) -> None:
    result = run("new", name, "Zed")
    assert result.exit_code == 1
    line = one_clean_line(result.stderr)
    assert line.startswith("hgin: a player name cannot hold control characters (")
    assert not hgin_home.exists()


@pytest.mark.parametrize(
    ("first", "second", "typed", "stored"),
    [
        ("דוד", "فاطمة", "דו", "דוד"),  # right-to-left scripts
        ("Jose\u0301", "Zoe\u0308", "josé", "José"),  # combining marks, stored composed
        ("Z\u0351\u0352\u0353algo", "Bob", "z", "Z\u0353\u0351\u0352algo"),  # marks, reordered
        ("میرزا\u200cزاده", "Bob", "میر", "میرزا\u200cزاده"),  # Persian zero-width non-joiner
        ("👩\u200d👩\u200d👧", "🂡", "👩", "👩\u200d👩\u200d👧"),  # emoji with joiners
        ("ＡＮＮ", "Bob", "ａｎ", "ＡＮＮ"),  # full-width letters
    ],
)
def test_unicode_names_are_kept_and_found(
    run: Run, show_json: ShowJson, first: str, second: str, typed: str, stored: str
) -> None:
    assert run("new", first, second, "--dealer", second).exit_code == 0
    result = run("gin", typed, "10")
    assert result.exit_code == 0, result.output
    data = show_json()
    assert data["players"][0] == stored
    assert data["hands"][0]["winner"] == stored
    assert stored in result.stdout


def test_a_name_of_combining_marks_only_is_refused(run: Run, hgin_home: Path) -> None:
    result = run("new", "\u0301\u0301", "Bob")
    assert result.exit_code == 1
    assert one_clean_line(result.stderr) == "hgin: a player name cannot start with a combining mark"


@pytest.mark.parametrize("length", [41, 10_000, 1_000_000])
def test_very_long_names_are_refused_briefly(run: Run, hgin_home: Path, length: int) -> None:
    result = run("new", "A" * length, "Bob")
    assert result.exit_code == 1
    assert one_clean_line(result.stderr) == "hgin: a player name is at most 40 characters"
    assert not hgin_home.exists()


def test_forty_characters_fit_and_the_sheet_stays_readable(run: Run, show_json: ShowJson) -> None:
    name = "W" * 40
    result = run("new", name, "Bob", "--dealer", "Bob")
    assert result.exit_code == 0
    assert show_json()["players"][0] == name
    assert all(len(line) <= 100 for line in result.stdout.splitlines())


def test_a_long_control_laden_name_is_shown_shortened_and_escaped(run: Run) -> None:
    result = run("new", "\x1b" * 40, "Bob")
    assert result.exit_code == 1
    line = one_clean_line(result.stderr)
    assert "\\x1b" in line
    assert len(line) < 400


# -- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("gin", "ann", "9" * 30), "the opponent's deadwood 999999999999999999999999999999 is far"),
        (("gin", "ann", "-5"), "must be between 0 and 98, not -5"),
        (("gin", "ann", "1e3"), "must be a whole number, not '1e3'"),
        (("gin", "ann", "0x10"), "must be a whole number, not '0x10'"),
        (("gin", "ann", "١٢"), "must be a whole number"),  # Arabic-Indic digits
        (("gin", "ann", "½"), "must be a whole number"),
        (("knock", "ann", "9" * 5000, "3"), "is far too large"),
    ],
)
def test_huge_and_strange_numbers_are_refused(
    run: Run, hgin_home: Path, args: tuple[str, ...], message: str
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 1
    assert message in one_clean_line(result.stderr)
    assert snapshot(hgin_home) == before


def test_minus_zero_is_a_zero(run: Run) -> None:
    """A deadwood of "-0" is a zero: Ann knocks with 3 against Bob's 0, an undercut (3 - 0 + 25)."""
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    result = run("knock", "ann", "3", "-0")
    assert result.exit_code == 0, result.output
    hand = json.loads(run("show", "--json").stdout)["hands"][0]
    assert (hand["winner"], hand["points"]) == ("Bob", 28)


@pytest.mark.parametrize(
    "option",
    ["--target", "--games", "--gin-bonus", "--undercut-bonus", "--box-bonus", "--game-bonus"],
)
@pytest.mark.parametrize("value", ["9" * 40, "-1"])
def test_huge_rule_values_are_refused(run: Run, hgin_home: Path, option: str, value: str) -> None:
    result = run("new", "Ann", "Bob", option, value)
    assert result.exit_code in (1, 2)
    if result.exit_code == 1:
        one_clean_line(result.stderr)
    assert not hgin_home.exists() or snapshot(hgin_home) == {}


# -- identifiers that try to leave the data folder ------------------------------------------

ESCAPES = [
    "../../etc/passwd",
    "../current",
    "..",
    ".",
    "/etc/passwd",
    "~/.bashrc",
    "matches/../../x",
    "..\\..\\windows",
    "a\x00b",
    "%2e%2e%2fetc",
    "-",
    "",
]


@pytest.mark.parametrize("typed", ESCAPES)
def test_match_identifiers_cannot_leave_the_data_folder(
    run: Run, hgin_home: Path, tmp_path: Path, typed: str
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "5").exit_code == 0
    outside = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    passwd = Path("/etc/passwd").read_bytes()
    for args in (
        ("show", "--match", typed),
        ("gin", "ann", "5", "--match", typed),
        ("use", typed),
        ("restore", "--match", typed),
        ("restore", "1", "--match", typed),
        ("restore", typed),
    ):
        result = run(*args)
        assert result.exit_code in (1, 2), args
        if result.exit_code == 1:
            one_clean_line(result.stderr)
        assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == outside
    assert Path("/etc/passwd").read_bytes() == passwd


# -- the data folder itself -------------------------------------------------------------------

EVERY_KIND = (
    ("show",),
    ("summary",),
    ("matches",),
    ("new", "Ann", "Bob"),
    ("gin", "ann", "5"),
    ("draw",),
    ("undo",),
    ("use", "x"),
    ("restore",),
    ("restore", "1"),
)


def test_hgin_home_that_is_a_file(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "not-a-folder"
    home.write_text("precious")
    monkeypatch.setenv("HGIN_HOME", str(home))
    for args in EVERY_KIND:
        result = run(*args)
        assert result.exit_code == 1, args
        assert one_clean_line(result.stderr) == (
            f"hgin: the data folder {home} is a file, not a folder (check $HGIN_HOME)"
        )
    assert home.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["not-a-folder"]


def test_hgin_home_below_a_file(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("precious")
    monkeypatch.setenv("HGIN_HOME", str(blocker / "hgin"))
    for args in EVERY_KIND:
        result = run(*args)
        assert result.exit_code == 1, args
        assert one_clean_line(result.stderr) == (
            f"hgin: the data folder {blocker / 'hgin'} cannot be made: {blocker} is a file "
            "(check $HGIN_HOME)"
        )
    assert blocker.read_text() == "precious"


def test_hgin_home_that_does_not_exist(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "a" / "b" / "c"
    monkeypatch.setenv("HGIN_HOME", str(home))
    # Reading commands explain and create nothing...
    for args in (("show",), ("gin", "ann", "5"), ("restore",)):
        result = run(*args)
        assert result.exit_code == 1
        assert one_clean_line(result.stderr) == (
            "hgin: no match yet: start one with 'hgin new NAME1 NAME2'"
        )
    matches = run("matches")
    assert matches.exit_code == 0
    assert "No matches yet" in matches.stdout
    assert not (tmp_path / "a").exists()
    # ...and the first match creates the folder.
    assert run("new", "Ann", "Bob").exit_code == 0
    assert len(list((home / "matches").glob("*.json"))) == 1
