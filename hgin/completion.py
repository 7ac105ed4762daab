"""What shell completion offers for a player or a match, given what was typed so far. Pure.
May import: stdlib, engine, errors.

Shells keep only candidates that start with the typed word exactly, so a candidate keeps the
typed letters as typed ('an' + Tab gives 'ann', which hgin reads as Ann).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping, Sequence

from hgin.engine.names import fold
from hgin.errors import HginError


def keep_typed(typed: str, candidate: str) -> str:
    """`candidate` starting with the letters exactly as typed (when only case or accents differ)."""
    head = candidate[: len(typed)]
    if head != typed and fold(head) == fold(typed):
        return typed + candidate[len(typed) :]
    return candidate


def shortest_words(name: str, players: tuple[str, str]) -> str:
    """The fewest leading words of `name` that hgin resolves to `name` among `players` (a space
    would split the word in the shell)."""
    words = name.split(" ")
    if len(words) == 1:
        return name
    from hgin.engine.match import resolve_player  # only names of several words need the engine

    for count in range(1, len(words)):
        start = " ".join(words[:count])
        try:
            if resolve_player(players, start) == name:
                return start
        except HginError:
            continue
    return name


def player_candidates(typed: str, players: Sequence[str]) -> list[str]:
    """The players whose name starts with `typed`, as the shell should insert them."""
    wanted = fold(typed)
    found = []
    for name in players:
        if not fold(name).startswith(wanted):
            continue
        offered = name
        if len(players) == 2:
            offered = shortest_words(name, (players[0], players[1]))
        if len(offered) < len(typed):
            offered = name
        found.append(keep_typed(typed, offered))
    return found


def name_candidates(typed: str, names: Iterable[str]) -> list[str]:
    """Distinct people whose name starts with `typed`, as the shell should insert them."""
    wanted = fold(typed)
    seen: dict[str, str] = {}
    for name in names:
        if fold(name).startswith(wanted):
            seen.setdefault(fold(name), name)
    return [keep_typed(typed, name) for name in sorted(seen.values(), key=fold)]


def match_candidates(typed: str, ids: Iterable[str]) -> list[str]:
    """Match identifiers starting with `typed` (identifiers are lower case; typing need not be)."""
    wanted = fold(typed)
    return [keep_typed(typed, i) for i in ids if i.startswith(wanted)]


def words_before_cursor(environ: Mapping[str, str]) -> list[str]:
    """The words typed before the one being completed (not the program name), read from a
    completion request: bash's COMP_WORDS and COMP_CWORD, else _TYPER_COMPLETE_ARGS."""
    instruction = environ.get("_HGIN_COMPLETE", "")
    try:
        if instruction.endswith("_bash"):
            words = shlex.split(environ.get("COMP_WORDS", ""))
            return words[1 : int(environ.get("COMP_CWORD", len(words)))]
        line = environ.get("_TYPER_COMPLETE_ARGS", "")
        words = shlex.split(line)[1:]
    except ValueError:
        return []
    if instruction.endswith(("_powershell", "_pwsh")):
        partial = bool(environ.get("_TYPER_COMPLETE_WORD_TO_COMPLETE"))
    else:
        partial = not line.endswith(" ")
    return words[:-1] if words and partial else words
