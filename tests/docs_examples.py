"""The `$ hgin …` examples of the README and the manual, found and run.

An example is a fenced code block whose first line starts with `$ hgin`: each `$ hgin …` line
is a command (a `  # remark` after it is not typed; settings such as `HGIN_ASCII=1` may come
before `hgin`), the lines under it what it prints (stdout
and stderr as a terminal shows them). A line `...` stands for any number of lines. Every page
runs its examples in order in one data folder of its own, with a fixed clock (one minute a
step from 20:00 on Mon 30 Nov 2026, UTC), fixed random choices (the dealer drawn by lot,
match identities), no colour and 60 columns, in the page's own working folder (where files
it names are written and read).

An HTML comment just before a block can change that for the block:

    <!-- hgin: width=40 folder=laptop -->   other columns, another data folder of the page
    <!-- hgin: play -->                      a `hgin play` session: the words typed after each
                                             prompt are fed on standard input, the rest is
                                             what it prints (a line typed with ^C is not sent)
    <!-- hgin: serve -->                     `hgin board`: checked by its first lines, the
                                             addresses and the QR code left out
    <!-- hgin-setup
    hgin new Ann Bob --dealer ann            commands run first, unseen (output not checked)
    -->

`python -m tests.docs_examples [PAGE…]` rewrites each page's outputs with what the commands print
(after a change of wording, to review with `git diff`); the tests compare.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
START = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
WIDTH = 60
OMITTED = "..."
FENCE = re.compile(r"^(```+)(.*)$")  # a fence, with any info string ({directive} too)
OPTIONS = re.compile(r"^<!-- hgin: (?P<options>[^>]*) -->$")
SETUP = "<!-- hgin-setup"
PROMPT = re.compile(r"^(?P<prompt>(?:hand \d+|over)> )(?P<typed>.*)$")
REMARK = re.compile(r"\s+#\s.*$")
# A command line: '$ ', any settings of the environment (NAME=value), then hgin.
COMMAND = re.compile(r"^\$ (?:[A-Z_]+=\S* )*hgin\b")


@dataclass
class Command:
    """One `$ hgin …` line and the lines printed under it on the page."""

    line: int  # where the command stands in the page (1-based)
    words: list[str]
    shown: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)  # set before it, as in 'NO_COLOR=1 hgin'


@dataclass
class Example:
    """A block of commands, with the options and unseen set-up before it."""

    page: Path
    start: int  # the line after the opening fence (0-based index)
    end: int  # the closing fence's index
    commands: list[Command]
    width: int = WIDTH
    folder: str = "main"
    kind: str = "run"  # or "play" or "serve"
    setup: list[list[str]] = field(default_factory=list)


def examples(page: Path) -> list[Example]:
    """The page's examples, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, index = [], 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if fence is None:
            index += 1
            continue
        end = next(i for i in range(index + 1, len(lines)) if lines[i].rstrip() == fence[1])
        body = lines[index + 1 : end]
        if body and COMMAND.match(body[0]):
            example = Example(page, index + 1, end, _commands(body, index + 2))
            _read_comments(example, lines, index)
            found.append(example)
        index = end + 1
    return found


def _commands(body: list[str], first_line: int) -> list[Command]:
    commands: list[Command] = []
    for offset, text in enumerate(body):
        if COMMAND.match(text):
            words = shlex.split(REMARK.sub("", text[2:]))
            settings = words[: words.index("hgin")]
            env = dict(setting.split("=", 1) for setting in settings)
            commands.append(Command(first_line + offset, words[len(settings) + 1 :], env=env))
        else:
            commands[-1].shown.append(text)
    return commands


def _read_comments(example: Example, lines: list[str], fence: int) -> None:
    """The options and set-up written in the comments just above the block."""
    index = fence - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    while index >= 0 and lines[index].rstrip() == "-->":
        start = max(i for i in range(index) if lines[i].startswith(SETUP))
        example.setup = [shlex.split(text)[1:] for text in lines[start + 1 : index] if text]
        index = start - 1
    options = OPTIONS.match(lines[index]) if index >= 0 else None
    if options is None:
        return
    for option in options["options"].split():
        name, _, value = option.partition("=")
        if name == "width":
            example.width = int(value)
        elif name == "folder":
            example.folder = value
        elif name in ("play", "serve"):
            example.kind = name
        else:
            raise ValueError(f"{example.page.name}: unknown example option {option!r}")


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are those shown, a `...` standing for any number of lines."""
    if not shown:
        return not printed
    if shown[0] == OMITTED:
        return any(matches(shown[1:], printed[n:]) for n in range(len(printed) + 1))
    return bool(printed) and printed[0] == shown[0] and matches(shown[1:], printed[1:])


def trimmed(text: str) -> list[str]:
    """Output as lines, each without trailing spaces, without blank lines at the end."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


class Clock:
    """hgin's clock, one minute later at every reading."""

    def __init__(self) -> None:
        self.moment = START

    def now_text(self) -> str:
        self.moment += timedelta(minutes=1)
        return self.moment.isoformat(timespec="seconds")


class FixedDatetime(datetime):
    """`datetime` whose now() is the start of the examples' evening."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return START if tz is None else START.astimezone(tz)


@contextmanager
def fixed_world(patch: Any) -> Iterator[Clock]:
    """A fixed clock and fixed random choices, as every example page runs in (`patch` is a
    pytest MonkeyPatch)."""
    clock = Clock()
    chance = random.Random(2026)
    patch.setattr("hgin.scorekeeper.now_text", clock.now_text)
    patch.setattr("hgin.reports.times.datetime", FixedDatetime)
    patch.setattr("hgin.store.backups.datetime", FixedDatetime)
    patch.setattr(os, "urandom", chance.randbytes)
    patch.setenv("TZ", "UTC")
    patch.setenv("NO_COLOR", "1")
    patch.delenv("FORCE_COLOR", raising=False)
    time.tzset()
    try:
        yield clock
    finally:
        patch.undo()
        time.tzset()


def run_page(page: Path, folder: Path, patch: Any) -> list[tuple[Example, Command, list[str]]]:
    """Run every example of `page` with data folders under `folder`: each command with what
    it printed, as lines."""
    from typer.testing import CliRunner

    from hgin.cli import app

    printed: list[tuple[Example, Command, list[str]]] = []
    runner = CliRunner()
    folder.mkdir(parents=True, exist_ok=True)
    with fixed_world(patch):
        patch.chdir(folder)  # files the examples write (an export, a summary) land there
        for example in examples(page):
            if example.kind == "serve":
                continue  # checked by tests/test_docs.py against the real server
            env = {"HGIN_HOME": str(folder / example.folder), "COLUMNS": str(example.width)}
            for words in example.setup:
                done = runner.invoke(app, words, env=env)
                assert done.exit_code == 0, f"{page.name}: set-up {words}: {done.output}"
            for command in example.commands:
                typed = play_input(command) if example.kind == "play" else None
                done = runner.invoke(app, command.words, env=env | command.env, input=typed)
                printed.append((example, command, trimmed(done.output)))
    return printed


def play_input(command: Command) -> str:
    """What a play session's page shows typed after its prompts, as standard input."""
    typed = [m["typed"] for line in command.shown if (m := PROMPT.match(line))]
    return "".join(f"{words}\n" for words in typed if not words.endswith("^C"))


def expected(example: Example, command: Command) -> list[str]:
    """The lines the page shows a command printing; for a play session, what it prints
    without prompts (piped in, play prompts for nothing), lines after a ^C left out."""
    if example.kind != "play":
        return command.shown
    kept, skipping = [], False
    for line in command.shown:
        prompt = PROMPT.match(line)
        if prompt is not None:
            skipping = prompt["typed"].endswith("^C")
        elif not skipping:
            kept.append(line)
    return kept


def update(page: Path, folder: Path, patch: Any) -> int:
    """Write what each command printed under it on the page (a `...` that still fits is
    kept); the number of commands whose lines changed."""
    lines = page.read_text(encoding="utf-8").splitlines()
    changed = 0
    for example, command, printed in reversed(run_page(page, folder, patch)):
        if example.kind == "play" or matches(expected(example, command), printed):
            continue
        start = command.line  # the first shown line's index (the command's line is 1-based)
        shown = command.shown
        if shown and shown[0] == OMITTED:
            tail = len(shown) - 1
            new = [OMITTED, *printed[len(printed) - tail :]] if tail else [OMITTED]
        else:
            new = printed
        lines[start : start + len(shown)] = new
        changed += 1
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


def main() -> None:
    """Rewrite the pages named on the command line (paths), else every page."""
    import tempfile

    import pytest

    named = [Path(name).resolve() for name in sys.argv[1:]]
    for page in named or PAGES:
        with tempfile.TemporaryDirectory() as folder:
            patch = pytest.MonkeyPatch()
            changed = update(page, Path(folder), patch)
        if changed:
            print(f"{page.relative_to(ROOT)}: {changed} example(s) rewritten", file=sys.stderr)


if __name__ == "__main__":
    main()
