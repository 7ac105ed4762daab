"""Recording hands: gin, knock, draw, and taking them back with undo and redo."""

from __future__ import annotations

import re
from typing import Annotated

import typer

from hgin.cli.app import MatchOption, app, complete_player
from hgin.errors import HginError
from hgin.scorekeeper import Outcome, ScoreKeeper

COUNTS = {"ignore_unknown_options": True}
WHOLE = re.compile(r"[+-]?[0-9]+")

PlayerArgument = Annotated[
    str,
    typer.Argument(
        help="The player (any unique start of the name).", autocompletion=complete_player
    ),
]
UpcardOption = Annotated[
    str | None,
    typer.Option("--upcard", "-u", help="Oklahoma: the first upcard, e.g. 7s, Qh, A♠."),
]


def whole_number(text: str, what: str) -> int:
    """A typed count; anything but a whole number is refused (exit 1), like a bad count."""
    cleaned = text.strip()
    if cleaned.startswith("--"):
        raise typer.BadParameter(f"no such option {cleaned}")
    if not WHOLE.fullmatch(cleaned):
        raise HginError(f"{what} must be a whole number, not '{text}'")
    if len(cleaned.lstrip("+-")) > 6:
        raise HginError(f"{what} {cleaned} is far too large")
    return int(cleaned)


def show_outcome(outcome: Outcome) -> None:
    """Print the updated sheet and what happened."""
    from hgin.cli.render import print_sheet

    print_sheet(outcome.match, outcome.lines)


@app.command(context_settings=COUNTS)
def gin(
    winner: PlayerArgument,
    opponent_deadwood: Annotated[
        str, typer.Argument(help="The opponent's deadwood after their own melds (0-98).")
    ],
    big: Annotated[bool, typer.Option("--big", help="Big gin: all eleven cards melded.")] = False,
    upcard: UpcardOption = None,
    match: MatchOption = None,
) -> None:
    """Record a gin: WINNER went out with no deadwood."""
    count = whole_number(opponent_deadwood, "the opponent's deadwood")
    show_outcome(ScoreKeeper().gin(winner, count, big=big, upcard=upcard, match=match))


@app.command(context_settings=COUNTS)
def knock(
    knocker: PlayerArgument,
    knocker_deadwood: Annotated[str, typer.Argument(help="The knocker's deadwood (1-10).")],
    opponent_deadwood: Annotated[
        str, typer.Argument(help="The opponent's deadwood after laying off (0-98).")
    ],
    upcard: UpcardOption = None,
    match: MatchOption = None,
) -> None:
    """Record a knock; hgin decides between a knock win and an undercut."""
    mine = whole_number(knocker_deadwood, "the knocker's deadwood")
    theirs = whole_number(opponent_deadwood, "the opponent's deadwood")
    show_outcome(ScoreKeeper().knock(knocker, mine, theirs, upcard=upcard, match=match))


@app.command()
def draw(match: MatchOption = None) -> None:
    """Record a dead hand: the stock ran down to two cards and nobody knocked."""
    show_outcome(ScoreKeeper().draw(match=match))


@app.command()
def undo(match: MatchOption = None) -> None:
    """Take back the last hand (repeatable); 'hgin redo' puts it back."""
    show_outcome(ScoreKeeper().undo(match=match))


@app.command()
def redo(match: MatchOption = None) -> None:
    """Put back the hand most recently undone."""
    show_outcome(ScoreKeeper().redo(match=match))
