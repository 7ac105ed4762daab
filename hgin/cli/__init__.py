"""The command line: Typer commands that parse, call one `ScoreKeeper` method, and render.
May import: stdlib, typer, rich (typer and rich only here), cli, scorekeeper, folder, completion,
play, board, reports, engine, errors."""

from __future__ import annotations

import contextlib
import gc
import sys
from typing import Any

__all__ = ["app", "main"]


def main() -> None:
    """The `hgin` command, its program imported inside the Ctrl-C guard (docs/speed.md)."""
    gc.set_threshold(100_000, *gc.get_threshold()[1:])
    try:
        from hgin.cli.application import run

        run()
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.write("hgin: interrupted\n")  # None when the shell closed it
        sys.exit(130)
    finally:
        gc.freeze()  # the exit then skips its search for cycles over every object made


def __getattr__(name: str) -> Any:
    """`hgin.cli.app`: the Typer app with every command registered (a run registers one)."""
    if name == "app":
        from hgin.cli.application import app
        from hgin.cli.commands import load_all

        load_all()
        return app
    raise AttributeError(f"module 'hgin.cli' has no attribute {name!r}")
