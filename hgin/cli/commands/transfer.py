"""Moving matches between machines: export to one JSON file, import from one, with a progress
bar on standard error for many matches (only on a terminal, only once the work has taken about
a second: Rich's progress is imported only then)."""

from __future__ import annotations

import dataclasses
import gc
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hgin.cli.application import app, echo, notify, saving, scorekeeper, tell
from hgin.cli.options import JsonFlag, MatchOption
from hgin.cli.streams import is_terminal, print_document, print_json
from hgin.reports.merging import (
    copy_removed,
    import_summary,
    kept_beside,
    taken_off,
)
from hgin.reports.plural import counted
from hgin.reports.symbols import escaped

if TYPE_CHECKING:
    from hgin.scorekeeper import ImportReport

DELAY = 1.0  # seconds of work before a bar appears


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A callable told (done, total) for the block; the bar is taken off when it ends."""
    started, wanted = time.monotonic(), is_terminal(sys.stderr)
    shown: list[Any] = []  # the bar and its task, once drawn

    def update(done: int, total: int) -> None:
        if not shown:
            if not wanted or time.monotonic() - started < DELAY:
                return
            from rich.console import Console
            from rich.progress import Progress

            bar = Progress(console=Console(file=sys.stderr, force_terminal=True), transient=True)
            bar.start()
            shown.extend((bar, bar.add_task(label, total=total)))
        shown[0].update(shown[1], completed=done, total=total, description=label)

    try:
        yield update
    finally:
        if shown:
            shown[0].stop()


@app.command()
def export(
    file: Annotated[
        str, typer.Argument(metavar="FILE.json", help="The file to write ('-' for stdout).")
    ],
    every: Annotated[bool, typer.Option("--all", "-a", help="Every stored match.")] = False,
    match: MatchOption = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
) -> None:
    """Write the current match (or --match, or --all) to one JSON file for 'hgin import'."""

    if every and match is not None:
        raise typer.BadParameter("choose --all or --match, not both")
    keeper = scorekeeper()
    target = keeper.output_target(file, force=force)
    with progress_bar("Exporting") as bar:
        exported = keeper.export(match, every=every, progress=bar)
    if target is None:
        print_document(exported.text, "json")
        notify(exported.notices)
        return

    def written(_: object) -> None:
        echo(f"Exported {counted(exported.match_count, 'match', 'matches')} to {escaped(file)}.")
        notify(exported.notices)

    saving(lambda: keeper.write_output(target, exported.text), written)


@app.command("import")
def import_(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE.json",
            help="An export file or a match file, a sync tool's copy too ('-' for stdin).",
        ),
    ],
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="Where the file's copy of a match differs from ours, take the file's (old "
            "versions are backed up).",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Merge the matches of an export file (or a match file) with ours, by their journals."""

    def imported(done: tuple[str, ImportReport]) -> None:
        source, report = done
        if as_json:
            print_json(dataclasses.asdict(report))
            return
        summary = import_summary(
            source,
            added=len(report.added),
            updated=len(report.updated),
            up_to_date=len(report.up_to_date),
            kept=len(report.kept),
            replaced=len(report.replaced),
            taken_off=len(report.taken_off),
        )
        kept = [
            kept_beside(each.id, each.beside, each.common, start_differs=each.start_differs)
            for each in report.kept
        ]
        gone = [taken_off(each.id, each.into) for each in report.taken_off]
        kept_as = report.kept[0].id if report.kept else None
        removed = [copy_removed(source, kept_as)] if report.copy_removed else []
        current = [f"Current match: {report.current}."] if report.current else []
        echo(summary, *kept, *gone, *removed, *current)

    keeper = scorekeeper()
    if file == "-" and is_terminal(sys.stdin):
        tell("hgin: waiting for the export on standard input (Ctrl-D ends it, Ctrl-C stops)")
    read = keeper.read_import(file)  # before the change, which holds Ctrl-C back

    def with_a_bar() -> tuple[str, ImportReport]:
        # Every match of the file is read and checked before any is written, and all live
        # until the import ends, holding no cycles: a collection would look at them in vain.
        gc.disable()
        try:
            with progress_bar("Importing") as bar:  # gone before anything else is printed
                return keeper.import_file(file, replace=replace, progress=bar, read=read)
        finally:
            gc.enable()

    saving(with_a_bar, imported)
