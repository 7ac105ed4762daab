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
    """The format to write: -f if given, else the output file's extension (refused when it
    names no format this command writes), else `default` (standard output)."""
    if given is not None:
        return given
    if output is None or output == "-":
        return default
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
