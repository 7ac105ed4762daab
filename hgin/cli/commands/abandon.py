"""`hgin abandon` (also `hgin matches delete`): take a match begun by mistake off the list."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from hgin.cli.application import app, complete_match, scorekeeper
from hgin.cli.streams import is_terminal
from hgin.errors import HginError


@app.command()
def abandon(
    match: Annotated[
        str | None,
        typer.Argument(
            metavar="MATCH",
            help="A match identifier (or its start), or a player: their latest match; "
            "default: the current match.",
            autocompletion=complete_match,
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask first (a match with hands).")
    ] = False,
) -> None:
    """Take a match begun by mistake off the list; its file is kept as a backup, and
    'hgin undo' straight after (or 'hgin restore --backup') brings it back."""
    keeper = scorekeeper()
    loaded = keeper.load(match)
    first, second = loaded.players
    hands = len(loaded.hands)
    played = f"{first} v {second}, {hands} hand{'' if hands == 1 else 's'}"
    if hands and not yes:
        if not is_terminal(sys.stdin):  # nobody to answer: a script says --yes
            raise HginError(f"match {loaded.id} has hands: 'hgin abandon --yes' abandons it")
        try:
            answer = input(f"Abandon match {loaded.id} ({played})? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().casefold() not in ("y", "yes"):
            raise HginError("nothing was abandoned")
    done = keeper.abandon(loaded.id)
    lines = [
        f"Abandoned match {loaded.id} ({played}): 'hgin undo' brings it back now, "
        f"'hgin restore --backup 1 -m {loaded.id}' later."
    ]
    if done.was_current and done.current is None:
        lines.append("No match is current now: 'hgin new NAME1 NAME2' starts one.")
    elif done.was_current and done.current is not None:
        now = done.current
        lines.append(f"Now current: match {now.id} ({now.players[0]} v {now.players[1]}).")
    from hgin.cli.console import print_views

    print_views(*lines)
