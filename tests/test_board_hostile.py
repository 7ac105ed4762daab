"""The fourth round of attacks on the real `hgin board`: half-sent entries and vanishing
clients at Ctrl-C, hundreds of half-open connections under a low `ulimit -n`, entries nested
deep or with a key twice, addresses with a trailing slash, a rebinding Host, a stale entry,
and error pages that would name the data folder. Every wait is bounded."""

from __future__ import annotations

import http.client
import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from hgin.scorekeeper import ScoreKeeper
from tests.board_process import NO_EXTRA, Board, hgin

pytest.importorskip("uvicorn", reason=NO_EXTRA)

ANSWER_TIMEOUT = 10  # seconds within which the board must answer, however it is attacked


def connect(board: Board, source: str = "127.0.0.1") -> socket.socket:
    parts = urlsplit(board.viewer)
    host, port = parts.netloc.split(":")
    client = socket.socket()
    client.settimeout(ANSWER_TIMEOUT)
    client.bind((source, 0))
    client.connect((host, int(port)))
    return client


def half_sent_entries(board: Board) -> list[socket.socket]:
    """Three scorer POSTs that never finish: a body shorter than its length, no body, and a
    chunked body with no last chunk."""
    assert board.scorer is not None
    path, netloc = urlsplit(board.scorer).path + "/enter", urlsplit(board.scorer).netloc
    head = f"POST {path} HTTP/1.1\r\nHost: {netloc}\r\nOrigin: {board.origin}\r\n"
    head += "Content-Type: application/json\r\n"
    sent = [
        head + 'Content-Length: 100\r\n\r\n{"request": "r", ',
        head + "Content-Length: 100\r\n\r\n",
        head + 'Transfer-Encoding: chunked\r\n\r\n5\r\n{"req\r\n',
    ]
    clients = []
    for text in sent:
        client = connect(board)
        client.sendall(text.encode())
        clients.append(client)
    return clients


def test_ctrl_c_stops_the_board_at_once_whatever_clients_are_sending(board: Board) -> None:
    assert board.request("GET", board.viewer + "/sheet.json")[0] == 200  # it is serving
    clients = half_sent_entries(board)
    gone = half_sent_entries(board)
    for client in gone:  # these go away mid-entry: forgotten without a word
        client.close()
    started = time.monotonic()
    assert board.stop() == (0, "Board stopped.\n", "")
    assert time.monotonic() - started < 5
    for client in clients:
        client.close()


def test_hundreds_of_half_open_connections_leave_the_board_answering(
    with_match: Path,
) -> None:
    board = Board(with_match, "--scorer", open_files=256)
    attackers: list[socket.socket] = []
    try:
        netloc = urlsplit(board.viewer).netloc
        for _ in range(400):  # more than the process may hold files
            try:
                attacker = connect(board, "127.0.0.2")
                attacker.sendall(f"GET / HTTP/1.1\r\nHost: {netloc}\r\n".encode())
            except OSError:
                break  # the board closed it at once: its cap
            attackers.append(attacker)
        started = time.monotonic()
        status, body = board.request("GET", board.viewer + "/sheet.json")
        assert status == 200 and json.loads(body)["players"] == ["Ann", "Bob"]
        match = ScoreKeeper(with_match).current_id()
        entry = {"request": "d1", "match": match, "action": "draw"}
        assert board.enter(entry)[0] == 200
        assert time.monotonic() - started < ANSWER_TIMEOUT
    finally:
        for attacker in attackers:
            attacker.close()
        status, out, err = board.stop()
    assert (status, out) == (0, "Board stopped.\n")
    assert err.count("\n") <= 1, err[-2000:]


def test_entries_nested_deep_or_with_a_key_twice_are_refused_in_one_line(board: Board) -> None:
    assert board.scorer is not None
    headers = {"Origin": board.origin, "Content-Type": "application/json"}
    nested = "[" * 2000 + "]" * 2000  # within an entry's size
    for raw, said in [
        (nested, "it is nested too deeply"),
        ('{"request": "a", "action": "draw", "action": "undo"}', "key"),
    ]:
        parts = urlsplit(board.scorer)
        connection = http.client.HTTPConnection(parts.netloc, timeout=ANSWER_TIMEOUT)
        connection.request("POST", parts.path + "/enter", raw.encode(), headers)
        answer = connection.getresponse()
        message = json.loads(answer.read())["message"]
        connection.close()
        assert answer.status == 400
        assert message.startswith("refused: ") and said in message and "\n" not in message
    assert len(ScoreKeeper(board.home).load().hands) == 1


def test_no_address_answers_without_a_secret_and_a_foreign_host_gets_nothing(
    board: Board,
) -> None:
    assert board.scorer is not None
    for url in [
        board.origin + "/b/anything/",
        board.origin + "/b/x/sheet.json/",
        board.viewer + "/",
        board.viewer + "/sheet.json/",
    ]:
        assert board.request("GET", url) == (404, b"Not Found"), url
    match = ScoreKeeper(board.home).current_id()
    gin = {"request": "g", "match": match, "action": "gin", "player": "Ann", "counts": [5]}
    port = urlsplit(board.viewer).port
    rebound = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    status, body = board.request("POST", board.scorer + "/enter", gin, rebound)
    assert (status, body) == (404, b"Not Found")
    assert board.request("GET", board.viewer, headers={"Host": f"evil.example:{port}"}) == (
        404,
        b"Not Found",
    )
    elsewhere = {"Host": f"127.0.0.1:{port + 1}"}
    assert board.request("GET", board.viewer + "/sheet.json", headers=elsewhere)[0] == 404
    local = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}
    assert board.request("POST", board.scorer + "/enter", gin, local)[0] == 200


def test_an_entry_made_on_a_stale_sheet_is_refused(board: Board) -> None:
    view = json.loads(board.request("GET", board.viewer + "/sheet.json")[1])
    assert view["version"][0] == 1
    assert hgin(board.home, "draw").returncode == 0  # the laptop records a hand meanwhile
    undo = {"request": "u1", "match": view["id"], "action": "undo", "version": view["version"]}
    assert board.enter(undo) == (
        422,
        {"ok": False, "message": "hgin: the sheet changed: look again"},
    )
    assert len(ScoreKeeper(board.home).load().hands) == 2
    fresh = json.loads(board.request("GET", board.viewer + "/sheet.json")[1])["version"]
    first = board.enter({**undo, "request": "u2", "version": fresh})
    assert first[0] == 200
    # The same request again gets its first answer, before any look at the version.
    assert board.enter({**undo, "request": "u2", "version": fresh}) == first
    assert len(ScoreKeeper(board.home).load().hands) == 1


def test_a_match_that_cannot_be_read_is_said_without_the_data_folder(board: Board) -> None:
    match = ScoreKeeper(board.home).current_id()
    (board.home / "matches" / f"{match}.json").write_text("{", encoding="utf-8")
    deadline = time.monotonic() + ANSWER_TIMEOUT
    while time.monotonic() < deadline:
        view = json.loads(board.request("GET", board.viewer + "/sheet.json")[1])
        if "waiting" in view:
            break
        time.sleep(0.05)  # the watcher looks every fifth of a second
    assert view == {
        "waiting": f"Match {match} cannot be read: 'hgin show -m {match}' on the laptop says why."
    }
    assert str(board.home) not in json.dumps(view)
