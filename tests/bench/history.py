"""Benchmark the history commands: python tests/bench/history.py [--matches N] [--rounds R]

Generates a data folder with N finished matches (default 3000; random hands under a fixed seed,
friendly and classic, three games and one, names in varying capitals), written straight into
matches/ as Store would write them. Then times, as whole processes of the installed `hgin`:

    matches        cold (no cache.json yet) and warm (cache built)
    matches --player / --finished   warm
    stats          cold (no stats cache yet) and warm; --json and --format html warm
    export --all   every match loaded, validated and written to one file
    import         into an empty folder (every match new), and again (every match identical)

and prints the medians in milliseconds, with `python -c "import typer, rich.console,
rich.table"` (the floor of any drawing command) for scale. Not a test: pytest does not collect
this folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hgin.engine.hands import Hand  # noqa: E402
from hgin.engine.identifiers import slug  # noqa: E402
from hgin.engine.match import Match  # noqa: E402
from hgin.engine.rules import PROFILES, Rules  # noqa: E402
from hgin.engine.sheet import empty_sheet, extend  # noqa: E402
from hgin.store.schema import file_bytes  # noqa: E402
from tests.match_data import start_match  # noqa: E402

SEED = 20240612
NAMES = ("Ann", "ann", "Bob", "Carla", "Dmitri", "Ines", "INES", "Oskar", "Zoë", "Mei", "Lu", "Pat")
FLOOR = [sys.executable, "-c", "import typer, rich.console, rich.table"]


def random_hand(chooser: random.Random, players: tuple[str, str]) -> Hand:
    roll = chooser.random()
    player = chooser.choice(players)
    if roll < 0.08:
        return Hand("draw")
    if roll < 0.35:
        return Hand("gin", player, None, chooser.randint(0, 60))
    return Hand("knock", player, chooser.randint(1, 10), chooser.randint(0, 60))


def random_match(chooser: random.Random, number: int, day: int) -> Match:
    first, second = chooser.sample(NAMES, 2)
    while first.casefold() == second.casefold():
        first, second = chooser.sample(NAMES, 2)
    players = (first, second)
    profile = PROFILES["classic" if number % 2 else "friendly"]
    rules = Rules(**{**profile._asdict(), "games": 1}) if number % 5 == 0 else profile
    created = f"2020-01-01T{number % 24:02d}:00:00+00:00"
    created = time.strftime("%Y-%m-%d", time.gmtime(1577836800 + day * 86400)) + created[10:]
    sheet = empty_sheet(players, rules, first)
    hands: list[Hand] = []
    while not sheet.finished:
        hand = random_hand(chooser, players)
        sheet = extend(sheet, [hand])
        hands.append(hand)
    match_id = f"{created[:10]}-{slug(first)}-{slug(second)}-{number}"
    return start_match(match_id, players, rules, first, created, tuple(hands))


def generate(home: Path, count: int) -> int:
    """Write `count` finished matches into home/matches; returns the number of hands."""
    chooser = random.Random(SEED)
    folder = home / "matches"
    folder.mkdir(parents=True, exist_ok=True)
    hands = 0
    for number in range(1, count + 1):
        match = random_match(chooser, number, number // 3)
        (folder / f"{match.id}.json").write_bytes(file_bytes(match))
        hands += len(match.hands)
    return hands


def hgin_command() -> list[str]:
    beside = Path(sys.executable).with_name("hgin")
    return [str(beside)] if beside.exists() else ["hgin"]


def timed(args: list[str], env: dict[str, str], before: Callable[[], None] | None = None) -> float:
    if before is not None:
        before()
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, check=False)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr.decode()}")
    return elapsed


def median(
    args: list[str], env: dict[str, str], rounds: int, before: Callable[[], None] | None = None
) -> float:
    return statistics.median(timed(args, env, before) for _ in range(rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    hgin = hgin_command()
    work = Path(tempfile.mkdtemp(prefix="hgin-bench-history-"))
    try:
        home = work / "home"
        start = time.perf_counter()
        hands = generate(home, options.matches)
        made = time.perf_counter() - start
        print(f"Generated {options.matches} finished matches ({hands} hands) in {made:.1f} s.")
        env = {**os.environ, "HGIN_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100"}
        rounds = options.rounds

        def drop(name: str) -> Callable[[], None]:
            return lambda: (home / name).unlink(missing_ok=True)

        results: list[tuple[str, float]] = []
        results.append(("floor: import typer, rich", median(FLOOR, env, rounds)))
        results.append(
            (
                "matches (cold: no cache)",
                median([*hgin, "matches"], env, rounds, drop("cache.json")),
            )
        )
        results.append(("matches (warm)", median([*hgin, "matches"], env, rounds)))
        results.append(("matches --json", median([*hgin, "matches", "--json"], env, rounds)))
        results.append(
            ("matches --player ines", median([*hgin, "matches", "-p", "ines"], env, rounds))
        )
        results.append(
            ("matches --unfinished", median([*hgin, "matches", "--unfinished"], env, rounds))
        )
        cold = median([*hgin, "stats"], env, rounds, drop("cache.json"))
        results.append(("stats (cold: no cache)", cold))
        results.append(("stats (warm)", median([*hgin, "stats"], env, rounds)))
        results.append(("stats --json", median([*hgin, "stats", "--json"], env, rounds)))
        results.append(("stats --player ines", median([*hgin, "stats", "-p", "ines"], env, rounds)))
        results.append(
            ("stats --format html", median([*hgin, "stats", "--format", "html"], env, rounds))
        )
        export = work / "all.json"
        results.append(
            (
                "export --all",
                median([*hgin, "export", "--all", str(export), "--force"], env, rounds),
            )
        )
        size = export.stat().st_size / 1e6
        target = work / "target"

        def empty_target() -> None:
            shutil.rmtree(target, ignore_errors=True)

        env_target = {**env, "HGIN_HOME": str(target)}
        results.append(
            (
                "import (all new)",
                median([*hgin, "import", str(export)], env_target, rounds, empty_target),
            )
        )
        results.append(
            ("import (all identical)", median([*hgin, "import", str(export)], env_target, rounds))
        )
        print(f"Export file: {size:.1f} MB. Medians of {rounds} runs, whole processes:\n")
        print("| command | ms |")
        print("|---|---:|")
        for label, value in results:
            print(f"| {label} | {value:.0f} |")
        print(f"\n{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
