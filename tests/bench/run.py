"""Time every hgin command against its floor: python tests/bench/run.py [--rounds N]

Each command runs as a whole process, the way people run it: the installed `hgin` entry point
(the script beside this Python, else the one on PATH; `--module` runs `python -m hgin` instead).
Its floor runs in the same round, just before or after it (the order alternates), so a busy
machine slows both alike. The floor of a Typer + Rich program is the time Python takes to import
those libraries:

    show, gin, matches, stats     python -c "import typer, rich.console, rich.table"
    completion, --help            python -c "import typer"

Every benchmark gets its own temporary HGIN_HOME (the user's data is never touched), generated
through the library. The match list and the statistics run over 300 and over a few thousand
finished matches, after one untimed run has built their caches. A match of 10,000 recorded hands
(target 100000, so it never ends) is replayed and loaded in-process (timed as `timeit` does, with
the garbage collector off; the replay also with it on) and shown as a process; so is the load of
a match whose journal holds 10,000 changes of every kind (edits, deletes, undos, restores...), and
a rolling match played until 40 games have closed.

Children run with a private bytecode cache (PYTHONPYCACHEPREFIX in a temporary folder, filled by
the untimed warm-up runs), as an installed package has compiled bytecode; `--as-is` keeps the
environment unchanged (with PYTHONDONTWRITEBYTECODE=1 every run compiles hgin from source).

The result is a Markdown table: medians in milliseconds and the ratio command / floor.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import gc
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hgin.engine.hands import Hand  # noqa: E402
from hgin.engine.identifiers import slug  # noqa: E402
from hgin.engine.journal import Change, Fold  # noqa: E402
from hgin.engine.match import Match, start_match  # noqa: E402
from hgin.engine.rules import PROFILES, Rules, with_options  # noqa: E402
from hgin.engine.sheet import empty_sheet, extend, replay  # noqa: E402
from hgin.store.matches import Store  # noqa: E402

RICH_FLOOR = "import typer, rich.console, rich.table"
TYPER_FLOOR = "import typer"
PLAYERS = ("Ann", "Bob", "Carla", "Dmitri", "Ines", "Oskar", "Zoë", "Mei")
SEED = 20240611
LONG_HANDS = 10_000
LONG_CHANGES = 10_000
LONG_TARGET = 100_000
REPLAY_TARGET = 0.050  # seconds for LONG_HANDS hands, in-process
ROLLING_GAMES = 40  # closed games of the rolling match replayed in-process
ROLLING = with_options(PROFILES["friendly"], {"rolling": True})
KEYS = (
    "show",
    "gin",
    "completion",
    "help",
    "matches",
    "stats",
    "matches-many",
    "stats-many",
    "show-long",
    "replay",
)


@dataclass(frozen=True)
class Timing:
    """One run: wall-clock seconds, and the CPU seconds (user + system) the process used."""

    wall: float
    cpu: float


@dataclass
class Bench:
    """One command timed beside its floor."""

    key: str
    name: str
    argv: list[str]
    floor: str
    target: float | None
    env: dict[str, str] = field(default_factory=dict)
    expect: str | None = None  # text the warm-up output must hold
    times: list[Timing] = field(default_factory=list)
    floor_times: list[Timing] = field(default_factory=list)


# -- generating data through the library -------------------------------------------------------


def random_hand(rng: random.Random, players: tuple[str, str], small: bool = False) -> Hand:
    """A plausible hand; `small` keeps the points low so a long match never reaches its target."""
    player = rng.choice(players)
    roll = rng.random()
    stamp = "2024-06-11T20:00:00+02:00"
    if roll < 0.06:
        return Hand("draw", recorded_at=stamp)
    if roll < 0.25:
        deadwood = rng.randint(0, 6 if small else 45)
        return Hand("gin", player=player, opponent_deadwood=deadwood, recorded_at=stamp)
    knock = rng.randint(1, 10)
    other = knock + rng.randint(-3, 4 if small else 40)
    return Hand(
        "knock",
        player=player,
        deadwood=knock,
        opponent_deadwood=max(0, other),
        recorded_at=stamp,
    )


def finished_match(rng: random.Random, number: int) -> Match:
    """A match played to its end, created `number` hours after the first one."""
    first, second = rng.sample(PLAYERS, 2)
    players = (first, second)
    rules = PROFILES["classic"] if number % 4 == 0 else PROFILES["friendly"]
    created = dt.datetime(2023, 1, 1, 18, tzinfo=dt.UTC) + dt.timedelta(hours=number)
    sheet = empty_sheet(players, rules, players[0])
    hands: list[Hand] = []
    while not sheet.finished:
        hand = random_hand(rng, players)
        sheet = extend(sheet, [hand])
        hands.append(hand)
    stem = f"{created.date().isoformat()}-{slug(players[0])}-{slug(players[1])}"
    return start_match(
        f"{stem}-{number}",
        players,
        rules,
        players[0],
        created.isoformat(timespec="seconds"),
        tuple(hands),
    )


def rolling_hands(rng: random.Random, games: int) -> list[Hand]:
    """Hands of a rolling match until `games` games have closed (three stay in progress)."""
    sheet = empty_sheet(("Ann", "Bob"), ROLLING, "Ann")
    hands: list[Hand] = []
    while len(sheet.closed_games) < games:
        hand = random_hand(rng, ("Ann", "Bob"))
        sheet = extend(sheet, [hand])
        hands.append(hand)
    return hands


def save_all(home: Path, matches: Sequence[Match], current: str | None = None) -> None:
    """Store matches through `Store.save` (the cache is left for the first `hgin matches` or
    `hgin stats` to build)."""
    store = Store(home)
    with store.locked():
        for match in matches:
            store.save(match)
        store.set_current(current or matches[-1].id)


def long_match(rng: random.Random, hands: int) -> Match:
    players = ("Ann", "Bob")
    rules = Rules(target=LONG_TARGET)
    played = tuple(random_hand(rng, players, small=True) for _ in range(hands))
    return start_match(
        "2024-06-11-ann-bob", players, rules, "Ann", "2024-06-11T20:00:00+02:00", played
    )


def mixed_journal(rng: random.Random, changes: int) -> Match:
    """A match of `changes` journal entries of every kind: mostly recorded hands, with edits,
    deletes, rule changes, undos, redos and a few restores among them (built by folding each
    change in place, so that generating it takes as long as loading it)."""
    players = ("Ann", "Bob")
    rules = Rules(target=LONG_TARGET)
    fold = Fold(players, rules)
    stamp = "2024-06-11T20:00:00+02:00"
    journal = []
    for number in range(1, changes + 1):
        state, roll = fold.state, rng.random()
        data: dict[str, object]
        if roll < 0.05 and state.applied:
            kind, data = "undo", {"change": state.applied[-1]}
        elif roll < 0.08 and state.undone:
            kind, data = "redo", {"change": state.undone[-1]}
        elif roll < 0.12 and state.hands:
            at = rng.randrange(len(state.hands))
            new = random_hand(rng, players, small=True)
            kind, data = "edit", {"hand_number": at + 1, "hand": new, "old": state.hands[at]}
        elif roll < 0.14 and state.hands:
            kind, data = "delete", {"hand_number": rng.randrange(len(state.hands)) + 1}
        elif roll < 0.145:
            bonus = state.rules.gin_bonus
            kind, data = "rules", {"old": {"gin_bonus": bonus}, "new": {"gin_bonus": 50 - bonus}}
        elif roll < 0.147 and number > 1:
            kind, data = "restore", {"change": rng.randrange(1, number)}
        else:
            kind, data = "record", {"hand": random_hand(rng, players, small=True)}
        change = Change(number, stamp, kind, f"{kind} {number}", data)
        fold.step(change)
        journal.append(change)
    match = Match("2024-06-11-ann-bob", players, rules, "Ann", stamp, tuple(journal))
    match.__dict__["folded"] = fold
    return match


def playing_match(rng: random.Random, hands: int, target: int = 100) -> Match:
    """A match in play: `hands` hands recorded and not finished."""
    players = ("Ann", "Bob")
    rules = Rules(target=target)
    sheet = empty_sheet(players, rules, "Ann")
    played: list[Hand] = []
    while len(played) < hands:
        hand = random_hand(rng, players, small=True)
        after = extend(sheet, [hand])
        if after.finished:
            continue
        sheet = after
        played.append(hand)
    return start_match(
        "2024-06-11-ann-bob", players, rules, "Ann", "2024-06-11T20:00:00+02:00", tuple(played)
    )


# -- running processes -------------------------------------------------------------------------


def hgin_command(use_module: bool) -> list[str]:
    """How to start hgin: the entry point users run, or `python -m hgin`."""
    if use_module:
        return [sys.executable, "-m", "hgin"]
    beside = Path(sys.executable).parent / "hgin"
    found = str(beside) if beside.exists() else shutil.which("hgin")
    if found is None:
        sys.exit("no 'hgin' entry point beside this Python or on PATH (install hgin, or --module)")
    shebang = Path(found).read_bytes().split(b"\n", 1)[0].decode(errors="replace")
    interpreter = shebang.removeprefix("#!").strip().split(" ")[0]
    if Path(interpreter).resolve() != Path(sys.executable).resolve():
        print(f"note: {found} runs {interpreter}, the floors run {sys.executable}", file=sys.stderr)
    return [found]


def run_once(
    argv: list[str], env: dict[str, str]
) -> tuple[Timing, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu), done


def warm_up(bench: Bench, base: dict[str, str]) -> None:
    """Untimed runs: fill the bytecode cache and the data caches, and check the command works."""
    env = {**base, **bench.env}
    for _ in range(2):
        _, done = run_once(bench.argv, env)
        if done.returncode != 0 or (bench.expect and bench.expect not in done.stdout):
            sys.exit(
                f"{bench.name}: {' '.join(bench.argv)} failed (exit {done.returncode})\n"
                f"{done.stdout[-2000:]}{done.stderr[-2000:]}"
            )
        _, floor = run_once([sys.executable, "-c", bench.floor], base)
        if floor.returncode != 0:
            sys.exit(f"the floor '{bench.floor}' failed: {floor.stderr}")


def measure(benches: Sequence[Bench], rounds: int, base: dict[str, str]) -> None:
    for number in range(rounds):
        print(f"\rround {number + 1}/{rounds}", end="", file=sys.stderr, flush=True)
        for bench in benches:
            env = {**base, **bench.env}
            floor_argv = [sys.executable, "-c", bench.floor]
            pair: list[tuple[list[str], dict[str, str], list[Timing]]] = [
                (floor_argv, base, bench.floor_times),
                (bench.argv, env, bench.times),
            ]
            if number % 2:
                pair.reverse()
            for argv, run_env, times in pair:
                timing, done = run_once(argv, run_env)
                if done.returncode != 0:
                    sys.exit(f"\n{' '.join(argv)} failed (exit {done.returncode}): {done.stderr}")
                times.append(timing)
    print(file=sys.stderr)


# -- in-process timings ------------------------------------------------------------------------


def median_time(function: Callable[[], object], repeat: int, collect: bool = False) -> float:
    """Median wall time of `repeat` calls, in seconds; as `timeit` does, the garbage collector
    is off while a call is timed unless `collect` (its passes depend on everything else the
    process holds, here thousands of generated matches)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        was_on = gc.isenabled()
        if not collect:
            gc.disable()
        try:
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
        finally:
            if was_on:
                gc.enable()
    return statistics.median(times)


def in_process(home: Path, repeat: int) -> list[tuple[str, float, str]]:
    store = Store(home)
    match = store.load(store.match_ids()[0])
    rows = []
    for count in (1_000, LONG_HANDS):
        hands = match.hands[:count]
        scoring = functools.partial(replay, match.players, match.rules, "Ann", hands)
        seconds = median_time(scoring, repeat)
        note = f"{seconds / count * 1e6:.1f} µs a hand"
        if count == LONG_HANDS:
            note += f"; {'✓' if seconds < REPLAY_TARGET else '✗'} < {REPLAY_TARGET * 1000:.0f} ms"
            collected = median_time(scoring, repeat, collect=True)
            note += f"; {ms(collected)} ms with the garbage collector on"
        rows.append((f"`sheet.replay`, {count:,} hands", seconds, note))
    hands = rolling_hands(random.Random(SEED + 4), ROLLING_GAMES)
    scoring = functools.partial(replay, ("Ann", "Bob"), ROLLING, "Ann", hands)
    seconds = median_time(scoring, repeat)
    per_hand = seconds / len(hands)
    # No mark: a third of these hands close a game and open the next, which a hand of the
    # long match above never does, so its rate is no fair target here.
    note = f"{len(hands)} hands, {per_hand * 1e6:.1f} µs a hand (a close costs more than a hand)"
    rows.append((f"`sheet.replay`, rolling, {ROLLING_GAMES} games closed", seconds, note))
    seconds = median_time(lambda: store.load(match.id), repeat)
    size = store.match_path(match.id).stat().st_size
    rows.append(
        (f"`Store.load`, {LONG_HANDS:,} hands", seconds, f"{size / 1e6:.1f} MB file, validated")
    )
    mixed = Store(home.parent / "journal")
    mixed_id = mixed.match_ids()[0]
    seconds = median_time(lambda: mixed.load(mixed_id), repeat)
    size = mixed.match_path(mixed_id).stat().st_size
    note = f"{size / 1e6:.1f} MB file; edits, deletes, undos, redos, restores; validated"
    rows.append((f"`Store.load`, {LONG_CHANGES:,} changes of every kind", seconds, note))
    return rows


# -- the report --------------------------------------------------------------------------------


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or cpu
    versions = []
    for name in ("typer", "rich"):
        try:
            from importlib.metadata import version

            versions.append(f"{name} {version(name)}")
        except Exception:
            versions.append(f"{name} ?")
    return (
        f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, "
        f"{', '.join(versions)}, {platform.system()} {platform.release()}"
    )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def median(times: Sequence[Timing], what: str) -> float:
    return statistics.median([t.cpu if what == "cpu" else t.wall for t in times])


def report(
    benches: Sequence[Bench], rows: list[tuple[str, float, str]], rounds: int, how: str
) -> None:
    print(f"Machine: {machine()}")
    print(f"hgin run as: {how}; {rounds} rounds; medians in milliseconds.")
    print("Wall: elapsed time. CPU: user + system time of the process (less swayed by a busy")
    print("machine). Ratio: command median / floor median.")
    print()
    print("| command | wall | floor | ratio | CPU | floor CPU | CPU ratio | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for bench in benches:
        wall, floor = median(bench.times, "wall"), median(bench.floor_times, "wall")
        cpu, floor_cpu = median(bench.times, "cpu"), median(bench.floor_times, "cpu")
        ratio = wall / floor
        target = ""
        if bench.target is not None:
            target = f"{'✓' if ratio <= bench.target else '✗'} ≤ {bench.target:.2f}×"
        floor_name = "typer" if bench.floor == TYPER_FLOOR else "typer+rich"
        print(
            f"| {bench.name} | {ms(wall)} | {ms(floor)} {floor_name} | {ratio:.2f}× "
            f"| {ms(cpu)} | {ms(floor_cpu)} | {cpu / floor_cpu:.2f}× | {target} |"
        )
    if rows:
        print()
        print("| in-process | median | note |")
        print("|---|---:|---|")
        for name, seconds, note in rows:
            print(f"| {name} | {ms(seconds)} | {note} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds (default 15)")
    parser.add_argument(
        "--many", type=int, default=3000, help="finished matches in the big home (default 3000)"
    )
    parser.add_argument("--module", action="store_true", help="run 'python -m hgin'")
    parser.add_argument("--as-is", action="store_true", help="no private bytecode cache")
    parser.add_argument(
        "--only",
        nargs="*",
        metavar="KEY",
        help="only these benchmarks: " + " ".join(KEYS),
    )
    parser.add_argument("--repeat", type=int, default=7, help="in-process repetitions")
    args = parser.parse_args()

    hgin = hgin_command(args.module)
    how = " ".join(hgin) if args.module else f"entry point {hgin[0]}"
    scratch = Path(tempfile.mkdtemp(prefix="hgin-bench-"))
    base = dict(os.environ)
    base.pop("HGIN_HOME", None)
    base.update({"COLUMNS": "80", "NO_COLOR": "1"})
    if not args.as_is:
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        base["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    keys = set(args.only or KEYS)
    unknown = keys - set(KEYS)
    if unknown:
        parser.error(f"no benchmark {', '.join(sorted(unknown))} (choose from {' '.join(KEYS)})")
    try:
        benches = prepare(scratch, hgin, args.many, keys)
        for bench in benches:
            print(f"warming up: {bench.name}", file=sys.stderr)
            warm_up(bench, base)
        measure(benches, args.rounds, base)
        rows = in_process(scratch / "long", args.repeat) if "replay" in keys else []
        report(benches, rows, args.rounds, how)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def prepare(scratch: Path, hgin: list[str], many: int, keys: set[str]) -> list[Bench]:
    """The benchmarks in `keys`, each with its data folder generated through the library."""
    print("generating matches...", file=sys.stderr)

    def home(name: str) -> dict[str, str]:
        return {"HGIN_HOME": str(scratch / name)}

    save_all(scratch / "show", [playing_match(random.Random(SEED), 9)])
    save_all(scratch / "gin", [playing_match(random.Random(SEED + 1), 9, target=LONG_TARGET)])
    if keys & {"matches", "stats", "matches-many", "stats-many"}:
        wanted = many if keys & {"matches-many", "stats-many"} else 300
        rng = random.Random(SEED + 2)
        finished = [finished_match(rng, n) for n in range(wanted)]
        save_all(scratch / "few", finished[-300:])
        save_all(scratch / "many", finished)
    if keys & {"show-long", "replay"}:
        long = long_match(random.Random(SEED + 3), LONG_HANDS)
        assert not long.sheet.finished and len(long.sheet.hands) == LONG_HANDS
        save_all(scratch / "long", [long])
        save_all(scratch / "journal", [mixed_journal(random.Random(SEED + 4), LONG_CHANGES)])

    completion = {
        **home("show"),
        "_HGIN_COMPLETE": "complete_bash",
        "COMP_WORDS": "hgin gin ",
        "COMP_CWORD": "2",
    }
    has_stats = run_once([*hgin, "stats", "--help"], {**os.environ, **home("few")})[1]
    big = f"{many:,} finished"
    table = [
        ("show", "`hgin show`", ["show"], RICH_FLOOR, 1.15, home("show"), "Ann"),
        ("gin", "`hgin gin ann 12`", ["gin", "ann", "12"], RICH_FLOOR, 1.2, home("gin"), "Gin"),
        ("completion", "completion `hgin gin <TAB>`", [], TYPER_FLOOR, 1.2, completion, "Ann"),
        ("help", "`hgin --help`", ["--help"], TYPER_FLOOR, None, home("show"), "Usage"),
        ("matches", "`hgin matches`, 300 finished", ["matches"], RICH_FLOOR, 1.5, home("few"), ""),
        ("stats", "`hgin stats`, 300 finished", ["stats"], RICH_FLOOR, 1.5, home("few"), ""),
        ("matches-many", f"`hgin matches`, {big}", ["matches"], RICH_FLOOR, 1.5, home("many"), ""),
        ("stats-many", f"`hgin stats`, {big}", ["stats"], RICH_FLOOR, 1.5, home("many"), ""),
        (
            "show-long",
            f"`hgin show`, {LONG_HANDS:,} hands",
            ["show"],
            RICH_FLOOR,
            None,
            home("long"),
            "",
        ),
    ]
    return [
        Bench(key, name, [*hgin, *words], floor, target, env, expect or None)
        for key, name, words, floor, target, env, expect in table
        if key in keys and (has_stats.returncode == 0 or not key.startswith("stats"))
    ]


if __name__ == "__main__":
    main()
