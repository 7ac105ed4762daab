"""Where a command's `-o FILE` goes and in which format: one rule for every command."""

from __future__ import annotations

from pathlib import PurePath

from hgin.errors import HginError

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


def output_format(
    output: str | None, given: str | None, *, allowed: tuple[str, ...], default: str
) -> str:
    """The format to write: -f if given, else the output file's extension, else `default`
    (standard output). An extension that names no format, or one this command cannot write,
    is refused."""
    if given is not None:
        return given
    if output is None or output == "-":
        return default
    suffix = PurePath(output).suffix.lower()
    form = EXTENSIONS.get(suffix)
    known = ", ".join(s for s, f in EXTENSIONS.items() if f in allowed and s != ".htm")
    if form is None:
        shown = f"'{suffix}'" if suffix else "no extension"
        raise HginError(
            f"cannot tell the format of {output} ({shown}): name the file {known}, "
            f"or give -f ({', '.join(allowed)})"
        )
    if form not in allowed:
        raise HginError(
            f"cannot write {output} as {form} here: name the file {known}, "
            f"or give -f ({', '.join(allowed)})"
        )
    return form
