"""The board's page in a real browser: the system's Chromium, headless, driven by Playwright,
against the real `hgin board` process. Skipped, saying why, where there is no Chromium or no
Playwright (.ci/run installs both)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hgin.scorekeeper import ScoreKeeper
from tests.board_process import NO_EXTRA, Board, hgin
from tests.conftest import Run
from tests.summary_data import TWELVE_HANDS

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
ShowJson = Callable[..., dict[str, Any]]  # the sheet as `hgin show --json` prints it
axe = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python"
).Axe()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


@pytest.fixture(params=[PHONE, TV], ids=["phone", "tv"])
def screen(browser: Any, request: Any) -> Iterator[Any]:
    """A page as big as a phone held upright, then as a TV."""
    context = browser.new_context(viewport=request.param)
    yield context.new_page()
    context.close()


def accessible(page: Any) -> None:
    """An axe-core audit of the page as it is now, in light and in dark: no violation."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        results = axe.run(page)
        assert results.violations_count == 0, f"{scheme}: {results.generate_report()}"
    page.emulate_media(color_scheme="light")


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


def test_the_page_shows_the_exact_numbers_of_a_match(
    run: Run, hgin_home: Path, screen: Any
) -> None:
    scripted(run)
    board = Board(hgin_home)
    try:
        screen.goto(board.viewer)
        expect(screen.locator("#title")).to_have_text("Ann v Bob", timeout=LOAD)
        assert cells(screen) == [
            ["Player", "I won by Ann", "II", "III", "Wins", "Total"],
            ["Ann", "78 + 250 = 328", "35", "–", "2", "363"],
            ["Bob", "–", "–", "–", "1", "0"],
        ]
        expect(screen.locator("#banner")).to_have_text("Bob deals next")
        expect(screen.locator("#last")).to_have_text(
            "Knock: Bob scores 30 − 5 = 25 but every game that win 1 enters is closed, "
            "so it is entered nowhere."
        )
        expect(screen.locator("#money")).to_have_text(
            "So far Bob pays Ann 328 points × 0.10 = 32.80."
        )
        expect(screen.locator("#scorer")).to_be_hidden()  # a read-only page has no buttons
        link = screen.get_by_role("link", name="Summary")
        answer = screen.request.get(link.evaluate("a => a.href"))
        assert answer.status == 200
        assert "<title>Hollywood Gin: Ann v Bob</title>" in answer.text()
        width = screen.evaluate("document.documentElement.scrollWidth")
        assert width <= screen.viewport_size["width"]  # nothing runs off the side
        assert screen.evaluate(SPLIT_NUMBERS) == []
        if screen.viewport_size == TV:  # read from a sofa: big lines, and the hands before
            for line in (".bonus", "#money"):
                size = screen.locator(line).first.evaluate("e => getComputedStyle(e).fontSize")
                assert float(size.removesuffix("px")) >= 32, line
            expect(screen.locator("#recent li")).to_have_text(
                [
                    "2. Gin: Ann scores 25 + 10 = 35 in games I and II; game I closes, Ann wins "
                    "it (game bonus 200; Bob shut out; boxes Ann 50).",
                    "1. Gin: Ann scores 25 + 18 = 43 in game I.",
                ]
            )
        else:
            expect(screen.locator("#recent")).to_be_hidden()
        accessible(screen)
    finally:
        board.stop()


# Each number on the page not split across lines, nor a bonus's sign from its number
# ('+ 150', '= 256'): the texts of the numbers that are, as the page is laid out now.
SPLIT_NUMBERS = """() => {
  const split = [];
  const texts = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) {
    if (!text.parentElement.checkVisibility()) continue;
    const numbers = text.parentElement.matches(".bonus") ? /[+=]\\s\\d+/g : /\\d[\\d.,]*/g;
    for (const found of text.data.matchAll(numbers)) {
      const range = document.createRange();
      range.setStart(text, found.index);
      range.setEnd(text, found.index + found[0].length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.bottom)));
      if (lines.size > 1) split.push(found[0]);
    }
  }
  return split;
}"""


def test_a_hand_from_the_command_line_shows_within_a_second(hgin_home: Path, screen: Any) -> None:
    ScoreKeeper(hgin_home).new_match("Ann", "Bob", dealer="Ann")
    board = Board(hgin_home)
    try:
        screen.goto(board.viewer)
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        assert hgin(hgin_home, "gin", "ann", "18").returncode == 0
        expect(screen.locator("#last")).to_have_text(
            "Gin: Ann scores 25 + 18 = 43 in game I.", timeout=LIVE
        )
        assert hgin(hgin_home, "undo").returncode == 0
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LIVE)
        assert hgin(hgin_home, "new", "Cleo", "Dan").returncode == 0  # the board follows it
        expect(screen.locator("#title")).to_have_text("Cleo v Dan", timeout=LIVE)
    finally:
        board.stop()


@contextmanager
def scorer_page(home: Path, page: Any, *options: str) -> Iterator[Board]:
    """`hgin board --scorer` on `home` (with `options`), its scorer page open in `page`."""
    board = Board(home, "--scorer", *options)
    try:
        assert board.scorer is not None
        page.goto(board.scorer)
        yield board
    finally:
        board.stop()


def tap(page: Any, *labels: str) -> None:
    for label in labels:  # the visible button whose whole text is the label ('1', not '10')
        exactly = re.compile(f"^{re.escape(label)}$")
        page.locator("#scorer button:visible", has_text=exactly).first.click()


def test_the_scorer_page_records_a_gin_and_a_knock_with_taps(
    hgin_home: Path, screen: Any, show_json: ShowJson
) -> None:
    ScoreKeeper(hgin_home).new_match("Ann", "Bob", dealer="Ann")
    with scorer_page(hgin_home, screen):
        said = screen.locator("#said")
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        tap(screen, "Gin", "Ann", "1", "8", "OK")
        expect(said).to_have_text("Gin: Ann scores 25 + 18 = 43 in game I.", timeout=LOAD)
        tap(screen, "Knock", "Bob", "5", "OK")
        accessible(screen)  # the number pad
        tap(screen, "3", "0", "OK")
        expect(said).to_have_text("Knock: Bob scores 30 − 5 = 25 in game I.", timeout=LOAD)
        expect(screen.locator("#last")).to_have_text("Knock: Bob scores 30 − 5 = 25 in game I.")
        tap(screen, "Knock", "Ann", "1", "2", "OK", "3", "0", "OK")  # over the knock limit
        expect(said).to_have_class("refused", timeout=LOAD)
        expect(said).to_contain_text("hgin: ")
        accessible(screen)  # a refusal
        shown = show_json()
        assert [h["entered"]["kind"] for h in shown["hands"]] == ["gin", "knock"]
        assert shown["totals"] == {"Ann": 43, "Bob": 25}


def test_the_scorer_page_asks_its_questions_enters_a_big_gin_and_undoes_and_redoes_in_words(
    run: Run, hgin_home: Path, screen: Any, show_json: ShowJson
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann", "--big-gin-bonus", "31").exit_code == 0
    with scorer_page(hgin_home, screen):
        said, entry = screen.locator("#said"), screen.locator("#entry")
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        expect(screen.get_by_role("button", name="Redo")).to_be_hidden()
        screen.get_by_role("button", name="Big gin").click()
        expect(entry).to_have_text("Big gin · Who went big gin?")
        accessible(screen)  # the players' buttons
        screen.get_by_role("button", name="Ann").click()
        expect(entry).to_have_text("Big gin · Ann · Bob's deadwood? _")
        tap(screen, "1", "0", "OK")
        expect(said).to_have_text("Big gin: Ann scores 31 + 10 = 41 in game I.", timeout=LOAD)
        screen.get_by_role("button", name="Undo").click()
        expect(entry).to_have_text(
            "Undo change 1: recorded hand 1: big gin by Ann, 31 + 10 = 41?", timeout=LOAD
        )
        accessible(screen)  # a confirmation
        screen.get_by_role("button", name="Record").click()
        expect(screen.get_by_role("button", name="Redo")).to_be_visible(timeout=LOAD)
        screen.get_by_role("button", name="Redo").click()
        expect(entry).to_have_text("Redo change 1: recorded hand 1: big gin by Ann, 31 + 10 = 41?")
        screen.get_by_role("button", name="Record").click()
        expect(screen.locator("#last")).to_contain_text("Big gin: Ann scores", timeout=LOAD)
        shown = show_json()
        assert [h["entered"]["kind"] for h in shown["hands"]] == ["big_gin"]
        assert shown["totals"] == {"Ann": 41, "Bob": 0}


def test_an_oklahoma_knock_names_its_upcard_and_a_count_over_the_limit_is_kept_for_correction(
    run: Run, hgin_home: Path, screen: Any, show_json: ShowJson
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann", "--oklahoma").exit_code == 0
    with scorer_page(hgin_home, screen):
        said, entry = screen.locator("#said"), screen.locator("#entry")
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        screen.get_by_role("button", name="Knock").click()
        screen.get_by_role("button", name="Ann").click()
        expect(entry).to_have_text("Knock · Ann · The upcard?")
        accessible(screen)  # the ranks
        screen.get_by_role("button", name="7", exact=True).click()
        expect(entry).to_have_text("Knock · Ann · Its suit?")
        accessible(screen)  # the suits
        screen.get_by_role("button", name="spades").click()
        expect(entry).to_have_text("Knock · Ann · upcard 7♠ · Ann's deadwood? _")
        tap(screen, "9", "OK")  # over the seven's limit: refused as typed, the entry kept
        expect(said).to_have_text("hgin: Ann cannot knock with 9: the limit is 7")
        expect(entry).to_have_text("Knock · Ann · upcard 7♠ · Ann's deadwood? _")
        tap(screen, "5", "OK", "2", "0", "OK")
        expect(said).to_contain_text("(20 − 5) × 2 = 30", timeout=LOAD)
        shown = show_json()
        assert [h["entered"]["upcard"] for h in shown["hands"]] == ["7♠"]
        assert shown["totals"] == {"Ann": 30, "Bob": 0}


def test_at_the_end_of_a_match_the_page_offers_a_rematch_and_follows_it(
    run: Run, hgin_home: Path, screen: Any
) -> None:
    assert (
        run("new", "Ann", "Bob", "--dealer", "Ann", "--games", "1", "--target", "10").exit_code == 0
    )
    first = ScoreKeeper(hgin_home).current_id()
    assert first is not None
    with scorer_page(hgin_home, screen, "--match", first):  # a board on one match
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        expect(screen.get_by_role("button", name="Rematch")).to_be_hidden()
        tap(screen, "Gin", "Ann", "5", "OK")
        expect(screen.get_by_role("button", name="Rematch")).to_be_visible(timeout=LOAD)
        for gone in ("Gin", "Knock", "Dead hand"):
            expect(screen.get_by_role("button", name=gone, exact=True)).to_be_hidden()
        accessible(screen)  # the match over
        screen.get_by_role("button", name="Rematch").click()
        screen.get_by_role("button", name="Record").click()
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        second = ScoreKeeper(hgin_home).current_id()
        assert second != first
        tap(screen, "Gin", "Bob", "7", "OK")  # recorded in the new match the page follows
        expect(screen.locator("#said")).to_contain_text("Gin: Bob scores", timeout=LOAD)
        assert len(ScoreKeeper(hgin_home).load(second).hands) == 1


def test_any_hand_can_be_corrected_or_deleted_from_the_hands_list(
    run: Run, hgin_home: Path, screen: Any, show_json: ShowJson
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    for hand in (("gin", "ann", "10"), ("knock", "bob", "3", "9"), ("draw",)):
        assert run(*hand).exit_code == 0
    with scorer_page(hgin_home, screen):
        said = screen.locator("#said")
        expect(screen.locator("#last")).to_have_text(
            "Dead hand: no score, no win counted.", timeout=LOAD
        )
        screen.get_by_role("button", name="Hands").click()
        accessible(screen)  # the hands list
        screen.get_by_role("button", name="Edit hand 2").click()
        screen.get_by_role("button", name="Gin", exact=True).click()
        screen.get_by_role("button", name="Bob").click()
        tap(screen, "2", "0", "OK")
        expect(said).to_contain_text("Hand 2 corrected", timeout=LOAD)
        screen.get_by_role("button", name="Hands").click()
        screen.get_by_role("button", name="Delete hand 3").click()
        screen.get_by_role("button", name="Delete", exact=True).click()
        expect(said).to_contain_text("Hand 3 deleted", timeout=LOAD)
        shown = show_json()
        assert [(h["entered"]["kind"], h["entered"]["player"]) for h in shown["hands"]] == [
            ("gin", "Ann"),
            ("gin", "Bob"),
        ]
        assert shown["totals"] == {"Ann": 35, "Bob": 45}  # 25 + 10; 25 + 20


def test_a_new_match_with_new_names_and_rules_starts_from_the_phone(
    run: Run, hgin_home: Path, screen: Any
) -> None:
    one_game = ("--games", "1", "--target", "10")
    assert run("new", "Ann", "Bob", "--dealer", "Ann", *one_game).exit_code == 0
    assert run("gin", "ann", "5").exit_code == 0  # the match is over
    with scorer_page(hgin_home, screen):
        screen.get_by_role("button", name="New match").click(timeout=LOAD)
        screen.get_by_label("First player").fill("Cy")
        screen.get_by_label("Second player").fill("Dee")
        screen.get_by_role("button", name="classic").click()
        accessible(screen)  # the new match's names and rules
        screen.get_by_role("button", name="Start").click()
        expect(screen.locator("#title")).to_have_text("Cy v Dee", timeout=LOAD)
        rules = json.loads(hgin(hgin_home, "rules", "--json").stdout)
        assert rules["profile"] == "classic"


def test_the_next_match_of_a_series_starts_from_the_phone_and_the_tv_follows_it(
    run: Run, hgin_home: Path, screen: Any
) -> None:
    one_game = ("--games", "1", "--target", "10")
    started = run("series", "new", "Ann", "Bob", "--to", "100", "--dealer", "Ann", *one_game)
    assert started.exit_code == 0
    assert run("gin", "ann", "5").exit_code == 0  # the series' first match is over
    first = ScoreKeeper(hgin_home).current_id()
    with scorer_page(hgin_home, screen) as board:
        viewer = screen.context.new_page()
        viewer.goto(board.viewer)
        expect(screen.get_by_role("button", name="Next in series")).to_be_visible(timeout=LOAD)
        expect(screen.get_by_role("button", name="Rematch")).to_be_hidden()
        screen.get_by_role("button", name="Next in series").click()
        screen.get_by_role("button", name="Record").click()
        expect(screen.locator("#said")).to_contain_text("New match", timeout=LOAD)
        expect(viewer.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        series = json.loads(hgin(hgin_home, "series", "show", "--json").stdout)
        second = ScoreKeeper(hgin_home).current_id()
        assert second != first
        assert ([m["id"] for m in series["matches"]], series["in_play"]) == ([first], second)


def test_an_entry_made_on_a_sheet_that_changed_since_is_refused(
    run: Run, hgin_home: Path, screen: Any, show_json: ShowJson
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    with scorer_page(hgin_home, screen):
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        screen.route("**/events", lambda route: route.abort())  # the page hears of no change
        screen.route("**/sheet.json", lambda route: route.abort())
        screen.evaluate("() => window.stop()")  # its stream too is cut
        assert hgin(hgin_home, "gin", "bob", "12").returncode == 0  # typed on the laptop
        tap(screen, "Gin", "Ann", "8", "OK")
        expect(screen.locator("#said")).to_have_text(
            "hgin: the sheet changed: look again", timeout=LOAD
        )
        shown = show_json()
        assert shown["totals"] == {"Ann": 0, "Bob": 37}  # the laptop's hand alone


def test_the_summary_of_twelve_hands_with_a_stake_prints_on_one_a4_page(
    run: Run, hgin_home: Path, browser: Any, show_json: ShowJson
) -> None:
    for command in TWELVE_HANDS:
        assert run(*command).exit_code == 0
    shown = show_json()
    assert (len(shown["hands"]), shown["finished"]) == (12, True)
    page = browser.new_page()
    try:
        page.set_content(hgin(hgin_home, "summary", "-f", "html").stdout)
        printed = page.pdf(format="A4")
    finally:
        page.close()
    assert len(re.findall(rb"/Type\s*/Page\b", printed)) == 1


def test_a_rolling_match_takes_notice_and_straight_gin_offers_no_knock(
    run: Run, hgin_home: Path, screen: Any, show_json: ShowJson
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann", "--rolling").exit_code == 0
    with scorer_page(hgin_home, screen):
        expect(screen.locator("#last")).to_have_text("No hand yet.", timeout=LOAD)
        expect(screen.get_by_role("button", name="Big gin")).to_be_hidden()  # not paid here
        screen.get_by_role("button", name="Notice").click()
        screen.get_by_role("button", name="Record").click()
        expect(screen.locator("#said")).to_contain_text("Notice given", timeout=LOAD)
        expect(screen.get_by_role("button", name="Notice")).to_be_hidden(timeout=LOAD)
        assert show_json()["notice"] is True
        assert run("new", "Cy", "Dee", "--dealer", "Cy", "--straight").exit_code == 0
        expect(screen.locator("#title")).to_have_text("Cy v Dee", timeout=LOAD)
        expect(screen.get_by_role("button", name="Knock")).to_be_hidden()
        expect(screen.get_by_role("button", name="Gin", exact=True)).to_be_visible()
        accessible(screen)
