"""House rule presets saved by name in the user config folder (JSON, written atomically)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hgin.engine.rules import PROFILES, Rules, rules_from_dict
from hgin.errors import HginError
from hgin.store.guard import (
    SMALL_CAP,
    Unusable,
    dump_json,
    ensure_folder,
    exclusive_lock,
    load_json,
    os_problem,
    write_atomic,
)
from hgin.store.matches import LOCK_TIMEOUT
from hgin.store.paths import config_file

PRESETS_NAME = "presets.json"
PRESET_NAME = re.compile(r"[a-z][a-z0-9_-]{0,30}")


def load_presets(folder: Path | None = None) -> dict[str, Rules]:
    """Saved presets by name; a damaged file is refused, never reset."""
    path = config_file(folder, PRESETS_NAME)
    data = load_json(path, cap=SMALL_CAP)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise Unusable(path, "it does not hold a JSON object")
    presets: dict[str, Rules] = {}
    for name, values in data.items():
        if not PRESET_NAME.fullmatch(name):
            raise Unusable(path, f"'{name[:40]}' cannot name a preset")
        try:
            presets[name] = rules_from_dict(values)
        except HginError as error:
            raise Unusable(path, f"preset '{name}': {error}") from None
    return presets


def save_preset(
    name: str, rules: Rules, folder: Path | None = None, *, replace: bool = False
) -> Path:
    """Store `rules` under `name` (under the config folder's lock); replace one only if told."""
    key = name.strip().lower()
    if not PRESET_NAME.fullmatch(key):
        raise HginError(
            f"'{name}' cannot name a preset: use letters, digits, - or _, starting with a letter"
        )
    if key in PROFILES:
        raise HginError(f"'{key}' is a built-in profile; choose another name")
    path = config_file(folder, PRESETS_NAME)
    ensure_folder(path.parent, below=path.parent)
    with exclusive_lock(path.parent / ".lock", LOCK_TIMEOUT):
        presets = load_presets(folder)
        if key in presets and not replace:
            raise HginError(f"a preset '{key}' exists already: add --force to replace it")
        presets[key] = rules
        data: dict[str, Any] = {k: v.to_dict() for k, v in sorted(presets.items())}
        try:
            write_atomic(path, dump_json(data, indent=2))
        except OSError as error:
            raise os_problem("save", path, error) from None
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
