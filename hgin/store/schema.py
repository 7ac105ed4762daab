"""The match file format: conversion to and from JSON data, validation, step-by-step migrations.

Pure data work: reading and writing files is `hgin.store.matches`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hgin.engine.hands import HAND_KINDS, Hand
from hgin.engine.match import Match
from hgin.engine.rules import MAX_DEADWOOD, rules_from_dict
from hgin.engine.sheet_data import HAND_FIELDS, hand_to_dict, rules_to_dict, sheet_to_dict
from hgin.errors import HginError

SCHEMA_VERSION = 2
MATCH_KEYS = (
    "schema",
    "id",
    "players",
    "rules",
    "first_dealer",
    "created",
    "hands",
    "undone",
    "sheet",
)


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 records when each hand was entered; older hands get null (also in the
    stored sheet's copy of each entry, so the sheet still agrees with the hands)."""
    hands = [*_dicts(data.get("hands")), *_dicts(data.get("undone"))]
    sheet = data.get("sheet")
    if isinstance(sheet, dict):
        hands += [
            p["entered"] for p in _dicts(sheet.get("hands")) if isinstance(p.get("entered"), dict)
        ]
    for hand in hands:
        hand.setdefault("recorded_at", None)
    data["schema"] = 2
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


def migrate(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Bring file data up to SCHEMA_VERSION one step at a time; returns (data, old version)."""
    version = data.get("schema")
    if type(version) is not int or version < 1:
        raise HginError("it has no valid schema version")
    if version > SCHEMA_VERSION:
        raise HginError(
            f"it was written by a newer hgin (schema {version}; this hgin reads up to "
            f"{SCHEMA_VERSION}): upgrade hgin to open it"
        )
    original = version
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version = data["schema"]
    return data, original


def _optional(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if value is not None and type(value) is not kind:
        raise HginError(f"{where}: '{key}' has the wrong type")
    return value


def hand_from_dict(data: Any, where: str) -> Hand:
    """A hand read from JSON data, with every field's type and range checked."""
    if not isinstance(data, dict):
        raise HginError(f"{where} is not an object")
    unknown = set(data) - set(HAND_FIELDS)
    if unknown:
        raise HginError(f"{where} has an unknown field '{sorted(unknown)[0]}'")
    kind = data.get("kind")
    if kind not in HAND_KINDS:
        raise HginError(f"{where} has an unknown kind '{kind}'")
    for key in ("deadwood", "opponent_deadwood"):
        value = _optional(data, key, int, where)
        if value is not None and not 0 <= value <= MAX_DEADWOOD:
            raise HginError(f"{where}: '{key}' {value} is out of range 0..{MAX_DEADWOOD}")
    return Hand(
        kind=kind,
        player=_optional(data, "player", str, where),
        deadwood=data.get("deadwood"),
        opponent_deadwood=data.get("opponent_deadwood"),
        upcard=_optional(data, "upcard", str, where),
        hand_cards=_optional(data, "hand_cards", str, where),
        opponent_cards=_optional(data, "opponent_cards", str, where),
        recorded_at=_optional(data, "recorded_at", str, where),
    )


def match_from_dict(data: Any) -> Match:
    """A match from current-schema JSON data; refuses anything malformed or inconsistent."""
    if not isinstance(data, dict):
        raise HginError("it does not hold a JSON object")
    missing = [k for k in MATCH_KEYS if k not in data and k != "sheet"]
    if missing:
        raise HginError(f"it lacks '{missing[0]}'")
    players = data["players"]
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) for p in players)
    ):
        raise HginError("'players' must be a list of two names")
    for key in ("id", "first_dealer", "created"):
        if not isinstance(data[key], str):
            raise HginError(f"'{key}' must be text")
    for key in ("hands", "undone"):
        if not isinstance(data[key], list):
            raise HginError(f"'{key}' must be a list")
    rules = rules_from_dict(data["rules"])
    hands = tuple(hand_from_dict(h, f"hand {i}") for i, h in enumerate(data["hands"], 1))
    undone = tuple(hand_from_dict(h, f"undone hand {i}") for i, h in enumerate(data["undone"], 1))
    for i, hand in enumerate(undone, 1):
        # Undone hands are replayed only on redo; their winner must at least be a player.
        if hand.player is not None and hand.player not in players:
            raise HginError(f"undone hand {i}: '{hand.player}' is not a player in this match")
    match = Match(
        id=data["id"],
        players=(players[0], players[1]),
        rules=rules,
        first_dealer=data["first_dealer"],
        created=data["created"],
        hands=hands,
        undone=undone,
    )
    sheet = sheet_to_dict(match.sheet)
    stored = data.get("sheet")
    if stored is not None and stored != sheet:
        raise HginError(
            "its stored sheet disagrees with the sheet its hands give (edited by hand?)"
        )
    return match


def match_to_dict(match: Match) -> dict[str, Any]:
    """The match as JSON data in the current schema, with the derived sheet for readers."""
    return {
        "schema": SCHEMA_VERSION,
        "id": match.id,
        "players": list(match.players),
        "rules": rules_to_dict(match.rules),
        "first_dealer": match.first_dealer,
        "created": match.created,
        "hands": [hand_to_dict(h) for h in match.hands],
        "undone": [hand_to_dict(h) for h in match.undone],
        "sheet": sheet_to_dict(match.sheet),
    }
