"""Export and import of many matches show a progress bar on standard error, only on a terminal
and only once the work has taken about a second; scripts and quick runs never see it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Run


@pytest.fixture
def three_matches(run: Run) -> None:
    for first, second in (("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo")):
        assert run("new", first, second, "--dealer", first).exit_code == 0
        assert run("gin", first.lower(), "10").exit_code == 0


def as_on_a_slow_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard error is a terminal, and the work has taken long enough from the start."""
    monkeypatch.setattr("hgin.cli.commands.transfer.is_terminal", lambda stream: True)
    monkeypatch.setattr("hgin.cli.commands.transfer.DELAY", 0.0)


@pytest.mark.usefixtures("three_matches")
def test_export_and_import_show_a_bar_on_a_terminal(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    as_on_a_slow_terminal(monkeypatch)
    out = tmp_path / "all.json"
    exported = run("export", str(out), "--all")
    assert exported.exit_code == 0
    assert "Exporting" in exported.stderr
    assert len(json.loads(out.read_text(encoding="utf-8"))["matches"]) == 3
    monkeypatch.setenv("HGIN_HOME", str(tmp_path / "elsewhere"))
    monkeypatch.delenv("COLUMNS")  # the sentence that names the file stays whole
    imported = run("import", str(out))
    assert imported.exit_code == 0
    assert "Importing" in imported.stderr
    assert imported.stdout.startswith(f"Imported from {out}: 3 new")


@pytest.mark.usefixtures("three_matches")
def test_no_bar_when_standard_error_is_not_a_terminal_or_the_work_is_quick(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hgin.cli.commands.transfer.DELAY", 0.0)
    piped = run("export", str(tmp_path / "a.json"), "--all")
    assert (piped.exit_code, piped.stderr) == (0, "")
    monkeypatch.setattr("hgin.cli.commands.transfer.is_terminal", lambda stream: True)
    monkeypatch.setattr("hgin.cli.commands.transfer.DELAY", 60.0)
    quick = run("export", str(tmp_path / "b.json"), "--all")
    assert (quick.exit_code, quick.stderr) == (0, "")
