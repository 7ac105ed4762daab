"""Text progress bars toward a game's target, drawn in the sheet. Pure, and light to import."""

from __future__ import annotations

from hgin.reports.symbols import BAR_EMPTY, BAR_FULL

BAR_WIDTH = 8


def progress_bar(points: int, target: int) -> str:
    """A bar of `points` toward `target`, rounded to the nearest block but full only at it."""
    target = max(target, 1)
    filled = (2 * points * BAR_WIDTH + target) // (2 * target)  # halves round up
    if points < target:
        filled = min(filled, BAR_WIDTH - 1)
    filled = max(0, min(BAR_WIDTH, filled))
    return BAR_FULL * filled + BAR_EMPTY * (BAR_WIDTH - filled)
