"""Settling up (the figures of `hgin.engine.settle`) in words and as JSON data: shared by
`hgin settle` and every summary format."""

from __future__ import annotations

from typing import Any

from hgin.engine.money import money_text, stake_text
from hgin.engine.settle import GameSettlement, Settlement
from hgin.engine.sheet import game_name
from hgin.reports.narrate import games_phrase
from hgin.reports.plural import counted

NO_STAKE_HINT = (
    "No stake known, so in points only: give one with 'hgin settle --stake 0.05', "
    "keep one with the match with 'hgin rules set stake 0.05', or set stake = \"0.05\" "
    "in config.toml."
)


def game_line(game: GameSettlement) -> str:
    """'Game I: Ann wins 238 (383 to 145).'"""
    name = game_name(game.number)
    own, other = game.totals[game.winner], game.totals[game.loser]
    if game.difference >= 0:
        return f"Game {name}: {game.winner} wins {game.difference} ({own} to {other})."
    return (
        f"Game {name}: won by {game.winner}, but {game.loser} has the larger total and wins "
        f"{-game.difference} ({other} to {own})."
    )


def payment_line(settlement: Settlement, currency: str | None = None) -> str:
    """'Bob pays Ann 295 points × 0.05 = 14.75.' or why nobody pays."""
    so_far = "So far " if settlement.open_games else ""
    if not settlement.games:
        return "No game is closed yet: nothing to settle."
    if settlement.payer is None or settlement.payee is None:
        level = "level" if settlement.complete else "level so far"
        return f"The closed games are {level}: nobody pays."
    points = counted(settlement.points, "point")
    text = f"{so_far}{settlement.payer} pays {settlement.payee} {points}"
    if settlement.stake is not None and settlement.amount is not None:
        text += f" × {stake_text(settlement.stake)} = {money_text(settlement.amount, currency)}"
    return text + "."


def settlement_lines(settlement: Settlement, currency: str | None = None) -> list[str]:
    """Each closed game, the open ones, then who pays whom (and how to give a stake)."""
    lines = [game_line(g) for g in settlement.games]
    if settlement.open_games:
        still = games_phrase(settlement.open_games)
        verb, pronoun = (
            ("is", "it settles") if len(settlement.open_games) == 1 else ("are", "they settle")
        )
        lines.append(f"{still[0].upper()}{still[1:]} {verb} still open: {pronoun} once closed.")
    lines.append(payment_line(settlement, currency))
    if settlement.stake is None and settlement.games:
        lines.append(NO_STAKE_HINT)
    return lines


def settlement_dict(settlement: Settlement, currency: str | None = None) -> dict[str, Any]:
    """The settlement as JSON-ready data; money as text with two decimals, never a float."""
    return {
        "points": settlement.points,
        "payer": settlement.payer,
        "payee": settlement.payee,
        "amount": None if settlement.amount is None else money_text(settlement.amount),
        "stake": None if settlement.stake is None else stake_text(settlement.stake),
        "currency": currency,
        "games": [
            {
                "number": g.number,
                "winner": g.winner,
                "difference": g.difference,
                "totals": dict(g.totals),
            }
            for g in settlement.games
        ],
        "open": list(settlement.open_games),
        "complete": settlement.complete,
    }
