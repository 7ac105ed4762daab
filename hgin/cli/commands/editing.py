"""Correcting a match: edit and delete a hand (everything after re-scored), restore an earlier
state or a backup of its file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from hgin.cli.application import (
    app,
    echo,
    notify,
    refuse_option_word,
    saving,
    scorekeeper,
    show_outcome,
)
from hgin.cli.options import BigFlag, JsonFlag, MatchOption, UpcardOption
from hgin.cli.streams import print_json
from hgin.engine.counts import whole_number
from hgin.errors import HginError
from hgin.play.parser import parse_entry, stray_option

if TYPE_CHECKING:
    from hgin.scorekeeper import BackupEntry, Outcome

COUNTS = {"ignore_unknown_options": True}

HandNumber = Annotated[str, typer.Argument(metavar="N", help="The hand's number on the sheet.")]


@app.command(context_settings=COUNTS)
def edit(
    number: HandNumber,
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="ENTRY",
            help="The corrected hand as you would type it: gin ann 18, knock bob 4 20, draw.",
        ),
    ],
    big: BigFlag = False,
    upcard: UpcardOption = None,
    match: MatchOption = None,
) -> None:
    """Replace hand N with a corrected entry and re-score every hand after it."""

    # Options Click does not know reach ENTRY as words (a negative count must): a word the
    # entry would not take either is a usage error here, as it is for `hgin gin`.
    refuse_option_word(number, "edit")
    hand = whole_number(number, "the hand number")
    stray = stray_option(words)
    if stray is not None:
        refuse_option_word(stray, "edit")
    apart = [*(["--big"] if big else []), *(["--upcard", upcard] if upcard is not None else [])]
    entry = parse_entry([*words, *apart])  # the options given apart join the entry's words
    saving(lambda: scorekeeper().edit(hand, entry, match=match), show_outcome)


@app.command(context_settings=COUNTS)
def delete(number: HandNumber, match: MatchOption = None) -> None:
    """Remove hand N; the hands after it move up one and are re-scored."""
    refuse_option_word(number, "delete")
    hand = whole_number(number, "the hand number")
    saving(lambda: scorekeeper().delete(hand, match=match), show_outcome)


def backup_row(entry: BackupEntry) -> dict[str, Any]:
    """One backup as `restore --backup --json` prints it."""
    from hgin.reports.narrate import describe_holding

    match = entry.match
    return {
        "number": entry.number,
        "file": entry.backup.name,
        "kept_at": entry.backup.kept_at.isoformat(timespec="seconds"),
        "before_schema": entry.backup.before_schema,
        "hands": None if match is None else len(match.hands),
        "finished": None if match is None else match.sheet.finished,
        "winner": None if match is None else match.sheet.winner,
        "holds": None if match is None else describe_holding(match.sheet),
        "problem": entry.problem,
    }


@app.command()
def restore(
    which: Annotated[
        str | None,
        typer.Argument(
            metavar="N",
            help="The change to go back to (see 'hgin log'); with --backup, the backup's "
            "number (1 = newest) or file name, or nothing to list them.",
        ),
    ] = None,
    backup: Annotated[
        bool,
        typer.Option(
            "--backup",
            help="File-level recovery: list the match file's backups, or bring one back.",
        ),
    ] = False,
    match: MatchOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Bring the match back to its state right after change N (undoable), or with --backup
    list the backups of its file or bring one back (the present version is kept first)."""

    def restored(outcome: Outcome) -> None:
        if as_json and backup:
            print_json({"id": outcome.match.id, "restored": outcome.message})
            notify(outcome.notices)
        else:
            show_outcome(outcome)

    keeper = scorekeeper()
    if not backup:
        if which is None:
            keeper.choose(match)  # a missing or damaged match is named first
            raise HginError(
                "name a change: 'hgin restore N' (see 'hgin log'), or list the file's "
                "backups with 'hgin restore --backup'"
            )

        change = whole_number(which, "the change number")
        saving(lambda: keeper.restore(change, match=match), restored)
        return
    if which is not None:
        saving(lambda: keeper.restore_backup(which, match), restored)
        return
    match_id, present, entries, gone = keeper.backups(match)
    if as_json:
        print_json({"id": match_id, "backups": [backup_row(e) for e in entries]})
        return
    if not entries:
        echo(f"Match {match_id} has no backups yet: one is kept each time it changes.")
        return
    from hgin.cli.render import backups_table
    from hgin.reports.narrate import describe_holding

    now = "the match file itself is unreadable"
    if gone:
        now = "taken off the list: abandoned, or combined into another"
    elif present is not None:
        now = f"now {describe_holding(present.sheet)}"
    named = f" -m {match_id}" if gone else ""
    echo(
        f"Backups of match {match_id} ({now}), newest first:",
        backups_table(entries),
        f"Bring one back with 'hgin restore --backup N{named}'; the present version is kept first.",
    )
