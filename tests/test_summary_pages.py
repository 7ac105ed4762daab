"""`hgin summary --format html|svg [--output FILE]`: the pages to print, read back with
html.parser and xml.etree; the output file is written whole, refusals leave files untouched."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import Run, snapshot
from tests.summary_data import (
    CLASSIC_HANDS,
    CSV_HEADER,
    CSV_TEXT,
    MORE_HANDS,
    SVG,
    TEXT,
    pin_clock,
    play,
    read_csv,
    read_page,
    summary,
    svg_lines,
)


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    pin_clock(monkeypatch)


# -- HTML ----------------------------------------------------------------------------------


def test_html_page_tables(run: Run) -> None:
    play(run, rules="classic", hands=MORE_HANDS)
    page = read_page(summary(run, "--format", "html"))
    assert page.title == "Hollywood Gin: A v B"
    assert page.tables["games"] == [
        ["Game", "Winner", "A", "B"],
        ["I", "A", "108 + 275 = 383", "–"],
        ["II", "open", "78", "–"],
        ["III", "open", "35", "–"],
        ["Total", "", "496", "0"],
    ]
    assert page.tables["hands"] == CLASSIC_HANDS
    text = "".join(page.text)
    assert "In progress after 5 hands; B deals next." in text
    assert "Match 2025-06-01-a-b, started Sun 1 Jun 2025, 20:00" in text
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


def test_svg_is_an_a4_page_holding_the_summary_with_a_line_per_hand(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(run, hands=MORE_HANDS)
    text = summary(run, "--format", "svg")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert (root.attrib["width"], root.attrib["height"]) == ("210mm", "297mm")
    assert root.attrib["viewBox"] == "0 0 210 297"
    assert root.find(f"{SVG}title") is not None
    assert root.findtext(f"{SVG}title") == "Hollywood Gin: A v B"
    page = root.find(f"{SVG}svg")
    assert page is not None
    assert page.attrib["viewBox"].split()[2] == "1151.0"  # 96 columns of 12 units
    # Drawn as wide as a hand's row on one line: the terminal summary at that width.
    monkeypatch.setenv("COLUMNS", "96")
    assert svg_lines(text) == [line.rstrip() for line in summary(run).splitlines()]
    rows = [line for line in svg_lines(text) if re.match(r"\d   ", line)]
    assert len(rows) == 5 and rows[2].endswith(
        "games I, II and III; I closes   108/–   78/–   35/–"
    )
    assert svg_lines(text)[:14] == TEXT.splitlines()[:14]


def test_svg_of_a_long_match_is_drawn_wider_to_print_larger(run: Run) -> None:
    new = ("new", "Maximiliana Fitzgerald", "Bartholomew Oppenheimer", "--dealer", "Bart")
    assert run(*new, "--target", "250").exit_code == 0
    for _ in range(12):
        assert run("knock", "Max", "2", "9").exit_code == 0
        assert run("knock", "Bart", "3", "8").exit_code == 0
    text = summary(run, "-f", "svg")
    page = ET.fromstring(text).find(f"{SVG}svg")
    assert page is not None
    # 120 columns: the widest, as every hand takes two lines (the names wrap) at each width
    assert page.attrib["viewBox"].split()[2] == "1439.0"
    rows = [line for line in svg_lines(text) if re.match(r" ?\d+   ", line)]
    assert [int(row.split()[0]) for row in rows] == list(range(1, 25))
    assert rows[0].endswith("9 − 2 = 7   game I                  7/–")
    assert rows[-1].endswith("games I, II and III   84/60   77/55   70/50")


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
    assert summary(run, "-f", "markdown").endswith(
        "Hands won: Cy 0, Di 0\n\n### Hands\n\nNo hands yet.\n"
    )
    assert "<p>No hands yet.</p>" in summary(run, "-f", "html")
    text = summary(run, "-f", "csv", "--match", "2025-06-01-a")
    assert text == "".join(CSV_TEXT.splitlines(keepends=True)[:4])


@pytest.mark.parametrize("form", ["markdown", "html", "svg", "csv", "json"])
def test_output_file_holds_exactly_what_stdout_shows(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    monkeypatch.delenv("COLUMNS")  # piped, the sentence that names the file stays whole
    play(run, hands=MORE_HANDS)
    target = tmp_path / f"out.{form}"
    target.write_text("an older, longer file " * 100, encoding="utf-8")
    said = summary(run, "-f", form, "-o", str(target), "--force")
    assert said == f"Wrote the {form} summary of match 2025-06-01-a-b to {target}\n"
    assert target.read_text(encoding="utf-8") == summary(run, "-f", form)
    assert summary(run, "-f", form, "-o", "-") == summary(run, "-f", form)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/out.html", "cannot write {path}: the folder {folder} does not exist"),
        (".", "cannot write {path}: it is a folder; give a file name"),
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
