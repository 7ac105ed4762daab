"""Each module here adds its commands to `hgin.cli.application.app` when imported. A run
imports only the module of its command (`load`); help, completing a command's name and a word
that names no command import them all (`load_all`)."""

from __future__ import annotations

from hgin.errors import HginError

# The module that registers each command and command group, in the order help lists them
# (tests/test_import_structure.py checks this against what the modules register).
MODULES = {
    "new": "matches",
    "gin": "hands",
    "knock": "hands",
    "draw": "hands",
    "undo": "hands",
    "redo": "hands",
    "notice": "hands",
    "show": "matches",
    "summary": "summary",
    "settle": "summary",
    "play": "matches",
    "board": "start",
    "rematch": "matches",
    "edit": "editing",
    "delete": "editing",
    "log": "matches",
    "matches": "history",
    "use": "matches",
    "abandon": "matches",
    "rules": "rules",
    "series": "series",
    "count": "hands",
    "stats": "history",
    "export": "transfer",
    "import": "transfer",
    "restore": "editing",
    "config": "start",
    "demo": "start",
}


def full_name(word: str) -> str:
    """The command a typed word names: itself, or the command it is a short form of, as in
    `hgin play` (`k` knock, `su` summary, `del` delete)."""
    if word in MODULES:
        return word
    from hgin.play.parser import find_word

    try:
        name = find_word(word).name
    except HginError:
        return word
    return name if name in MODULES else word


def load(command: str | None) -> None:
    """Register `command` (a name as typed), or every command when it names none."""
    module = MODULES.get(full_name(command or ""))
    if module is None:
        load_all()
    else:  # __import__, unlike importlib, shows in `python -X importtime`, which tests read
        __import__(f"hgin.cli.commands.{module}")


def load_all() -> None:
    """Register every command."""
    for module in sorted(set(MODULES.values())):
        __import__(f"hgin.cli.commands.{module}")
