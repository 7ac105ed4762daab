"""An evening at the table: a match begun by mistake, the next match, the wrong match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Run, flat, snapshot


def ids(run: Run) -> list[str]:
    result = run("matches", "--json")
    assert result.exit_code == 0, result.output
    return [row["id"] for row in json.loads(result.stdout)]


def current(hgin_home: Path) -> str:
    return (hgin_home / "current").read_text().strip()


def test_an_empty_match_is_abandoned_without_a_question(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    run("new", "Ann", "Bbo", "--dealer", "Ann")  # the typo
    result = run("abandon")
    assert result.exit_code == 0, result.output
    assert "Abandoned match" in result.stdout and "Ann v Bbo, 0 hands" in result.stdout
    assert "Now current: match" in flat(result.stdout) and "(Ann v Bob)" in result.stdout
    assert [i.split("-", 3)[3] for i in ids(run)] == ["ann-bob"]
    assert current(hgin_home).endswith("ann-bob")
    # It is no longer "the latest with Ann".
    chosen = run("show", "-m", "ann")
    assert chosen.exit_code == 0 and "ann-bob (Ann v Bob), the latest with Ann" in chosen.stderr


def test_a_match_with_hands_is_abandoned_only_when_confirmed(
    run: Run, hgin_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    match_id = ids(run)[0]
    before = snapshot(hgin_home)
    piped = run("abandon", input="y\n")  # nobody at a terminal to answer: refused
    assert piped.exit_code == 1
    assert (
        piped.stderr.startswith(f"hgin: match {match_id} has hands")
        and "'hgin abandon --yes'" in piped.stderr
    )
    monkeypatch.setattr("hgin.cli.commands.matches.is_terminal", lambda stream: True)
    for answer in ("n\n", "\n", "nope\n"):
        refused = run("abandon", input=answer)
        assert refused.exit_code == 1
        assert "(Ann v Bob, 1 hand)? [y/N]" in refused.stdout
        assert refused.stderr == "hgin: nothing was abandoned\n"
        assert snapshot(hgin_home) == before
    done = run("abandon", input="y\n")
    assert done.exit_code == 0, done.output
    assert "No match is current now" in done.stdout
    assert ids(run) == [] and not (hgin_home / "current").exists()
    assert run("show").exit_code == 1


def test_undo_straight_after_brings_the_abandoned_match_back(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    match_file = next((hgin_home / "matches").glob("*.json"))
    kept = match_file.read_bytes()
    match_id = match_file.stem
    assert run("abandon", "--yes").exit_code == 0
    back = run("undo")
    assert back.exit_code == 0, back.output
    assert f"Brought back match {match_id} (Ann v Bob)." in back.stdout
    assert match_file.read_bytes() == kept and current(hgin_home) == match_id
    # A second undo is an ordinary undo again: it takes back the gin.
    again = run("undo")
    assert again.exit_code == 0 and "Brought back" not in again.stdout
    assert json.loads(run("show", "--json").stdout)["hands"] == []


def test_a_change_after_abandoning_makes_undo_mean_that_change(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    run("new", "Ann", "Cy", "--dealer", "Ann")
    run("gin", "ann", "10")
    run("matches", "delete", "--yes")  # the same as abandon
    assert [i.split("-", 3)[3] for i in ids(run)] == ["ann-bob"]
    run("gin", "ann", "20")
    undone = run("undo")
    assert "Brought back" not in undone.stdout
    assert len(json.loads(run("show", "--json").stdout)["hands"]) == 1
    assert [i.split("-", 3)[3] for i in ids(run)] == ["ann-bob"]


def test_restore_backup_brings_an_abandoned_match_back_later(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    match_id = ids(run)[0]
    run("abandon", match_id, "--yes")
    run("new", "Cy", "Dee", "--dealer", "Cy")
    listed = run("restore", "--backup", "-m", match_id)
    assert listed.exit_code == 0 and "1 hand" in listed.stdout
    restored = run("restore", "--backup", "1", "-m", match_id)
    assert restored.exit_code == 0, restored.output
    assert sorted(ids(run)) == sorted([match_id, ids(run)[0]]) and len(ids(run)) == 2
    assert run("undo").exit_code == 1  # nothing to undo in Cy v Dee: the note was forgotten
    run("abandon", "--yes")
    run("new", "Ed", "Flo")
    assert run("undo").exit_code == 1  # a new match since: undo does not bring Cy v Dee back
    assert len(ids(run)) == 2


def test_an_abandoned_series_match_stops_counting(run: Run) -> None:
    run("series", "new", "Ann", "Bob", "--to", "1000", "--dealer", "Ann")
    for _ in range(3):
        run("gin", "ann", "80")
    run("series", "next")
    in_play = json.loads(run("series", "show", "--json").stdout)["in_play"]
    assert run("abandon").exit_code == 0  # no hands: no question
    data = json.loads(run("series", "show", "--json").stdout)
    assert data["in_play"] is None and data["totals"] == {"Ann": 315, "Bob": 0}
    assert in_play not in ids(run)
    nxt = run("series", "next")
    assert nxt.exit_code == 0, nxt.output


def finish(run: Run, player: str = "ann") -> None:
    for _ in range(3):  # three gins of 105 close the three games
        assert run("gin", player, "80").exit_code == 0


def test_rematch_keeps_players_and_rules_and_deals_as_the_rules_say(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann", "--gin-bonus", "20")
    run("rules", "set", "undercut-bonus", "10")  # the rules in force go on, changes included
    finish(run)  # Ann, Bob, Ann dealt: the next deal is Bob's
    result = run("rematch")
    assert result.exit_code == 0, result.output
    first_id = ids(run)[1]
    assert f"Bob deals first (next to deal after match {first_id})." in flat(result.stdout)
    sheet = json.loads(run("show", "--json").stdout)
    assert sheet["players"] == ["Ann", "Bob"] and sheet["hands"] == []
    assert (sheet["rules"]["gin_bonus"], sheet["rules"]["undercut_bonus"]) == (20, 10)
    # Classic rules: the winner of the last hand deals the next, so Ann deals first again.
    run("new", "Ann", "Cy", "--rules", "classic", "--games", "1", "--dealer", "Ann")
    run("gin", "ann", "80")
    assert "Ann deals first (next to deal after match" in flat(run("rematch").stdout)
    assert json.loads(run("show", "--json").stdout)["rules"]["games"] == 1
    run("gin", "ann", "80")
    assert "Cy deals first (chosen)" in run("rematch", "-d", "cy").stdout


def test_rematch_refuses_a_match_in_play(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    match_id = ids(run)[0]
    before = snapshot(hgin_home)
    refused = run("rematch")
    assert refused.exit_code == 1
    assert refused.stderr.startswith(f"hgin: match {match_id} is still in play")
    assert snapshot(hgin_home) == before


def test_in_a_series_rematch_and_series_next_start_its_next_match(run: Run) -> None:
    run("series", "new", "Ann", "Bob", "--to", "1000", "--dealer", "Ann")
    finish(run)
    result = run("rematch")
    assert result.exit_code == 0, result.output
    data = json.loads(run("series", "show", "--json").stdout)
    assert len(data["matches"]) == 1 and data["in_play"] is not None
    finish(run, "bob")  # Bob, Ann, Bob dealt: Ann deals next
    nxt = run("series", "next")
    assert nxt.exit_code == 0, nxt.output
    assert f"Ann deals first (next to deal after match {data['in_play']})." in flat(nxt.stdout)


def test_play_goes_on_to_the_next_match(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    lines = ["g a 80"] * 3 + ["series next", "new", "g b 10", "new Cy Dee --target 50 -d cy"]
    result = run("play", input="\n".join(lines) + "\n")
    assert result.exit_code == 1  # `series next` outside a series is refused
    assert "is in no series still in play: new starts the next" in result.stderr
    out = flat(result.stdout)
    assert "Next: new (same players and rules; in a series, its next match)" in out
    assert "Bob deals first (next to deal after match" in out
    assert "-cy-dee. Cy deals first (chosen)." in out
    sheet = json.loads(run("show", "--json").stdout)
    assert sheet["players"] == ["Cy", "Dee"] and sheet["rules"]["target"] == 50
    bob = json.loads(run("show", "--json", "-m", "bob").stdout)
    assert [h["winner"] for h in bob["hands"]] == ["Bob"]


def test_a_player_of_another_match_in_play_is_named_with_the_way_there(
    run: Run, hgin_home: Path
) -> None:
    run("new", "Anna", "Annie", "--dealer", "Anna")
    run("new", "Zoë", "José María", "--dealer", "Zoë")
    anna = ids(run)[1]
    before = snapshot(hgin_home)
    for command in (("gin", "anna", "10"), ("knock", "anna", "3", "10")):
        refused = run(*command)
        assert refused.exit_code == 1 and snapshot(hgin_home) == before
        assert refused.stderr == (
            f"hgin: 'anna' is not in Zoë v José María; Anna plays in {anna}: "
            "hgin use anna, or add -m anna\n"
        )
    assert run("gin", "anna", "10", "-m", "anna").exit_code == 0  # the way it names works
    # 'ann' could be Anna or Annie there: no match to point to.
    assert "not a player in this match (Zoë or José María)" in run("gin", "ann", "10").stderr
    # A newer, finished match with Anna is what 'use anna' would pick: the hint names the id.
    run("new", "Anna", "Bob", "--games", "1", "--dealer", "Anna")
    run("gin", "anna", "80")
    run("use", "zo")
    assert run("gin", "anna", "10").stderr.endswith(f"hgin use {anna}, or add -m {anna}\n")
    # Two matches in play with Anna: no single match to point to.
    run("new", "Anna", "Cy", "--dealer", "Cy")
    run("use", "zo")
    assert "not a player in this match" in run("gin", "anna", "10").stderr


def test_one_shot_commands_take_the_short_forms_of_play(run: Run) -> None:
    run("ne", "Ines", "Oskar", "--dealer", "oskar")
    knock = run("k", "o", "7", "12")
    assert knock.exit_code == 0, knock.output
    assert "Knock: Oskar scores 12 − 7 = 5 in game I." in knock.stdout
    assert run("g", "i", "18").exit_code == 0 and run("d").exit_code == 0
    assert "Undone: change 3" in run("u").stdout
    assert "--big belongs to gin or edit, not to knock" in run("k", "i", "3", "9", "--big").output
    help_text = flat(run("--help").stdout)
    assert "Short forms, as in 'hgin play':" in help_text
    pairs = help_text.split("Short forms, as in 'hgin play': ")[1].split(" (")[0].split(", ")
    assert len(pairs) == 15
    for pair in pairs:
        short, name = pair.split()
        assert run(short, "--help").stdout.startswith(f"Usage: hgin {name} ")
    assert run("h").exit_code == 2  # help is --help


def test_a_missing_or_extra_count_is_one_usage_line(run: Run, hgin_home: Path) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    before = snapshot(hgin_home)
    cases = {
        ("knock", "ann", "5"): "hgin: the opponent's deadwood is missing (or give the cards with "
        "--opponent): hgin knock PLAYER KNOCKER_DEADWOOD OPPONENT_DEADWOOD\n",
        ("knock", "ann"): "hgin: the knocker's deadwood is missing (or give the cards with "
        "--hand): hgin knock PLAYER KNOCKER_DEADWOOD OPPONENT_DEADWOOD\n",
        ("gin", "ann"): "hgin: the opponent's deadwood is missing (or give the cards with "
        "--opponent): hgin gin PLAYER OPPONENT_DEADWOOD\n",
        ("gin", "ann", "18", "12"): "hgin: '12' is one count too many: gin takes only the "
        "opponent's deadwood: hgin gin PLAYER OPPONENT_DEADWOOD\n",
        ("k", "ann", "3", "9", "4", "2"): "hgin: '4 2' are 2 counts too many: knock takes only "
        "the knocker's and the opponent's deadwood: hgin knock PLAYER KNOCKER_DEADWOOD "
        "OPPONENT_DEADWOOD\n",
    }
    for args, line in cases.items():
        result = run(*args)
        assert (result.exit_code, result.stderr, result.stdout) == (2, line, ""), args
    assert snapshot(hgin_home) == before
    assert "hgin: no option --bogus\n" in run("gin", "ann", "18", "--bogus").stderr


def test_show_after_the_match_file_was_lost_points_to_its_backups(
    run: Run, hgin_home: Path
) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    run("gin", "ann", "10")
    run("gin", "ann", "20")
    match_file = next((hgin_home / "matches").glob("*.json"))
    match_file.unlink()
    shown = run("show")
    assert shown.exit_code == 1
    assert shown.stderr == (
        f"hgin: the file of match {match_file.stem} is gone; 'hgin restore --backup -m "
        f"{match_file.stem}' lists its backups to bring back\n"
    )
    assert run("restore", "--backup", "1", "-m", match_file.stem).exit_code == 0
    assert len(json.loads(run("show", "--json").stdout)["hands"]) == 1


def test_with_matches_but_none_current_show_says_so(run: Run) -> None:
    run("new", "Ann", "Bob", "--dealer", "Ann")
    finish(run)
    run("new", "Ann", "Bbo")
    assert run("abandon").exit_code == 0  # the finished match does not become current
    shown = run("show")
    assert shown.exit_code == 1
    assert shown.stderr == (
        "hgin: no match is current: pick one with 'hgin use MATCH' (see 'hgin matches')\n"
    )
