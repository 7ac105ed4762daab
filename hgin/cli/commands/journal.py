"""`hgin log`: the journal of a match, every change oldest first."""

from __future__ import annotations

from typing import Annotated

import typer

from hgin.cli.application import JsonFlag, MatchOption, app, notify, scorekeeper
from hgin.cli.streams import print_json


@app.command()
def log(
    match: MatchOption = None,
    as_json: JsonFlag = False,
    last: Annotated[
        int | None,
        typer.Option("--last", min=1, help="Only the last N changes."),
    ] = None,
) -> None:
    """List every change of the match, oldest first: what 'hgin undo', 'hgin redo' and
    'hgin restore N' work with."""
    loaded, rows, notices = scorekeeper().log(match)
    if last is not None:
        rows = rows[-last:]
    if as_json:
        fields = ("number", "at", "kind", "text", "status")
        data = [{field: getattr(row, field) for field in fields} for row in rows]
        print_json(data)
    elif not rows:
        typer.echo(f"Match {loaded.id} has no changes yet.")
    else:
        from hgin.cli.render_journal import print_journal

        print_journal(loaded.id, rows, len(loaded.journal))
    notify(notices)
