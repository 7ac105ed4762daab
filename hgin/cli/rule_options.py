"""The rule registry's options as Typer options, the same for `hgin new`, `hgin series new`
and `hgin rules save`: flag, type and values from the registry, help from `reports`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal

import typer

from hgin.engine.rules import RuleOption, rule_options
from hgin.reports.rule_help import RULE_HELP

VALUES = "rule_values"  # the parameter that receives the values given, by field name


def rule_parameter(option: RuleOption) -> inspect.Parameter:
    """The Typer option of one registry entry; None when it is not given."""
    declarations = [f"--{option.flag}"]
    kind: Any
    if option.kind == "number":
        kind = int
    elif option.kind == "switch":
        kind = bool
        declarations = [f"--{option.flag}/--no-{option.flag}"]
    elif option.kind == "choice":
        kind = Literal.__getitem__(option.choices)
    else:
        kind = str
    info = typer.Option(
        *declarations,
        help=RULE_HELP[option.name],
        metavar={"number": "N", "text": option.metavar}.get(option.kind),
        show_default=False,
    )
    return inspect.Parameter(
        option.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[kind | None, info],
    )


class RuleCommand:
    """A command taking `rule_values`, offered to Typer with one option per rule option (the
    signature built when Typer first reads it: only for the command that runs)."""

    def __init__(self, command: Callable[..., None]) -> None:
        functools.update_wrapper(self, command)
        del self.__wrapped__  # type: ignore[attr-defined]  # Typer reads the signature below
        self.__annotations__: dict[str, Any] = {}  # nor its annotations, which are text
        self.command = command

    @functools.cached_property
    def __signature__(self) -> inspect.Signature:
        own = inspect.signature(self.command, eval_str=True)
        kept = [p for name, p in own.parameters.items() if name != VALUES]
        added = [rule_parameter(option) for option in rule_options()]
        return own.replace(parameters=[*kept, *added])

    def __call__(self, **given: Any) -> None:
        values = taken_rule_values(given)  # taken out of `given` first
        self.command(**given, **{VALUES: values})


def taken_rule_values(given: dict[str, Any]) -> dict[str, Any]:
    """The rule values taken out of a command's parsed parameters, None for each not given."""
    values = {option.name: given.pop(option.name, None) for option in rule_options()}
    for option in rule_options():
        typed = values[option.name]
        if option.kind == "text" and isinstance(typed, str):
            values[option.name] = option.parse(typed)  # '.5' is stored as '0.50'
    return values
