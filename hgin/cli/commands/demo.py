"""`hgin demo`: a sample match played in a throw-away folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from hgin.cli.application import app
from hgin.scorekeeper import Outcome, ScoreKeeper

# The friendly profile's worked example (30, then a gin against 18, then 35) in a whole match.
DEMO_HANDS: tuple[tuple[str, ...], ...] = (
    ("knock", "Ann", "4", "34"),
    ("draw",),
    ("gin", "Ann", "18"),
    ("knock", "Bob", "5", "27"),
    ("knock", "Ann", "3", "38"),
    ("knock", "Bob", "9", "7"),
    ("gin", "Bob", "30"),
    ("gin", "Bob", "20"),
    ("knock", "Bob", "2", "58"),
)


def play_demo_hand(keeper: ScoreKeeper, words: tuple[str, ...]) -> Outcome:
    kind, *rest = words
    if kind == "gin":
        return keeper.gin(rest[0], int(rest[1]))
    if kind == "knock":
        return keeper.knock(rest[0], int(rest[1]), int(rest[2]))
    return keeper.draw()


@app.command()
def demo(
    rules: Annotated[
        Literal["friendly", "classic"], typer.Option("--rules", "-r", help="The rules to play.")
    ] = "friendly",
) -> None:
    """Play a sample match in a throw-away folder; your own matches are not touched."""
    import tempfile

    from hgin.cli.render import print_lines, print_sheet, print_summary
    from hgin.engine.rules import PROFILES
    from hgin.reports.narrate import describe_new

    profile = PROFILES[rules]
    with tempfile.TemporaryDirectory(prefix="hgin-demo-") as folder:
        keeper = ScoreKeeper(Path(folder))
        print_lines([f"$ hgin new Ann Bob --rules {profile.profile} --dealer Bob"])
        match = keeper.new_match("Ann", "Bob", profile, dealer="Bob")
        print_sheet(match, [describe_new(match, chosen=True)])
        for words in DEMO_HANDS:
            print_lines(["", "$ hgin " + " ".join(words)])
            outcome = play_demo_hand(keeper, words)
            print_sheet(outcome.match, outcome.lines)
        print_lines(["", "$ hgin summary"])
        print_summary(keeper.load())
