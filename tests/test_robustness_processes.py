"""Real processes against one data folder: concurrent writers, kill -9 at random moments, a
file-size limit (ulimit -f) and a lock held by a stuck process. Every subprocess is bounded."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hgin.store import matches as storage
from hgin.store.matches import Store
from tests.conftest import Run, snapshot

pytestmark = pytest.mark.skipif(os.name != "posix", reason="uses POSIX signals and rlimits")

TIMEOUT = 60

# Records hands start..start+count-1 through the real CLI inside one process, reporting each
# completed one on stderr: "done I". Hand I is a knock identified by (player, counts).
WRITER = r"""
import os, sys
from hgin.cli import app
start, count = int(sys.argv[1]), int(sys.argv[2])
sys.stdout = open(os.devnull, "w")
for i in range(start, start + count):
    player = ("ann", "bob")[i % 2]
    args = ["knock", player, str(1 + (i // 2) % 10), str(11 + (i // 20) % 88)]
    code = app(args, prog_name="hgin", standalone_mode=False)
    if code:
        sys.exit(3)
    print("done", i, file=sys.stderr, flush=True)
"""


def expected_hand(i: int) -> tuple[str, int, int]:
    """What WRITER records as hand i: (player, knocker's deadwood, opponent's deadwood)."""
    return ("Ann", "Bob")[i % 2], 1 + (i // 2) % 10, 11 + (i // 20) % 88


def hgin(*args: str, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """`python -m hgin ARGS` in a real process (it inherits $HGIN_HOME from the fixture)."""
    return subprocess.run(
        [sys.executable, "-m", "hgin", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def stored_hands(run: Run) -> list[tuple[str, int, int]]:
    """The hands of the current match, as `hgin show --json` gives them."""
    result = run("show", "--json")
    assert result.exit_code == 0, result.stderr
    hands = json.loads(result.stdout)["hands"]
    return [
        (h["entered"]["player"], h["entered"]["deadwood"], h["entered"]["opponent_deadwood"])
        for h in hands
    ]


def temp_litter(home: Path) -> list[Path]:
    return [p for p in home.rglob("*.tmp")]


@pytest.fixture
def long_match(run: Run) -> None:
    """A match that cannot finish within the hands these tests record."""
    result = run("new", "Ann", "Bob", "--dealer", "Ann", "--target", "100000")
    assert result.exit_code == 0, result.output


@pytest.mark.usefixtures("long_match")
def test_concurrent_cli_processes_keep_every_hand(run: Run, hgin_home: Path) -> None:
    workers, per_worker = 3, 4
    loops = []
    for w in range(workers):
        commands = []
        for n in range(per_worker):
            i = w * per_worker + n
            player, mine, theirs = expected_hand(i)
            commands.append(f"{sys.executable} -m hgin knock {player} {mine} {theirs} >/dev/null")
        script = "set -e\n" + "\n".join(commands)
        loops.append(subprocess.Popen(["sh", "-c", script], stderr=subprocess.PIPE, text=True))
    for loop in loops:
        _, err = loop.communicate(timeout=TIMEOUT)
        assert loop.returncode == 0, err
    hands = stored_hands(run)
    assert sorted(hands) == sorted(expected_hand(i) for i in range(workers * per_worker))
    for w in range(workers):  # each worker's own hands stay in its order
        own = [expected_hand(w * per_worker + n) for n in range(per_worker)]
        assert [h for h in hands if h in own] == own
    assert temp_litter(hgin_home) == []


@pytest.mark.usefixtures("long_match")
def test_concurrent_writer_processes_hammering_one_match(run: Run) -> None:
    workers, per_worker = 4, 12
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(w * per_worker), str(per_worker)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, err
        assert err.count("done") == per_worker
    hands = stored_hands(run)
    assert len(hands) == workers * per_worker
    assert set(hands) == {expected_hand(i) for i in range(workers * per_worker)}


def test_concurrent_new_matches_get_distinct_identifiers(hgin_home: Path) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "hgin", "new", "Ann", "Bob", "--dealer", "Bob"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, err
    ids = sorted(p.stem for p in (hgin_home / "matches").glob("*.json"))
    assert len(ids) == 4
    stem = ids[0]
    assert ids == [stem, f"{stem}-2", f"{stem}-3", f"{stem}-4"]
    current = (hgin_home / "current").read_text().strip()
    assert current in ids
    listed = hgin("matches", "--json")
    assert sorted(row["id"] for row in json.loads(listed.stdout)) == ids


# Imports hgin once, then per round forks a child that records hands in a loop (as WRITER
# does) and kills it with SIGKILL after a seeded random delay; after each kill it copies the
# match file aside, with the child's progress, for the test to check.
KILLER = r"""
import os, random, shutil, signal, sys, time
import typer
from hgin.cli import app as typer_app
from hgin.scorekeeper import ScoreKeeper
app = typer.main.get_command(typer_app).main  # built once, before forking
rounds, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
chooser = random.Random(seed)
keeper = ScoreKeeper()
sys.stdout = open(os.devnull, "w")
app(["show"], prog_name="hgin", standalone_mode=False)  # import everything before forking
for r in range(rounds):
    start = len(keeper.load().hands)
    progress = os.open(f"{out}/progress-{r}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    pid = os.fork()
    if pid == 0:
        for i in range(start, start + 1000):
            player = ("ann", "bob")[i % 2]
            args = ["knock", player, str(1 + (i // 2) % 10), str(11 + (i // 20) % 88)]
            if app(args, prog_name="hgin", standalone_mode=False):
                os._exit(3)
            os.write(progress, f"done {i}\n".encode())
        os._exit(0)
    os.close(progress)
    if r % 2:  # every other kill comes after a completed hand, however loaded the machine
        while not os.path.getsize(f"{out}/progress-{r}"):
            time.sleep(0.005)
    time.sleep(chooser.uniform(0.0, 0.15))
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if not os.WIFSIGNALED(status):
        sys.exit(f"round {r}: the writer ended before the kill ({status})")
    path = keeper.store.match_path(keeper.choose().id)
    shutil.copyfile(path, f"{out}/after-{r}.json")
"""


@pytest.mark.usefixtures("long_match")
def test_writer_killed_at_random_moments_loses_nothing_completed(
    run: Run, hgin_home: Path, tmp_path: Path
) -> None:
    rounds = 30
    out = tmp_path / "kills"
    out.mkdir()
    killer = subprocess.run(
        [sys.executable, "-c", KILLER, str(rounds), "20240611", str(out)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert killer.returncode == 0, killer.stderr
    store = Store(hgin_home)
    match_id = store.current_id()
    assert match_id is not None
    recorded = 0
    for r in range(rounds):
        lines = (out / f"progress-{r}").read_text().splitlines()
        completed = [int(line.split()[1]) for line in lines]
        assert completed == list(range(recorded, recorded + len(completed)))
        # The file as the kill left it is whole and valid...
        after = out / f"after-{r}.json"
        match, _ = store.parse(after.read_bytes(), after, match_id)
        hands = [(h.player, h.deadwood, h.opponent_deadwood) for h in match.hands]
        # ...and holds every completed hand; the one in flight at the kill may be there or not.
        done = recorded + len(completed)
        assert len(hands) in (done, done + 1)
        assert hands == [expected_hand(i) for i in range(len(hands))]
        recorded = len(hands)
    # Every other kill waited for a completed hand.
    assert recorded >= rounds // 2
    assert stored_hands(run) == [expected_hand(i) for i in range(recorded)]
    for backup in (hgin_home / "backups").rglob("*.json"):  # backups are whole files too
        store.parse(backup.read_bytes(), backup, match_id)
    # A fresh process reads it, and the next locked command sweeps any temporary file a kill
    # left behind.
    assert hgin("draw").returncode == 0
    assert [p for p in temp_litter(hgin_home) if p.parent != hgin_home / "config"] == []


def limited_to(size: int) -> Callable[[], None]:
    """preexec_fn for a child that may write no file beyond `size` bytes (ulimit -f)."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # get EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


@pytest.mark.parametrize(
    ("slack", "message"),
    [
        (16, "the previous version is kept"),  # the backup fits, the bigger new file does not
        (-200, "nothing was changed"),  # even the backup of the present version does not fit
    ],
)
def test_file_size_limit_leaves_the_previous_sheet(
    run: Run, hgin_home: Path, slack: int, message: str
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "18").exit_code == 0
    match_file = next((hgin_home / "matches").glob("*.json"))
    before = snapshot(hgin_home)
    result = subprocess.run(
        [sys.executable, "-m", "hgin", "knock", "bob", "3", "20"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=limited_to(match_file.stat().st_size + slack),
        check=False,
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert "File too large" in lines[0]
    assert message in lines[0]
    assert str(match_file) in lines[0]
    assert snapshot(hgin_home) == before
    assert temp_litter(hgin_home) == []
    # Without the limit the same command goes through.
    assert hgin("knock", "bob", "3", "20").returncode == 0


HOLDER = r"""
import fcntl, sys, time
handle = open(sys.argv[1], "a+b")
fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)
"""


def test_a_stuck_lock_holder_gives_a_clear_refusal_not_a_hang(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    monkeypatch.setattr(storage, "LOCK_TIMEOUT", 0.3)
    before = snapshot(hgin_home)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(hgin_home / ".lock")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        for args in (("gin", "ann", "18"), ("new", "Cy", "Di"), ("use", "20"), ("restore", "1")):
            result = run(*args)
            assert result.exit_code == 1, args
            assert result.stderr.startswith("hgin: another hgin is still writing (lock ")
            assert "held for over 0.3 s" in result.stderr
            assert snapshot(hgin_home) == before
        # Reading never waits for the lock.
        assert run("show").exit_code == 0
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=TIMEOUT)
    # The system released the dead holder's lock: no stale lock to clean up.
    assert run("gin", "ann", "18").exit_code == 0
