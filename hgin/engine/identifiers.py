"""Identifiers of matches and series: safe as file names, readable, never leaving a folder."""

from __future__ import annotations

import re
import unicodedata

# Always used with fullmatch: `$` would also accept a trailing newline.
IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")


def slug(name: str) -> str:
    """A file-name-safe fragment of a player name."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return cleaned[:16].strip("-") or "player"


def stem(created: str, players: tuple[str, str]) -> str:
    """'2026-11-30-ann-bob': the start of an identifier for these players on that day."""
    return f"{created[:10]}-{slug(players[0])}-{slug(players[1])}"
