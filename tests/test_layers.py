"""The layers, read from the source: every module's imports (parsed, not run) against what its
package's docstring, or a loose module's own, says it may import ("May import: stdlib, engine,
cards, errors.").

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


def modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def imports(path: Path, package: str) -> set[str]:
    """Every module `path` imports, by its absolute name (relative imports resolved)."""
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


def allowed_by(doc: str) -> set[str]:
    """The module prefixes a docstring's "May import:" paragraph allows ("stdlib": the
    standard library; the other words name hgin's packages and loose modules, or libraries)."""
    lines = doc.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("May import:")), None)
    assert start is not None, "the docstring has a 'May import:' line"
    paragraph = []
    for line in lines[start:]:
        if not line.strip():
            break
        paragraph.append(line)
    listed = " ".join(paragraph).removeprefix("May import:")
    listed = re.sub(r"\([^)]*\)", "", listed).strip().rstrip(".")
    names = {word.strip() for word in listed.split(",") if word.strip()}
    return {f"hgin.{n}" if n in PACKAGES or n in LOOSE else n for n in names}


def violations(path: Path, allowed: set[str], package: str) -> list[str]:
    """The imports of `path` (a module of `package`) that `allowed` does not cover."""
    wrong = []
    for name in sorted(imports(path, package)):
        top = name.split(".")[0]
        if top == "__future__" or ("stdlib" in allowed and top in sys.stdlib_module_names):
            continue
        if not any(name == a or name.startswith(a + ".") for a in allowed):
            wrong.append(name)
    return wrong


def package_violations(folder: Path) -> dict[str, list[str]]:
    """Every module of the package in `folder` that imports what its docstring does not allow."""
    allowed = allowed_by(docstring(folder / "__init__.py"))
    found = {}
    for path in modules(folder):
        package = ".".join(path.relative_to(folder.parent).with_suffix("").parts[:-1])
        if wrong := violations(path, allowed, package):
            found[str(path.relative_to(folder.parent))] = wrong
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_says_what_it_holds_then_what_it_may_import(package: str) -> None:
    lines = docstring(ROOT / package / "__init__.py").splitlines()
    assert len(lines) >= 2 and lines[1].startswith("May import:"), lines


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_imports_only_what_its_package_allows(package: str) -> None:
    assert package_violations(ROOT / package) == {}


@pytest.mark.parametrize("module", LOOSE)
def test_every_loose_module_imports_only_what_it_allows(module: str) -> None:
    path = ROOT / f"{module}.py"
    assert violations(path, allowed_by(docstring(path)), "hgin") == []


def test_the_engine_rule_is_what_it_must_be() -> None:
    """The engine's rule is fixed whatever its docstring says: the standard library, the
    engine, the cards and the one exception."""
    allowed = allowed_by(docstring(ROOT / "engine" / "__init__.py"))
    assert allowed == {"stdlib", "hgin.engine", "hgin.cards", "hgin.errors"}


def test_only_the_command_line_may_import_typer_or_rich() -> None:
    for folder in [ROOT / p for p in PACKAGES if p != "cli"]:
        assert {"typer", "rich"} & allowed_by(docstring(folder / "__init__.py")) == set(), folder
    for module in LOOSE:
        assert {"typer", "rich"} & allowed_by(docstring(ROOT / f"{module}.py")) == set(), module


def test_a_forbidden_import_is_seen(tmp_path: Path) -> None:
    """The check itself can fail: a package whose modules import what its docstring does not
    allow, inside a function and relative ones included."""
    package = tmp_path / "hgin"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text('"""A probe.\nMay import: stdlib, engine,\nerrors."""\n')
    (package / "allowed.py").write_text("import json\nfrom hgin.engine import rules\n")
    (package / "inner" / "probe.py").write_text(
        "import json\n"
        "def f():\n"
        "    from hgin.store.matches import Store\n"
        "    from ..cli import app\n"
        "    from . import sheet\n"
        "    import typer\n",
        encoding="utf-8",
    )
    assert package_violations(package) == {
        "hgin/inner/probe.py": ["hgin.cli", "hgin.inner", "hgin.store.matches", "typer"]
    }


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


def module_graph(root: Path) -> dict[str, set[str]]:
    """Every module of the package at `root` with the modules of it that it imports (inside
    functions and for type checking too): `from a import b` counts `a.b` when that is one."""
    names = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for imported in imports(path, package):
            found.add(imported)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = {m for m in found if m in names and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, each group sorted (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while (top := stack.pop()) != node:
                group.append(top)
            group.append(node)
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_back_through_others() -> None:
    assert cycles(module_graph(ROOT)) == []


def test_a_circle_of_imports_is_seen(tmp_path: Path) -> None:
    package = tmp_path / "hgin"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from hgin import b\n")
    (package / "b.py").write_text("def f():\n    from hgin.c import g\n")
    (package / "c.py").write_text("import hgin.a\n")
    assert cycles(module_graph(package)) == [["hgin.a", "hgin.b", "hgin.c"]]
