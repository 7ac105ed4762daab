"""Where hgin keeps its files: platformdirs locations, or $HGIN_HOME when set."""

from __future__ import annotations

import os
from pathlib import Path

from hgin.errors import HginError
from hgin.store.guard import SMALL_CAP, parse_toml, read_bytes

HOME_VARIABLE = "HGIN_HOME"
CONFIG_NAME = "config.toml"


def home_override() -> Path | None:
    """$HGIN_HOME as a path, refused when it is a file or lies below one; None when unset."""
    value = os.environ.get(HOME_VARIABLE)
    if not value:
        return None
    home = Path(value).expanduser()
    check_folder(home)
    return home


def check_folder(home: Path) -> None:
    """Refuse a data folder that is a file, or that could not be made because a file is in the
    way; a folder that does not exist yet is fine (the first match creates it)."""
    probe = home
    while True:
        try:
            exists, is_dir = probe.exists(), probe.is_dir()
        except OSError:
            return  # cannot tell here; the first write will say what is wrong
        if exists:
            if is_dir:
                return
            if probe == home:
                raise HginError(
                    f"the data folder {home} is a file, not a folder (check ${HOME_VARIABLE})"
                )
            raise HginError(
                f"the data folder {home} cannot be made: {probe} is a file (check ${HOME_VARIABLE})"
            )
        if probe.parent == probe:
            return
        probe = probe.parent


def data_dir() -> Path:
    """The folder holding the matches: $HGIN_HOME, else the user data folder for hgin."""
    override = home_override()
    if override is not None:
        return override

    import platformdirs  # not needed when $HGIN_HOME is set

    return platformdirs.user_data_path("hgin", appauthor=False)


def config_dir() -> Path:
    """The folder holding settings and rule presets: $HGIN_HOME/config, else the user config."""
    override = home_override()
    if override is not None:
        return override / "config"

    import platformdirs

    return platformdirs.user_config_path("hgin", appauthor=False)


def config_file(folder: Path | None = None) -> Path:
    """Where the settings file is (or would be)."""
    return (folder if folder is not None else config_dir()) / CONFIG_NAME


def ascii_setting(folder: Path | None = None) -> bool:
    """Whether the settings file asks for ASCII drawing (`ascii = true`; see
    `hgin.store.config`, which reads and checks the whole file for the commands that use it).

    Read here on its own as every command starts, so it costs next to nothing: no file, or
    one that does not mention the setting, is not parsed at all; a file that cannot be read
    is left for `hgin config` and `hgin new` to report.
    """

    try:
        raw = read_bytes(config_file(folder), cap=SMALL_CAP)
    except HginError:
        return False
    if raw is None or b"ascii" not in raw:
        return False
    try:
        return parse_toml(raw, config_file(folder)).get("ascii") is True
    except HginError:
        return False
