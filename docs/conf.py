"""Sphinx configuration of the hgin manual: MyST Markdown pages, the Furo theme, and the
command reference drawn from the commands themselves (the directive of command_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # command_line.py: the command reference

project = "hgin"
author = "The hgin developers"
copyright = "2026, the hgin developers"
extensions = ["myst_parser", "command_line"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "images/README.md"]
myst_heading_anchors = 3
html_theme = "furo"
html_title = "hgin manual"
