"""Every `$ hgin …` example of the README and the manual prints what the page says (see
`tests/docs_examples.py` for how a page is read and run); every option of every command is
written about in the manual; the README stays a front door."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs_examples import (
    PAGES,
    ROOT,
    Command,
    Example,
    examples,
    expected,
    matches,
    run_page,
)

ADDRESS = re.compile(r"http://\S+")
QR_BLOCKS = set("█▀▄ ")


def mismatches(page: Path, folder: Path) -> list[str]:
    failed = []
    for example, command, printed in run_page(page, folder, pytest.MonkeyPatch()):
        shown = expected(example, command)
        if not matches(shown, printed):
            failed.append(_report(page, command, shown, printed))
    return failed


def _report(page: Path, command: Command, shown: list[str], printed: list[str]) -> str:
    return (
        f"{page.relative_to(ROOT)}:{command.line}: hgin {' '.join(command.words)}\n"
        + "--- the page shows\n"
        + "\n".join(shown)
        + "\n+++ it prints\n"
        + "\n".join(printed)
    )


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_example_prints_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    failed = mismatches(page, tmp_path)
    assert not failed, "\n\n".join(failed) + "\n\n(python -m tests.docs_examples rewrites them)"


def test_a_changed_number_in_an_example_fails(tmp_path: Path) -> None:
    page = ROOT / "README.md"
    runs = run_page(page, tmp_path, pytest.MonkeyPatch())
    example, command, printed = next(r for r in runs if any(c.isdigit() for c in "".join(r[2])))
    shown = expected(example, command)
    assert matches(shown, printed)
    index = next(i for i, line in enumerate(shown) if re.search(r"\d", line))
    changed = re.sub(r"\d", lambda d: str((int(d[0]) + 1) % 10), shown[index], count=1)
    assert not matches([*shown[:index], changed, *shown[index + 1 :]], printed)


def test_the_board_starts_as_the_manual_shows(hgin_home: Path) -> None:
    pytest.importorskip("uvicorn", reason="the board extra is not installed")
    from tests.board_process import Board

    served = [e for page in PAGES for e in examples(page) if e.kind == "serve"]
    assert served, "the manual shows 'hgin board' starting"
    for example in served:
        (command,) = example.commands
        board = Board(hgin_home, *command.words[1:])
        try:
            printed = [line for line in board.printed if not set(line) <= QR_BLOCKS]
        finally:
            board.stop()
        shown = [line for line in command.shown if not line.startswith("(")]
        assert [ADDRESS.sub("ADDRESS", line) for line in printed] == [
            ADDRESS.sub("ADDRESS", line) for line in shown
        ]


def _options(command: object, path: tuple[str, ...] = ()) -> set[str]:
    found = {
        name
        for param in getattr(command, "params", [])
        for name in [*param.opts, *param.secondary_opts]
        if name.startswith("--") and name != "--help"
    }
    for sub in getattr(command, "commands", {}).values():
        found |= _options(sub)
    return found


def test_every_option_of_every_command_is_written_about_in_the_manual() -> None:
    import typer

    from hgin.cli import app

    manual = "\n".join(page.read_text(encoding="utf-8") for page in (ROOT / "docs").glob("*.md"))
    options = _options(typer.main.get_command(app))
    # Each option as a whole word: '--big' is not named by '--big-gin-bonus'.
    missing = sorted(o for o in options if not re.search(re.escape(o) + r"(?![\w-])", manual))
    assert not missing, f"options the manual's pages never mention: {missing}"


def test_the_readme_is_a_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme) <= 20_000
    first = "\n".join(readme.splitlines()[:120])
    assert 'pip install -e ".[test]" && pytest' in first
    assert "$ hgin new" in first and "$ hgin gin" in first  # the first hand


def test_every_page_has_examples_run_in_their_own_folder() -> None:
    pages_with_examples = [p for p in PAGES if examples(p)]
    assert ROOT / "README.md" in pages_with_examples
    assert len(pages_with_examples) >= 8
    for page in pages_with_examples:
        for example in examples(page):
            assert isinstance(example, Example) and example.commands
