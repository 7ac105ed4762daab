"""The one rule registry: every rule option is offered, explained and accepted the same way by
`hgin new`, `hgin series new`, `hgin rules save`, `hgin rules set` and the settings file."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hgin.engine.rules import NOT_ROLLING_GAMES, PROFILES, Rules, find_option, rule_options
from hgin.errors import HginError
from hgin.reports.rule_help import RULE_HELP
from tests.conftest import Run, flat
from tests.test_completion import ask

COMMANDS_WITH_RULE_FLAGS = (("new",), ("series", "new"), ("rules", "save"))


def help_text(run: Run, *command: str) -> str:
    result = run(*command, "--help")
    assert result.exit_code == 0, result.output
    return flat(result.stdout)


def test_the_registry_is_what_the_rules_hold(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    shown = json.loads(run("rules", "--json").stdout)
    assert [k for k in shown if k != "profile"] == [o.name for o in rule_options()]
    assert "stake" in shown  # a rule option, though not a rule of play
    classic = PROFILES["classic"]
    assert {o.name: o.default if o.classic is None else o.classic for o in rule_options()} == {
        k: v for k, v in classic._asdict().items() if k != "profile"
    }


@pytest.mark.parametrize("command", COMMANDS_WITH_RULE_FLAGS, ids=" ".join)
def test_every_option_is_in_the_help_with_the_one_help_text(run: Run, command: tuple[str]) -> None:
    text = help_text(run, *command)
    for option in rule_options():
        assert f"--{option.flag} " in text, (command, option.flag)
        assert flat(RULE_HELP[option.name]) in text, (command, option.flag)
        if option.kind == "switch":
            assert f"--{option.flag} / --no-{option.flag}" in text
        if option.kind == "choice":
            assert f"--{option.flag} {'|'.join(option.choices)} " in text


def other_value(option: Any) -> str:
    """A value to type that differs from the option's friendly default."""
    if option.kind == "switch":
        return "off" if option.default else "on"
    if option.kind == "choice":
        return str(next(c for c in option.choices if c != option.default))
    if option.kind == "number":
        return str(next(n for n in option.allowed or (option.default + 1,) if n != option.default))
    return "0.05"  # the stake, the one text option


@pytest.mark.parametrize("option", rule_options(), ids=lambda o: o.flag)
def test_every_option_is_taken_by_each_command(run: Run, show_json, option: Any) -> None:
    example = other_value(option)
    wanted = option.parse(example)
    flag = [f"--{option.flag}"] if option.kind == "switch" else [f"--{option.flag}", example]
    assert run("new", "Ann", "Bob", "--dealer", "Ann", *flag).exit_code == 0
    assert show_json()["rules"][option.name] == wanted
    assert run("rules", "save", "pub", *flag).exit_code == 0
    listed = json.loads(run("rules", "--list", "--json").stdout)
    assert listed["pub"][option.name] == wanted
    series = run("series", "new", "Cy", "Di", "--to", "500", "--dealer", "Cy", *flag)
    assert series.exit_code == 0, series.output
    assert show_json()["rules"][option.name] == wanted
    run("new", "Eve", "Fay", "--dealer", "Eve")
    result = run("rules", "set", option.flag, example)
    assert result.exit_code == 0, result.output
    assert f"Rule changed: {option.flag} " in result.stdout
    assert show_json()["rules"][option.name] == wanted


def test_a_series_starts_its_match_with_the_options_given(run: Run, show_json) -> None:
    result = run("series", "new", "A", "B", "--to", "500", "--gin-bonus", "20", "--dealer", "A")
    assert result.exit_code == 0, result.output
    assert show_json()["rules"]["gin_bonus"] == 20
    run("gin", "a", "18")
    assert show_json()["hands"][0]["points"] == 38


def test_rules_set_reads_names_and_values_through_the_registry(run: Run, show_json) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    for typed in ("dealer-rule", "dealer_rule", "DEALER-RULE"):
        assert find_option(typed).name == "dealer_rule"
    assert run("rules", "set", "Dealer_Rule", "Winner").exit_code == 0
    assert show_json()["rules"]["dealer_rule"] == "winner"
    result = run("rules", "set", "tie", "sometimes")
    assert result.exit_code == 1
    assert result.stderr == "hgin: tie must be one of undercut, knocker, not 'sometimes'\n"
    result = run("rules", "set", "oklahoma", "maybe")
    assert result.stderr == "hgin: oklahoma takes on or off, not 'maybe'\n"


def test_stored_rules_are_checked_by_each_entry() -> None:
    from hgin.engine.rules import rules_from_dict

    assert rules_from_dict({"gin_bonus": 20}) == Rules(gin_bonus=20)
    for data, message in [
        ({"gin_bonus": "20"}, "rule gin-bonus must be a whole number"),
        ({"gin_bonus": True}, "rule gin-bonus must be a whole number"),
        ({"straight": 1}, "rule straight must be on or off"),
        ({"tie": "never"}, "rule tie must be one of undercut, knocker, not 'never'"),
        ({"games": 4}, "rule games must be one of 1, 3, 5, not 4"),
        (
            {"oklahoma": True, "straight": True},
            "Oklahoma and Straight Gin cannot both be on: Straight Gin has no knocks",
        ),
        ({"rolling": True, "games": 5}, NOT_ROLLING_GAMES),
    ]:
        with pytest.raises(HginError) as refused:
            rules_from_dict(data)
        assert str(refused.value) == message


def test_a_text_option_reads_and_checks_its_values() -> None:
    """A rule option whose value is text (an amount, say) is read by its own function; a
    stored value is valid only as that function writes it."""
    from decimal import Decimal, InvalidOperation

    from hgin.engine.rules import RuleOption

    def amount(text: str) -> str | None:
        if text.lower() == "none":
            return None
        try:
            value = Decimal(text)
        except InvalidOperation:
            raise HginError(f"not an amount: '{text}'") from None
        return f"{value:.2f}"

    option = RuleOption("stake", None, "text", read=amount)
    assert option.kind == "text"
    assert option.parse(" 0.5 ") == "0.50"
    assert option.parse("none") is None
    assert option.check("0.50") == "0.50"
    assert option.check(None) is None
    with pytest.raises(HginError, match=r"not an amount: 'lots'"):
        option.parse("lots")
    with pytest.raises(HginError, match=r"stake must be text, not '0\.5'"):
        option.check("0.5")


def test_rules_set_completes_option_names_then_values(run: Run) -> None:
    assert ask("bash", "hgin rules set ") == [o.flag for o in rule_options()]
    assert ask("bash", "hgin rules set ga") == ["games", "game-bonus"]
    assert ask("bash", "hgin rules set Ti") == ["Tie"]
    assert ask("bash", "hgin rules set tie ") == ["undercut", "knocker"]
    assert ask("bash", "hgin rules set dealer-rule w") == ["winner"]
    assert ask("bash", "hgin rules set straight ") == ["on", "off"]
    assert ask("fish", "hgin rules set oklahoma o") == ["on", "off"]
    assert ask("bash", "hgin rules set target ") == []
    assert ask("bash", "hgin rules set colour ") == []


def test_the_label_of_changed_rules(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann", "--gin-bonus", "20", "--target", "250")
    assert run("rules").stdout.startswith("Rules of match ")
    assert "friendly, changed" in run("rules").stdout.splitlines()[0]
    assert "friendly rules, changed · 3 games to 250" in flat(run("show").stdout)
    run("new", "Cy", "Di", "--dealer", "Cy", "--rules", "classic", "--target", "250")
    assert run("rules").stdout.splitlines()[0].endswith(": classic")
    assert "classic rules · 3 games to 250" in flat(run("show").stdout)


def test_a_house_value_changes_a_profile_and_a_choice_or_the_stake_does_not() -> None:
    choices = {"target": 250, "games": 5, "rolling": True, "stake": "0.10"}
    for name, profile in PROFILES.items():
        assert (profile.label, profile._replace(**choices).label) == (name, name)
        assert profile._replace(gin_bonus=30).label == f"{name}, changed"
        other = PROFILES["classic" if name == "friendly" else "friendly"]
        for field in set(Rules._fields) - {"profile", *choices}:
            value = getattr(other, field)
            changed = value != getattr(profile, field)
            assert profile._replace(**{field: value}).changed is changed, field
    assert not Rules(profile="house", gin_bonus=30).changed  # no built-in profile to differ from
