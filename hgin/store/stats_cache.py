"""A cache of each match's statistics record, so `hgin stats` replays only changed matches.

Kept in `stats-cache.json` beside the index, keyed by match identifier with the match file's
modification time and size. It is only a cache: deleting it costs one replay of every match.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hgin.errors import HginError
from hgin.reports.stats import RECORD_VERSION, MatchRecord, record_for, record_from_dict
from hgin.store.guard import (
    CACHE_CAP,
    lock_if_free,
    parse_json,
    read_bytes,
    sweep_temp_files,
    write_cache,
)
from hgin.store.matches import Store

CACHE_NAME = "stats-cache.json"


def file_stamp(stat: os.stat_result) -> list[int]:
    # A save replaces the file, so its inode changes too, even within one clock tick.
    return [stat.st_mtime_ns, stat.st_size, stat.st_ino]


class RecordCache:
    """Statistics records of every stored match, re-reading only files that changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.path = store.home / CACHE_NAME
        self.unreadable: list[str] = []
        self._pending: dict[str, Any] | None = None

    def _read(self) -> dict[str, Any]:
        try:
            raw = read_bytes(self.path, cap=CACHE_CAP)
            data = None if raw is None else parse_json(raw, self.path)
        except HginError:
            return {}
        if not isinstance(data, dict) or data.get("version") != RECORD_VERSION:
            return {}
        records = data.get("records")
        return records if isinstance(records, dict) else {}

    def records(self) -> list[MatchRecord]:
        """Every readable match's record; files that cannot be used are listed in `unreadable`."""
        cached = self._read()
        fresh: dict[str, Any] = {}
        result: list[MatchRecord] = []
        self.unreadable = []
        for match_id in self.store.match_ids():
            try:
                stat = self.store.match_path(match_id).stat()
            except OSError:
                continue
            stamp = file_stamp(stat)
            item = cached.get(match_id)
            if isinstance(item, dict) and item.get("stamp") == stamp:
                try:
                    result.append(record_from_dict(item))
                    fresh[match_id] = item
                    continue
                except (KeyError, TypeError, ValueError):
                    pass
            try:
                record = record_for(self.store.load(match_id))
            except HginError:
                self.unreadable.append(match_id)
                continue
            result.append(record)
            fresh[match_id] = {**record.to_dict(), "stamp": stamp}
        if fresh != cached:
            self._pending = fresh
        return result

    def add(self, records: dict[str, tuple[MatchRecord, list[int]]]) -> None:
        """Enter records of files just written, with their stamps (call under the lock)."""
        cached = self._read()
        for match_id, (record, stamp) in records.items():
            cached[match_id] = {**record.to_dict(), "stamp": stamp}
        text = json.dumps({"version": RECORD_VERSION, "records": cached}, ensure_ascii=False)
        write_cache(self.path, text)

    def flush(self) -> None:
        """Write the refreshed cache once the command has succeeded, and only when no writer
        holds the lock (a reader never waits; a skipped write costs a re-read next time)."""
        if self._pending is None or not self.store.matches_dir.is_dir():
            return
        text = json.dumps({"version": RECORD_VERSION, "records": self._pending}, ensure_ascii=False)
        with lock_if_free(self.store.lock_file) as taken:
            if taken:
                sweep_temp_files(self.store.home, (f".{CACHE_NAME}.",))
                write_cache(self.path, text)
        self._pending = None
