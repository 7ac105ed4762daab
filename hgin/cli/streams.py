"""Standard output and error whatever the terminal (no Rich here): an `OutputFront` draws in
ASCII where the encoding or the settings ask for it (docs/terminals.md), and takes the
trailing blanks off a piped standard output; data (JSON, HTML, SVG) is escaped the format's way,
never rewritten. `output_format` says which format `-o FILE` asks for."""

from __future__ import annotations

import codecs
import errno
import functools
import io
import json
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any, TextIO

from hgin.errors import HginError
from hgin.reports.json_output import json_text
from hgin.reports.symbols import ascii_table, can_draw, plain_letters

ASCII_VARIABLE = "HGIN_ASCII"
TRAILING_BLANKS = re.compile(r"[ \t]+(?=\n)")
NOT_ASCII = re.compile(r"[^\x00-\x7f]")
# A dash standing alone marks an empty place (a game not entered, "none"): "." in ASCII, apart
# from the "-" of the dash that joins a score, a range or a pair ("2–1", "II–IV", "Ann–Bob").
LONE_DASH = re.compile(r"(?<!\w)[–—](?!\w)")


class TextOut(io.TextIOBase):
    """A text stream that takes any text as UTF-8 (what Rich and Click ask of a stream)."""

    encoding = "utf-8"
    errors = "strict"

    def writable(self) -> bool:
        return True


class OutputFront(TextOut):
    """A stream in front of a real one that takes any text (see above)."""

    def __init__(self, inner: TextIO, *, ascii_only: bool, strip: bool) -> None:
        super().__init__()
        self.inner = inner
        self.strip = strip
        self.ascii_only = ascii_only  # `hgin board` prints no QR code's blocks then
        self.target = (getattr(inner, "encoding", None) or "utf-8").lower()
        self.lossless = _lossless(self.target)
        self.table = ascii_table() if ascii_only else {}
        self.safe: dict[str, str] = {}  # each character as the real stream can take it
        self.pending = ""  # blanks at the end of the last write: kept until a newline or text

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.table:
            text = LONE_DASH.sub(".", text).translate(self.table)
        if self.strip:
            text = self.pending + text
            if " \n" in text or "\t\n" in text:  # rare: hgin's own lines end in no blank
                text = TRAILING_BLANKS.sub("", text)
            kept = text.rstrip(" \t")
            self.pending = text[len(kept) :]
            text = kept
        self.write_raw(text)
        return len(text)

    def write_raw(self, text: str) -> None:
        """Write `text` with no symbols swapped nor blanks taken (accents dropped as above)."""
        if not self.lossless and not self.fits(text):
            text = "".join(self.safe_char(char) for char in text)
        self.inner.write(text)

    def safe_char(self, char: str) -> str:
        if char not in self.safe:
            plain = plain_letters(char)
            # A stand-in holding a figure ('①' is '1', '㍘' is '0点') would add a number to
            # what is a sheet of numbers: such a character gets a question mark.
            invented = plain != char and any(c.isdigit() for c in plain)
            usable = plain and self.fits(plain) and not invented
            wide = unicodedata.east_asian_width(char) in ("W", "F")  # '李': '??' keeps columns
            self.safe[char] = plain if usable else "??" if wide else "?"
        return self.safe[char]

    def fits(self, text: str) -> bool:
        try:
            text.encode(self.target)
        except UnicodeEncodeError:
            return False
        return True

    def flush(self) -> None:
        # Finalised like any stream, possibly after the stream behind it was closed.
        if not getattr(self.inner, "closed", False):
            self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    @property
    def name(self) -> Any:
        return getattr(self.inner, "name", "<stdout>")


class ClosedOutput(TextOut):
    """Standard output the shell closed (Python's None would print nothing and succeed)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def prepare(config_asks: Callable[[], bool], environ: Mapping[str, str] = os.environ) -> None:
    """Put an `OutputFront` or `ClosedOutput` where needed; `config_asks` (whether the settings
    ask for ASCII) is called only when $HGIN_ASCII says nothing, and at most once."""
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    value = environ.get(ASCII_VARIABLE, "").strip().lower()
    asked = (lambda: value not in ("0", "no", "false", "off")) if value else config_asks
    ascii_asked = functools.cache(asked)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or isinstance(stream, OutputFront | ClosedOutput):
            continue
        encoding = getattr(stream, "encoding", None) or "utf-8"
        ascii_only = not can_draw(encoding) or ascii_asked()
        strip = name == "stdout" and not is_terminal(stream)
        if ascii_only or strip or not _lossless(encoding):
            setattr(sys, name, OutputFront(stream, ascii_only=ascii_only, strip=strip))


def _lossless(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name in ("utf-8", "utf-16", "utf-32")
    except LookupError:
        return False


def print_json(data: Any, indent: int | None = 2) -> None:
    """Print `data` as JSON on stdout (see `print_document`)."""
    print_document(json_text(data, indent), "json")


def print_document(text: str, form: str) -> None:
    """Print a whole document: JSON, HTML and SVG as data (see above), the rest as text."""
    stream = sys.stdout
    if not isinstance(stream, OutputFront) or form not in ("json", "html", "svg"):
        stream.write(text)
        stream.flush()
        return
    if not stream.lossless:
        if form == "json":
            text = NOT_ASCII.sub(_json_escape, text)
        else:
            text = text.encode("ascii", "xmlcharrefreplace").decode("ascii")
    stream.write_raw(text)
    stream.flush()


def _json_escape(found: re.Match[str]) -> str:
    return json.dumps(found.group())[1:-1]  # '\\u00eb', a pair of them past U+FFFF


# The format a file name's extension asks for when -f is not given.
EXTENSIONS = {
    ".txt": "text",
    ".md": "markdown",
    ".html": "html",
    ".htm": "html",
    ".svg": "svg",
    ".csv": "csv",
    ".json": "json",
}


def output_format(output: str | None, given: str | None, *, allowed: tuple[str, ...]) -> str:
    """The format to write: -f, else the output file's extension (if allowed), else text."""
    if given is not None:
        return given
    if output is None or output == "-":
        return "text"
    suffix = PurePath(output).suffix.lower()
    form = EXTENSIONS.get(suffix)
    if form in allowed:
        return form
    shown = f"'{suffix}'" if suffix else "no extension"
    problem = f"cannot tell the format of {output} ({shown})"
    if form is not None:
        problem = f"cannot write {output} as {form} here"
    known = ", ".join(s for s, f in EXTENSIONS.items() if f in allowed and s != ".htm")
    raise HginError(f"{problem}: name the file {known}, or give -f ({', '.join(allowed)})")
