"""The board's page in a real browser: the system's Chromium, headless, driven by Playwright,
against the real `hgin board` process. Skipped, saying why, where there is no Chromium or no
Playwright (.ci/run installs both)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hgin.scorekeeper import ScoreKeeper
from tests.board_process import NO_EXTRA, Board, hgin
from tests.conftest import Run

CHROMIUM = Path(os.environ.get("HGIN_TEST_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LIVE = 1000  # milliseconds: a change shows on every open page within a second
LOAD = 10_000  # milliseconds for a page to load on a loaded machine

pytest.importorskip("uvicorn", reason=NO_EXTRA)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed: pip install playwright"
)
if not CHROMIUM.is_file():
    pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium", allow_module_level=True)

expect = sync_api.expect


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page as wide as a phone held upright."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    yield context.new_page()
    context.close()


def scripted(run: Run) -> None:
    """Three hands under classic rules to 50 with a stake: game I closes with its bonuses."""
    for command in (
        ("new", "Ann", "Bob", "--rules", "classic", "--dealer", "Ann", "--target", "50"),
        ("rules", "set", "stake", "0.10"),
        ("gin", "ann", "18"),
        ("gin", "ann", "10"),
        ("knock", "bob", "5", "30"),
    ):
        done = run(*command)
        assert done.exit_code == 0, done.output


def cells(page: Any) -> list[list[str]]:
    return [
        [" ".join(cell.split()) for cell in row.locator("th, td").all_inner_texts()]
        for row in page.locator("#sheet tr").all()
    ]


def test_the_page_shows_the_exact_numbers_of_a_match(run: Run, hgin_home: Path, phone: Any) -> None:
    scripted(run)
    board = Board(hgin_home)
    try:
        phone.goto(board.viewer)
        expect(phone.locator("#title")).to_have_text("Ann v Bob", timeout=LOAD)
        assert cells(phone) == [
            ["Player", "I won by Ann", "II", "III", "Wins", "Total"],
            ["Ann", "78 + 250 = 328", "35", "–", "2", "363"],
            ["Bob", "–", "–", "–", "1", "0"],
        ]
        expect(phone.locator("#banner")).to_have_text("Bob deals next")
        expect(phone.locator("#last")).to_have_text(
            "Knock: Bob scores 30 − 5 = 25 but every game that win 1 enters is closed, "
            "so it is entered nowhere."
        )
        expect(phone.locator("#money")).to_have_text(
            "So far Bob pays Ann 328 points × 0.10 = 32.80."
        )
        expect(phone.locator("#scorer")).to_be_hidden()  # a read-only page has no buttons
        link = phone.get_by_role("link", name="Summary")
        answer = phone.request.get(link.evaluate("a => a.href"))
        assert answer.status == 200
        assert "<title>Hollywood Gin: Ann v Bob</title>" in answer.text()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360  # nothing runs off the side of a phone
    finally:
        board.stop()


def test_a_hand_from_the_command_line_shows_within_a_second(hgin_home: Path, phone: Any) -> None:
    ScoreKeeper(hgin_home).new_match("Ann", "Bob", dealer="Ann")
    board = Board(hgin_home)
    try:
        phone.goto(board.viewer)
        expect(phone.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        assert hgin(hgin_home, "gin", "ann", "18").returncode == 0
        expect(phone.locator("#last")).to_have_text(
            "Gin: Ann scores 25 + 18 = 43 in game I.", timeout=LIVE
        )
        assert hgin(hgin_home, "undo").returncode == 0
        expect(phone.locator("#last")).to_have_text("No hand yet.", timeout=LIVE)
        assert hgin(hgin_home, "new", "Cleo", "Dan").returncode == 0  # the board follows it
        expect(phone.locator("#title")).to_have_text("Cleo v Dan", timeout=LIVE)
    finally:
        board.stop()


def tap(page: Any, *labels: str) -> None:
    for label in labels:  # the visible button whose whole text is the label ('1', not '10')
        exactly = re.compile(f"^{re.escape(label)}$")
        page.locator("#scorer button:visible", has_text=exactly).first.click()


def test_the_scorer_page_records_a_gin_and_a_knock_with_taps(hgin_home: Path, phone: Any) -> None:
    ScoreKeeper(hgin_home).new_match("Ann", "Bob", dealer="Ann")
    board = Board(hgin_home, "--scorer")
    assert board.scorer is not None
    try:
        phone.goto(board.scorer)
        said = phone.locator("#said")
        expect(phone.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        tap(phone, "Gin", "Ann", "1", "8", "OK")
        expect(said).to_have_text("Gin: Ann scores 25 + 18 = 43 in game I.", timeout=LOAD)
        tap(phone, "Knock", "Bob", "5", "OK", "3", "0", "OK")
        expect(said).to_have_text("Knock: Bob scores 30 − 5 = 25 in game I.", timeout=LOAD)
        expect(phone.locator("#last")).to_have_text("Knock: Bob scores 30 − 5 = 25 in game I.")
        tap(phone, "Knock", "Ann", "1", "2", "OK", "3", "0", "OK")  # over the knock limit
        expect(said).to_have_class("refused", timeout=LOAD)
        expect(said).to_contain_text("hgin: ")
        assert [h.kind for h in ScoreKeeper(hgin_home).load().hands] == ["gin", "knock"]
    finally:
        board.stop()


def test_the_scorer_page_asks_its_questions_enters_a_big_gin_and_undoes_and_redoes_in_words(
    run: Run, hgin_home: Path, phone: Any
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann", "--big-gin-bonus", "31").exit_code == 0
    board = Board(hgin_home, "--scorer")
    try:
        phone.goto(board.scorer)
        said, entry = phone.locator("#said"), phone.locator("#entry")
        expect(phone.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        expect(phone.get_by_role("button", name="Redo")).to_be_hidden()
        phone.get_by_role("button", name="Big gin").click()
        expect(entry).to_have_text("Big gin · Who went big gin?")
        phone.get_by_role("button", name="Ann").click()
        expect(entry).to_have_text("Big gin · Ann · Bob's deadwood? _")
        tap(phone, "1", "0", "OK")
        expect(said).to_have_text("Big gin: Ann scores 31 + 10 = 41 in game I.", timeout=LOAD)
        phone.get_by_role("button", name="Undo").click()
        expect(entry).to_have_text(
            "Undo change 1: recorded hand 1: big gin by Ann, 31 + 10 = 41?", timeout=LOAD
        )
        phone.get_by_role("button", name="Record").click()
        expect(phone.get_by_role("button", name="Redo")).to_be_visible(timeout=LOAD)
        phone.get_by_role("button", name="Redo").click()
        expect(entry).to_have_text("Redo change 1: recorded hand 1: big gin by Ann, 31 + 10 = 41?")
        phone.get_by_role("button", name="Record").click()
        expect(phone.locator("#last")).to_contain_text("Big gin: Ann scores", timeout=LOAD)
        data = ScoreKeeper(hgin_home).load()
        assert [h.kind for h in data.hands] == ["big_gin"]
        assert data.sheet.totals["Ann"] == 41
    finally:
        board.stop()


def test_an_oklahoma_knock_names_its_upcard_and_a_count_over_the_limit_is_kept_for_correction(
    run: Run, hgin_home: Path, phone: Any
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann", "--oklahoma").exit_code == 0
    board = Board(hgin_home, "--scorer")
    try:
        phone.goto(board.scorer)
        said, entry = phone.locator("#said"), phone.locator("#entry")
        expect(phone.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        phone.get_by_role("button", name="Knock").click()
        phone.get_by_role("button", name="Ann").click()
        expect(entry).to_have_text("Knock · Ann · The upcard?")
        phone.get_by_role("button", name="7", exact=True).click()
        expect(entry).to_have_text("Knock · Ann · Its suit?")
        phone.get_by_role("button", name="spades").click()
        expect(entry).to_have_text("Knock · Ann · upcard 7♠ · Ann's deadwood? _")
        tap(phone, "9", "OK")  # over the seven's limit: refused as typed, the entry kept
        expect(said).to_have_text("hgin: Ann cannot knock with 9: the limit is 7")
        expect(entry).to_have_text("Knock · Ann · upcard 7♠ · Ann's deadwood? _")
        tap(phone, "5", "OK", "2", "0", "OK")
        expect(said).to_contain_text("(20 − 5) × 2 = 30", timeout=LOAD)
        shown = json.loads(hgin(hgin_home, "show", "--json").stdout)
        assert [h["entered"]["upcard"] for h in shown["hands"]] == ["7♠"]
        assert shown["totals"] == {"Ann": 30, "Bob": 0}
    finally:
        board.stop()


def test_at_the_end_of_a_match_the_page_offers_a_rematch_and_follows_it(
    run: Run, hgin_home: Path, phone: Any
) -> None:
    assert (
        run("new", "Ann", "Bob", "--dealer", "Ann", "--games", "1", "--target", "10").exit_code == 0
    )
    first = ScoreKeeper(hgin_home).current_id()
    assert first is not None
    board = Board(hgin_home, "--scorer", "--match", first)  # a board on one match
    try:
        phone.goto(board.scorer)
        expect(phone.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        expect(phone.get_by_role("button", name="Rematch")).to_be_hidden()
        tap(phone, "Gin", "Ann", "5", "OK")
        expect(phone.get_by_role("button", name="Rematch")).to_be_visible(timeout=LOAD)
        for gone in ("Gin", "Knock", "Dead hand"):
            expect(phone.get_by_role("button", name=gone, exact=True)).to_be_hidden()
        phone.get_by_role("button", name="Rematch").click()
        phone.get_by_role("button", name="Record").click()
        expect(phone.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        second = ScoreKeeper(hgin_home).current_id()
        assert second != first
        tap(phone, "Gin", "Bob", "7", "OK")  # recorded in the new match the page follows
        expect(phone.locator("#said")).to_contain_text("Gin: Bob scores", timeout=LOAD)
        assert len(ScoreKeeper(hgin_home).load(second).hands) == 1
    finally:
        board.stop()


def test_any_hand_can_be_corrected_or_deleted_from_the_hands_list(
    run: Run, hgin_home: Path, phone: Any
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    for hand in (("gin", "ann", "10"), ("knock", "bob", "3", "9"), ("draw",)):
        assert run(*hand).exit_code == 0
    board = Board(hgin_home, "--scorer")
    try:
        phone.goto(board.scorer)
        said = phone.locator("#said")
        expect(phone.locator("#last")).to_have_text(
            "Dead hand: no score, no win counted.", timeout=LOAD
        )
        phone.get_by_role("button", name="Hands").click()
        phone.get_by_role("button", name="Edit hand 2").click()
        phone.get_by_role("button", name="Gin", exact=True).click()
        phone.get_by_role("button", name="Bob").click()
        tap(phone, "2", "0", "OK")
        expect(said).to_contain_text("Hand 2 corrected", timeout=LOAD)
        phone.get_by_role("button", name="Hands").click()
        phone.get_by_role("button", name="Delete hand 3").click()
        phone.get_by_role("button", name="Delete", exact=True).click()
        expect(said).to_contain_text("Hand 3 deleted", timeout=LOAD)
        shown = json.loads(hgin(hgin_home, "show", "--json").stdout)
        assert [(h["entered"]["kind"], h["entered"]["player"]) for h in shown["hands"]] == [
            ("gin", "Ann"),
            ("gin", "Bob"),
        ]
        assert shown["totals"] == {"Ann": 35, "Bob": 45}  # 25 + 10; 25 + 20
    finally:
        board.stop()


def test_a_new_match_with_new_names_and_rules_starts_from_the_phone(
    run: Run, hgin_home: Path, phone: Any
) -> None:
    one_game = ("--games", "1", "--target", "10")
    assert run("new", "Ann", "Bob", "--dealer", "Ann", *one_game).exit_code == 0
    assert run("gin", "ann", "5").exit_code == 0  # the match is over
    board = Board(hgin_home, "--scorer")
    try:
        phone.goto(board.scorer)
        phone.get_by_role("button", name="New match").click(timeout=LOAD)
        phone.get_by_label("First player").fill("Cy")
        phone.get_by_label("Second player").fill("Dee")
        phone.get_by_role("button", name="classic").click()
        phone.get_by_role("button", name="Start").click()
        expect(phone.locator("#title")).to_have_text("Cy v Dee", timeout=LOAD)
        rules = json.loads(hgin(hgin_home, "rules", "--json").stdout)
        assert rules["profile"] == "classic"
    finally:
        board.stop()
