"""The release: the wheel and the source archive build without warnings, hold what they should,
and carry metadata a package registry accepts. Nothing is uploaded anywhere."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
VERSION = PROJECT["version"]
TIMEOUT = 180


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The wheel, the source archive, and everything the build printed."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheel = out / f"hgin-{VERSION}-py3-none-any.whl"
    sdist = out / f"hgin-{VERSION}.tar.gz"
    assert wheel.is_file() and sdist.is_file(), sorted(p.name for p in out.iterdir())
    return wheel, sdist, done.stdout + done.stderr


def test_the_build_prints_no_warning(built: tuple[Path, Path, str]) -> None:
    printed = built[2].lower()
    assert "deprecat" not in printed
    assert "warning" not in printed


def test_the_wheel_holds_the_package_only(built: tuple[Path, Path, str]) -> None:
    names = zipfile.ZipFile(built[0]).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"hgin", f"hgin-{VERSION}.dist-info"}
    assert "hgin/cli/__init__.py" in names
    assert "hgin/engine/sheet.py" in names
    assert "hgin/py.typed" in names
    assert "hgin/board/static/board.js" in names  # the board's page, served from the package
    assert f"hgin-{VERSION}.dist-info/licenses/LICENSE" in names
    assert not [n for n in names if n.endswith((".pyc", ".orig", ".rej"))]


def test_the_source_archive_holds_docs_completions_and_tests(built: tuple[Path, Path, str]) -> None:
    with tarfile.open(built[1]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in (
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        "pyproject.toml",
        "completions/hgin.bash",
        "completions/_hgin",
        "completions/hgin.fish",
        "docs/conf.py",
        "docs/table.md",
        "tests/conftest.py",
        "tests/test_release.py",
        "hgin/scorekeeper.py",
    ):
        assert needed in names, needed
    assert not [n for n in names if "__pycache__" in n or n.startswith(".ci")]


def test_the_metadata_is_what_a_registry_shows(built: tuple[Path, Path, str]) -> None:
    with zipfile.ZipFile(built[0]) as wheel:
        text = wheel.read(f"hgin-{VERSION}.dist-info/METADATA").decode("utf-8")
    metadata = Parser().parsestr(text)
    assert metadata["Name"] == "hgin"
    assert metadata["Version"] == VERSION
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["Description-Content-Type"] == "text/markdown"
    classifiers = set(metadata.get_all("Classifier") or [])
    for needed in (
        "Environment :: Console",
        "Operating System :: OS Independent",
        "Topic :: Games/Entertainment",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
    ):
        assert needed in classifiers, needed
    assert {url.split(",")[0] for url in metadata.get_all("Project-URL") or []} >= {
        "Homepage",
        "Changelog",
    }
    assert metadata["Keywords"]
    runtime = sorted(
        line.split("<")[0].split(">")[0]
        for line in metadata.get_all("Requires-Dist") or []
        if "extra ==" not in line
    )
    assert runtime == ["platformdirs", "rich", "typer"]


def test_a_registry_would_accept_both_files(built: tuple[Path, Path, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(built[0]), str(built[1])],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2
