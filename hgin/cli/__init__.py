"""The command line: Typer commands that parse, call one `ScoreKeeper` method, and render.
May import: stdlib, typer, rich (typer and rich only here), cli, scorekeeper, folder, completion,
play, board, reports, engine, errors."""

# `hgin.cli.app` is the Typer app with every command registered (`hgin.cli.application` holds
# it); `hgin.cli.main` runs the `hgin` command, which registers only the command it runs (see
# `hgin.cli.commands`).

from __future__ import annotations

import contextlib
import sys
from typing import Any

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `hgin` command.

    The program is imported here, inside the guard: loading Typer and Rich is most of a short
    command's time, and Ctrl-C then must be one line too, not a traceback.
    """
    try:
        from hgin.cli.application import run

        run()
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.write("hgin: interrupted\n")  # None when the shell closed it
        sys.exit(130)


def __getattr__(name: str) -> Any:
    # The app is looked up on first use, so that the entry point registers no command itself.
    if name == "app":
        from hgin.cli.application import app
        from hgin.cli.commands import load_all

        load_all()
        return app
    raise AttributeError(f"module 'hgin.cli' has no attribute {name!r}")
