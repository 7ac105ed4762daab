"""`hgin restore`: list a match's backups, or bring one back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from hgin.cli.app import JsonFlag, MatchOption, app
from hgin.cli.streams import print_json
from hgin.errors import HginError
from hgin.scorekeeper import ScoreKeeper

if TYPE_CHECKING:
    from hgin.engine.match import Match
    from hgin.store.matches import BackupEntry


def backup_row(entry: BackupEntry) -> dict[str, Any]:
    """One backup as `restore --json` prints it."""
    match = entry.match
    return {
        "number": entry.number,
        "file": entry.backup.name,
        "kept_at": entry.backup.kept_at.isoformat(timespec="seconds"),
        "before_schema": entry.backup.before_schema,
        "hands": None if match is None else len(match.hands),
        "finished": None if match is None else match.sheet.finished,
        "winner": None if match is None else match.sheet.winner,
        "problem": entry.problem,
    }


@app.command()
def restore(
    which: Annotated[
        str | None,
        typer.Argument(
            metavar="[N|FILE]",
            help="Backup to bring back: its number (1 = newest) or file name. Omit to list.",
        ),
    ] = None,
    match: MatchOption = None,
    as_json: JsonFlag = False,
) -> None:
    """List a match's backups, or bring one back (the present version is kept first)."""
    from hgin.recovery import backups_of, restore_backup

    keeper = ScoreKeeper()
    if which is not None:
        outcome = restore_backup(keeper, which, match)
        if as_json:
            done = {"id": outcome.match.id, "restored": outcome.message}
            print_json(done)
            return
        from hgin.cli.render import print_sheet

        print_sheet(outcome.match, outcome.lines)
        return
    match_id, entries = backups_of(keeper, match)
    present: Match | None
    try:
        present = keeper.store.load(match_id)
    except HginError:
        present = None
    if as_json:
        data = {"id": match_id, "backups": [backup_row(e) for e in entries]}
        print_json(data)
        return
    if not entries:
        typer.echo(f"Match {match_id} has no backups yet: one is kept each time it changes.")
        return
    from hgin.cli.render_backups import print_backups

    print_backups(match_id, present, entries)
