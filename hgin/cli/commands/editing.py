"""Correcting earlier hands: edit and delete, with everything after re-scored."""

from __future__ import annotations

from typing import Annotated

import typer

from hgin.cli.application import (
    BigFlag,
    MatchOption,
    UpcardOption,
    app,
    count_argument,
    refuse_option_word,
    saving,
    scorekeeper,
    show_outcome,
)
from hgin.play.parser import entry_with, parse_entry, stray_option

COUNTS = {"ignore_unknown_options": True}

HandNumber = Annotated[str, typer.Argument(metavar="N", help="The hand's number on the sheet.")]


@app.command(context_settings=COUNTS)
def edit(
    number: HandNumber,
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="ENTRY",
            help="The corrected hand as you would type it: gin ann 18, knock bob 4 20, draw.",
        ),
    ],
    big: BigFlag = False,
    upcard: UpcardOption = None,
    match: MatchOption = None,
) -> None:
    """Replace hand N with a corrected entry and re-score every hand after it."""

    # Options Click does not know reach ENTRY as words (a negative count must): a word the
    # entry would not take either is a usage error here, as it is for `hgin gin`.
    hand = count_argument(number, "the hand number", "edit")
    stray = stray_option(words)
    if stray is not None:
        refuse_option_word(stray, "edit")
    entry = entry_with(parse_entry(words), upcard, big)
    saving(lambda: scorekeeper().edit(hand, entry, match=match), show_outcome)


@app.command(context_settings=COUNTS)
def delete(number: HandNumber, match: MatchOption = None) -> None:
    """Remove hand N; the hands after it move up one and are re-scored."""
    hand = count_argument(number, "the hand number", "delete")
    saving(lambda: scorekeeper().delete(hand, match=match), show_outcome)
