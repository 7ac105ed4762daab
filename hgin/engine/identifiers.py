"""Identifiers of matches and series: safe as file names, readable, never leaving a folder."""

from __future__ import annotations

import re
import unicodedata
import zlib  # loaded already, by the standard library's shutil
from typing import Any

# Always used with fullmatch: `$` would also accept a trailing newline.
IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
LEGACY_SLUG = "player"  # what earlier releases wrote for every name without such a letter


def slug(name: str) -> str:
    """A file-name-safe fragment of a player name (at most 9 letters, so that "match " and the
    longest identifier fit 40 columns); a name with no such letter gets 'x' and a code of it."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    if cleaned:
        return cleaned[:9].strip("-")
    folded = unicodedata.normalize("NFKC", name).casefold()
    code = zlib.crc32(folded.encode("utf-8", "surrogatepass"))
    return f"x{code:08x}"[:7]  # six hex digits


def stem(created: str, players: tuple[str, str]) -> str:
    """'2026-11-30-ann-bob': the start of an identifier for these players on that day."""
    return f"{created[:10]}-{slug(players[0])}-{slug(players[1])}"


def derived_uid(created: Any, players: Any, first_dealer: Any) -> str:
    """The identity of a match written before matches had one, the same for every copy."""
    import hashlib  # only for such matches: it takes longer to load than most commands run

    record = repr([created, players, first_dealer])
    return hashlib.sha256(record.encode("utf-8", "surrogatepass")).hexdigest()[:16]
