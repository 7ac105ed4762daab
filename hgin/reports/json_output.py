"""JSON as hgin prints it for scripts (`--json`, `-f json`): one function, loaded alone."""

from __future__ import annotations

import json


def json_text(data: object, indent: int | None = 2) -> str:
    """JSON as hgin prints it: the text as it is, one trailing newline."""
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"
