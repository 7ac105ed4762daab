"""Looking back over stored matches: the match list and the statistics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

import typer

from hgin.cli.app import JsonFlag, app, complete_known_player
from hgin.errors import HginError
from hgin.scorekeeper import ScoreKeeper

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


def report_target(path: Path) -> Path:
    """Where a report goes, refusing a missing folder or a folder name (before any work)."""
    target = path.expanduser()
    if target.is_dir():
        raise HginError(f"{target} is a folder: give a file name")
    if not target.parent.is_dir():
        raise HginError(f"cannot write {target}: the folder {target.parent} does not exist")
    return target


def write_report(path: Path, text: str) -> None:
    """Write a report file whole (atomically), refusing a missing folder or a folder name."""
    from hgin.store.files import atomic_write

    target = report_target(path)
    try:
        atomic_write(target, text)
    except OSError as error:
        raise HginError(f"cannot write {target}: {error.strerror or error}") from None


@app.command("matches")
def list_matches(
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
    """List stored matches, newest first; * marks the current one."""
    if player is not None and not player.strip():
        raise HginError("name a player after --player")
    keeper = ScoreKeeper()
    entries = keeper.matches(player, finished)
    current = keeper.current_id()
    if as_json:
        rows = [{**e.to_dict(), "current": e.id == current} for e in entries]
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    elif entries:
        from hgin.cli.render_history import print_matches

        print_matches(entries, current)
    elif player is None and finished is None:
        typer.echo("No matches yet: start one with 'hgin new NAME1 NAME2'.")
    else:
        typer.echo("No stored match fits.")
    warn_unreadable(keeper.unreadable())


def warn_unreadable(ids: list[str]) -> None:
    """One stderr line naming match files that were left out because they cannot be used."""
    if ids:
        names = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        typer.echo(
            f"hgin: left out match files that cannot be used: {names} (see 'hgin show --match ID')",
            err=True,
        )


@app.command()
def stats(
    player: PlayerFilter = None,
    as_json: JsonFlag = False,
    output_format: Annotated[
        StatsFormat, typer.Option("--format", "-f", help="text for the terminal, html to print.")
    ] = "text",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file instead.")
    ] = None,
) -> None:
    """Statistics over finished matches: per player and head to head."""
    if as_json and output_format != "text":
        raise typer.BadParameter("choose --json or --format html, not both")
    if output is not None:
        report_target(output)
    statistics = ScoreKeeper().stats(player)
    figures = statistics.figures
    if as_json:
        text = json.dumps(figures.to_dict(), ensure_ascii=False, indent=2) + "\n"
    elif output_format == "html":
        from hgin.reports.stats_html import stats_html

        text = stats_html(figures)
    elif output is not None:
        from hgin.cli.render_history import stats_text

        text = stats_text(figures)
    else:
        from hgin.cli.render_history import print_stats

        print_stats(figures)
        text = ""
    if output is not None:
        write_report(output, text)
        typer.echo(f"Wrote {output}.")
    elif text:
        typer.echo(text, nl=False)
    warn_unreadable(statistics.unreadable)
