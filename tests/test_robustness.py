"""Damaged, tampered and newer match files: each refused with the file's path and what is wrong,
by reading and writing commands alike, and the file left byte for byte as it was."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hgin.errors import HginError
from hgin.store.schema import FIRST_LINE, SCHEMA_VERSION, match_from_dict, migrate
from tests.conftest import Run, copied_match, recorded_home, snapshot

Data = dict[str, Any]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A match with a gin, a knock and an undone hand, made once through the CLI."""
    return recorded_home(
        tmp_path_factory.mktemp("template") / "home",
        ("new", "Ann", "Bob", "--dealer", "Ann"),
        ("gin", "ann", "18"),
        ("knock", "bob", "3", "20"),
        ("draw",),
        ("undo",),
    )


@pytest.fixture
def match_file(template: Path, hgin_home: Path) -> Path:
    """A copy of the template's data folder as this test's; its match file."""
    return copied_match(template, hgin_home)


def edit(change: Callable[[Data], object]) -> Callable[[Data], Data]:
    def apply(data: Data) -> Data:
        change(data)
        return data

    return apply


TAMPERING: list[tuple[str, Callable[[Data], Data], str]] = [
    # wrong types
    ("players-text", edit(lambda d: d.update(players="Ann v Bob")), "'players' must be a list"),
    ("one-player", edit(lambda d: d.update(players=["Ann"])), "'players' must be a list of two"),
    ("id-number", edit(lambda d: d.update(id=7)), "'id' must be text"),
    ("journal-object", edit(lambda d: d.update(journal={})), "'journal' must be a list"),
    (
        "hand-text",
        edit(lambda d: d["journal"][0].__setitem__("hand", "gin")),
        "change 1, 'hand' is not an object",
    ),
    (
        "deadwood-text",
        edit(lambda d: d["journal"][1]["hand"].update(opponent_deadwood="20")),
        "change 2, 'hand': 'opponent_deadwood' has the wrong type",
    ),
    (
        "deadwood-bool",
        edit(lambda d: d["journal"][1]["hand"].update(deadwood=True)),
        "change 2, 'hand': 'deadwood' has the wrong type",
    ),
    (
        "deadwood-float",
        edit(lambda d: d["journal"][1]["hand"].update(deadwood=3.0)),
        "change 2, 'hand': 'deadwood' has the wrong type",
    ),
    ("target-text", edit(lambda d: d["rules"].update(target="100")), "rule target must be"),
    ("rules-list", edit(lambda d: d.update(rules=[])), "rules must be an object"),
    ("unknown-rule", edit(lambda d: d["rules"].update(jokers=2)), "unknown rule 'jokers'"),
    ("missing-key", edit(lambda d: d.pop("first_dealer")), "it lacks 'first_dealer'"),
    (
        "unknown-field",
        edit(lambda d: d["journal"][0]["hand"].update(bonus=50)),
        "change 1, 'hand' has an unknown field 'bonus'",
    ),
    ("unknown-top-field", edit(lambda d: d.update(notes="x")), "unknown field 'notes'"),
    # ranges
    (
        "deadwood-99",
        edit(lambda d: d["journal"][0]["hand"].update(opponent_deadwood=99)),
        "change 1, 'hand': 'opponent_deadwood' 99 is out of range 0..98",
    ),
    (
        "deadwood-negative",
        edit(lambda d: d["journal"][1]["hand"].update(deadwood=-1)),
        "change 2, 'hand': 'deadwood' -1 is out of range 0..98",
    ),
    (
        "knock-over-limit",
        edit(lambda d: d["journal"][1]["hand"].update(deadwood=11, opponent_deadwood=40)),
        "change 2 (record): the knocker's deadwood must be between 1 and 10, not 11",
    ),
    (
        "knock-of-zero",
        edit(lambda d: d["journal"][1]["hand"].update(deadwood=0)),
        "change 2 (record): a knock with 0 deadwood is a gin",
    ),
    (
        "undone-knock-over-limit",
        edit(
            lambda d: d["journal"][2]["hand"].update(
                kind="knock", player="Ann", deadwood=50, opponent_deadwood=60
            )
        ),
        "change 3 (record): the knocker's deadwood must be between 1 and 10, not 50",
    ),
    # the journal
    (
        "undo-of-another-change",
        edit(lambda d: d["journal"][3].update(change=1)),
        "change 4 (undo): change 1 is not the latest change in force",
    ),
    (
        "unknown-change-kind",
        edit(lambda d: d["journal"][3].update(kind="shuffle")),
        "change 4 has an unknown kind 'shuffle'",
    ),
    (
        "change-numbered-wrong",
        edit(lambda d: d["journal"][1].update(number=7)),
        "change 2 is numbered 7",
    ),
    (
        "change-text-number",
        edit(lambda d: d["journal"][1].update(text=7)),
        "change 2: 'text' must be text",
    ),
    (
        "change-text-bidi",
        edit(lambda d: d["journal"][1].update(text="Ann\u202eboB")),
        "it holds a control character (U+202E) in a text",
    ),
    (
        "change-text-escape",
        edit(lambda d: d["journal"][1].update(text="\x1b]0;pwned\x07")),
        "it holds a control character",
    ),
    (
        "redo-with-nothing-undone",
        edit(
            lambda d: d["journal"].append(
                {**d["journal"][3], "number": 5, "kind": "redo", "change": 2}
            )
        ),
        "change 5 (redo): change 2 is not the latest undone change",
    ),
    ("target-zero", edit(lambda d: d["rules"].update(target=0)), "target must be between 1"),
    ("games-two", edit(lambda d: d["rules"].update(games=2)), "games must be one of 1, 3, 5"),
    # kinds and winners
    (
        "unknown-kind",
        edit(lambda d: d["journal"][0]["hand"].update(kind="triple")),
        "change 1, 'hand' has an unknown kind 'triple'",
    ),
    (
        "winner-not-a-player",
        edit(lambda d: d["journal"][0]["hand"].update(player="Mallory")),
        "change 1 (record): 'Mallory' is not a player in this match",
    ),
    (
        "undone-winner-not-a-player",
        edit(
            lambda d: d["journal"][2]["hand"].update(
                player="Mallory", kind="gin", opponent_deadwood=1
            )
        ),
        "change 3 (record): 'Mallory' is not a player",
    ),
    ("dealer-not-a-player", edit(lambda d: d.update(first_dealer="Eve")), "the dealer 'Eve'"),
    (
        "same-players",
        edit(lambda d: d.update(players=["Ann", "ann"], first_dealer="Ann")),
        "the two players need different names",
    ),
    (
        "control-in-name",
        edit(lambda d: d.update(players=["Ann", "B\x1b[2Job"])),
        "it holds a control character",
    ),
    # versions and identity
    (
        "newer-schema",
        edit(lambda d: d.update(schema=SCHEMA_VERSION + 1)),
        f"it was written by a newer hgin (schema {SCHEMA_VERSION + 1}; this hgin reads up to "
        f"{SCHEMA_VERSION}): upgrade hgin",
    ),
    ("no-schema", edit(lambda d: d.pop("schema")), "it has no valid schema version"),
    ("schema-text", edit(lambda d: d.update(schema="3")), "it has no valid schema version"),
    ("schema-zero", edit(lambda d: d.update(schema=0)), "it has no valid schema version"),
    ("id-mismatch", edit(lambda d: d.update(id="2001-01-01-eve-mallory")), "it holds match"),
]


def refused_everywhere(run: Run, hgin_home: Path, path: Path, expected: str) -> None:
    """Reading and writing commands all refuse with the path and reason; nothing changes."""
    before = snapshot(hgin_home)
    for args in (("show",), ("gin", "ann", "5"), ("undo",), ("use", "2")):
        result = run(*args)
        assert result.exit_code == 1, (args, result.output)
        lines = result.stderr.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"hgin: cannot use {path}: "), lines[0]
        assert expected in lines[0], lines[0]
        assert "\x1b" not in result.stderr
        assert snapshot(hgin_home) == before, args
    # The list leaves it out (and says nothing it cannot back up); the file is still there.
    assert run("matches", "--json").exit_code == 0
    assert snapshot(hgin_home).get(f"matches/{path.name}") == before[f"matches/{path.name}"]


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [pytest.param(change, text, id=name) for name, change, text in TAMPERING],
)
def test_tampered_file_is_refused_with_its_path(
    run: Run, hgin_home: Path, match_file: Path, tamper: Callable[[Data], Data], expected: str
) -> None:
    data = tamper(json.loads(match_file.read_text(encoding="utf-8")))
    match_file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    refused_everywhere(run, hgin_home, match_file, expected)


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        pytest.param(lambda raw: raw[: len(raw) // 2], "it is not valid JSON", id="truncated"),
        pytest.param(lambda raw: b"", "it is not valid JSON", id="empty"),
        pytest.param(lambda raw: b"\x00" * 4096, "it is not valid JSON", id="zeros"),
        pytest.param(lambda raw: b"\xff\xfe" + raw, "it is not UTF-8 text", id="not-utf8"),
        pytest.param(lambda raw: b"[" + raw + b"]", "it does not hold a JSON object", id="list"),
        pytest.param(lambda raw: b"[" * 100_000, "nested too deeply", id="deep"),
        pytest.param(
            lambda raw: raw.replace(
                b'"opponent_deadwood": 18', b'"opponent_deadwood": 1' + b"0" * 5000
            ),
            "it is not valid JSON",
            id="huge-number",
        ),
        pytest.param(
            lambda raw: raw.replace(FIRST_LINE.encode(), b'{"schema": NaN, '),
            "no valid schema version",
            id="nan",
        ),
    ],
)
def test_damaged_file_is_refused_with_its_path(
    run: Run,
    hgin_home: Path,
    match_file: Path,
    damage: Callable[[bytes], bytes],
    expected: str,
) -> None:
    match_file.write_bytes(damage(match_file.read_bytes()))
    refused_everywhere(run, hgin_home, match_file, expected)


def test_an_enormous_file_is_refused_without_reading_it(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    os.truncate(match_file, 40 * 1024 * 1024)  # sparse: costs no disk
    refused_everywhere(run, hgin_home, match_file, "bytes it is too large (at most")


def test_a_folder_where_the_match_file_should_be(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    match_file.unlink()
    match_file.mkdir()
    result = run("show")
    assert result.exit_code == 1
    assert result.stderr == f"hgin: cannot use {match_file}: it is not a regular file\n"


@pytest.mark.parametrize(
    "pointer",
    [
        b"../../etc/passwd",
        b"",
        b"UPPER",
        b"x" * 200,
        b"a/b",
        b"\x00",
        "\ufeffid".encode(),
        b"\xff\xfe\xfd",  # not UTF-8
    ],
)
def test_a_tampered_current_pointer_is_refused(
    run: Run, hgin_home: Path, match_file: Path, pointer: bytes
) -> None:
    (hgin_home / "current").write_bytes(pointer)
    before = snapshot(hgin_home)
    for args in (("show",), ("gin", "ann", "5"), ("restore",)):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stderr == (
            f"hgin: {hgin_home / 'current'} does not name a match; pick one with 'hgin use'\n"
        )
    assert snapshot(hgin_home) == before
    # Naming the match still works, and `use` repairs the pointer.
    assert run("show", "--match", match_file.stem).exit_code == 0
    assert run("use", match_file.stem).exit_code == 0
    assert run("show").exit_code == 0


# -- the schema layer itself, against any mutation -----------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


def paths_in(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_in(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths_in(item, (*prefix, index))
    return found


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_mutation_is_accepted_or_refused_cleanly(match_file: Path, data: st.DataObject) -> None:
    """Replacing any one value of a valid file by any JSON value either still gives a valid
    match or an HginError; never another exception (the guard in storage is not needed)."""
    original = json.loads(match_file.read_text(encoding="utf-8"))
    spots = [p for p in paths_in(original) if p]
    spot = data.draw(st.sampled_from(spots))
    value = data.draw(JSON_VALUES)
    mutated = json.loads(json.dumps(original))
    target = mutated
    for key in spot[:-1]:
        target = target[key]
    target[spot[-1]] = value
    try:
        migrated, _ = migrate(mutated)
        match_from_dict(migrated).sheet  # noqa: B018 - replaying is the check
    except HginError:
        pass
