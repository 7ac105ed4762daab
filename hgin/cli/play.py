"""The terminal side of `hgin play`: read lines, show replies, leave cleanly. At a terminal
there is a prompt with line editing; piped lines get no prompt and no greeting, only the same
sheets and sentences, so that a session can be scripted."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Sequence

import typer
from rich.text import Text
from typer._click.exceptions import UsageError

from hgin.cli.application import app, notify, say, tell, usage_lines
from hgin.cli.commands import load
from hgin.cli.layout import Fit, print_views, simple_table, table_or_records
from hgin.cli.render import journal_table, print_sheet, summary_view
from hgin.cli.rule_options import taken_rule_values
from hgin.cli.streams import is_terminal
from hgin.errors import HginError
from hgin.play.session import NewMatch, Reply, TableSession, greeting
from hgin.scorekeeper import ScoreKeeper


def new_arguments(words: Sequence[str]) -> NewMatch:
    """A `new` line's words read by `hgin new`'s own parameters, so that play takes the same
    options, values and refusals as the command (a refusal in its first line)."""
    load("new")
    command = typer.main.get_command(app).commands["new"]  # type: ignore[attr-defined]
    try:
        # Named as the command is typed; no --help, which would end the session.
        with command.make_context("hgin new", list(words), help_option_names=[]) as context:
            given = dict(context.params)
    except UsageError as error:
        raise HginError(usage_lines(error).split("\n")[0].removeprefix("hgin: ")) from None
    options = taken_rule_values(given)
    return given["first"], given["second"], given["rules"], given["dealer"], options


def read_line(prompt: str, interactive: bool) -> str | None:
    """The next line without its newline, or None at the end of input (Ctrl-D). A line that
    is not text in the input's encoding is refused; the lines after it are read as usual."""
    encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
    raw = getattr(sys.stdin, "buffer", None)
    try:
        if interactive:
            return input(prompt)
        if raw is None:  # a text-only stream: it has decoded the line already
            line = sys.stdin.readline()
            return line.rstrip("\r\n") if line else None
        data = raw.readline()
        return str(data.decode(encoding)).rstrip("\r\n") if data else None
    except EOFError:
        return None
    except UnicodeDecodeError as error:
        byte = error.object[error.start : error.start + 1].hex()
        raise HginError(
            f"the line is not {encoding} text (byte 0x{byte} at column {error.start + 1}); "
            "nothing was done with it"
        ) from None


def line_ranges(numbers: list[int]) -> str:
    """'1–3, 7, 9–10' for [1, 2, 3, 7, 9, 10] (sorted line numbers)."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def help_view(rows: Iterable[tuple[str, str]]) -> Fit:
    """What to type and what it does: a row each, a record each where the table does not fit."""
    table = simple_table("", "", unwrapped=(0,))
    table.show_header = False
    for typed, meaning in rows:
        table.add_row(Text(typed), Text(meaning))
    return table_or_records(table, ((typed, [meaning]) for typed, meaning in rows))


def show(reply: Reply) -> None:
    """Print a reply: the sheet or summary first, then its sentences (and the help)."""
    if reply.summary is not None:
        print_views(summary_view(reply.summary))
    if reply.sheet is not None:
        print_sheet(reply.sheet, reply.lines, reply.counted)
    else:
        tables = [help_view(reply.help)] if reply.help else []
        tables += [journal_table(reply.log)] if reply.log else []
        print_views(*reply.lines, *tables)


def run_session(match: str | None) -> int:
    """Play lines until quit, end of input or a second Ctrl-C; exit 1 when piped lines were
    refused, 0 once a hand is saved even if the output then fails."""
    if sys.stdin is None:
        raise HginError("standard input is closed: there are no lines to play")
    interactive = is_terminal(sys.stdin)  # a person types the lines
    if interactive:  # readline gives input() history and editing where the platform has it
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401
    session = TableSession(ScoreKeeper(), match, new_arguments)
    saved: list[int] = []
    try:
        status = _play(session, interactive, saved)
    except OSError as error:
        if not saved:
            raise
        tell(f"hgin: every hand entered was saved, but the output failed ({error.strerror})")
        return 0
    notify(session.notices)
    return status


def _play(session: TableSession, interactive: bool, saved: list[int]) -> int:
    """The session's lines, one by one (the numbers of those that saved go to `saved`)."""
    show(session.start())
    if interactive:
        print_views(greeting(session.match))
    refused: list[int] = []
    number = 0
    interrupted = False
    try:
        while True:
            try:
                line = read_line(session.prompt, interactive)
            except KeyboardInterrupt:
                # Ctrl-C clears the line being typed; on an empty line, a second one leaves.
                typed = typed_so_far()
                if not interactive or (interrupted and not typed):
                    break
                interrupted = True
                cleared = "line cleared: " if typed != "" else ""
                print_views(f"\n({cleared}Ctrl-C again or Ctrl-D leaves)")
                continue
            except HginError as error:
                number += 1
                say(str(error))
                refused.append(number)
                continue
            interrupted = False
            if line is None:
                break
            number += 1
            try:
                reply = session.handle(line)
            except HginError as error:
                say(str(error))
                refused.append(number)
                continue
            if reply.saved:
                saved.append(number)
            if reply.quit:
                break
            show(reply)
    except KeyboardInterrupt:
        pass
    if interactive:
        print_views(f"\nBye: every hand is saved (match {session.match_id}).")
        return 0
    if refused:
        which = line_ranges(refused)
        lines = f"line {which}" if len(refused) == 1 else f"{len(refused)} lines: {which}"
        tell(f"hgin: refused {lines}; every other line was done")
        return 1
    return 0


def typed_so_far() -> str | None:
    """What was on the line when Ctrl-C came (None where line editing cannot tell)."""
    module = sys.modules.get("readline")
    try:
        return None if module is None else str(module.get_line_buffer())
    except (AttributeError, OSError):
        return None
