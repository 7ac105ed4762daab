"""Recording hands: gin, knock, draw, and going back and forth with undo and redo."""

# Annotations are evaluated once, here: as strings (`from __future__ import annotations`)
# Typer would compile each again while building the command, on every `hgin gin`.

from typing import Annotated

import typer

from hgin.cli.application import MatchOption, app, complete_player, refuse_option_word
from hgin.errors import HginError
from hgin.scorekeeper import CardOutcome, Outcome, ScoreKeeper

COUNTS = {"ignore_unknown_options": True}

PlayerArgument = Annotated[
    str,
    typer.Argument(
        metavar="PLAYER",
        help="The player (any unique start of the name).",
        autocompletion=complete_player,
    ),
]
UpcardOption = Annotated[
    str | None,
    typer.Option(
        "--upcard", "-u", metavar="CARD", help="Oklahoma: the first upcard, e.g. 7s, Qh, A♠."
    ),
]


def typed_counts(
    command: str, player: str, typed: list[str | None], whats: list[str]
) -> list[int | None]:
    """The counts typed after the player; anything but whole numbers is refused (exit 1),
    like a bad count, and an option that is another command's is named as such."""
    for text in typed:
        if text is not None:
            refuse_option_word(text, command)
    from hgin.engine.counts import counts_after

    return counts_after(f"hgin {command}", player, typed, whats)


def show_outcome(outcome: Outcome | CardOutcome) -> None:
    """Print the updated sheet and what happened."""
    from hgin.cli.render import print_sheet

    print_sheet(outcome.match, outcome.lines)


HandCards = Annotated[
    str | None,
    typer.Option(
        "--hand",
        metavar="CARDS",
        help="The player's cards, quoted (a knock: the ten kept after the discard); "
        "hgin counts them.",
    ),
]
OpponentCards = Annotated[
    str | None,
    typer.Option(
        "--opponent",
        "-o",
        metavar="CARDS",
        help="The opponent's ten cards, quoted; hgin counts them.",
    ),
]


def missing(argument: str, what: str, cards_flag: str) -> typer.BadParameter:
    """A usage error (exit 2) for a count that is neither typed nor given as cards."""
    return typer.BadParameter(
        f"give {what} or the cards with {cards_flag}", param_hint=f"'{argument}'"
    )


def show_counted(outcome: CardOutcome) -> None:
    """Print what the cards counted to, then the updated sheet and what happened."""
    from hgin.cli.render_cards import print_counted
    from hgin.engine.hands import other_player

    hand = outcome.match.hands[-1]
    player = hand.player or ""
    print_counted(outcome.counted, player, other_player(outcome.match.players, player))
    show_outcome(outcome)


@app.command(context_settings=COUNTS)
def gin(
    winner: PlayerArgument,
    opponent_deadwood: Annotated[
        str | None,
        typer.Argument(
            metavar="OPPONENT_DEADWOOD",
            help="The opponent's deadwood after their own melds (0-98); "
            "leave it out when --opponent gives their cards.",
            show_default=False,
        ),
    ] = None,
    big: Annotated[bool, typer.Option("--big", help="Big gin: all eleven cards melded.")] = False,
    hand: HandCards = None,
    opponent: OpponentCards = None,
    upcard: UpcardOption = None,
    match: MatchOption = None,
) -> None:
    """Record a gin: PLAYER went out with no deadwood (counted from the cards if given)."""
    (count,) = typed_counts("gin", winner, [opponent_deadwood], ["the opponent's deadwood"])
    keeper = ScoreKeeper()
    if hand is None and opponent is None:
        if count is None:
            raise missing("OPPONENT_DEADWOOD", "the opponent's deadwood", "--opponent")
        show_outcome(keeper.gin(winner, count, big=big, upcard=upcard, match=match))
        return
    outcome = keeper.gin_from_cards(
        winner,
        opponent_cards=opponent,
        hand_cards=hand,
        opponent_deadwood=count,
        big=big,
        upcard=upcard,
        match=match,
    )
    show_counted(outcome)


@app.command(context_settings=COUNTS)
def knock(
    knocker: PlayerArgument,
    knocker_deadwood: Annotated[
        str | None,
        typer.Argument(
            metavar="KNOCKER_DEADWOOD",
            help="The knocker's deadwood (1-10); leave it out when --hand gives the cards.",
            show_default=False,
        ),
    ] = None,
    opponent_deadwood: Annotated[
        str | None,
        typer.Argument(
            metavar="OPPONENT_DEADWOOD",
            help="The opponent's deadwood after laying off (0-98); "
            "leave it out when --opponent gives the cards.",
            show_default=False,
        ),
    ] = None,
    hand: HandCards = None,
    opponent: OpponentCards = None,
    upcard: UpcardOption = None,
    match: MatchOption = None,
) -> None:
    """Record a knock; hgin decides between a knock win and an undercut.

    With --hand and --opponent hgin counts both hands, the opponent's layoffs included.
    """
    mine, theirs = typed_counts(
        "knock",
        knocker,
        [knocker_deadwood, opponent_deadwood],
        ["the knocker's deadwood", "the opponent's deadwood"],
    )
    keeper = ScoreKeeper()
    if hand is None and opponent is None:
        if mine is None:
            raise missing("KNOCKER_DEADWOOD", "the knocker's deadwood", "--hand")
        if theirs is None:
            raise missing("OPPONENT_DEADWOOD", "the opponent's deadwood", "--opponent")
        show_outcome(keeper.knock(knocker, mine, theirs, upcard=upcard, match=match))
        return
    if hand is None or opponent is None:
        raise HginError(
            "a knock is counted from both hands: give --hand and --opponent "
            "(the layoffs depend on both)"
        )
    outcome = keeper.knock_from_cards(
        knocker,
        hand_cards=hand,
        opponent_cards=opponent,
        deadwood=mine,
        opponent_deadwood=theirs,
        upcard=upcard,
        match=match,
    )
    show_counted(outcome)


@app.command()
def draw(match: MatchOption = None) -> None:
    """Record a dead hand: the stock ran down to two cards and nobody knocked."""
    show_outcome(ScoreKeeper().draw(match=match))


@app.command()
def notice(match: MatchOption = None) -> None:
    """Rolling match: give notice before a deal; no new game opens, the games in progress are
    played out and the match ends when the last closes ('hgin undo' takes it back)."""
    show_outcome(ScoreKeeper().notice(match=match))


@app.command()
def undo(match: MatchOption = None) -> None:
    """Undo the latest change of any kind (repeatable); 'hgin redo' puts it back."""
    show_outcome(ScoreKeeper().undo(match=match))


@app.command()
def redo(match: MatchOption = None) -> None:
    """Apply again the change most recently undone."""
    show_outcome(ScoreKeeper().redo(match=match))
