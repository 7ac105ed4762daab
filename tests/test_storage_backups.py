"""Rotated backups and `hgin restore`: listing, bringing back, undoing a restore, rescuing a
damaged or deleted file, and every refusal, through the real CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hgin.store import backups
from tests.conftest import Run, snapshot
from tests.test_storage import hands_in, match_file, temp_files, template

__all__ = ["match_file", "template"]  # fixtures shared with test_storage


def backup_names(home: Path, match_file: Path) -> list[str]:
    return sorted(p.name for p in (home / "backups" / match_file.stem).iterdir())


def test_backups_are_rotated_five_deep(run: Run, hgin_home: Path, match_file: Path) -> None:
    assert len(backup_names(hgin_home, match_file)) == 2
    for _ in range(6):
        assert run("draw").exit_code == 0
    names = backup_names(hgin_home, match_file)
    assert len(names) == 5
    # The newest five: after 2 + 6 saves those are serials 4..8, holding 3..7 hands.
    assert [n.split("-")[0] for n in names] == ["000004", "000005", "000006", "000007", "000008"]
    folder = hgin_home / "backups" / match_file.stem
    assert [hands_in(folder / n) for n in names] == [3, 4, 5, 6, 7]


def test_restore_lists_backups_with_hand_counts(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    assert run("undo").exit_code == 0
    result = run("restore", "--backup")
    assert result.exit_code == 0
    out = result.stdout
    assert (
        f"Backups of match {match_file.stem} (now 1 hand, last: gin by Ann 43), newest first:"
        in out
    )
    rows = [line[4:].split(None, 4)[4] for line in out.splitlines() if line[:4].strip().isdigit()]
    assert [r.strip() for r in rows] == [
        "2 hands, last: knock by Bob 17",
        "1 hand, last: gin by Ann 43",
        "no hands",
    ]
    data = json.loads(run("restore", "--backup", "--json").stdout)
    assert data["id"] == match_file.stem
    assert [(b["number"], b["hands"], b["holds"]) for b in data["backups"]] == [
        (1, 2, "2 hands, last: knock by Bob 17"),
        (2, 1, "1 hand, last: gin by Ann 43"),
        (3, 0, "no hands"),
    ]
    assert all(b["file"] in out for b in data["backups"])


def test_restore_brings_back_a_version_and_can_itself_be_undone(
    run: Run, hgin_home: Path, match_file: Path, show_json: Callable[..., dict[str, Any]]
) -> None:
    two_hands = match_file.read_bytes()
    assert run("undo").exit_code == 0
    assert run("undo").exit_code == 0
    empty = match_file.read_bytes()
    result = run("restore", "--backup", "2")  # backup 1 has one hand, backup 2 both
    assert result.exit_code == 0, result.output
    assert "Restored match" in result.stdout
    assert "'hgin restore --backup 1' takes this back" in " ".join(result.stdout.split())
    assert match_file.read_bytes() == two_hands
    assert [h["points"] for h in show_json()["hands"]] == [43, 17]
    # The version it replaced was kept first: restoring backup 1 undoes the restore.
    assert run("restore", "--backup", "1").exit_code == 0
    assert match_file.read_bytes() == empty
    # A file name works as well as a number.
    name = json.loads(run("restore", "--backup", "--json").stdout)["backups"][0]["file"]
    assert run("restore", "--backup", name).exit_code == 0
    assert match_file.read_bytes() == two_hands
    assert temp_files(hgin_home) == []


def test_restore_rescues_a_damaged_file_and_keeps_the_damaged_bytes(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    good = match_file.read_bytes()
    match_file.write_bytes(good[: len(good) // 2])  # torn by some other program
    assert run("show").exit_code == 1
    listed = run("restore", "--backup")
    assert listed.exit_code == 0
    assert "the match file itself is unreadable" in listed.stdout
    assert run("restore", "--backup", "1").exit_code == 0
    assert run("show").exit_code == 0
    folder = hgin_home / "backups" / match_file.stem
    newest = backups.list_backups(folder)[0]
    assert newest.path.read_bytes() == good[: len(good) // 2]


def test_restore_a_match_whose_file_was_deleted(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    match_file.unlink()
    assert run("show").exit_code == 1
    result = run("restore", "--backup", "1", "--match", match_file.stem[:12])
    assert result.exit_code == 0, result.output
    assert hands_in(match_file) == 1
    assert "The version it replaced" not in result.stdout  # there was none to keep


@pytest.mark.parametrize(
    ("which", "message"),
    [
        ("9", "no backup '9' of match {id}: give a number from 1 to 2 or a file name"),
        ("0", "no backup '0' of match {id}"),
        ("../../matches/{id}.json", "no backup '../../matches/{id}.json' of match {id}"),
        ("/etc/passwd", "no backup '/etc/passwd' of match {id}"),
        ("  ", "name a backup"),
    ],
)
def test_restore_refusals_change_nothing(
    run: Run, hgin_home: Path, match_file: Path, which: str, message: str
) -> None:
    before = snapshot(hgin_home)
    result = run("restore", "--backup", which.format(id=match_file.stem))
    assert result.exit_code == 1
    assert message.format(id=match_file.stem) in result.stderr
    assert snapshot(hgin_home) == before


def test_restore_refuses_a_damaged_backup(run: Run, hgin_home: Path, match_file: Path) -> None:
    folder = hgin_home / "backups" / match_file.stem
    newest = backups.list_backups(folder)[0].path
    newest.write_text('{"schema": 2', encoding="utf-8")
    listed = json.loads(run("restore", "--backup", "--json").stdout)["backups"][0]
    assert listed["hands"] is None
    assert str(newest) in listed["problem"]
    before = snapshot(hgin_home)
    result = run("restore", "--backup", "1")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"hgin: cannot restore: cannot use {newest}: it is not valid")
    assert snapshot(hgin_home) == before


def test_restore_without_backups(run: Run) -> None:
    assert run("new", "Ann", "Bob").exit_code == 0
    result = run("restore", "--backup")
    assert result.exit_code == 0
    assert "has no backups yet" in result.stdout
    assert run("restore", "--backup", "1").exit_code == 1


def test_foreign_files_in_the_backup_folder_are_ignored(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    folder = hgin_home / "backups" / match_file.stem
    (folder / "notes.json").write_text("{}")
    (folder / "999999-junk.json").write_text("{}")
    for _ in range(6):
        assert run("draw").exit_code == 0
    assert (folder / "notes.json").exists()
    assert (folder / "999999-junk.json").exists()
    assert len(json.loads(run("restore", "--backup", "--json").stdout)["backups"]) == 5
