"""`hgin summary --format ...`: every export read back with a real parser, exact numbers.

The fixed match is seed 000's worked example (A: 30, gin against 18 = 43, 35 -> games
108 / 78 / 35), then a win of B's that is entered nowhere (game I is closed) and a dead hand.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Run, snapshot

FIXED_TIME = "2025-06-01T20:00:00+02:00"
SEED_HANDS = (("knock", "A", "4", "34"), ("gin", "A", "18"), ("knock", "a", "3", "38"))
MORE_HANDS = (("knock", "B", "5", "27"), ("draw",))
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Match identifiers and start times hold the date: pin it so outputs are exact."""
    monkeypatch.setattr("hgin.scorekeeper.now_text", lambda: FIXED_TIME)


def play(run: Run, rules: str = "friendly", hands: tuple[tuple[str, ...], ...] = ()) -> None:
    assert run("new", "A", "B", "--dealer", "B", "--rules", rules).exit_code == 0
    for hand in (*SEED_HANDS, *hands):
        result = run(*hand)
        assert result.exit_code == 0, result.output


def summary(run: Run, *args: str) -> str:
    result = run("summary", *args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout


# -- text ----------------------------------------------------------------------------------

TEXT = """\
Hollywood Gin: A v B
Match 2025-06-01-a-b, started 2025-06-01T20:00:00+02:00
Rules: friendly rules · 3 games to 100
First dealer: B
In progress after 5 hands; A deals next.

Games
Game   Winner     A   B
───────────────────────
I      A        108   0
II     open      78   0
III    open      35   0
Hands won: A 3, B 1

Hands
#   Dealer   Result                 Points   Entered in
──────────────────────────────────────────────────────────────────────────
1   B        knock won by A    34 − 4 = 30   game I
2   A        gin by A         25 + 18 = 43   games I and II
3   B        knock won by A    38 − 3 = 35   games I, II and III; I closes
4   A        knock won by B    27 − 5 = 22   nowhere (games closed)
5   B        dead hand                   –   –
"""


def test_text_is_the_terminal_summary(run: Run, tmp_path: Path) -> None:
    play(run, hands=MORE_HANDS)
    printed = summary(run)
    assert [line.rstrip() for line in printed.splitlines()] == TEXT.splitlines()
    assert summary(run, "--format", "text") == printed
    target = tmp_path / "summary.txt"
    said = summary(run, "-f", "text", "-o", str(target))
    assert said == f"Wrote the text summary of match 2025-06-01-a-b to {target}\n"
    assert target.read_text(encoding="utf-8") == TEXT


# -- JSON ----------------------------------------------------------------------------------


def test_json_is_show_json_plus_the_summary_fields(run: Run, show_json) -> None:
    play(run, hands=MORE_HANDS)
    data = json.loads(summary(run, "--format", "json"))
    extra = {key: data.pop(key) for key in ("created", "first_dealer", "rules_label", "result")}
    assert data == show_json()
    assert extra == {
        "created": FIXED_TIME,
        "first_dealer": "B",
        "rules_label": "friendly rules · 3 games to 100",
        "result": "In progress after 5 hands; A deals next.",
    }
    assert data["id"] == "2025-06-01-a-b"
    assert [g["scores"] for g in data["games"]] == [
        {"A": 108, "B": 0},
        {"A": 78, "B": 0},
        {"A": 35, "B": 0},
    ]
    assert [h["points"] for h in data["hands"]] == [30, 43, 35, 22, 0]
    assert [h["games"] for h in data["hands"]] == [[1], [1, 2], [1, 2, 3], [], []]


def test_json_of_a_finished_classic_match(run: Run) -> None:
    play(run, rules="classic", hands=(("gin", "A", "30"), ("knock", "A", "2", "40")))
    data = json.loads(summary(run, "-f", "json"))
    assert data["result"] == "Match over: A wins 3 games to 0."
    assert data["rules_label"] == "classic rules · 3 games to 100"
    assert [g["scores"]["A"] for g in data["games"]] == [108, 133, 128]
    # Each game: B shut out (+200) and three of A's hands in it (+75).
    assert [g["bonuses"]["A"] for g in data["games"]] == [275, 275, 275]
    assert data["totals"] == {"A": 108 + 133 + 128 + 3 * 275, "B": 0}


# -- CSV -----------------------------------------------------------------------------------

CSV_HEADER = [
    "Hand",
    "Dealer",
    "Result",
    "Winner",
    "Knocker",
    "Knocker deadwood",
    "Opponent deadwood",
    "Points",
    "Formula",
    "Games entered",
    "Games closed",
    "Game I A",
    "Game I B",
    "Game II A",
    "Game II B",
    "Game III A",
    "Game III B",
]
CSV_TEXT = """\
Hand,Dealer,Result,Winner,Knocker,Knocker deadwood,Opponent deadwood,Points,Formula,\
Games entered,Games closed,Game I A,Game I B,Game II A,Game II B,Game III A,Game III B
1,B,knock,A,A,4,34,30,34 − 4 = 30,I,,30,0,0,0,0,0
2,A,gin,A,A,0,18,43,25 + 18 = 43,I II,,73,0,43,0,0,0
3,B,knock,A,A,3,38,35,38 − 3 = 35,I II III,I,108,0,78,0,35,0
4,A,knock,B,B,5,27,22,27 − 5 = 22,,,108,0,78,0,35,0
5,B,draw,,,,,0,no score,,,108,0,78,0,35,0
"""


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_csv_has_a_row_per_hand_with_running_scores(run: Run) -> None:
    play(run, hands=MORE_HANDS)
    text = summary(run, "--format", "csv")
    assert text == CSV_TEXT
    rows = read_csv(text)
    assert rows[0] == CSV_HEADER
    assert all(len(row) == len(CSV_HEADER) for row in rows)
    by_name = [dict(zip(CSV_HEADER, row, strict=True)) for row in rows[1:]]
    assert [row["Game I A"] for row in by_name] == ["30", "73", "108", "108", "108"]
    assert [row["Game II A"] for row in by_name] == ["0", "43", "78", "78", "78"]
    assert [row["Game III A"] for row in by_name] == ["0", "0", "35", "35", "35"]
    assert [row["Games closed"] for row in by_name] == ["", "", "I", "", ""]


def test_csv_under_classic_rules_adds_running_sheet_totals(run: Run) -> None:
    play(run, rules="classic", hands=MORE_HANDS)
    rows = read_csv(summary(run, "-f", "csv"))
    assert rows[0][-2:] == ["Total A", "Total B"]
    # Game I closes at hand 3: 108 points + 200 (B shut out) + 3 boxes of 25.
    assert [row[-2:] for row in rows[1:]] == [
        ["30", "0"],
        ["116", "0"],
        ["496", "0"],
        ["496", "0"],
        ["496", "0"],
    ]
    # Classic: the winner of a hand deals the next; a dead hand is dealt again.
    assert [row[1] for row in rows[1:]] == ["B", "A", "A", "A", "B"]


def test_csv_keeps_names_from_running_as_formulas(run: Run) -> None:
    assert run("new", "=cmd|x", "@bob", "--dealer", "@").exit_code == 0
    assert run("gin", "=", "12").exit_code == 0
    rows = read_csv(summary(run, "-f", "csv"))
    assert rows[0][11:13] == ["Game I =cmd|x", "Game I @bob"]
    assert rows[1][1:5] == ["'@bob", "gin", "'=cmd|x", "'=cmd|x"]


# -- Markdown ------------------------------------------------------------------------------


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every table as rows of cells, split on unescaped pipes and unescaped back."""
    tables: list[list[list[str]]] = []
    inside = False
    for line in text.splitlines():
        if not line.startswith("|"):
            inside = False
            continue
        cells = re.split(r"(?<!\\)\|", line)[1:-1]
        row = [re.sub(r"\\(.)", r"\1", cell.strip()) for cell in cells]
        if not inside:
            tables.append([])
            inside = True
        tables[-1].append(row)
    return tables


def test_markdown_tables(run: Run) -> None:
    play(run, rules="classic", hands=MORE_HANDS)
    text = summary(run, "-f", "markdown")
    assert text.startswith(
        "## Hollywood Gin: A v B\n\n**In progress after 5 hands; B deals next.**"
    )
    assert "match `2025-06-01-a-b`" in text
    games, hands = markdown_tables(text)
    assert games == [
        ["Game", "Winner", "A", "B"],
        [":--", ":--", "--:", "--:"],
        ["I", "A", "108 + 275 = 383", "0"],
        ["II", "open", "78", "0"],
        ["III", "open", "35", "0"],
        ["**Total**", "", "**496**", "**0**"],
    ]
    assert hands[0] == ["#", "Dealer", "Result", "Points", "Entered in"]
    assert hands[2:] == [
        ["1", "B", "knock won by A", "34 − 4 = 30", "game I"],
        ["2", "A", "gin by A", "25 + 18 = 43", "games I and II"],
        ["3", "A", "knock won by A", "38 − 3 = 35", "games I, II and III; I closes"],
        ["4", "A", "knock won by B", "27 − 5 = 22", "nowhere (games closed)"],
        ["5", "B", "dead hand", "–", "–"],
    ]
    assert "Hands won: A 3, B 1" in text


def test_markdown_escapes_names(run: Run) -> None:
    assert run("new", "*Ann*|x", "[B](u) <i>", "--dealer", "*").exit_code == 0
    assert run("knock", "[", "2", "9").exit_code == 0
    text = summary(run, "-f", "markdown")
    assert "## Hollywood Gin: \\*Ann\\*\\|x v \\[B\\](u) \\<i\\>" in text
    games, hands = markdown_tables(text)
    assert games[0] == ["Game", "Winner", "*Ann*|x", "[B](u) <i>"]
    assert all(len(row) == 4 for row in games)
    assert hands[2] == ["1", "*Ann*|x", "knock won by [B](u) <i>", "9 − 2 = 7", "game I"]
    assert "<i>" not in text.replace("\\<i\\>", "")


# -- HTML ----------------------------------------------------------------------------------


class PageReader(HTMLParser):
    """The parts of a page the tests look at: tables by section, tags, title, text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.section = ""
        self.cell: list[str] | None = None
        self.title = ""
        self.in_title = False
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "section":
            self.section = dict(attrs).get("id") or ""
        elif tag == "table":
            self.tables[self.section] = []
        elif tag == "tr":
            self.tables[self.section].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "title":
            self.in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[self.section][-1].append("".join(self.cell).strip())
            self.cell = None
        elif tag == "title":
            self.in_title = False

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        if self.in_title and not self.title:
            self.title = data
        self.text.append(data)


def read_page(text: str) -> PageReader:
    reader = PageReader()
    reader.feed(text)
    reader.close()
    return reader


def test_html_page_tables(run: Run) -> None:
    play(run, rules="classic", hands=MORE_HANDS)
    page = read_page(summary(run, "--format", "html"))
    assert page.title == "Hollywood Gin: A v B"
    assert page.tables["games"] == [
        ["Game", "Winner", "A", "B"],
        ["I", "A", "108 + 275 = 383", "0"],
        ["II", "open", "78", "0"],
        ["III", "open", "35", "0"],
        ["Total", "", "496", "0"],
    ]
    assert page.tables["hands"] == [
        ["#", "Dealer", "Result", "Points", "Entered in"],
        ["1", "B", "knock won by A", "34 − 4 = 30", "game I"],
        ["2", "A", "gin by A", "25 + 18 = 43", "games I and II"],
        ["3", "A", "knock won by A", "38 − 3 = 35", "games I, II and III; I closes"],
        ["4", "A", "knock won by B", "27 − 5 = 22", "nowhere (games closed)"],
        ["5", "B", "dead hand", "–", "–"],
    ]
    text = "".join(page.text)
    assert "In progress after 5 hands; B deals next." in text
    assert "Match 2025-06-01-a-b, started 2025-06-01T20:00:00+02:00" in text
    sections = [attrs.get("id") for tag, attrs in page.tags if tag == "section"]
    assert sections[:2] == ["overview", "games"] and sections[-1] == "hands"


def test_html_is_self_contained_and_sized_for_a4(run: Run) -> None:
    play(run, hands=MORE_HANDS)
    text = summary(run, "-f", "html")
    page = read_page(text)
    tags = {tag for tag, _ in page.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed"}
    for _, attrs in page.tags:
        for name in ("src", "href"):
            assert attrs.get(name) is None
    assert "url(" not in text and "@import" not in text
    assert "@page { size: A4;" in text


def test_html_escapes_every_name(run: Run) -> None:
    assert run("new", "<b>Ann</b>", "Bo & <script>x", "--dealer", "<").exit_code == 0
    assert run("gin", "bo", "7").exit_code == 0
    text = summary(run, "-f", "html")
    page = read_page(text)
    assert not {tag for tag, _ in page.tags} & {"b", "script"}
    assert page.title == "Hollywood Gin: <b>Ann</b> v Bo & <script>x"
    assert page.tables["games"][0] == ["Game", "Winner", "<b>Ann</b>", "Bo & <script>x"]
    assert page.tables["hands"][1][:3] == ["1", "<b>Ann</b>", "gin by Bo & <script>x"]


# -- SVG -----------------------------------------------------------------------------------


def svg_lines(text: str) -> list[str]:
    """The SVG's text put back on a character grid (Rich places each run at x = column * 12)."""
    root = ET.fromstring(text)
    placed: dict[int, dict[int, str]] = {}
    for element in root.iter(f"{SVG}text"):
        row = round((float(element.attrib["y"]) - 20) / 24.4)
        column = round(float(element.attrib["x"]) / 12)
        placed.setdefault(row, {})[column] = (element.text or "").replace("\xa0", " ")
    lines = []
    for row in range(max(placed) + 1):
        line = ""
        for column, run_text in sorted(placed.get(row, {}).items()):
            line = line.ljust(column) + run_text
        lines.append(line.rstrip())
    return lines


def test_svg_is_an_a4_page_holding_the_text_summary(run: Run) -> None:
    play(run, hands=MORE_HANDS)
    text = summary(run, "--format", "svg")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert (root.attrib["width"], root.attrib["height"]) == ("210mm", "297mm")
    assert root.attrib["viewBox"] == "0 0 210 297"
    assert root.find(f"{SVG}title") is not None
    assert root.findtext(f"{SVG}title") == "Hollywood Gin: A v B"
    assert svg_lines(text) == TEXT.splitlines()
    page = root.find(f"{SVG}svg")
    assert page is not None
    assert page.attrib["viewBox"].split()[2] == "959.0"  # 80 columns of 12 units


def test_svg_of_a_long_match_is_drawn_wider_to_print_larger(run: Run) -> None:
    new = ("new", "Maximiliana Fitzgerald", "Bartholomew Oppenheimer", "--dealer", "Bart")
    assert run(*new, "--target", "250").exit_code == 0
    for _ in range(12):
        assert run("knock", "Max", "2", "9").exit_code == 0
        assert run("knock", "Bart", "3", "8").exit_code == 0
    text = summary(run, "-f", "svg")
    page = ET.fromstring(text).find(f"{SVG}svg")
    assert page is not None
    assert page.attrib["viewBox"].split()[2] == "1199.0"  # 100 columns: no hand wraps
    rows = [line for line in svg_lines(text) if re.match(r" ?\d+   ", line)]
    assert [int(row.split()[0]) for row in rows] == list(range(1, 25))
    assert all(row.endswith(("game I", "games I and II", "games I, II and III")) for row in rows)


def test_svg_is_self_contained_and_escapes_names(run: Run) -> None:
    assert run("new", "<b>Ann</b>", "Bo & {x}", "--dealer", "<").exit_code == 0
    assert run("gin", "bo", "7").exit_code == 0
    text = summary(run, "-f", "svg")
    root = ET.fromstring(text)
    assert root.findtext(f"{SVG}title") == "Hollywood Gin: <b>Ann</b> v Bo & {x}"
    assert not list(root.iter(f"{SVG}image")) and not list(root.iter(f"{SVG}script"))
    assert "http" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "@font-face" not in text
    assert svg_lines(text)[0] == "Hollywood Gin: <b>Ann</b> v Bo & {x}"


# -- choosing the match, the output file, refusals -------------------------------------------


def test_match_option_and_a_match_without_hands(run: Run) -> None:
    play(run)
    assert run("new", "Cy", "Di", "--dealer", "Di").exit_code == 0
    games = ["Game I Cy", "Game I Di", "Game II Cy", "Game II Di", "Game III Cy", "Game III Di"]
    assert read_csv(summary(run, "-f", "csv")) == [[*CSV_HEADER[:11], *games]]
    assert summary(run, "-f", "markdown").endswith("Hands won: Cy 0, Di 0\n\nNo hands yet.\n")
    assert "<p>No hands yet.</p>" in summary(run, "-f", "html")
    text = summary(run, "-f", "csv", "--match", "2025-06-01-a")
    assert text == "".join(CSV_TEXT.splitlines(keepends=True)[:4])


@pytest.mark.parametrize("form", ["markdown", "html", "svg", "csv", "json"])
def test_output_file_holds_exactly_what_stdout_shows(run: Run, tmp_path: Path, form: str) -> None:
    play(run, hands=MORE_HANDS)
    target = tmp_path / f"out.{form}"
    target.write_text("an older, longer file " * 100, encoding="utf-8")
    said = summary(run, "-f", form, "-o", str(target))
    assert said == f"Wrote the {form} summary of match 2025-06-01-a-b to {target}\n"
    assert target.read_text(encoding="utf-8") == summary(run, "-f", form)
    assert summary(run, "-f", form, "-o", "-") == summary(run, "-f", form)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/out.html", "cannot write {path}: there is no folder {folder}"),
        (".", "{path} is a folder: give a file name to write"),
    ],
)
def test_output_refusals_change_nothing(
    run: Run, tmp_path: Path, hgin_home: Path, where: str, message: str
) -> None:
    play(run)
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "keep.txt").write_text("kept", encoding="utf-8")
    before, home_before = snapshot(folder), snapshot(hgin_home)
    path = folder / where
    result = run("summary", "-f", "html", "-o", str(path))
    assert result.exit_code == 1
    expected = message.format(path=path, folder=path.parent)
    assert result.stderr == f"hgin: {expected}\n"
    assert result.stdout == ""
    assert snapshot(folder) == before
    assert snapshot(hgin_home) == home_before


def test_unknown_format_is_a_usage_error(run: Run) -> None:
    play(run)
    result = run("summary", "-f", "pdf")
    assert result.exit_code == 2
    assert "pdf" in result.stderr


def test_no_match_is_refused(run: Run) -> None:
    result = run("summary", "-f", "csv")
    assert result.exit_code == 1
    assert result.stderr.startswith("hgin: no match yet")


# -- every format agrees with the sheet, whatever was played -------------------------------

HAND = st.one_of(
    st.tuples(st.just("gin"), st.sampled_from("AB"), st.integers(0, 98)),
    st.tuples(st.just("knock"), st.sampled_from("AB"), st.integers(1, 10), st.integers(0, 98)),
    st.tuples(st.just("draw")),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rules=st.sampled_from(["friendly", "classic"]), hands=st.lists(HAND, max_size=14))
def test_every_format_agrees_with_show_json(
    run: Run, show_json: Any, rules: str, hands: list[tuple[Any, ...]]
) -> None:
    assert run("new", "A", "B", "--dealer", "A", "--rules", rules).exit_code == 0
    for hand in hands:
        if show_json()["finished"]:
            break
        assert run(*(str(part) for part in hand)).exit_code == 0
    sheet = show_json()
    played = sheet["hands"]
    data = json.loads(summary(run, "-f", "json"))
    assert {k: v for k, v in data.items() if k in sheet} == sheet
    rows = read_csv(summary(run, "-f", "csv"))
    assert len(rows) == len(played) + 1
    assert [int(row[7]) for row in rows[1:]] == [h["points"] for h in played]
    assert [row[3] or None for row in rows[1:]] == [h["winner"] for h in played]
    final = [int(cell) for cell in rows[-1][11:17]] if played else [0] * 6
    assert final == [g["scores"][p] for g in sheet["games"] for p in ("A", "B")]
    if rules == "classic" and played:
        assert [int(cell) for cell in rows[-1][17:]] == [sheet["totals"]["A"], sheet["totals"]["B"]]
    page = read_page(summary(run, "-f", "html"))
    assert len(page.tables.get("hands", [])) == (len(played) + 1 if played else 0)
    for game, row in zip(sheet["games"], page.tables["games"][1:4], strict=True):
        shown = [cell.split()[-1] for cell in row[2:]]
        assert shown == [str(game["scores"][p] + game["bonuses"][p]) for p in ("A", "B")]
