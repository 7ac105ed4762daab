"""The command line: a thin shell over `hgin.scorekeeper`."""

from hgin.cli import commands as _commands  # noqa: F401 - registers the commands
from hgin.cli.app import app, main

__all__ = ["app", "main"]
