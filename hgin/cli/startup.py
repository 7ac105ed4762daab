"""Starting fast. Before it runs one command, Typer builds every command's parameters
(reading all their signatures) and converts each parameter value through a pydantic
TypeAdapter, which imports pydantic: together more time than importing Typer itself. Two
workarounds, each falling back to Typer's own behaviour for anything it does not cover:

- `only_the_command`: the app with just the command the arguments name, so Typer builds one
  command instead of all of them (help, suggestions and completing a command name still get
  the whole app);
- `quick_conversion`: values whose conversion is the identity or plain `int()` (text, a whole
  number, one of a command's listed choices, a list of words, a missing value) are converted
  here; anything else, including every value Typer would refuse, goes to Typer's converter.
"""

from __future__ import annotations

import copy
import gc
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
    """The words typed after 'hgin': the arguments, or, while a shell asks for completions,
    the words before the one being completed."""
    if environ.get("_HGIN_COMPLETE") is None:
        return list(argv)
    return words_before_cursor(environ)


def command_word(argv: Sequence[str], environ: Mapping[str, str]) -> str | None:
    """The command the words name, as typed: the options before a command name are all
    flags, so it is the first word that is not an option; None when there is none."""
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
    """Convert plain parameter values without pydantic (see `hgin.cli.quick_params`)."""
    try:
        from hgin.cli.quick_params import install

        install()
    except Exception:  # any Typer whose hook is missing or changed keeps its own conversion
        return


def collect_rarely() -> None:
    """Look for reference cycles less often while one command runs.

    A command's objects mostly live until it ends. At Python's default (a collection of the
    young objects every 700 allocations) a command runs some 40 collections that find about
    five objects each and cost it several milliseconds; every 20,000 allocations is plenty
    for a process that lives a fraction of a second.
    """
    gc.set_threshold(20_000, *gc.get_threshold()[1:])


def spare_the_exit() -> None:
    """Let the interpreter's exit skip its garbage collections over every object made so far.

    The process is about to end; walking every module and object again costs a finished
    command about 10 ms, some 12% of its run. Exit handlers still run and objects are still
    released as the interpreter shuts down: only the searches for reference cycles skip them.
    """
    gc.freeze()
