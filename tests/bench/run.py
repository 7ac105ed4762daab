"""Time every hgin command against its floor: python tests/bench/run.py [--rounds N]

Each command runs as a whole process, the way people run it: the installed `hgin` entry point
(the script beside this Python, else the one on PATH; `--module` runs `python -m hgin` instead).
Its floor runs in the same round, just before or after it (the order alternates), so a busy
machine slows both alike. The floor of a Typer + Rich program is the time Python takes to import
those libraries:

    show, bare hgin, gin, matches, stats     python -c "import typer, rich.console, rich.table"
    completion, --help                       python -c "import typer"

Export and import have no floor: their target is the CPU time (user + system) of the process.

Every benchmark gets its own temporary HGIN_HOME (the user's data is never touched), built
through the public library only (`hgin.scorekeeper.ScoreKeeper`), so the bench does not depend
on how the files are laid out. Matches in play have target 100000, so they never finish. `gin`
is timed on a copy of its folder taken before the first run and put back before every run, so
the match never grows (an undo would add a change to the journal); the disk is flushed after
each copy, before the timed run. The 3,000 finished matches are one match played through the
library, its file copied under new identifiers (only the top-level "id" and "uid" are
rewritten); one
untimed `hgin matches` then builds the cache. Import runs into a new folder each time (the
last one is moved aside, not deleted: see `emptier`).
Building the 2,000-hand match takes a while: every hand is one locked save, as at the table.

Children run with a private bytecode cache (PYTHONPYCACHEPREFIX in a temporary folder, filled by
the untimed warm-up runs), as an installed package has compiled bytecode; `--as-is` keeps the
environment unchanged (with PYTHONDONTWRITEBYTECODE=1 every run compiles hgin from source).

The result is a Markdown table: medians in milliseconds and the ratio command / floor.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import itertools
import json
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
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hgin.engine.rules import PROFILES, with_options  # noqa: E402
from hgin.scorekeeper import ScoreKeeper  # noqa: E402

RICH_FLOOR = "import typer, rich.console, rich.table"
TYPER_FLOOR = "import typer"
SEED = 20240611
LONG_TARGET = 100_000
KEYS = (
    "show",
    "bare",
    "gin",
    "gin-200",
    "gin-long",
    "completion",
    "help",
    "matches",
    "stats",
    "show-long",
    "export",
    "import",
    "load",
)


@dataclass(frozen=True)
class Timing:
    """One run: wall-clock seconds, and the CPU seconds (user + system) the process used."""

    wall: float
    cpu: float


@dataclass
class Bench:
    """One command timed beside its floor (`floor` None: timed alone, against a CPU target)."""

    key: str
    name: str
    argv: list[str]
    floor: str | None
    target: float | None
    env: dict[str, str] = field(default_factory=dict)
    expect: str | None = None  # text the warm-up output must hold
    reset: Callable[[], None] | None = None  # puts the data folder back before each run
    times: list[Timing] = field(default_factory=list)
    floor_times: list[Timing] = field(default_factory=list)


# -- building data through the library ---------------------------------------------------------


def play_hand(keeper: ScoreKeeper, rng: random.Random, *, small: bool) -> None:
    """Record one plausible hand; `small` keeps the points low."""
    player = rng.choice(("ann", "bob"))
    roll = rng.random()
    if roll < 0.06:
        keeper.draw()
    elif roll < 0.25:
        keeper.gin(player, rng.randint(0, 6 if small else 45))
    else:
        knock = rng.randint(1, 10)
        keeper.knock(player, knock, max(0, knock + rng.randint(-3, 4 if small else 40)))


def match_in_play(home: Path, hands: int, seed: int) -> None:
    """A match of `hands` hands with target 100000, current in `home`."""
    keeper = ScoreKeeper(home)
    rules = with_options(PROFILES["friendly"], {"target": LONG_TARGET})
    keeper.new_match("Ann", "Bob", rules, dealer="Ann")
    rng = random.Random(seed)
    for number in range(hands):
        play_hand(keeper, rng, small=True)
        if number % 250 == 249:
            print(f"  {number + 1}/{hands} hands", file=sys.stderr, flush=True)


def finished_matches(home: Path, count: int) -> None:
    """`count` finished matches: one played to its end, its file copied under new ids."""
    keeper = ScoreKeeper(home)
    match = keeper.new_match("Ann", "Bob", PROFILES["classic"], dealer="Ann")
    rng = random.Random(SEED + 2)
    while not keeper.load().sheet.finished:
        play_hand(keeper, rng, small=False)
    source = match_file(home, match.id)
    text = source.read_text(encoding="utf-8")
    for number in range(2, count + 1):
        copy = source.with_name(source.name.replace(match.id, f"{match.id}-{number}"))
        copy.write_text(with_id(text, f"{match.id}-{number}"), encoding="utf-8")


def match_file(home: Path, match_id: str) -> Path:
    """The file of match `match_id` in `home` (not one of its backups)."""
    (found,) = (p for p in home.rglob(f"{match_id}.*") if p.parent.name != match_id)
    return found


def with_id(text: str, new_id: str) -> str:
    """The match file's text with its top-level "id" replaced, and its identity ("uid"), so
    that each copy is a match of its own, not a copy of one (a file of JSON lines: in its first
    line)."""
    try:
        data = json.loads(text)
        rest = ""
    except json.JSONDecodeError:
        first, _, rest = text.partition("\n")
        data, rest = json.loads(first), "\n" + rest
    data["id"] = new_id
    data["uid"] = hashlib.sha256(new_id.encode()).hexdigest()[:16]
    return json.dumps(data, ensure_ascii=False) + rest


def restorer(home: Path) -> Callable[[], None]:
    """A function that puts `home` back as it is now."""
    pristine = home.with_name(home.name + "-pristine")
    shutil.copytree(home, pristine)

    def restore() -> None:
        shutil.rmtree(home)
        shutil.copytree(pristine, home)

    return restore


def emptier(home: Path, trash: Path) -> Callable[[], None]:
    """A function that takes `home` away, leaving no folder there: it is moved into `trash`,
    deleted with the scratch folder once every run is done. Deleting thousands of files just
    before the next import would time the file system, not hgin: ext4 avoids reusing the
    inodes of files deleted moments ago, and creating as many files then makes it search its
    inode tables, several times the system time an import into a new folder takes. People
    do not delete thousands of files right before they import."""
    moved = itertools.count(1)

    def empty() -> None:
        if home.exists():
            trash.mkdir(exist_ok=True)
            home.rename(trash / str(next(moved)))

    return empty


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
    for _ in range(2):
        if bench.reset is not None:
            bench.reset()
        _, done = run_once(bench.argv, {**base, **bench.env})
        if done.returncode != 0 or (bench.expect and bench.expect not in done.stdout):
            sys.exit(
                f"{bench.name}: {' '.join(bench.argv)} failed (exit {done.returncode})\n"
                f"{done.stdout[-2000:]}{done.stderr[-2000:]}"
            )
        if bench.floor is not None:
            _, floor = run_once([sys.executable, "-c", bench.floor], base)
            if floor.returncode != 0:
                sys.exit(f"the floor '{bench.floor}' failed: {floor.stderr}")


def measure(benches: Sequence[Bench], rounds: int, base: dict[str, str]) -> None:
    for number in range(rounds):
        print(f"\rround {number + 1}/{rounds}", end="", file=sys.stderr, flush=True)
        for bench in benches:
            runs = [(bench.argv, {**base, **bench.env}, bench.reset, bench.times)]
            if bench.floor is not None:
                floor_argv = [sys.executable, "-c", bench.floor]
                runs.append((floor_argv, base, None, bench.floor_times))
            if number % 2:
                runs.reverse()
            for argv, env, reset, times in runs:
                if reset is not None:
                    reset()
                    # The copy's writes reach the disk before the run, as the last hand's have
                    # long done at a table: a command's own flushes then wait for its own writes.
                    os.sync()
                timing, done = run_once(argv, env)
                if done.returncode != 0:
                    sys.exit(f"\n{' '.join(argv)} failed (exit {done.returncode}): {done.stderr}")
                times.append(timing)
    print(file=sys.stderr)


# -- in-process timings ------------------------------------------------------------------------


def median_time(function: Callable[[], object], repeat: int) -> float:
    """Median wall time of `repeat` calls, in seconds; as `timeit` does, the garbage collector
    is off while a call is timed."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return statistics.median(times)


def in_process(homes: Sequence[tuple[Path, int]], repeat: int) -> list[tuple[str, float, str]]:
    """`ScoreKeeper.load` of the current match of each home (hands it holds)."""
    rows = []
    for home, hands in homes:
        keeper = ScoreKeeper(home)
        seconds = median_time(keeper.load, repeat)
        current = keeper.current_id()
        assert current is not None
        size = match_file(home, current).stat().st_size
        note = f"{size / 1e6:.2f} MB file, validated; {seconds / hands * 1e6:.0f} µs a hand"
        rows.append((f"`ScoreKeeper.load`, {hands:,} hands", seconds, note))
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
    versions = [f"{name} {version(name)}" for name in ("typer", "rich")]
    return (
        f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, "
        f"{', '.join(versions)}, {platform.system()} {platform.release()}"
    )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def median(times: Sequence[Timing], what: str) -> float:
    return statistics.median([t.cpu if what == "cpu" else t.wall for t in times])


def report(
    benches: Sequence[Bench], rows: list[tuple[str, float, str]], rounds: str, how: str
) -> None:
    print(f"Machine: {machine()}; load average {os.getloadavg()[0]:.1f} at the end")
    print(f"hgin run as: {how}; {rounds}; medians in milliseconds.")
    print("Wall: elapsed time. CPU: user + system time of the process (less swayed by a busy")
    print("machine). Ratio: command median / floor median; export and import: CPU seconds.")
    print()
    print("| command | wall | floor | ratio | CPU | floor CPU | CPU ratio | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for bench in benches:
        wall, cpu = median(bench.times, "wall"), median(bench.times, "cpu")
        if bench.floor is None:
            assert bench.target is not None
            mark = "✓" if cpu <= bench.target else "✗"
            target = f"{mark} CPU ≤ {bench.target:.1f} s"
            print(f"| {bench.name} | {ms(wall)} | | | {ms(cpu)} | | | {target} |")
            continue
        floor, floor_cpu = median(bench.floor_times, "wall"), median(bench.floor_times, "cpu")
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
    parser.add_argument("--rounds", type=int, default=31, help="timed rounds (default 31)")
    parser.add_argument(
        "--transfer-rounds",
        type=int,
        default=7,
        help="timed rounds of export and import, a few seconds each (default 7)",
    )
    parser.add_argument("--many", type=int, default=3000, help="finished matches (default 3000)")
    parser.add_argument(
        "--long", type=int, default=2000, help="hands of the long match (default 2000)"
    )
    parser.add_argument("--module", action="store_true", help="run 'python -m hgin'")
    parser.add_argument("--as-is", action="store_true", help="no private bytecode cache")
    parser.add_argument(
        "--only", nargs="*", metavar="KEY", help="only these benchmarks: " + " ".join(KEYS)
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
        benches = prepare(scratch, hgin, keys, many=args.many, long=args.long)
        for bench in benches:
            print(f"warming up: {bench.name}", file=sys.stderr)
            warm_up(bench, base)
        transfer = [b for b in benches if b.floor is None]
        measure([b for b in benches if b.floor is not None], args.rounds, base)
        measure(transfer, args.transfer_rounds, base)
        homes = [(scratch / "gin-200", 200), (scratch / "long", args.long)]
        rows = in_process(homes, args.repeat) if "load" in keys else []
        rounds = f"{args.rounds} rounds"
        if transfer:
            rounds += f" ({args.transfer_rounds} for export and import)"
        report(benches, rows, rounds, how)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def prepare(scratch: Path, hgin: list[str], keys: set[str], *, many: int, long: int) -> list[Bench]:
    """The benchmarks in `keys`, each with its data folder built through the library."""

    def home(name: str) -> dict[str, str]:
        return {"HGIN_HOME": str(scratch / name)}

    def build(what: str, make: Callable[[], None]) -> None:
        print(f"building {what}...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        make()
        print(f"  {time.perf_counter() - start:.0f} s", file=sys.stderr)

    build("a 9-hand match", lambda: match_in_play(scratch / "show", 9, SEED))
    shutil.copytree(scratch / "show", scratch / "gin")
    if keys & {"gin-200", "load"}:
        build("a 200-hand match", lambda: match_in_play(scratch / "gin-200", 200, SEED + 1))
    if keys & {"gin-long", "show-long", "load"}:
        build(f"a {long:,}-hand match", lambda: match_in_play(scratch / "long", long, SEED + 3))
    if keys & {"matches", "stats", "export", "import"}:
        build(f"{many:,} finished matches", lambda: finished_matches(scratch / "many", many))
        listing = [*hgin, "matches"]  # builds the cache, as any earlier `hgin matches` would
        if run_once(listing, {**os.environ, **home("many")})[1].returncode != 0:
            sys.exit(f"{' '.join(listing)} failed")
    export_file = scratch / "export.json"
    if "import" in keys:
        export = [*hgin, "export", "--all", str(export_file)]
        if run_once(export, {**os.environ, **home("many")})[1].returncode != 0:
            sys.exit(f"{' '.join(export)} failed")

    gin = ["gin", "ann", "12"]
    completion = {
        **home("show"),
        "_HGIN_COMPLETE": "complete_bash",
        "COMP_WORDS": "hgin gin ",
        "COMP_CWORD": "2",
    }
    big = f"{many:,} finished"
    table: list[tuple[str, str, list[str], str | None, float | None, dict[str, str], str]] = [
        ("show", "`hgin show`", ["show"], RICH_FLOOR, 1.15, home("show"), "Ann"),
        ("bare", "`hgin` (no command)", [], RICH_FLOOR, 1.15, home("show"), "Ann"),
        ("gin", "`hgin gin ann 12`, 9 hands", gin, RICH_FLOOR, 1.2, home("gin"), "Gin"),
        ("gin-200", "`hgin gin ann 12`, 200 hands", gin, RICH_FLOOR, 1.2, home("gin-200"), "Gin"),
        (
            "gin-long",
            f"`hgin gin ann 12`, {long:,} hands",
            gin,
            RICH_FLOOR,
            1.5,
            home("long"),
            "Gin",
        ),
        ("completion", "completion `hgin gin <TAB>`", [], TYPER_FLOOR, 1.2, completion, "Ann"),
        ("help", "`hgin --help`", ["--help"], TYPER_FLOOR, None, home("show"), "Usage"),
        ("matches", f"`hgin matches`, {big}", ["matches"], RICH_FLOOR, 1.5, home("many"), ""),
        ("stats", f"`hgin stats`, {big}", ["stats"], RICH_FLOOR, 1.5, home("many"), ""),
        ("show-long", f"`hgin show`, {long:,} hands", ["show"], RICH_FLOOR, None, home("long"), ""),
        (
            "export",
            f"`hgin export --all`, {many:,} matches",
            ["export", "--all", "--force", str(scratch / "exported.json")],
            None,
            1.5,
            home("many"),
            "",
        ),
        (
            "import",
            f"`hgin import`, {many:,} matches",
            ["import", str(export_file)],
            None,
            1.5,
            home("imported"),
            f": {many} new.",  # every match new: the folder was emptied
        ),
    ]
    resets = {
        "gin": restorer(scratch / "gin"),
        "import": emptier(scratch / "imported", scratch / "trash"),
    }
    if keys & {"gin-200"}:
        resets["gin-200"] = restorer(scratch / "gin-200")
    if keys & {"gin-long"}:
        resets["gin-long"] = restorer(scratch / "long")
    return [
        Bench(key, name, [*hgin, *words], floor, target, env, expect or None, resets.get(key))
        for key, name, words, floor, target, env, expect in table
        if key in keys
    ]


if __name__ == "__main__":
    main()
