"""Moving matches between machines: export to one JSON file, import from one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from hgin.cli.app import JsonFlag, MatchOption, app
from hgin.errors import HginError
from hgin.scorekeeper import ScoreKeeper

FileArgument = Annotated[
    Path, typer.Argument(metavar="FILE.json", help="The export file ('-' for stdin/stdout).")
]


@app.command()
def export(
    file: FileArgument,
    every: Annotated[bool, typer.Option("--all", "-a", help="Every stored match.")] = False,
    match: MatchOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
) -> None:
    """Write the current match (or --match, or --all) to one JSON file for 'hgin import'."""
    from hgin.cli.commands.history import write_report

    if every and match is not None:
        raise typer.BadParameter("choose --all or --match, not both")
    to_stdout = str(file) == "-"
    if not to_stdout and file.expanduser().exists() and not force:
        raise HginError(f"{file} already exists: add --force to overwrite it")
    text, count = ScoreKeeper().export(match, every=every)
    if to_stdout:
        typer.echo(text, nl=False)
        return
    write_report(file, text)
    typer.echo(f"Exported {count} match{'es' if count != 1 else ''} to {file}.")


@app.command("import")
def import_(
    file: FileArgument,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace", help="Overwrite stored matches that differ (old versions are backed up)."
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Add the matches of an export file; identical ones are skipped, different ones refused."""
    source, report = ScoreKeeper().import_file(str(file), replace=replace)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
        return
    typer.echo(
        f"Imported from {source}: {len(report.added)} new, {len(report.replaced)} replaced, "
        f"{len(report.identical)} identical skipped."
    )
    if report.current:
        typer.echo(f"Current match: {report.current}.")
