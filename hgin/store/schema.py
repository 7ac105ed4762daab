"""The match file format: conversion to and from JSON data, validation, step-by-step migrations
(pure data: `hgin.store.matches` reads and writes the files)."""

from __future__ import annotations

import json
import operator
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple

from hgin.engine.hands import HAND_KINDS, Hand
from hgin.engine.identifiers import IDENTIFIER, derived_uid
from hgin.engine.journal import KINDS, Change, Joined
from hgin.engine.match import Match
from hgin.engine.rules import MAX_DEADWOOD, Rules, rules_from_dict
from hgin.engine.sheet_data import HAND_FIELDS, hand_to_dict, rules_to_dict, sheet_to_dict
from hgin.errors import HginError

SCHEMA_VERSION = 7
MATCH_KEYS = (
    "schema",
    "id",
    "uid",
    "players",
    "rules",
    "first_dealer",
    "created",
    "journal",
    "sheet",
)


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 records when each hand was entered: null for older hands (and the sheet's)."""
    hands = [*_dicts(data.get("hands")), *_dicts(data.get("undone"))]
    sheet = data.get("sheet")
    if isinstance(sheet, dict):
        hands += [
            p["entered"] for p in _dicts(sheet.get("hands")) if isinstance(p.get("entered"), dict)
        ]
    for hand in hands:
        hand.setdefault("recorded_at", None)
    return data


def _v3_phrase(hand: Hand) -> str:
    """A hand as version 3 named it ('knock by Bob 3 v 25'), not in today's wording."""
    if hand.kind == "draw":
        return "dead hand"
    text = f"{hand.kind.replace('_', ' ')} by {hand.player}"
    if hand.kind == "knock":
        text += f" {hand.deadwood} v {hand.opponent_deadwood}"
    return text if hand.upcard is None else f"{text} (upcard {hand.upcard})"


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 keeps a journal instead of the hands: one change per recorded hand (the undone
    ones last), then one undo per undone hand; the stored sheet loses its copy of each hand."""
    hands, undone = data.get("hands"), data.get("undone")
    if not isinstance(hands, list) or not isinstance(undone, list):
        raise HginError("'hands' and 'undone' must be lists")
    created = data.get("created") if isinstance(data.get("created"), str) else ""
    # Undo appended each hand it took back: in the order they were recorded, the list reversed.
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
    return converted


def _v4_to_v5(data: dict[str, Any]) -> dict[str, Any]:
    """Version 5 gives each match an identity ("uid"), derived here from its record."""
    fields = (data.get("created"), data.get("players"), data.get("first_dealer"))
    converted = {"id": data.get("id"), "uid": derived_uid(*fields)}
    return {**converted, **{k: v for k, v in data.items() if k not in converted}}


# MIGRATIONS[n] brings data of version n to version n + 1; any other step renumbers the same
# data (4: one journal change a line; 6: the sheet lists no hands; 7: a "combine" change).
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    4: _v4_to_v5,
}


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
        if version in MIGRATIONS:
            data = MIGRATIONS[version](data)
        version = data["schema"] = version + 1
    return data, original


HAND_KEYS = frozenset(HAND_FIELDS)
# The type of each optional field of a hand (a long journal reads thousands of hands).
HAND_TYPES = tuple((k, int if k.endswith("deadwood") else str) for k in HAND_FIELDS[1:])


def hand_from_dict(data: Any, where: str) -> Hand:
    """A hand read from JSON data, with every field's type and range checked."""
    if not isinstance(data, dict):
        raise HginError(f"{where} is not an object")
    if not data.keys() <= HAND_KEYS:
        raise HginError(f"{where} has an unknown field '{sorted(data.keys() - HAND_KEYS)[0]}'")
    fields = [data.get("kind")]  # in field order, a missing one None (its default)
    if fields[0] not in HAND_KINDS:
        raise HginError(f"{where} has an unknown kind '{fields[0]}'")
    for key, kind in HAND_TYPES:
        value: Any = data.get(key)
        fields.append(value)
        if value is None:
            continue
        if type(value) is not kind:
            raise HginError(f"{where}: '{key}' has the wrong type")
        if type(value) is int and not 0 <= value <= MAX_DEADWOOD:
            raise HginError(f"{where}: '{key}' {value} is out of range 0..{MAX_DEADWOOD}")
    if fields[-1] is not None:
        check_time(fields[-1], where, "recorded_at")
    # Made without the named tuple's Python-level constructor (once per hand).
    return tuple.__new__(Hand, fields)


def check_time(text: str, where: str, key: str) -> None:
    """Refuse a text that is not an ISO date and time: every time in the record is one."""
    try:
        datetime.fromisoformat(text)
    except ValueError:
        place = f"{where}: '{key}'" if where else f"'{key}'"
        raise HginError(f"{place} is not a date and time: '{text[:40]}'") from None


def _count(value: Any, where: str, key: str) -> int:
    if type(value) is not int or value < 0:
        raise HginError(f"{where}: '{key}' must be a whole number")
    return value


def _rule_values(value: Any, where: str, key: str) -> dict[str, Any]:
    """Some rule values (a rule change's before or after), each checked like a stored rule."""
    if not isinstance(value, dict) or not value:
        raise HginError(f"{where}: '{key}' must be an object of rule values")
    _rules({**Rules()._asdict(), **value}, where, key)
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


def _notice(value: Any, where: str, key: str) -> int | None:
    return None if value is None else _count(value, where, key)


def _joined(value: Any, where: str, key: str) -> Joined:
    """The other copy a combine joined: its identifier, the changes it shared, its own."""
    if not isinstance(value, dict) or set(value) != {"id", "common", "changes"}:
        raise HginError(f"{where}: '{key}' must hold 'id', 'common' and 'changes'")
    if not isinstance(value["id"], str) or not IDENTIFIER.fullmatch(value["id"]):
        raise HginError(f"{where}: '{key}' must name a match identifier")
    common = _count(value["common"], where, "common")
    if not isinstance(value["changes"], list):
        raise HginError(f"{where}: '{key}' must list changes")
    changes = tuple(change_from_dict(c, n) for n, c in enumerate(value["changes"], common + 1))
    return Joined(value["id"], common, changes)


def _joined_to_dict(joined: Joined) -> dict[str, Any]:
    return {
        "id": joined.id,
        "common": joined.common,
        "changes": [change_to_dict(c) for c in joined.changes],
    }


# One reader and one writer per type of data field a kind of change declares.
FIELD_READERS: dict[str, Callable[[Any, str, str], Any]] = {
    "hand": lambda value, where, key: hand_from_dict(value, f"{where}, '{key}'"),
    "hands": _hands,
    "count": _count,
    "values": _rule_values,
    "rules": _rules,
    "notice": _notice,
    "joined": _joined,
}
FIELD_WRITERS: dict[str, Callable[[Any], Any]] = {
    "hand": hand_to_dict,
    "hands": lambda hands: [hand_to_dict(h) for h in hands],
    "count": lambda value: value,
    "values": dict,
    "rules": rules_to_dict,
    "notice": lambda value: value,
    "joined": _joined_to_dict,
}
CHANGE_KEYS = ("number", "at", "kind", "text")
CHANGE_FIELDS = {name: {*CHANGE_KEYS, *kind.fields} for name, kind in KINDS.items()}


def change_from_dict(data: Any, number: int) -> Change:
    """One journal entry read from JSON data, its fields checked by its kind's table entry."""
    where = f"change {number}"  # a long journal reads thousands: keep this lean
    if not isinstance(data, dict):
        raise HginError(f"{where} is not an object")
    if data.get("number") != number or type(data.get("number")) is not int:
        raise HginError(f"{where} is numbered {str(data.get('number'))[:20]}")
    name = data.get("kind")
    if not isinstance(name, str) or name not in KINDS:
        raise HginError(f"{where} has an unknown kind '{str(name)[:40]}'")
    kind = KINDS[name]
    if data.keys() != CHANGE_FIELDS[name]:
        wanted = (*CHANGE_KEYS, *kind.fields)
        unknown = set(data) - set(wanted)
        if unknown:
            raise HginError(f"{where} has an unknown field '{sorted(unknown)[0]}'")
        missing = [k for k in wanted if k not in data]
        raise HginError(f"{where} lacks '{missing[0]}'")
    values = {}  # a loop, not a comprehension: one function call fewer per change
    for key, type_ in kind.fields.items():
        values[key] = FIELD_READERS[type_](data[key], where, key)
    for key in ("at", "text"):  # a control character in any text is refused by the guard
        if not isinstance(data[key], str):
            raise HginError(f"{where}: '{key}' must be text")
    check_time(data["at"], where, "at")
    # Made without the named tuple's Python-level constructor (once per change).
    return tuple.__new__(Change, (number, data["at"], name, data["text"], values))


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


def match_from_dict(data: dict[str, Any]) -> Match:
    """A match from current-schema JSON data, refusing anything malformed or a change that does
    not replay (the stored sheet is never read)."""
    missing = [k for k in MATCH_KEYS if k not in data and k != "sheet"]
    if missing:
        raise HginError(f"it lacks '{missing[0]}'")
    unknown = set(data) - set(MATCH_KEYS)
    if unknown:
        raise HginError(f"it has an unknown field '{sorted(unknown)[0][:40]}'")
    players = data["players"]
    if not isinstance(players, list) or [type(p) for p in players] != [str, str]:
        raise HginError("'players' must be a list of two names")
    for key in ("id", "first_dealer", "created"):
        if not isinstance(data[key], str):
            raise HginError(f"'{key}' must be text")
    check_time(data["created"], "", "created")
    if not isinstance(data["uid"], str) or not IDENTIFIER.fullmatch(data["uid"]):
        raise HginError("'uid' must be an identifier (lower-case letters and digits)")
    if not isinstance(data["journal"], list):
        raise HginError("'journal' must be a list")
    rules = rules_from_dict(data["rules"])
    journal = tuple(change_from_dict(c, n) for n, c in enumerate(data["journal"], 1))
    return Match(
        id=data["id"],
        players=(players[0], players[1]),
        start_rules=rules,
        first_dealer=data["first_dealer"],
        created=data["created"],
        journal=journal,
        uid=data["uid"],
    )


# Compact JSON, the text as is: the C encoder, made once, not checking the fresh data for cycles.
_compact = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


FIRST_LINE = f'{{"schema": {SCHEMA_VERSION}, '  # how every file of this version starts
JOURNAL_START = b'"journal": [\n'
JOURNAL_END = b'\n],\n"sheet": '


class WrittenJournal(NamedTuple):
    """A journal's changes, the file's bytes before it, and its bytes there (no brackets)."""

    changes: tuple[Change, ...]
    head: bytes
    text: bytes


def written_journal(raw: bytes, changes: tuple[Change, ...]) -> WrittenJournal | None:
    """Where `changes` lie in a file's bytes laid out as `file_bytes` writes (no raw line break
    is inside a JSON text, no key in the journal is "sheet": they lie between the marks)."""
    if not changes or not raw.startswith(FIRST_LINE.encode()):
        return None
    start = raw.find(JOURNAL_START)
    end = raw.find(JOURNAL_END, start)
    if start < 0 or end < 0:
        return None
    return WrittenJournal(changes, raw[:start], raw[start + len(JOURNAL_START) : end])


def _begins_with(journal: tuple[Change, ...], changes: tuple[Change, ...]) -> bool:
    """Whether `journal` begins with these very changes (not equal ones: the same objects)."""
    return len(changes) <= len(journal) and all(map(operator.is_, changes, journal))


def file_bytes(match: Match, kept: WrittenJournal | None = None) -> bytes:
    """A match file's bytes: the record, one journal change a line, the sheet for readers; the
    changes `kept` holds are written as they are there, so a save encodes only what is new."""
    record = {
        "schema": SCHEMA_VERSION,
        "id": match.id,
        "uid": match.uid,
        "players": list(match.players),
        "rules": rules_to_dict(match.start_rules),
        "first_dealer": match.first_dealer,
        "created": match.created,
    }
    head = f"{_compact(record)[:-1]}, ".encode()  # the record but its journal
    kept_count = 0
    if kept is not None and kept.head == head and _begins_with(match.journal, kept.changes):
        kept_count = len(kept.changes)
    lines = [kept.text] if kept is not None and kept_count else []
    new = [change_to_dict(c) for c in match.journal[kept_count:]]
    if new:
        # Encoded in one call, a line break put between the changes: each starts with its
        # "number", and an unescaped quote never occurs inside a JSON string.
        text = _compact(new)[1:-1].replace('}, {"number": ', '},\n{"number": ')
        lines.append(text.encode())
    sheet = _compact(sheet_to_dict(match.sheet)).encode()  # never read back
    journal = [JOURNAL_START, b",\n".join(lines), b"\n]"] if lines else [b'"journal": []']
    return b"".join((head, *journal, b',\n"sheet": ', sheet, b"}\n"))
