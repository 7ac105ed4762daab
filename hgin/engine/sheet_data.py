"""The sheet as JSON data: the copy a match file carries for its readers, and the base of what
`hgin show --json` prints (see `hgin.reports.sheet_json`)."""

from __future__ import annotations

from typing import Any

from hgin.engine.hands import Hand
from hgin.engine.rules import Rules
from hgin.engine.sheet import Game, Sheet

HAND_FIELDS = Hand._fields  # kind, player, deadwood, ..., recorded_at


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """A hand as JSON data, leaving out empty optional fields (but not when it was recorded)."""
    data: dict[str, Any] = {k: v for k, v in zip(HAND_FIELDS, hand, strict=True) if v is not None}
    data.setdefault("recorded_at", None)
    return data


def game_to_dict(game: Game) -> dict[str, Any]:
    """One game of the sheet as JSON data."""
    return {
        "number": game.number,
        "scores": dict(game.scores),
        "bonuses": dict(game.bonuses),
        "winner": game.winner,
        "closed_by_hand": game.closed_by,
        "hands_won": dict(game.hands_won),
        "entered": dict(game.entered),
    }


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The rules as a match file holds them: `stake` and `rolling` only when set."""
    data = rules._asdict()
    if data.get("stake") is None:
        data.pop("stake", None)
    if not data.get("rolling"):
        data.pop("rolling", None)
    return data


def sheet_to_dict(sheet: Sheet, hands: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The sheet with the keys `show --json` promises scripts, and its `hands` if given."""
    data: dict[str, Any] = {
        "players": list(sheet.players),
        "games": [game_to_dict(g) for g in sheet.games],
        "wins": dict(sheet.wins),
        "games_won": dict(sheet.games_won),
    }
    if hands is not None:
        data["hands"] = hands
    data.update(
        dealer=sheet.dealer,
        finished=sheet.finished,
        winner=sheet.winner,
        totals=dict(sheet.totals),
        rules=rules_to_dict(sheet.rules),
    )
    return data
