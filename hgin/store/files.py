"""Crash-safe file primitives: atomic replacement, an exclusive lock with a timeout, and the
clean-up of temporary files a killed process left behind."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from hgin.errors import HginError

TEMP_SUFFIX = ".tmp"


def atomic_write(path: Path, text: str | bytes, durable: bool = True) -> None:
    """Replace `path` with `text` so that a crash leaves the old file or the new, never a mix.

    The data is written to a temporary file beside `path`, flushed to disk, renamed over
    `path`, and the folder entry is flushed too. On any failure the temporary file is removed
    and `path` is untouched; the OSError is raised for the caller to word. A cache, which a
    crash may cost but never harm, passes `durable=False` and skips both flushes to disk.
    """
    import tempfile  # writers only: reading commands skip the import

    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    """Flush a folder's entries, which makes a rename durable (POSIX only; best effort)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def sweep_temp_files(folder: Path, prefixes: tuple[str, ...] = (".",)) -> None:
    """Remove temporary files a killed writer left in `folder` (call only under the lock)."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if name.endswith(TEMP_SUFFIX) and name.startswith(prefixes) and entry.is_file():
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


@contextlib.contextmanager
def exclusive_lock(path: Path, timeout: float) -> Iterator[None]:
    """Hold an exclusive lock on `path` for the block; refuse after `timeout` seconds.

    The lock belongs to the open file, so the system drops it when its holder dies, even by
    kill -9: there is never a stale lock to clean up.
    """
    handle = _open_lock(path)
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(handle, path):
            if time.monotonic() >= deadline:
                raise HginError(
                    f"another hgin is still writing (lock {path} held for over {timeout:g} s); "
                    "try again, or end the stuck hgin process"
                )
            import random

            # A little jitter so that waiting processes do not retry in step.
            time.sleep(0.01 + random.random() * 0.02)
        try:
            yield
        finally:
            _release(handle)
    finally:
        handle.close()


@contextlib.contextmanager
def lock_if_free(path: Path) -> Iterator[bool]:
    """Take the lock only if nobody holds it; yields whether it was taken (never waits)."""
    try:
        handle = _open_lock(path)
    except HginError:
        yield False
        return
    try:
        try:
            taken = _try_lock(handle, path)
        except HginError:
            taken = False
        try:
            yield taken
        finally:
            if taken:
                _release(handle)
    finally:
        handle.close()


def _open_lock(path: Path) -> IO[bytes]:
    try:
        # Held open for the whole locked block; closing it releases the lock.
        return open(path, "a+b")
    except OSError as error:
        raise HginError(f"cannot open the lock file {path}: {error.strerror}") from None


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(handle: IO[bytes], path: Path) -> bool:
        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _release(handle: IO[bytes]) -> None:
        handle.seek(0)
        with contextlib.suppress(OSError):
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(handle: IO[bytes], path: Path) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as error:  # e.g. a file system without locks
            raise HginError(f"cannot lock {path}: {error.strerror}") from None
        return True

    def _release(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
