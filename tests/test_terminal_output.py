"""What hgin prints when the output is not an ordinary UTF-8 terminal: a full disk behind
standard output (in real processes), and (below) other encodings (through the CLI in this
process, with a real process for each way the encoding reaches hgin: its output and its input)."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hgin.cli import app
from tests.conftest import Run, recorded_home, snapshot

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
@pytest.mark.parametrize(
    "args", [("show",), ("show", "--json"), ("matches",), ("stats",), ("rules",)]
)
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


# -- any terminal, any encoding -------------------------------------------------------------

ENCODINGS = ("ascii", "latin-1", "cp1252")
CARDS = "As 2s 3s 4h 5h 6h 7d 8d 9d Tc Jc"
# Reading commands over the template folder, each with the standard input it reads.
READING: list[tuple[tuple[str, ...], str]] = [
    (("show",), ""),
    (("summary",), ""),
    (("summary", "-f", "markdown"), ""),
    (("summary", "-f", "csv"), ""),
    (("summary", "-f", "text", "-m", "li"), ""),
    (("stats",), ""),
    (("matches",), ""),
    (("rules",), ""),
    (("count", CARDS), ""),
    (("settle", "--stake", "0.05", "--currency", "€"), ""),
    (("settle", "-m", "li"), ""),
    (("log",), ""),
    (("log", "-m", "li", "--last", "1"), ""),
    # The journal numbers each change, so a hand and its undo would print other numbers on
    # every run: a count and a show leave the match (and its journal) as it was.
    (("play",), "count 2s 3s 4s 5h 6h 7h 8c 9c tc jc\nbogus\nshow\n"),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished one-game match Zoë v 李明, then a classic Oklahoma match Zoë v Ann in play
    whose hands need every symbol: a doubled gin (×), an undercut (−), open and closed games."""
    return recorded_home(
        tmp_path_factory.mktemp("encodings") / "home",
        ("new", "Zoë", "李明", "--games", "1", "--target", "50", "--dealer", "李明"),
        ("gin", "zo", "30"),
        ("new", "Zoë", "Ann", "--rules", "classic", "--oklahoma", "--dealer", "Ann"),
        ("gin", "zo", "40", "-u", "As"),
        ("knock", "ann", "3", "30", "-u", "9h"),
        ("knock", "zo", "9", "7", "-u", "Th"),
        ("gin", "zo", "20", "-u", "2c"),
    )


def run_in(home: Path, args: tuple[str, ...], encoding: str, stdin: str = "", **env: str) -> Ran:
    """`hgin ARGS` through the CLI with standard streams in `encoding`, in this process (the
    streams' encoding is all hgin looks at; `in_process` below proves a real one agrees)."""
    result = CliRunner(charset=encoding).invoke(
        app,
        list(args),
        input=stdin.encode(encoding, "replace"),
        env={"HGIN_HOME": str(home), **env},
    )
    crashed = not isinstance(result.exception, SystemExit | None)
    return Ran(result.exit_code, result.stdout_bytes, result.stderr_bytes, encoding, crashed)


def in_process(home: Path, args: tuple[str, ...], encoding: str, stdin: bytes = b"") -> Ran:
    """`hgin ARGS` in a real process whose standard streams use `encoding`."""
    done = subprocess.run(
        [sys.executable, "-m", "hgin", *args],
        env={**os.environ, "HGIN_HOME": str(home), "PYTHONIOENCODING": encoding},
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr, encoding, b"Traceback" in done.stderr)


class Ran:
    """A finished command; its output must decode strictly in the encoding it was given."""

    def __init__(self, code: int, out: bytes, err: bytes, encoding: str, crashed: bool) -> None:
        self.code = code
        self.out = out.decode(encoding)
        self.err = err.decode(encoding)
        self.crashed = crashed  # ended in a traceback rather than in one line and a status


def numbers(text: str) -> list[str]:
    return re.findall(r"[0-9]+", text)


@pytest.fixture
def home(template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "home"
    shutil.copytree(template, copy)
    return copy


@pytest.mark.parametrize(("args", "stdin"), READING, ids=[" ".join(a) for a, _ in READING])
def test_every_command_prints_in_any_encoding(
    home: Path, args: tuple[str, ...], stdin: str
) -> None:
    utf8 = run_in(home, args, "utf-8", stdin)
    assert not utf8.crashed
    for encoding in ENCODINGS:
        other = run_in(home, args, encoding, stdin)
        assert (other.code, other.crashed) == (utf8.code, False), other.err
        assert numbers(other.out) == numbers(utf8.out), encoding
        assert other.err.count("\n") == utf8.err.count("\n")


def test_play_ends_with_the_same_refusals_in_any_encoding(home: Path) -> None:
    for encoding in ("utf-8", *ENCODINGS):
        ran = run_in(home, ("play",), encoding, "bogus\nknock ann 2 20 -u 3d\nbogus\nbogus\nundo\n")
        assert ran.code == 1
        assert ran.err.splitlines()[-1] == (
            f"hgin: refused 3 lines: 1, 3{'–' if encoding == 'utf-8' else '-'}4; "
            "every other line was done"
        )


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_recording_a_hand_in_any_encoding(home: Path, encoding: str) -> None:
    ran = in_process(home, ("gin", "ann", "12", "-u", "5c"), encoding)
    assert ran.code == 0, ran.err
    assert "25 + 12 = 37" in ran.out
    assert "✓" not in ran.out and "━" not in ran.out
    assert "* 130" in ran.out  # game I won, as "✓ 130" on a UTF-8 terminal
    name = "Zoe" if encoding == "ascii" else "Zoë"  # as the encoding allows
    assert ran.out.startswith(f"{name} v Ann / classic ")
    undone = in_process(home, ("undo",), encoding)
    assert (undone.code, undone.crashed) == (0, False)


def test_ascii_keeps_separator_minus_and_not_entered_apart(home: Path) -> None:
    shown = run_in(home, ("show",), "utf-8", HGIN_ASCII="1").out
    assert ". not entered yet / * game won" in " ".join(shown.split())
    summary = run_in(home, ("summary",), "utf-8", HGIN_ASCII="1", COLUMNS="40").out
    assert "Zoë dealt / upcard 9h / 30 - 3 = 27" in summary  # separator, minus
    assert "after it (Zoë v Ann): ." in summary  # no game entered
    assert "Total                        400    27" in summary
    assert " - - " not in summary


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_sentences_and_formulas_in_ascii(home: Path, encoding: str) -> None:
    ran = run_in(home, ("summary", "-f", "markdown"), encoding)
    assert ran.code == 0
    assert "9 - 7 + 25 = 27" in ran.out  # the undercut's minus sign
    assert "(25 + 40) x 2 = 130" in ran.out  # the gin doubled by the ace of spades
    utf8 = run_in(home, ("summary", "-f", "markdown"), "utf-8")
    assert "9 − 7 + 25 = 27" in utf8.out and "(25 + 40) × 2 = 130" in utf8.out


@pytest.mark.parametrize("form", ["json", "html", "svg"])
def test_documents_lose_nothing_in_any_encoding(home: Path, form: str) -> None:
    utf8 = run_in(home, ("summary", "-f", form), "utf-8")
    for encoding in ENCODINGS:
        other = run_in(home, ("summary", "-f", form), encoding)
        assert other.code == 0
        if form == "json":
            assert json.loads(other.out) == json.loads(utf8.out)
            assert "Zo\\u00eb" in other.out
        else:
            assert html.unescape(other.out) == html.unescape(utf8.out)


JSON_COMMANDS = [("show", "--json"), ("matches", "--json"), ("stats", "--json"), ("log", "--json")]


@pytest.mark.parametrize("args", JSON_COMMANDS)
def test_json_for_scripts_loses_nothing_in_any_encoding(home: Path, args: tuple[str, ...]) -> None:
    utf8 = run_in(home, args, "utf-8")
    for encoding in ENCODINGS:
        other = run_in(home, args, encoding)
        assert other.code == 0
        assert json.loads(other.out) == json.loads(utf8.out)
    # Asking for ASCII changes what hgin draws for people, never the data for scripts.
    assert run_in(home, args, "utf-8", HGIN_ASCII="1").out == utf8.out


def test_files_written_with_o_are_utf8_whatever_the_terminal(home: Path, tmp_path: Path) -> None:
    for form, suffix in (("text", "txt"), ("markdown", "md")):
        target = tmp_path / f"summary.{suffix}"
        ran = run_in(home, ("summary", "-f", form, "-o", str(target)), "ascii")
        assert ran.code == 0, ran.err
        text = target.read_text(encoding="utf-8")
        assert "Zoë" in text and "−" in text


def test_ascii_can_be_asked_for_on_a_utf8_terminal(home: Path) -> None:
    from hgin.cli.streams import LONE_DASH
    from hgin.reports.symbols import ascii_table

    utf8 = run_in(home, ("show",), "utf-8")
    asked = run_in(home, ("show",), "utf-8", HGIN_ASCII="1")
    plain = LONE_DASH.sub(".", utf8.out).translate(ascii_table())
    assert asked.out == plain  # the same layout, plain symbols
    assert "Zoë" in asked.out  # names are not symbols: the terminal can show them
    assert not set(asked.out) & set("✓–━█░·")
    assert run_in(home, ("show",), "utf-8", HGIN_ASCII="0").out == utf8.out


def test_ascii_can_be_set_in_the_config_file(home: Path) -> None:
    utf8 = run_in(home, ("show",), "utf-8")
    (home / "config").mkdir(exist_ok=True)
    (home / "config" / "config.toml").write_text("ascii = true\n", encoding="utf-8")
    asked = run_in(home, ("show",), "utf-8")
    assert "✓" not in asked.out and "━" not in asked.out
    assert numbers(asked.out) == numbers(utf8.out)
    shown = run_in(home, ("config",), "utf-8")
    assert "Drawing: plain ASCII, no symbols (set in the file)" in shown.out
    # The variable wins over the file.
    assert run_in(home, ("show",), "utf-8", HGIN_ASCII="0").out == utf8.out


def test_play_refuses_a_line_that_does_not_decode(home: Path) -> None:
    done = in_process(home, ("play",), "utf-8", b"gin zo\xeb 10\nknock ann 2 20 -u 3d\n")
    assert (done.code, done.crashed) == (1, False)
    assert done.err.splitlines() == [
        "hgin: the line is not utf-8 text (byte 0xeb at column 7); nothing was done with it",
        "hgin: refused line 1; every other line was done",
    ]
    assert "Knock: Ann scores" in " ".join(done.out.split())


def test_play_in_an_ascii_locale_refuses_what_it_cannot_read(home: Path) -> None:
    ran = run_in(home, ("play",), "ascii")
    done = in_process(home, ("play",), "ascii", "gin zoë 10\nknock ann 2 20 -u 3d\n".encode())
    assert ran.code == 0
    assert (done.code, done.crashed) == (1, False)
    assert done.err.splitlines()[-1] == "hgin: refused line 1; every other line was done"
    assert "not ascii text" in done.err


# Printable names from many scripts, without digits of any kind (so that the numbers on the
# page can be compared) and not starting with '-' (an option).
NAME_CHARS = st.characters(
    categories=("Lu", "Ll", "Lo", "Lm", "Mn", "Pd", "Po", "Sm", "So", "Zs"),
    exclude_characters="-",
)
NAMES = st.text(NAME_CHARS, min_size=1, max_size=12).filter(lambda n: n.strip() == n)


@settings(max_examples=15, deadline=None)
@example(first="Zoë", second="\uf905", encoding="ascii")  # a name hgin stores normalized
@example(first=":", second="\u3358", encoding="shift_jis")  # '㍘': its plain form is '0点'
@given(
    first=NAMES,
    second=NAMES,
    encoding=st.sampled_from(["ascii", "latin-1", "cp1252", "cp437", "koi8-r", "shift_jis"]),
)
def test_any_names_print_in_any_encoding(first: str, second: str, encoding: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {"HGIN_HOME": folder, "COLUMNS": "80", "NO_COLOR": "1"}
        utf8, other = CliRunner(env=env), CliRunner(charset=encoding, env=env)
        made = utf8.invoke(app, ["new", first, second, "--dealer", second])
        assume(made.exit_code == 0)  # a name hgin refuses is another test's business
        recorded = other.invoke(app, ["gin", first, "18"])
        assert recorded.exit_code == 0, recorded.output
        assert recorded.exception is None
        for args in (["show"], ["summary"], ["summary", "-f", "markdown"], ["matches"]):
            plain = utf8.invoke(app, args)
            shown = other.invoke(app, args)
            assert (shown.exit_code, shown.exception) == (plain.exit_code, None), shown.output
            shown.stdout_bytes.decode(encoding)  # nothing the encoding cannot hold
            assert numbers(shown.stdout) == numbers(plain.stdout)
        # JSON loses nothing: the names as stored (normalized as hgin stores every name).
        data = json.loads(other.invoke(app, ["show", "--json"]).stdout)
        assert data == json.loads(utf8.invoke(app, ["show", "--json"]).stdout)
