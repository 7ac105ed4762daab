"""The match file format: conversion to and from JSON data, validation, step-by-step migrations.

Pure data work: reading and writing files is `hgin.store.matches`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hgin.engine.hands import HAND_KINDS, Hand
from hgin.engine.journal import KINDS, Change
from hgin.engine.match import Match
from hgin.engine.rules import MAX_DEADWOOD, Rules, rules_from_dict
from hgin.engine.sheet import game_name
from hgin.engine.sheet_data import HAND_FIELDS, hand_to_dict, rules_to_dict, sheet_to_dict
from hgin.errors import HginError

SCHEMA_VERSION = 3
MATCH_KEYS = (
    "schema",
    "id",
    "players",
    "rules",
    "first_dealer",
    "created",
    "journal",
    "sheet",
)
MALFORMED_SHEET = (TypeError, ValueError, KeyError, IndexError, AttributeError)


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


def _v3_phrase(hand: Hand) -> str:
    """A hand as version 3 named it in its journal ('knock by Bob 3 v 25'), kept as it was
    then: what a migration writes must not change with today's wording."""
    if hand.kind == "draw":
        return "dead hand"
    text = f"{hand.kind.replace('_', ' ')} by {hand.player}"
    if hand.kind == "knock":
        text += f" {hand.deadwood} v {hand.opponent_deadwood}"
    return text if hand.upcard is None else f"{text} (upcard {hand.upcard})"


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 keeps a journal of changes instead of the hands: each recorded hand becomes
    one "recorded hand N" change at its recorded time (the undone hands too, recorded after
    the others), followed by one undo per undone hand, so that they can still be redone.
    The stored sheet stays for readers; its copy of each entered hand goes."""
    hands, undone = data.get("hands"), data.get("undone")
    if not isinstance(hands, list) or not isinstance(undone, list):
        raise HginError("'hands' and 'undone' must be lists")
    created = data.get("created") if isinstance(data.get("created"), str) else ""
    # Undo appended each hand it took back, so the undone hands in the order they were
    # recorded are the list reversed.
    recorded = [*hands, *reversed(undone)]
    journal: list[dict[str, Any]] = []
    latest = created
    for number, hand in enumerate(recorded, 1):
        at = hand.get("recorded_at") if isinstance(hand, dict) else None
        latest = at if isinstance(at, str) else latest
        try:
            said = _v3_phrase(hand_from_dict(hand, f"hand {number}"))
        except HginError:
            said = "a hand"
        journal.append(
            {
                "number": number,
                "at": latest,
                "kind": "record",
                "text": f"recorded hand {number}: {said}",
                "hand": hand,
            }
        )
    for back in range(len(undone)):
        target = len(recorded) - back
        journal.append(
            {
                "number": len(journal) + 1,
                "at": latest,
                "kind": "undo",
                "text": f"undid change {target} (recorded hand {target})",
                "change": target,
            }
        )
    sheet = data.get("sheet")
    if isinstance(sheet, dict):
        for played in _dicts(sheet.get("hands")):
            played.pop("entered", None)
    converted = {k: v for k, v in data.items() if k not in ("hands", "undone")}
    converted["journal"] = journal
    converted["schema"] = 3
    return converted


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: _v2_to_v3}


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


def _count(value: Any, where: str, key: str) -> int:
    if type(value) is not int or value < 0:
        raise HginError(f"{where}: '{key}' must be a whole number")
    return value


def _rule_values(value: Any, where: str, key: str) -> dict[str, Any]:
    """Some rule values (a rule change's before or after), each checked like a stored rule."""
    if not isinstance(value, dict) or not value:
        raise HginError(f"{where}: '{key}' must be an object of rule values")
    try:
        rules_from_dict({**Rules().to_dict(), **value})
    except HginError as refusal:
        raise HginError(f"{where}: '{key}': {refusal}") from None
    return dict(value)


def _hands(value: Any, where: str, key: str) -> tuple[Hand, ...]:
    if not isinstance(value, list):
        raise HginError(f"{where}: '{key}' must be a list")
    return tuple(hand_from_dict(h, f"{where}, hand {i}") for i, h in enumerate(value, 1))


def _rules(value: Any, where: str, key: str) -> Rules:
    try:
        return rules_from_dict(value)
    except HginError as refusal:
        raise HginError(f"{where}: '{key}': {refusal}") from None


# One reader and one writer per type of data field a kind of change declares.
FIELD_READERS: dict[str, Callable[[Any, str, str], Any]] = {
    "hand": lambda value, where, key: hand_from_dict(value, f"{where}, '{key}'"),
    "hands": _hands,
    "count": _count,
    "values": _rule_values,
    "rules": _rules,
}
FIELD_WRITERS: dict[str, Callable[[Any], Any]] = {
    "hand": hand_to_dict,
    "hands": lambda hands: [hand_to_dict(h) for h in hands],
    "count": lambda value: value,
    "values": dict,
    "rules": rules_to_dict,
}
CHANGE_KEYS = ("number", "at", "kind", "text")


def _text(value: Any, where: str, key: str) -> str:
    # Control and format characters are refused for every text of the file by the guard.
    if not isinstance(value, str):
        raise HginError(f"{where}: '{key}' must be text")
    return value


def change_from_dict(data: Any, number: int) -> Change:
    """One journal entry read from JSON data, its fields checked by its kind's table entry."""
    where = f"change {number}"  # a long journal reads thousands: keep this lean
    if not isinstance(data, dict):
        raise HginError(f"{where} is not an object")
    if data.get("number") != number or type(data.get("number")) is not int:
        raise HginError(f"{where} is numbered {str(data.get('number'))[:20]}")
    name = data.get("kind")
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None or not isinstance(name, str):
        raise HginError(f"{where} has an unknown kind '{str(data.get('kind'))[:40]}'")
    wanted = (*CHANGE_KEYS, *kind.fields)
    if len(data) != len(wanted) or not all(k in data for k in wanted):
        unknown = set(data) - set(wanted)
        if unknown:
            raise HginError(f"{where} has an unknown field '{sorted(unknown)[0]}'")
        missing = [k for k in wanted if k not in data]
        raise HginError(f"{where} lacks '{missing[0]}'")
    values = {
        key: FIELD_READERS[type_](data[key], where, key) for key, type_ in kind.fields.items()
    }
    at = _text(data["at"], where, "at")
    text = _text(data["text"], where, "text")
    return Change(number, at, name, text, values)


def change_to_dict(change: Change) -> dict[str, Any]:
    """One journal entry as JSON data."""
    data: dict[str, Any] = {
        "number": change.number,
        "at": change.at,
        "kind": change.kind,
        "text": change.text,
    }
    for key, type_ in KINDS[change.kind].fields.items():
        data[key] = FIELD_WRITERS[type_](change.data[key])
    return data


def match_from_dict(data: Any) -> tuple[Match, str | None]:
    """A match from current-schema JSON data, and a note when its stored sheet disagrees with
    the sheet its journal gives (the journal decides; the next save rewrites the sheet).
    Refuses anything malformed in the record, or a change that does not replay."""
    if not isinstance(data, dict):
        raise HginError("it does not hold a JSON object")
    missing = [k for k in MATCH_KEYS if k not in data and k != "sheet"]
    if missing:
        raise HginError(f"it lacks '{missing[0]}'")
    unknown = set(data) - set(MATCH_KEYS)
    if unknown:
        raise HginError(f"it has an unknown field '{sorted(unknown)[0][:40]}'")
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
    if not isinstance(data["journal"], list):
        raise HginError("'journal' must be a list")
    rules = rules_from_dict(data["rules"])
    journal = tuple(change_from_dict(c, n) for n, c in enumerate(data["journal"], 1))
    match = Match(
        id=data["id"],
        players=(players[0], players[1]),
        start_rules=rules,
        first_dealer=data["first_dealer"],
        created=data["created"],
        journal=journal,
    )
    sheet = sheet_to_dict(match.sheet, entered=False)
    return match, sheet_difference(data.get("sheet"), sheet)


def match_to_dict(match: Match) -> dict[str, Any]:
    """The match as JSON data in the current schema: the record (players, first rules, first
    dealer, created, journal) and the derived sheet for readers."""
    return {
        "schema": SCHEMA_VERSION,
        "id": match.id,
        "players": list(match.players),
        "rules": rules_to_dict(match.start_rules),
        "first_dealer": match.first_dealer,
        "created": match.created,
        "journal": [change_to_dict(c) for c in match.journal],
        # For readers only: read back, it is recomputed and its numbers merely compared.
        "sheet": sheet_to_dict(match.sheet, entered=False),
    }


# Where a number stands in a sheet, as a tuple worded only when it is the one that differs:
# a sheet of thousands of hands holds tens of thousands of numbers.
Where = tuple[Any, ...]


def _numbers(sheet: Any) -> list[tuple[Where, Any]]:
    """The numbers of a stored or derived sheet as (where, value) pairs, in reading order;
    wording (formulas, labels) and the copy of each entered hand are left out."""
    pairs: list[tuple[Where, Any]] = []
    for game in sheet["games"]:
        number = game["number"]
        for key in ("scores", "bonuses"):
            for player, value in game[key].items():
                pairs.append((("game", number, player, key), value))
        pairs.append((("game", number, "winner"), game["winner"]))
    for played in sheet["hands"]:
        number = played["number"]
        for key in ("result", "winner", "points", "games", "dealer"):
            pairs.append((("hand", number, key), played[key]))
    for player, value in sheet["wins"].items():
        pairs.append((("wins", player), value))
    for player, value in sheet["totals"].items():
        pairs.append((("total", player), value))
    pairs.append((("the dealer",), sheet["dealer"]))
    pairs.append((("finished",), sheet["finished"]))
    pairs.append((("the winner",), sheet["winner"]))
    return pairs


def _game(number: Any) -> str:
    try:
        return game_name(number)
    except MALFORMED_SHEET:  # a stored sheet is read, never trusted
        return str(number)


def _worded(where: Where) -> str:
    """'game II Ann bonus', 'hand 3 points', "Ann's wins", 'total Bob', 'the dealer'."""
    match where:
        case ("game", number, player, "scores"):
            return f"game {_game(number)} {player}"
        case ("game", number, player, "bonuses"):
            return f"game {_game(number)} {player} bonus"
        case ("game", number, "winner"):
            return f"game {_game(number)} winner"
        case ("hand", number, key):
            return f"hand {number} {key}"
        case ("wins", player):
            return f"{player}'s wins"
        case ("total", player):
            return f"total {player}"
    return str(where[0])


def sheet_difference(stored: Any, derived: dict[str, Any]) -> str | None:
    """None when a stored sheet's numbers agree with the derived sheet's (or none is stored);
    else a phrase naming the first difference."""
    if stored is None or stored == derived:  # the common case, compared whole and in C
        return None
    try:
        said = _numbers(stored)
    except MALFORMED_SHEET:
        return "its stored sheet is unreadable; the next save rewrites it"
    given = _numbers(derived)
    for (where, value), (there, right) in zip(said, given, strict=False):
        if where != there or value != right:
            shown = _worded(where if where == there else there)
            old = value if where == there else "nothing"
            return (
                f"its stored sheet said {shown} {_plain(old)}, the hands give {_plain(right)}; "
                "the next save rewrites it"
            )
    if len(said) != len(given):
        return "its stored sheet does not cover every hand; the next save rewrites it"
    return None


def _plain(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)[:40]
