"""Hostile files and output paths: what a planted, damaged or crafted file, or an output path
pointing at hgin's own files, must never do (replace a match, print an escape sequence, end
in a traceback, read without limit, write through a link)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run, snapshot

ESCAPES = "\x1b[2J\x1b]0;pwned\x07"


@pytest.fixture
def match_file(run: Run, hgin_home: Path) -> Path:
    """A match of Ann and Bob with two hands; its file."""
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "18").exit_code == 0
    assert run("knock", "bob", "3", "20").exit_code == 0
    (path,) = (hgin_home / "matches").glob("*.json")
    return path


def exported(run: Run, tmp_path: Path) -> dict[str, Any]:
    target = tmp_path / "export.json"
    assert run("export", str(target)).exit_code == 0
    data: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
    target.unlink()
    return data


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1, text
    assert "\x1b" not in text and "Traceback" not in text
    return lines[0]


# -- output paths ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("summary", "-f", "csv", "-o"),
        ("summary", "-f", "csv", "--force", "-o"),
        ("stats", "--force", "-o"),
        ("export", "--force"),
    ],
)
def test_an_output_path_inside_the_data_folder_is_refused(
    run: Run, hgin_home: Path, match_file: Path, command: tuple[str, ...]
) -> None:
    before = snapshot(hgin_home)
    for target in (match_file, hgin_home / "elsewhere.txt", hgin_home / "config" / "x.json"):
        result = run(*command, str(target))
        assert result.exit_code == 1, result.output
        assert "inside hgin's folder" in one_line(result.stderr)
        assert snapshot(hgin_home) == before


def test_a_link_into_the_data_folder_is_refused(
    run: Run, hgin_home: Path, match_file: Path, tmp_path: Path
) -> None:
    link = tmp_path / "innocent.csv"
    link.symlink_to(match_file)
    before = snapshot(hgin_home)
    result = run("summary", "-o", str(link), "--force")
    assert result.exit_code == 1
    assert snapshot(hgin_home) == before
    assert link.is_symlink()


def test_a_fifo_or_a_device_is_never_replaced(run: Run, match_file: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (str(fifo), "/dev/null"):
        result = run("summary", "-f", "csv", "-o", target, "--force")
        assert result.exit_code == 1
        assert "not a regular file" in one_line(result.stderr)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_dev_stdout_points_to_dash(run: Run, match_file: Path) -> None:
    result = run("summary", "-f", "csv", "-o", "/dev/stdout")
    assert result.exit_code == 1
    assert "'-o -'" in one_line(result.stderr)
    assert run("summary", "-f", "csv", "-o", "-").stdout.startswith("Hand,")


def test_summary_replaces_a_file_only_with_force(
    run: Run, match_file: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out.txt"
    target.write_text("mine", encoding="utf-8")
    result = run("summary", "-o", str(target))
    assert result.exit_code == 1
    assert one_line(result.stderr) == f"hgin: {target} already exists: add --force to replace it"
    assert target.read_text(encoding="utf-8") == "mine"
    assert run("summary", "-o", str(target), "--force").exit_code == 0
    assert "Ann" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "start"),
    [
        ("s.svg", "<svg"),
        ("s.html", "<!DOCTYPE html>"),
        ("s.csv", "Hand,"),
        ("s.json", "{"),
        ("s.md", "## Hollywood"),
        ("s.txt", "Hollywood Gin"),
    ],
)
def test_summary_format_from_the_extension(
    run: Run, match_file: Path, tmp_path: Path, name: str, start: str
) -> None:
    target = tmp_path / name
    assert run("summary", "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").lstrip().startswith(start)


def test_stats_format_from_the_extension(run: Run, match_file: Path, tmp_path: Path) -> None:
    assert run("stats", "-o", str(tmp_path / "st.html")).exit_code == 0
    assert (tmp_path / "st.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert run("stats", "-o", str(tmp_path / "st.json")).exit_code == 0
    assert "players" in json.loads((tmp_path / "st.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("command", ["summary", "stats"])
def test_an_unknown_extension_needs_a_format(
    run: Run, match_file: Path, tmp_path: Path, command: str
) -> None:
    target = tmp_path / "out.pdf"
    result = run(command, "-o", str(target))
    assert result.exit_code == 1
    assert "cannot tell the format" in one_line(result.stderr)
    assert not target.exists()
    assert run(command, "-o", str(target), "-f", "html").exit_code == 0


# -- import ----------------------------------------------------------------------------------


def test_import_refuses_a_device_at_once(run: Run, hgin_home: Path) -> None:
    result = run("import", "/dev/zero")
    assert result.exit_code == 1
    assert "not a regular file" in one_line(result.stderr)
    assert not hgin_home.exists()


def test_import_of_deeply_nested_json_is_one_line(
    run: Run, hgin_home: Path, tmp_path: Path
) -> None:
    path = tmp_path / "nested.json"
    path.write_text("[" * 2000 + "]" * 2000, encoding="utf-8")
    result = run("import", str(path))
    assert result.exit_code == 1
    assert "nested too deeply" in one_line(result.stderr)


def test_import_refuses_what_hgin_could_not_open(
    run: Run, match_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hgin.store.guard
    import hgin.store.matches

    data = exported(run, tmp_path)
    data["matches"][0]["id"] = "zz-big"
    draw = {"kind": "record", "at": "2026-01-01T20:00:00+00:00", "text": "a dead hand"}
    data["matches"][0]["journal"] = [
        {"number": n, **draw, "hand": {"kind": "draw", "recorded_at": None}} for n in range(1, 3001)
    ]
    del data["matches"][0]["sheet"]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    # A smaller cap stands for the real one: the file written as hgin writes it (a blank
    # after each comma and colon) is larger than the compact export it came from.
    cap = path.stat().st_size + 1000
    monkeypatch.setattr(hgin.store.matches, "MATCH_CAP", cap)
    monkeypatch.setattr(hgin.store.guard, "MATCH_CAP", cap)
    result = run("import", str(path))
    assert result.exit_code == 1
    assert "more than a match file may hold" in one_line(result.stderr)
    assert run("use", "zz").exit_code == 1


def test_an_identifier_with_a_trailing_newline_is_refused(
    run: Run, hgin_home: Path, match_file: Path, tmp_path: Path
) -> None:
    data = exported(run, tmp_path)
    data["matches"][0]["id"] = "zz\n"
    path = write(tmp_path / "nl.json", data)
    before = snapshot(hgin_home)
    result = run("import", str(path))
    assert result.exit_code == 1
    one_line(result.stderr)
    assert snapshot(hgin_home) == before


def test_an_unknown_field_is_refused_everywhere(
    run: Run, hgin_home: Path, match_file: Path, tmp_path: Path
) -> None:
    data = exported(run, tmp_path)
    data["matches"][0]["notes"] = "kept?"
    result = run("import", str(write(tmp_path / "notes.json", data)))
    assert result.exit_code == 1
    assert "unknown field 'notes'" in one_line(result.stderr)
    stored = json.loads(match_file.read_text(encoding="utf-8"))
    write(match_file, {**stored, "notes": "kept?"})
    result = run("show")
    assert result.exit_code == 1
    assert one_line(result.stderr).startswith(f"hgin: cannot use {match_file}: it has an unknown")


@pytest.mark.parametrize(
    ("place", "message"),
    [
        ("created", "'created' is not a date and time: 'garbage'"),
        ("at", "change 2: 'at' is not a date and time: 'garbage'"),
        ("recorded_at", "change 2, 'hand': 'recorded_at' is not a date and time: 'garbage'"),
    ],
)
def test_a_time_that_is_not_one_is_refused_with_the_path(
    run: Run, hgin_home: Path, match_file: Path, tmp_path: Path, place: str, message: str
) -> None:
    def spoiled(match: dict[str, Any]) -> dict[str, Any]:
        if place == "created":
            match["created"] = "garbage"
        elif place == "at":
            match["journal"][1]["at"] = "garbage"
        else:
            match["journal"][1]["hand"]["recorded_at"] = "garbage"
        return match

    export = exported(run, tmp_path)
    export["matches"][0] = spoiled(export["matches"][0])
    write(match_file, spoiled(json.loads(match_file.read_text(encoding="utf-8"))))
    before = snapshot(hgin_home)
    for command in (("show",), ("log",), ("gin", "ann", "10")):
        result = run(*command)
        assert result.exit_code == 1, command
        assert one_line(result.stderr) == f"hgin: cannot use {match_file}: {message}"
    result = run("import", "--replace", str(write(tmp_path / "bad-time.json", export)))
    assert result.exit_code == 1 and "not a date and time" in one_line(result.stderr)
    assert snapshot(hgin_home) == before


def test_an_undone_hand_is_checked_on_load(run: Run, match_file: Path) -> None:
    stored = json.loads(match_file.read_text(encoding="utf-8"))
    bad = {"kind": "knock", "player": "Ann", "deadwood": 50, "opponent_deadwood": 60}
    last = len(stored["journal"])
    at = {"at": "2026-01-01T20:00:00+00:00", "text": "x"}
    stored["journal"] += [
        {"number": last + 1, **at, "kind": "record", "hand": {**bad, "recorded_at": None}},
        {"number": last + 2, **at, "kind": "undo", "change": last + 1},
    ]
    write(match_file, stored)
    result = run("show")
    assert result.exit_code == 1
    assert one_line(result.stderr).endswith(
        f"change {last + 1} (record): the knocker's deadwood must be between 1 and 10, not 50"
    )


def test_an_undone_hand_of_a_schema_2_file_is_checked_on_load(run: Run, match_file: Path) -> None:
    corpus = Path(__file__).parent / "corpus" / "friendly-undone.json"
    old = json.loads(corpus.read_text(encoding="utf-8"))
    old["id"] = match_file.stem
    old["undone"][0].update(kind="knock", player="Ann", deadwood=50, opponent_deadwood=60)
    write(match_file, old)
    result = run("show")
    assert result.exit_code == 1
    assert one_line(result.stderr).endswith(  # the hands before it are changes 1 to 4
        "change 6 (record): the knocker's deadwood must be between 1 and 10, not 50"
    )


# -- texts from files ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("char", "code"), [("\u202e", "U+202E"), ("\x85", "U+0085"), ("\x7f", "U+007F")]
)
def test_a_control_character_written_as_is_beside_other_texts_is_refused(
    run: Run, hgin_home: Path, match_file: Path, char: str, code: str
) -> None:
    """Not escaped: the character itself is in the file, among accented and ASCII texts."""
    stored = json.loads(match_file.read_text(encoding="utf-8"))
    stored["journal"][0]["text"] = f"Zoë gagne · {char}x"
    match_file.write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
    before = snapshot(hgin_home)
    for command in (("show",), ("gin", "ann", "1")):
        result = run(*command)
        assert result.exit_code == 1
        assert f"it holds a control character ({code}) in a text" in one_line(result.stderr)
    assert snapshot(hgin_home) == before


@pytest.mark.parametrize("field", ["profile", "created"])
def test_escape_sequences_in_a_match_file_are_refused(
    run: Run, hgin_home: Path, match_file: Path, tmp_path: Path, field: str
) -> None:
    data = exported(run, tmp_path)
    match = data["matches"][0]
    if field == "profile":
        match["rules"]["profile"] = ESCAPES
    else:
        match["created"] = ESCAPES
    match["id"] = "2020-01-01-x-y"
    del match["sheet"]
    before = snapshot(hgin_home)
    result = run("import", str(write(tmp_path / "esc.json", data)))
    assert result.exit_code == 1
    assert "control character" in one_line(result.stderr)
    assert snapshot(hgin_home) == before
    stored = json.loads(match_file.read_text(encoding="utf-8"))
    stored["rules"]["profile"] = ESCAPES
    write(match_file, stored)
    for command in (("show",), ("summary",), ("rules",), ("gin", "ann", "1")):
        result = run(*command)
        assert "\x1b" not in result.output, command
    result = run("matches")
    assert "\x1b" not in result.output


def test_escape_sequences_in_presets_and_series_are_refused(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    config = hgin_home / "config"
    config.mkdir()
    rules = json.loads(run("rules", "--json").stdout)
    write(config / "presets.json", {"pub\x1b[2J": rules})
    result = run("rules", "--list")
    assert "\x1b" not in result.output
    assert result.exit_code == 1
    (config / "presets.json").unlink()
    assert run("series", "new", "Cy", "Di", "--to", "500").exit_code == 0
    (path,) = (hgin_home / "series").glob("*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["players"] = ["Cy" + ESCAPES, "Di"]
    write(path, data)
    for command in (("series", "show"), ("series", "list")):
        result = run(*command)
        assert "\x1b" not in result.output, command
        assert result.exit_code == 1


# -- nesting ---------------------------------------------------------------------------------


def test_nested_files_give_one_line(run: Run, hgin_home: Path, match_file: Path) -> None:
    nested = "[" * 3000 + "]" * 3000
    (hgin_home / "config").mkdir()
    (hgin_home / "config" / "presets.json").write_text(nested, encoding="utf-8")
    result = run("rules", "--list")
    assert result.exit_code == 1
    assert "nested too deeply" in one_line(result.stderr)
    (hgin_home / "config" / "presets.json").unlink()
    (hgin_home / "config" / "config.toml").write_text(
        "players = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8"
    )
    result = run("new")
    assert result.exit_code == 1
    assert "nested too deeply" in one_line(result.stderr)


def test_a_nested_stats_cache_is_rebuilt(run: Run, hgin_home: Path, match_file: Path) -> None:
    expected = run("stats", "--json").stdout
    for cache in ("stats-cache.json", "index.json", "cache.tsv", "cache.json"):
        (hgin_home / cache).write_text("[" * 3000 + "]" * 3000, encoding="utf-8")
    result = run("stats", "--json")
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
    assert run("matches").exit_code == 0


# -- links and planted files -----------------------------------------------------------------


def test_a_dangling_lock_link_is_not_followed(
    run: Run, hgin_home: Path, match_file: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside-lock"
    (hgin_home / ".lock").unlink()
    (hgin_home / ".lock").symlink_to(outside)
    result = run("gin", "ann", "5")
    assert result.exit_code == 1
    assert "symbolic link" in one_line(result.stderr)
    assert not outside.exists()


def test_a_linked_backup_folder_is_not_written_through(
    run: Run, hgin_home: Path, match_file: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    planted = elsewhere / "000001-20200101T000000Z.json"
    planted.write_text("{}", encoding="utf-8")
    folder = hgin_home / "backups" / match_file.stem
    for old in folder.iterdir():
        old.unlink()
    folder.rmdir()
    folder.symlink_to(elsewhere, target_is_directory=True)
    for _ in range(7):
        result = run("gin", "ann", "1")
        assert result.exit_code == 1
        assert "symbolic link" in one_line(result.stderr)
    assert sorted(p.name for p in elsewhere.iterdir()) == [planted.name]


def test_a_planted_serial_breaks_neither_numbering_nor_pruning(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    folder = hgin_home / "backups" / match_file.stem
    planted = folder / "999999999-20200101T000000Z.json"
    planted.write_bytes(match_file.read_bytes())
    top = folder / "999999-20200101T000000Z.json"
    top.write_bytes(match_file.read_bytes())
    for _ in range(8):
        assert run("draw").exit_code == 0
    names = sorted(p.name for p in folder.iterdir() if p != planted)
    assert len(names) == 5
    assert all(len(n.split("-")[0]) == 6 for n in names)
    listed = json.loads(run("restore", "--backup", "--json").stdout)["backups"]
    assert len(listed) == 5
    assert planted.exists()  # not a name hgin writes: never listed, never deleted


def test_backups_in_the_same_second_do_not_overwrite_each_other(
    run: Run, hgin_home: Path, match_file: Path
) -> None:
    folder = hgin_home / "backups" / match_file.stem
    (folder / "999999999-20200101T000000Z.json").write_text("{}", encoding="utf-8")
    before = len(list(folder.iterdir()))
    assert run("gin", "ann", "1").exit_code == 0
    assert run("gin", "ann", "2").exit_code == 0
    assert len(list(folder.iterdir())) == before + 2


def test_a_new_match_in_a_read_only_folder_does_not_promise_a_previous_version(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import hgin.store.guard

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(hgin.store.guard, "_temp_copy", refuse)
    result = run("new", "Ann", "Bob")
    assert result.exit_code == 1
    line = one_line(result.stderr)
    assert "Read-only file system" in line
    assert "previous version" not in line


@pytest.mark.parametrize("command", [("summary", "-o"), ("stats", "-o"), ("export",)])
def test_an_empty_output_name_is_refused_as_empty(
    run: Run, match_file: Path, command: tuple[str, ...]
) -> None:
    result = run(*command, "")
    assert result.exit_code == 1
    assert result.stderr == "hgin: an empty file name: give one, or '-' for standard output\n"
