"""What keeps hgin quick to start, checked in fresh processes by what a run does, never by how
long it takes (timings: tests/bench/run.py):

- a run loads the module of its own command only (a bare `hgin` that of `show`; help all);
- no command lets Typer load pydantic to convert a plain value (hgin.cli.quick_params),
  and the quick conversion gives exactly what Typer's own gives;
- what prints no table (a shell completion, `show --json`) never loads Rich;
- the match list and the statistics, once their cache is filled, replay no match.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hgin.cli.startup import command_word, given_words, only_the_command
from hgin.scorekeeper import ScoreKeeper

TIMEOUT = 120
COMPLETE_GIN = {"_HGIN_COMPLETE": "complete_bash", "COMP_WORDS": "hgin gin ", "COMP_CWORD": "2"}


def python(args: list[str], home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """A fresh Python process with these arguments, `home` as the data folder, at 80 columns."""
    return subprocess.run(
        [sys.executable, *args],
        env={**os.environ, "HGIN_HOME": str(home), "COLUMNS": "80", **extra},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def imported(args: list[str], home: Path, **extra: str) -> tuple[set[str], str]:
    """Every module a fresh `python -X importtime ARGS` process imports, and its stdout."""
    done = python(["-X", "importtime", *args], home, **extra)
    assert done.returncode == 0, done.stderr[-2000:]
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip())
    names.discard("package")  # the header line
    return names, done.stdout


def loaded(names: set[str], prefix: str) -> list[str]:
    return sorted(n for n in names if n == prefix or n.startswith(prefix + "."))


@pytest.fixture
def with_match(hgin_home: Path) -> Path:
    ScoreKeeper(hgin_home).new_match("Ann", "Bob", dealer="Ann")
    return hgin_home


@pytest.mark.parametrize(
    ("argv", "environ", "printed", "modules"),
    [
        (["gin", "ann", "18", "--match", "20"], {}, "Gin: Ann scores 25 + 18 = 43", ["hands"]),
        (["stats", "--json"], {}, '"players"', ["history"]),
        (["show", "--json"], {}, '"players"', ["matches"]),
        ([], COMPLETE_GIN, "Ann\nBob", ["hands"]),
        (["--help"], {}, "Usage", "every"),
        ([], {}, "Game I", ["matches"]),  # a bare 'hgin' shows the sheet: what `show` needs
    ],
    ids=["gin", "stats", "show-json", "completion", "help", "bare"],
)
def test_a_run_loads_only_its_command_and_never_pydantic(
    argv: list[str],
    environ: dict[str, str],
    printed: str,
    modules: list[str] | str,
    with_match: Path,
) -> None:
    from hgin.cli.commands import MODULES

    names, out = imported(["-m", "hgin", *argv], with_match, **environ)
    assert printed in out
    found = sorted(n.rsplit(".", 1)[1] for n in loaded(names, "hgin.cli.commands")[1:])
    assert found == (sorted(set(MODULES.values())) if modules == "every" else modules)
    assert loaded(names, "pydantic") == []


@pytest.mark.parametrize(
    ("argv", "environ"),
    [
        (["-m", "hgin", "show", "--json"], {}),
        (["-m", "hgin"], COMPLETE_GIN),
        (
            ["-m", "hgin"],
            {"_HGIN_COMPLETE": "complete_bash", "COMP_WORDS": "hgin s", "COMP_CWORD": "1"},
        ),
        (["-c", "import hgin.cli; hgin.cli.app"], {}),  # every command registered, none run
    ],
    ids=["show-json", "complete-a-name", "complete-a-command", "import-the-app"],
)
def test_what_draws_no_table_loads_no_rich(
    argv: list[str], environ: dict[str, str], with_match: Path
) -> None:
    names, _ = imported(argv, with_match, **environ)
    assert loaded(names, "rich") == []


def test_completing_a_command_name_still_sees_every_command(hgin_home: Path) -> None:
    request = {"_HGIN_COMPLETE": "complete_bash", "COMP_WORDS": "hgin s", "COMP_CWORD": "1"}
    done = python(["-m", "hgin"], hgin_home, **request)
    assert {"show", "stats", "summary", "series"} <= set(done.stdout.split())


@pytest.mark.parametrize("command", ["matches", "stats"])
def test_the_list_and_the_statistics_replay_no_match_once_cached(
    command: str, with_match: Path
) -> None:
    imported(["-m", "hgin", command], with_match)  # the first run fills the cache
    names, out = imported(["-m", "hgin", command], with_match)
    assert out.strip()
    assert "hgin.engine.match" not in names  # the module that replays a journal


def test_a_bad_value_is_still_refused_by_typer(with_match: Path) -> None:
    done = python(["-m", "hgin", "new", "Cy", "Dee", "--target", "ten"], with_match)
    assert done.returncode == 2
    assert done.stderr == "hgin: --target: not a whole number\nTry 'hgin new --help'.\n"


# -- only the command that runs is built ------------------------------------------------------


def test_only_the_named_command_is_built() -> None:
    from hgin.cli import app

    def view(words: list[str]) -> Any:
        return only_the_command(app, command_word(words, {}))

    gin = view(["gin", "ann", "18"])
    assert [getattr(i.callback, "__name__", "") for i in gin.registered_commands] == ["gin"]
    assert gin.registered_groups == []
    series = view(["--version", "series", "show"])
    assert series.registered_commands == []
    assert [g.name for g in series.registered_groups] == ["series"]
    assert len(app.registered_commands) > 10  # the app itself is left whole
    for words in ([], ["--help"], ["nonsense"], ["-m", "x"]):
        assert view(words) is app


def test_every_command_is_registered_by_the_module_the_table_names() -> None:
    from hgin.cli import app
    from hgin.cli.commands import MODULES
    from hgin.cli.startup import command_name

    registered = {
        command_name(info): info.callback.__module__
        for info in app.registered_commands
        if info.callback is not None
    }
    for group in app.registered_groups:
        assert group.typer_instance is not None
        callbacks = [c.callback for c in group.typer_instance.registered_commands]
        registered[command_name(group)] = next(c for c in callbacks if c).__module__
    assert registered == {name: f"hgin.cli.commands.{module}" for name, module in MODULES.items()}


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        (
            {"_HGIN_COMPLETE": "complete_bash", "COMP_WORDS": "hgin gin ", "COMP_CWORD": "2"},
            ["gin"],
        ),
        ({"_HGIN_COMPLETE": "complete_bash", "COMP_WORDS": "hgin gi", "COMP_CWORD": "1"}, []),
        ({"_HGIN_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "hgin knock a"}, ["knock"]),
        ({"_HGIN_COMPLETE": "complete_fish", "_TYPER_COMPLETE_ARGS": "hgin kno"}, []),
        (
            {
                "_HGIN_COMPLETE": "complete_powershell",
                "_TYPER_COMPLETE_ARGS": "hgin show --m",
                "_TYPER_COMPLETE_WORD_TO_COMPLETE": "--m",
            },
            ["show"],
        ),
        # An unreadable request names no command: the whole app answers it.
        ({"_HGIN_COMPLETE": "complete_bash", "COMP_WORDS": "hgin gin", "COMP_CWORD": "x"}, []),
    ],
)
def test_words_before_the_one_being_completed(environ: dict[str, str], words: list[str]) -> None:
    assert given_words(["ignored"], environ) == words


# -- the quick conversion agrees with Typer's own ---------------------------------------------


def typer_converts(annotation: Any, value: Any) -> Any:
    """What Typer's own (pydantic) converter makes of `value`, or the exception it raises."""
    from typer._coercion import build_runtime_param, resolve_type_descriptor
    from typer.models import OptionInfo

    converter: Any = build_runtime_param(resolve_type_descriptor(annotation, OptionInfo()))
    try:
        return converter._coerce_value(value, param=None, ctx=None)
    except Exception as refusal:  # the refusal is compared by its type
        return type(refusal)


TEXTS = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"[+-]?[0-9]{1,20}", fullmatch=True),
    st.sampled_from(["text", "html", "HTML", " 12", "1_0", "1.0", "007", "-0", "", "١٢"]),
)
ANNOTATIONS: list[Any] = [str, int, bool, Literal["text", "html"], list[str]]


@settings(deadline=None)  # the first example imports pydantic for Typer's own converter
@given(annotation=st.sampled_from(ANNOTATIONS), value=TEXTS)
def test_the_quick_conversion_matches_typers_own(annotation: Any, value: str) -> None:
    from typer.models import OptionInfo

    from hgin.cli.quick_params import SLOW, quick_value

    typed = [value] if annotation == list[str] else value
    quick = quick_value(annotation, OptionInfo(), typed, None)
    if quick is not SLOW:
        expected = typer_converts(annotation, typed)
        assert quick == expected and type(quick) is type(expected)


def test_the_quick_conversion_leaves_refusals_to_typer() -> None:
    from typer.models import OptionInfo

    from hgin.cli.quick_params import SLOW, quick_value

    for annotation, value in [(int, "ten"), (int, " 12"), (Literal["a"], "b"), (Path, "x")]:
        assert quick_value(annotation, OptionInfo(), value, None) is SLOW
    assert quick_value(int, OptionInfo(min=0), "5", None) is SLOW  # Typer checks the range
    assert quick_value(str, OptionInfo(), "Zoë", None) == "Zoë"


# A Typer patch release whose RuntimeParam takes another field: building the quick converter
# raises TypeError, so hgin must let Typer convert every value itself.
CHANGED_TYPER = """
import sys
from dataclasses import dataclass
import typer._coercion as coercion

@dataclass(frozen=True)
class RuntimeParam(coercion.RuntimeParam):
    shape: object  # a field the quick converter does not know about

coercion.RuntimeParam = RuntimeParam
from hgin.cli import main
sys.argv = ["hgin", *sys.argv[1:]]
main()
"""


def test_a_changed_typer_falls_back_to_its_own_conversion(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for args, printed in [
        (["new", "Ann", "Bob", "--target", "50", "--dealer", "Bob"], "to 50"),
        (["gin", "ann", "18"], "25 + 18 = 43"),
        (["summary", "-f", "markdown"], "Ann v Bob"),
    ]:
        done = python(["-c", CHANGED_TYPER, *args], home)
        assert done.returncode == 0, done.stderr[-2000:]
        assert printed in done.stdout
        assert "Traceback" not in done.stderr


def test_the_quick_check_failing_leaves_the_value_to_typer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.models import OptionInfo

    from hgin.cli import quick_params
    from hgin.cli.quick_params import QuickParam

    def broken(*args: Any) -> Any:
        raise AttributeError("'OptionInfo' object has no attribute 'parser'")

    monkeypatch.setattr(quick_params, "quick_value", broken)
    converter = QuickParam(parameter_info=OptionInfo(), annotation=int)
    assert converter._coerce_value("12", param=None, ctx=None) == 12


def imports_inside_functions(source: str) -> set[str]:
    """The modules a module's source imports inside its functions (`from PACKAGE import
    MODULE` counts as PACKAGE.MODULE)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    found.update(alias.name for alias in inner.names)
                elif isinstance(inner, ast.ImportFrom) and inner.module is not None:
                    spec = importlib.util.find_spec(inner.module)
                    package = spec is not None and spec.submodule_search_locations is not None
                    for alias in inner.names:
                        submodule = f"{inner.module}.{alias.name}"
                        is_module = package and importlib.util.find_spec(submodule) is not None
                        found.add(submodule if is_module else inner.module)
    return found


def listed_import_entries(root: Path) -> list[str]:
    """The entries of the development page's list of imports inside functions, one line each."""
    readme = (root / "docs" / "development.md").read_text(encoding="utf-8")
    section = readme.split("### Imports inside functions", 1)[1].split("\n## ", 1)[0]
    return [" ".join(e.split()) for e in section.split("\n- ")[1:]]


def test_the_development_page_names_every_import_inside_a_function() -> None:
    root = Path(__file__).resolve().parents[1]
    entries = listed_import_entries(root)
    missing = []
    for path in sorted((root / "hgin").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        places = {f"`{relative}`", f"`{path.parent.relative_to(root).as_posix()}/*.py`"}
        for module in imports_inside_functions(path.read_text(encoding="utf-8")):
            named = [e for e in entries if f"`{module}`" in e]
            if not any(place in e for e in named for place in places):
                missing.append(f"{relative}: {module}")
    assert missing == []


def test_the_readme_names_no_import_that_is_gone() -> None:
    """Each module an entry names is imported inside a function of the files it names."""
    root = Path(__file__).resolve().parents[1]
    stale = []
    for entry in listed_import_entries(root):
        quoted = entry.split("`")[1::2]
        files = [f for q in quoted if q.endswith(".py") for f in sorted(root.glob(q))]
        inside = set().union(*(imports_inside_functions(f.read_text("utf-8")) for f in files))
        named = {q for q in quoted if q != "hgin" and " " not in q and "/" not in q}
        modules = {q for q in named if not q.startswith(("$", "-")) and known_module(q)}
        stale += [f"{entry[:40]}: {module}" for module in sorted(modules - inside)]
    assert stale == []


def known_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def test_the_import_list_check_sees_an_import_inside_a_function() -> None:
    source = "import os\n\ndef f():\n    from hgin.engine import editing\n    import tomllib\n"
    assert imports_inside_functions(source) == {"hgin.engine.editing", "tomllib"}
