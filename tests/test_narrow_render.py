"""The sheet in a narrow terminal and without colour: nothing lost, nothing carried by colour."""

from __future__ import annotations

import json
import re

import pytest
from rich.cells import cell_len

from tests.conftest import Run

CLASSIC_HANDS = (
    ("knock", "A", "4", "34"),
    ("gin", "A", "18"),
    ("knock", "a", "3", "38"),
    ("knock", "B", "5", "27"),
)
# Game I closes at hand 3 with A's 108 (+200: B shut out, +75: three boxes); B's first
# win then enters only game I, which is closed, so it is entered nowhere.
SHEET_AT_60 = """\
Ann v Bob · classic rules · 3 games to 100
match 2025-06-01-ann-bob
              Game I    Game II   Game III
Player        closed     to 100     to 100   Wins   Total
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
Ann            ✓ 108         78         35      3     496
                +275   ██████░░   ███░░░░░
Bob (deals)        –          –          –      1       0

won by           Ann       open       open
– not entered yet · ✓ game won (closed, no more scores)
█ share of the 100 reached
Next deal: Bob.
Knock: Bob scores 27 − 5 = 22 but every game that win 1
enters is closed, so it is entered nowhere.
"""
# Five games and longer names do not fit across 60 columns: the sheet turns on its side.
SIDEWAYS_AT_60 = """\
Christabel v Bartholomew · classic rules · 5 games to 100
match 2025-06-01-christabe-bartholom
           Christabel   Bartholomew (deals)
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
Game I          ✓ 108                     –
closed           +275
Game II            78                     –
to 100       ██████░░
Game III           35                     –
to 100       ███░░░░░
Game IV             –                     –
to 100
Game V              –                     –
to 100

Wins                3                     1
Total             496                     0
– not entered yet · ✓ game won (closed, no more scores)
█ share of the 100 reached
Next deal: Bartholomew.
Gin: Bartholomew scores 25 + 27 = 52 but every game that win
1 enters is closed, so it is entered nowhere.
"""
COLOUR_CODE = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2025-06-01T20:00:00+02:00")


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def classic_match(run: Run) -> str:
    """Play the classic match; returns what the last hand printed."""
    assert run("new", "Ann", "Bob", "--dealer", "Bob", "--rules", "classic").exit_code == 0
    for hand in CLASSIC_HANDS:
        result = run(*hand)
        assert result.exit_code == 0, result.output
    return result.stdout


def test_sheet_snapshot_at_60_columns(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    printed = classic_match(run)
    assert lines(printed) == lines(SHEET_AT_60)
    assert max(cell_len(line) for line in printed.splitlines()) <= 60
    shown = run("show")
    assert lines(shown.stdout) == lines(SHEET_AT_60)[:-2]


def test_sheet_turns_sideways_when_it_does_not_fit(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    new = ("new", "Christabel", "Bartholomew", "--dealer", "Bart", "--rules", "classic")
    assert run(*new, "--games", "5").exit_code == 0
    for hand in (("knock", "C", "4", "34"), ("gin", "C", "18"), ("knock", "c", "3", "38")):
        assert run(*hand).exit_code == 0
    printed = run("gin", "Bart", "27").stdout
    assert lines(printed) == lines(SIDEWAYS_AT_60)
    assert max(cell_len(line) for line in printed.splitlines()) <= 60


@pytest.mark.parametrize("width", [40, 48, 56, 64, 80, 100, 140])
def test_every_width_keeps_every_number(
    run: Run, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    new = ("new", "Maximiliana Fitzgerald", "Bartholomew", "--dealer", "Bart")
    assert run(*new, "--rules", "classic").exit_code == 0
    for hand in (("knock", "M", "4", "34"), ("gin", "M", "18"), ("knock", "m", "3", "38")):
        assert run(*hand).exit_code == 0
    printed = run("show").stdout
    assert max(cell_len(line) for line in printed.splitlines()) <= width
    for token in ("✓ 108", "+275", "78", "35", "496", "closed", "to 100", "wins"):
        assert token in printed.casefold(), token  # 'Wins' in the tables, 'wins' in records
    assert "…" not in printed  # nothing cut off


def test_no_colour_codes_under_no_color_even_in_a_terminal(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR")
    coloured = classic_match(run)
    assert COLOUR_CODE.search(coloured)  # the check below can see colour when there is some
    monkeypatch.setenv("NO_COLOR", "1")
    plain = run("show").stdout
    assert not COLOUR_CODE.search(plain)
    assert lines(ANSI.sub("", plain)) == lines(SHEET_AT_60)[:-2]


LONGEST = ("Alexandrina-" + "x" * 28, "Bartholomew-" + "y" * 28)  # 40 characters: the most allowed


def test_the_longest_names_keep_the_identifier_whole(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    assert run("new", *LONGEST).exit_code == 0
    rules, match = "friendly rules · 3 games to 100", "match 2025-06-01-alexandri-bartholom"
    assert lines(run("show").stdout)[:5] == [LONGEST[0], "v", LONGEST[1], rules, match]


def test_names_without_latin_letters_are_told_apart_in_the_identifier(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each such name gets the same code every time (earlier releases wrote 'player')."""
    monkeypatch.setenv("COLUMNS", "40")
    assert run("new", "王小明", "王小红").exit_code == 0
    rules = "friendly rules · 3 games to 100"
    assert lines(run("show").stdout)[:3] == [
        "王小明 v 王小红",
        rules,
        "match 2025-06-01-x897df7-x1dd5b7",
    ]
    assert run("new", "Иван", "Ольга").exit_code == 0
    assert run("new", "иван", "Ann").exit_code == 0
    assert [m["id"] for m in json.loads(run("matches", "--json").stdout)] == [
        "2025-06-01-xdf7ea2-x1e338c",
        "2025-06-01-xdf7ea2-ann",
        "2025-06-01-x897df7-x1dd5b7",
    ]


def test_the_next_dealer_with_the_longest_name_keeps_the_full_stop_or_drops_it(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    assert run("new", *LONGEST, "--dealer", "Bart").exit_code == 0
    assert lines(run("show").stdout)[-2:] == ["Next deal:", LONGEST[1]]  # no stop on its own
    monkeypatch.setenv("COLUMNS", "60")
    assert lines(run("show").stdout)[-1] == f"Next deal: {LONGEST[1]}."


RECORDS_AT_40 = """\
Christabel-Annabelle v
Bartholomew-Montgomery
classic rules · 3 games to 100
match 2025-06-01-christabe-bartholom
Christabel-Annabelle (deals)
  I 70  ██████░░ · II 35  ███░░░░░
  III –
  wins 2 · total 105
Bartholomew-Montgomery
  I – · II – · III –
  wins 0 · total 0
– not entered yet
█ share of the 100 reached
Next deal: Christabel-Annabelle.
"""


def test_the_sheet_as_records_gives_each_player_a_record(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record per player: its games break between games, never inside a bar."""
    monkeypatch.setenv("COLUMNS", "40")
    new = ("new", "Christabel-Annabelle", "Bartholomew-Montgomery", "--rules", "classic")
    assert run(*new, "--dealer", "Bart").exit_code == 0
    for hand in (("gin", "chr", "10"), ("gin", "chr", "10")):
        assert run(*hand).exit_code == 0
    assert run("show").stdout == RECORDS_AT_40


ONE_GAME_AT_60 = """\
Christabel-Annabelle v Bartholomew-Montgomery
friendly rules · one game to 50
match 2025-06-01-christabe-bartholom
                                       Game I
Player                                 closed   Wins
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
Christabel-Annabelle                     ✓ 65      1
(winner)
Bartholomew-Montgomery                      –      0

won by                   Christabel-Annabelle
– not entered yet · ✓ game won (closed, no more scores)
Match over: Christabel-Annabelle wins the game.
"""


def test_a_name_longer_than_the_player_column_widens_it_rather_than_being_cut(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    new = ("new", "Christabel-Annabelle", "Bartholomew-Montgomery", "--games", "1")
    assert run(*new, "--target", "50").exit_code == 0
    assert run("gin", "chr", "40").exit_code == 0
    assert lines(run("show").stdout) == lines(ONE_GAME_AT_60)


FORTY = "Maximiliana-Fitzgerald-Montgomery-Smythe"
PLAYER_RECORDS_AT_40 = f"""\
{FORTY}
v Bob
classic rules · 3 games to 100
match 2025-06-01-maximilia-bob
{FORTY}
(deals)
  I 85  ███████░ · II – · III –
  wins 1 · total 85
Bob
  I – · II – · III –
  wins 0 · total 0
– not entered yet
█ share of the 100 reached
Next deal:
{FORTY}
"""


def test_a_name_of_forty_characters_stands_on_its_own_line_at_forty_columns(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not folded, as it was indented under a game; '(deals)' goes on the next line."""
    monkeypatch.setenv("COLUMNS", "40")
    assert len(FORTY) == 40
    assert run("new", FORTY, "Bob", "--rules", "classic", "--dealer", "Bob").exit_code == 0
    assert run("gin", "max", "60").exit_code == 0
    assert run("show").stdout == PLAYER_RECORDS_AT_40
