"""`hgin stats`: every figure pinned on recorded matches (friendly and classic, 3 games and 1)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, snapshot
from tests.history_data import IDS

SVG = "{http://www.w3.org/2000/svg}"

ANN = {
    "matches": 3,
    "match_wins": 3,
    "games_won": 5,
    "hands_won": 10,
    "gins": 4,
    "knocks": 4,
    "undercuts": 2,
    "biggest_hand": 75,
    "longest_streak": 2,
    "average_points": 40.5,  # (135 + 170 + 100) / 10
    "net_won": None,  # no match had a stake
}
CY = {
    "matches": 3,
    "match_wins": 0,
    "games_won": 1,
    "hands_won": 8,
    "gins": 3,
    "knocks": 3,
    "undercuts": 2,
    "biggest_hand": 75,
    "longest_streak": 3,
    "average_points": 32.25,  # (190 + 33 + 35) / 8
    "net_won": None,
}
BOB = {
    "matches": 2,
    "match_wins": 1,
    "games_won": 2,
    "hands_won": 7,
    "gins": 4,
    "knocks": 3,
    "undercuts": 0,
    "biggest_hand": 56,
    "longest_streak": 3,
    "average_points": 39.71,  # (178 + 100) / 7 = 39.714...
    "net_won": None,
}


def pair(names: list[str], matches: int, **figures: tuple[Any, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {"players": names, "matches": matches}
    for key, (first, second) in {**figures, "net_won": (None, None)}.items():
        data[key] = {names[0]: first, names[1]: second}
    return data


PAIRS = [
    pair(
        ["ANN", "Cy"],
        2,
        match_wins=(2, 0),
        games_won=(3, 1),
        hands_won=(6, 6),
        gins=(3, 3),
        knocks=(2, 2),
        undercuts=(1, 1),
        biggest_hand=(75, 75),
        longest_streak=(2, 3),
        average_points=(45.0, 37.5),
    ),
    pair(
        ["ANN", "Bob"],
        1,
        match_wins=(1, 0),
        games_won=(2, 1),
        hands_won=(4, 4),
        gins=(1, 2),
        knocks=(2, 2),
        undercuts=(1, 0),
        biggest_hand=(43, 56),
        longest_streak=(2, 3),
        average_points=(33.75, 44.5),
    ),
    pair(
        ["Bob", "Cy"],
        1,
        match_wins=(1, 0),
        games_won=(1, 0),
        hands_won=(3, 2),
        gins=(2, 0),
        knocks=(1, 1),
        undercuts=(0, 1),
        biggest_hand=(55, 27),
        longest_streak=(2, 2),
        average_points=(33.33, 16.5),
    ),
]


def stats_json(run: Run, *args: str) -> dict[str, Any]:
    result = run("stats", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def rows(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines()]


@pytest.mark.usefixtures("history")
def test_every_figure_over_finished_matches(run: Run) -> None:
    data = stats_json(run)
    assert list(data) == ["players", "pairs"]
    # Ann, ann and ANN are one person, shown as spelled in her latest match; Dee and Deb's
    # match is unfinished, so they do not appear.
    assert data["players"] == {"ANN": ANN, "Cy": CY, "Bob": BOB}
    assert list(data["players"]) == ["ANN", "Cy", "Bob"]
    assert data["pairs"] == PAIRS


@pytest.mark.usefixtures("history")
def test_one_player(run: Run) -> None:
    assert stats_json(run, "--player", "bob") == {"players": {"Bob": BOB}, "pairs": PAIRS[1:]}
    text = run("stats", "--player", "bob").stdout
    assert text.startswith("Bob: 2 finished matches.\n")
    assert ["Bob", "v", "Cy", "1", "1–0", "1–0", "3–2"] in rows(text)
    assert not any(row[:1] == ["Cy"] for row in rows(text))
    assert stats_json(run, "--player", "a") == {"players": {"ANN": ANN}, "pairs": PAIRS[:2]}
    assert stats_json(run, "-p", "CY")["players"] == {"Cy": CY}
    # A player whose only match is unfinished has nothing yet.
    zero = dict.fromkeys(ANN, 0) | {"average_points": None, "net_won": None}
    assert stats_json(run, "--player", "dee") == {"players": {"Dee": zero}, "pairs": []}
    result = run("stats", "--player", "dee")
    assert result.stdout.strip() == "Dee has no finished matches yet: statistics count only those."


@pytest.mark.usefixtures("history")
@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("de", "'de' could be Deb or Dee: type more of the name"),
        ("zed", "nobody called 'zed' has played a stored match"),
        ("  ", "name a player"),
    ],
)
def test_player_refusals_change_nothing(
    run: Run, hgin_home: Path, typed: str, message: str
) -> None:
    before = snapshot(hgin_home)
    result = run("stats", "--player", typed)
    assert result.exit_code == 1
    assert result.stderr == f"hgin: {message}\n"
    assert snapshot(hgin_home) == before  # not even the statistics cache


@pytest.mark.usefixtures("history")
def test_text_tables(run: Run) -> None:
    result = run("stats")
    assert result.exit_code == 0
    table = rows(result.stdout)
    assert ["4", "finished", "matches."] in table
    assert ["Player", "Matches", "Won", "Games", "Hands"] in table
    assert ["ANN", "3", "3", "5", "10"] in table
    assert ["Cy", "3", "0", "1", "8"] in table
    assert ["Bob", "2", "1", "2", "7"] in table
    assert ["Player", "Gins", "Knocks", "Undercuts", "Best", "Streak", "Avg"] in table
    assert ["ANN", "4", "4", "2", "75", "2", "40.50"] in table
    assert ["Cy", "3", "3", "2", "75", "3", "32.25"] in table
    assert ["Bob", "4", "3", "0", "56", "3", "39.71"] in table
    assert ["ANN", "v", "Cy", "2", "2–0", "3–1", "6–6"] in table
    assert ["ANN", "v", "Bob", "1", "1–0", "2–1", "4–4"] in table
    assert ["Bob", "v", "Cy", "1", "1–0", "1–0", "3–2"] in table


@pytest.mark.usefixtures("history")
def test_text_fits_sixty_columns(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    result = run("stats")
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 60
    assert ["ANN", "4", "4", "2", "75", "2", "40.50"] in rows(result.stdout)


def test_no_finished_match(run: Run) -> None:
    result = run("stats")
    assert result.exit_code == 0
    assert "There are no finished matches yet" in result.stdout
    assert stats_json(run) == {"players": {}, "pairs": []}


def chart_of(page: str) -> ET.Element:
    found = re.findall(r"<svg\b.*?</svg>", page, re.S)
    assert len(found) == 1
    return ET.fromstring(found[0])


@pytest.mark.usefixtures("history")
def test_html_page_with_chart(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS")  # piped, the sentence that names the file stays whole
    target = tmp_path / "stats.html"
    result = run("stats", "--format", "html", "--output", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Wrote {target}.\n"
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<th scope='row'>ANN</th><td>3</td><td>3</td><td>5</td><td>10</td>" in page
    assert "<td>75</td><td>2</td><td>40.50</td></tr>" in page
    assert "<th scope='row'>ANN v Cy</th><td>2</td><td>2–0</td><td>3–1</td>" in page
    svg = chart_of(page)
    assert svg.findtext(f"{SVG}title") == "Match wins over time"
    assert svg.findtext(f"{SVG}desc") == "Match wins so far: ANN 3, Cy 0, Bob 1."
    lines = svg.findall(f"{SVG}polyline")
    assert len(lines) == 3
    # Each line differs by its dash pattern too, not by colour alone.
    assert len({line.get("stroke-dasharray") for line in lines}) == 3
    # One point per finished match, after the origin: ANN wins matches 1, 2 and 4.
    assert all(len(line.get("points", "").split()) == 5 for line in lines)


@pytest.mark.usefixtures("history")
def test_html_to_stdout_and_json_conflict(run: Run) -> None:
    result = run("stats", "--format", "html", "--player", "bob")
    assert result.exit_code == 0
    svg = chart_of(result.stdout)
    assert svg.findtext(f"{SVG}desc") == "Match wins so far: Bob 1, ANN 1, Cy 0."
    result = run("stats", "--json", "--format", "html")
    assert result.exit_code == 2


def test_the_chart_keeps_every_match_winner_and_says_whom_it_leaves_out(run: Run) -> None:
    # Six winners; Flo plays two matches and wins none, Gus one: Hal's one win keeps him in.
    for winner, loser in [
        ("Ann", "Bob"), ("Ann", "Cy"), ("Bob", "Di"), ("Cy", "Ed"),
        ("Di", "Flo"), ("Ed", "Flo"), ("Hal", "Gus"),
    ]:  # fmt: skip
        assert run("new", winner, loser, "--games", "1", "--target", "50").exit_code == 0
        assert run("gin", winner, "40").exit_code == 0
    page = run("stats", "--format", "html").stdout
    assert chart_of(page).findtext(f"{SVG}desc") == (
        "Match wins so far: Ann 2, Bob 1, Cy 1, Di 1, Ed 1, Hal 1."
    )
    caption = "6 players shown: every match winner, then the most active; 2 more in the tables."
    assert f"<figcaption>{caption}</figcaption>" in page
    assert "<th scope='row'>Flo</th>" in page and "<th scope='row'>Gus</th>" in page


def test_the_legend_of_seven_winners_takes_two_rows_inside_the_picture(run: Run) -> None:
    winners = ["Annabelle", "Bernadette", "Christabel", "Dominique", "Evangeline", "Florentina"]
    winners.append("Gwendolyn")
    for winner in winners:
        assert run("new", winner, "Zed", "--games", "1", "--target", "50").exit_code == 0
        assert run("gin", winner, "40").exit_code == 0
    svg = chart_of(run("stats", "--format", "html").stdout)
    texts = {t.text: (t.get("x"), t.get("y")) for t in svg.iter(f"{SVG}text")}
    assert [texts[name] for name in winners] == [
        ("90", "40"), ("199", "40"), ("315", "40"), ("431", "40"), ("540", "40"),
        ("90", "58"), ("206", "58"),
    ]  # fmt: skip
    # The plot and the picture make room for the second row.
    assert (texts["wins"], svg.get("width"), svg.get("height")) == (("14", "66"), "640", "378")


def test_every_line_of_seven_winners_is_drawn_its_own_way_without_colour(run: Run) -> None:
    """The 7th line pairs the 1st one's dashes with another marker: in black and white each
    line is told by its dash pattern and the shape and fill of its marks."""
    for winner in ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"]:
        assert run("new", winner, "Zed", "--games", "1", "--target", "50").exit_code == 0
        assert run("gin", winner, "40").exit_code == 0
    svg = chart_of(run("stats", "--format", "html").stdout)
    drawn = list(svg)
    looks = []
    for at, line in enumerate(drawn):
        if line.tag == f"{SVG}polyline":
            mark = drawn[at + 1]
            corners = len(mark.get("points", "").split())
            hollow = mark.get("fill") == "white"
            looks.append((line.get("stroke-dasharray"), mark.tag[len(SVG) :], corners, hollow))
    assert looks == [
        (None, "circle", 0, False),
        ("7 4", "rect", 0, True),
        ("2 3", "polygon", 3, False),
        ("10 3 2 3", "polygon", 4, True),
        ("4 2", "path", 0, False),
        ("1 5", "circle", 0, True),
        (None, "polygon", 3, True),  # the 1st line's dashes, a hollow triangle
    ]


def test_the_end_labels_stay_inside_the_picture(run: Run) -> None:
    """A long name's label is not cut at the right edge, and five labels at 0 are stacked
    upwards from the foot of the plot, not down over the caption."""
    for loser in ["Bob", "Cy", "Di", "Ed", "Flo"]:
        assert run("new", "Maximiliana-Fitzgerald", loser, "--games", "1").exit_code == 0
        assert run("gin", "max", "90").exit_code == 0
    svg = chart_of(run("stats", "--format", "html").stdout)
    texts = {t.text: (t.get("x"), t.get("y")) for t in svg.iter(f"{SVG}text")}
    labels = ["Maximiliana-Fitzgerald 5", "Bob 0", "Cy 0", "Di 0", "Ed 0", "Flo 0"]
    assert [(float(texts[label][0]), float(texts[label][1])) for label in labels] == [
        (466, 60), (466, 268), (466, 281), (466, 294), (466, 307), (466, 320),
    ]  # fmt: skip
    caption = "finished matches in the order they started"
    assert [y for text, (_, y) in texts.items() if text.startswith(caption)] == ["348"]


def test_names_are_escaped_in_html(run: Run) -> None:
    assert run("new", "<b>&Rex", "[red]Bo", "--games", "1", "--dealer", "<b>").exit_code == 0
    assert run("gin", "<b>", "98").exit_code == 0
    page = run("stats", "--format", "html").stdout
    assert "&lt;b&gt;&amp;Rex" in page and "<b>&Rex" not in page
    assert chart_of(page).findtext(f"{SVG}desc") == "Match wins so far: <b>&Rex 1, [red]Bo 0."
    assert ["[red]Bo", "1", "0", "0", "0"] in rows(run("stats").stdout)


@pytest.mark.usefixtures("history")
def test_output_file_refusals(run: Run, hgin_home: Path, tmp_path: Path) -> None:
    before = snapshot(hgin_home)
    result = run("stats", "--output", str(tmp_path / "missing" / "x.txt"))
    assert result.exit_code == 1
    assert "does not exist" in result.stderr
    result = run("stats", "--output", str(tmp_path))
    assert result.exit_code == 1
    assert "is a folder" in result.stderr
    assert snapshot(hgin_home) == before


@pytest.mark.usefixtures("history")
def test_text_to_a_file(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "stats.txt"
    assert run("stats", "--output", str(target)).exit_code == 0
    text = target.read_text(encoding="utf-8")
    assert "\x1b" not in text
    assert ["ANN", "3", "3", "5", "10"] in rows(text)


@pytest.mark.usefixtures("history")
def test_cache_spares_the_replay(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = stats_json(run)
    assert (hgin_home / "cache.json").is_file()
    replayed: list[str] = []
    import hgin.store.cache

    real = hgin.store.cache.summarize

    def counting(match: Any) -> Any:
        replayed.append(match.id)
        return real(match)

    monkeypatch.setattr(hgin.store.cache, "summarize", counting)
    assert stats_json(run) == first
    assert replayed == []
    # Undoing the last hand of M4 reopens it: only that match is read again.
    assert run("undo", "--match", IDS[1]).exit_code == 0
    data = stats_json(run)
    assert replayed == [IDS[1]]
    assert data["players"]["ANN"]["matches"] == 2
    assert data["players"]["Cy"]["matches"] == 2
    # A deleted cache is rebuilt from the files.
    (hgin_home / "cache.json").unlink()
    assert stats_json(run) == data


@pytest.mark.usefixtures("history")
def test_unreadable_match_is_left_out_and_named(run: Run, hgin_home: Path) -> None:
    (hgin_home / "matches" / f"{IDS[3]}.json").write_text("{not json", encoding="utf-8")
    result = run("stats", "--json")
    assert result.exit_code == 0
    assert IDS[3] in result.stderr
    data = json.loads(result.stdout)
    assert data["players"]["ANN"]["matches"] == 2  # M2 (ann v Cy) is left out
    assert data["players"]["Cy"]["matches"] == 2


def test_big_gin_counts_as_a_gin(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--games", "1", "--big-gin-bonus", "31").exit_code == 0
    assert run("gin", "ann", "10", "--big").exit_code == 0  # 31 + 10 = 41
    assert run("knock", "bob", "3", "13").exit_code == 0  # 10
    assert run("gin", "ann", "34").exit_code == 0  # 25 + 34 = 59: Ann reaches 100
    data = stats_json(run)
    assert data["players"]["Ann"] == {
        "matches": 1,
        "match_wins": 1,
        "games_won": 1,
        "hands_won": 2,
        "gins": 2,
        "knocks": 0,
        "undercuts": 0,
        "biggest_hand": 59,
        "longest_streak": 1,
        "average_points": 50.0,
        "net_won": None,
    }
    assert data["players"]["Bob"]["knocks"] == 1


def test_one_person_however_the_name_is_typed(run: Run) -> None:
    decomposed = "ZOE\u0308"  # Ë typed as E + combining diaeresis
    for first in ("Zoë", decomposed):
        assert run("new", first, "Max", "--games", "1", "--dealer", "Max").exit_code == 0
        assert run("gin", "max", "98").exit_code == 0
    data = stats_json(run, "--player", "zoe\u0308")  # typed decomposed too
    assert data["players"] == {
        "ZOË": dict.fromkeys(ANN, 0) | {"matches": 2, "average_points": None, "net_won": None}
    }
    assert data["pairs"][0]["players"] == ["Max", "ZOË"]
    assert data["pairs"][0]["match_wins"] == {"Max": 2, "ZOË": 0}
