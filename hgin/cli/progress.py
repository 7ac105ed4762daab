"""A progress bar on standard error for long tasks (export or import of many matches).

Shown only when standard error is a terminal and the task has already taken about a second,
so quick commands and scripts never see it; Rich is imported only when it is drawn.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.progress import Progress

DELAY = 1.0  # seconds of work before a bar appears


def is_terminal() -> bool:
    return sys.stderr.isatty()


class Bar:
    """A callable told (done, total); it draws a bar once the task runs over DELAY."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.started = time.monotonic()
        self.shown: Progress | None = None
        self.task: Any = None
        self.wanted = is_terminal()

    def __call__(self, done: int, total: int) -> None:
        if self.shown is None:
            if not self.wanted or time.monotonic() - self.started < DELAY:
                return
            from rich.console import Console
            from rich.progress import Progress

            console = Console(file=sys.stderr, force_terminal=True)
            self.shown = Progress(console=console, transient=True)
            self.shown.start()
            self.task = self.shown.add_task(self.label, total=total)
        self.shown.update(self.task, completed=done, total=total, description=self.label)

    def close(self) -> None:
        if self.shown is not None:
            self.shown.stop()
            self.shown = None


@contextmanager
def progress_bar(label: str) -> Iterator[Bar]:
    """A `Bar` for the block, taken off the screen when the block ends."""
    bar = Bar(label)
    try:
        yield bar
    finally:
        bar.close()
