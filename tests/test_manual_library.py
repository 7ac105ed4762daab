"""The manual's library example runs as printed: its code block, executed against a fresh data
folder, prints exactly the text block that follows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "docs" / "library.md"


def library_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Using hgin as a library")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_the_library_example_prints_what_the_manual_says(
    hgin_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = re.findall(r"```(\w+)\n(.*?)```", library_section(), flags=re.DOTALL)
    code = next(body for lang, body in blocks if lang == "python")
    printed = next(body for lang, body in blocks if lang == "text")
    exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out == printed
    assert list((hgin_home / "matches").glob("*.json"))  # it used $HGIN_HOME
