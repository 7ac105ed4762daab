"""The numbers hgin prints, over random evenings typed through the real CLI (hypothesis).

Each example starts a match under one of several house rules, then types a random run of
gins, knocks, dead hands, edits, deletes, notices and undos. After every command the sheet
that `show --json` prints is checked against the rules as the README states them, worked out
from its own list of hands: each hand's award from what was entered; the games it enters;
every game's points as the sum of the hands entered there; a game closing exactly when a
player first reaches the target there, and nothing posted there after; the bonuses paid at a
close; the totals, wins, dealer and result; `settle --json` against the totals. A refused
command leaves the sheet as it was, and `undo` after any change gives back exactly the sheet
from before that change.
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hgin.cli import app

PLAYERS = ("Ann", "Bob")
HOUSE_RULES = (
    (),
    ("--rules", "classic"),
    ("--rules", "classic", "--games", "1", "--target", "250"),
    ("--rules", "classic", "--tie", "knocker"),
    ("--oklahoma",),
    ("--rules", "classic", "--straight"),
    ("--entry", "next-open", "--target", "50"),
    ("--rolling",),
    ("--rolling", "--rules", "classic", "--entry", "next-open"),
    ("--rules", "classic", "--oklahoma", "--oklahoma-ace", "one", "--big-gin-bonus", "31"),
    ("--rules", "classic", "--shutout", "double", "--dealer-rule", "loser", "--games", "5"),
    ("--decide", "net", "--redeal", "same", "--big-gin-bonus", "50", "--undercut-bonus", "10"),
)
UPCARDS = ("As", "3h", "5s", "7d", "10s", "Kc")
RULE_CHANGES = (
    ("target", "50"),
    ("target", "100"),
    ("undercut-bonus", "10"),
    ("gin-bonus", "20"),
    ("box-bonus", "25"),
    ("game-bonus", "0"),
    ("tie", "knocker"),
    ("tie", "undercut"),
    ("shutout", "none"),
)

player = st.sampled_from(["ann", "bob"])
upcard = st.sampled_from(UPCARDS)
deadwood = st.integers(0, 98) | st.integers(50, 98)  # often enough to close a game
hand = st.one_of(
    st.tuples(st.just("gin"), player, deadwood, upcard),
    st.tuples(st.just("big"), player, deadwood, upcard),
    st.tuples(st.just("knock"), player, st.integers(1, 11), deadwood, upcard),
    st.just(("draw",)),
)
step = st.one_of(
    hand,
    hand,
    hand,
    st.just(("undo",)),
    st.just(("redo",)),
    st.tuples(st.just("restore"), st.integers(0, 30)),
    st.tuples(st.just("rules"), st.sampled_from(RULE_CHANGES)),
    st.tuples(st.just("edit"), st.integers(0, 30), hand),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.just(("notice",)),
)


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def hand_args(typed: tuple[Any, ...], oklahoma: bool) -> list[str]:
    """A typed hand as the command line takes it (the upcard only in an Oklahoma match)."""
    if typed[0] == "draw":
        return ["draw"]
    kind, *words, card = typed
    args = ["knock" if kind == "knock" else "gin", *(str(word) for word in words)]
    return args + (["--big"] if kind == "big" else []) + (["--upcard", card] if oklahoma else [])


def rank(card: str) -> int:
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(card[:-1]) or int(card[:-1])


def award(rules: dict[str, Any], entered: dict[str, Any]) -> tuple[str | None, int]:
    """(winner, points) of a hand as entered, by the README's table."""
    if entered["kind"] == "draw":
        return None, 0
    me = entered["player"]
    other = PLAYERS[1] if me == PLAYERS[0] else PLAYERS[0]
    theirs, upcard = entered["opponent_deadwood"], entered.get("upcard")
    double = 2 if upcard is not None and upcard.endswith("♠") else 1
    if entered["kind"] == "gin":
        return me, (rules["gin_bonus"] + theirs) * double
    if entered["kind"] == "big_gin":
        assert rules["big_gin_bonus"] > 0
        return me, (rules["big_gin_bonus"] + theirs) * double
    mine = entered["deadwood"]
    limit = 10
    if upcard is not None:  # an ace: gin only, or knock with 1
        ace = 0 if rules["oklahoma_ace"] == "gin" else 1
        limit = ace if rank(upcard) == 1 else min(rank(upcard), 10)
    assert 1 <= mine <= limit and not rules["straight"]
    if mine < theirs or (mine == theirs and rules["tie"] == "knocker"):
        return me, (theirs - mine) * double
    return other, (mine - theirs + rules["undercut_bonus"]) * double


def check_sheet(data: dict[str, Any], notice_at: int | None) -> None:
    """Everything `show --json` says, worked out again from its list of hands."""
    rules, hands = data["rules"], data["hands"]
    target, rolling = rules["target"], rules["rolling"]
    games = {g["number"]: g for g in data["games"]}
    assert data["notice"] == (notice_at is not None)
    count = 3 if rolling else rules["games"]  # games on the sheet so far
    points: dict[int, dict[str, int]] = {}
    closed: dict[int, int] = {}  # game -> the hand that closed it
    entered_by: dict[str, set[int]] = {p: set() for p in PLAYERS}
    wins = dict.fromkeys(PLAYERS, 0)
    dealer = "Ann"
    for number, played in enumerate(hands, start=1):
        assert played["number"] == number
        assert played["dealer"] == dealer
        winner, won = award(rules, played["entered"])
        assert (played["winner"], played["points"]) == (winner, won)
        in_progress = [n for n in range(1, count + 1) if n not in closed]
        if winner is None:
            assert played["games"] == [] and played["win_number"] is None
            dealer = dealer if rules["redeal"] == "same" else other(dealer)
            continue
        wins[winner] += 1
        assert played["win_number"] == wins[winner]
        if rules["entry"] == "count":
            enters = [n for n in in_progress if n <= wins[winner]]
        else:
            fresh = [n for n in in_progress if n not in entered_by[winner]]
            enters = sorted({n for n in in_progress if n in entered_by[winner]} | set(fresh[:1]))
        entered_by[winner].update(enters)
        assert played["games"] == enters
        closes = []
        for n in enters:
            column = points.setdefault(n, dict.fromkeys(PLAYERS, 0))
            column[winner] += won
            if column[winner] >= target:
                closed[n] = number
                closes.append(n)
        assert played["closed"] == closes
        if rolling and (notice_at is None or number <= notice_at):
            count += len(closes)  # each close opens the next numbered game
        rule = rules["dealer_rule"]
        dealer = {"alternate": other(dealer), "winner": winner, "loser": other(winner)}[rule]
    assert sorted(games) == list(range(1, count + 1))
    assert data["dealer"] == dealer
    assert data["wins"] == wins
    for n, game in games.items():
        assert game["scores"] == points.get(n, dict.fromkeys(PLAYERS, 0))
        assert game["closed_by_hand"] == closed.get(n)
        posted = [h for h in hands if n in h["games"]]
        assert game["hands_won"] == {p: sum(h["winner"] == p for h in posted) for p in PLAYERS}
        assert all(h["number"] <= closed.get(n, len(hands)) for h in posted)
        check_bonuses(rules, game)
    totals = {p: sum(g["scores"][p] + g["bonuses"][p] for g in games.values()) for p in PLAYERS}
    assert data["totals"] == totals
    won = {p: sum(g["winner"] == p for g in games.values()) for p in PLAYERS}
    assert data["games_won"] == won
    assert data["finished"] == (len(closed) == count)
    if not data["finished"]:
        assert data["winner"] is None
    elif won["Ann"] != won["Bob"] and rules["decide"] == "majority":
        assert data["winner"] == max(PLAYERS, key=won.__getitem__)
    else:  # `net`, or a rolling match level in games: the larger sheet total
        assert rolling or rules["decide"] == "net"
        level = totals["Ann"] == totals["Bob"]
        assert data["winner"] == (None if level else max(PLAYERS, key=totals.__getitem__))


def other(name: str) -> str:
    return PLAYERS[1] if name == PLAYERS[0] else PLAYERS[0]


def check_bonuses(rules: dict[str, Any], game: dict[str, Any]) -> None:
    """Nothing before a close; at a close the game bonus to its winner and a box per hand won
    there to each player. When the loser has 0 there, `shutout bonus` doubles the game bonus,
    `shutout double` the winner's whole total in the game."""
    winner = game["winner"]
    if winner is None:
        assert game["bonuses"] == dict.fromkeys(PLAYERS, 0)
        return
    scores, shutout = game["scores"], rules["shutout"]
    assert scores[winner] >= rules["target"] > scores[other(winner)]
    shut_out = scores[other(winner)] == 0
    bonuses = {p: rules["box_bonus"] * game["hands_won"][p] for p in PLAYERS}
    bonuses[winner] += rules["game_bonus"] * (2 if shut_out and shutout == "bonus" else 1)
    if shut_out and shutout == "double":
        bonuses[winner] += scores[winner] + bonuses[winner]
    assert game["bonuses"] == bonuses


def check_settlement(data: dict[str, Any], settled: dict[str, Any]) -> None:
    """Each closed game's winner wins the difference of the totals there; the match settles
    at their sum, the difference of the sheet totals once every game is closed."""
    closed = [g for g in data["games"] if g["winner"] is not None]
    balance = 0
    for game, line in zip(closed, settled["games"], strict=True):
        totals = {p: game["scores"][p] + game["bonuses"][p] for p in PLAYERS}
        assert line["totals"] == totals
        assert line["difference"] == totals[game["winner"]] - totals[other(game["winner"])]
        balance += totals["Ann"] - totals["Bob"]
    assert settled["points"] == abs(balance)
    assert settled["payee"] == (None if balance == 0 else "Ann" if balance > 0 else "Bob")
    assert settled["complete"] == data["finished"]
    if data["finished"]:
        assert settled["points"] == abs(data["totals"]["Ann"] - data["totals"]["Bob"])


@settings(
    max_examples=20,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(house=st.sampled_from(HOUSE_RULES), steps=st.lists(step, min_size=1, max_size=16))
# A gin of exactly the target closes game I.
@example(house=(), steps=[("gin", "ann", 75, "As"), ("undo",), ("gin", "bob", 75, "As")])
# Deleting a hand played before the notice: the hand after the notice still opens no game.
@example(
    house=("--rolling",),
    steps=[
        ("knock", "ann", 3, 20, "As"),
        ("gin", "ann", 80, "As"),
        ("notice",),
        ("gin", "ann", 80, "As"),
        ("delete", 0),
        ("undo",),
    ],
)
# A tie won by the knocker under classic, then a shutout; an Oklahoma knock above the upcard.
@example(
    house=("--rules", "classic", "--tie", "knocker"),
    steps=[("knock", "bob", 7, 7, "As"), ("draw",), ("gin", "ann", 90, "As")],
)
# A classic match played out: boxes, a shutout, the settlement of the whole match.
@example(
    house=("--rules", "classic"),
    steps=[("gin", "bob", 10, "As"), *[("gin", "ann", 98, "As")] * 3, ("gin", "bob", 1, "As")],
)
@example(house=("--oklahoma",), steps=[("knock", "ann", 5, 3, "5s"), ("knock", "ann", 6, 20, "5s")])
@example(  # a restore to just after an undo: redo then redoes what that undo took back
    house=(),
    steps=[
        ("gin", "ann", 0, "As"),
        ("draw",),
        ("gin", "ann", 0, "As"),
        ("draw",),
        ("undo",),
        ("draw",),
        ("restore", 16),
        ("redo",),
    ],
)
def test_every_number_on_the_sheet_follows_the_rules(
    runner: CliRunner, house: tuple[str, ...], steps: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as home:

        def run(*args: str) -> int:
            result = runner.invoke(app, list(args), env={"HGIN_HOME": home})
            assert result.exit_code in (0, 1), (args, result.output)
            return result.exit_code

        def show() -> dict[str, Any]:
            result = runner.invoke(app, ["show", "--json"], env={"HGIN_HOME": home})
            data: dict[str, Any] = json.loads(result.stdout)
            return data

        assert run("new", *PLAYERS, "--dealer", "Ann", *house) == 0
        oklahoma = "--oklahoma" in house
        before, notice_at = show(), None
        # The sheet, the notice and what redo reaches after each change (a restore brings
        # back all three: the match exactly as it was then).
        history: list[tuple[dict[str, Any], int | None, list[Any]]] = [(before, notice_at, [])]
        # What each undo goes back to (with, for a restore, what redo reached before it), and
        # what each redo goes back to.
        earlier: list[tuple[dict[str, Any], int | None, list[Any] | None]] = []
        later: list[tuple[dict[str, Any], int | None]] = []
        for typed in steps:
            kind, hands = typed[0], len(before["hands"])
            if kind == "edit":
                args = ["edit", str(typed[1] % max(hands, 1) + 1), *hand_args(typed[2], oklahoma)]
            elif kind == "delete":
                args = ["delete", str(typed[1] % max(hands, 1) + 1)]
            elif kind == "restore":
                args = ["restore", str(typed[1] % max(len(history) - 1, 1) + 1)]
            elif kind == "rules":
                args = ["rules", "set", *typed[1]]
            elif kind in ("undo", "redo", "notice"):
                args = [kind]
            else:
                args = hand_args(typed, oklahoma)
            changed, notice_at_before = run(*args) == 0, notice_at
            after = show()
            if not changed:
                assert after == before, args
                continue
            if kind == "undo":
                expected, notice_at, redone = earlier.pop()
                later = [*later, (before, notice_at_before)] if redone is None else redone
            elif kind == "redo":
                expected, notice_at = later.pop()
                earlier.append((before, notice_at_before, None))
            elif kind == "restore":
                expected, notice_at, then_later = history[int(args[1])]
                earlier.append((before, notice_at_before, [*later, (expected, notice_at)]))
                later = list(then_later)
            else:
                expected = after
                earlier.append((before, notice_at, None))
                later.clear()
                if kind == "notice":
                    notice_at = hands
                elif kind == "delete" and notice_at is not None and int(args[1]) <= notice_at:
                    notice_at -= 1
            assert after == expected
            check_sheet(after, notice_at)
            before = after
            history.append((after, notice_at, list(later)))
        settled = runner.invoke(app, ["settle", "--json"], env={"HGIN_HOME": home})
        check_settlement(before, json.loads(settled.stdout))
