"""The real `hgin board` for the board's tests: started as a process on a free loopback port
with a test's data folder, its printed addresses read, stopped with Ctrl-C (SIGINT)."""

from __future__ import annotations

import http.client
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

NO_EXTRA = 'the board extra is not installed: pip install ".[board]"'
START_TIMEOUT = 30  # seconds for the process to print its addresses (a loaded machine)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Board:
    """A running `hgin board --local` (or on the `--host` given) and what it printed."""

    def __init__(self, home: Path, *options: str, open_files: int | None = None) -> None:
        """`open_files`: the process's limit of open files (`ulimit -n`), if given."""
        self.home = home

        def limited() -> None:
            if open_files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hgin",
                "board",
                *([] if "--host" in options else ["--local"]),
                "--port",
                str(free_port()),
                *options,
            ],
            env={**os.environ, "HGIN_HOME": str(home), "COLUMNS": "80", "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            preexec_fn=limited,
        )
        watchdog = threading.Timer(START_TIMEOUT, self.process.kill)
        watchdog.start()
        assert self.process.stdout is not None
        self.printed: list[str] = []
        try:
            while not self.printed or self.printed[-1] != "Ctrl-C stops the board.":
                line = self.process.stdout.readline()
                assert line, f"hgin board ended: {self.process.communicate()[1][-2000:]}"
                self.printed.append(line.rstrip("\n"))
        finally:
            watchdog.cancel()
        addresses = [line for line in self.printed if line.startswith("http://")]
        self.viewer = addresses[0]
        self.scorer = addresses[1] if len(addresses) > 1 else None
        self.origin = "http://" + urlsplit(self.viewer).netloc

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C: the exit status, and what it printed after its addresses and on stderr."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=20)
        return self.process.returncode, out, err

    def request(
        self, method: str, url: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        """The status and body of one request (`body` sent as JSON)."""
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.netloc, timeout=10)
        try:
            sent = None if body is None else json.dumps(body).encode()
            every = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, parts.path or "/", sent, {**every, **(headers or {})})
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def enter(self, entry: dict[str, Any], **headers: str) -> tuple[int, dict[str, Any]]:
        """Post an entry to the scorer page from the board's own origin (unless told)."""
        assert self.scorer is not None
        sent = {"Origin": self.origin, **headers}
        status, body = self.request("POST", self.scorer + "/enter", entry, sent)
        return status, json.loads(body)


def hgin(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A one-shot `hgin` command on `home`, as a player types it in another terminal."""
    return subprocess.run(
        [sys.executable, "-m", "hgin", *args],
        env={**os.environ, "HGIN_HOME": str(home), "COLUMNS": "80"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
