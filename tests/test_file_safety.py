"""Every change to hgin's files is safe: read-modify-writes hold the lock, a refused command
leaves every file as it was (or says exactly what it left), and what was saved is never
reported as a failure. Faults are injected in-process, and each test counts its injections."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Run

HGIN = str(Path(sys.executable).with_name("hgin"))


@pytest.mark.skipif(not os.access(HGIN, os.X_OK), reason="the installed hgin script is needed")
def test_concurrent_rules_save_keeps_every_preset(run: Run) -> None:
    savers = [
        subprocess.Popen(
            [HGIN, "rules", "save", f"pre{i}", "--gin-bonus", str(10 + i)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(1, 9)
    ]
    for saver in savers:
        _, err = saver.communicate(timeout=60)
        assert saver.returncode == 0, err
    listed = json.loads(run("rules", "--list", "--json").stdout)
    assert {name: listed[name]["gin_bonus"] for name in listed if name.startswith("pre")} == {
        f"pre{i}": 10 + i for i in range(1, 9)
    }
