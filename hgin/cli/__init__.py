"""The command line: Typer commands that parse, call one `ScoreKeeper` method, and render.
May import: anything (typer and rich only here, each where it is used)."""

from hgin.cli import commands as _commands  # noqa: F401 - registers the commands
from hgin.cli.app import app, main

__all__ = ["app", "main"]
