"""One rule, one place, as a user meets it: every command names a match in the same ways, the
words of the smaller corners (a finished series, an abandoned match's backups, play once a
match is over), and every printed decimal rounded half up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Run, flat


@pytest.fixture
def evening(run: Run) -> dict[str, str]:
    """Three matches of Ines and Oskar, then one of Ann and Bob (current); their ids."""
    for _ in range(3):
        assert run("new", "Ines", "Oskar", "--dealer", "Ines").exit_code == 0
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    ids = sorted(row["id"] for row in json.loads(run("matches", "--json").stdout))
    return {"ann": ids[0], "ines": ids[1], "ines2": ids[2], "ines3": ids[3]}


def test_a_match_is_named_by_id_start_players_one_player_or_part_of_its_id(
    run: Run, evening: dict[str, str]
) -> None:
    cases = [
        (("use", "ines-oskar-2"), evening["ines2"], ""),
        (("show", "-m", evening["ines"]), evening["ines"], ""),  # exact beats a start
        (("show", "-m", "Ann v Bob"), evening["ann"], "Ann and Bob"),
        (("show", "-m", "ann-bob"), evening["ann"], "Ann and Bob"),
        (("show", "-m", "oskar-ines"), evening["ines3"], "Ines and Oskar"),
        (("show", "-m", "osk"), evening["ines3"], "Oskar"),
        (("summary", "-m", "ines-oskar-3", "-f", "json"), evening["ines3"], ""),
    ]
    for args, expected, chosen_by in cases:
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
        assert expected in result.stdout, args
        if chosen_by:
            assert result.stderr.endswith(f"the latest with {chosen_by}\n"), args
    refused = run("show", "-m", "2026")
    assert refused.exit_code == 1
    assert refused.stderr.startswith("hgin: '2026' could be ")
    assert refused.stderr.endswith(": type more of it\n")


def test_abandon_takes_m_and_restore_names_the_abandoned_match(
    run: Run, evening: dict[str, str]
) -> None:
    assert run("abandon", "-m", "ines-oskar-3").exit_code == 0
    assert run("abandon", "x", "-m", "y").exit_code == 2
    listed = run("restore", "--backup", "-m", "ines-oskar-3")
    assert listed.exit_code == 0, listed.output
    text = flat(listed.stdout)
    assert f"Backups of match {evening['ines3']} (taken off the list: abandoned" in text
    assert f"'hgin restore --backup N -m {evening['ines3']}'" in text
    by_player = run("restore", "--backup", "-m", "ann")  # a player's name, as elsewhere
    assert by_player.exit_code == 0, by_player.output
    assert evening["ann"] in by_player.stdout


def test_rematch_after_a_finished_series_says_it_starts_outside_it(run: Run) -> None:
    assert run("series", "new", "Ann", "Bob", "--to", "30", "--target", "10").exit_code == 0
    for _ in range(3):
        assert run("gin", "ann", "20").exit_code == 0
    result = run("rematch")
    assert result.exit_code == 0, result.output
    assert "is over: match " in flat(result.stdout)
    assert "'hgin series next' goes on only in a series still in play" in flat(result.stdout)


def test_an_average_rounds_half_up_as_money_does(run: Run, hgin_home: Path) -> None:
    assert (
        run("new", "Ann", "Bob", "--dealer", "Ann", "--games", "1", "--target", "300").exit_code
        == 0
    )
    for _ in range(7):
        assert run("gin", "ann", "16").exit_code == 0  # 7 × 41 = 287
    assert run("gin", "ann", "1").exit_code == 0  # + 26 = 313 over 8 hands: 39.125
    stats = json.loads(run("stats", "--json").stdout)
    assert stats["players"]["Ann"]["average_points"] == 39.13
    assert "39.13" in run("stats").stdout


def test_usage_errors_are_two_lines_in_hgins_words(run: Run, evening: dict[str, str]) -> None:
    cases = {
        ("knok", "ann", "3", "10"): "hgin: no command 'knok': did you mean 'knock'?\n"
        "Try 'hgin --help'.\n",
        ("summary", "-f", "pdf"): "hgin: --format: 'pdf' is not one of text, markdown, html, "
        "svg, csv, json\nTry 'hgin summary --help'.\n",
        ("log", "--last", "x"): "hgin: --last: not a whole number\nTry 'hgin log --help'.\n",
        ("knock",): "hgin: missing 'PLAYER'\nTry 'hgin knock --help'.\n",
        ("new", "Ann", "Bob", "--tagret", "3"): "hgin: no option --tagret (did you mean "
        "--stake, --target, --tie)\nTry 'hgin new --help'.\n",
    }
    for args, said in cases.items():
        result = run(*args)
        assert (result.exit_code, result.stderr) == (2, said), args
    assert "belongs to" not in run("abandon", "-m", "nobody-here").stderr


def test_play_reads_a_new_line_with_hgin_new_s_own_options(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    lines = "new Eve Fay --no-stake 1 --no-gin-bonus 40\nnew Eve Fay --target 250 -d eve\n"
    result = run("play", input=lines)
    assert "hgin: no option --no-stake (did you mean --no-straight, --stake)\n" in result.stderr
    rules = json.loads(run("rules", "--json").stdout)
    assert (rules["target"], rules["gin_bonus"], rules["stake"]) == (250, 25, None)
    assert json.loads(run("show", "--json").stdout)["players"] == ["Eve", "Fay"]


def test_a_new_line_in_play_refuses_help_and_bad_values_and_play_goes_on(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    lines = "new Cy Di --help\nnew Cy Di --target abc\nnew Cy Di --json\nnew Cy Di -d cy\n"
    result = run("play", input=lines)
    assert result.stderr.splitlines()[:3] == [
        "hgin: no option --help",  # help would end the session and drop the lines after it
        "hgin: --target: not a whole number",
        "hgin: --json belongs to show, settle, log or more, not to new",
    ]
    assert json.loads(run("show", "--json").stdout)["players"] == ["Cy", "Di"]


def test_a_refusal_at_a_terminal_is_wrapped_between_words_as_output_is(
    run: Run, hgin_home: Path
) -> None:
    import os
    import pty
    import subprocess
    import sys

    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    whole = run("gin", "zed", "10").stderr.strip()  # piped: one line
    master, terminal = pty.openpty()
    env = {**os.environ, "HGIN_HOME": str(hgin_home), "COLUMNS": "30", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "hgin", "gin", "zed", "10"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=terminal,
        env=env,
        timeout=60,
        check=False,
    )
    os.close(terminal)
    lines = os.read(master, 65536).decode("utf-8").replace("\r\n", "\n").splitlines()
    os.close(master)
    assert done.returncode == 1
    assert len(lines) > 1 and all(len(line) <= 30 for line in lines), lines
    assert " ".join(line.strip() for line in lines) == whole


def test_the_settings_file_is_parsed_once_a_command(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tomllib

    settings = hgin_home / "config" / "config.toml"
    settings.parent.mkdir(parents=True)
    # It mentions ascii, so the start of every command reads it too; a comment of its own
    # makes its bytes new to this process.
    settings.write_text(f'# {hgin_home}\nascii = false\nrules = "classic"\n', encoding="utf-8")
    parsed = []
    real = tomllib.loads
    monkeypatch.setattr(tomllib, "loads", lambda text: parsed.append(text) or real(text))
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert len(parsed) == 1
    assert json.loads(run("rules", "--json").stdout)["profile"] == "classic"


def test_a_series_started_over_an_unfinished_match_says_so_as_new_does(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("gin", "ann", "10").exit_code == 0
    left = json.loads(run("show", "--json").stdout)["id"]
    said = flat(run("series", "new", "Cy", "Dee", "--dealer", "Cy").stdout)
    assert f"Match {left} (Ann v Bob, 1 hand) is not finished and is no longer current" in said
    assert f"'hgin use {left}' goes back to it." in said


def test_a_usage_error_names_its_command_s_help_and_a_range_in_hgin_s_words(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    missing = run("stats", "--player")
    assert (missing.exit_code, missing.stderr) == (
        2,
        "hgin: option '--player' requires an argument\nTry 'hgin stats --help'.\n",
    )
    below = run("log", "--last", "0")
    assert (below.exit_code, below.stderr) == (
        2,
        "hgin: --last: must be at least 1\nTry 'hgin log --help'.\n",
    )


def test_a_match_is_named_by_its_players_with_v_vs_or_v_dot_in_any_case(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    for typed in ("Ann v Bob", "Ann Vs Bob", "ann VS bob", "Ann v. Bob"):
        shown = run("show", "--json", "-m", typed)
        assert shown.exit_code == 0, (typed, shown.stderr)
        assert json.loads(shown.stdout)["players"] == ["Ann", "Bob"]
