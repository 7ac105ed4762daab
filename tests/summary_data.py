"""The match the summary tests play, what its summary must say, and the parsers that read
each export back (csv, html.parser, xml.etree).

The match is the friendly profile's worked example (A: 30, gin against 18 = 43, 35 -> games
108 / 78 / 35), then a win of B's that is entered nowhere (game I is closed) and a dead hand.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from tests.conftest import Run

FIXED_TIME = "2025-06-01T20:00:00+02:00"
SEED_HANDS = (("knock", "A", "4", "34"), ("gin", "A", "18"), ("knock", "a", "3", "38"))
MORE_HANDS = (("knock", "B", "5", "27"), ("draw",))
SVG = "{http://www.w3.org/2000/svg}"
# A classic match with a stake, played to its end in twelve hands (games I and II close at the
# tenth, game III at the twelfth): what a printed summary must hold on one A4 sheet.
TWELVE_HANDS = (
    ("new", "Ann", "Bob", "--rules", "classic", "--dealer", "Ann", "--stake", "0.10"),
    ("knock", "ann", "2", "14"), ("knock", "bob", "3", "15"), ("gin", "ann", "10"),
    ("knock", "bob", "1", "20"), ("knock", "ann", "4", "30"), ("draw",),
    ("gin", "bob", "12"), ("knock", "ann", "5", "20"), ("knock", "bob", "2", "27"),
    ("gin", "ann", "15"), ("knock", "ann", "6", "3"), ("knock", "bob", "4", "30"),
)  # fmt: skip


def pin_clock(monkeypatch: pytest.MonkeyPatch) -> None:
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


TEXT = """\
Hollywood Gin: A v B
Match 2025-06-01-a-b, started Sun 1 Jun 2025, 20:00
Rules: friendly rules · 3 games to 100
First dealer: B
In progress after 5 hands; A deals next.

Games
Game   Winner     A   B
───────────────────────
I      A        108   –
II     open      78   –
III    open      35   –
Hands won: A 3, B 1

Hands
#   Dealer   Result                 Points   Entered in          I     II    III
────────────────────────────────────────────────────────────────────────────────
1   B        knock won by A    34 − 4 = 30   game I           30/–
2   A        gin by A         25 + 18 = 43   games I and      73/–   43/–
                                             II
3   B        knock won by A    38 − 3 = 35   games I, II     108/–   78/–   35/–
                                             and III; I
                                             closes
4   A        knock won by B    27 − 5 = 22   nowhere                 78/–   35/–
                                             (games
                                             closed)
5   B        dead hand                   –   –                       78/–   35/–
I, II, III: points in the game after the hand, A/B
"""


# The hands table of the classic match with MORE_HANDS, row by row, as every table format has it.
CLASSIC_HANDS = [
    ["#", "Dealer", "Result", "Points", "Entered in", "Scores after (A/B)"],
    ["1", "B", "knock won by A", "34 − 4 = 30", "game I", "I 30/–"],
    ["2", "A", "gin by A", "25 + 18 = 43", "games I and II", "I 73/– · II 43/–"],
    [
        "3",
        "A",
        "knock won by A",
        "38 − 3 = 35",
        "games I, II and III; I closes",
        "I 108/– · II 78/– · III 35/–",
    ],
    ["4", "A", "knock won by B", "27 − 5 = 22", "nowhere (games closed)", "II 78/– · III 35/–"],
    ["5", "B", "dead hand", "–", "–", "II 78/– · III 35/–"],
]


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
