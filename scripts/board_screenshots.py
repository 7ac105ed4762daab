"""Screenshots of the board for the manual, taken from the real page.

A classic match with a stake is played into a fresh data folder with the real `hgin` command,
`hgin board --local --scorer` serves it, and the system's Chromium (driven by Playwright) takes:

- phone-entry.png: the scorer page on a phone (390x844) in the middle of a knock;
- phone-hands.png: its hands list;
- phone-over.png: the match over, with Rematch and New match offered;
- tv.png: the read-only board on a 1920x1080 TV.

Run from a clone with the board extra and Playwright installed:

    python scripts/board_screenshots.py docs/images
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, sync_playwright

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))

from tests.board_process import Board, hgin  # noqa: E402  (the tests' way to run hgin)
from tests.summary_data import TWELVE_HANDS  # noqa: E402

CHROMIUM = os.environ.get("HGIN_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE: ViewportSize = {"width": 390, "height": 844}
TV: ViewportSize = {"width": 1920, "height": 1080}
SHOWN = 10  # the hands of TWELVE_HANDS played before the shots of a match in play


def tap(page: Page, *labels: str) -> None:
    for label in labels:
        page.get_by_role("button", name=label, exact=True).click()


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home_name, sync_playwright() as playwright:
        home = Path(home_name)
        for command in TWELVE_HANDS[: SHOWN + 1]:  # the new match and its first hands
            assert hgin(home, *command).returncode == 0
        board = Board(home, "--scorer")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            tv = browser.new_page(viewport=TV)
            tv.goto(board.viewer)
            tv.get_by_text("Total").first.wait_for()
            tv.screenshot(path=folder / "tv.png")
            phone = browser.new_page(viewport=PHONE)
            assert board.scorer is not None
            phone.goto(board.scorer)
            tap(phone, "Knock", "Bob", "4")
            phone.screenshot(path=folder / "phone-entry.png", full_page=True)
            phone.reload()
            tap(phone, "Hands")
            phone.screenshot(path=folder / "phone-hands.png", full_page=True)
            for command in TWELVE_HANDS[SHOWN + 1 :]:
                assert hgin(home, *command).returncode == 0
            phone.reload()
            phone.get_by_role("button", name="Rematch").wait_for(timeout=5000)
            phone.screenshot(path=folder / "phone-over.png", full_page=True)
        finally:
            browser.close()
            board.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
