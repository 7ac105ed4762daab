"""Recording hands: gin, knock, draw, and going back and forth with undo and redo; `hgin count`
counts cards with no match."""

# Annotations are evaluated once, here: as strings (`from __future__ import annotations`)
# Typer would compile each again while building the command, on every `hgin gin`.

from typing import Annotated

import typer

from hgin.cli.application import app, refuse_option_word, saving, scorekeeper, show_outcome, tell
from hgin.cli.options import BigFlag, JsonFlag, MatchOption, UpcardOption, complete_player
from hgin.cli.streams import print_json
from hgin.engine.counts import counts_after

COUNTS = {"ignore_unknown_options": True, "allow_extra_args": True}

PlayerArgument = Annotated[
    str,
    typer.Argument(
        metavar="PLAYER",
        help="The player (any unique start of the name).",
        autocompletion=complete_player,
    ),
]
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


def usage_line(command: str, problem: str) -> typer.Exit:
    """A count missing or too many: one line on stderr and exit 2, not a usage block."""
    counts = {"gin": "OPPONENT_DEADWOOD", "knock": "KNOCKER_DEADWOOD OPPONENT_DEADWOOD"}
    tell(f"hgin: {problem}: hgin {command} PLAYER {counts[command]}")
    return typer.Exit(2)


def missing(command: str, what: str, cards_flag: str) -> typer.Exit:
    return usage_line(command, f"{what} is missing (or give the cards with {cards_flag})")


def no_extra(ctx: typer.Context, command: str, player: str, *counts: str | None) -> None:
    """Refuse an unknown option among the words as the parser does (naming the commands it
    belongs to), a long option where the player's name goes (a name may start with one dash,
    never two), and a count too many in one line."""
    options = [player] if player.strip().startswith("--") else []
    for word in [*options, *filter(None, counts), *ctx.args]:
        refuse_option_word(word, command)
    if ctx.args:
        many = "is one count" if len(ctx.args) == 1 else f"are {len(ctx.args)} counts"
        takes = "the knocker's and the opponent's" if command == "knock" else "the opponent's"
        extra = f"'{' '.join(ctx.args)}' {many} too many"
        raise usage_line(command, f"{extra}: {command} takes only {takes} deadwood")


@app.command(context_settings=COUNTS)
def gin(
    ctx: typer.Context,
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
    big: BigFlag = False,
    hand: HandCards = None,
    opponent: OpponentCards = None,
    upcard: UpcardOption = None,
    match: MatchOption = None,
) -> None:
    """Record a gin: PLAYER went out with no deadwood (counted from the cards if given)."""
    from hgin.engine.hands import Hand  # the rules behind it: not for completing a name

    no_extra(ctx, "gin", winner, opponent_deadwood)
    (count,) = counts_after("hgin gin", winner, [opponent_deadwood], ["the opponent's deadwood"])
    keeper = scorekeeper()
    if hand is None and opponent is None and count is None:
        raise missing("gin", "the opponent's deadwood", "--opponent")
    entry = Hand("big_gin" if big else "gin", winner, None, count, upcard, hand, opponent)
    saving(lambda: keeper.record(entry, match), show_outcome)


@app.command(context_settings=COUNTS)
def knock(
    ctx: typer.Context,
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
    from hgin.engine.hands import Hand

    no_extra(ctx, "knock", knocker, knocker_deadwood, opponent_deadwood)
    mine, theirs = counts_after(
        "hgin knock",
        knocker,
        [knocker_deadwood, opponent_deadwood],
        ["the knocker's deadwood", "the opponent's deadwood"],
    )
    keeper = scorekeeper()
    if hand is None and opponent is None:
        if mine is None:
            raise missing("knock", "the knocker's deadwood", "--hand")
        if theirs is None:
            raise missing("knock", "the opponent's deadwood", "--opponent")
    entry = Hand("knock", knocker, mine, theirs, upcard, hand, opponent)
    saving(lambda: keeper.record(entry, match), show_outcome)


@app.command()
def draw(match: MatchOption = None) -> None:
    """Record a dead hand: the stock ran down to two cards and nobody knocked."""
    saving(lambda: scorekeeper().draw(match=match), show_outcome)


@app.command()
def notice(match: MatchOption = None) -> None:
    """Rolling match: give notice before a deal; no new game opens, the games in progress are
    played out and the match ends when the last closes ('hgin undo' takes it back)."""
    saving(lambda: scorekeeper().notice(match=match), show_outcome)


@app.command()
def undo(match: MatchOption = None) -> None:
    """Undo the latest change of any kind (repeatable); 'hgin redo' puts it back."""
    saving(lambda: scorekeeper().undo(match=match), show_outcome)


@app.command()
def redo(match: MatchOption = None) -> None:
    """Apply again the change most recently undone."""
    saving(lambda: scorekeeper().redo(match=match), show_outcome)


@app.command()
def count(
    cards: Annotated[
        list[str],
        typer.Argument(
            metavar="CARDS",
            help="10 or 11 cards, separately or in one quoted string: 7s 10d Td Q♥ A♣ kh.",
            show_default=False,
        ),
    ],
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            "-o",
            help="The opponent's ten cards, quoted: count their layoffs against this hand.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Best melds and deadwood of 10 cards; for 11, the best discard and big gin."""

    counted = scorekeeper().count(cards, opponent)
    if as_json:
        print_json(scorekeeper().count_data(counted), indent=None)
        return
    from hgin.cli.render_cards import print_hand_count

    print_hand_count(counted)
