"""Recorded matches shared by the history, statistics and export/import tests.

Five matches with mixed rule profiles, each started on its own day (the clock is faked so that
"most recent spelling" and "newest first" are certain). Every figure the tests pin is worked out
by hand in the comments below. They are recorded once per session through the real CLI
(`record_history`) and copied into each test's data folder (the `history` fixture in conftest).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hgin.cli import app


class Clock:
    """A fake `now_text`: the day is set per match, minutes tick on every call."""

    def __init__(self) -> None:
        self.day = 1
        self.ticks = 0

    def __call__(self) -> str:
        self.ticks += 1
        return f"2024-03-{self.day:02d}T10:{self.ticks % 60:02d}:00+01:00"


# (day, `hgin new` arguments, hands). Points worked out by hand:
MATCHES: list[tuple[int, tuple[str, ...], list[tuple[str, ...]]]] = [
    # M1 friendly, 3 games. Ann: 30, 43 (gin), 35, 27 (undercut) = 135, best 43.
    # Bob: 22, 55 (gin, entered nowhere), 45 (gin), 56 = 178, best 56. Games: Ann I, II; Bob III.
    # Winners in order (dead hand left out): A A B A A B B B -> streaks Ann 2, Bob 3.
    (
        1,
        ("new", "Ann", "Bob", "--dealer", "Bob"),
        [
            ("knock", "Ann", "4", "34"),
            ("draw",),
            ("gin", "Ann", "18"),
            ("knock", "Bob", "5", "27"),
            ("knock", "Ann", "3", "38"),
            ("knock", "Bob", "9", "7"),
            ("gin", "Bob", "30"),
            ("gin", "Bob", "20"),
            ("knock", "Bob", "2", "58"),
        ],
    ),
    # M2 classic, 3 games. ann: 65 (gin), 27 (undercut), 58, 20 = 170, best 65.
    # Cy: 35 (gin), 50 (gin, nowhere), 30, 75 (gin) = 190, best 75. Games: ann I, II; Cy III.
    # Winners: a a C a a C C C -> streaks ann 2, Cy 3.
    (
        2,
        ("new", "ann", "Cy", "--rules", "classic", "--dealer", "Cy"),
        [
            ("gin", "ann", "40"),
            ("knock", "cy", "5", "3"),
            ("gin", "cy", "10"),
            ("knock", "ann", "2", "60"),
            ("knock", "ann", "1", "21"),
            ("gin", "cy", "25"),
            ("knock", "cy", "3", "33"),
            ("gin", "cy", "50"),
        ],
    ),
    # M3 friendly, one game. Bob: 55 (gin), 25 (gin), 20 = 100, best 55.
    # Cy: 6, 27 (undercut) = 33, best 27. Bob wins the game.
    # Winners: B C (dead hand) C B B -> streaks Bob 2, Cy 2 (a dead hand does not break a run).
    (
        3,
        ("new", "Bob", "Cy", "--games", "1", "--dealer", "Bob"),
        [
            ("draw",),
            ("gin", "bob", "30"),
            ("knock", "cy", "4", "10"),
            ("draw",),
            ("knock", "bob", "10", "8"),
            ("gin", "bob", "0"),
            ("knock", "bob", "1", "21"),
        ],
    ),
    # M4 classic, one game. ANN: 75 (gin), 25 (gin) = 100, best 75.
    # Cy: 10, 25 (undercut on equal counts) = 35, best 25. ANN wins. Streaks ANN 1, Cy 2.
    (
        4,
        ("new", "Cy", "ANN", "--rules", "classic", "--games", "1", "--dealer", "ANN"),
        [
            ("gin", "ann", "50"),
            ("knock", "cy", "2", "12"),
            ("knock", "ann", "7", "7"),
            ("gin", "ann", "0"),
        ],
    ),
    # M5 friendly, still in play: never counted in the statistics.
    (9, ("new", "Dee", "Deb", "--dealer", "Dee"), [("gin", "dee", "10")]),
]

IDS = [
    "2024-03-09-dee-deb",
    "2024-03-04-cy-ann",
    "2024-03-03-bob-cy",
    "2024-03-02-ann-cy",
    "2024-03-01-ann-bob",
]


def record_history(home: Path) -> Path:
    """Record the five matches in the data folder `home` through the real CLI."""
    clock = Clock()
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("hgin.scorekeeper.now_text", clock)
        for day, new, hands in MATCHES:
            clock.day = day
            for args in (new, *hands):
                result = runner.invoke(app, list(args), env={"HGIN_HOME": str(home)})
                assert result.exit_code == 0, (args, result.output)
    return home
