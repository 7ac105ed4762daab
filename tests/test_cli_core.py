"""SPEC §1-§4 through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Run, snapshot


def test_seed_000_worked_example(run: Run, show_json) -> None:
    assert run("new", "A", "B", "--dealer", "B").exit_code == 0
    assert run("knock", "A", "4", "34").exit_code == 0
    assert [g["scores"]["A"] for g in show_json()["games"]] == [30, 0, 0]
    result = run("gin", "A", "18")
    assert result.exit_code == 0
    assert "Gin: A scores 25 + 18 = 43 in games I and II." in result.stdout
    assert [g["scores"]["A"] for g in show_json()["games"]] == [73, 43, 0]
    result = run("knock", "a", "3", "38")
    assert "Knock: A scores 38 − 3 = 35 in games I, II and III; game I closes, A wins it." in (
        result.stdout
    )
    data = show_json()
    assert [g["scores"]["A"] for g in data["games"]] == [108, 78, 35]
    assert [g["winner"] for g in data["games"]] == ["A", None, None]
    assert data["wins"] == {"A": 3, "B": 0}
    assert [h["games"] for h in data["hands"]] == [[1], [1, 2], [1, 2, 3]]
    assert [h["points"] for h in data["hands"]] == [30, 43, 35]
