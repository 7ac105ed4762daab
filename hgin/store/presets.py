"""House rule presets saved by name in the user config folder (JSON, written atomically)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hgin.engine.rules import PROFILES, Rules, rules_from_dict
from hgin.errors import HginError
from hgin.store.paths import config_dir

PRESET_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,30}$")


def presets_file(folder: Path | None = None) -> Path:
    return (folder if folder is not None else config_dir()) / "presets.json"


def load_presets(folder: Path | None = None) -> dict[str, Rules]:
    """Saved presets by name; a damaged file is refused, never reset."""
    path = presets_file(folder)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise HginError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict):
        raise HginError(f"cannot use {path}: it does not hold a JSON object")
    presets: dict[str, Rules] = {}
    for name, values in data.items():
        try:
            presets[name] = rules_from_dict(values)
        except HginError as error:
            raise HginError(f"cannot use {path}: preset '{name}': {error}") from None
    return presets


def save_preset(
    name: str, rules: Rules, folder: Path | None = None, *, replace: bool = False
) -> Path:
    """Store `rules` under `name`; an older preset of that name only when `replace` is set."""
    from hgin.store.matches import atomic_write

    key = name.strip().lower()
    if not PRESET_NAME.match(key):
        raise HginError(
            f"'{name}' cannot name a preset: use letters, digits, - or _, starting with a letter"
        )
    if key in PROFILES:
        raise HginError(f"'{key}' is a built-in profile; choose another name")
    presets = load_presets(folder)
    if key in presets and not replace:
        raise HginError(f"a preset '{key}' exists already: add --force to replace it")
    presets[key] = rules
    path = presets_file(folder)
    data: dict[str, Any] = {k: v.to_dict() for k, v in sorted(presets.items())}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(data, indent=2) + "\n")
    except OSError as error:
        raise HginError(f"could not save {path}: {error.strerror}") from None
    return path


def find_profile(name: str, folder: Path | None = None) -> Rules:
    """A built-in profile or a saved preset."""
    key = name.strip().lower()
    if key in PROFILES:
        return PROFILES[key]
    presets = load_presets(folder)
    if key in presets:
        return presets[key]
    known = ", ".join([*PROFILES, *sorted(presets)])
    raise HginError(f"no rules called '{name}' (known: {known})")
