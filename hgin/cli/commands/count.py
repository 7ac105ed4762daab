"""`hgin count`: settle the count from the cards themselves (no match needed)."""

from __future__ import annotations

from typing import Annotated

import typer

from hgin.cli.application import JsonFlag, app, scorekeeper
from hgin.cli.streams import print_json

OpponentCards = Annotated[
    str | None,
    typer.Option(
        "--opponent",
        "-o",
        help="The opponent's ten cards, quoted: count their layoffs against this hand.",
    ),
]


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
    opponent: OpponentCards = None,
    as_json: JsonFlag = False,
) -> None:
    """Best melds and deadwood of 10 cards; for 11, the best discard and big gin."""

    counted = scorekeeper().count(cards, opponent)
    if as_json:
        print_json(scorekeeper().count_data(counted), indent=None)
        return
    from hgin.cli.render_cards import print_hand_count

    print_hand_count(counted)
