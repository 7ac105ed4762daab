"""Standard output and error as hgin writes to them, whatever the terminal (no Rich here).

Everything hgin prints (Rich drawings, sentences, refusals, help) goes through `sys.stdout` and
`sys.stderr`. `prepare` puts an `OutputFront` in front of one when:

- its encoding cannot hold hgin's symbols (ASCII, Latin-1, a Windows code page), or ASCII is
  asked for ($HGIN_ASCII=1, or `ascii = true` in config.toml): the symbols become their ASCII
  forms (`hgin.reports.symbols`), letters the encoding lacks lose their accents, and anything
  still left becomes '?', so printing never fails on a character;
- standard output is not a terminal: trailing blanks are taken off every line, so piped text
  pastes cleanly.

A standard output the shell closed (`>&-`) becomes a `ClosedOutput`, on which printing fails
like any output that cannot be written. Data (JSON, HTML, SVG) goes out with `print_document`,
which is never rewritten: on a stream that cannot hold every character it escapes them the
format's way (\\u00eb, &#235;), which loses nothing.
"""

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
from typing import Any, TextIO

from hgin.reports.symbols import ascii_table, can_draw, plain_letters

ASCII_VARIABLE = "HGIN_ASCII"
TRAILING_BLANKS = re.compile(r"[ \t]+(?=\n)")
NOT_ASCII = re.compile(r"[^\x00-\x7f]")
# A dash standing alone marks an empty place (a game not entered, "none"): "." in ASCII, apart
# from the "-" of the dash that joins a score, a range or a pair ("2–1", "II–IV", "Ann–Bob").
LONE_DASH = re.compile(r"(?<!\w)[–—](?!\w)")


class TextOut(io.TextIOBase):
    """A text stream that takes any text as UTF-8 (what Rich and Click ask of a stream)."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return "strict"


class OutputFront(TextOut):
    """A text stream in front of a real one that can take any text: see the module docstring.

    It says it is UTF-8 (it accepts every character), so Rich draws its usual lines, which
    then become ASCII here like every other symbol: a table keeps its layout to the column.
    """

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
        """Write `text` as it is (no symbols swapped, no blanks taken), for data such as JSON;
        a character the real stream lacks is written without its accents ('Zoë' as 'Zoe'),
        or as '?'."""
        if not self.lossless and not self.fits(text):
            text = "".join(self.safe_char(char) for char in text)
        self.inner.write(text)

    def safe_char(self, char: str) -> str:
        if char not in self.safe:
            plain = plain_letters(char)
            self.safe[char] = plain if plain and self.fits(plain) else _unknown(char)
        return self.safe[char]

    def fits(self, text: str) -> bool:
        try:
            text.encode(self.target)
        except UnicodeEncodeError:
            return False
        return True

    def flush(self) -> None:
        # This front is finalised like any stream (a flush at garbage collection), possibly
        # after the stream behind it was closed: nothing is left to flush then.
        if not getattr(self.inner, "closed", False):
            self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def name(self) -> Any:
        return getattr(self.inner, "name", "<stdout>")


class ClosedOutput(TextOut):
    """Standard output that the shell closed. Python leaves `sys.stdout` None then, and Rich
    and Click print nothing to None and succeed; writing here fails as it does on a closed
    file, so that a command that cannot print says so."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _unknown(char: str) -> str:
    """'?' for each column `char` fills, so that tables stay aligned ('李' is two wide)."""
    return "??" if unicodedata.east_asian_width(char) in ("W", "F") else "?"


def wants_ascii(environ: Mapping[str, str], config_asks: Callable[[], bool]) -> bool:
    """Whether ASCII drawing is asked for: $HGIN_ASCII (1/0), else the config file's setting."""
    value = environ.get(ASCII_VARIABLE, "").strip().lower()
    if value:
        return value not in ("0", "no", "false", "off")
    return config_asks()


def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def prepare(config_asks: Callable[[], bool], environ: Mapping[str, str] = os.environ) -> None:
    """Put an `OutputFront` in front of stdout and stderr where one is needed, and a
    `ClosedOutput` in place of a closed stdout (see above); `config_asks` says whether the
    settings file asks for ASCII, read only when the environment does not say."""
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    ascii_asked = functools.cache(lambda: wants_ascii(environ, config_asks))  # read once, if at all
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
    print_document(json.dumps(data, ensure_ascii=False, indent=indent) + "\n", "json")


def print_document(text: str, form: str) -> None:
    """Print a whole document (a summary as JSON, HTML, SVG) that is data rather than drawing:
    JSON escapes what the stream cannot hold, HTML and SVG use character references; text,
    Markdown and CSV are printed like everything else."""
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
    code = ord(found.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
