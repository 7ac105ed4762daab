"""Where hgin keeps its files: platformdirs locations, or $HGIN_HOME when set."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from hgin.errors import HginError
from hgin.store.guard import SMALL_CAP, parse_toml, read_bytes

HOME_VARIABLE = "HGIN_HOME"
CONFIG_NAME = "config.toml"


def check_folder(home: Path) -> None:
    """Refuse a data folder that is a file or below one (a missing one is made when needed)."""
    for probe in (home, *home.parents):
        try:
            mode = os.stat(probe).st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError:
            return  # cannot tell here; the first write will say what is wrong
        if stat.S_ISDIR(mode):
            return
        if probe == home:
            raise HginError(
                f"the data folder {home} is a file, not a folder (check ${HOME_VARIABLE})"
            )
        raise HginError(
            f"the data folder {home} cannot be made: {probe} is a file (check ${HOME_VARIABLE})"
        )


def data_dir(*, config: bool = False) -> Path:
    """The folder holding the matches (with `config`, settings and presets): $HGIN_HOME, else
    the user data folder."""
    value = os.environ.get(HOME_VARIABLE)
    if value:
        home = Path(value).expanduser()
        check_folder(home)
        return home / "config" if config else home

    import platformdirs  # not needed when $HGIN_HOME is set

    user_path = platformdirs.user_config_path if config else platformdirs.user_data_path
    return user_path("hgin", appauthor=False)


def config_file(folder: Path | None = None, name: str = CONFIG_NAME) -> Path:
    """Where a file of the config folder (the settings file unless named) is or would be."""
    return (folder if folder is not None else data_dir(config=True)) / name


def ascii_setting(folder: Path | None = None) -> bool:
    """Whether the settings file says `ascii = true`, read as every command starts: a file that
    does not mention it is not parsed, one that cannot be read is left for `hgin config`."""
    path = config_file(folder)
    try:
        raw = read_bytes(path, cap=SMALL_CAP)
        return raw is not None and b"ascii" in raw and parse_toml(raw, path).get("ascii") is True
    except HginError:
        return False
