"""The layers, read from the source: every module's imports (parsed, not run) against what its
package's docstring says it may import ("May import: stdlib, engine, cards, errors.").

Checked on the text, so an import inside a function or under TYPE_CHECKING counts too.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import hgin

ROOT = Path(hgin.__file__).parent
PACKAGES = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())
LOOSE = sorted(p.stem for p in ROOT.glob("*.py"))
# The loose modules' rules (they have no package docstring to say them).
LOOSE_RULES = {
    "__init__": set(),
    "__main__": {"hgin.cli"},
    "errors": set(),
    "completion": {"hgin.errors", "hgin.engine"},
    # The facade: everything below it, nothing of the command line or the play session.
    "scorekeeper": {"hgin.errors", "hgin.engine", "hgin.cards", "hgin.reports", "hgin.store"},
}


def modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def imports(path: Path, package: str | None = None) -> set[str]:
    """Every module `path` imports, by its absolute name (relative imports resolved)."""
    if package is None:
        package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.add(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                found.add(node.module)
    return found


def allowed_by(docstring: str) -> set[str] | None:
    """The module prefixes a package docstring's "May import:" line allows; None: anything."""
    line = next((ln for ln in docstring.splitlines() if ln.startswith("May import:")), None)
    assert line is not None, "the docstring's second line says what the package may import"
    listed = re.sub(r"\([^)]*\)", "", line.removeprefix("May import:")).strip().rstrip(".")
    if listed.startswith("anything"):
        return None
    names = {word.strip() for word in re.split(r"[,;]", listed) if word.strip()}
    return {f"hgin.{n}" if n in PACKAGES or n in LOOSE else n for n in names}


def violations(path: Path, allowed: set[str], package: str | None = None) -> list[str]:
    """The imports of `path` that `allowed` does not cover (stdlib: the standard library)."""
    wrong = []
    for name in sorted(imports(path, package)):
        top = name.split(".")[0]
        if top == "__future__" or ("stdlib" in allowed and top in sys.stdlib_module_names):
            continue
        if not any(name == a or name.startswith(a + ".") for a in allowed):
            wrong.append(name)
    return wrong


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_says_in_two_lines_what_it_holds_and_may_import(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text()))
    assert doc is not None
    lines = doc.splitlines()
    assert len(lines) == 2 and lines[1].startswith("May import:"), doc


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_imports_only_what_its_package_allows(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text())) or ""
    allowed = allowed_by(doc)
    if allowed is None:
        return
    found = {
        str(path.relative_to(ROOT.parent)): wrong
        for path in modules(ROOT / package)
        if (wrong := violations(path, allowed))
    }
    assert found == {}


@pytest.mark.parametrize("module", LOOSE)
def test_the_loose_modules_keep_their_place(module: str) -> None:
    assert module in LOOSE_RULES, f"hgin/{module}.py: say where it belongs (or move it)"
    allowed = LOOSE_RULES[module] | {"stdlib"}
    assert violations(ROOT / f"{module}.py", allowed) == []


def test_at_most_eight_modules_sit_loose_in_hgin() -> None:
    assert len(LOOSE) <= 8, LOOSE


def test_the_engine_rule_is_what_it_must_be() -> None:
    """The engine's rule is fixed whatever its docstring says: the standard library, the
    engine, the cards and the one exception."""
    doc = ast.get_docstring(ast.parse((ROOT / "engine" / "__init__.py").read_text())) or ""
    assert allowed_by(doc) == {"stdlib", "hgin.engine", "hgin.cards", "hgin.errors"}


def test_a_forbidden_import_is_seen(tmp_path: Path) -> None:
    """The check itself can fail: imports inside a function, relative ones included."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json\n"
        "def f():\n"
        "    from hgin.store.matches import Store\n"
        "    from ..cli import app\n"
        "    from . import sheet\n"
        "    import typer\n",
        encoding="utf-8",
    )
    allowed = {"stdlib", "hgin.engine", "hgin.cards", "hgin.errors"}
    assert violations(probe, allowed, "hgin.engine") == ["hgin.cli", "hgin.store.matches", "typer"]


def runtime_imports(path: Path) -> set[str]:
    """The hgin modules `path` imports when it runs (imports for type checking left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for statement in block.body
        for node in ast.walk(statement)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return {name for name in found if name.startswith("hgin.")}


def test_the_commands_reach_storage_only_through_the_facade() -> None:
    """No command module imports the store when it runs, or reaches for a keeper's store:
    each command calls one `ScoreKeeper` method."""
    found: dict[str, list[str]] = {}
    for path in modules(ROOT / "cli" / "commands"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        wrong = sorted(n for n in runtime_imports(path) if n.startswith("hgin.store"))
        wrong += [
            f"line {node.lineno}: .store"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "store"
        ]
        if wrong:
            found[str(path.relative_to(ROOT.parent))] = wrong
    assert found == {}


def test_the_start_up_checks_name_modules_that_exist() -> None:
    """tests/test_import_structure.py asserts which modules a command loads or not; a module
    renamed or moved away would make its "not loaded" checks pass for nothing."""
    source = (Path(__file__).parent / "test_import_structure.py").read_text(encoding="utf-8")
    named = {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"hgin(\.\w+)+", node.value)
    }
    assert named, "the start-up checks name hgin modules"
    missing = [
        name
        for name in sorted(named)
        if not (ROOT.parent / (name.replace(".", "/") + ".py")).is_file()
        and not (ROOT.parent / name.replace(".", "/") / "__init__.py").is_file()
    ]
    assert missing == []
