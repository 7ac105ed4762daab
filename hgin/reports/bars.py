"""Text progress bars toward a game's target, drawn in the sheet. Pure.

Kept apart from `hgin.reports.charts` (the SVG charts), which costs more to import than a command
that only shows the sheet can spare."""

from __future__ import annotations

from hgin.reports.symbols import BAR_EMPTY, BAR_FULL

BAR_WIDTH = 8


def progress_bar(points: int, target: int) -> str:
    """A text bar of `points` toward `target`: full blocks for the share reached (rounded to
    the nearest block, but full only once the target is reached), light shade for the rest."""
    target = max(target, 1)
    filled = (2 * points * BAR_WIDTH + target) // (2 * target)  # halves round up
    if points < target:
        filled = min(filled, BAR_WIDTH - 1)
    filled = max(0, min(BAR_WIDTH, filled))
    return BAR_FULL * filled + BAR_EMPTY * (BAR_WIDTH - filled)
