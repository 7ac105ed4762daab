"""Starting fast. Typer builds every command's parameters before it runs one, and converts
each value through pydantic: together more time than importing Typer. `only_the_command`
gives Typer just the command the arguments name (help, suggestions and completing a command
name still get the whole app); `quick_conversion` converts plain values without pydantic
(see `hgin.cli.quick_params`). Both fall back to Typer's own behaviour for anything else.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import typer

from hgin.completion import words_before_cursor


def command_name(info: Any) -> str:
    """The name a registered command or command group is typed as ('' if it has none)."""
    name = getattr(info, "name", None)
    if isinstance(name, str) and name:
        return name
    function = getattr(getattr(info, "callback", None), "__name__", None)
    return function.lower().replace("_", "-") if isinstance(function, str) else ""


def given_words(argv: Sequence[str], environ: Mapping[str, str]) -> list[str]:
    """The words typed after 'hgin' (while a shell completes, those before the cursor's)."""
    if environ.get("_HGIN_COMPLETE") is None:
        return list(argv)
    return words_before_cursor(environ)


def command_word(argv: Sequence[str], environ: Mapping[str, str]) -> str | None:
    """The command the words name, as typed: the first that is not an option (the options
    before a command are all flags), or None."""
    return next((w for w in given_words(argv, environ) if not w.startswith("-")), None)


def only_the_command(app: typer.Typer, command: str | None) -> typer.Typer:
    """`app` holding only `command` (a name as typed); `app` itself when it names none."""
    if command is None:
        return app
    commands = [i for i in app.registered_commands if command_name(i) == command]
    groups = [i for i in app.registered_groups if command_name(i) == command]
    if len(commands) + len(groups) != 1:
        return app
    view = copy.copy(app)
    view.registered_commands = commands
    view.registered_groups = groups
    return view


def quick_conversion() -> None:
    """Convert plain parameter values without pydantic."""
    try:
        from hgin.cli.quick_params import install

        install()
    except Exception:  # any Typer whose hook is missing or changed keeps its own conversion
        return
