"""`hgin edit` and `hgin delete`: correct an earlier hand and re-score everything after it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.engine import editing
from hgin.engine.hands import Hand
from hgin.engine.match import Match
from hgin.engine.rules import PROFILES
from hgin.engine.sheet import replay
from hgin.errors import HginError
from tests.conftest import Run, flat, snapshot


@pytest.fixture
def four_hands(run: Run) -> None:
    """Ann v Bob: Bob knocks 4 v 20 (16), Ann gins v 10 (35), Ann knocks 3 v 38 (35), a draw."""
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    for hand in (("knock", "bob", "4", "20"), ("gin", "ann", "10"), ("knock", "ann", "3", "38")):
        assert run(*hand).exit_code == 0
    assert run("draw").exit_code == 0


def scores(data: dict) -> list[dict[str, int]]:
    return [g["scores"] for g in data["games"]]


def test_edit_rescores_every_later_hand(run: Run, show_json, four_hands: None) -> None:
    before = show_json()
    assert scores(before) == [{"Ann": 70, "Bob": 16}, {"Ann": 35, "Bob": 0}, {"Ann": 0, "Bob": 0}]
    result = run("edit", "1", "knock", "bob", "4", "2")
    assert result.exit_code == 0, result.stderr
    assert flat(result.stdout).endswith(
        "Hand 1 corrected: knock Bob 4 20 (Knock: Bob scores 20 − 4 = 16 in game I) → "
        "knock Bob 4 2 (Undercut: Ann scores 4 − 2 + 25 = 27 in game I)."
    )
    after = show_json()
    # Ann's gin and knock are now her wins 2 and 3, so they reach further along the sheet.
    assert scores(after) == [{"Ann": 97, "Bob": 0}, {"Ann": 70, "Bob": 0}, {"Ann": 35, "Bob": 0}]
    assert [h["games"] for h in after["hands"]] == [[1], [1, 2], [1, 2, 3], []]
    assert after["wins"] == {"Ann": 3, "Bob": 0}
    assert [h["dealer"] for h in after["hands"]] == ["Ann", "Bob", "Ann", "Bob"]
    recorded = [h["entered"]["recorded_at"] for h in before["hands"]]
    assert [h["entered"]["recorded_at"] for h in after["hands"]] == recorded


def test_edit_says_which_game_results_changed(run: Run, show_json, four_hands: None) -> None:
    run("delete", "4")
    result = run("edit", "3", "g", "a", "98")
    assert result.exit_code == 0, result.stderr
    assert flat(result.stdout).endswith(
        "Hand 3 corrected: knock Ann 3 38 (Knock: Ann scores 38 − 3 = 35 in games I and II) → "
        "gin Ann 98 (Gin: Ann scores 25 + 98 = 123 in games I and II; game I closes, Ann wins it; "
        "game II closes, Ann wins it); game I is now won by Ann (was open); game II is now won by "
        "Ann (was open)."
    )
    assert scores(show_json()) == [
        {"Ann": 158, "Bob": 16},
        {"Ann": 123, "Bob": 0},
        {"Ann": 0, "Bob": 0},
    ]


def test_edit_that_ends_the_match_before_a_later_hand_is_refused(
    run: Run, show_json, hgin_home, four_hands: None
) -> None:
    run("edit", "1", "knock", "bob", "4", "2")
    before = snapshot(hgin_home)
    result = run("edit", "3", "gin", "ann", "98")
    assert result.exit_code == 1
    assert result.stderr == (
        "hgin: cannot change hand 3: the match would then end at hand 3, but hand 4 was "
        "recorded after it (delete or change it first)\n"
    )
    assert snapshot(hgin_home) == before
    run("delete", "4")
    result = run("edit", "3", "gin", "ann", "98")
    assert result.exit_code == 0
    assert flat(result.stdout).endswith(
        "game I is now won by Ann (was open); game II is now won by Ann (was open); game III is "
        "now won by Ann (was open); the match is now over: Ann wins 3 games to 0."
    )
    data = show_json()
    assert scores(data) == [{"Ann": 185, "Bob": 0}, {"Ann": 158, "Bob": 0}, {"Ann": 123, "Bob": 0}]
    assert data["finished"] is True and data["winner"] == "Ann"


def test_several_later_hands_in_the_way_are_named(run: Run, hgin_home) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    for hand in (("gin", "a", "98"), ("gin", "a", "98"), ("draw",), ("draw",), ("gin", "a", "98")):
        run(*hand)
    before = snapshot(hgin_home)
    result = run("edit", "3", "gin", "a", "98")
    assert result.stderr == (
        "hgin: cannot change hand 3: the match would then end at hand 3, but hands 4 and 5 were "
        "recorded after it (delete or change them first)\n"
    )
    assert snapshot(hgin_home) == before


def test_editing_the_last_hand_can_open_a_finished_match_again(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    for _ in range(3):
        run("gin", "ann", "98")
    assert show_json()["finished"] is True
    result = run("edit", "3", "knock", "ann", "5", "11")
    assert flat(result.stdout).endswith(
        "game III is now open (was won by Ann); the match is open again."
    )
    assert show_json()["finished"] is False
    assert run("gin", "bob", "10").exit_code == 0


def test_delete_moves_later_hands_up_and_rescores(run: Run, show_json, four_hands: None) -> None:
    result = run("delete", "2")
    assert result.exit_code == 0, result.stderr
    assert flat(result.stdout).endswith(
        "Hand 2 deleted: gin Ann 10 (Gin: Ann scores 25 + 10 = 35 in game I); "
        "hands 3 and 4 are now 2 and 3."
    )
    data = show_json()
    assert [h["points"] for h in data["hands"]] == [16, 35, 0]
    assert [h["games"] for h in data["hands"]] == [[1], [1], []]
    assert scores(data) == [{"Ann": 35, "Bob": 16}, {"Ann": 0, "Bob": 0}, {"Ann": 0, "Bob": 0}]
    result = run("delete", "2")
    assert flat(result.stdout).endswith("; hand 3 is now hand 2.")


def test_edit_and_delete_set_undone_changes_aside(run: Run, four_hands: None) -> None:
    run("undo")
    assert "1 undone change set aside; see 'hgin log'." in flat(run("edit", "1", "draw").stdout)
    assert "restore 5" in run("redo").stderr  # the state after change 5 still had it undone
    run("undo")
    run("delete", "1")
    assert "'hgin restore 7' brings it back" in run("redo").stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["9", "draw"], "there is no hand 9: this match has hands 1 to 4"),
        (["0", "draw"], "there is no hand 0: this match has hands 1 to 4"),
        (["two", "draw"], "the hand number must be a whole number, not 'two'"),
        (["4", "draw"], "hand 4 is already draw: nothing to change"),
        (["1", "knock", "bob", "4", "20"], "hand 1 is already knock Bob 4 20: nothing to change"),
        (
            ["1", "knock", "bob", "11", "20"],
            "cannot change hand 1: the knocker's deadwood must be between 1 and 10, not 11",
        ),
        (["1", "knock", "carl", "4", "20"], "'carl' is not a player in this match (Ann or Bob)"),
        (
            ["1", "gin", "bob", "3", "--big"],
            "cannot change hand 1: big gin is not played in this match (see big-gin-bonus)",
        ),
        (
            ["1", "gin", "bob", "3", "-u", "7s"],
            "cannot change hand 1: an upcard is only entered in an Oklahoma match",
        ),
        (["1", "knock", "bob", "4"], "missing words for knock: type knock PLAYER MINE THEIRS"),
        (["1", "knock", "bob", "4", "20", "--big"], "--big goes with gin only"),
        (["4", "draw", "--upcard", "7s"], "a dead hand needs no upcard"),
        (
            ["1", "fold", "bob"],
            "'fold' is not a kind of hand: use gin|knock|draw, for example 'knock bob 4 20'",
        ),
    ],
)
def test_bad_edits_are_refused_and_change_nothing(
    run: Run, hgin_home, four_hands: None, args: list[str], message: str
) -> None:
    before = snapshot(hgin_home)
    result = run("edit", *args)
    assert (result.exit_code, result.stderr) == (1, f"hgin: {message}\n")
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("5", "there is no hand 5: this match has hands 1 to 4"),
        ("-1", "there is no hand -1: this match has hands 1 to 4"),
    ],
)
def test_bad_deletes_are_refused_and_change_nothing(
    run: Run, hgin_home, four_hands: None, number: str, message: str
) -> None:
    before = snapshot(hgin_home)
    result = run("delete", number)
    assert (result.exit_code, result.stderr) == (1, f"hgin: {message}\n")
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["edit", "3", "gin", "ann", "--bogus"], "no option --bogus"),
        (["edit", "3", "--bogus", "gin", "ann", "10"], "no option --bogus"),
        (["edit", "--bogus", "3", "gin", "ann", "10"], "no option --bogus"),
        (["edit", "1", "knock", "bob", "4", "20", "-x"], "no option -x"),
        (["edit", "1", "draw", "--bogus=1"], "no option --bogus=1"),
        (["edit", "1", "knock", "bob", "4", "20", "--dealer", "Ann"], "--dealer belongs to new"),
        (["delete", "1", "--bogus"], "no option --bogus"),
        (["delete", "1", "--bogus=1"], "no option --bogus=1"),
        (["delete", "1", "2"], "more words than it takes (2)"),
        (["delete", "--bogus"], "no option --bogus"),
    ],
)
def test_unknown_options_are_usage_errors_and_change_nothing(
    run: Run, hgin_home, four_hands: None, args: list[str], message: str
) -> None:
    (path,) = (hgin_home / "matches").glob("*.json")
    before, files = path.read_bytes(), snapshot(hgin_home)
    result = run(*args)
    assert result.exit_code == 2
    error, what_to_type = result.stderr.splitlines()  # two lines: the problem, the help
    assert error.startswith("hgin: ") and what_to_type.startswith("Try 'hgin ")
    assert message in error
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == before
    assert snapshot(hgin_home) == files


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # Words the entry itself takes reach it, a negative count too: the entry refuses them.
        (["1", "gin", "bob", "3", "-b"], "big gin is not played in this match"),
        (["1", "gin", "bob", "-3"], "the opponent's deadwood must be between 0 and 98, not -3"),
        (["1", "gin", "bob", "--hand", "-x"], "a correction takes the counts, not the cards"),
        (["1", "gin", "bob", "-o=7s"], "a correction takes the counts, not the cards"),
    ],
)
def test_an_entrys_own_options_still_reach_it(
    run: Run, hgin_home, four_hands: None, args: list[str], message: str
) -> None:
    before = snapshot(hgin_home)
    result = run("edit", *args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert snapshot(hgin_home) == before


def test_nothing_to_edit_in_a_new_match(run: Run) -> None:
    run("new", "Ann", "Bob")
    assert run("delete", "1").stderr == "hgin: there are no hands to change yet\n"
    assert run("edit", "1", "draw").stderr == "hgin: there are no hands to change yet\n"


def test_edit_with_oklahoma_upcard_and_another_match(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--oklahoma", "--dealer", "Ann")
    okla = show_json()["id"]
    run("knock", "ann", "3", "20", "--upcard", "9h")
    run("new", "Cy", "Di")
    result = run("edit", "1", "knock", "ann", "3", "20", "-u", "3s", "--match", okla)
    assert result.exit_code == 0, result.stderr
    assert "→ knock Ann 3 20 --upcard 3♠ (Knock: Ann scores (20 − 3) × 2 = 34" in flat(
        result.stdout
    )
    assert [h["points"] for h in show_json("--match", okla)["hands"]] == [34]
    assert show_json()["hands"] == []


# -- the library functions, on random matches ------------------------------------------------

PLAYERS = ("Ann", "Bob")
hands = st.lists(
    st.one_of(
        st.just(Hand("draw")),
        st.builds(
            lambda p, d: Hand("gin", p, None, d), st.sampled_from(PLAYERS), st.integers(0, 98)
        ),
        st.builds(
            lambda p, k, d: Hand("knock", p, k, d),
            st.sampled_from(PLAYERS),
            st.integers(1, 10),
            st.integers(0, 98),
        ),
    ),
    min_size=1,
    max_size=12,
)


def playable(typed: list[Hand]) -> Match:
    """The match of the hands up to the one that finishes it."""
    match = Match("m", PLAYERS, PROFILES["classic"], "Ann", "2026-01-01")
    for hand in typed:
        if match.sheet.finished:
            break
        match = editing.record(match, hand, AT)
    return match


AT = "2026-01-01T20:00:00+01:00"


def as_entry(hand: Hand) -> Hand:
    return Hand(hand.kind, hand.player, hand.deadwood, hand.opponent_deadwood, hand.upcard)


@settings(max_examples=60, deadline=None)
@given(hands, st.data())
def test_an_edit_undone_by_the_opposite_edit_restores_the_sheet(typed: list[Hand], data) -> None:
    match = playable(typed)
    number = data.draw(st.integers(1, len(match.hands)))
    old = match.hands[number - 1]
    new = data.draw(hands)[0]
    try:
        edited = editing.edit(match, number, as_entry(new), AT)
    except HginError:
        return  # refused: the same hand again, or a match that would end too soon
    restored = editing.edit(edited, number, as_entry(old), AT)
    assert restored.sheet == match.sheet
    assert restored.hands == match.hands


@settings(max_examples=60, deadline=None)
@given(hands, st.data())
def test_delete_is_the_match_replayed_without_that_hand(typed: list[Hand], data) -> None:
    match = playable(typed)
    number = data.draw(st.integers(1, len(match.hands)))
    rest = match.hands[: number - 1] + match.hands[number:]
    changed = editing.delete(match, number, AT)  # removing a hand never ends a match sooner
    assert changed.hands == rest
    assert changed.sheet == replay(PLAYERS, match.rules, "Ann", rest)
    assert editing.undo(changed, AT).hands == match.hands
