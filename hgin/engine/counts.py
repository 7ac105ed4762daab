"""Reading a typed count: a whole number, or a clear refusal (pure, no imports to speak of)."""

from __future__ import annotations

import re

from hgin.errors import HginError

WHOLE = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 6


def whole_number(text: str, what: str) -> int:
    """A typed count or hand number; anything but a whole number is refused."""
    cleaned = text.strip()
    if not WHOLE.fullmatch(cleaned):
        raise HginError(f"{what} must be a whole number, not '{text}'")
    digits = cleaned.lstrip("+-")
    if len(digits) > MAX_DIGITS:
        shown = cleaned if len(digits) <= 40 else f"of {len(digits)} digits"
        raise HginError(f"{what} {shown} is far too large")
    return int(cleaned)
