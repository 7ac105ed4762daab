"""Text progress bars toward a game's target, drawn in the sheet. Pure.

Kept apart from `hgin.reports.charts` (the SVG charts), which costs more to import than a command
that only shows the sheet can spare."""

from __future__ import annotations

BAR_WIDTH = 8
BAR_FULL = "█"
BAR_EMPTY = "░"


def progress_bar(points: int, target: int, width: int = BAR_WIDTH) -> str:
    """A text bar of `points` toward `target`: full blocks for the share reached (rounded down,
    so only a closed game is ever full), light shade for the rest."""
    filled = max(0, min(width, points * width // max(target, 1)))
    return BAR_FULL * filled + BAR_EMPTY * (width - filled)
