"""A match made straight from its hands, for the tests and benchmarks that need many."""

from __future__ import annotations

from hgin.engine.hands import Hand
from hgin.engine.journal import Change
from hgin.engine.match import Match
from hgin.engine.rules import Rules, check_rules


def start_match(
    match_id: str,
    players: tuple[str, str],
    rules: Rules,
    first_dealer: str,
    created: str,
    hands: tuple[Hand, ...] = (),
) -> Match:
    """A match whose journal records `hands` one by one."""
    check_rules(rules)
    journal = tuple(
        Change(number, hand.recorded_at or created, "record", "", {"hand": hand})
        for number, hand in enumerate(hands, 1)
    )
    return Match(match_id, players, rules, first_dealer, created, journal)
