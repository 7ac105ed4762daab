"""The suit signs people type and hgin draws, each with its suit letter. Pure and tiny, so
that drawing a sheet in ASCII needs no card model."""

from __future__ import annotations

# The filled signs hgin draws and the outlined ones some keyboards give: both mean the suit.
SUIT_LETTERS: dict[str, str] = {
    "♠": "s",
    "♥": "h",
    "♦": "d",
    "♣": "c",
    "♤": "s",
    "♡": "h",
    "♢": "d",
    "♧": "c",
}
