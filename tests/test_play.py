"""`hgin play` through the real command line, lines piped in on stdin."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import hgin.cli.play as play_loop
from hgin.scorekeeper import ScoreKeeper
from tests.conftest import Run, flat, snapshot

# A whole friendly match, typed the short way, with two lines that must be refused.
MATCH_LINES = [
    "gin ines 18",
    "k osk 7 12",
    "d",
    "kn i 3 38",
    "foo",
    "g in 30",
    "knock o 10 4",
    "g o 50",
    "g o 40",
    "g i 20",
    "gin ines 5",
    "undo",
    "redo",
    "show",
]


def lines(*typed: str) -> str:
    return "".join(f"{line}\n" for line in typed)


@pytest.fixture
def ines_oskar(run: Run) -> None:
    assert run("new", "Ines", "Oskar", "--dealer", "Ines").exit_code == 0


def test_a_whole_match_played_to_the_end(run: Run, show_json, ines_oskar: None) -> None:
    result = run("play", input=lines(*MATCH_LINES))
    out = flat(result.stdout)
    assert "Gin: Ines scores 25 + 18 = 43 in game I." in out
    assert "Knock: Oskar scores 12 − 7 = 5 in game I." in out
    assert "Dead hand: no score, no win counted." in out
    assert "Knock: Ines scores 38 − 3 = 35 in games I and II." in out
    assert (
        "Gin: Ines scores 25 + 30 = 55 in games I, II and III; game I closes, Ines wins it." in out
    )
    assert (
        "Undercut: Ines scores 10 − 4 + 25 = 31 in games II and III; game II closes, Ines wins it."
        in out
    )
    assert "Gin: Oskar scores 25 + 50 = 75 but every game that win 2 enters is closed" in out
    assert "Gin: Oskar scores 25 + 40 = 65 in game III." in out
    assert "Gin: Ines scores 25 + 20 = 45 in game III; game III closes, Ines wins it." in out
    assert "Match over: Ines wins 3 games to 0." in out
    assert out.count("The match is over: nothing more to record") == 3  # hand 9, redo, show
    assert "Undone: change 9 (recorded hand 9: gin by Ines, 25 + 20 = 45)." in out
    assert "Redone: change 9 (recorded hand 9: gin by Ines, 25 + 20 = 45)." in out
    # the refusals: one line each, on stderr, and then a tally for scripts
    assert result.stderr.splitlines() == [
        "hgin: no command 'foo' (help lists them)",
        "hgin: the match is over, no hand can be recorded: count, undo, redo, log, restore, "
        "show, summary, edit, delete, help and quit still work",
        "hgin: refused 2 lines: 5, 11; every other line was done",
    ]
    assert result.exit_code == 1
    data = show_json()
    assert [g["scores"] for g in data["games"]] == [
        {"Ines": 133, "Oskar": 5},
        {"Ines": 121, "Oskar": 0},
        {"Ines": 131, "Oskar": 65},
    ]
    assert [g["winner"] for g in data["games"]] == ["Ines", "Ines", "Ines"]
    assert data["wins"] == {"Ines": 5, "Oskar": 3}
    assert [h["points"] for h in data["hands"]] == [43, 5, 0, 35, 55, 31, 75, 65, 45]
    assert [h["games"] for h in data["hands"]] == [
        [1],
        [1],
        [],
        [1, 2],
        [1, 2, 3],
        [2, 3],
        [],
        [3],
        [3],
    ]
    assert data["finished"] is True and data["winner"] == "Ines"


def test_piped_output_is_what_the_one_shot_commands_print(run: Run, ines_oskar: None) -> None:
    played = run("play", input=lines("gin ines 18", "k osk 7 12")).stdout
    run("delete", "2")  # not undo: a hand recorded after undos says it set them aside
    run("delete", "1")
    first = run("gin", "ines", "18").stdout
    second = run("knock", "osk", "7", "12").stdout
    opening = played[: played.index(first.splitlines()[0], 1)]
    assert played == opening + first + second
    assert "hand 1>" not in played and "Type a hand" not in played


def test_the_sheet_is_shown_first_and_empty_input_leaves_quietly(
    run: Run, ines_oskar: None
) -> None:
    result = run("play", input="")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == run("show").stdout


def test_blank_lines_and_comments_do_nothing(run: Run, show_json, ines_oskar: None) -> None:
    result = run("play", input=lines("", "   ", "# hand one", "hgin gin ines 18", "q", "draw"))
    assert result.exit_code == 0
    assert result.stderr == ""
    assert [h["points"] for h in show_json()["hands"]] == [43]  # nothing after quit


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        (
            "knok ines 3 20",
            "hgin: no command 'knok': did you mean 'knock'?",
        ),
        ("de 1", "hgin: 'de' is too short: type 'del' for delete"),
        ("gin ines", "hgin: missing words for gin: type gin PLAYER THEIRS"),
        ("gin ines 18 4", "hgin: too many words for gin: type gin PLAYER THEIRS"),
        (
            "gin ines eighteen",
            "hgin: the opponent's deadwood must be a whole number, not 'eighteen'",
        ),
        ("gin bob 18", "hgin: 'bob' is not a player in this match (Ines or Oskar)"),
        ("knock ines 11 30", "hgin: the knocker's deadwood must be between 1 and 10, not 11"),
        ("knock ines 0 30", "hgin: a knock with 0 deadwood is a gin: enter it as gin by Ines"),
        ("gin ines 18 --big", "hgin: big gin is not played in this match (see big-gin-bonus)"),
        ("gin ines 18 -u 7s", "hgin: an upcard is only entered in an Oklahoma match"),
        (
            "gin ines 18 --color",
            "hgin: unknown option '--color': gin PLAYER THEIRS [--upcard CARD] [--big]",
        ),
        ('gin "ines 18', "hgin: cannot read that line: no closing quotation"),
        ("undo", "hgin: there is nothing to undo: this match has no changes yet"),
        ("redo", "hgin: there is nothing to redo"),
        ("show me", "hgin: show takes nothing more: type just s"),
        ("delete 1", "hgin: there are no hands to change yet"),
    ],
)
def test_a_mistyped_line_gets_one_line_and_records_nothing(
    run: Run, hgin_home, ines_oskar: None, typed: str, hint: str
) -> None:
    before = snapshot(hgin_home)
    result = run("play", input=lines(typed))
    assert result.stderr.splitlines() == [hint, "hgin: refused line 1; every other line was done"]
    assert result.exit_code == 1
    assert snapshot(hgin_home) == before


def test_the_session_goes_on_after_a_refusal(run: Run, show_json, ines_oskar: None) -> None:
    result = run("play", input=lines("gin ines 99", "gin ines 98", "knock osk 12 3", "k o 2 3"))
    assert result.stderr.splitlines() == [
        "hgin: the opponent's deadwood must be between 0 and 98, not 99",
        "hgin: the knocker's deadwood must be between 1 and 10, not 12",
        "hgin: refused 2 lines: 1, 3; every other line was done",
    ]
    assert [h["points"] for h in show_json()["hands"]] == [123, 1]


def test_help_lists_every_command_with_its_shortest_form(run: Run, ines_oskar: None) -> None:
    out = run("play", input=lines("help")).stdout
    for shown in ("[g]in", "[k]nock", "[d]raw", "[u]ndo", "[r]edo", "[s]how", "[su]mmary"):
        assert shown in out
    for shown in ("[e]dit N", "[del]ete N", "[h]elp", "[q]uit"):
        assert shown in out
    one = run("play", input=lines("? del")).stdout
    assert "[del]ete N" in one and "[g]in" not in one


def test_summary_edit_and_delete_inside_the_session(run: Run, show_json, ines_oskar: None) -> None:
    script = lines("g i 18", "k o 7 12", "d", "su", "e 2 k o 7 2", "del 3")
    result = run("play", input=script)
    assert result.exit_code == 0, result.stderr
    out = flat(result.stdout)
    assert "Hollywood Gin: Ines v Oskar" in out
    assert (
        "Hand 2 corrected: knock Oskar 7 12 (Knock: Oskar scores 12 − 7 = 5 in game I) → "
        "knock Oskar 7 2 (Undercut: Ines scores 7 − 2 + 25 = 30 in games I and II)." in out
    )
    assert "Hand 3 deleted: draw (Dead hand: no score, no win counted)." in out
    data = show_json()
    assert [h["points"] for h in data["hands"]] == [43, 30]
    assert [g["scores"]["Ines"] for g in data["games"]] == [73, 30, 0]


def test_oklahoma_upcards_and_big_gin_as_options(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--oklahoma", "--big-gin-bonus", "31", "--dealer", "Ann")
    script = lines("k a 7 12 -u 7h", "k b 3 20 --upcard 3s", "g a 10 -b --upcard=Kd", "k a 2 9")
    result = run("play", input=script)
    assert result.stderr.splitlines() == [
        "hgin: this is an Oklahoma match: give the upcard (for example --upcard 7s)",
        "hgin: refused line 4; every other line was done",
    ]
    assert [h["points"] for h in show_json()["hands"]] == [5, 34, 41]


def test_a_finished_match_opens_with_the_result(run: Run, show_json, ines_oskar: None) -> None:
    run("play", input=lines("g i 98", "g i 98", "g i 98"))
    assert show_json()["finished"] is True
    result = run("play", input=lines("u", "s"))
    assert result.exit_code == 0
    out = flat(result.stdout)
    assert out.startswith("Ines v Oskar")
    assert "Match over: Ines wins 3 games to 0. The match is over: nothing more to record" in out
    assert "Undone: change 3 (recorded hand 3: gin by Ines, 25 + 98 = 123)." in out
    assert show_json()["finished"] is False


def test_play_acts_on_the_match_it_opened(run: Run, show_json, ines_oskar: None) -> None:
    first = show_json()["id"]
    run("new", "Ann", "Bob")
    result = run("play", "--match", first, input=lines("g i 18"))
    assert result.exit_code == 0
    assert show_json("--match", first)["hands"][0]["points"] == 43
    assert show_json()["hands"] == []


def test_play_without_a_match_is_refused(run: Run) -> None:
    result = run("play", input=lines("g a 10"))
    assert result.exit_code == 1
    assert result.stderr == "hgin: no match yet: start one with 'hgin new NAME1 NAME2'\n"


def scripted(typed: list[str], then: BaseException) -> Callable[[str, bool], str | None]:
    """A line reader that gives `typed`, then raises `then` (Ctrl-C) or ends (Ctrl-D)."""
    feed: Iterator[str] = iter(typed)

    def read_line(prompt: str, interactive: bool) -> str | None:
        for line in feed:
            return line
        raise then

    return read_line


def test_ctrl_c_leaves_cleanly_with_every_hand_saved(
    run: Run, show_json, ines_oskar: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        play_loop, "read_line", scripted(["g i 18", "k o 7 12"], KeyboardInterrupt())
    )
    result = run("play")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "Traceback" not in result.output and "Aborted" not in result.output
    assert [h["points"] for h in show_json()["hands"]] == [43, 5]


def test_every_hand_is_saved_as_it_is_entered(
    run: Run, ines_oskar: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    feed = iter(["g i 18", "d", "k o 7 12"])

    def read_line(prompt: str, interactive: bool) -> str | None:
        seen.append(len(ScoreKeeper().load().hands))  # what another process would read now
        return next(feed, None)

    monkeypatch.setattr(play_loop, "read_line", read_line)
    assert run("play").exit_code == 0
    assert seen == [0, 1, 2, 3]


class Terminal:
    """Stands in for a person at a terminal: answers input() and notes the prompts."""

    def __init__(self, typed: list[str], end: BaseException) -> None:
        self.typed = iter(typed)
        self.end = end
        self.prompts: list[str] = []

    def input(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        for line in self.typed:
            return line
        raise self.end


@pytest.mark.parametrize("end", [EOFError(), KeyboardInterrupt()], ids=["ctrl-d", "ctrl-c"])
def test_at_a_terminal_there_is_a_prompt_and_a_goodbye(
    run: Run, show_json, ines_oskar: None, monkeypatch: pytest.MonkeyPatch, end: Any
) -> None:
    terminal = Terminal(["g i 98", "nonsense", "g i 98", "g i 98"], end)
    monkeypatch.setattr(play_loop, "is_terminal", lambda stream: True)
    monkeypatch.setattr("builtins.input", terminal.input)
    result = run("play")
    assert result.exit_code == 0  # a refused line at a terminal is part of the conversation
    prompts = ["hand 1> ", "hand 2> ", "hand 2> ", "hand 3> ", "over> "]
    if isinstance(end, KeyboardInterrupt):
        prompts.append("over> ")  # the first Ctrl-C only clears the line
    assert terminal.prompts == prompts
    assert "Type a hand: gin Ines 18, knock Oskar 7 12, draw; or help." in result.stdout
    match_id = show_json()["id"]
    assert result.stdout.endswith(f"\nBye: every hand is saved (match {match_id}).\n")
    assert result.stderr == "hgin: no command 'nonsense' (help lists them)\n"
    assert show_json()["winner"] == "Ines"


KNOCKER = "5h 6h 7h Ks Kd Kc Ac 2c 3c 4d"  # 4♦ left: 4
OPPONENT = "8h 9h 2s 3d 4s 5c 6c Jd Ad 3h"  # lays off 8♥ 9♥: 34 left


def test_cards_are_counted_inside_the_session(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Bob")
    script = lines(
        f'k a --hand "{KNOCKER}" -o "{OPPONENT}"',
        f'k a 3 --hand "{KNOCKER}" -o "{OPPONENT}"',
        f'k a --hand "{KNOCKER}"',
        f'g b --opponent="{OPPONENT}"',
        f'edit 1 k a 4 34 --hand "{KNOCKER}" -o "{OPPONENT}"',
    )
    result = run("play", input=script)
    out = flat(result.stdout)
    assert "Ann knocks Melds A♣ 2♣ 3♣ 5♥ 6♥ 7♥ K♣ K♦ K♠ Deadwood 4♦ = 4" in out
    assert "Knock: Ann scores 34 − 4 = 30 in game I." in out
    assert "Ann counts Melds none" in out and "Gin: Bob scores 25 + 51 = 76 in game I." in out
    assert result.stderr.splitlines() == [
        "hgin: the cards put the knocker's deadwood at 4, not 3 as typed",
        "hgin: a knock is counted from both hands: give --hand and --opponent (the layoffs "
        "depend on both)",
        "hgin: a correction takes the counts, not the cards ('hgin count' gives them)",
        "hgin: refused 3 lines: 2–3, 5; every other line was done",
    ]
    assert [h["points"] for h in show_json()["hands"]] == [30, 76]
    # the same hand as a one-shot command prints the very same count, sheet and sentence
    run("undo")
    one_shot = run("gin", "b", "--opponent", OPPONENT).stdout
    run("undo")
    assert run("play", input=lines(f'g b -o "{OPPONENT}"')).stdout.endswith(one_shot)


def test_count_in_play_shows_the_count_and_records_nothing(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    before = snapshot(hgin_home)
    cards = "5h 6h 7h Ks Kd Kc Ac 2c 3c 4d"
    theirs = "8h 9h 2s 3d 4s Qs Qd Jd 5c 6c"
    result = run("play", input=f'c {cards} -o "{theirs}"\ncount 4h 5h 6h 9c 9d 9s Ac 2c 3c Kd 7h\n')
    assert result.exit_code == 0, result.output
    one_shot = run("count", cards, "--opponent", theirs)
    assert "Knock: 4 against 50 after layoffs; the knocker wins 46." in result.stdout
    assert "Lays off  8♥ onto 5♥ 6♥ 7♥" in result.stdout
    assert "Discard   K♦ (the best of the eleven)" in result.stdout
    for line in ("Deadwood  4♦ = 4", "9♥ onto 5♥ 6♥ 7♥ 8♥"):
        assert line in one_shot.stdout
        assert line in result.stdout
    assert snapshot(hgin_home) == before
    refused = run("play", input="count 4h\ncount --big 4h\n")
    assert refused.exit_code == 1
    assert "hgin: the cards: expected 10 or 11 cards, got 1" in refused.stderr
    assert "count takes only cards" in refused.stderr
    assert snapshot(hgin_home) == before


def test_an_over_long_line_is_refused_at_once(run: Run, show_json, ines_oskar: None) -> None:
    result = run("play", input=lines("g ines " + "9" * 300_000, "g ines 3"))
    assert result.stderr.splitlines() == [
        "hgin: that line is too long (300007 characters; at most 1000): "
        "type one hand or command a line",
        "hgin: refused line 1; every other line was done",
    ]
    assert [h["points"] for h in show_json()["hands"]] == [28]
