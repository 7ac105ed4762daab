"""The Typer application, the one place refusals become exit codes, and shared options."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from hgin.errors import HginError


def one_line(message: str) -> str:
    """A refusal made safe for a terminal: one line, control characters shown escaped."""
    return "".join(
        char if char.isprintable() else repr(char)[1:-1] for char in message.replace("\n", " ")
    )


class HginGroup(TyperGroup):
    """Turns every HginError raised below it into one line on stderr and exit status 1."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except HginError as refusal:
            typer.echo(f"hgin: {one_line(str(refusal))}", err=True)
            raise typer.Exit(code=1) from None


app = typer.Typer(
    cls=HginGroup,
    name="hgin",
    help="Keep the score of Hollywood Gin played with real cards.",
    invoke_without_command=True,
    add_completion=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
)


def complete_match(incomplete: str) -> list[str]:
    """Shell completion: stored match identifiers."""
    from hgin.scorekeeper import ScoreKeeper

    try:
        ids = ScoreKeeper().store.match_ids()
    except (HginError, OSError):
        return []
    return [i for i in ids if i.startswith(incomplete.lower())]


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the players of the chosen (or current) match."""
    from hgin.scorekeeper import ScoreKeeper

    match = ctx.params.get("match") if ctx is not None else None
    try:
        players = ScoreKeeper().load(match).players
    except (HginError, OSError):
        return []
    return [p for p in players if p.casefold().startswith(incomplete.casefold())]


MatchOption = Annotated[
    str | None,
    typer.Option(
        "--match",
        "-m",
        help="Act on this match (identifier or its start) instead of the current one.",
        autocompletion=complete_match,
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def version_callback(value: bool) -> None:
    if value:
        from hgin import __version__

        typer.echo(f"hgin {__version__}")
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
    if keeper.store.current_id() is None:
        typer.echo(ctx.get_help())
        return
    from hgin.cli.render import print_sheet

    print_sheet(keeper.load())


def main() -> None:
    """Entry point of the `hgin` command."""
    import hgin.cli.commands  # noqa: F401 - registers the commands

    app(prog_name="hgin")


if __name__ == "__main__":  # pragma: no cover
    main()
    sys.exit(0)
