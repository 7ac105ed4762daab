"""The file guard: every read and write of an hgin file goes through this module.

Reads are bounded (a size cap, regular files only, so a device or a FIFO is refused at once),
JSON and TOML are parsed with a nesting limit, and every text a file holds is checked for
control characters (so a file can never make the terminal run escape sequences). Writes are
atomic, with one durability policy (records are flushed to disk, caches are not), and never
follow a symbolic link for anything hgin creates or deletes. Failures of the system become
one line worded by `os_problem`.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from hgin.errors import HginError

TEMP_SUFFIX = ".tmp"
# The largest file hgin reads of each kind; a match file of 10,000 hands is about 3 MB.
MATCH_CAP = 32 * 1024 * 1024
CACHE_CAP = 64 * 1024 * 1024
EXPORT_CAP = 256 * 1024 * 1024
SMALL_CAP = 1024 * 1024  # settings, presets, series, the current pointer
FEW = 16  # up to this many new files, one fsync each beats flushing the whole disk
CONTAINERS = (dict, list)  # what json.loads and tomllib.loads nest (never a subclass)
MAX_DEPTH = 32  # no hgin file nests deeper than 6; a deeper one was not written by hgin
# Zero-width (non-)joiners belong inside Persian or emoji names; every other character of
# these categories (controls, bidi overrides, private use...) is refused in any text.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
JOINERS = frozenset("\u200c\u200d")
# Printable ASCII and JSON's white space: the bytes a file's text check can skip.
PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\n\r\t"
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
BINARY = getattr(os, "O_BINARY", 0)
Parsed = TypeVar("Parsed")


class Unusable(HginError):
    """A file that cannot be used: its path and the problem, worded for the user."""

    def __init__(self, where: str | Path, problem: str) -> None:
        super().__init__(f"cannot use {where}: {problem}")
        self.where = str(where)
        self.problem = problem


# -- wording ---------------------------------------------------------------------------------


def reason(error: OSError) -> str:
    """What went wrong, without the path (the caller names it once): 'Permission denied'."""
    if error.strerror:
        return error.strerror
    text = str(error.args[0]) if error.args else ""
    return text or type(error).__name__


def os_problem(action: str, path: str | Path, error: OSError, then: str = "") -> HginError:
    """The one wording of a failed file operation: 'cannot read PATH: Permission denied'."""
    tail = f"; {then}" if then else ""
    return HginError(f"cannot {action} {path}: {reason(error)}{tail}")


# -- texts -----------------------------------------------------------------------------------


def text_problem(text: str) -> str | None:
    """Why `text` cannot be shown as it is (a control or format character), else None."""
    if text.isprintable():
        return None
    for char in sorted(set(text)):
        if unicodedata.category(char) in REFUSED_CATEGORIES and char not in JOINERS:
            return f"it holds a control character (U+{ord(char):04X}) in a text"
    return None


def _texts(data: Any) -> list[str]:
    """Every key and text in parsed data (iteratively: the nesting is already bounded)."""
    found: list[str] = []
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            found.extend(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return found


def _depth_ok(data: Any, limit: int) -> bool:
    """Whether `data` nests at most `limit` levels deep (a level at a time, with list
    comprehensions and exact type checks: a 5 MB match file holds some 60,000 containers)."""
    level = [data]
    for _ in range(limit):
        deeper: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is dict:
                deeper += [v for v in value.values() if type(v) in CONTAINERS]
            elif kind is list:
                deeper += [v for v in value if type(v) in CONTAINERS]
        if not deeper:
            return True
        level = deeper
    return False


# -- reading ---------------------------------------------------------------------------------


def read_bytes(path: Path, *, cap: int, missing: str | None = None) -> bytes | None:
    """The bytes of a regular file of at most `cap` bytes.

    A missing file raises HginError(`missing`), or returns None when `missing` is None. A
    device, FIFO or folder is refused without reading from it; at most `cap` + 1 bytes are
    ever read, so a file that grows while being read is refused too.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | CLOEXEC | BINARY)
    except FileNotFoundError:
        if missing is None:
            return None
        raise HginError(missing) from None
    except OSError as error:
        raise os_problem("read", path, error) from None
    try:
        return _read_capped(fd, path, cap)
    except OSError as error:
        raise os_problem("read", path, error) from None
    finally:
        _close(fd)


def _read_capped(fd: int, where: str | Path, cap: int) -> bytes:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise Unusable(where, "it is not a regular file")
    if info.st_size > cap:
        raise Unusable(where, f"at {info.st_size} bytes it is too large (at most {cap})")
    chunks: list[bytes] = []
    size = 0
    while size <= cap:
        chunk = os.read(fd, min(cap + 1 - size, 1 << 20) or 1)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > cap:
        raise Unusable(where, f"it is too large (more than {cap} bytes)")
    return b"".join(chunks)


def read_input(name: str, *, cap: int = EXPORT_CAP) -> tuple[bytes, str]:
    """The bytes of a file named on the command line ('-' for standard input) and the name to
    show for it. Only a regular file or standard input is read, and at most `cap` bytes."""
    if name == "-":
        if sys.stdin is None:  # the shell closed it
            raise Unusable("stdin", "standard input is closed")
        try:
            data = sys.stdin.buffer.read(cap + 1)
        except OSError as error:
            raise Unusable("stdin", reason(error)) from None
        if len(data) > cap:
            raise Unusable("stdin", f"it is too large (more than {cap} bytes)")
        return data, "stdin"
    path = Path(name).expanduser()
    raw = read_bytes(path, cap=cap, missing=f"cannot read {name}: there is no such file")
    assert raw is not None
    return raw, name


def parse_json(raw: bytes, where: str | Path, *, depth: int = MAX_DEPTH) -> Any:
    """JSON data from file bytes: UTF-8, valid, nested at most `depth` deep, without a key
    given twice in one object and without a control character in any text; anything else is
    refused naming `where`."""

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        data = dict(pairs)
        if len(data) != len(pairs):
            keys = [key for key, _ in pairs]
            twice = next(key for key in keys if keys.count(key) > 1)
            shown = twice[:40] if text_problem(twice) is None else ascii(twice[:40])
            raise Unusable(where, f"it gives the key '{shown}' twice in one object")
        return data

    def loads(text: str) -> Any:
        return json.loads(text, object_pairs_hook=unique_keys)

    return _checked(raw, where, loads, "JSON", ValueError, depth, _json_text_problem)


def parse_toml(raw: bytes, where: str | Path) -> dict[str, Any]:
    """TOML data from file bytes, with the same checks as `parse_json`."""
    import tomllib

    return _checked(
        raw, where, tomllib.loads, "TOML", tomllib.TOMLDecodeError, MAX_DEPTH, _any_text_problem
    )


def _checked(
    raw: bytes,
    where: str | Path,
    loads: Callable[[str], Parsed],
    kind: str,
    error_type: type[Exception],
    depth: int,
    problem: Callable[[bytes, Parsed], str | None],
) -> Parsed:
    """`raw` decoded as UTF-8 and parsed by `loads`, refused naming `where` when it is not
    valid `kind`, nests deeper than `depth`, or `problem` finds a text it cannot hold."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Unusable(where, "it is not UTF-8 text") from None
    try:
        data = loads(text)
    except RecursionError:
        raise Unusable(where, "it is nested too deeply") from None
    except error_type as error:
        raise Unusable(where, f"it is not valid {kind} ({error})") from None
    if not _depth_ok(data, depth):
        raise Unusable(where, "it is nested too deeply")
    found = problem(raw, data)
    if found is not None:
        raise Unusable(where, found)
    return data


def _json_text_problem(raw: bytes, data: Any) -> str | None:
    """A control character in JSON's texts, looked for in the whole file at once: JSON white
    space is the only raw control character a valid file may hold; any other, and any escaped
    one (only then are the texts walked), ends up in a text. Printable ASCII is taken out of the
    UTF-8 bytes first (no other character's encoding holds such a byte), so only the rest is
    looked at character by character."""
    problem = text_problem(raw.translate(None, PLAIN_BYTES).decode("utf-8"))
    if problem is None and b"\\" in raw:
        problem = _any_text_problem(raw, data)
    return problem


def _any_text_problem(raw: bytes, data: Any) -> str | None:
    """A control character in any key or text of parsed data. TOML's texts are always walked:
    a multi-line string may hold a raw newline or tab, which a check of the whole file would
    take for white space."""
    return next(filter(None, map(text_problem, _texts(data))), None)


def load_json(path: Path, *, cap: int, missing: str | None = None) -> Any:
    """`parse_json` of `read_bytes`; None for a missing file when `missing` is None."""
    raw = read_bytes(path, cap=cap, missing=missing)
    return None if raw is None else parse_json(raw, path)


def dump_json(data: Any, *, indent: int | None = 1) -> str:
    """The one way hgin writes JSON: UTF-8 text as is, one trailing newline."""
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"


# -- folders and links -----------------------------------------------------------------------


def is_link(path: Path) -> bool:
    """Whether `path` itself is a symbolic link (never follows it)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def ensure_folder(folder: Path, *, below: Path, then: str = "") -> None:
    """Make `folder` as a real folder inside `below` (the data or config folder, which is
    made too and may itself be a link the user made). A symbolic link or a file in the way
    inside `below` is refused: hgin never writes through a link it did not make. `then` is
    added to a refusal ('nothing was changed')."""
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
        try:
            mode = os.lstat(step).st_mode
        except OSError as error:
            raise os_problem("use the folder", step, error, then) from None
        if stat.S_ISLNK(mode):
            raise HginError(
                f"cannot use the folder {step}: it is a symbolic link, and hgin does not "
                f"write through links{tail}"
            )
        if not stat.S_ISDIR(mode):
            raise HginError(f"cannot create the folder {step}: a file is in the way{tail}")


def real_folder(folder: Path) -> bool:
    """Whether `folder` is a folder and not a symbolic link (for listing what hgin deletes)."""
    try:
        return stat.S_ISDIR(os.lstat(folder).st_mode)
    except OSError:
        return False


# -- writing ---------------------------------------------------------------------------------


def write_atomic(
    path: Path, data: str | bytes, *, durable: bool = True, replace: bool = True
) -> None:
    """Put `data` at `path` so that a crash leaves the old file or the new, never a mix.

    The data goes to a new temporary file beside `path` (never through a link), is flushed
    to disk, and is renamed over `path` (or, with `replace=False`, linked in place, which
    fails with FileExistsError if `path` exists); the folder entry is flushed too. This is
    the one durability policy: records are `durable`; a cache, which a crash may cost but
    never harm, is not. On failure the temporary file is removed (the OSError says so when
    it could not be), `path` is untouched, and the OSError is raised for the caller to word
    with `os_problem`.
    """
    temp = _temp_copy(path, data.encode("utf-8") if isinstance(data, str) else data, durable)
    try:
        if replace:
            os.replace(temp, path)
        else:
            os.link(temp, path, follow_symlinks=False)
    except OSError as error:
        raise _without(temp, error) from None
    except BaseException:
        _without(temp, OSError())
        raise
    if not replace:
        # `path` is in place: a temporary name left here is swept by a later writer.
        with contextlib.suppress(OSError):
            os.unlink(temp)
    if durable:
        fsync_dir(path.parent)


def _temp_copy(target: Path, payload: bytes, durable: bool) -> Path:
    """A new temporary file beside `target` holding `payload`, flushed to disk if `durable`;
    OSError (with the file removed) on failure."""

    # mkstemp creates the file exclusively and never through a link.
    import tempfile  # writers only: a command that only reads skips it

    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
    except OSError as error:
        raise _without(Path(name), error) from None
    except BaseException:
        _without(Path(name), OSError())
        raise
    return Path(name)


def _without(temp: Path, error: OSError) -> OSError:
    """Remove the temporary file of a failed write; `error`, or one that also says the
    temporary file is left when removing it failed too."""
    try:
        os.unlink(temp)
    except FileNotFoundError:
        pass
    except OSError:
        return type(error)(error.errno, f"{reason(error)} (and {temp} is left)")
    return error


def write_cache(path: Path, data: str) -> None:
    """Write a cache file; a failure only costs a re-read later, so it is ignored."""
    with contextlib.suppress(OSError):
        write_atomic(path, data, durable=False)


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


def sweep_temp_files(folder: Path, prefixes: tuple[str, ...] = (".",)) -> None:
    """Remove temporary files a killed writer left in `folder` (call only under the lock)."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if (
                name.endswith(TEMP_SUFFIX)
                and name.startswith(prefixes)
                and entry.is_file(follow_symlinks=False)
            ):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


# -- the lock --------------------------------------------------------------------------------


@contextlib.contextmanager
def exclusive_lock(path: Path, timeout: float) -> Iterator[None]:
    """Hold an exclusive lock on `path` for the block; refuse after `timeout` seconds.

    The lock belongs to the open file, so the system drops it when its holder dies, even by
    kill -9: there is never a stale lock to clean up.
    """
    fd = _open_lock(path)
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fd, path):
            if time.monotonic() >= deadline:
                raise HginError(
                    f"another hgin is still writing (lock {path} held for over {timeout:g} s); "
                    "try again, or end the stuck hgin process"
                )

            # A little jitter so that waiting processes do not retry in step.
            import random  # only while the lock is busy

            time.sleep(0.01 + random.random() * 0.02)
        try:
            yield
        finally:
            _release(fd)
    finally:
        _close(fd)


@contextlib.contextmanager
def lock_if_free(path: Path) -> Iterator[bool]:
    """Take the lock only if nobody holds it; yields whether it was taken (never waits)."""
    try:
        fd = _open_lock(path)
    except HginError:
        yield False
        return
    try:
        try:
            taken = _try_lock(fd, path)
        except HginError:
            taken = False
        try:
            yield taken
        finally:
            if taken:
                _release(fd)
    finally:
        _close(fd)


def _close(fd: int) -> None:
    """Close a file hgin only read or locked. The descriptor is freed (and a lock on it
    released) even when the system reports an error, which then changes nothing: the work
    with the file is done (a lock's block is over, a file was read whole)."""
    with contextlib.suppress(OSError):
        os.close(fd)


def _open_lock(path: Path) -> int:
    """Open (creating) the lock file, never through a symbolic link; held open for the whole
    locked block, and closing it releases the lock."""
    flags = os.O_RDWR | os.O_CREAT | NOFOLLOW | CLOEXEC | BINARY
    try:
        return os.open(path, flags, 0o644)
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
        # Closing the lock file releases the lock too: a failed unlock changes nothing.
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)


# -- output files named on the command line ------------------------------------------------


def output_path(name: str, *, force: bool, protected: tuple[Path, ...]) -> Path | None:
    """Where a command's `-o`/FILE output goes: None for '-' (standard output).

    Refused, before anything is written: a path inside one of the `protected` folders (hgin's
    data and config folders, links resolved), anything that exists but is not a regular file
    (a device, a FIFO, a folder, a link), an existing file without `force`, a missing folder.
    """
    if name == "-":
        return None
    target = Path(name).expanduser()
    resolved = Path(os.path.realpath(target))
    for folder in protected:
        inside = Path(os.path.realpath(folder))
        if resolved == inside or inside in resolved.parents:
            raise HginError(
                f"cannot write {name}: it is inside hgin's folder {folder}; "
                "write outside it (or '-o -' for standard output)"
            )
    if os.name == "posix" and str(resolved).startswith(("/dev/", "/proc/")):
        raise HginError(
            f"cannot write {name}: it is not a regular file; "
            "use '-o -' (or '-') for standard output"
        )
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise os_problem("write", name, error) from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise HginError(f"cannot write {name}: it is a folder; give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise HginError(
                f"cannot write {name}: it is not a regular file; "
                "use '-o -' (or '-') for standard output"
            )
        if not force:
            raise HginError(f"{name} already exists: add --force to replace it")
    parent = target.parent
    if not parent.is_dir():
        raise HginError(f"cannot write {name}: the folder {parent} does not exist")
    return target


def write_output(target: Path, text: str) -> Path:
    """Write a checked output file whole (UTF-8, atomically); returns its absolute path."""
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as error:
        raise os_problem("write", target, error) from None
    return Path(os.path.abspath(target))


def write_files(
    files: list[tuple[Path, bytes]], progress: Callable[[int, int], None] | None = None
) -> None:
    """Write several files as one change (call under the lock): every file is written, or
    every file is left as it was. Each new version goes to a temporary file first and the
    disk is flushed (once for them all when there are many); then each is renamed into
    place in order, so that a pointer listed last (`current`) only ever names what is
    written. If one fails, those already renamed are put back in reverse order. HginError
    naming the file that failed, and by name those that could not be put back."""
    olds = [read_bytes(target, cap=MATCH_CAP) for target, _ in files]
    temps: list[Path] = []
    placed = 0
    one_flush = hasattr(os, "sync") and len(files) > FEW
    target = files[0][0] if files else Path()
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
    for folder in {target.parent for target, _ in files}:
        fsync_dir(folder)


def _put_back(targets: list[Path], olds: list[bytes | None]) -> list[str]:
    """Restore each file to its old bytes (removing one that was new), the last first; at
    the first that cannot be, stop (so that a file written earlier, which it may name, stays
    too) and return the files left written."""
    for at in reversed(range(len(targets))):
        try:
            if olds[at] is None:
                os.unlink(targets[at])
            else:
                write_atomic(targets[at], olds[at] or b"")
        except OSError:
            return [target.name for target in targets[: at + 1]]
    return []
