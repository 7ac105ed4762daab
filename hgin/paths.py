"""Where hgin keeps its files: platformdirs locations, or $HGIN_HOME when set."""

from __future__ import annotations

import os
from pathlib import Path

HOME_VARIABLE = "HGIN_HOME"


def data_dir() -> Path:
    """The folder holding the matches: $HGIN_HOME, else the user data folder for hgin."""
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_data_path("hgin", appauthor=False)


def config_dir() -> Path:
    """The folder holding settings and rule presets: $HGIN_HOME/config, else the user config."""
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return Path(override).expanduser() / "config"
    import platformdirs

    return platformdirs.user_config_path("hgin", appauthor=False)
