"""Settling up: game by game, in points and at a stake, through the real CLI.

The matches below are played out by hand in the comments, so every number can be checked
against the rules without running anything.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.engine.hands import Hand
from hgin.engine.money import amount, parse_stake, stake_text
from hgin.engine.rules import Rules, check_rules
from hgin.engine.settle import settle
from hgin.engine.sheet import replay
from hgin.errors import HginError
from tests.conftest import Run, flat, snapshot
from tests.test_engine_properties import PLAYERS, hand_strategy, playable, rules_strategy

# Ann 55 in I; Bob 15 in I; Ann 110 closes I and 55 in II; Bob 105 closes II (his second
# win); Ann 75 in III; Ann 110 closes III, Bob never entered it.
HANDS = (
    ("gin", "ann", "30"),
    ("knock", "bob", "5", "20"),
    ("gin", "ann", "30"),
    ("gin", "bob", "80"),
    ("gin", "ann", "50"),
    ("gin", "ann", "10"),
)


def play(run: Run, *new: str, hands: tuple[tuple[str, ...], ...] = HANDS) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "ann", *new).exit_code == 0
    for hand in hands:
        result = run(*hand)
        assert result.exit_code == 0, result.output


@pytest.fixture
def played(prepared: Callable[..., Path]) -> None:
    """The friendly match of HANDS (what `play(run)` records), recorded once and copied in."""
    prepared(("new", "Ann", "Bob", "--dealer", "ann"), *HANDS)


def settled(run: Run, *args: str) -> dict[str, Any]:
    result = run("settle", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def differences(data: dict[str, Any]) -> list[tuple[int, str, int]]:
    return [(g["number"], g["winner"], g["difference"]) for g in data["games"]]


def test_classic_with_a_shutout(run: Run) -> None:
    # I: Ann 110 + 100 game + 2 boxes = 260, Bob 15 + 1 box = 40: Ann +220.
    # II: Bob 105 + 100 + 25 = 230, Ann 55 + 25 = 80: Bob +150.
    # III: Ann 110 + 200 (Bob shut out: game bonus doubled) + 50 = 360, Bob 0: Ann +360.
    play(run, "--rules", "classic")
    data = settled(run, "--stake", "0.05")
    assert differences(data) == [(1, "Ann", 220), (2, "Bob", 150), (3, "Ann", 360)]
    assert data["games"][2]["totals"] == {"Ann": 360, "Bob": 0}
    assert (data["points"], data["payer"], data["payee"]) == (430, "Bob", "Ann")
    assert (data["stake"], data["amount"], data["open"]) == ("0.05", "21.50", [])
    totals = json.loads(run("show", "--json").stdout)["totals"]
    assert totals == {"Ann": 700, "Bob": 270}  # 700 - 270 = 430


def test_classic_with_the_doubling_shutout(run: Run) -> None:
    # III under `--shutout double`: Ann 110 + 100 game + 50 boxes = 260, doubled: 520.
    play(run, "--rules", "classic", "--shutout", "double")
    data = settled(run, "--stake", "0.10")
    assert differences(data) == [(1, "Ann", 220), (2, "Bob", 150), (3, "Ann", 520)]
    assert (data["points"], data["amount"]) == (590, "59.00")


def test_the_title_keeps_match_and_identifier_together_at_forty_columns(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    new = ("new", "Christabel-Annabelle", "Bartholomew-Montgomery", "--games", "1")
    assert run(*new, "--target", "50").exit_code == 0
    assert run("gin", "chr", "40").exit_code == 0
    match_id = json.loads(run("show", "--json").stdout)["id"]
    assert run("settle").stdout.splitlines()[:4] == [
        "Christabel-Annabelle v",
        "Bartholomew-Montgomery",
        f"match {match_id}",
        "Game I: Christabel-Annabelle wins 65 (65",
    ]


def test_friendly_text(run: Run) -> None:
    # I: Ann 110 v 15; II: Bob 105 v 55; III: Ann 110 v 0.
    play(run)
    result = run("settle", "--stake", "0.1", "--currency", "EUR")
    assert result.exit_code == 0, result.output
    match_id = json.loads(run("show", "--json").stdout)["id"]
    assert result.stdout.splitlines() == [
        f"Ann v Bob · match {match_id}",
        "Game I: Ann wins 95 (110 to 15).",
        "Game II: Bob wins 50 (105 to 55).",
        "Game III: Ann wins 110 (110 to 0).",
        "Bob pays Ann 155 points × 0.10 = 15.50 EUR.",
    ]


def test_an_unfinished_match_settles_its_closed_games(run: Run) -> None:
    play(run, "--rules", "classic", hands=HANDS[:5])
    data = settled(run, "--stake", "0.05")
    assert differences(data) == [(1, "Ann", 220), (2, "Bob", 150)]
    assert (data["points"], data["payer"], data["amount"], data["open"]) == (70, "Bob", "3.50", [3])
    assert data["complete"] is False
    text = flat(run("settle", "--stake", "0.05").stdout)
    assert "Game III is still open: it settles once closed." in text
    assert "So far Bob pays Ann 70 points × 0.05 = 3.50." in text


def test_nothing_closed_yet(run: Run) -> None:
    play(run, hands=HANDS[:2])
    data = settled(run, "--stake", "1")
    assert (data["points"], data["payer"], data["payee"], data["amount"]) == (0, None, None, "0.00")
    assert data["open"] == [1, 2, 3]
    text = flat(run("settle").stdout)
    assert "Games I, II and III are still open" in text
    assert "No game is closed yet: nothing to settle." in text


# Ann 100 closes I against nothing; Bob's first win enters only the closed I; Bob 60 in II,
# Ann 50 in II; Bob 100 closes II (+50) and 40 in III; Ann 50 in III; Bob 100 closes III (+50).
LEVEL = (
    ("gin", "ann", "75"),
    ("gin", "bob", "35"),
    ("gin", "bob", "35"),
    ("gin", "ann", "25"),
    ("gin", "bob", "15"),
    ("gin", "ann", "25"),
    ("gin", "bob", "35"),
)


def test_level_totals_nobody_pays(run: Run) -> None:
    play(run, hands=LEVEL)
    data = settled(run, "--stake", "0.25")
    assert differences(data) == [(1, "Ann", 100), (2, "Bob", 50), (3, "Bob", 50)]
    assert (data["points"], data["payer"], data["payee"], data["amount"]) == (0, None, None, "0.00")
    assert json.loads(run("show", "--json").stdout)["totals"] == {"Ann": 200, "Bob": 200}
    assert "The closed games are level: nobody pays." in flat(run("settle").stdout)


@pytest.mark.usefixtures("played")
def test_no_stake_is_points_only_and_says_how_to_give_one(run: Run) -> None:
    data = settled(run)
    assert (data["points"], data["stake"], data["amount"], data["currency"]) == (
        155,
        None,
        None,
        None,
    )
    text = flat(run("settle").stdout)
    assert "Bob pays Ann 155 points." in text
    assert "No stake known" in text and "--stake 0.05" in text


def test_five_games(run: Run) -> None:
    # Win n of Ann's enters games I to n: after five wins of 55, I to IV hold 110 each
    # (closed) and V holds 55 (open).
    hands = tuple(("gin", "ann", "30") for _ in range(5))
    play(run, "--games", "5", hands=hands)
    data = settled(run, "--stake", "0.01")
    assert differences(data) == [(n, "Ann", 110) for n in (1, 2, 3, 4)]
    assert data["open"] == [5]
    assert (data["points"], data["amount"]) == (440, "4.40")


@pytest.mark.parametrize(
    ("stake", "expected"),
    [
        ("0.05", ("0.05", "7.75")),
        (".5", ("0.50", "77.50")),
        ("2", ("2.00", "310.00")),
        ("0.0025", ("0.0025", "0.39")),  # 155 × 0.0025 = 0.3875, rounded half up
        ("0.0030", ("0.003", "0.47")),  # 0.465 rounds up, not to the even 0.46
        ("0", ("0.00", "0.00")),
        (" 1000 ", ("1000.00", "155000.00")),
    ],
)
@pytest.mark.usefixtures("played")
def test_stakes(run: Run, stake: str, expected: tuple[str, str]) -> None:
    data = settled(run, "--stake", stake)
    assert (data["stake"], data["amount"]) == expected


@pytest.mark.parametrize(
    "stake",
    ["-0.05", "nan", "NaN", "inf", "Infinity", "1e3", "1E-2", "0x10", "1_000", "0.00001",
     "1000.01", "", "five", "٠.٥", "+1", "0,05", "1.2.3"],
)  # fmt: skip
@pytest.mark.usefixtures("played")
def test_bad_stakes_are_refused(run: Run, hgin_home: Path, stake: str) -> None:
    before = snapshot(hgin_home)
    result = run("settle", "--stake", stake)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("hgin: ") and len(result.stderr.splitlines()) == 1
    assert snapshot(hgin_home) == before


@pytest.mark.usefixtures("played")
def test_a_comma_gets_a_hint(run: Run) -> None:
    assert "decimal point: 0.05" in run("settle", "--stake", "0,05").stderr


@pytest.mark.usefixtures("played")
def test_bad_currency_is_refused(run: Run) -> None:
    assert run("settle", "--currency", "x" * 13).exit_code == 1
    assert run("settle", "--currency", "\x1b[31m").exit_code == 1


def test_no_match(run: Run) -> None:
    result = run("settle")
    assert result.exit_code == 1
    assert "no match yet" in result.stderr


# -- the engine ----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(rules_strategy, st.lists(hand_strategy, max_size=40), st.integers(0, 100_000))
def test_settlement_properties(rules: Rules, hands: list[Hand], cents: int) -> None:
    check_rules(rules)
    sheet = replay(PLAYERS, rules, "Ann", playable(rules, hands))
    stake = Decimal(cents) / 100
    result = settle(sheet, stake)
    first, second = PLAYERS
    balance = sum((g.difference if g.winner == first else -g.difference) for g in result.games)
    assert result.points == abs(balance)
    if sheet.finished:
        assert balance == sheet.totals[first] - sheet.totals[second]
        assert result.open_games == ()
    assert [g.number for g in result.games] + list(result.open_games) == sorted(
        g.number for g in sheet.games
    )
    if result.payer is None:
        assert result.payee is None and result.points == 0
    else:
        assert result.payer != result.payee
        assert {result.payer, result.payee} == set(PLAYERS)
        assert result.net(result.payee) == result.points == -result.net(result.payer)
    assert result.amount == Decimal(result.points) * stake  # two decimals: nothing to round


@given(st.integers(0, 10**7), st.integers(0, 10_000_000))
def test_amount_is_exact_then_half_up(points: int, ten_thousandths: int) -> None:
    stake = parse_stake(stake_text(Decimal(ten_thousandths) / 10_000))
    assert stake == Decimal(ten_thousandths) / 10_000
    exact = Decimal(points) * stake
    money = amount(points, stake)
    assert abs(money - exact) <= Decimal("0.005")
    assert money.as_tuple().exponent == -2
    if (exact * 100) % 1 == Decimal("0.5"):
        assert money > exact


def test_parse_stake_refuses_exponents_even_when_decimal_would_take_them() -> None:
    for text in ("1e2", "sNaN", "-0", "0.00005"):
        with pytest.raises(HginError):
            parse_stake(text)
    assert parse_stake("1.0000") == Decimal(1)


# -- the stake kept with a match, in the summaries and the statistics -----------------------


def csv_rows(run: Run) -> list[list[str]]:
    import csv
    import io

    return list(csv.reader(io.StringIO(run("summary", "-f", "csv").stdout)))


def test_summaries_settle_at_the_match_stake(run: Run) -> None:
    play(run, "--rules", "classic")
    assert run("rules", "set", "stake", "0.05").exit_code == 0
    payment = "Bob pays Ann 430 points × 0.05 = 21.50."
    text = run("summary").stdout
    assert "Settling up" in text and payment in flat(text)
    assert "Game III: Ann wins 360 (360 to 0)." in text
    assert f"- {payment}" in run("summary", "-f", "markdown").stdout
    page = run("summary", "-f", "html").stdout
    assert '<section id="settlement" class="settlement">' in page
    assert f"<p>{payment}</p>" in page
    data = json.loads(run("summary", "-f", "json").stdout)
    assert data["settlement"]["amount"] == "21.50"
    assert differences(data["settlement"]) == [(1, "Ann", 220), (2, "Bob", 150), (3, "Ann", 360)]
    rows = csv_rows(run)
    assert rows[0][-2:] == ["Settled Ann", "Settled Bob"]
    # After each hand: what the games closed by then settle at (I after hand 3, II after 4).
    settled = [row[-2:] for row in rows[1:]]
    assert settled == [
        ["0.00", "0.00"],
        ["0.00", "0.00"],
        ["11.00", "-11.00"],
        ["3.50", "-3.50"],
        ["3.50", "-3.50"],
        ["21.50", "-21.50"],
    ]


@pytest.mark.usefixtures("played")
def test_summaries_without_a_stake_say_nothing_of_money(run: Run) -> None:
    assert "Settling up" not in run("summary").stdout
    assert "Settling up" not in run("summary", "-f", "markdown").stdout
    assert 'id="settlement"' not in run("summary", "-f", "html").stdout
    assert json.loads(run("summary", "-f", "json").stdout)["settlement"] is None
    assert not any(cell.startswith("Settled") for cell in csv_rows(run)[0])


def test_a_stake_changes_no_score(run: Run, hgin_home: Path) -> None:
    play(run, "--rules", "classic", hands=HANDS[:5])
    (path,) = (hgin_home / "matches").glob("*.json")
    # Without a stake the file is written as before stakes existed.
    assert '"stake"' not in path.read_text(encoding="utf-8")
    before = json.loads(run("show", "--json").stdout)
    result = run("rules", "set", "stake", "0.1")
    assert result.exit_code == 0, result.output
    assert "Rule changed: stake none → 0.10; no score changes." in flat(result.stdout)
    after = json.loads(run("show", "--json").stdout)
    assert after.pop("rules")["stake"] == "0.10"
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["journal"][-1]["new"] == {"stake": "0.10"}  # a change in the journal
    assert stored["sheet"]["rules"]["stake"] == "0.10"
    before.pop("rules")
    assert after == before
    assert settled(run)["amount"] == "7.00"  # 70 points at the match's 0.10
    assert settled(run, "--stake", "0.01")["amount"] == "0.70"  # --stake wins
    assert json.loads(run("rules", "--json").stdout)["stake"] == "0.10"
    unchanged = snapshot(hgin_home)
    for bad in ("nan", "1e2", "0.123456", "1001"):
        refused = run("rules", "set", "stake", bad)
        assert refused.exit_code == 1 and refused.stderr.startswith("hgin: ")
    assert run("rules", "set", "stake", "--", "-1").exit_code == 1
    assert snapshot(hgin_home) == unchanged
    assert run("rules", "set", "stake", "none").exit_code == 0
    assert settled(run)["stake"] is None


def test_stats_net_amount_won_across_matches(run: Run) -> None:
    # 1: classic, Bob pays Ann 430 points at 0.05 = 21.50.
    play(run, "--rules", "classic")
    assert run("rules", "set", "stake", "0.05").exit_code == 0
    # 2: friendly, Bob's four gins of 55 close I, II and III at 110 to 0: Ann pays 330
    # points at 0.10 = 33.00.
    play(run, hands=tuple(("gin", "bob", "30") for _ in range(4)))
    assert run("rules", "set", "stake", "0.10").exit_code == 0
    # 3: no stake: counts in the other figures, not in the money.
    play(run, hands=HANDS)
    data = json.loads(run("stats", "--json").stdout)
    assert data["players"]["Ann"]["net_won"] == "-11.50"
    assert data["players"]["Bob"]["net_won"] == "11.50"
    assert data["players"]["Ann"]["matches"] == 3
    assert data["pairs"][0]["net_won"] == {"Ann": "-11.50", "Bob": "11.50"}
    text = flat(run("stats").stdout)
    assert "Won at the stakes: Ann -11.50 (2 matches), Bob +11.50 (2 matches)." in text
    page = run("stats", "-f", "html").stdout
    assert "Won at the stakes: Ann -11.50 (2 matches), Bob +11.50 (2 matches)." in page


def test_new_keeps_a_stake_with_the_match(run: Run) -> None:
    play(run, "--rules", "classic", "--stake", ".5")
    data = settled(run)
    assert (data["stake"], data["amount"]) == ("0.50", "215.00")
    text = flat(run("settle").stdout)
    assert "Bob pays Ann 430 points × 0.50 = 215.00." in text
    assert "Stake: the match's own" in text
    assert "No stake known" not in text
    # A stake is not a rule of play: the rules are still plain classic.
    assert json.loads(run("summary", "-f", "json").stdout)["rules_label"].startswith(
        "classic rules"
    )
    result = run("rules", "set", "stake", "0.05")
    assert result.exit_code == 0
    assert "Rule changed: stake 0.50 → 0.05; no score changes." in flat(result.stdout)
    assert settled(run)["amount"] == "21.50"


@pytest.mark.usefixtures("played")
def test_the_config_stake_is_the_default(run: Run, hgin_home: Path) -> None:
    # The match was recorded before the settings file: no stake kept with it.
    first = json.loads(run("show", "--json").stdout)["id"]
    config = hgin_home / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('stake = "0.02"\n', encoding="utf-8")
    data = settled(run)
    assert (data["stake"], data["amount"]) == ("0.02", "3.10")  # 155 points
    assert "Stake: the default in config.toml" in flat(run("settle").stdout)
    # A new match keeps the default as its own stake; the first match still has none.
    play(run)
    assert json.loads(run("rules", "--json").stdout)["stake"] == "0.02"
    assert json.loads(run("rules", "--json", "--match", first).stdout)["stake"] is None
    assert "Stake: the match's own" in flat(run("settle").stdout)
    assert settled(run, "--stake", "1")["amount"] == "155.00"
    config.write_text('stake = "0.001234"\n', encoding="utf-8")
    refused = run("settle", "--match", first)
    assert refused.exit_code == 1 and "config.toml" in refused.stderr


def test_a_preset_can_carry_a_stake(run: Run) -> None:
    assert run("rules", "save", "pub", "--base", "classic", "--stake", "0.25").exit_code == 0
    play(run, "--rules", "pub")
    assert settled(run)["amount"] == "107.50"  # 430 × 0.25


def test_boxes_can_give_the_loser_of_a_game_the_larger_total(run: Run) -> None:
    # Four knocks of 1 point by Ann (four boxes of 50 in game I), then Bob's gin of 123
    # closes game I: Bob 123 + 50 = 173, Ann 4 + 200 = 204. The difference goes to Ann.
    hands = (*(("knock", "ann", "1", "2") for _ in range(4)), ("gin", "bob", "98"))
    play(run, "--box-bonus", "50", hands=hands)
    data = settled(run, "--stake", "0.10")
    assert differences(data) == [(1, "Bob", -31)]
    assert data["games"][0]["totals"] == {"Ann": 204, "Bob": 173}
    assert (data["points"], data["payer"], data["payee"], data["amount"]) == (
        31,
        "Bob",
        "Ann",
        "3.10",
    )
    text = flat(run("settle").stdout)
    assert "Game I: won by Bob, but Ann has the larger total and wins 31 (204 to 173)." in text
