"""A progress bar on standard error for an export or import of many matches: only on a
terminal, and only once the task has taken about a second (Rich is imported only then)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

DELAY = 1.0  # seconds of work before a bar appears


def is_terminal() -> bool:
    return sys.stderr.isatty()


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A callable told (done, total) for the block; the bar is taken off when it ends."""
    started, wanted = time.monotonic(), is_terminal()
    shown: list[Any] = []  # the bar and its task, once drawn

    def update(done: int, total: int) -> None:
        if not shown:
            if not wanted or time.monotonic() - started < DELAY:
                return
            from rich.console import Console
            from rich.progress import Progress

            bar = Progress(console=Console(file=sys.stderr, force_terminal=True), transient=True)
            bar.start()
            shown.extend((bar, bar.add_task(label, total=total)))
        shown[0].update(shown[1], completed=done, total=total, description=label)

    try:
        yield update
    finally:
        if shown:
            shown[0].stop()
