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
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))

from tests.board_process import Board  # noqa: E402  (the tests' way to run the real board)

CHROMIUM = os.environ.get("HGIN_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
# Twelve hands of classic rules with a stake: games I and II close after ten, game III after twelve.
HANDS = [
    ("new", "Ann", "Bob", "--rules", "classic", "--dealer", "Ann", "--stake", "0.10"),
    ("knock", "ann", "2", "14"),
    ("knock", "bob", "3", "15"),
    ("gin", "ann", "10"),
    ("knock", "bob", "1", "20"),
    ("knock", "ann", "4", "30"),
    ("draw",),
    ("gin", "bob", "12"),
    ("knock", "ann", "5", "20"),
    ("knock", "bob", "2", "27"),
    ("gin", "ann", "15"),
]
LAST = [("knock", "ann", "6", "3"), ("knock", "bob", "4", "30")]


def hgin(home: Path, *args: str) -> None:
    environment = {**os.environ, "HGIN_HOME": str(home)}
    subprocess.run([sys.executable, "-m", "hgin", *args], env=environment, check=True)


def tap(page: Page, *labels: str) -> None:
    for label in labels:
        page.get_by_role("button", name=label, exact=True).click()


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home_name, sync_playwright() as playwright:
        home = Path(home_name)
        for command in HANDS:
            hgin(home, *command)
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
            for command in LAST:
                hgin(home, *command)
            phone.reload()
            phone.get_by_role("button", name="Rematch").wait_for(timeout=5000)
            phone.screenshot(path=folder / "phone-over.png", full_page=True)
        finally:
            browser.close()
            board.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
