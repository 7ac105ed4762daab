"""The symbols hgin draws with, and the plain ASCII each one becomes. Pure.

Text is always built with the symbols; only the terminal streams (`hgin.cli.streams`) swap them
for ASCII, so what is stored or written to a file never depends on the terminal."""

from __future__ import annotations

import unicodedata

from hgin.cards.suits import SUIT_LETTERS

WON_MARK = "✓"
NOT_OPEN = "–"
BAR_FULL = "█"
BAR_EMPTY = "░"
SEPARATOR = "·"

# Every symbol hgin writes itself, with its ASCII form. Box-drawing characters (Rich's table
# lines) are added by `ascii_table`; anything else (a name's accents) is left to the encoding.
ASCII_FORMS: dict[str, str] = {
    WON_MARK: "*",
    NOT_OPEN: "-",  # the en dash of "2–1", "Ann–Bob"; standing alone (not entered) it is "."
    "—": "-",  # alone ("none") "." too: `hgin.cli.streams` swaps a dash standing alone first
    "−": "-",  # the minus sign of "12 − 7"
    "×": "x",  # "34 × 2"
    BAR_FULL: "#",
    BAR_EMPTY: ".",
    SEPARATOR: "/",  # not "|": a Markdown table's cells hold the separator
    "…": "...",
    "→": "->",
    **SUIT_LETTERS,  # "A♠" -> "As", as a card is typed
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "\u00a0": " ",  # no-break space
    "€": "EUR",  # a currency given to `settle`
    "£": "GBP",
}

SYMBOLS = "".join(ASCII_FORMS) + "━─"


def box_form(char: str) -> str:
    """The ASCII for a box-drawing character: '=' or '-' across, '|' down, '+' at a corner."""

    name = unicodedata.name(char, "")
    if "DIAGONAL" in name:
        return "X" if "CROSS" in name else "/" if "UPPER RIGHT" in name else "\\"
    across = any(word in name for word in ("HORIZONTAL", "LEFT", "RIGHT"))
    down = any(word in name for word in ("VERTICAL", "UP", "DOWN"))
    if across and down:
        return "+"
    if across:
        return "=" if "HEAVY" in name or "DOUBLE" in name else "-"
    return "|"


def ascii_table() -> dict[int, str]:
    """A `str.translate` table from every symbol (box drawing included) to its ASCII form."""
    table = {ord(symbol): plain for symbol, plain in ASCII_FORMS.items()}
    table.update({code: box_form(chr(code)) for code in range(0x2500, 0x2580)})
    return table


def can_draw(encoding: str) -> bool:
    """Whether text in `encoding` can hold every symbol hgin draws with."""
    try:
        SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def plain_letters(text: str) -> str:
    """`text` with accents taken off its letters ('Zoë' -> 'Zoe')."""

    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def escaped(text: str) -> str:
    """A text from outside as hgin prints it: what is not printable as an escape ('\\x1b')."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
