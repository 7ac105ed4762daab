"""Quick conversion of parameter values (see `hgin.cli.startup`): `install` puts a quick
converter in front of `typer.core.build_runtime_param`, a private hook of Typer. Whenever it
is missing or no longer works as expected, Typer's own converter does the work, slower but
never wrong."""

from __future__ import annotations

import re
from typing import Any, get_args, get_origin

import typer
import typer.core
from typer._coercion import (
    RuntimeParam,
    TypeDescriptor,
    build_runtime_param,
    resolve_type_descriptor,
)
from typer._param_types import choice_coercion_annotation, coerce_cli_choice

HOOK = "build_runtime_param"  # the name typer.core calls (`install` fails where it has none)
SLOW = object()
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}\Z")


def quick_value(annotation: Any, info: Any, value: Any, ctx: Any) -> Any:
    """What Typer's converter would make of `value` when that is the value itself or plain
    `int()` of it; SLOW for anything else (Typer then converts it, or refuses it)."""
    if info.parser is not None:
        return SLOW
    kind = type(value)
    if annotation is str and kind is str:
        return value
    if annotation is bool and kind is bool:
        return value
    if annotation is int and info.min is None and info.max is None and not info.clamp:
        if kind is int:
            return value
        if kind is str and WHOLE_NUMBER.match(value):
            return int(value)
        return SLOW
    if kind is str:
        choices = choice_coercion_annotation(annotation, info)
        if choices is None:
            return SLOW
        try:
            return coerce_cli_choice(value, choices=choices[0], case_sensitive=choices[1], ctx=ctx)
        except ValueError:
            return SLOW  # Typer refuses it (and `QuickParam` words the refusal)
    words = isinstance(value, list | tuple) and all(type(v) is str for v in value)
    if words and get_origin(annotation) is list and get_args(annotation) == (str,):
        return list(value)
    return SLOW


class QuickParam(RuntimeParam):
    """Converts simple values itself, the rest with Typer's own converter, built only then."""

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            quick = quick_value(self.annotation, self.parameter_info, value, ctx)
        except Exception:  # a Typer whose parameter details changed: it converts alone
            quick = SLOW
        if quick is not SLOW:
            return quick
        descriptor = resolve_type_descriptor(self.annotation, self.parameter_info)
        try:
            return build_runtime_param(descriptor)._coerce_value(value, param=param, ctx=ctx)
        except typer.BadParameter:
            choices = choice_coercion_annotation(self.annotation, self.parameter_info)
            if choices is None or not isinstance(value, str):
                raise
            # Typer's own words quote pydantic ("Value error, 'pdf' is not one of ...").
            listed = ", ".join(str(choice) for choice in choices[0])
            raise typer.BadParameter(f"'{value}' is not one of {listed}") from None


def install() -> None:
    """Make Typer give every parameter the quick converter (once; Typer's own is kept inside)."""
    if getattr(getattr(typer.core, HOOK), "quick", False):
        return

    def build(descriptor: TypeDescriptor) -> RuntimeParam:
        if descriptor.file_annotation is not None:
            return build_runtime_param(descriptor)
        try:
            return QuickParam(
                parameter_info=descriptor.parameter_info, annotation=descriptor.annotation
            )
        except Exception:  # e.g. a Typer release whose RuntimeParam takes other fields
            return build_runtime_param(descriptor)

    build.quick = True  # type: ignore[attr-defined]
    setattr(typer.core, HOOK, build)
