"""A Sphinx extension for the manual's command reference: the `command-reference` directive
sets out every command's `--help`, exactly as `hgin COMMAND --help` prints it at 80 columns
(run through Typer's test runner), so that the page cannot disagree with the commands."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from typer.testing import CliRunner

WIDTH = "80"


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command's words after 'hgin', groups before the commands they hold."""
    yield path
    for name in sorted(getattr(command, "commands", {})):
        sub = command.commands[name]
        if not getattr(sub, "hidden", False):
            yield from command_paths(sub, (*path, name))


def help_text(app: typer.Typer, path: tuple[str, ...]) -> str:
    environment = {"COLUMNS": WIDTH, "NO_COLOR": "1", "TERM": "dumb"}
    result = CliRunner().invoke(app, [*path, "--help"], env=environment, prog_name="hgin")
    if result.exit_code != 0:
        raise RuntimeError(f"hgin {' '.join(path)} --help failed: {result.output}")
    return result.output.rstrip()


class CommandReference(SphinxDirective):
    """Every command's help, a section each, in the order `hgin --help` lists them."""

    def run(self) -> list[nodes.Node]:
        import hgin.cli

        app = hgin.cli.app
        sections: list[nodes.Node] = []
        for path in command_paths(typer.main.get_command(app)):
            title = " ".join(("hgin", *path))
            section = nodes.section(
                ids=[nodes.make_id(title)], names=[nodes.fully_normalize_name(title)]
            )
            section += nodes.title(text=title)
            section += nodes.literal_block(text=help_text(app, path), language="text")
            sections.append(section)
        return sections


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("command-reference", CommandReference)
    return {"parallel_read_safe": True}
