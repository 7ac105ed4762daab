"""What the commands share on their command lines: the options and arguments more than one
command takes, and the shell completion of their values (match identifiers, players), which
reads the folder through `Folder` and never loads the engine."""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from hgin.completion import (
    match_candidates,
    name_candidates,
    player_candidates,
    words_before_cursor,
)
from hgin.errors import HginError
from hgin.folder import Folder


def complete_match(incomplete: str) -> list[str]:
    """Shell completion: the stored match identifiers."""
    try:
        return match_candidates(incomplete, Folder().match_ids())
    except (HginError, OSError):
        return []


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the players of the chosen (or current) match, or the two named first
    on the line ('hgin new Ann Bob --dealer')."""
    params = ctx.params if ctx is not None else {}
    if "first" in params and "second" in params:
        return player_candidates(incomplete, _names_on_line(ctx))
    try:
        return player_candidates(incomplete, Folder().players_of(params.get("match")))
    except (HginError, OSError):
        return []


def complete_known_player(incomplete: str) -> list[str]:
    """Shell completion: every player of every stored match (for --player)."""
    try:
        entries = Folder().matches().entries
        return name_candidates(incomplete, (name for e in entries for name in e.players))
    except (HginError, OSError):
        return []


def _names_on_line(ctx: typer.Context) -> list[str]:
    """NAME1 and NAME2 as typed: Click stops reading the line at an option still lacking its
    value, so they are read again from the completion request, without that option."""
    depth = len(ctx.command_path.split()) - 1
    words = words_before_cursor(os.environ)[depth:]
    if words and words[-1].startswith("-"):
        words = words[:-1]
    try:
        again = ctx.command.make_context(
            ctx.info_name, words, parent=ctx.parent, resilient_parsing=True
        )
    except Exception:  # a half-typed line must never break the shell's completion
        return []
    names = (again.params.get("first"), again.params.get("second"))
    return [n.strip() for n in names if isinstance(n, str) and n.strip()]


def match_argument(help: str) -> Any:
    """The MATCH argument of a command, completed with the stored identifiers."""
    return typer.Argument(metavar="MATCH", help=help, autocompletion=complete_match)


MatchOption = Annotated[
    str | None,
    typer.Option(
        "--match",
        "-m",
        help="Act on this match (its identifier or a start of it, or a player: their latest "
        "match) instead of the current one.",
        autocompletion=complete_match,
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
DealerOption = Annotated[
    str | None,
    typer.Option(
        "--dealer",
        "-d",
        help="Who deals first (else drawn by lot).",
        autocompletion=complete_player,
    ),
]
NextDealerOption = Annotated[
    str | None,
    typer.Option(
        "--dealer",
        "-d",
        help="Who deals first (else whoever the rules give the next deal to).",
        autocompletion=complete_player,
    ),
]
BigFlag = Annotated[bool, typer.Option("--big", help="Big gin: all eleven cards melded.")]
UpcardOption = Annotated[
    str | None,
    typer.Option(
        "--upcard", "-u", metavar="CARD", help="Oklahoma: the first upcard, e.g. 7s, Qh, A♠."
    ),
]
OutputOption = Annotated[
    str | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write to this file instead ('-' for standard output); never into hgin's own folders.",
    ),
]
ForceFlag = Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")]
