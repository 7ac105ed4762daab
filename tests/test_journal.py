"""The journal through the command line: every change undone and redone, `hgin log`,
`hgin restore N`, and the sheet stored in the file being only a readers' copy."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from hgin.reports.changes import QUOTED_LENGTH, quoted_text
from hgin.scorekeeper import ScoreKeeper
from hgin.store.schema import MATCH_KEYS, SCHEMA_VERSION, file_bytes
from tests.conftest import Run, flat, snapshot


def scores(data: dict[str, Any]) -> list[dict[str, int]]:
    return [g["scores"] for g in data["games"]]


def points(data: dict[str, Any]) -> list[int]:
    return [h["points"] for h in data["hands"]]


@pytest.fixture
def four_hands(run: Run) -> None:
    """Ann deals; four hands: Bob knocks 4 v 20, Ann gins 10, Bob gins 30, a dead hand."""
    run("new", "Ann", "Bob", "--dealer", "Ann")
    for hand in (
        ("knock", "bob", "4", "20"),
        ("gin", "ann", "10"),
        ("gin", "bob", "30"),
        ("draw",),
    ):
        assert run(*hand).exit_code == 0


def match_file(home: Path) -> Path:
    (path,) = (home / "matches").glob("*.json")
    return path


def test_undo_reverts_an_edit_not_the_last_hand(run: Run, show_json, four_hands: None) -> None:
    before = show_json()
    assert run("edit", "2", "gin", "ann", "20").exit_code == 0
    assert points(show_json()) == [16, 45, 55, 0]
    result = run("undo")
    assert result.exit_code == 0
    # The change's sentence is shortened in the middle to keep the message to about a line.
    assert flat(result.stdout).endswith(
        "Undone: change 5 (edited hand 2: … (was gin by Ann, 25 + 10 = 35)). Game I: Ann 45 → 35."
    )
    after = show_json()
    assert after["hands"] == before["hands"]
    assert scores(after) == scores(before)
    result = run("redo")
    assert flat(result.stdout).startswith(flat(result.stdout).split("Redone:")[0])
    assert (
        "Redone: change 5 (edited hand 2: … (was gin by Ann, 25 + 10 = 35)). Game I: Ann 35 → 45."
        in flat(result.stdout)
    )
    assert points(show_json()) == [16, 45, 55, 0]


def test_a_long_change_is_quoted_shortened_and_logged_whole(run: Run) -> None:
    run("new", "Christopher Columbus", "Alexandra", "--dealer", "Alexandra")
    run("knock", "chr", "9", "7")
    assert run("delete", "1").exit_code == 0
    result = run("undo")
    assert flat(result.stdout).endswith(
        "Undone: change 2 (deleted hand 1: … undercut, Alexandra scores 9 − 7 + 25 = 27). "
        "The sheet has 1 hand. Game I: Alexandra – → 27."
    )
    texts = [e["text"] for e in json.loads(run("log", "--json").stdout)]
    assert texts[1] == (
        "deleted hand 1: knock by Christopher Columbus 9 v 7, undercut, Alexandra scores "
        "9 − 7 + 25 = 27"
    )
    result = run("restore", "2")
    assert "Restored the match as after change 2 (deleted hand 1: … undercut, Alexandra " in flat(
        result.stdout
    )


SHORT = ("Ann", "Bob")
LONG = ("Christopher Columbus", "Alexandra, Queen (of hearts)")


@pytest.mark.parametrize(
    ("text", "players", "quoted"),
    [
        pytest.param(
            "recorded hand 2: knock by Bob 3 v 20, 20 − 3 = 17", SHORT, None, id="short-whole"
        ),
        pytest.param(
            "edited hand 2: gin by Ann, 25 + 20 = 45 (was gin by Ann, 25 + 10 = 35)",
            SHORT,
            "edited hand 2: … (was gin by Ann, 25 + 10 = 35)",
            id="edit-keeps-what-it-was",
        ),
        pytest.param(
            "rules: gin bonus 25 → 30, box bonus 25 → 50, big gin bonus 31 → 50, target 100 → 150",
            SHORT,
            "rules: … big gin bonus 31 → 50, target 100 → 150",
            id="rules-middle",
        ),
        pytest.param(
            "recorded hand 12: knock by Christopher Columbus 9 v 7, undercut, "
            "Alexandra, Queen (of hearts) scores 9 − 7 + 25 = 27",
            LONG,
            "recorded hand 12: knock by Christopher Columbus 9 v 7, …",
            id="names-whole",
        ),
        pytest.param(
            "deleted hand 3 (gin by Alexandra, Queen (of hearts), 25 + 10 = 35)",
            LONG,
            "deleted hand 3 …",
            id="only-what-names-it",
        ),
    ],
)
def test_a_change_is_quoted_whole_or_without_whole_phrases(
    text: str, players: tuple[str, str], quoted: str | None
) -> None:
    shown = quoted_text(text, players)
    assert shown == (quoted or text)
    assert len(shown) <= QUOTED_LENGTH


def test_undo_puts_a_deleted_hand_back_in_its_place(run: Run, show_json, four_hands: None) -> None:
    before = show_json()
    assert run("delete", "3").exit_code == 0
    assert points(show_json()) == [16, 35, 0]
    result = run("undo")
    assert result.exit_code == 0
    assert "Undone: change 5 (deleted hand 3: gin by Bob, 25 + 30 = 55)." in flat(result.stdout)
    assert show_json()["hands"] == before["hands"]
    assert show_json()["dealer"] == before["dealer"]


def test_undo_of_a_rule_change_restores_the_rule_and_every_score(
    run: Run, show_json, four_hands: None
) -> None:
    before = show_json()
    assert run("rules", "set", "gin-bonus", "30").exit_code == 0
    changed = show_json()
    assert changed["rules"]["gin_bonus"] == 30
    assert points(changed) == [16, 40, 60, 0]
    result = run("undo")
    assert flat(result.stdout).endswith(
        "Undone: change 5 (rules: gin bonus 25 → 30). Game I: Ann 40 → 35, Bob 76 → 71. "
        "Game II: Bob 60 → 55."
    )
    after = show_json()
    assert after["rules"]["gin_bonus"] == 25
    assert after == before
    log = json.loads(run("log", "--json").stdout)
    assert [e["text"] for e in log[-2:]] == [
        "rules: gin bonus 25 → 30",
        "undid change 5 (rules: gin bonus 25 → 30)",
    ]


def test_undos_then_a_new_hand_then_restore_brings_every_hand_back(
    run: Run, show_json, hgin_home: Path
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    for deadwood in ("10", "20", "30", "40", "50"):
        run("gin", "ann" if deadwood != "30" else "bob", deadwood)
    all_five = show_json()
    for _ in range(3):
        assert run("undo").exit_code == 0  # changes 6, 7, 8
    assert points(show_json()) == [35, 45]
    result = run("knock", "bob", "2", "9")  # change 9
    assert flat(result.stdout).endswith(
        "Knock: Bob scores 9 − 2 = 7 in game I. 3 undone changes set aside; see 'hgin log'."
    )
    with_new_hand = show_json()
    before = snapshot(hgin_home)
    refused = run("redo")
    assert refused.exit_code == 1
    assert refused.stderr == (
        "hgin: there is nothing to redo: change 9 set aside 3 undone changes; they are still "
        "in 'hgin log', and 'hgin restore 8' brings them back\n"
    )
    assert snapshot(hgin_home) == before
    statuses = [(e["number"], e["status"]) for e in json.loads(run("log", "--json").stdout)]
    assert statuses[2:5] == [(3, "set aside"), (4, "set aside"), (5, "set aside")]
    result = run("restore", "5")  # change 10: as right after the fifth hand
    assert result.exit_code == 0
    assert show_json() == all_five
    result = run("undo")
    assert "Undone: change 10 (restored the match as after change 5)." in flat(result.stdout)
    assert show_json() == with_new_hand
    # Restoring the state after change 8 brings back the three undone hands as redoable.
    assert run("restore", "8").exit_code == 0
    assert points(show_json()) == [35, 45]
    for _ in range(3):
        assert run("redo").exit_code == 0
    assert show_json() == all_five


def test_log_lists_every_change_oldest_first(run: Run, four_hands: None) -> None:
    run("undo")
    result = run("log")
    assert result.exit_code == 0
    lines = [line.split(None, 5) for line in result.stdout.splitlines()]
    numbered = [(cells[0], cells[5].rstrip()) for cells in lines if cells and cells[0].isdigit()]
    assert numbered == [
        ("1", "recorded hand 1: knock by Bob 4 v 20, 20 − 4 = 16"),
        ("2", "recorded hand 2: gin by Ann, 25 + 10 = 35"),
        ("3", "recorded hand 3: gin by Bob, 25 + 30 = 55"),
        ("4", "recorded hand 4: dead hand, no score (undone)"),
        ("5", "undid change 4 (recorded hand 4)"),
    ]
    data = json.loads(run("log", "--json").stdout)
    assert [(e["number"], e["kind"], e["status"]) for e in data] == [
        (1, "record", "in force"),
        (2, "record", "in force"),
        (3, "record", "in force"),
        (4, "record", "undone"),
        (5, "undo", ""),
    ]
    assert all(isinstance(e["at"], str) and e["at"][10] == "T" for e in data)
    last = json.loads(run("log", "--json", "--last", "2").stdout)
    assert [e["number"] for e in last] == [4, 5]
    assert "the last 2 of 5" in run("log", "--last", "2").stdout


def test_log_of_a_new_match(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    assert run("log").stdout.endswith("has no changes yet.\n")
    assert run("log", "--json").stdout == "[]\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("restore", "0"), "there is no change 0: give a number from 1 to 4"),
        (("restore", "5"), "there is no change 5: give a number from 1 to 4"),
        (("restore", "4"), "the match is already as it was after change 4"),
        (("restore", "x"), "the change number must be a whole number, not 'x'"),
        (("redo",), "there is nothing to redo"),
    ],
)
def test_refusals_change_nothing(
    run: Run, hgin_home: Path, four_hands: None, args: tuple[str, ...], message: str
) -> None:
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 1
    assert result.stderr == f"hgin: {message}\n"
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("undo",), "there is nothing to undo: this match has no changes yet"),
        (("redo",), "there is nothing to redo"),
        (("restore", "1"), "there is no change to go back to: this match has no changes yet"),
    ],
)
def test_refusals_on_a_new_match(
    run: Run, hgin_home: Path, args: tuple[str, ...], message: str
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    before = snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 1
    assert result.stderr == f"hgin: {message}\n"
    assert snapshot(hgin_home) == before


def test_play_mode_words(run: Run, show_json, four_hands: None) -> None:
    before = show_json()
    result = run("play", input="u\nredo\nu\nlog\nrestore 4\nu\n")
    assert result.exit_code == 0, result.stderr
    out = flat(result.stdout)
    assert "Undone: change 4 (recorded hand 4: dead hand, no score)." in out
    assert "Redone: change 4 (recorded hand 4: dead hand, no score)." in out
    assert re.search(r"^7 +\S.* undid change 4 \(recorded hand 4\)$", result.stdout, re.M)
    assert "Restored the match as after change 4" in out
    assert "Undone: change 8 (restored the match as after change 4)." in out
    assert points(show_json()) == points(before)[:3]


# -- the sheet in the file is for readers ------------------------------------------------


def test_the_stored_sheet_is_what_replaying_the_journal_gives(
    run: Run, show_json, hgin_home: Path, four_hands: None
) -> None:
    run("edit", "1", "knock", "bob", "3", "20")
    run("delete", "4")
    run("undo")
    data = json.loads(match_file(hgin_home).read_text(encoding="utf-8"))
    assert set(data) == set(MATCH_KEYS)  # the writer writes every key the reader knows
    assert data["schema"] == SCHEMA_VERSION
    shown = show_json()
    stored = data["sheet"]
    for key in ("games", "wins", "totals", "dealer", "finished", "winner"):
        assert stored[key] == shown[key]
    # The file leaves out options that are off or unset (rolling, stake), so older hgin reads it.
    assert stored["rules"].items() <= shown["rules"].items()
    assert {k: v for k, v in shown["rules"].items() if k not in stored["rules"]} == {
        "rolling": False,
        "stake": None,
    }
    # The journal holds each hand: the readers' copy lists none (`show --json` does).
    assert "hands" not in stored and len(shown["hands"]) == 4
    assert [c["kind"] for c in data["journal"]] == ["record"] * 4 + ["edit", "delete", "undo"]
    assert (
        data["journal"][4]["old"]["deadwood"] == 4 and data["journal"][4]["hand"]["deadwood"] == 3
    )


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d.update(hands=[{"number": 1, "formula": "25 plus 10"}]),
        lambda d: d["games"][0]["scores"].update(Ann=40),
        lambda d: d["totals"].update(Bob=1),
        lambda d: d.update(dealer="Nobody", hands="none"),
    ],
)
def test_the_sheet_in_the_file_is_never_read_back(
    run: Run, show_json, hgin_home: Path, four_hands: None, tamper: Any
) -> None:
    path = match_file(hgin_home)
    right = show_json()
    data = json.loads(path.read_text(encoding="utf-8"))
    tamper(data["sheet"])
    path.write_text(json.dumps(data), encoding="utf-8")
    before = snapshot(hgin_home)
    result = run("show", "--json")
    assert (result.exit_code, result.stderr) == (0, "")
    assert json.loads(result.stdout) == right
    assert snapshot(hgin_home) == before  # reading never writes
    assert run("draw").stderr == ""  # the next save writes the sheet from the journal
    assert json.loads(path.read_text(encoding="utf-8"))["sheet"]["totals"] == {
        "Ann": 35,
        "Bob": 126,
    }


def test_a_new_change_is_one_more_line_of_the_file(run: Run, hgin_home: Path) -> None:
    """The journal is written one change a line, so that versions of a file diff well."""
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    path = match_file(hgin_home)
    before = path.read_text(encoding="utf-8").splitlines()
    run("knock", "bob", "3", "20")
    after = path.read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before) + 1
    assert json.loads(after[-3]) == json.loads(path.read_text(encoding="utf-8"))["journal"][-1]


def test_a_file_saved_change_by_change_is_the_file_written_afresh(
    run: Run, hgin_home: Path, four_hands: None
) -> None:
    """Each save writes the changes the file already holds as they are there and encodes only
    the new one: what comes out is byte for byte what writing the whole match gives."""
    for command in (("edit", "1", "gin", "bob", "7"), ("rules", "set", "gin-bonus", "20")):
        assert run(*command).exit_code == 0
    assert run("undo").exit_code == 0 and run("delete", "2").exit_code == 0
    path = match_file(hgin_home)
    match = ScoreKeeper(hgin_home).load()
    assert path.read_bytes() == file_bytes(match)


def test_a_file_laid_out_by_hand_is_written_out_from_its_record(
    run: Run, hgin_home: Path, four_hands: None
) -> None:
    """A journal is taken over as written only from a file laid out as hgin writes one. Here
    the readers' sheet goes first and holds the marks that end a journal's line and a
    journal's list: the save must write the journal from the record, not from the marks."""
    path = match_file(hgin_home)
    data = json.loads(path.read_text(encoding="utf-8"))
    decoy = '{"x": [\n{"number": 1}\n],\n"sheet": 0}'
    head = json.dumps({k: data[k] for k in MATCH_KEYS if k not in ("journal", "sheet")})
    journal = ",\n".join(json.dumps(c, ensure_ascii=False) for c in data["journal"])
    sheet = f'{{"journal": [\n0], "y": {decoy}}}'
    text = f'{head[:-1]}, "sheet": {sheet},\n"journal": [\n{journal}\n]}}\n'
    path.write_text(text, encoding="utf-8")
    assert run("show").exit_code == 0  # the sheet is never read: the file is fine
    assert run("draw").exit_code == 0
    journal_after = json.loads(path.read_text(encoding="utf-8"))["journal"]
    assert journal_after[:4] == data["journal"] and len(journal_after) == 5
    assert len(json.loads(run("show", "--json").stdout)["hands"]) == 5


# -- files written by earlier releases ---------------------------------------------------

CORPUS = Path(__file__).parent / "corpus"
NUMBERS = ("games", "wins", "games_won", "dealer", "finished", "winner", "totals")


def hand_numbers(sheet: dict[str, Any]) -> list[tuple[Any, ...]]:
    keys = ("number", "result", "winner", "points", "games", "dealer", "win_number", "closed")
    return [tuple(h[k] for k in keys) for h in sheet["hands"]]


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("*.json")))
def test_files_of_earlier_releases_load_and_save_unchanged_in_meaning(
    run: Run, show_json, hgin_home: Path, name: str
) -> None:
    old = json.loads((CORPUS / name).read_text(encoding="utf-8"))
    (hgin_home / "matches").mkdir(parents=True)
    path = hgin_home / "matches" / f"{old['id']}.json"
    path.write_bytes((CORPUS / name).read_bytes())
    assert run("use", old["id"]).exit_code == 0
    result = run("show", "--json")
    assert result.exit_code == 0 and result.stderr == ""
    shown = json.loads(result.stdout)
    for key in NUMBERS:
        assert shown[key] == old["sheet"][key], key
    if "hands" in old["sheet"]:  # from schema 6 on, the sheet a file holds lists no hands
        assert hand_numbers(shown) == hand_numbers(old["sheet"])
    if "journal" in old:  # schema 3: the journal is read as it is, and goes on
        assert len(json.loads(run("log", "--json").stdout)) == len(old["journal"])
        assert run("undo").exit_code == 0
        assert run("redo").exit_code == 0
        assert json.loads(path.read_text(encoding="utf-8"))["schema"] == SCHEMA_VERSION
        assert show_json() == shown
        return
    # Options added since (rolling, stake) read as off and unset.
    assert shown["rules"] == {**old["rules"], "rolling": False, "stake": None}
    assert [h["entered"] for h in shown["hands"]] == [
        {**h, "recorded_at": h.get("recorded_at")} for h in old["hands"]
    ]
    # The undone hands are still there to redo, the latest undone first; each redo saves.
    for hand in old["undone"][::-1]:
        redone = run("redo")
        assert redone.exit_code == 0, redone.stderr
        assert show_json()["hands"][-1]["entered"] == {
            **hand,
            "recorded_at": hand.get("recorded_at"),
        }
    assert run("redo").exit_code == 1
    for _ in old["undone"]:
        assert run("undo").exit_code == 0
    if not old["undone"]:
        assert run("undo").exit_code == 0
        assert run("redo").exit_code == 0
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == SCHEMA_VERSION
    assert show_json() == shown


def test_moving_in_the_journal_shows_a_game_not_entered_as_the_sheet_does(run: Run) -> None:
    """A game a player has not entered is '–' on the sheet, and so in what undo, redo and
    restore say (not a score of 0)."""
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    assert flat(run("undo").stdout).endswith(
        "Undone: change 1 (recorded hand 1: gin by Ann, 25 + 10 = 35). "
        "The sheet has 0 hands. Game I: Ann 35 → –."
    )
    assert flat(run("redo").stdout).endswith("The sheet has 1 hand. Game I: Ann – → 35.")
    assert flat(run("restore", "2").stdout).endswith(
        "Restored the match as after change 2 (undid change 1 (recorded hand 1)). "
        "The sheet has 0 hands. Game I: Ann 35 → –."
    )


def test_the_log_at_the_table_is_drawn_as_hgin_log_draws_it(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2026-12-01T20:15:00+01:00")
    run("new", "Ann", "Bob", "--dealer", "Ann")
    assert run("play", input="l\n").stdout.endswith("No changes yet.\n")
    for _ in range(11):
        run("gin", "ann", "5")
        run("undo")
    monkeypatch.setenv("COLUMNS", "40")
    played = run("play", input="log\n")
    assert played.exit_code == 0, played.stderr
    logged = played.stdout[played.stdout.index("The last 20") :]
    assert logged.startswith("The last 20 of 22 changes:\nChange 3 · Tue 1 Dec, 20:15\n")
    assert logged.endswith("Change 22 · Tue 1 Dec, 20:15\n  undid change 21 (recorded hand 1)\n")
    assert "recorded hand 1: gin by Ann, 25 + 5 =\n  30 (undone)\n" in logged
