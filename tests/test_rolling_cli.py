"""Rolling Hollywood through the real CLI: starting it, the sheet at every width, the JSON,
and changing the rule mid-match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from tests.conftest import Run, flat, snapshot

# I closes at once (Ann 108); Bob's first win enters only I, closed: nowhere; his second
# and third go into II, which he closes 105–45 (game V opens), the third also into III.
HANDS = (
    ("gin", "ann", "83"),
    ("gin", "bob", "40"),
    ("gin", "bob", "40"),
    ("gin", "ann", "20"),
    ("gin", "bob", "15"),
    ("knock", "ann", "2", "30"),
)
SHEET_AT_60 = """\
Ann v Bob · friendly rules · rolling games to 100
match 2025-06-01-ann-bob
              Game III   Game IV   Game V
Player          to 100    to 100   to 100   Wins
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
Ann (deals)         28         –        –      3
              ██░░░░░░
Bob                 40         –        –      3
              ███░░░░░
closed: I Ann 108–0, II Bob 105–45
Games won: Ann 1, Bob 1 · sheet total: Ann 181, Bob 145
– not entered yet · █ share of the 100 reached
Next deal: Ann.
"""


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2025-06-01T20:00:00+02:00")


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def play(run: Run, *extra: str) -> None:
    assert run("new", "Ann", "Bob", "--rolling", "--dealer", "Ann", *extra).exit_code == 0
    for hand in HANDS:
        result = run(*hand)
        assert result.exit_code == 0, result.output


def test_the_sheet_at_60_and_40_columns(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    play(run)
    monkeypatch.setenv("COLUMNS", "60")
    assert lines(run("show").stdout) == lines(SHEET_AT_60)
    monkeypatch.setenv("COLUMNS", "40")
    narrow = run("show").stdout
    assert max(cell_len(line) for line in narrow.splitlines()) <= 40
    for token in ("Game III", "Game IV", "Game V", "28", "40", "I Ann 108–0", "II Bob 105–45"):
        assert token in narrow, token
    assert "Games won: Ann 1, Bob 1\nsheet total: Ann 181, Bob 145" in narrow


def test_show_json_lists_every_game_in_number_order(run: Run, show_json) -> None:
    play(run)
    data = show_json()
    assert (data["rolling"], data["notice"]) == (True, False)
    assert [g["number"] for g in data["games"]] == [1, 2, 3, 4, 5]
    assert [(g["scores"], g["winner"]) for g in data["games"]] == [
        ({"Ann": 108, "Bob": 0}, "Ann"),
        ({"Ann": 45, "Bob": 105}, "Bob"),
        ({"Ann": 28, "Bob": 40}, None),
        ({"Ann": 0, "Bob": 0}, None),
        ({"Ann": 0, "Bob": 0}, None),
    ]
    assert [h["games"] for h in data["hands"]] == [[1], [], [2], [2], [2, 3], [3]]
    assert data["totals"] == {"Ann": 181, "Bob": 145}
    assert data["games_won"] == {"Ann": 1, "Bob": 1}
    assert not data["finished"]


def test_a_match_that_is_not_rolling_says_so(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    data = show_json()
    assert (data["rolling"], data["notice"]) == (False, False)
    assert [g["number"] for g in data["games"]] == [1, 2, 3]


def test_what_a_hand_says_when_it_opens_a_game(run: Run) -> None:
    run("new", "Ann", "Bob", "--rolling", "--dealer", "Ann")
    result = run("gin", "ann", "83")
    assert "Gin: Ann scores 25 + 83 = 108 in game I; game I closes, Ann wins it; game IV " in (
        flat(result.stdout)
    )
    assert "game IV opens." in flat(result.stdout)


def test_games_does_not_apply_to_a_rolling_match(run: Run, hgin_home: Path) -> None:
    for args in (
        ("new", "A", "B", "--rolling", "--games", "3"),
        ("rules", "save", "r", "--rolling", "--games", "5"),
    ):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stderr == (
            "hgin: games does not apply to a rolling match: three games are always in progress\n"
        )
    assert snapshot(hgin_home) == {}
    # A base with five games is made three by --rolling.
    assert run("rules", "save", "five", "--games", "5").exit_code == 0
    assert run("rules", "save", "roll", "--base", "five", "--rolling").exit_code == 0
    listed = json.loads(run("rules", "--list", "--json").stdout)
    assert (listed["roll"]["rolling"], listed["roll"]["games"]) == (True, 3)


def test_rolling_from_the_config_and_in_a_series(run: Run, show_json, hgin_home: Path) -> None:
    config = hgin_home / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("rolling = true\n", encoding="utf-8")
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert show_json()["rolling"] is True
    assert run("new", "Ann", "Bob", "--dealer", "Ann", "--no-rolling").exit_code == 0
    assert show_json()["rolling"] is False
    config.unlink()
    assert run("series", "new", "Cy", "Di", "--rolling", "--dealer", "Cy").exit_code == 0
    assert show_json()["rolling"] is True


def test_rules_set_rolling_only_while_nothing_decided_changes(
    run: Run, show_json, hgin_home: Path
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "83")
    result = run("rules", "set", "rolling", "on")
    assert result.exit_code == 0, result.output
    assert "Rule changed: rolling off → on; every hand re-scored. The sheet now has 4 games." in (
        flat(result.stdout)
    )
    run("gin", "ann", "75")
    run("gin", "ann", "75")
    run("gin", "ann", "75")  # Ann's fourth win closes game IV
    assert [g["winner"] for g in show_json()["games"]] == ["Ann"] * 4 + [None] * 3
    before = snapshot(hgin_home)
    result = run("rules", "set", "rolling", "off")
    assert result.exit_code == 1
    assert result.stderr == "hgin: game IV is closed: turning rolling off would change it\n"
    assert snapshot(hgin_home) == before
    run("new", "Cy", "Di", "--dealer", "Cy", "--rolling")
    for _ in range(3):
        run("gin", "cy", "75")
    result = run("rules", "set", "rolling", "off")
    assert result.stderr == (
        "hgin: turning rolling off would end the match: its first games are all closed\n"
    )
    run("new", "Eve", "Fay", "--dealer", "Eve", "--games", "1")
    run("gin", "eve", "75")
    result = run("rules", "set", "rolling", "on")
    assert result.stderr == "hgin: the match is over: rolling cannot be turned on now\n"


def test_summaries_handle_any_number_of_games(run: Run) -> None:
    play(run)
    csv_lines = run("summary", "-f", "csv").stdout.splitlines()
    header = csv_lines[0].split(",")
    assert header[-10:] == [
        f"Game {n} {p}" for n in ("I", "II", "III", "IV", "V") for p in ("Ann", "Bob")
    ]
    assert all(len(line.split(",")) == len(header) for line in csv_lines[1:])
    assert csv_lines[1].endswith(",108,0,0,0,0,0,0,0,,")  # game V opens later
    text = flat(run("summary").stdout)
    assert "Hands won: Ann 3, Bob 3 · Games won: Ann 1, Bob 1 · sheet total: Ann 181, Bob 145" in (
        text
    )
    assert "games II and III; II closes; V opens" in text
    markdown = run("summary", "-f", "markdown").stdout
    assert "| V | open | – | – |" in markdown
    html = run("summary", "-f", "html").stdout
    assert "Game V: still open" in html


def test_notice_ends_the_match_when_the_games_in_progress_close(run: Run, show_json) -> None:
    assert run("new", "Ann", "Bob", "--rolling", "--dealer", "Ann").exit_code == 0
    for _ in range(3):
        assert run("gin", "ann", "80").exit_code == 0  # closes I, II, III; opens IV, V, VI
    given = run("notice")
    assert given.exit_code == 0
    assert "notice given: games IV–VI are the last" in given.stdout
    assert "Notice given: games IV–VI are the last; the match ends when they close." in flat(
        given.stdout
    )
    data = show_json()
    assert (data["rolling"], data["notice"], data["finished"]) == (True, True, False)
    assert [g["number"] for g in data["games"]] == [1, 2, 3, 4, 5, 6]
    # Ann's 4th win enters IV, her 5th IV and V, her 6th IV, V and VI: all close, none opens.
    for _ in range(3):
        assert run("gin", "ann", "80").exit_code == 0
    data = show_json()
    assert [g["number"] for g in data["games"]] == [1, 2, 3, 4, 5, 6]
    assert data["finished"] is True
    assert data["winner"] == "Ann"
    assert run("gin", "bob", "10").exit_code == 1


def test_notice_is_a_change_that_undo_takes_back(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--rolling", "--dealer", "Ann")
    run("gin", "ann", "80")
    assert run("notice").exit_code == 0
    log = json.loads(run("log", "--json").stdout)
    assert [(c["kind"], c["text"]) for c in log][-1] == ("notice", "notice given after hand 1")
    undone = run("undo")
    assert undone.exit_code == 0
    assert "Undone: change 2 (notice given after hand 1)." in flat(undone.stdout)
    assert show_json()["notice"] is False
    # Without notice, game II closing opens game V.
    run("gin", "ann", "80")
    assert [g["number"] for g in show_json()["games"]] == [1, 2, 3, 4, 5]
    assert run("redo").exit_code == 1


def test_notice_refusals_change_nothing(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    before = snapshot(hgin_home)
    refused = run("notice")
    assert refused.exit_code == 1
    assert refused.stderr == (
        "hgin: notice is given only in a rolling match (see 'hgin rules set rolling')\n"
    )
    assert snapshot(hgin_home) == before
    run("new", "Cy", "Di", "--rolling", "--dealer", "Cy")
    assert run("notice").exit_code == 0
    before = snapshot(hgin_home)
    again = run("notice")
    assert again.exit_code == 1
    assert again.stderr == "hgin: notice was already given, after hand 0\n"
    assert snapshot(hgin_home) == before


def test_notice_in_play(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--rolling", "--dealer", "Ann")
    done = run("play", input="g ann 80\nn\nq\n")
    assert done.exit_code == 0, done.stderr
    assert "Notice given: games II–IV are the last" in flat(done.stdout)
    assert show_json()["notice"] is True


def test_deleting_a_hand_played_before_the_notice_keeps_the_notice_before_the_same_hands(
    run: Run, show_json
) -> None:
    run("new", "Ann", "Bob", "--rolling", "--dealer", "Ann")
    run("knock", "ann", "3", "20")  # 17 in I
    run("gin", "ann", "80")  # 105 in I and II: both close, IV and V open
    assert run("notice").exit_code == 0  # after hand 2: III, IV and V are the last
    assert run("gin", "ann", "80").exit_code == 0  # after the notice: closes III
    deleted = run("delete", "1")
    assert deleted.exit_code == 0, deleted.output
    # Ann's first gin is now her first win: it closes I, and IV opens. Her second gin, played
    # after the notice, closes II and opens nothing: II to IV were the last games.
    data = show_json()
    assert [(g["number"], g["winner"]) for g in data["games"]] == [
        (1, "Ann"), (2, "Ann"), (3, None), (4, None),
    ]  # fmt: skip
    assert "notice given: games II–IV are the last" in run("show").stdout


@pytest.mark.parametrize("rolling", [True, False])
def test_a_correction_that_would_end_the_match_early_names_every_hand_after_it(
    run: Run, rolling: bool
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann", *(["--rolling"] if rolling else []))
    if rolling:
        run("notice")  # games I to III are the last, as in a match that is not rolling
    for _ in range(5):
        run("gin", "ann", "10")  # the fifth closes game III: the match is over
    edited = run("edit", "3", "gin", "ann", "98")  # 123 would close I, II and III at hand 3
    assert edited.exit_code == 1
    assert edited.stderr == (
        "hgin: cannot change hand 3: the match would then end at hand 3, but hands 4 and 5 "
        "were recorded after it (delete or change them first)\n"
    )
