"""Reading a typed count: a whole number, or a clear refusal (pure, no imports to speak of)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from hgin.errors import HginError

WHOLE = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 6


def option_like(word: str) -> bool:
    """Whether a typed word reads as an option: it starts with a dash and is no number."""
    return word.startswith("-") and not WHOLE.fullmatch(word)


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


def counts_after(
    command: str, player: str, typed: Sequence[str | None], whats: Sequence[str]
) -> list[int | None]:
    """The counts typed after a player's name, each read by `whole_number`; the refusal of a
    line with the name among the counts (`gin 22 oskar`) shows it the right way round."""
    try:
        return [
            None if text is None else whole_number(text, what)
            for text, what in zip(typed, whats, strict=True)
        ]
    except HginError as refusal:
        given = [text for text in typed if text is not None]
        words = [text for text in given if not WHOLE.fullmatch(text.strip())]
        if not WHOLE.fullmatch(player.strip()) or len(words) != 1:
            raise
        numbers = [player, *(text for text in given if text is not words[0])]
        right = " ".join([command, words[0], *numbers])
        raise HginError(f"{refusal} (the words look swapped: {right})") from None
