"""Starting, choosing, showing and leaving matches: new, show, use, rematch, play, log,
abandon."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hgin.cli.application import app, echo, notify, saving, scorekeeper, show_outcome
from hgin.cli.options import (
    DealerOption,
    JsonFlag,
    MatchOption,
    NextDealerOption,
    match_argument,
)
from hgin.cli.rule_options import RuleCommand
from hgin.cli.streams import is_terminal, print_json
from hgin.errors import HginError
from hgin.folder import Folder
from hgin.reports.plural import counted

if TYPE_CHECKING:
    from hgin.folder import Loaded


@app.command()
@RuleCommand
def new(
    first: Annotated[
        str | None, typer.Argument(metavar="NAME1", help="First player (default: config).")
    ] = None,
    second: Annotated[
        str | None, typer.Argument(metavar="NAME2", help="Second player (default: config).")
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules", "-r", help="friendly, classic, or a preset saved with 'hgin rules save'."
        ),
    ] = None,
    dealer: DealerOption = None,
    *,
    rule_values: dict[str, Any],
) -> None:
    """Start a match between NAME1 and NAME2 and make it the current one."""
    if (first is None) != (second is None):
        raise typer.BadParameter(
            "name both players, or neither to play the two named by 'players' in config.toml",
            param_hint="'NAME2'",
        )
    keeper = scorekeeper()
    saving(
        lambda: keeper.new(first, second, rules=rules, options=rule_values, dealer=dealer),
        show_outcome,
    )


@app.command()
def show(match: MatchOption = None, as_json: JsonFlag = False) -> None:
    """Show the score sheet of the current match."""
    loaded = Folder().read(match)
    if as_json:
        print_json(Folder.data_of(loaded.match))
    else:
        from hgin.cli.render import print_sheet  # JSON needs no drawing

        print_sheet(loaded.match)
    notify(loaded.notices)


@app.command()
def use(
    match: Annotated[
        str, match_argument("A match identifier (or its start), or a player: their latest match.")
    ],
) -> None:
    """Make another stored match the current one."""
    from hgin.cli.render import print_sheet

    def now_playing(loaded: Loaded) -> None:
        print_sheet(loaded.match, [f"Now playing match {loaded.match.id}."])
        notify(loaded.notices)

    saving(lambda: scorekeeper().use(match), now_playing)


@app.command()
def rematch(
    match: MatchOption = None,
    dealer: NextDealerOption = None,
) -> None:
    """Start the next match after the finished one: the same players and rules in force; in
    a series, its next match."""
    saving(lambda: scorekeeper().rematch(match, dealer=dealer), show_outcome)


@app.command()
def play(match: MatchOption = None) -> None:
    """Enter hands line by line: 'gin ines 18', 'k osk 7 12', 'd', 'u', 'help', 'q'.

    Every hand is saved as it is entered. Works with lines piped in too (no prompt).
    """
    from hgin.cli.play import run_session

    status = run_session(match)
    if status:
        raise typer.Exit(code=status)


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
        print_json([{field: getattr(row, field) for field in fields} for row in rows])
    elif not rows:
        echo(f"Match {loaded.id} has no changes yet.")
    else:
        from hgin.cli.render import journal_table

        total = len(loaded.journal)
        shown = "" if len(rows) == total else f", the last {len(rows)} of {total}"
        echo(
            f"Changes of match {loaded.id}{shown}, oldest first:",
            journal_table(rows),
            "'hgin undo' reverts the latest change in force; 'hgin restore N' goes back to N.",
        )
    notify(notices)


AbandonedMatch = Annotated[
    str | None,
    match_argument(
        "A match identifier (or its start), or a player: their latest match; default: the "
        "current match."
    ),
]
YesFlag = Annotated[
    bool, typer.Option("--yes", "-y", help="Do not ask first (a match with hands).")
]


@app.command()
def abandon(match: AbandonedMatch = None, yes: YesFlag = False, named: MatchOption = None) -> None:
    """Take a match begun by mistake off the list; its file is kept as a backup, and
    'hgin undo' straight after (or 'hgin restore --backup') brings it back."""
    if match is not None and named is not None:
        raise typer.BadParameter("name the match once: MATCH or --match", param_hint="'--match'")
    match = match if match is not None else named
    keeper = scorekeeper()
    loaded = keeper.load(match)
    first, second = loaded.players
    hands = len(loaded.hands)
    played = f"{first} v {second}, {counted(hands, 'hand')}"
    if hands and not yes:
        if not is_terminal(sys.stdin):  # nobody to answer: a script says --yes
            raise HginError(f"match {loaded.id} has hands: 'hgin abandon --yes' abandons it")
        try:
            answer = input(f"Abandon match {loaded.id} ({played})? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().casefold() not in ("y", "yes"):
            raise HginError("nothing was abandoned")
    done = keeper.abandon(loaded.id)
    lines = [
        f"Abandoned match {loaded.id} ({played}): 'hgin undo' brings it back now, "
        f"'hgin restore --backup 1 -m {loaded.id}' later."
    ]
    if done.was_current and done.current is None:
        lines.append("No match is current now: 'hgin new NAME1 NAME2' starts one.")
    elif done.was_current and done.current is not None:
        now = done.current
        lines.append(f"Now current: match {now.id} ({now.players[0]} v {now.players[1]}).")
    echo(*lines)
