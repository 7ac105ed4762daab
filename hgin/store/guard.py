"""Every read and write of an hgin file: bounded reads of regular files, JSON and TOML checked
(nesting, no key twice, no control character), atomic writes that never follow a link hgin did
not make, the lock, and a failure of the system worded in one line (`os_problem`)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hgin.engine.names import control_character
from hgin.errors import HginError

TEMP_SUFFIX = ".tmp"
# The largest file hgin reads of each kind; a match file of 10,000 hands is about 3 MB.
MATCH_CAP = 32 * 1024 * 1024
CACHE_CAP = 64 * 1024 * 1024
EXPORT_CAP = 256 * 1024 * 1024
SMALL_CAP = 1024 * 1024  # settings, presets, series, the current pointer
FEW = 16  # up to this many new files, one fsync each beats flushing the whole disk
MAX_DEPTH = 200  # deeper than any hgin file (`hgin.engine.copies.MAX_NESTING` combines)
# Printable ASCII and JSON's white space: the bytes a file's text check can skip.
PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\n\r\t"
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
BINARY = getattr(os, "O_BINARY", 0)


class Unusable(HginError):
    """A file that cannot be used: its path and the problem, worded for the user."""

    def __init__(self, where: str | Path, problem: str) -> None:
        super().__init__(f"cannot use {where}: {problem}")
        self.where = str(where)
        self.problem = problem


def reason(error: OSError) -> str:
    """What went wrong, without the path: 'Permission denied'."""
    return error.strerror or str(error) or type(error).__name__


def os_problem(action: str, path: str | Path, error: OSError, then: str = "") -> HginError:
    """The one wording of a failed file operation: 'cannot read PATH: Permission denied'."""
    tail = f"; {then}" if then else ""
    return HginError(f"cannot {action} {path}: {reason(error)}{tail}")


def text_problem(text: str) -> str | None:
    """Why `text` cannot be shown as it is (a control or format character), else None."""
    char = control_character(text)
    return None if char is None else f"it holds a control character (U+{ord(char):04X}) in a text"


def read_bytes(path: Path, *, cap: int, missing: str | None = None) -> bytes | None:
    """The bytes of a regular file of at most `cap` bytes (anything else is refused unread); a
    missing file raises HginError(`missing`), or is None when `missing` is None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | CLOEXEC | BINARY)
    except FileNotFoundError:
        if missing is None:
            return None
        raise HginError(missing) from None
    except OSError as error:
        raise os_problem("read", path, error) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unusable(path, "it is not a regular file")
        if info.st_size > cap:
            raise Unusable(path, f"at {info.st_size} bytes it is too large (at most {cap})")
        chunks: list[bytes] = []
        size = 0
        while size <= cap:  # at most `cap` + 1 bytes: a file that grows is refused too
            chunk = os.read(fd, min(cap + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise os_problem("read", path, error) from None
    finally:
        _close(fd)
    if size > cap:
        raise Unusable(path, f"it is too large (more than {cap} bytes)")
    return b"".join(chunks)


def read_input(name: str) -> tuple[bytes, str]:
    """The bytes of a file named on the command line ('-': standard input) and its name."""
    if name != "-":
        missing = f"cannot read {name}: there is no such file"
        raw = read_bytes(Path(name).expanduser(), cap=EXPORT_CAP, missing=missing)
        assert raw is not None
        return raw, name
    if sys.stdin is None:  # the shell closed it
        raise Unusable("stdin", "standard input is closed")
    try:
        data = sys.stdin.buffer.read(EXPORT_CAP + 1)
    except OSError as error:
        raise Unusable("stdin", reason(error)) from None
    if len(data) > EXPORT_CAP:
        raise Unusable("stdin", f"it is too large (more than {EXPORT_CAP} bytes)")
    return data, "stdin"


def parse_json(raw: bytes, where: str | Path) -> Any:
    """JSON data from file bytes: UTF-8, valid, nested at most MAX_DEPTH deep, no key given
    twice in one object, no control character in a text; else refused naming `where`."""
    text = _decoded(raw, where)
    data = _parsed(text, where, json.loads, "JSON", ValueError)
    members, texts = _shape(data, where)
    escaped = b"\\" in raw
    # Without an escape every quote bounds a text, so the file gives as many keys as it has
    # texts (half its quotes) that are not values: fewer members means a key given twice.
    if escaped or members != raw.count(b'"') // 2 - texts:
        json.loads(text, object_pairs_hook=lambda pairs: _unique_keys(pairs, where))
    # JSON white space is the only raw control character a valid file may hold; an escaped
    # one ends up in a text. Printable ASCII is taken out first: only the rest is looked at.
    problem = text_problem(raw.translate(None, PLAIN_BYTES).decode("utf-8"))
    if problem is None and escaped:
        problem = _texts_problem(data)
    if problem is not None:
        raise Unusable(where, problem)
    return data


@functools.lru_cache(maxsize=4)
def parse_toml(raw: bytes, where: str | Path) -> dict[str, Any]:
    """TOML data from file bytes, with the checks of `parse_json`. The same bytes are parsed
    once a process (the settings file is read as a command starts, for `ascii`, and again by
    the command): callers read the data and never change it."""
    import tomllib

    data: dict[str, Any] = _parsed(
        _decoded(raw, where), where, tomllib.loads, "TOML", tomllib.TOMLDecodeError
    )
    _shape(data, where)
    # Every text is walked: a multi-line string may hold a raw newline or tab.
    problem = _texts_problem(data)
    if problem is not None:
        raise Unusable(where, problem)
    return data


def _decoded(raw: bytes, where: str | Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Unusable(where, "it is not UTF-8 text") from None


def _parsed(
    text: str,
    where: str | Path,
    loads: Callable[[str], Any],
    kind: str,
    error_type: type[Exception],
) -> Any:
    try:
        return loads(text)
    except RecursionError:
        raise Unusable(where, "it is nested too deeply") from None
    except error_type as error:
        raise Unusable(where, f"it is not valid {kind} ({error})") from None


def _shape(data: Any, where: str | Path) -> tuple[int, int]:
    """How many members the objects of `data` hold and how many values are texts."""
    members = texts = 0
    level = [data]
    for _ in range(MAX_DEPTH):
        deeper: list[Any] = []
        for value in level:
            if type(value) is dict:
                members += len(value)
                value = value.values()
            elif type(value) is not list:
                continue
            for item in value:
                kind = type(item)
                if kind is str:
                    texts += 1
                elif kind is dict or kind is list:
                    deeper.append(item)
        if not deeper:
            return members, texts
        level = deeper
    raise Unusable(where, "it is nested too deeply")


def _unique_keys(pairs: list[tuple[str, Any]], where: str | Path) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for key in keys if keys.count(key) > 1)
        shown = twice[:40] if text_problem(twice) is None else ascii(twice[:40])
        raise Unusable(where, f"it gives the key '{shown}' twice in one object")
    return data


def _texts_problem(data: Any) -> str | None:
    """A control character in any key or text of parsed data."""
    texts: list[str] = []
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict):
            texts.extend(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return next(filter(None, map(text_problem, texts)), None)


def load_json(path: Path, *, cap: int, missing: str | None = None) -> Any:
    """`parse_json` of `read_bytes`; None for a missing file when `missing` is None."""
    raw = read_bytes(path, cap=cap, missing=missing)
    return None if raw is None else parse_json(raw, path)


def dump_json(data: Any, *, indent: int | None = 1) -> str:
    """The one way hgin writes JSON: UTF-8 text as is, one trailing newline."""
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"


def is_link(path: Path) -> bool:
    """Whether `path` itself is a symbolic link (never follows it)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def real_folder(folder: Path) -> bool:
    """Whether `folder` is a folder and not a symbolic link."""
    try:
        return stat.S_ISDIR(os.lstat(folder).st_mode)
    except OSError:
        return False


def ensure_folder(folder: Path, *, below: Path, then: str = "") -> None:
    """Make `folder` a real folder inside `below` (which may be a link the user made)."""
    tail = f"; {then}" if then else ""
    try:
        below.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise HginError(f"cannot create the folder {below}: a file is in the way{tail}") from None
    except OSError as error:
        raise os_problem("create the folder", below, error, then) from None
    step = below
    for part in folder.relative_to(below).parts:
        step = step / part
        try:
            os.mkdir(step)
            continue
        except FileExistsError:
            pass
        except OSError as error:
            raise os_problem("create the folder", step, error, then) from None
        if is_link(step):
            raise HginError(
                f"cannot use the folder {step}: it is a symbolic link, and hgin does not "
                f"write through links{tail}"
            )
        if not real_folder(step):
            raise HginError(f"cannot create the folder {step}: a file is in the way{tail}")


def write_atomic(
    path: Path, data: str | bytes, *, durable: bool = True, replace: bool = True
) -> None:
    """Put `data` at `path` so that a crash leaves the old file or the new (flushed if
    `durable`; with `replace=False`, FileExistsError if `path` exists). OSError on failure."""
    temp = _temp_copy(path, data.encode("utf-8") if isinstance(data, str) else data, durable)
    with _removed_on_failure(temp):
        if replace:
            os.replace(temp, path)
        else:
            os.link(temp, path, follow_symlinks=False)
    if not replace:
        with contextlib.suppress(OSError):  # a name left here is swept by a later writer
            os.unlink(temp)
    if durable:
        fsync_dir(path.parent)


def _temp_copy(target: Path, payload: bytes, durable: bool) -> Path:
    """A new temporary file beside `target` holding `payload`, as `tempfile.mkstemp` makes one
    (without loading `tempfile` on every save)."""
    temp = target.with_name(f".{target.name}.{os.urandom(8).hex()}{TEMP_SUFFIX}")
    fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC | BINARY, 0o600)
    with _removed_on_failure(temp):
        try:
            left = memoryview(payload)
            while left:  # one write may take only a part
                left = left[os.write(fd, left) :]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
    return temp


@contextlib.contextmanager
def _removed_on_failure(temp: Path) -> Iterator[None]:
    """Remove the temporary file `temp` when the block fails."""
    try:
        yield
    except OSError as error:
        raise _without(temp, error) from None
    except BaseException:
        _without(temp, OSError())
        raise


def _without(temp: Path, error: OSError) -> OSError:
    """Remove the temporary file of a failed write; `error`, saying so if the file is left."""
    try:
        os.unlink(temp)
    except FileNotFoundError:
        pass
    except OSError:
        return type(error)(error.errno, f"{reason(error)} (and {temp} is left)")
    return error


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


def remove(path: Path) -> None:
    """Delete a file hgin wrote (a link is removed itself, never followed); missing is fine."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def sweep_temp_files(folder: Path) -> None:
    """Remove the temporary files a killed writer left in `folder` (only under the lock)."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            temp = entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)
            if temp and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def write_files(
    files: list[tuple[Path, bytes]], progress: Callable[[int, int], None] | None = None
) -> None:
    """Write several files as one change (under the lock): all, or none, renamed into place in
    order (a pointer listed last only names what is written)."""
    olds = [read_bytes(target, cap=MATCH_CAP) for target, _ in files]
    temps: list[Path] = []
    placed = 0
    one_flush = hasattr(os, "sync") and len(files) > FEW
    try:
        for done, (target, payload) in enumerate(files, 1):
            temps.append(_temp_copy(target, payload, not one_flush))
            if progress is not None:
                progress(done, len(files))
        if one_flush:
            os.sync()
        for temp, (target, _) in zip(temps, files, strict=True):
            os.replace(temp, target)
            placed += 1
    except OSError as error:
        for temp in temps[placed:]:
            _without(temp, error)  # a temporary file left is swept by a later writer
        stuck = _put_back([target for target, _ in files[:placed]], olds[:placed])
        then = f"{' and '.join(stuck)} stay written" if stuck else "nothing was changed"
        raise os_problem("write", target, error, then=then) from None
    for folder in {os.path.dirname(target) for target, _ in files}:  # cheaper than Path.parent
        fsync_dir(Path(folder))


def _put_back(targets: list[Path], olds: list[bytes | None]) -> list[str]:
    """Restore each file's old bytes, the last first; the names left written if one cannot be."""
    for at in reversed(range(len(targets))):
        try:
            if olds[at] is None:
                os.unlink(targets[at])
            else:
                write_atomic(targets[at], olds[at] or b"")
        except OSError:
            return [target.name for target in targets[: at + 1]]
    return []


@contextlib.contextmanager
def exclusive_lock(path: Path, timeout: float) -> Iterator[None]:
    """Hold an exclusive lock on `path` for the block, refused after `timeout` seconds. The
    system drops it when its holder dies (even by kill -9): there is never a stale lock."""
    fd = _open_lock(path)
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fd, path):
            if time.monotonic() >= deadline:
                raise HginError(
                    f"another hgin is still writing (lock {path} held for over {timeout:g} s); "
                    "try again, or end the stuck hgin process"
                )
            import random  # only while the lock is busy: jitter, so waiters do not retry in step

            time.sleep(0.01 + random.random() * 0.02)
        try:
            yield
        finally:
            _release(fd)
    finally:
        _close(fd)


def _close(fd: int) -> None:
    """Close a file hgin only read or locked (an error then changes nothing)."""
    with contextlib.suppress(OSError):
        os.close(fd)


def _open_lock(path: Path) -> int:
    """Open (creating) the lock file, never through a symbolic link."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | NOFOLLOW | CLOEXEC | BINARY, 0o644)
    except OSError as error:
        if is_link(path):
            raise HginError(
                f"cannot open the lock file {path}: it is a symbolic link (remove it)"
            ) from None
        raise os_problem("open the lock file", path, error) from None


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int, path: Path) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _release(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int, path: Path) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as error:  # e.g. a file system without locks
            raise os_problem("lock", path, error) from None
        return True

    def _release(fd: int) -> None:
        with contextlib.suppress(OSError):  # closing the file releases it too
            fcntl.flock(fd, fcntl.LOCK_UN)


def output_path(name: str, *, force: bool, protected: tuple[Path, ...]) -> Path | None:
    """Where a command's `-o`/FILE output goes (None for '-'), refused inside a `protected`
    folder, over anything but a regular file (or any without `force`), or in a missing one."""
    if name == "-":
        return None
    if not name:  # Path("") is the working folder
        raise HginError("an empty file name: give one, or '-' for standard output")
    target = Path(name).expanduser()
    resolved = Path(os.path.realpath(target))
    for folder in protected:
        inside = Path(os.path.realpath(folder))
        if resolved == inside or inside in resolved.parents:
            raise HginError(
                f"cannot write {name}: it is inside hgin's folder {folder}; "
                "write outside it (or '-o -' for standard output)"
            )
    not_regular = (
        f"cannot write {name}: it is not a regular file; use '-o -' (or '-') for standard output"
    )
    if os.name == "posix" and str(resolved).startswith(("/dev/", "/proc/")):
        raise HginError(not_regular)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise os_problem("write", name, error) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise HginError(f"cannot write {name}: it is a folder; give a file name")
    if mode is not None and not stat.S_ISREG(mode):
        raise HginError(not_regular)
    if mode is not None and not force:
        raise HginError(f"{name} already exists: add --force to replace it")
    if not target.parent.is_dir():
        raise HginError(f"cannot write {name}: the folder {target.parent} does not exist")
    return target


def write_output(target: Path, text: str) -> Path:
    """Write a checked output file whole (UTF-8, atomically); returns its absolute path."""
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as error:
        raise os_problem("write", target, error) from None
    return Path(os.path.abspath(target))
