"""Moving matches between machines: export to one JSON file, import from one."""

from __future__ import annotations

import json
import sys
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
    from hgin.scorekeeper import now_text
    from hgin.store.transfer import export_matches

    if every and match is not None:
        raise typer.BadParameter("choose --all or --match, not both")
    keeper = ScoreKeeper()
    to_stdout = str(file) == "-"
    if not to_stdout and file.expanduser().exists() and not force:
        raise HginError(f"{file} already exists: add --force to overwrite it")
    ids = keeper.store.match_ids() if every else [keeper.match_id(match)]
    if not ids:
        raise HginError("there are no stored matches to export")
    text, count = export_matches(keeper.store, ids, now_text())
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
    from hgin.store.transfer import import_matches, parse_export

    if str(file) == "-":
        raw = sys.stdin.buffer.read()
    else:
        try:
            raw = file.expanduser().read_bytes()
        except OSError as error:
            raise HginError(f"cannot read {file}: {error.strerror or error}") from None
    source = "stdin" if str(file) == "-" else str(file)
    try:
        export = parse_export(raw)
    except HginError as error:
        raise HginError(f"cannot import {source}: {error}; nothing was imported") from None
    report = import_matches(ScoreKeeper().store, export, replace=replace)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
        return
    typer.echo(
        f"Imported from {source}: {len(report.added)} new, {len(report.replaced)} replaced, "
        f"{len(report.identical)} identical skipped."
    )
    if report.current:
        typer.echo(f"Current match: {report.current}.")
