"""Keystrokes per hand, one-shot commands against `hgin play`: python tests/bench/keystrokes.py

Counts every key typed, Enter included, for each way of entering the same hands of a match
between Ines and Oskar: the one-shot command with full names, the one-shot command with the
shortest player prefix, a `play` line with full words, and the shortest `play` line. The
shortest forms are worked out here (the command word's shortest accepted start, the shortest
unique start of the player's name) and then proven: each way is typed for real, through the
CLI in a throw-away HGIN_HOME, and must leave the very same sheet. The mix of a typical
evening (7 knocks, 2 gins, 1 dead hand in 10 hands) gives the mean per hand.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from typer.testing import CliRunner

from hgin.cli import app
from hgin.engine.match import resolve_player
from hgin.errors import HginError
from hgin.play.parser import COMMANDS, parse_line

PLAYERS = ("Ines", "Oskar")
# (kind, player, counts...) and how often it happens in ten hands
HANDS: list[tuple[tuple[str, ...], int]] = [
    (("knock", "Oskar", "7", "12"), 7),
    (("gin", "Ines", "18"), 2),
    (("draw",), 1),
]


def shortest_player(name: str) -> str:
    """The shortest start of `name` that still means only that player."""
    for end in range(1, len(name) + 1):
        typed = name[:end].lower()
        try:
            if resolve_player(PLAYERS, typed) == name:
                return typed
        except HginError:
            continue  # too short: it could be either player
    return name


def shortest_word(name: str) -> str:
    return next(w.shortest for w in COMMANDS if w.name == name)


def ways(hand: tuple[str, ...]) -> dict[str, str]:
    """The same hand typed four ways (without the Enter key)."""
    kind, *rest = hand
    full = " ".join(hand)
    short_names = [shortest_player(w) if w in PLAYERS else w for w in rest]
    return {
        "one-shot, full names": f"hgin {full}",
        "one-shot, shortest names": " ".join(["hgin", kind, *short_names]),
        "play, full words": full,
        "play, shortest": " ".join([shortest_word(kind), *short_names]),
    }


def keys(line: str) -> int:
    return len(line) + 1  # the Enter key


def sheet_after(lines: list[str], play: bool) -> dict[str, Any]:
    """Type `lines` into a fresh match, through the CLI, and return `show --json`."""
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as home:
        os.environ["HGIN_HOME"] = home
        assert runner.invoke(app, ["new", *PLAYERS, "--dealer", "Ines"]).exit_code == 0
        if play:
            script = "".join(f"{line}\n" for line in lines)
            result = runner.invoke(app, ["play"], input=script)
            assert result.exit_code == 0, result.output
        for line in [] if play else lines:
            result = runner.invoke(app, shlex.split(line)[1:])
            assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(runner.invoke(app, ["show", "--json"]).stdout)
    data.pop("id")
    for hand in data["hands"]:
        hand["entered"].pop("recorded_at")
    return data


def main() -> None:
    names = list(ways(HANDS[0][0]))
    rows = {name: [ways(hand)[name] for hand, _ in HANDS] for name in names}
    for line in rows["play, shortest"]:
        assert parse_line(line) is not None
    evening = [hand for hand, times in HANDS for _ in range(times)]
    sheets = []
    for name in names:
        typed = [ways(hand)[name] for hand in evening]
        sheets.append(sheet_after(typed, play=name.startswith("play")))
    assert all(sheet == sheets[0] for sheet in sheets), "the four ways disagree"

    total = sum(times for _, times in HANDS)
    print("| way | knock | gin | dead hand | mean per hand (7 knocks, 2 gins, 1 draw) |")
    print("|---|---|---|---|---|")
    for name in names:
        counts = [keys(line) for line in rows[name]]
        mean = sum(c * times for c, (_, times) in zip(counts, HANDS, strict=True)) / total
        shown = [f"`{line}` {count}" for line, count in zip(rows[name], counts, strict=True)]
        print(f"| {name} | {' | '.join(shown)} | {mean:.1f} |")
    print()
    print("Keys include Enter. All four ways left the same sheet (checked through the CLI).")


if __name__ == "__main__":
    main()
