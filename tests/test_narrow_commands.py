"""Every command at 40, 60 and 80 columns, and piped: no line wider than the terminal, and no
name, figure or formula cut or split to make it fit (tables turn into records instead)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from tests.conftest import Run, recorded_home

LONG = "Christabel-Annabelle"
# Values that must each appear whole on one line, whatever the width.
WHOLE = {
    "show": [LONG, "Bartholomew", "█████░░░"],
    "summary": [LONG, "25 + 40 = 65", "30 − 3 = 27", "knock won by Bartholomew"],
    "summary of Zoë v Bob": ["5 − 4 + 25 = 26", "games I and II", "undercut by Zoë"],
    "matches": [f"{LONG} v Bartholomew", "{zoe}", "won by Annabelle"],
    "stats": ["Annabelle", "Bartholomew", "65.00", "Annabelle v Bartholomew", "1–0"],
    "rules": ["gin-bonus", "undercut-bonus", "alternate"],
    "restore": ["000001-", "no hands"],
    "settle": ["Game I: Annabelle wins 290 (290 to 0)."],
    "config": ["rules    friendly  (default)", "(from the rules)"],
}
COMMANDS: dict[str, tuple[str, ...]] = {
    "show": ("show", "-m", "{christabe}"),
    "summary": ("summary", "-m", "{christabe}"),
    "summary of Zoë v Bob": ("summary", "-m", "{zoe}"),
    "matches": ("matches",),
    "stats": ("stats",),
    "rules": ("rules",),
    "restore": ("restore", "--backup", "-m", "{zoe}"),
    "settle": ("settle", "-m", "{annabelle}"),
    "config": ("config",),
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three matches: a finished one (statistics), Zoë v Bob with a knock, a gin and an
    undercut, and a five-game match between long names."""
    return recorded_home(
        tmp_path_factory.mktemp("narrow") / "home",
        ("new", "Annabelle", "Bartholomew", "--rules", "classic", "--games", "1", "--target", "50"),
        ("gin", "ann", "40"),
        ("new", LONG, "Bartholomew", "--rules", "classic", "--games", "5", "--dealer", "Bart"),
        ("gin", "chr", "40"),
        ("knock", "bar", "3", "30"),
        ("new", "Zoë", "Bob", "--dealer", "Bob"),
        ("knock", "zo", "3", "30"),
        ("gin", "bob", "20"),
        ("knock", "bob", "5", "4"),
    )


@pytest.fixture
def home(template: Path, hgin_home: Path) -> Path:
    import shutil

    shutil.copytree(template, hgin_home)
    return hgin_home


def whole_on_a_line(value: str, text: str) -> bool:
    return any(value in line for line in text.splitlines())


def filled(words: tuple[str, ...] | list[str], home: Path) -> list[str]:
    """`words` with {christabe} and {zoe} replaced by those matches' identifiers."""
    ids = {p.stem.split("-")[3]: p.stem for p in (home / "matches").glob("*.json")}
    return [w.format(**ids) for w in words]


@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_fits_without_cutting(
    run: Run, monkeypatch: pytest.MonkeyPatch, home: Path, width: int, name: str
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    result = run(*filled(COMMANDS[name], home))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "…" not in text  # Rich's mark of a cut value
    too_wide = [line for line in text.splitlines() if cell_len(line) > width]
    assert too_wide == []
    for value in filled(WHOLE[name], home):
        assert whole_on_a_line(value, text), (value, text)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_piped_output_has_no_trailing_blanks(
    run: Run, monkeypatch: pytest.MonkeyPatch, home: Path, name: str
) -> None:
    monkeypatch.delenv("COLUMNS")
    text = run(*filled(COMMANDS[name], home)).stdout
    assert text and all(line == line.rstrip() for line in text.splitlines())


def test_piped_sentences_are_not_wrapped(
    run: Run, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    monkeypatch.delenv("COLUMNS")
    result = run(*filled(("gin", "chr", "50", "-m", "{christabe}"), home))
    sentence = next(line for line in result.stdout.splitlines() if line.startswith("Gin:"))
    assert sentence.startswith(f"Gin: {LONG} scores 25 + 50 = 75 in games I and II; game I ")
    assert sentence.endswith(")."), sentence
    assert len(sentence) > 80
    assert "Only finished matches count. Best: most points in one hand won. Streak:" in (
        run("stats").stdout
    )


@pytest.mark.usefixtures("home")
def test_with_columns_set_piped_sentences_wrap_at_that_width(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    lines = run("stats").stdout.splitlines()
    assert max(cell_len(line) for line in lines) <= 60
    assert all(line == line.rstrip() for line in lines)


def test_long_names_fit_forty_columns(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    first, second = "Maximiliana-Fitzgerald", "Bartholomew-Montgomery"
    assert run("new", first, second, "--dealer", "Max").exit_code == 0
    assert run("series", "new", "Christabel-Annabelle", "Wilhelmina-Josephine").exit_code == 0
    for command in (("matches",), ("series", "list")):
        text = run(*command).stdout
        assert [line for line in text.splitlines() if cell_len(line) > 40] == [], command
        assert "…" not in text
    listed = run("matches").stdout
    assert whole_on_a_line(second, listed) and whole_on_a_line("-maximilia-bartholom", listed)


def test_the_match_list_as_records_marks_the_current_match_once(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2025-06-01T20:00:00+02:00")
    monkeypatch.setenv("COLUMNS", "40")
    assert run("new", "Christabel-Annabelle", "Bartholomew-Montgomery").exit_code == 0
    assert run("matches").stdout == (
        "2025-06-01-christabe-bartholom\n"
        "  * current\n"
        "  Christabel-Annabelle v\n"
        "  Bartholomew-Montgomery\n"
        "  friendly · 2025-06-01 · 0 hands\n"
        "  in play\n"
    )


HANDS_AT_40 = """\
Hands
Hand 1: gin by José María
  Zoë dealt · 25 + 12 = 37 · game I
  after it (José María v Zoë): I 37/–
Hand 2: knock won by Zoë
  José María dealt · 20 − 3 = 17
  game I
  after it (José María v Zoë): I 37/17
Hand 3: undercut by Zoë
  Zoë dealt · 9 − 5 + 25 = 29
  games I and II
  after it (José María v Zoë): I 37/46
  II –/29
Hand 4: dead hand
  José María dealt
  after it (José María v Zoë): I 37/46
  II –/29
"""


def test_the_summary_hands_as_records_break_between_games_and_skip_empty_figures(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No separator left at a line's end, and no '· – · –' for a dead hand's points and games."""
    monkeypatch.setenv("COLUMNS", "40")
    assert run("new", "José María", "Zoë", "--dealer", "Zoë").exit_code == 0
    for hand in (("gin", "jos", "12"), ("knock", "zo", "3", "20"), ("knock", "jo", "9", "5")):
        assert run(*hand).exit_code == 0
    assert run("draw").exit_code == 0
    text = run("summary").stdout
    assert text[text.index("Hands\n") :] == HANDS_AT_40


def test_the_log_at_forty_columns_gives_each_change_the_width(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2025-06-01T20:00:00+02:00")
    monkeypatch.setenv("COLUMNS", "40")
    assert run("new", "Christabel-Annabelle", "Bartholomew-Montgomery").exit_code == 0
    assert run("gin", "chr", "90").exit_code == 0
    assert run("undo").exit_code == 0
    assert run("log").stdout == (
        "Changes of match\n"
        "2025-06-01-christabe-bartholom, oldest\n"
        "first:\n"
        "Change 1 · Sun 1 Jun 2025, 20:00\n"
        "  recorded hand 1: gin by\n"
        "  Christabel-Annabelle, 25 + 90 = 115\n"
        "  (undone)\n"
        "Change 2 · Sun 1 Jun 2025, 20:00\n"
        "  undid change 1 (recorded hand 1)\n"
        "'hgin undo' reverts the latest change in\n"
        "force; 'hgin restore N' goes back to N.\n"
    )
    monkeypatch.setenv("COLUMNS", "60")
    assert "1   Sun 1 Jun 2025, 20:00   recorded hand 1: gin by" in run("log").stdout


@pytest.mark.parametrize("command", [(), ("new",), ("summary",), ("series", "new"), ("stats",)])
def test_help_fits_forty_columns(
    run: Run, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    text = run(*command, "--help").stdout
    assert text.startswith("Usage: hgin")
    assert [line for line in text.splitlines() if cell_len(line) > 40] == []


def test_refusals_wrap_between_words_on_a_terminal_and_stay_whole_piped(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    assert run("new", LONG, "Bartholomew").exit_code == 0
    refusals = {
        ("gin", "zed", "10"): 1,
        ("knock", "chr", "5"): 2,
        ("knock", "chr", "5", "6", "--big"): 2,
    }
    piped = {words: run(*words) for words in refusals}
    monkeypatch.setattr("hgin.cli.application.is_terminal", lambda stream: True)
    for words, code in refusals.items():
        shown = run(*words)
        assert (shown.exit_code, piped[words].exit_code) == (code, code)
        assert [line for line in shown.stderr.splitlines() if cell_len(line) > 40] == []
        assert shown.stderr.split() == piped[words].stderr.split()  # no word cut in two
    first = piped[("gin", "zed", "10")].stderr
    assert first == f"hgin: 'zed' is not a player in this match ({LONG} or Bartholomew)\n"


def test_rules_at_forty_columns_read_a_record_per_option(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("new", "Ann", "Bob")
    monkeypatch.setenv("COLUMNS", "40")
    lines = run("rules").stdout.splitlines()
    assert "gin-bonus 25" in lines and "dealer-rule alternate" in lines
    # The meanings get the width, not a column a word or two wide.
    assert "  Points for gin, on top of the" in lines
    assert "  Bonus to the defender who undercuts a" in lines


def test_an_indented_line_that_wraps_goes_on_under_its_own_start(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    lines = run("config").stdout.splitlines()
    at = lines.index("  (not there: 'hgin config --init'")
    assert lines[at + 1] == "  writes a starter)"


HELP_AT_40 = """\
One line per hand; cut words short as in
[brackets]:
[g]in PLAYER THEIRS
  gin; THEIRS: their deadwood
[k]nock PLAYER MINE THEIRS
  knock (hgin sees undercuts)
[d]raw
  a dead hand
[c]ount CARDS [-o CARDS]
  melds, deadwood, discard; records
  nothing
"""
KNOCK_HELP = """\
[k]nock PLAYER MINE THEIRS      knock (hgin sees undercuts)
PLAYER                          any unique start of a name
--big (-b)                      big gin
-u 7s                           an Oklahoma upcard
--hand "..." --opponent "..."   the cards instead: hgin counts
"""


def test_the_help_at_the_table_is_a_record_per_word_at_forty_columns(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("new", "Ann", "Bob")
    monkeypatch.setenv("COLUMNS", "40")
    text = run("play", input="help\n").stdout
    shown = text[text.index("One line per hand") :]
    assert shown.startswith(HELP_AT_40)
    assert shown.endswith('--hand "..." --opponent "..."\n  the cards instead: hgin counts\n')
    monkeypatch.delenv("COLUMNS")  # piped: a table, its columns lined up
    assert run("play", input="help k\n").stdout.endswith(KNOCK_HELP)


def test_short_messages_wrap_between_words_at_forty_columns_and_stay_whole_piped(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: "2025-06-01T20:00:00+02:00")
    monkeypatch.setenv("COLUMNS", "40")
    assert run("matches").stdout == "No matches yet: start one with 'hgin new\nNAME1 NAME2'.\n"
    assert run("series", "list").stdout == (
        "No series yet: start one with 'hgin\nseries new NAME1 NAME2 --to 500'.\n"
    )
    assert run("new", "Christabel-Annabelle", "Bartholomew-Montgomery").exit_code == 0
    assert run("log").stdout == ("Match 2025-06-01-christabe-bartholom has\nno changes yet.\n")
    assert run("restore", "--backup").stdout == (
        "Match 2025-06-01-christabe-bartholom has\n"
        "no backups yet: one is kept each time it\n"
        "changes.\n"
    )
    monkeypatch.delenv("COLUMNS")
    assert run("series", "list").stdout == (
        "No series yet: start one with 'hgin series new NAME1 NAME2 --to 500'.\n"
    )


def test_the_rules_profiles_at_forty_columns_read_a_record_per_profile(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("rules", "save", "pub", "--gin-bonus", "20", "--tie=knocker").exit_code == 0
    monkeypatch.setenv("COLUMNS", "40")
    assert run("rules", "--list").stdout == (
        "friendly · built-in\n"
        "  nothing\n"
        "classic · built-in\n"
        "  game-bonus 100 · box-bonus 25\n"
        "  shutout bonus · dealer-rule winner\n"
        "  redeal same\n"
        "pub · preset\n"
        "  gin-bonus 20 · tie knocker\n"
    )
    monkeypatch.setenv("COLUMNS", "60")
    assert "classic    built-in   game-bonus 100, box-bonus 25, shutout" in (
        run("rules", "--list").stdout.splitlines()
    )


@pytest.mark.parametrize(("ascii_only", "dot"), [("0", "·"), ("1", "/")])
def test_a_player_without_a_hand_won_has_no_average_in_the_records(
    run: Run, monkeypatch: pytest.MonkeyPatch, ascii_only: str, dot: str
) -> None:
    """Not 'avg –', which reads 'avg .' in ASCII."""
    monkeypatch.setenv("HGIN_ASCII", ascii_only)
    run("new", "Ann", "Bartholomew", "--games", "1", "--target", "50", "--dealer", "Ann")
    assert run("gin", "ann", "40").exit_code == 0
    monkeypatch.setenv("COLUMNS", "40")
    text = run("stats").stdout
    start = text.index("Bartholomew\n")
    assert text[start : text.index("\n\n", start)] == (
        "Bartholomew\n"
        f"  matches 1 {dot} won 0 {dot} games 0 {dot} hands 0\n"
        f"  gins 0 {dot} knocks 0 {dot} undercuts 0\n"
        f"  best 0 {dot} streak 0"
    )
    assert f"  best 65 {dot} streak 1 {dot} avg 65.00\n" in text
