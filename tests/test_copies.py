"""Two copies, one match: imports that never lose a hand, copies that converge, and combine
(`hgin matches combine`), all through the real CLI."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hgin.cli import app
from tests.conftest import Run, snapshot
from tests.test_cache import leaves

ID = "2026-12-01-ann-bob"


def clock() -> Callable[[], str]:
    """Every match starts on 1 December 2026; the clock moves a second each time it is read."""
    ticks = iter(range(86_400))

    def now() -> str:
        tick = next(ticks)
        return f"2026-12-01T{tick // 3600:02d}:{tick // 60 % 60:02d}:{tick % 60:02d}+01:00"

    return now


@pytest.fixture(autouse=True)
def on_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hgin.scorekeeper.now_text", clock())
    monkeypatch.delenv("COLUMNS")  # sentences whole: they name long temporary paths


class Folders:
    """Data folders, as on several laptops, each used by name."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runner = CliRunner()

    def home(self, name: str) -> Path:
        return self.root / name

    def run(self, name: str, *args: str, code: int | None = 0) -> Any:
        result = self.runner.invoke(app, list(args), env={"HGIN_HOME": str(self.home(name))})
        assert result.exception is None or isinstance(result.exception, SystemExit), result
        if code is not None:
            assert result.exit_code == code, (name, args, result.output)
        return result

    def export(self, name: str, *options: str) -> Path:
        path = self.root / f"{name}-export.json"
        self.run(name, "export", "--force", *options, str(path))
        return path

    def imported(self, name: str, path: Path, *options: str) -> list[str]:
        result = self.run(name, "import", str(path), *options)
        assert result.stderr == "", result.stderr
        lines: list[str] = result.stdout.splitlines()
        return lines

    def show(self, name: str, match: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.run(name, "show", "--json", "-m", match).stdout)
        return data

    def ids(self, name: str) -> list[str]:
        return sorted(p.stem for p in (self.home(name) / "matches").glob("*.json"))

    def copies(self, name: str) -> list[tuple[str, ...]]:
        """Each stored match by what makes it itself: identity, start and journal."""
        found = []
        for path in sorted((self.home(name) / "matches").glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            start = [data[k] for k in ("uid", "players", "rules", "first_dealer", "created")]
            found.append((json.dumps(start), json.dumps(data["journal"])))
        return sorted(found)


@pytest.fixture
def folders(tmp_path: Path) -> Folders:
    return Folders(tmp_path)


def started(folders: Folders, *others: str) -> None:
    """Ann's match with two hands on laptop "a", copied to the `others`."""
    folders.run("a", "new", "Ann", "Bob", "--dealer", "Ann")
    folders.run("a", "gin", "ann", "10")
    folders.run("a", "knock", "bob", "3", "9")
    shared = folders.export("a")
    for other in others:
        folders.imported(other, shared)


def diverged(folders: Folders) -> None:
    """Laptops "a" and "b" each add a hand to one match after its second."""
    started(folders, "b")
    folders.run("a", "gin", "bob", "20")
    folders.run("b", "knock", "ann", "2", "30")


def kept_beside(folders: Folders) -> None:
    """Laptop "a" imports the copy "b" played on: kept beside its own as ID-2."""
    diverged(folders)
    folders.imported("a", folders.export("b"))


def combined(folders: Folders) -> None:
    """Laptop "a" makes one match again of its copy and "b"'s."""
    kept_beside(folders)
    folders.run("a", "matches", "combine", ID, f"{ID}-2")


# -- the five ways it went wrong ----------------------------------------------------------


def test_an_export_of_two_copies_loses_no_hand_where_the_ancestor_is(folders: Folders) -> None:
    started(folders, "b", "c")
    diverged_a = ("gin", "bob", "20")
    folders.run("a", *diverged_a)
    folders.run("b", "knock", "ann", "2", "30")
    folders.imported("a", folders.export("b"))
    assert folders.ids("a") == [ID, f"{ID}-2"]
    result = folders.run("c", "import", str(folders.export("a", "--all")), "--json")
    report = json.loads(result.stdout)
    assert (report["updated"], [k["id"] for k in report["kept"]]) == ([ID], [f"{ID}-2"])
    assert folders.copies("c") == folders.copies("a")
    hands = [h["entered"] for h in folders.show("c", ID)["hands"]]
    assert [h["kind"] for h in hands] == ["gin", "knock", "gin"]


def test_a_copy_whose_start_was_rewritten_is_kept_beside(folders: Folders) -> None:
    started(folders, "b")
    path = folders.export("a")
    data = json.loads(path.read_text(encoding="utf-8"))
    match = data["matches"][0]
    extra = dict(match["journal"][-1], number=3, at="2026-12-01T21:00:00+01:00")
    match["journal"].append(extra)
    for change in ({"rules": {**match["rules"], "target": 50}}, {"first_dealer": "Bob"}):
        match.update(change)
        path.write_text(json.dumps(data), encoding="utf-8")
        before = snapshot(folders.home("b") / "matches")
        lines = folders.imported("b", path)
        assert lines[:2] == [
            f"Imported from {path}: 1 kept beside ours.",
            f"The file's copy of {ID} starts otherwise than ours (its players, rules, first "
            f"dealer or creation differ): it is kept as {ID}-2; compare them with 'hgin log -m "
            f"{ID}' and 'hgin log -m {ID}-2'.",
        ]
        assert (folders.home("b") / "matches" / f"{ID}.json").read_bytes() == before[f"{ID}.json"]
        shutil.rmtree(folders.home("b") / "matches")
        shutil.copytree(folders.home("a") / "matches", folders.home("b") / "matches")


def test_swapped_exports_converge_and_never_make_a_third_copy(folders: Folders) -> None:
    kept_beside(folders)
    assert folders.ids("a") == [ID, f"{ID}-2"]
    result = folders.run("b", "import", str(folders.export("a", "--all")), "--replace", "--json")
    report = json.loads(result.stdout)
    named = [*report["added"], *report["updated"], *report["up_to_date"], *report["replaced"]]
    assert named == [ID]  # named once: replaced (the file's copy of ID-2 is ours, held by it)
    lines = folders.imported("a", folders.export("b", "--all"))
    assert f"{ID}-3" not in folders.ids("a"), lines
    folders.imported("b", folders.export("a", "--all"))
    folders.imported("a", folders.export("b", "--all"))
    assert folders.copies("a") == folders.copies("b")
    assert len(set(folders.copies("a"))) == len(folders.copies("a"))


def test_words_say_what_happened_to_a_conflicted_copy_and_to_undo(folders: Folders) -> None:
    diverged(folders)
    name = f"{ID} (Bob's\x1b[31m conflicted\u202e copy\n2026).json"
    copy = folders.home("a") / "matches" / name
    shutil.copy(folders.home("b") / "matches" / f"{ID}.json", copy)
    listed = folders.run("a", "matches").stderr
    shown = f"{ID} (Bob's\\x1b[31m conflicted\\u202e copy\\n2026).json"
    assert shown in listed and "\x1b" not in listed and "\u202e" not in listed
    hint = f"$'{copy.parent}/{ID} (Bob\\'s\\x1b[31m conflicted\\u202e copy\\x0a2026).json'"
    assert f"hgin import {hint} " in listed
    assert "matches combine" in listed
    lines = folders.imported("a", copy)
    assert lines[-1] == f"Removed the conflicted copy {copy.parent}/{shown}: it is kept as {ID}-2."
    assert "\x1b" not in "".join(lines)
    # Abandon, import a copy of the match, undo: the match is not "brought back".
    folders.run("c", "import", str(folders.export("b")))
    folders.run("c", "abandon", "--yes")
    folders.imported("c", folders.export("b"))
    said = folders.run("c", "undo").stdout
    assert "Brought back" not in said and "Undone: change" in said


def test_two_copies_become_one_again(folders: Folders) -> None:
    kept_beside(folders)
    assert folders.run("a", "matches").stderr == (
        f"hgin: {ID} and {ID}-2 are copies of one match that went their own ways: 'hgin "
        f"matches combine {ID} {ID}-2' makes them one\n"
    )
    folders.run("a", "matches", "combine", ID, f"{ID}-2")
    assert folders.ids("a") == [ID]
    hands = [h["entered"] for h in folders.show("a", ID)["hands"]]
    assert [(h["kind"], h["player"]) for h in hands] == [
        ("gin", "Ann"),
        ("knock", "Bob"),
        ("gin", "Bob"),
        ("knock", "Ann"),
    ]


# -- combine ----------------------------------------------------------------------------


def test_combine_scores_the_hands_of_both_as_one_match_would(folders: Folders) -> None:
    kept_beside(folders)
    result = folders.run("a", "matches", "combine", ID, f"{ID}-2")
    assert f"Combined {ID}-2 into {ID}: the sheet has 4 hands." in result.stdout
    assert f"From {ID}-2: hand 4." in result.stdout
    # The same four hands typed into one match.
    folders.run("one", "new", "Ann", "Bob", "--dealer", "Ann")
    for hand in (("gin", "ann", "10"), ("knock", "bob", "3", "9"), ("gin", "bob", "20")):
        folders.run("one", *hand)
    folders.run("one", "knock", "ann", "2", "30")
    combined, single = folders.show("a", ID), folders.show("one", folders.ids("one")[0])
    for sheet in (combined, single):
        del sheet["id"]
        for hand in sheet["hands"]:
            del hand["entered"]["recorded_at"]
    assert combined == single
    # I: Ann 35 + 28, Bob 6 + 45; II: Ann 28, Bob 45.
    assert combined["totals"] == {"Ann": 91, "Bob": 96}
    log = json.loads(folders.run("a", "log", "--json").stdout)
    assert log[-1]["kind"] == "combine"
    assert log[-1]["text"] == f"combined with {ID}-2 (they parted after change 2): 4 hands"


def test_undo_straight_after_combine_brings_both_back(folders: Folders) -> None:
    kept_beside(folders)
    other = folders.home("a") / "matches" / f"{ID}-2.json"
    raw, before = other.read_bytes(), folders.show("a", ID)
    folders.run("a", "use", f"{ID}-2")
    folders.run("a", "matches", "combine", ID, f"{ID}-2")
    assert (folders.home("a") / "current").read_text() == f"{ID}\n"
    said = folders.run("a", "undo").stdout
    assert f"Brought back match {ID}-2 (Ann v Bob)." in said
    assert other.read_bytes() == raw
    assert folders.show("a", ID) == before
    assert (folders.home("a") / "current").read_text() == f"{ID}-2\n"


def test_undo_of_a_combine_later_on_brings_the_other_copy_back_too(folders: Folders) -> None:
    kept_beside(folders)
    other = folders.home("a") / "matches" / f"{ID}-2.json"
    raw, before = other.read_bytes(), folders.show("a", ID)
    folders.run("a", "matches", "combine", ID, f"{ID}-2")
    folders.run("a", "use", ID)
    folders.run("a", "draw")  # a hand after the combine: the undo is no longer straight after
    folders.run("a", "undo")
    assert not other.exists()  # the combine still holds its hands
    said = folders.run("a", "undo").stdout
    assert f"Brought back match {ID}-2 (Ann v Bob)." in said
    assert other.read_bytes() == raw  # every hand of it is on the list again
    assert folders.show("a", ID)["hands"] == before["hands"]
    folders.run("a", "redo")  # the combine again: the other copy leaves the list again
    assert not other.exists()


def test_undo_of_a_combine_made_on_the_other_laptop_puts_that_copy_back(
    folders: Folders,
) -> None:
    kept_beside(folders)
    own = folders.show("b", ID)["hands"]  # "b"'s copy: it went on as ID-2 on "a"
    folders.run("a", "matches", "combine", ID, f"{ID}-2")
    folders.imported("b", folders.export("a"))  # the combined match reaches "b"
    said = folders.run("b", "undo").stdout
    assert f"Brought back match {ID}-2 (Ann v Bob)." in said
    assert folders.ids("b") == [ID, f"{ID}-2"]
    assert folders.show("b", f"{ID}-2")["hands"] == own  # no hand of "b" only in a backup


def test_the_later_change_to_a_hand_both_changed_wins_and_is_named(folders: Folders) -> None:
    started(folders, "b")
    folders.run("a", "edit", "1", "gin", "ann", "12")
    folders.run("b", "edit", "1", "gin", "ann", "14")  # later: the clock only goes on
    folders.run("a", "delete", "2")
    folders.imported("a", folders.export("b"))
    said = folders.run("a", "matches", "combine", ID, f"{ID}-2").stdout
    assert (
        f"Hand 1 was changed in both copies: kept {ID}-2's version (gin by Ann), dropped "
        f"{ID}'s version (gin by Ann)."
    ) in said
    hands = [h["entered"] for h in folders.show("a", ID)["hands"]]
    assert [(h["kind"], h["opponent_deadwood"]) for h in hands] == [("gin", 14)]


def test_combine_refuses_two_matches_and_leaves_every_file(folders: Folders) -> None:
    started(folders)
    folders.run("a", "new", "Ann", "Bob", "--dealer", "Bob")
    before = snapshot(folders.home("a"))
    result = folders.run("a", "matches", "combine", ID, f"{ID}-2", code=1)
    assert result.stderr == (
        f"hgin: {ID}-2 is not a copy of {ID}: their players, rules, first dealer or start differ\n"
    )
    assert snapshot(folders.home("a")) == before


def test_a_combined_copy_brings_either_copy_up_to_date_elsewhere(folders: Folders) -> None:
    combined(folders)
    lines = folders.imported("b", folders.export("a"))
    assert lines == [f"Imported from {folders.root}/a-export.json: 1 updated."]
    assert folders.copies("b") == folders.copies("a")
    # Where both copies are held, the combined one takes the place of both.
    diverged_twice = Folders(folders.root / "again")
    diverged(diverged_twice)
    diverged_twice.imported("a", diverged_twice.export("b"))
    diverged_twice.imported("b", diverged_twice.export("a", "--all"))
    diverged_twice.run("a", "matches", "combine", ID, f"{ID}-2")
    lines = diverged_twice.imported("b", diverged_twice.export("a", "--all"))
    assert lines[0].endswith(": 1 updated, 1 taken off the list.")
    assert diverged_twice.copies("b") == diverged_twice.copies("a")


# -- convergence ------------------------------------------------------------------------

SIDES = st.sampled_from("ab")
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("hand"), SIDES, st.integers(0, 2)),
        st.tuples(st.just("undo"), SIDES),
        st.tuples(st.just("redo"), SIDES),
        st.tuples(st.just("combine"), SIDES),
        st.tuples(st.just("swap"), SIDES, st.booleans(), st.booleans()),
    ),
    max_size=8,
)
HANDS = (("gin", "ann", "3"), ("knock", "bob", "2", "9"), ("draw",))


@contextmanager
def laptops() -> Iterator[Folders]:
    root = Path(tempfile.mkdtemp())
    try:
        yield Folders(root)
    finally:
        shutil.rmtree(root)


def play(folders: Folders, steps: list[tuple[Any, ...]]) -> None:
    started(folders, "b")
    for step in steps:
        side, other = step[1], "b" if step[1] == "a" else "a"
        if step[0] == "hand":
            folders.run(side, *HANDS[step[2]], code=None)
        elif step[0] in ("undo", "redo"):
            folders.run(side, step[0], code=None)
        elif step[0] == "combine" and len(folders.ids(side)) > 1:
            first, second = folders.ids(side)[:2]
            folders.run(side, "matches", "combine", first, second, code=None)
        elif step[0] == "swap":
            every = ("--all",) if step[2] else ()
            replace = ("--replace",) if step[3] else ()
            folders.run(other, "import", str(folders.export(side, *every)), *replace)
    folders.run("b", "import", str(folders.export("a", "--all")))
    folders.run("a", "import", str(folders.export("b", "--all")))


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_one_final_exchange_leaves_both_folders_with_the_same_matches(
    steps: list[tuple[Any, ...]],
) -> None:
    with laptops() as folders:
        play(folders, steps)
        copies = folders.copies("a")
        assert copies == folders.copies("b")
        assert len(set(copies)) == len(copies)  # no two matches share a journal


def test_the_convergence_of_a_combine_on_each_side(folders: Folders, run: Run) -> None:
    play(
        folders,
        [
            ("hand", "a", 0),
            ("hand", "b", 1),
            ("swap", "a", False, False),
            ("swap", "b", False, False),
            ("combine", "a"),
            ("combine", "b"),
        ],
    )
    assert folders.copies("a") == folders.copies("b")
    assert len(folders.copies("a")) == 2


@pytest.fixture(scope="module")
def combined_file(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The file of a match that combined another copy of it."""
    folders = Folders(tmp_path_factory.mktemp("combined"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("hgin.scorekeeper.now_text", clock())
        combined(folders)
    return (folders.home("a") / "matches" / f"{ID}.json").read_bytes()


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=5), st.just([]), st.just({})
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_combine_is_refused_in_one_line(
    combined_file: bytes, run: Run, hgin_home: Path, data: st.DataObject
) -> None:
    match = json.loads(combined_file)
    combine = match["journal"][-1]
    path = data.draw(st.sampled_from(leaves(combine)))
    parent = combine
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = data.draw(JUNK)
    (hgin_home / "matches").mkdir(parents=True, exist_ok=True)
    (hgin_home / "matches" / f"{ID}.json").write_text(json.dumps(match), encoding="utf-8")
    result = run("show", "-m", ID)
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 1:
        assert result.stderr.startswith("hgin: ") and result.stderr.count("\n") == 1


# -- found in review ------------------------------------------------------------------------


def test_an_import_never_keeps_a_copy_under_an_id_it_takes_off_in_the_same_run(
    folders: Folders,
) -> None:
    started(folders, "b", "d")
    folders.run("a", "gin", "bob", "20")
    folders.run("b", "knock", "ann", "2", "30")
    folders.run("d", "draw")
    folders.imported("c", folders.export("d"))
    folders.imported("c", folders.export("a"))  # kept as ID-2
    folders.imported("a", folders.export("b"))  # b's kept as ID-2
    folders.imported("a", folders.export("d"))  # d's kept as ID-3
    folders.run("a", "matches", "combine", ID, f"{ID}-3")
    result = folders.run("c", "import", str(folders.export("a", "--all")), "--json")
    report = json.loads(result.stdout)
    kept = {k["id"] for k in report["kept"]}
    assert kept.isdisjoint(t["id"] for t in report["taken_off"])
    hands = [
        h["entered"] for match_id in folders.ids("c") for h in folders.show("c", match_id)["hands"]
    ]
    assert ("knock", "Ann", 2) in [
        (h["kind"], h.get("player"), h.get("deadwood")) for h in hands
    ]  # b's hand is on the list
    current = (folders.home("c") / "current").read_text().strip()
    assert current in folders.ids("c")


def test_combining_again_after_the_other_copy_went_on_counts_no_hand_twice(
    folders: Folders,
) -> None:
    combined(folders)
    folders.run("b", "draw")
    folders.imported("a", folders.export("b"))
    other = next(i for i in folders.ids("a") if i != ID)
    folders.run("a", "matches", "combine", ID, other)
    kinds = [h["entered"]["kind"] for h in folders.show("a", ID)["hands"]]
    assert kinds == ["gin", "knock", "gin", "knock", "draw"]


def test_rules_changed_on_each_copy_are_merged_rule_by_rule(folders: Folders) -> None:
    started(folders, "b")
    folders.run("a", "rules", "set", "target", "150")
    folders.run("b", "rules", "set", "gin-bonus", "20")
    folders.imported("a", folders.export("b"))
    folders.run("a", "matches", "combine", ID, f"{ID}-2")
    rules = json.loads(folders.run("a", "rules", "--json", "-m", ID).stdout)
    assert (rules["target"], rules["gin_bonus"]) == (150, 20)


def test_a_combine_redone_takes_the_other_copy_off_again_and_folders_converge(
    folders: Folders,
) -> None:
    combined(folders)
    folders.run("a", "undo")
    assert folders.ids("a") == [ID, f"{ID}-2"]
    said = folders.run("a", "redo").stdout
    assert f"{ID}-2 is taken off the list again: {ID} holds it" in " ".join(said.split())
    assert folders.ids("a") == [ID]
    folders.imported("c", folders.export("a", "--all"))
    folders.imported("a", folders.export("c", "--all"))
    assert folders.copies("a") == folders.copies("c")
    folders.run("a", "undo")  # straight after: both back, as after the combine's own undo
    assert folders.ids("a") == [ID, f"{ID}-2"]


def test_many_copies_of_one_match_are_named_three_and_counted(run: Run, hgin_home: Path) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    (stored,) = (hgin_home / "matches").glob("*.json")
    data = json.loads(stored.read_text(encoding="utf-8"))
    for n in range(2, 8):  # six more copies of it, as a sync tool's leftovers might be
        copy = {**data, "id": f"{data['id']}-{n}"}
        (stored.parent / f"{copy['id']}.json").write_text(json.dumps(copy), encoding="utf-8")
    first = data["id"]
    assert run("matches").stderr == (
        f"hgin: {first}, {first}-2, {first}-3 and 4 more are copies of one match that went "
        f"their own ways: 'hgin matches combine {first} {first}-2' makes them one\n"
    )


def test_a_restore_to_before_an_undone_combine_leaves_the_other_copy_on_the_list(
    folders: Folders,
) -> None:
    combined(folders)
    folders.run("a", "use", ID)
    folders.run("a", "draw")
    folders.run("a", "undo")
    folders.run("a", "undo")  # the combine: the other copy is back
    assert folders.ids("a") == [ID, f"{ID}-2"]
    folders.run("a", "restore", "2")  # before the combine
    assert folders.ids("a") == [ID, f"{ID}-2"]  # its hands are not in ours: it stays
