"""The sheet as `hgin show --json` prints it: the file's copy of the sheet, each hand scored
with its arithmetic worded, the rules in full, and whether the match is rolling."""

from __future__ import annotations

from typing import Any

from hgin.engine.sheet import PlayedHand, Sheet
from hgin.engine.sheet_data import hand_to_dict, sheet_to_dict
from hgin.reports.narrate import formula


def played_to_dict(played: PlayedHand) -> dict[str, Any]:
    """One scored hand as JSON data, with the hand as it was entered."""
    return {
        "number": played.number,
        "result": played.award.result,
        "winner": played.award.winner,
        "points": played.award.points,
        "games": list(played.games),
        "formula": formula(played.award),
        "dealer": played.dealer,
        "win_number": played.win_number,
        "closed": [c.game for c in played.closings],
        "entered": hand_to_dict(played.hand),
    }


def show_dict(sheet: Sheet) -> dict[str, Any]:
    """The sheet as `hgin show --json` and the JSON summary give it."""
    return {
        **sheet_to_dict(sheet, [played_to_dict(p) for p in sheet.hands]),
        "rules": sheet.rules._asdict(),
        "rolling": sheet.rules.rolling,
        "notice": sheet.notice,
    }
