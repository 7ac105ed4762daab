"""Looking back over stored matches: the match list and the statistics."""

from typing import Annotated, Literal

import typer

from hgin.cli.application import (
    HginTyper,
    app,
    echo,
    notify,
    saving,
    scorekeeper,
    show_outcome,
    tell,
)
from hgin.cli.options import (
    ForceFlag,
    JsonFlag,
    OutputOption,
    complete_known_player,
    complete_match,
    match_argument,
)
from hgin.cli.streams import output_format as format_for
from hgin.cli.streams import print_document, print_json
from hgin.errors import HginError
from hgin.folder import Folder
from hgin.reports.json_output import json_text
from hgin.reports.merging import conflicted_copy, copies_of_one
from hgin.reports.symbols import escaped

StatsFormat = Literal["text", "html"]

PlayerFilter = Annotated[
    str | None,
    typer.Option(
        "--player",
        "-p",
        help="Only this player (any case; the start of a name is enough).",
        autocompletion=complete_known_player,
    ),
]


matches_app = HginTyper(rich_markup_mode=None)
app.add_typer(
    matches_app,
    name="matches",
    invoke_without_command=True,
    subcommand_metavar="[delete MATCH | combine MATCH OTHER]",
)


@matches_app.callback()
def list_matches(
    ctx: typer.Context,
    player: PlayerFilter = None,
    finished: Annotated[
        bool | None,
        typer.Option(
            "--finished/--unfinished",
            help="Only finished matches, or only those still in play.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """List stored matches, newest first; * marks the current one ('hgin matches delete'
    takes one off the list, as 'hgin abandon' does)."""
    if ctx.invoked_subcommand is not None:
        return
    if player is not None and not player.strip():
        raise HginError("name a player after --player")
    keeper = Folder()
    listing = keeper.matches(player, finished)
    entries = listing.entries
    current = keeper.current_id()
    if as_json:
        print_json([{**e.list_dict(), "current": e.id == current} for e in entries])
    elif entries:
        from hgin.cli.render_list import print_matches

        print_matches(entries, current)
    else:
        everything = player is None and finished is None
        echo(
            "No matches yet: start one with 'hgin new NAME1 NAME2'."
            if everything
            else "No stored match fits."
        )
    warn_unreadable(listing.unreadable)
    notify(conflicted_copy(path, match_id) for match_id, path in listing.copies)
    notify(copies_of_one(ids) for ids in listing.diverged)
    listing.refresh()


@matches_app.command("delete")
def delete_match(
    match: Annotated[str | None, match_argument("As for 'hgin abandon'.")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask first.")] = False,
) -> None:
    """Take a match off the list: the same as 'hgin abandon'."""
    from hgin.cli.commands.matches import abandon

    abandon(match, yes)


@matches_app.command("combine")
def combine_matches(
    match: Annotated[str, match_argument("The copy that stays (an identifier or its start).")],
    other: Annotated[
        str,
        typer.Argument(
            metavar="OTHER",
            help="The other copy of it, whose hands join MATCH; it leaves the list.",
            autocompletion=complete_match,
        ),
    ],
) -> None:
    """Make one match of two copies of it that went their own ways (as import keeps them):
    the hands of both in recorded order; 'hgin undo' straight after takes it back."""
    saving(lambda: scorekeeper().combine(match, other), show_outcome)


def warn_unreadable(ids: list[str]) -> None:
    """One stderr line naming match files that were left out because they cannot be used."""
    if ids:
        names = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        tell(
            f"hgin: left out match files that cannot be used: {names} (see 'hgin show --match ID')"
        )


@app.command()
def stats(
    player: PlayerFilter = None,
    as_json: JsonFlag = False,
    output_format: Annotated[
        StatsFormat | None,
        typer.Option(
            "--format",
            "-f",
            help="text for the terminal, html to print (default: from the -o file's "
            "extension, else text).",
            show_default=False,
        ),
    ] = None,
    output: OutputOption = None,
    force: ForceFlag = False,
) -> None:
    """Statistics over finished matches: per player and head to head."""
    if as_json and output_format not in (None, "text"):
        raise typer.BadParameter("choose --json or --format html, not both")
    keeper = Folder()
    target = None if output is None else keeper.output_target(output, force=force)
    allowed = ("text", "html", "json")
    chosen = "json" if as_json else format_for(output, output_format, allowed=allowed)
    statistics = keeper.stats(player)
    figures = statistics.figures
    if chosen == "json":
        text = json_text(figures.to_dict())
    elif chosen == "html":
        from hgin.reports.stats_html import stats_html

        text = stats_html(figures)
    else:
        from hgin.cli.render_stats import stats_text, stats_view

        text = "" if target is None else stats_text(figures)
        if target is None:
            echo(stats_view(figures))
    if target is not None:
        saving(
            lambda: keeper.write_output(target, text),
            lambda p: echo(f"Wrote {escaped(str(p))}."),
        )
    elif text:
        print_document(text, chosen)
    warn_unreadable(statistics.unreadable)
    statistics.refresh()
