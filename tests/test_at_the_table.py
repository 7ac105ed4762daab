"""What players meet at the table: play's greeting and keys, messages that name the right
things, finding a match by a player, and help without internals."""

from __future__ import annotations

import fcntl
import json
import os
import platform
import pty
import re
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Run, flat, snapshot

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# The system calls that Python's line editing waits for a key in (select, poll and their p-
# forms), by the numbers /proc/PID/syscall shows on each machine.
WAITING_CALLS = {"x86_64": {"7", "23", "270", "271"}, "aarch64": {"72", "73"}}


class Pty:
    """`hgin play` run in a pseudo-terminal that is its controlling terminal, so that Ctrl-C
    is the terminal's interrupt key and Ctrl-D its end of input, as for a person."""

    def __init__(self, home: Path, *args: str) -> None:
        if platform.machine() not in WAITING_CALLS or not Path("/proc/self/syscall").exists():
            pytest.skip("needs Linux's /proc/PID/syscall to see line editing wait for a key")
        master, slave = pty.openpty()
        env = {**os.environ, "HGIN_HOME": str(home), "COLUMNS": "80", "NO_COLOR": "1"}
        env.pop("FORCE_COLOR", None)

        def take_terminal() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(
            [sys.executable, "-m", "hgin", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
            preexec_fn=take_terminal,
        )
        os.close(slave)
        self.master = master
        self.seen = ""

    def read_until(self, wanted: str, limit: float = 120.0) -> str:
        """Output up to and including `wanted` (waits for it; fails if it never comes)."""
        deadline = time.monotonic() + limit
        while wanted not in self.seen:
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {wanted!r} in {self.seen!r}")
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk and self.process.poll() is not None:
                    raise AssertionError(f"hgin ended before {wanted!r}: {self.seen!r}")
                self.seen += ANSI.sub("", chunk.decode("utf-8", "replace"))
        head, _, self.seen = self.seen.partition(wanted)
        return head + wanted

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def typed_line(self, text: str) -> None:
        """Type `text` and wait for line editing to show it, and to wait for keys again.

        Python's line editing notices Ctrl-C only while it waits for a key: one that comes
        while it draws the line waits for the next key (no person is that quick).
        """
        self.type(text.encode())
        self.read_until(text)
        self.waiting_for_a_key()

    def empty_line(self) -> None:
        """An empty line that line editing is known to be reading (a key typed and erased)."""
        self.type(b"x")
        self.read_until("x")
        self.type(b"\x7f")
        self.read_until("\x08")
        self.waiting_for_a_key()

    def waiting_for_a_key(self, limit: float = 120.0) -> None:
        """Wait until line editing, having drawn what was typed, waits for the next key: the
        process is blocked in the system call that waits on the terminal (Linux shows it in
        /proc/PID/syscall)."""
        calls = WAITING_CALLS.get(platform.machine(), set())
        path = Path(f"/proc/{self.process.pid}/syscall")
        deadline = time.monotonic() + limit
        while path.read_text().split()[0] not in calls:
            if time.monotonic() > deadline:
                raise AssertionError("hgin play never waited for a key")
            time.sleep(0.01)  # looking again, not waiting for a guessed time

    def close(self) -> int:
        try:
            return self.process.wait(timeout=120)
        finally:
            os.close(self.master)


@pytest.fixture
def ann_bob(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0


def test_play_greets_with_the_players_of_the_match(run: Run, hgin_home: Path) -> None:
    assert run("new", "Mary Jane", "Bob", "--dealer", "Bob").exit_code == 0
    session = Pty(hgin_home)
    session.read_until('Type a hand: gin "Mary Jane" 18, knock Bob 7 12, draw; or help.\r\n')
    session.read_until("hand 1> ")
    session.type(b"\x04")
    session.read_until("Bye: every hand is saved (match 2026-")
    assert session.close() == 0


def test_ctrl_c_clears_the_line_and_a_second_one_leaves(
    run: Run, show_json, hgin_home: Path, ann_bob: None
) -> None:
    session = Pty(hgin_home)
    session.read_until("hand 1> ")
    session.typed_line("gin ann 10")  # typed, then thought better of it
    session.type(b"\x03")
    assert session.read_until("hand 1> ").strip() == (
        "(line cleared: Ctrl-C again or Ctrl-D leaves)\r\nhand 1>"
    )
    session.typed_line("gin bob 5")
    session.type(b"\r")
    assert "Gin: Bob scores 25 + 5 = 30 in game I." in session.read_until("hand 2> ")
    session.typed_line("knock ann 3 9")
    session.type(b"\x03")
    session.read_until("(line cleared: Ctrl-C again or Ctrl-D leaves)\r\nhand 2> ")
    session.empty_line()
    session.type(b"\x03")
    assert "Bye: every hand is saved" in session.read_until(").\r\n")
    assert session.close() == 0
    assert [(h["winner"], h["points"]) for h in show_json()["hands"]] == [("Bob", 30)]


def test_ctrl_c_on_an_empty_line_asks_for_a_second(
    run: Run, hgin_home: Path, ann_bob: None
) -> None:
    session = Pty(hgin_home)
    session.read_until("hand 1> ")
    session.empty_line()
    session.type(b"\x03")
    session.read_until("(Ctrl-C again or Ctrl-D leaves)\r\nhand 1> ")
    session.typed_line("draw")
    session.type(b"\r")
    session.read_until("hand 2> ")
    session.empty_line()
    session.type(b"\x03")  # the line typed in between starts the count again
    session.read_until("(Ctrl-C again or Ctrl-D leaves)\r\nhand 2> ")
    session.empty_line()
    session.type(b"\x03")
    session.read_until("Bye: every hand is saved")
    assert session.close() == 0


def test_ctrl_d_leaves_at_once(run: Run, hgin_home: Path, ann_bob: None) -> None:
    session = Pty(hgin_home)
    session.read_until("hand 1> ")
    session.type(b"\x04")
    session.read_until("Bye: every hand is saved")
    assert session.close() == 0


def test_over_the_greeting_and_the_refusal_list_every_word_that_works(
    run: Run, hgin_home: Path, ann_bob: None
) -> None:
    for _ in range(3):
        assert run("gin", "ann", "98").exit_code == 0
    session = Pty(hgin_home)
    start = session.read_until("over> ")
    assert (
        "The match is over: nothing more to record (count, undo, redo, log, restore, show, "
        "summary, edit, delete, help and quit still work). Next: new (same players and "
        "rules; in a series, its next match), or new NAME1 NAME2 [options]." in flat(start)
    )
    assert "Type a word, or help." in flat(start)
    assert flat(start).count("Next: new") == 1  # said once
    session.type(b"g a 3\r")
    assert flat(session.read_until("over> ")) == (
        "g a 3 hgin: the match is over, no hand can be recorded: count, undo, redo, log, "
        "restore, show, summary, edit, delete, help and quit still work over>"
    )
    session.type(b"q\r")
    session.read_until("Bye")
    assert session.close() == 0


def test_a_doubled_shutout_adds_up_to_the_bonus_on_the_sheet(run: Run) -> None:
    run("new", "Ann", "Bob", "--shutout", "double", "--game-bonus", "100", "--box-bonus", "25")
    result = run("gin", "ann", "80")
    assert result.exit_code == 0
    assert "+355" in result.stdout  # the winner's bonuses on the sheet
    assert flat(result.stdout).endswith(
        "Gin: Ann scores 25 + 80 = 105 in game I; game I closes, Ann wins it (game bonus 100; "
        "boxes Ann 25; Bob shut out, so Ann's 105 + 100 + 25 = 230 doubles to 460; "
        "bonuses 100 + 25 + 230 = +355)."
    )


def test_a_doubled_shutout_without_boxes(run: Run) -> None:
    run("new", "Ann", "Bob", "--shutout", "double", "--game-bonus", "50", "--target", "30")
    result = run("knock", "bob", "2", "40")
    assert flat(result.stdout).endswith(
        "Knock: Bob scores 40 − 2 = 38 in game I; game I closes, Bob wins it (game bonus 50; "
        "Ann shut out, so Bob's 38 + 50 = 88 doubles to 176; bonuses 50 + 88 = +138)."
    )


def test_the_demo_fits_a_screen_and_ends_with_what_to_type_next(run: Run) -> None:
    result = run("demo")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "$ hgin new Ann Bob --rules friendly --dealer Bob"
    assert lines[1].startswith("New match ") and lines[1].endswith(". Bob deals first (chosen).")
    assert lines[2:4] == ["$ hgin knock Ann 4 34", "Knock: Ann scores 34 − 4 = 30 in game I."]
    assert len(lines) <= 40  # at 100 columns: read without scrolling back
    assert [line.split()[:2] for line in lines[-3:]] == [
        ["hgin", "new"],
        ["hgin", "gin"],
        ["hgin", "play"],
    ]


def test_new_names_the_unfinished_match_it_leaves(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    left = show_json()["id"]
    result = run("new", "Cy", "Di", "--dealer", "Cy")
    assert result.exit_code == 0
    assert flat(result.stdout).endswith(
        f"Match {left} (Ann v Bob, 1 hand) is not finished and is no longer current; "
        f"'hgin use {left}' goes back to it."
    )
    assert run("use", left).exit_code == 0
    assert show_json()["id"] == left


def test_new_says_nothing_of_a_finished_match(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann", "--games", "1")
    run("gin", "ann", "98")
    result = run("new", "Cy", "Di", "--dealer", "Cy")
    assert "not finished" not in result.stdout
    assert flat(result.stdout).endswith("Cy deals first (chosen).")


@pytest.fixture
def three_matches(run: Run) -> dict[str, str]:
    """Ann v Mary, then Bob v Mark, then Zoë v Bob (the newest): their identifiers."""
    ids = {}
    for first, second in (("Ann", "Mary"), ("Bob", "Mark"), ("Zoë", "Bob")):
        result = run("new", first, second, "--dealer", first)
        assert result.exit_code == 0
        ids[first] = result.stdout.split("New match ")[1].split(".")[0]
    return ids


def test_use_finds_the_latest_match_of_a_player(
    run: Run, show_json, three_matches: dict[str, str]
) -> None:
    result = run("use", "mary")
    assert result.exit_code == 0
    mary = three_matches["Ann"]
    assert result.stderr == f"hgin: match {mary} (Ann v Mary), the latest with Mary\n"
    assert result.stdout.rstrip().endswith(f"Now playing match {mary}.")
    assert show_json()["id"] == mary


def test_show_json_by_player_keeps_standard_output_clean(
    run: Run, three_matches: dict[str, str]
) -> None:
    run("use", three_matches["Ann"])
    result = run("show", "-m", "BO", "--json")
    assert result.exit_code == 0
    newest = three_matches["Zoë"]
    assert json.loads(result.stdout)["id"] == newest  # Bob's latest, not Bob v Mark
    assert result.stderr == f"hgin: match {newest} (Zoë v Bob), the latest with Bob\n"


def test_a_refusal_in_a_match_named_by_a_player_is_one_line(
    run: Run, hgin_home: Path, three_matches: dict[str, str]
) -> None:
    before = snapshot(hgin_home)
    result = run("notice", "--match", "mary")
    assert result.exit_code == 1
    assert result.stderr == (
        "hgin: notice is given only in a rolling match (see 'hgin rules set rolling')\n"
    )
    assert snapshot(hgin_home) == before


def test_a_player_with_accents_is_found_without_them(
    run: Run, three_matches: dict[str, str]
) -> None:
    result = run("show", "-m", "zoe")
    assert result.exit_code == 0
    assert "the latest with Zoë" in result.stderr


def test_two_players_fitting_are_refused_with_both(
    run: Run, hgin_home: Path, three_matches: dict[str, str]
) -> None:
    before = snapshot(hgin_home)
    result = run("use", "ma")
    assert result.exit_code == 1
    assert result.stderr == "hgin: 'ma' could be Mark or Mary: type more of the name\n"
    assert snapshot(hgin_home) == before


def test_nothing_fitting_is_still_no_match(run: Run, three_matches: dict[str, str]) -> None:
    result = run("use", "xavier")
    assert result.exit_code == 1
    assert result.stderr == "hgin: no match 'xavier' (see 'hgin matches')\n"


def test_an_identifier_still_comes_first(run: Run, three_matches: dict[str, str]) -> None:
    result = run("use", three_matches["Bob"])
    assert result.exit_code == 0
    assert result.stderr == ""


def test_accents_are_folded_for_every_name_typed(run: Run, show_json) -> None:
    run("new", "Zoë", "李明", "--dealer", "李明")
    assert run("gin", "zoe", "10").exit_code == 0
    assert run("knock", "ZOË", "3", "9").exit_code == 0
    assert run("play", input="g zoe 5\n").exit_code == 0
    assert run("edit", "1", "gin", "Zoe", "12").exit_code == 0
    assert [h["winner"] for h in show_json()["hands"]] == ["Zoë", "Zoë", "Zoë"]
    assert show_json()["hands"][0]["points"] == 37
    result = run("new", "Zoe", "ZOË")
    assert result.exit_code == 1
    assert result.stderr == "hgin: the two players need different names\n"


def test_completion_folds_accents_too(run: Run) -> None:
    from tests.test_completion import ask

    run("new", "Zoë", "Bob", "--dealer", "Bob")
    assert ask("bash", "hgin gin zo") == ["zoë"]
    assert ask("bash", "hgin gin zoe") == ["zoe"]  # kept as typed: hgin reads it as Zoë
    assert ask("bash", "hgin matches --player ZO") == ["ZOë"]


# -- help and usage errors without internals ---------------------------------------------------

INTERNALS = re.compile(r"<(str|int|bool|list\[str\])>|\{[A-Z_]+\}|Value error")


def every_command_path() -> list[list[str]]:
    """Every command as typed, groups' commands included ('rules set')."""
    import typer.main

    from hgin.cli import app

    paths: list[list[str]] = []

    def walk(group: object, prefix: list[str]) -> None:
        for name, command in getattr(group, "commands", {}).items():
            if hasattr(command, "commands"):
                paths.append([*prefix, name])
                walk(command, [*prefix, name])
            else:
                paths.append([*prefix, name])

    walk(typer.main.get_command(app), [])
    return paths


def test_no_help_shows_python_types_or_braces(run: Run) -> None:
    paths = every_command_path()
    assert ["rules", "set"] in paths and ["gin"] in paths
    for path in paths:
        result = run(*path, "--help")
        assert result.exit_code == 0, path
        assert INTERNALS.findall(result.stdout) == [], path
        assert "[[" not in result.stdout.splitlines()[0], path  # an optional value bracketed once


def test_the_help_of_gin_reads_as_values(run: Run) -> None:
    text = run("gin", "--help").stdout
    assert text.startswith("Usage: hgin gin [OPTIONS] PLAYER [OPPONENT_DEADWOOD]\n")
    assert "\n  PLAYER             The player (any unique start of the name).  [required]\n" in text
    assert "\n  -u, --upcard CARD " in text and "\n  --hand CARDS " in text
    assert "\n  -m, --match MATCH " in text
    edit = run("edit", "--help").stdout
    assert edit.startswith("Usage: hgin edit [OPTIONS] N ENTRY...\n")
    assert "\n  ENTRY...  The corrected hand" in edit


def test_a_wrong_choice_lists_the_choices_plainly(run: Run) -> None:
    result = run("summary", "-f", "pdf")
    assert result.exit_code == 2
    assert result.stderr == (
        "hgin: --format: 'pdf' is not one of text, markdown, html, svg, csv, json\n"
        "Try 'hgin summary --help'.\n"
    )


def test_an_option_of_another_command_is_named_as_such(run: Run, ann_bob: None) -> None:
    result = run("knock", "ann", "7", "12", "--big")
    assert result.exit_code == 2
    assert result.stderr == (
        "hgin: --big belongs to gin or edit, not to knock\nTry 'hgin knock --help'.\n"
    )
    assert run("draw", "--big").stderr.startswith(
        "hgin: --big belongs to gin or edit, not to draw\n"
    )
    assert run("knock", "ann", "--big", "7", "12").stderr.startswith(
        "hgin: --big belongs to gin or edit, not to knock\n"
    )
    result = run("show", "--bogus")
    assert result.exit_code == 2
    assert result.stderr == "hgin: no option --bogus\nTry 'hgin show --help'.\n"


def test_an_option_where_the_player_goes_is_a_usage_error(
    run: Run, ann_bob: None, hgin_home: Path
) -> None:
    before = snapshot(hgin_home)
    result = run("gin", "--cards", "AS 2S 3S 4H 5H 6H 7C 8C 9C TD")
    assert result.exit_code == 2
    assert result.stderr.startswith("hgin: no option --cards\n")
    result = run("knock", "--big", "ann", "7", "12")
    assert result.exit_code == 2
    assert result.stderr.startswith("hgin: --big belongs to gin or edit, not to knock\n")
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        (
            ["gin", "22", "bob"],
            "the opponent's deadwood must be a whole number, not 'bob' "
            "(the words look swapped: hgin gin bob 22)",
        ),
        (
            ["knock", "7", "12", "bob"],
            "the opponent's deadwood must be a whole number, not 'bob' "
            "(the words look swapped: hgin knock bob 7 12)",
        ),
        (
            ["knock", "7", "bob", "12"],
            "the knocker's deadwood must be a whole number, not 'bob' "
            "(the words look swapped: hgin knock bob 7 12)",
        ),
        (["gin", "bob", "x"], "the opponent's deadwood must be a whole number, not 'x'"),
    ],
)
def test_swapped_words_are_pointed_out(
    run: Run, hgin_home: Path, ann_bob: None, line: list[str], refusal: str
) -> None:
    before = snapshot(hgin_home)
    result = run(*line)
    assert result.exit_code == 1
    assert result.stderr == f"hgin: {refusal}\n"
    assert snapshot(hgin_home) == before
    played = run("play", input=" ".join(line) + "\n")
    assert played.stderr.splitlines()[0] == "hgin: " + refusal.replace("hgin ", "")


# -- summaries: running scores and the Oklahoma upcard ----------------------------------------


@pytest.fixture
def oklahoma(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--oklahoma", "--dealer", "Ann").exit_code == 0
    assert run("knock", "ann", "5", "30", "-u", "8s").exit_code == 0  # doubled: 50
    assert run("gin", "bob", "10", "-u", "qh").exit_code == 0  # 35
    assert run("draw").exit_code == 0
    assert run("gin", "ann", "40", "-u", "3d").exit_code == 0  # 65: I closes at 115


def summary_of(run: Run, *args: str) -> str:
    result = run("summary", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_text_summary_has_the_upcard_and_the_scores_after_each_hand(
    run: Run, oklahoma: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")  # the hands stack into records
    lines = [line.rstrip() for line in summary_of(run).splitlines()]
    assert lines[lines.index("Hands") + 1 :] == [
        "Hand 1: knock won by Ann",
        "  Ann dealt · upcard 8♠ · (30 − 5) × 2 = 50 · game I",
        "  after it (Ann v Bob): I 50/–",
        "Hand 2: gin by Bob",
        "  Bob dealt · upcard Q♥ · 25 + 10 = 35 · game I",
        "  after it (Ann v Bob): I 50/35",
        "Hand 3: dead hand",
        "  Ann dealt",
        "  after it (Ann v Bob): I 50/35",
        "Hand 4: gin by Ann",
        "  Bob dealt · upcard 3♦ · 25 + 40 = 65",
        "  games I and II; I closes",
        "  after it (Ann v Bob): I 115/35 · II 65/–",
    ]
    monkeypatch.setenv("COLUMNS", "200")  # the table, with a column per game
    wide = [line.rstrip() for line in summary_of(run).splitlines()]
    hands = wide[wide.index("Hands") + 1 :]
    assert hands[0].split() == [
        "#", "Dealer", "Upcard", "Result", "Points", "Entered", "in", "I", "II"
    ]  # fmt: skip
    rows = {line.split()[0]: line.split() for line in hands if re.match(r"\d+ ", line)}
    assert rows["1"][2] == "8♠" and rows["1"][-1] == "50/–"
    assert rows["4"][2] == "3♦" and rows["4"][-2:] == ["115/35", "65/–"]
    assert hands[-1] == "I, II: points in the game after the hand, Ann/Bob"


def test_markdown_and_html_have_the_upcard_and_the_scores_after_each_hand(
    run: Run, oklahoma: None
) -> None:
    markdown = summary_of(run, "-f", "markdown").splitlines()
    start = markdown.index(
        "| \\# | Dealer | Upcard | Result | Points | Entered in | Scores after (Ann/Bob) |"
    )
    assert markdown[start + 2 :] == [
        "| 1 | Ann | 8♠ | knock won by Ann | (30 − 5) × 2 = 50 | game I | I 50/– |",
        "| 2 | Bob | Q♥ | gin by Bob | 25 + 10 = 35 | game I | I 50/35 |",
        "| 3 | Ann |  | dead hand | – | – | I 50/35 |",
        "| 4 | Bob | 3♦ | gin by Ann | 25 + 40 = 65 | games I and II; I closes | "
        "I 115/35 · II 65/– |",
    ]
    from tests.summary_data import read_page

    page = read_page(summary_of(run, "-f", "html"))
    assert page.tables["hands"][0] == [
        "#",
        "Dealer",
        "Upcard",
        "Result",
        "Points",
        "Entered in",
        "Scores after (Ann/Bob)",
    ]
    assert page.tables["hands"][4] == [
        "4",
        "Bob",
        "3♦",
        "gin by Ann",
        "25 + 40 = 65",
        "games I and II; I closes",
        "I 115/35 · II 65/–",
    ]


def test_csv_json_and_svg_have_the_upcard(run: Run, oklahoma: None) -> None:
    from tests.summary_data import read_csv

    rows = read_csv(summary_of(run, "-f", "csv"))
    assert rows[0][6:9] == ["Opponent deadwood", "Upcard", "Points"]
    assert [row[7] for row in rows[1:]] == ["8♠", "Q♥", "", "3♦"]
    data = json.loads(summary_of(run, "-f", "json"))
    assert [h["entered"].get("upcard") for h in data["hands"]] == ["8♠", "Q♥", None, "3♦"]
    assert "8♠" in summary_of(run, "-f", "svg")


def test_no_upcard_column_without_oklahoma(run: Run, ann_bob: None) -> None:
    run("gin", "ann", "10")
    assert "Upcard" not in summary_of(run)
    assert "Upcard" not in summary_of(run, "-f", "csv")
    assert "Upcard" not in summary_of(run, "-f", "markdown")


HAND_LINES = st.lists(
    st.sampled_from(["gin ann 30", "gin bob 12", "knock ann 3 20", "knock bob 9 4", "draw"]),
    max_size=14,
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=HAND_LINES)
def test_the_running_scores_are_the_sheet_after_each_hand(
    run: Run, hgin_home: Path, lines: list[str]
) -> None:
    import shutil

    shutil.rmtree(hgin_home, ignore_errors=True)
    run("new", "Ann", "Bob", "--dealer", "Ann", "--target", "60")
    for line in lines:
        result = run(*line.split())
        if result.exit_code != 0:  # only a finished match refuses a hand
            assert "is finished" in result.stderr, result.output
            break
    data = json.loads(run("show", "--json").stdout)
    page_rows = summary_of(run, "-f", "markdown").splitlines()
    from tests.summary_data import read_csv

    csv_rows = read_csv(summary_of(run, "-f", "csv"))[1:]
    hand_rows = [r for r in page_rows if re.match(r"\| \d+ \|", r)]
    assert len(hand_rows) == len(csv_rows) == len(data["hands"])
    closed_before: set[int] = set()
    wins = {"Ann": 0, "Bob": 0}  # win n enters games I..n: '–' where a player has not
    for row, csv_row, hand in zip(hand_rows, csv_rows, data["hands"], strict=True):
        shown = row.rstrip(" |").rsplit("| ", 1)[1]
        if hand["winner"] is not None:
            wins[hand["winner"]] += 1
        after = {int(n): (csv_row[11 + 2 * (n - 1)], csv_row[12 + 2 * (n - 1)]) for n in (1, 2, 3)}
        entered = {n for n in after if max(wins.values()) >= n}
        expected = [
            f"{roman} "
            + "/".join(a if wins[p] >= n else "–" for a, p in zip(after[n], wins, strict=True))
            for n, roman in ((1, "I"), (2, "II"), (3, "III"))
            if n in entered and n not in closed_before
        ]
        if shown != "–":
            assert shown == " · ".join(expected)
        else:
            assert expected == []
        closed_before.update(hand["closed"])


def test_a_decided_five_game_match_says_so_while_play_goes_on(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--games", "5", "--dealer", "Ann")
    for _ in range(2):
        assert "Decided" not in run("gin", "ann", "98").stdout
    result = run("gin", "ann", "98")  # game III closes: her third game of five
    assert flat(result.stdout).endswith(
        "Decided: Ann has won 3 of the 5 games; the open games are still played. "
        "Next deal: Bob. Gin: Ann scores 25 + 98 = 123 in game III; game III closes, Ann "
        "wins it."
    )
    assert show_json()["finished"] is False
    result = run("gin", "bob", "30")  # play goes on: the open games are played
    assert result.exit_code == 0
    assert "Decided: Ann has won 3 of the 5 games" in flat(result.stdout)
    assert "Decided" not in run("new", "Cy", "Di", "--dealer", "Cy").stdout


def test_a_match_decided_by_net_points_is_not_called_decided(run: Run) -> None:
    run("new", "Ann", "Bob", "--games", "5", "--decide", "net", "--dealer", "Ann")
    for _ in range(3):
        result = run("gin", "ann", "98")
    assert "Decided" not in result.stdout


def test_new_still_starts_over_a_damaged_current_pointer(
    run: Run, hgin_home: Path, show_json
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    (hgin_home / "current").write_text("../../etc\n", encoding="utf-8")
    result = run("new", "Cy", "Di", "--dealer", "Cy")
    assert result.exit_code == 0, result.output
    assert "not finished" not in result.stdout
    assert show_json()["players"] == ["Cy", "Di"]


def test_a_hand_recorded_into_a_match_named_by_a_player_says_so_once(
    run: Run, show_json, three_matches: dict[str, str]
) -> None:
    result = run("gin", "ann", "10", "-m", "mary")
    assert result.exit_code == 0
    mary = three_matches["Ann"]
    assert result.stderr == f"hgin: match {mary} (Ann v Mary), the latest with Mary\n"
    assert show_json("-m", mary)["hands"][0]["winner"] == "Ann"
    assert show_json()["id"] == three_matches["Zoë"]  # the current match stays current
