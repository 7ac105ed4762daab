"""The Typer application: its help pages, the one place where failures become one line and an
exit status, and the lines it prints on stderr (the options commands share: `options`)."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import typer.main
from typer._click.exceptions import BadParameter, MissingParameter, UsageError
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandFunctionType

from hgin.cli.commands import MODULES, full_name, load, load_all
from hgin.cli.startup import command_name, command_word, only_the_command, quick_conversion
from hgin.cli.streams import is_terminal, prepare
from hgin.engine.counts import option_like
from hgin.engine.names import either
from hgin.errors import HginError
from hgin.folder import Folder
from hgin.reports.symbols import escaped

if TYPE_CHECKING:
    from hgin.scorekeeper import Outcome, ScoreKeeper

MAX_REFUSAL = 300
NEWLINE = "\n"
INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C, as shells give it
# What writing the output can fail with: a full disk, a closed pipe or stream.
OUTPUT_ERRORS = (errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF)
Result = TypeVar("Result")


def say(message: str, *, whole: bool = False) -> None:
    """A refusal or notice as one line on stderr, control characters escaped; a refusal (it may
    quote a whole file) is cut short, a notice of hgin's own (`whole`) never."""
    if len(message) > MAX_REFUSAL and not whole:
        message = message[: MAX_REFUSAL - 1] + "…"
    tell(f"hgin: {escaped(message.replace(NEWLINE, ' '))}")


class HginCommand(TyperCommand):
    """A command whose help speaks of values, never of Python types, and that says which
    command an option belongs to when it is given to another one."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument" and not getattr(param, "hidden", False):
                name = _value_name(param, ctx)
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        format_params(self, ctx, formatter)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        words = list(args)  # the parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except UsageError as error:
            path = ctx.command_path.partition(" ")[2]  # 'rules set' for `hgin rules set`
            hint = next(filter(None, (misplaced(word, path) for word in words)), None)
            if hint is None and ctx.ignore_unknown_options:
                # Such a command takes "-3" as a word, so click calls "--bogus" an extra argument.
                hint = next(map("No such option: {}".format, self._unknown(words)), None)
            if hint is not None:
                error.message = hint
            error.ctx = error.ctx or ctx  # so that the help named is this command's
            raise

    def _unknown(self, words: list[str]) -> Iterator[str]:
        """The words that look like options of no kind this command has."""
        known = {"-", "--", *(o for p in self.params for o in (*p.opts, *p.secondary_opts))}
        for word in words:
            option = word.split("=", 1)[0]
            if option_like(option) and option not in known:
                yield word


def format_params(command: Any, ctx: Any, formatter: Any) -> None:
    """A help page's Arguments and Options, values named as in the usage line."""
    sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        name, text = record
        if param.param_type_name == "argument":
            sections["Arguments"].append((_value_name(param, ctx), text))
            continue
        shown = param.display_type_rich(ctx) if not param.is_flag else None
        if shown and name.endswith(f" {shown}"):
            name = name[: -len(shown)] + _value_name(param, ctx)
        sections["Options"].append((name, text))
    for title, rows in sections.items():
        if rows:
            with formatter.section(title):  # a narrow terminal keeps room for the text
                formatter.write_dl(rows, col_max=min(30, formatter.width // 3))


class HelpGroup(TyperGroup):
    """A command group whose options are shown as in `HginCommand`."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        format_params(self, ctx, formatter)
        self.format_commands(ctx, formatter)


def _value_name(param: Any, ctx: Any) -> str:
    """What help calls a parameter's value: its metavar, its choices, or its name."""
    if param.metavar:
        name = str(param.metavar)
    else:
        shown = str(param.display_type_rich(ctx) or "")
        choices = shown[1:-1] if shown.startswith("<") and "|" in shown else ""
        name = choices or str(param.name).upper()
    return name + ("..." if param.nargs != 1 else "")


def misplaced(word: str, command: str) -> str | None:
    """'--big belongs to gin, not to knock' when `word` is an option of other commands only."""
    option = word.split("=", 1)[0]
    if not option_like(option):  # no option at all: spare loading every command
        return None
    owners: list[str] = []
    mine = False
    for path, params in _every_command():
        if any(option in (*p.opts, *p.secondary_opts) for p in params):
            mine = mine or path == command
            owners.append(path)
    if mine or not owners:
        return None
    order = list(MODULES)  # the order help lists the commands in
    owners.sort(key=lambda o: order.index(o) if o in order else len(order))
    return f"{option} belongs to {either(owners)}, not to {command}"


def _every_command() -> list[tuple[str, list[Any]]]:
    """Every command of the whole app with its parameters (built only for a refusal)."""
    load_all()  # a run registers only its own command
    found: list[tuple[str, list[Any]]] = []

    def walk(group: Any, prefix: str) -> None:
        for name, command in getattr(group, "commands", {}).items():
            path = f"{prefix}{name}"
            if hasattr(command, "commands"):
                walk(command, f"{path} ")
            else:
                found.append((path, list(command.params)))

    walk(typer.main.get_command(app), "")
    return found


class HginTyper(typer.Typer):
    """A Typer whose commands are HginCommands and groups HelpGroups by default."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("cls", HelpGroup)
        super().__init__(*args, **kwargs)

    def command(
        self, name: str | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        kwargs.setdefault("cls", HginCommand)
        return super().command(name, **kwargs)


class HginGroup(HelpGroup):
    """The app's group: takes short forms, lists the commands in their order, and makes every
    failure below it one line on stderr."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        return super().resolve_command(ctx, [full_name(args[0]), *args[1:]] if args else args)

    def list_commands(self, ctx: Any) -> list[str]:
        names: list[str] = super().list_commands(ctx)
        return sorted(names, key=list(MODULES).index)  # the order they are needed at the table

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with one_line_on_failure():  # help and --version print while the line is parsed
            # A shell completion (resilient parsing) leaves the settings unread: it must be quick.
            completing = kwargs.get("resilient_parsing", False)
            prepare(config_asks=(lambda: False) if completing else Folder().asks_for_ascii)
            quick_conversion()  # keeps Typer from importing pydantic for plain values
            # Help as wide as the terminal (COLUMNS first), up to 80: Typer never goes below 50.
            kwargs.setdefault("terminal_width", min(shutil.get_terminal_size().columns, 80))
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with one_line_on_failure():
            return super().invoke(ctx)


# Click's and pydantic's words (as the Typer hgin pins words them), and hgin's for the same things.
PLAIN_WORDS = (
    ("Input should be a valid integer, unable to parse string as an integer", "not a whole number"),
    ("Input should be a valid integer", "not a whole number"),
    ("Input should be greater than or equal to ", "must be at least "),
    ("Input should be less than or equal to ", "must be at most "),
    ("No such option: ", "no option "),
    ("No such command ", "no command "),
    ("Missing argument ", "missing "),
    ("Missing option ", "missing "),
    ("Missing parameter: ", "missing "),
    ("Got unexpected extra argument(s) ", "more words than it takes "),
    (". Did you mean ", ": did you mean "),
    ("Did you mean ", "did you mean "),
    ("Invalid value for ", ""),
    ("(Possible options: ", "(did you mean "),
)


def usage_lines(error: UsageError) -> str:
    """A usage error in hgin's words on two lines: what is wrong (with what was probably
    meant), then what to type to see how the command goes."""
    command = error.ctx.command_path if error.ctx is not None else "hgin"
    param = getattr(error, "param", None)
    if isinstance(error, BadParameter) and not isinstance(error, MissingParameter) and param:
        names = getattr(param, "opts", None) or [getattr(param, "human_readable_name", "")]
        name = names[0] if names[0].startswith("-") else names[0].upper()
        message = f"{name}: {error.message}"
    else:
        message = error.format_message()
    for theirs, ours in PLAIN_WORDS:
        message = message.replace(theirs, ours)
    message = re.sub(r"^'([^']+)': ", r"\1: ", " ".join(message.split()).rstrip("."))
    message = message[:1].lower() + message[1:] if not message[1:2].isupper() else message
    return f"hgin: {message}\nTry '{command} --help'."


@contextlib.contextmanager
def one_line_on_failure() -> Iterator[None]:
    """Where a failing command ends: one line on stderr and its exit status (docs/data.md: Exit
    status)."""
    try:
        yield
    except HginError as refusal:
        say(str(refusal))
        raise typer.Exit(code=1) from None
    except UsageError as error:
        tell(usage_lines(error))
        raise typer.Exit(code=error.exit_code) from None
    except KeyboardInterrupt:
        tell("hgin: interrupted")
        raise typer.Exit(code=INTERRUPTED) from None
    except OSError as error:
        why = _output_failed(error)
        if not isinstance(error, BrokenPipeError):
            tell(f"hgin: cannot write the output: {why}")
        raise typer.Exit(code=1) from None


def saving(change: Callable[[], Result], show: Callable[[Result], object]) -> None:
    """Make a change with Ctrl-C held back, then `show` what it returns; once saved, a failing
    output or Ctrl-C is one line on stderr and exit 0 (docs/data.md: Exit status)."""
    pressed = False
    if hasattr(signal, "pthread_sigmask"):  # not on Windows
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            result = change()
        finally:
            pressed = signal.SIGINT in signal.sigpending()
            if pressed:  # taken now, so that it does not interrupt what follows
                signal.sigwait({signal.SIGINT})
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
    else:
        result = change()
    try:
        if pressed:
            raise KeyboardInterrupt
        show(result)
    except KeyboardInterrupt:
        tell("hgin: interrupted; the change was saved")
        raise typer.Exit() from None
    except OSError as error:
        tell(f"hgin: the change was saved, but could not be shown ({_output_failed(error)})")
        raise typer.Exit() from None


def scorekeeper(home: Path | None = None) -> ScoreKeeper:
    """The façade over `home` (else the default folders), imported only once a command runs."""
    from hgin.scorekeeper import ScoreKeeper

    return ScoreKeeper(home)


def show_outcome(outcome: Outcome) -> None:
    """The sheet a change left (after what the cards counted to), what changed, the notices."""
    from hgin.cli.render import print_sheet  # drawing is loaded only to draw

    print_sheet(outcome.match, outcome.lines, outcome.counted)
    notify(outcome.notices)


def echo(*views: Any) -> None:
    """Print sentences or drawings on stdout (`hgin.cli.layout.print_views`, loaded only here)."""
    from hgin.cli.layout import print_views

    print_views(*views)


def notify(notices: Iterable[str]) -> None:
    """Each notice once, a line on stderr after the output (standard output may be JSON)."""
    for notice in dict.fromkeys(notices):
        say(notice, whole=True)


def tell(line: str) -> None:
    """A line on stderr, wrapped between words at a terminal as standard output is, whole
    when piped; nothing when stderr itself is closed or full."""
    try:
        if is_terminal(sys.stderr):
            from hgin.cli.layout import print_views

            print_views(line, stderr=True)
            return
        typer.echo(line, err=True)
    except (OSError, ValueError):
        return


def _output_failed(error: OSError) -> str:
    """Why writing the output failed (any other error is raised again), stdout now pointed at
    the null device so that the interpreter's final flush cannot fail again."""
    if error.errno not in OUTPUT_ERRORS:
        raise error
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return str(error.strerror or error)


app = HginTyper(
    cls=HginGroup,
    name="hgin",
    help="Keep the score of Hollywood Gin played with real cards.",
    epilog="Short forms, as in 'hgin play': g gin, k knock, d draw, c count, u undo, r redo, "
    "n notice, l log, res restore, s show, su summary, e edit, del delete, ne new, "
    "se series ('hgin k o 7 12').",
    invoke_without_command=True,
    add_completion=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
)


def refuse_option_word(text: str, command: str) -> None:
    """A word that looks like an option where an argument goes is a usage error (exit 2),
    naming the commands it belongs to when it is another command's."""
    word = text.strip()
    if option_like(word):
        raise UsageError(misplaced(word, command) or f"No such option: {word}")


def version_callback(value: bool) -> None:
    if value:
        # Only `--version` reads the package's metadata: its import costs every other command.
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"hgin {version('hgin')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("hgin (version unknown: not installed; see the README's Install)")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=version_callback, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Keep the score of Hollywood Gin played with real cards.

    Start with 'hgin new ANN BOB', then after each hand 'hgin gin ann 18',
    'hgin knock bob 7 12' or 'hgin draw'. Bare 'hgin' shows the current sheet.
    """
    if ctx.invoked_subcommand is not None:
        return
    if Folder().current_id() is None:
        load_all()  # a bare `hgin` loads only what showing the sheet needs (see `run`)
        whole = typer.main.get_command(app)
        typer.echo(whole.get_help(whole.make_context("hgin", [], resilient_parsing=True)))
        return
    load("show")  # a bare `hgin` is `hgin show` (found registered: no import back)
    show = next(c.callback for c in app.registered_commands if command_name(c) == "show")
    assert show is not None
    show(match=None, as_json=False)


def run() -> None:
    """Run the `hgin` command line (after `hgin.cli.main` has imported it)."""
    typed = command_word(sys.argv[1:], os.environ)
    if not sys.argv[1:] and "_HGIN_COMPLETE" not in os.environ:
        typed = "show"  # a bare `hgin` shows the sheet (`root` loads all for the help)
    load(typed)
    only_the_command(app, typed and full_name(typed))(prog_name="hgin")
