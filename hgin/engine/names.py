"""How typed words find names: the one name folding (`fold`) and the one prefix lookup (`pick`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from hgin.errors import HginError

SHOWN_LENGTH = 100
# Zero-width (non-)joiners belong inside Persian or emoji names; every other character of these
# categories (controls, bidi overrides that would reorder the terminal, private use...) is
# refused in any text a person will see.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
JOINERS = frozenset("\u200c\u200d")


def control_character(text: str) -> str | None:
    """The lowest character of `text` that cannot be shown as it is, else None."""
    if text.isprintable():
        return None
    refused = (
        c for c in text if c not in JOINERS and unicodedata.category(c) in REFUSED_CATEGORIES
    )
    return min(refused, default=None)


def fold(text: str) -> str:
    """A name as it is compared: trimmed, accents dropped, case folded ("Zoë" -> "zoe")."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return unicodedata.normalize("NFC", bare).casefold()


def shown(typed: str) -> str:
    """What a refusal quotes of a typed word: at most a hundred characters."""
    return typed if len(typed) <= SHOWN_LENGTH else typed[:SHOWN_LENGTH] + "…"


def either(names: list[str]) -> str:
    """ "A or B", "A, B or C", "A, B, C or more" for a refusal that lists candidates."""
    listed = names[:3]
    if len(names) > 3:
        return ", ".join(listed) + " or more"
    if len(listed) == 1:
        return listed[0]
    return ", ".join(listed[:-1]) + " or " + listed[-1]


def candidates_for(typed: str, names: Iterable[str]) -> list[str]:
    """The names `typed` may mean: the one equal to it once folded, else those it starts."""
    wanted = fold(typed)
    if not wanted:
        return []
    pool = list(dict.fromkeys(names))
    exact = [name for name in pool if fold(name) == wanted]
    if exact:
        return exact[:1]
    return [name for name in pool if fold(name).startswith(wanted)]


def pick(typed: str, names: Iterable[str], *, missing: str, more: str = "the name") -> str:
    """The one name `typed` means, or a refusal (`missing`, with `{typed}`, when none fits)."""
    hits = candidates_for(typed, names)
    if len(hits) == 1:
        return hits[0]
    if not fold(typed):
        raise HginError(missing.replace("{typed}", ""))
    if hits:
        raise HginError(f"'{shown(typed)}' could be {either(hits)}: type more of {more}")
    raise HginError(missing.replace("{typed}", shown(typed)))
