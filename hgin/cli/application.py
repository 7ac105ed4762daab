"""The Typer application, the one place refusals become exit codes, and shared options."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandFunctionType

from hgin.errors import HginError, HginNotice

MAX_REFUSAL = 300


def one_line(message: str) -> str:
    """A refusal made safe for a terminal: one line, control characters shown escaped, and
    cut short (a refusal may quote what was typed, which could be a whole file)."""
    if len(message) > MAX_REFUSAL:
        message = message[: MAX_REFUSAL - 1] + "…"
    return "".join(
        char if char.isprintable() else repr(char)[1:-1] for char in message.replace("\n", " ")
    )


# The order `hgin --help` lists the commands in: the order they are needed at the table.
def _command_order() -> tuple[str, ...]:
    """The commands in the order help lists them (and refusals name them)."""
    from hgin.cli.commands import MODULES

    return tuple(MODULES)


class HginCommand(TyperCommand):
    """A command whose help and usage errors speak of values, never of Python types, and
    that says which command an option belongs to when it is given to another one."""

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
        from typer._click.exceptions import UsageError

        words = list(args)  # the parser consumes the list it is given
        try:
            result: list[str] = super().parse_args(ctx, args)
        except UsageError as error:
            path = ctx.command_path.partition(" ")[2]  # 'rules set' for `hgin rules set`
            hint = next(filter(None, (misplaced(word, path) for word in words)), None)
            if hint is not None:
                error.message = hint
            raise
        return result


def format_params(command: Any, ctx: Any, formatter: Any) -> None:
    """The Arguments and Options sections of a help page, values named as in the usage line."""
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
    """A command group whose own options are shown as in `HginCommand`."""

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
    if not word.startswith("-") or word in ("-", "--") or word.lstrip("-")[:1].isdigit():
        return None
    option = word.split("=", 1)[0]
    owners: list[str] = []
    mine = False
    for path, params in _every_command():
        if any(option in (*p.opts, *p.secondary_opts) for p in params):
            mine = mine or path == command
            owners.append(path)
    if mine or not owners:
        return None
    order = _command_order()
    owners.sort(key=lambda o: order.index(o) if o in order else len(order))
    from hgin.engine.names import either

    return f"{option} belongs to {either(owners)}, not to {command}"


def _every_command() -> list[tuple[str, list[Any]]]:
    """Every command of the whole app with its parameters (built only for a refusal)."""
    import typer.main

    from hgin.cli.commands import load_all

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
    """A Typer whose commands are HginCommands and groups HelpGroups unless another class
    is asked for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("cls") is None:
            kwargs["cls"] = HelpGroup
        super().__init__(*args, **kwargs)

    def command(
        self, name: str | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        if kwargs.get("cls") is None:
            kwargs["cls"] = HginCommand
        return super().command(name, **kwargs)


class HginGroup(HelpGroup):
    """Turns every HginError raised below it into one line on stderr and exit status 1."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        from hgin.cli.commands import full_name

        return super().resolve_command(ctx, [full_name(args[0]), *args[1:]] if args else args)

    def list_commands(self, ctx: Any) -> list[str]:
        names: list[str] = super().list_commands(ctx)
        order = _command_order()
        last = len(order)
        return sorted(names, key=lambda n: (order.index(n) if n in order else last, n))

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        from hgin.cli.startup import quick_conversion
        from hgin.cli.streams import prepare

        prepare(read_config=not kwargs.get("resilient_parsing", False))
        quick_conversion()  # keeps Typer from importing pydantic for plain values
        # Help as wide as the terminal (COLUMNS first), up to 80: Typer never goes below 50.
        kwargs.setdefault("terminal_width", min(shutil.get_terminal_size().columns, 80))
        return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        import warnings

        from hgin.store.guard import caches_after_success, forget_saved

        forget_saved()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", HginNotice)
            refused = True
            try:
                with caches_after_success():
                    result = self._invoke(ctx)
                refused = False
                return result
            except typer.Exit as stop:
                refused = stop.exit_code != 0
                raise
            finally:
                _tell_notices(caught, refused=refused)

    def _invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except HginError as refusal:
            typer.echo(f"hgin: {one_line(str(refusal))}", err=True)
            raise typer.Exit(code=1) from None
        except BrokenPipeError:
            # The reader went away (`hgin matches | head`): stop quietly, as other tools do.
            _silence_stdout()
            raise typer.Exit(code=_unshown(None)) from None
        except OSError as error:
            if not _is_output_error(error):
                raise
            _silence_stdout()
            raise typer.Exit(code=_unshown(error.strerror or str(error))) from None


def _unshown(reason: str | None) -> int:
    """The exit status when the output could not be written, saying why on stderr.

    Once the command has saved a change it has done its work: it exits 0, as exit 1 would
    promise that nothing changed and a script trying again would record a hand twice.
    """
    from hgin.store.guard import saved_files

    if saved_files():
        because = f" ({reason})" if reason else ""
        _tell(f"hgin: the change was saved, but could not be shown{because}")
        return 0
    if reason:
        _tell(f"hgin: cannot write the output: {reason}")
    return 1


def _tell(line: str) -> None:
    """One line on stderr, which may itself be closed: then nothing more can be said."""
    try:
        typer.echo(line, err=True)
    except (OSError, ValueError):
        return


def _tell_notices(caught: list[Any], *, refused: bool) -> None:
    """Each notice once, as one line on stderr (a choice only if the command was not refused:
    a refusal is one line); other warnings as Python shows them."""
    import warnings

    from hgin.errors import HginChoice

    said: set[str] = set()
    for warning in caught:
        if refused and issubclass(warning.category, HginChoice):
            continue
        if issubclass(warning.category, HginNotice):
            line = f"hgin: {one_line(str(warning.message))}"
            if line not in said:
                said.add(line)
                _tell(line)
        else:
            warnings.showwarning(
                warning.message, warning.category, warning.filename, warning.lineno
            )


def _is_output_error(error: OSError) -> bool:
    """Whether an OSError came from writing to stdout (a full disk, a closed pipe)."""
    import errno

    return error.errno in (errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, errno.EDQUOT)


def _silence_stdout() -> None:
    """Point stdout at the null device so the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return


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


def complete_match(incomplete: str) -> list[str]:
    """Shell completion: stored match identifiers."""
    from hgin.completion import match_candidates
    from hgin.scorekeeper import ScoreKeeper

    try:
        ids = ScoreKeeper().match_ids()
    except (HginError, OSError):
        return []
    return match_candidates(incomplete, ids)


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the players of the chosen (or current) match.

    On a line that names two players first ('hgin new Ann Bob --dealer'), those two.
    """
    from hgin.completion import player_candidates

    params = ctx.params if ctx is not None else {}
    if "first" in params and "second" in params:
        return player_candidates(incomplete, _names_on_line(ctx))
    from hgin.scorekeeper import ScoreKeeper

    try:
        names = ScoreKeeper().players_of(params.get("match"))
    except (HginError, OSError):
        return []
    return player_candidates(incomplete, names)


def complete_known_player(incomplete: str) -> list[str]:
    """Shell completion: every player of every stored match (for filters such as --player)."""
    from hgin.completion import name_candidates
    from hgin.scorekeeper import ScoreKeeper

    try:
        entries = ScoreKeeper().matches().entries
    except (HginError, OSError):
        return []
    return name_candidates(incomplete, (name for e in entries for name in e.players))


def _names_on_line(ctx: typer.Context) -> list[str]:
    """NAME1 and NAME2 as typed before the option being completed.

    Click stops reading the line at an option that still lacks its value, so the names are
    not in ctx.params yet: read the words again from the completion request, without it.
    """
    import os

    from hgin.completion import words_before_cursor

    depth = len(ctx.command_path.split()) - 1
    words = words_before_cursor(os.environ)[depth:]
    if words and words[-1].startswith("-"):
        words = words[:-1]
    try:
        again = ctx.command.make_context(
            ctx.info_name, words, parent=ctx.parent, resilient_parsing=True
        )
    except Exception:  # a half-typed line must never break the shell's completion
        return []
    names = (again.params.get("first"), again.params.get("second"))
    return [n.strip() for n in names if isinstance(n, str) and n.strip()]


MatchOption = Annotated[
    str | None,
    typer.Option(
        "--match",
        "-m",
        help="Act on this match (its identifier or a start of it, or a player: their latest "
        "match) instead of the current one.",
        autocompletion=complete_match,
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def refuse_option_word(text: str, command: str) -> None:
    """A word that looks like an option where an argument goes is a usage error (exit 2),
    naming the commands it belongs to when it is another command's."""
    from hgin.engine.counts import WHOLE

    word = text.strip()
    if word.startswith("-") and not WHOLE.fullmatch(word):
        raise typer.BadParameter(misplaced(word, command) or f"no such option {word}")


def count_argument(text: str, what: str, command: str) -> int:
    """A count or hand number typed as an argument of `command`. A word that looks like an
    option is a usage error (exit 2); anything else but a whole number is refused like a bad
    count."""
    from hgin.engine.counts import whole_number

    refuse_option_word(text, command)
    return whole_number(text, what)


def version_callback(value: bool) -> None:
    if value:
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
    from hgin.scorekeeper import ScoreKeeper

    keeper = ScoreKeeper()
    if keeper.current_id() is None:
        typer.echo(ctx.get_help())
        return
    from hgin.cli.render import print_sheet

    print_sheet(keeper.load())


def main() -> None:
    """Entry point of the `hgin` command."""
    import os

    from hgin.cli.commands import full_name, load
    from hgin.cli.startup import collect_rarely, command_word, only_the_command, spare_the_exit

    collect_rarely()
    try:
        typed = command_word(sys.argv[1:], os.environ)
        load(typed)
        only_the_command(app, typed and full_name(typed))(prog_name="hgin")
    finally:
        spare_the_exit()


if __name__ == "__main__":  # pragma: no cover
    main()
    sys.exit(0)
