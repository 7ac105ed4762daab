"""The real `hgin board` over HTTP: its secrets, the scorer's entries, the live stream with many
pages and pages that vanish, Ctrl-C, and the QR codes it prints. (In a browser:
test_board_browser.py.)"""

from __future__ import annotations

import json
import socket
import struct
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from hgin.scorekeeper import ScoreKeeper
from tests.board_process import NO_EXTRA, Board, hgin
from tests.conftest import snapshot

pytest.importorskip("uvicorn", reason=NO_EXTRA)
segno = pytest.importorskip("segno", reason=NO_EXTRA)

STREAM_TIMEOUT = 10  # seconds a stream may take to bring an event (a loaded machine)


def hands(home: Path) -> int:
    return len(ScoreKeeper(home).load().hands)


def test_a_wrong_or_missing_token_gets_a_404_that_says_nothing(board: Board) -> None:
    base = board.origin
    wrong = base + "/b/" + "x" * 22
    for method, url in [
        ("GET", base + "/"),
        ("GET", base + "/b/"),
        ("GET", base + "/b"),
        ("GET", wrong),
        ("GET", wrong + "/sheet.json"),
        ("GET", wrong + "/events"),
        ("POST", wrong + "/enter"),
        ("GET", board.viewer + "/nothing"),
        ("GET", board.viewer + "/enter"),  # a method not offered looks the same
        ("GET", board.viewer[:-1]),  # one character short
    ]:
        assert board.request(method, url) == (404, b"Not Found"), (method, url)
    status, body = board.request("GET", board.viewer + "/sheet.json")
    assert status == 200
    assert json.loads(body)["players"] == ["Ann", "Bob"]


def test_the_read_only_address_cannot_write(board: Board) -> None:
    before = snapshot(board.home)
    entry = {"request": "r1", "match": ScoreKeeper(board.home).current_id(), "action": "draw"}
    status, body = board.request("POST", board.viewer + "/enter", entry, {"Origin": board.origin})
    assert (status, body) == (404, b"Not Found")
    assert snapshot(board.home) == before


def test_the_scorer_records_once_per_request_id(board: Board) -> None:
    match = ScoreKeeper(board.home).current_id()
    entry = {
        "request": "tap-1",
        "match": match,
        "action": "knock",
        "player": "Bob",
        "counts": [5, 30],
    }
    first = board.enter(entry)
    assert first == (200, {"ok": True, "message": "Knock: Bob scores 30 − 5 = 25 in game I."})
    assert board.enter(entry) == first  # the phone tried again: nothing more is recorded
    assert hands(board.home) == 2
    assert board.enter({**entry, "request": "tap-2"})[0] == 200
    assert hands(board.home) == 3


def test_the_scorer_page_refuses_other_origins_and_bad_entries(board: Board) -> None:
    match = ScoreKeeper(board.home).current_id()
    before = snapshot(board.home)
    gin = {"request": "g", "match": match, "action": "gin", "player": "Ann", "counts": [18]}
    assert board.enter(gin, Origin="http://evil.example")[0] == 403
    assert board.request("POST", board.scorer + "/enter", gin)[0] == 403  # no Origin at all
    assert board.enter({**gin, "counts": ["18"]}) == (
        400,
        {"ok": False, "message": "refused: a count is a whole number from 0 to 999"},
    )
    assert board.enter({**gin, "match": "2020-01-01-x-y"})[0] == 409
    status, answer = board.enter({**gin, "request": "z", "player": "Zed"})
    assert status == 422 and answer["message"].startswith("hgin: ")
    assert "\n" not in answer["message"]
    assert snapshot(board.home) == before


def stream(board: Board) -> socket.socket:
    """An open page's event stream, its response headers read."""
    parts = urlsplit(board.viewer)
    host, port = parts.netloc.split(":")
    page = socket.create_connection((host, int(port)), timeout=STREAM_TIMEOUT)
    page.sendall(f"GET {parts.path}/events HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode())
    return page


def next_view(page: socket.socket, pending: dict[socket.socket, bytes]) -> dict[str, Any]:
    """The next view an event stream brings (each event is one 'data:' line, then a blank)."""
    buffer = pending.get(page, b"")
    while (start := buffer.find(b"data: ")) < 0 or (end := buffer.find(b"\n\n", start)) < 0:
        chunk = page.recv(65536)
        assert chunk, "the stream ended"
        buffer += chunk
    pending[page] = buffer[end + 2 :]
    view: dict[str, Any] = json.loads(buffer[start + len(b"data: ") : end])
    return view


def test_twenty_pages_follow_every_hand_and_pages_that_vanish_harm_none(board: Board) -> None:
    pages = [stream(board) for _ in range(20)]
    pending: dict[socket.socket, bytes] = {}
    assert {next_view(page, pending)["hands"] for page in pages} == {1}
    done = hgin(board.home, "knock", "bob", "5", "30")  # never held up by the open pages
    assert done.returncode == 0, done.stderr
    assert {next_view(page, pending)["last"] for page in pages} == {
        "Knock: Bob scores 30 − 5 = 25 in game I."
    }
    for page in pages[:10]:  # gone mid-stream, some without a goodbye (a reset)
        page.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        page.close()
    assert hgin(board.home, "draw").returncode == 0
    assert {next_view(page, pending)["hands"] for page in pages[10:]} == {3}
    for page in pages[10:]:
        page.close()
    status, body = board.request("GET", board.viewer + "/sheet.json")
    assert status == 200 and json.loads(body)["hands"] == 3


def test_a_board_started_before_the_first_match_follows_it(hgin_home: Path) -> None:
    running = Board(hgin_home)
    try:
        page = stream(running)
        pending: dict[socket.socket, bytes] = {}
        assert next_view(page, pending) == {
            "waiting": "No match yet: start one with 'hgin new NAME1 NAME2'."
        }
        assert hgin(hgin_home, "new", "Cleo", "Dan").returncode == 0
        assert next_view(page, pending)["players"] == ["Cleo", "Dan"]
        page.close()
    finally:
        running.stop()


def test_ctrl_c_stops_the_board_in_one_line_with_pages_open(board: Board) -> None:
    pages = [stream(board) for _ in range(3)]
    pending: dict[socket.socket, bytes] = {}
    for page in pages:
        next_view(page, pending)
    status, out, err = board.stop()
    assert (status, out, err) == (0, "Board stopped.\n", "")
    for page in pages:
        page.close()


def printed_matrix(lines: list[str]) -> list[list[int]]:
    """The modules a QR code printed with half blocks shows (1 dark), quiet zone included:
    each character is two modules, one above the other; a block is a light module."""
    halves = {" ": (1, 1), "▀": (0, 1), "▄": (1, 0), "█": (0, 0)}
    rows: list[list[int]] = []
    for line in lines:
        pairs = [halves[char] for char in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


def test_each_qr_code_printed_holds_the_address_printed_above_it(board: Board) -> None:
    addresses = [board.viewer, board.scorer]
    for address in addresses:
        assert address is not None
        at = board.printed.index(address)
        drawing = board.printed[at + 1 :]
        drawing = drawing[: next(i for i, line in enumerate(drawing) if line.strip("▀▄█ "))]
        shown = printed_matrix(drawing)
        expected = [list(row) for row in segno.make(address, micro=False).matrix]
        size = len(expected)
        border = (len(shown[0]) - size) // 2
        assert [row[border : border + size] for row in shown[border : border + size]] == expected
    assert board.viewer != board.scorer
    assert len(set(urlsplit(board.viewer).path.split("/")[-1])) > 8  # a random secret


def test_an_ascii_terminal_gets_the_addresses_without_qr_blocks(with_match: Path) -> None:
    (with_match / "config").mkdir()
    (with_match / "config" / "config.toml").write_text("ascii = true\n", encoding="utf-8")
    running = Board(with_match)
    try:
        at = running.printed.index(running.viewer)
        assert running.printed[at + 1] == "(this terminal cannot draw the QR code)"
        assert not any(set(line) & set("▀▄█") for line in running.printed)
    finally:
        running.stop()


def test_both_pages_open_the_match_summary_and_nothing_else_does(board: Board) -> None:
    assert board.scorer is not None
    for page in (board.viewer, board.scorer):
        status, body = board.request("GET", page + "/summary")
        assert status == 200
        assert b"<title>Hollywood Gin: Ann v Bob</title>" in body
    assert board.request("GET", board.origin + "/b/" + "x" * 22 + "/summary") == (
        404,
        b"Not Found",
    )


def test_a_delete_names_its_hand_and_is_the_journal_change_hgin_delete_makes(board: Board) -> None:
    match = ScoreKeeper(board.home).current_id()
    version = json.loads(board.request("GET", board.viewer + "/sheet.json")[1])["version"]
    entry = {"request": "d", "match": match, "action": "delete", "version": version}
    assert board.enter(entry) == (
        400,
        {"ok": False, "message": "refused: delete names the hand it takes out"},
    )
    status, answer = board.enter({**entry, "request": "d2", "hand": 1})
    assert status == 200 and answer["message"].startswith("Hand 1 deleted")
    log = json.loads(hgin(board.home, "log", "--json").stdout)
    assert log[-1]["kind"] == "delete"
    assert hands(board.home) == 0


def test_a_host_given_by_name_prints_the_address_it_listens_on(hgin_home: Path) -> None:
    ScoreKeeper(hgin_home).new_match("Ann", "Bob", dealer="Ann")
    board = Board(hgin_home, "--host", "localhost")
    try:
        assert board.viewer.startswith("http://127.0.0.1:")  # a name would get the bare 404
        status, _ = board.request("GET", board.viewer)
        assert status == 200
    finally:
        board.stop()
