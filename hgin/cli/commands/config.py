"""`hgin config`: where the settings file is and what is in force; --init writes a starter."""

from __future__ import annotations

from typing import Annotated

import typer

from hgin.cli.application import JsonFlag, app, saving, scorekeeper
from hgin.cli.streams import print_json


@app.command("config")
def show_config(
    init: Annotated[
        bool,
        typer.Option("--init", help="Write a commented starter file (never over an existing one)."),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Show where the settings file is, whether it exists, and the defaults 'hgin new' uses."""
    keeper = scorekeeper()
    if init:
        saving(
            keeper.init_config,
            lambda path: typer.echo(f"Wrote {path}: remove the # in front of a setting to use it."),
        )
        return
    config = keeper.config()
    in_force = config.in_force()
    if as_json:
        data = {
            "path": str(config.path),
            "exists": config.exists,
            "in_force": in_force,
            "ascii": config.ascii is True,
        }
        print_json(data)
        return
    lines = ["Settings file:", f"  {config.path}"]
    if not config.exists:
        lines.append("  (not there: 'hgin config --init' writes a starter)")
    lines.append("Defaults for 'hgin new':")
    sources = {"config": "set in the file", "default": "default", "rules": "from the rules"}
    for key, item in in_force.items():
        value = item["value"]
        if key == "players":
            value = " and ".join(value) if value else "not set: name them, 'hgin new ANN BOB'"
        source = sources.get(item["from"])
        lines.append(f"  {key:<8} {value}" + (f"  ({source})" if source else ""))
    if config.ascii:
        lines.append("Drawing: plain ASCII, no symbols (set in the file)")
    from hgin.cli.layout import print_views

    print_views(*lines)  # a long path or value wraps at the width; piped, lines stay whole
