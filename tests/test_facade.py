"""The library facade on its own folder: what a script gets from `ScoreKeeper` (the command
line's tests check the same actions through the CLI)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from hgin.engine.hands import Hand
from hgin.engine.rules import PROFILES
from hgin.errors import HginError
from hgin.scorekeeper import ScoreKeeper
from hgin.store.cache import parse_cache


def test_a_keeper_on_a_folder_keeps_everything_there(tmp_path: Path, hgin_home: Path) -> None:
    keeper = ScoreKeeper(tmp_path / "scores")
    pub = PROFILES["friendly"]._replace(gin_bonus=20)
    path = keeper.save_preset("pub", pub)
    assert path == tmp_path / "scores" / "config" / "presets.json"
    assert keeper.rules_named("PUB").gin_bonus == 20
    assert set(keeper.profiles()) == {"friendly", "classic", "pub"}
    started = keeper.new("Ann", "Bob", rules="pub", options={"target": 50}, dealer="Ann")
    assert (started.match.rules.gin_bonus, started.match.rules.target) == (20, 50)
    assert keeper.gin("an", 10).message == "Gin: Ann scores 20 + 10 = 30 in game I."
    unfinished = keeper.matches(player="ann", finished=False)
    assert ([e.id for e in unfinished.entries], unfinished.unreadable) == ([started.match.id], [])
    assert keeper.matches(finished=True).entries == []
    assert keeper.show_data()["totals"] == {"Ann": 30, "Bob": 0}
    assert not hgin_home.exists()  # $HGIN_HOME is not used by a keeper given its folder
    with pytest.raises(HginError, match="no rules called 'pub'"):
        ScoreKeeper().rules_named("pub")


def test_a_new_match_is_refused_rules_no_table_plays(hgin_home: Path) -> None:
    keeper = ScoreKeeper()
    with pytest.raises(HginError) as refused:
        keeper.new_match("Ann", "Bob", PROFILES["friendly"]._replace(target=0), dealer="Ann")
    assert str(refused.value) == "target must be between 1 and 100000, not 0"
    assert not hgin_home.exists()  # nothing was written


def test_series_through_the_facade(tmp_path: Path) -> None:
    keeper = ScoreKeeper(tmp_path)
    quick = PROFILES["friendly"]._replace(target=40)
    state, match, left = keeper.series_new("Ann", "Bob", 100, quick, dealer="Bob")
    assert left is None  # no match was current before
    assert state.in_play == match.id and keeper.current_id() == match.id
    with pytest.raises(HginError, match="is still in play"):
        keeper.series_next()
    for _ in range(3):
        keeper.gin("ann", 20)  # each win closes the next game at 45
    state = keeper.series_show(state.series.id[:6])
    assert (state.credited, state.finished, state.winner) == ({"Ann": 135, "Bob": 0}, True, "Ann")
    assert [s.series.id for s in keeper.series_list()] == [state.series.id]
    with pytest.raises(HginError, match="is over: Ann won it"):
        keeper.series_next()


def test_counting_needs_no_folder() -> None:
    counted = ScoreKeeper.count("7s 8s 9s Kd Kh Kc 2c 3c 4c 5d")
    assert counted.arrangement.deadwood == 5
    assert [str(c) for c in counted.arrangement.deadwood_cards] == ["5♦"]


def test_output_files_stay_out_of_the_keepers_folders(tmp_path: Path) -> None:
    keeper = ScoreKeeper(tmp_path / "scores")
    with pytest.raises(HginError, match="inside hgin's folder"):
        keeper.output_target(str(tmp_path / "scores" / "report.txt"))
    assert keeper.output_target("-") is None
    target = keeper.output_target(str(tmp_path / "report.txt"))
    assert target is not None
    assert keeper.write_output(target, "Ann 3\n") == tmp_path / "report.txt"
    with pytest.raises(HginError):
        keeper.output_target(str(tmp_path / "report.txt"))  # there now: only with force
    assert keeper.output_target(str(tmp_path / "report.txt"), force=True) == target


def test_the_library_refreshes_the_cache_when_asked(tmp_path: Path) -> None:
    # The command line asks once the command has printed; a listing alone writes nothing.
    home = tmp_path / "home"
    keeper = ScoreKeeper(home)
    started = keeper.new_match("Ann", "Bob", dealer="Ann")
    assert not (home / "cache.json").exists()  # saving a match leaves the cache alone
    listing = keeper.matches()
    assert [e.id for e in listing.entries] == [started.id]
    assert not (home / "cache.json").exists()
    listing.refresh()
    cached = parse_cache((home / "cache.json").read_bytes())
    assert cached is not None and list(cached) == [started.id]


def test_a_keeper_settles_at_the_stake_of_its_own_settings(tmp_path: Path, hgin_home: Path) -> None:
    keeper = ScoreKeeper(tmp_path / "scores")
    keeper.new("Ann", "Bob", dealer="Ann")
    keeper.gin("ann", 10)  # 35 points, in a match started without a stake
    for folder, stake in ((hgin_home, "0.05"), (tmp_path / "scores", "0.10")):
        (folder / "config").mkdir(parents=True, exist_ok=True)
        (folder / "config" / "config.toml").write_text(f'stake = "{stake}"\n', encoding="utf-8")
    settled = keeper.settle()
    assert (settled.settlement.stake, settled.stake_from) == (Decimal("0.10"), "config")


def test_a_typed_hand_is_recorded_from_its_counts_or_its_cards(hgin_home: Path) -> None:
    keeper = ScoreKeeper(hgin_home)
    keeper.new_match("Ann", "Bob", dealer="Ann")
    assert keeper.record(Hand("knock", "bo", 3, 20)).message.startswith("Knock: Bob scores")
    counted = keeper.record(Hand("gin", "an", opponent_cards="Js Qs Ks Td Th Tc 2d 3h 5s 8s"))
    assert counted.counted is not None and counted.counted.opponent_deadwood == 18
    before = keeper.load().journal
    with pytest.raises(HginError, match="a knock is counted from both hands"):
        keeper.record(Hand("knock", "ann", hand_cards="7s 8s 9s Kd Kh Kc 2c 3c 4c 5d"))
    assert keeper.load().journal == before
