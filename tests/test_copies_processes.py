"""`hgin matches combine` in real processes: killed at random moments, and racing a writer on
the same folder. No hand of either copy is ever lost. Every subprocess is bounded."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hgin.store.matches import Store
from tests.board_process import hgin
from tests.test_copies import ID, Folders, kept_beside, on_the_first  # noqa: F401 (autouse)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="uses POSIX signals and fork")

TIMEOUT = 60

# Imports hgin once; per round copies the template folder, forks a child that combines the
# two copies there, and kills it with SIGKILL after a seeded random delay.
KILLER = r"""
import os, random, shutil, signal, sys, time
import typer
from hgin.cli import app as typer_app
app = typer.main.get_command(typer_app).main  # built once, before forking
rounds, seed, template, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
chooser = random.Random(seed)
sys.stdout = open(os.devnull, "w")
os.environ["HGIN_HOME"] = template
app(["log", "-m", sys.argv[5]], prog_name="hgin", standalone_mode=False)  # load everything
for r in range(rounds):
    home = f"{out}/round-{r}"
    shutil.copytree(template, home)
    os.environ["HGIN_HOME"] = home
    pid = os.fork()
    if pid == 0:
        code = app(["matches", "combine", sys.argv[5], sys.argv[5] + "-2"], prog_name="hgin",
                   standalone_mode=False)
        os._exit(code or 0)
    time.sleep(chooser.uniform(0.0, 0.06))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
"""


def hands_in(home: Path) -> set[tuple[str, ...]]:
    """Every hand in force in any match file of `home`, each checked whole by loading it."""
    store = Store(home)
    found = set()
    for path in (home / "matches").glob("*.json"):
        match = store.parse(path.read_bytes(), path, path.stem)[0]
        found |= {(h.kind, str(h.player), str(h.opponent_deadwood)) for h in match.hands}
    return found


@pytest.fixture
def two_copies(tmp_path: Path) -> Path:
    """A folder holding two copies of a match that went their own ways."""
    folders = Folders(tmp_path / "made")
    kept_beside(folders)
    return folders.home("a")


def test_a_combine_killed_at_any_moment_loses_no_hand(two_copies: Path, tmp_path: Path) -> None:
    every = hands_in(two_copies)
    assert len(every) == 4
    out = tmp_path / "kills"
    out.mkdir()
    rounds = 16
    killer = subprocess.run(
        [sys.executable, "-c", KILLER, str(rounds), "20261206", str(two_copies), str(out), ID],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert killer.returncode == 0, killer.stderr
    for r in range(rounds):
        home = out / f"round-{r}"
        assert hands_in(home) == every, r
        # The next command finds a consistent folder: combine again, or it is done.
        result = hgin(home, "matches", "combine", ID, f"{ID}-2")
        assert result.returncode in (0, 1), result.stderr
        assert hands_in(home) == every


def test_a_combine_racing_a_writer_keeps_every_hand(two_copies: Path) -> None:
    env = {**os.environ, "HGIN_HOME": str(two_copies)}
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from hgin.cli import app\n"
            "for n in range(6):\n"
            f"    app(['draw', '-m', '{ID}'], prog_name='hgin', standalone_mode=False)",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    combine = hgin(two_copies, "matches", "combine", ID, f"{ID}-2")
    _, errors = writer.communicate(timeout=TIMEOUT)
    assert (writer.returncode, combine.returncode) == (0, 0), (errors, combine.stderr)
    shown = hgin(two_copies, "show", "--json", "-m", ID)
    assert shown.returncode == 0, shown.stderr
    kinds = [h["entered"]["kind"] for h in json.loads(shown.stdout)["hands"]]
    assert sorted(kinds) == sorted(["gin", "knock", "gin", "knock", *["draw"] * 6])
    assert [p.stem for p in (two_copies / "matches").glob("*.json")] == [ID]
    shutil.rmtree(two_copies)
