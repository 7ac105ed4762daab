"""The settings file, `config.toml` in the config folder: defaults for `hgin new` (rules, any
rule option, the usual players). A damaged or mistyped file is refused with its path and the
problem; the command line wins over the file. Beside it, `presets.json`: house rule presets
saved by name."""

import difflib
import re
from pathlib import Path
from typing import Any, NamedTuple

from hgin.engine.match import check_name
from hgin.engine.names import fold
from hgin.engine.rules import (
    PROFILES,
    Rules,
    find_option,
    option_flag,
    rule_options,
    rules_from_dict,
    with_options,
)
from hgin.errors import HginError
from hgin.store.guard import (
    SMALL_CAP,
    Unusable,
    dump_json,
    ensure_folder,
    exclusive_lock,
    load_json,
    os_problem,
    parse_toml,
    read_bytes,
    write_atomic,
)
from hgin.store.matches import LOCK_TIMEOUT
from hgin.store.paths import config_file

KNOWN = "rules, players, ascii and each rule option that 'hgin rules' lists"
SHOWN_ALWAYS = ("target", "games")  # the rule options `hgin config` shows even when not set
DEFAULT_RULES = "friendly"
PRESETS_NAME = "presets.json"
PRESET_NAME = re.compile(r"[a-z][a-z0-9_-]{0,30}")

STARTER = """\
# hgin settings: defaults for 'hgin new'. Anything given on the command line wins.
# Remove the # in front of a line to use it. 'hgin config' shows what is in force.

# Rules: friendly, classic, or a preset saved with 'hgin rules save NAME'.
# rules = "classic"

# Points that close a game (the rules' own target when left out).
# target = 100

# Games on the sheet: 1, 3 or 5.
# games = 3

# Money per point for 'hgin settle' and the summaries (kept with each new match).
# stake = "0.05"

# Any other rule option of 'hgin new' ('hgin rules' lists them), named as its flag:
# a number bare, on or off as true or false, a choice in quotes, as in:
# tie = "knocker"

# The usual two players, so that a bare 'hgin new' starts a match between them.
# players = ["Ines", "Oskar"]

# Draw with plain ASCII (*, -, #) instead of symbols such as ✓, – and █, for a terminal font
# that lacks them. hgin does this by itself where the terminal cannot show them.
# ascii = true
"""


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
        data: dict[str, Any] = {k: v._asdict() for k, v in sorted(presets.items())}
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


class Config(NamedTuple):
    """The settings file as read: each value None when the file does not set it."""

    path: Path
    exists: bool
    rules: str | None
    players: tuple[str, str] | None
    options: dict[str, Any]  # rule values, by field name
    ascii: bool | None  # draw with plain ASCII instead of hgin's symbols

    def base_rules(self, name: str | None = None) -> Rules:
        """The rules `new` starts from: `name` if given, else the file's, else friendly."""
        chosen = name if name is not None else self.rules
        try:
            return find_profile(chosen if chosen is not None else DEFAULT_RULES, self.path.parent)
        except HginError as error:
            if name is None and self.rules is not None:
                raise HginError(f"{self.path}: rules: {error}") from None
            raise

    def in_force(self) -> dict[str, Any]:
        """What a bare `hgin new` would use, each with its source: config, default, rules, none."""
        rules = self.base_rules()
        shown: dict[str, Any] = {
            "rules": {
                "value": rules.profile,
                "from": "config" if self.rules is not None else "default",
            }
        }
        for option in rule_options():
            if option.name in SHOWN_ALWAYS or option.name in self.options:
                shown[option.flag] = {
                    "value": self.options.get(option.name, getattr(rules, option.name)),
                    "from": "config" if option.name in self.options else "rules",
                }
        players = list(self.players) if self.players else None
        shown["players"] = {"value": players, "from": "config" if players else "none"}
        return shown


def _rule_value(path: Path, key: str, value: object) -> Any:
    """A rule option's value as the file gives it, checked by the registry entry."""
    option = find_option(key)
    if option.kind == "number" and type(value) is not int:
        raise HginError(f"{path}: '{key}' must be a whole number, not {value!r}")
    if option.kind == "switch" and not isinstance(value, bool):
        raise HginError(f"{path}: '{key}' must be true or false, not {value!r}")
    if option.kind in ("choice", "text") and not isinstance(value, str):
        raise HginError(f"{path}: '{key}' must be text in quotes, not {value!r}")
    try:
        return option.parse(value) if isinstance(value, str) else option.check(value)
    except HginError as error:
        raise HginError(f"{path}: {error}") from None


def _players(path: Path, value: object) -> tuple[str, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise HginError(f'{path}: \'players\' must be two names, as in players = ["Ann", "Bob"]')
    first, second = value
    if not isinstance(first, str) or not isinstance(second, str):
        raise HginError(f"{path}: 'players' must hold two names in quotes")
    try:
        names = (check_name(first), check_name(second))
    except HginError as error:
        raise HginError(f"{path}: players: {error}") from None
    if fold(names[0]) == fold(names[1]):
        raise HginError(f"{path}: players: the two players need different names")
    return names


def parse_config(raw: bytes, path: Path) -> Config:
    """Settings from the file's bytes; unknown, mistyped or out-of-range values are refused."""
    data = parse_toml(raw, path)
    flags = {option.flag: option.name for option in rule_options()}
    settings = ("rules", *flags, "players", "ascii")
    for key in data:
        if key not in settings:
            near = difflib.get_close_matches(key, settings, n=1)
            hint = f"did you mean '{near[0]}'? " if near else ""
            raise HginError(f"{path}: unknown setting '{key}' ({hint}known: {KNOWN})")
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, str):
        raise HginError(f"{path}: 'rules' must be a name in quotes, as in rules = \"classic\"")
    options = {flags[k]: _rule_value(path, k, v) for k, v in data.items() if k in flags}
    players = _players(path, data["players"]) if "players" in data else None
    ascii_only = data.get("ascii")
    if ascii_only is not None and not isinstance(ascii_only, bool):
        raise HginError(f"{path}: 'ascii' must be true or false, not {ascii_only!r}")
    config = Config(path, True, rules, players, options, ascii_only)
    base = config.base_rules()
    try:
        with_options(base, config.options)
    except HginError as error:
        raise HginError(f"{path}: {error}") from None
    return config


def load_config(folder: Path | None = None) -> Config:
    """The settings in force; no file means no settings."""
    path = config_file(folder)
    raw = read_bytes(path, cap=SMALL_CAP)
    return Config(path, False, None, None, {}, None) if raw is None else parse_config(raw, path)


def init_config(folder: Path | None = None) -> Path:
    """Write the commented starter file; an existing file is never overwritten."""
    path = config_file(folder)
    ensure_folder(path.parent, below=path.parent)
    try:
        write_atomic(path, STARTER, replace=False)
    except FileExistsError:
        raise HginError(f"{path} already exists; edit it, or remove it first") from None
    except OSError as error:
        raise os_problem("write", path, error) from None
    return path


class NewSettings(NamedTuple):
    """What `hgin new` uses once the config filled in what the command line left out."""

    first: str
    second: str
    rules: Rules
    from_config: tuple[str, ...]
    path: Path

    @property
    def notes(self) -> list[str]:
        """One line naming the defaults taken from the file, if any."""
        if not self.from_config:
            return []
        return [f"From {self.path}: {', '.join(self.from_config)}."]


def settings_for_new(
    first: str | None,
    second: str | None,
    rules: str | None,
    options: dict[str, Any],
    config: Config,
) -> NewSettings:
    """Players and rules for a new match: the command line first, then the config file."""
    used = []
    if first is None and second is None:
        if config.players is None:
            raise HginError(
                f"name the two players (hgin new ANN BOB), or set players in {config.path}"
            )
        first, second = config.players
        used.append("players")
    elif first is None or second is None:
        raise HginError("name both players, or neither to use the players in the config file")
    if rules is None and config.rules is not None:
        used.append("rules")
    values = {**config.options, **{k: v for k, v in options.items() if v is not None}}
    used.extend(option_flag(k) for k in config.options if options.get(k) is None)
    chosen = with_options(config.base_rules(rules), values)
    return NewSettings(first, second, chosen, tuple(used), config.path)
