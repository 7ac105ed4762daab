"""Shell completion: the committed scripts, and what hgin answers when a shell asks.

A shell asks by running hgin with _HGIN_COMPLETE set (bash also sets COMP_WORDS and
COMP_CWORD; zsh and fish set _TYPER_COMPLETE_ARGS); the tests do exactly that.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from hgin.cli import app
from hgin.scorekeeper import ScoreKeeper
from tests.conftest import Run

COMPLETIONS = Path(__file__).resolve().parents[1] / "completions"
# The generator of the committed scripts, a tool of the source tree beside them.
_spec = importlib.util.spec_from_file_location("generate", COMPLETIONS / "generate.py")
assert _spec is not None and _spec.loader is not None
completion_files = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(completion_files)
SCRIPT_NAMES = completion_files.SCRIPT_NAMES
main, stale_scripts, write_scripts = (
    completion_files.main,
    completion_files.stale_scripts,
    completion_files.write_scripts,
)


def ask(shell: str, line: str) -> list[str]:
    """What hgin offers for the last word of `line` (completion of a new word if it ends in
    a space), asked the way `shell`'s completion script asks."""
    env = {"_HGIN_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        words = shlex.split(line)
        cword = len(words) if line.endswith(" ") else len(words) - 1
        env |= {"COMP_WORDS": line, "COMP_CWORD": str(cword)}
    else:
        env["_TYPER_COMPLETE_ARGS"] = line
        if shell == "fish":
            env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    result = CliRunner().invoke(app, [], env=env, prog_name="hgin")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return [item for item in result.stdout.split("\n") if item]


@pytest.fixture
def two_matches(run: Run) -> None:
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    assert run("new", "Mary Jane", "Maud", "--dealer", "Maud").exit_code == 0


def match_ids(run: Run) -> list[str]:
    return sorted(row["id"] for row in json.loads(run("matches", "--json").stdout))


# -- the committed scripts -----------------------------------------------------------------


@pytest.fixture(scope="module")
def printed_once() -> Iterator[None]:
    """Each script asked of a real hgin process once in this module: the generator's checks
    and writes below compare against, and write, that same text."""
    with pytest.MonkeyPatch.context() as patch:
        printed = functools.cache(completion_files.completion_script)
        patch.setattr(completion_files, "completion_script", printed)
        yield


@pytest.mark.usefixtures("printed_once")
def test_committed_scripts_are_what_hgin_prints_now() -> None:
    assert stale_scripts(COMPLETIONS) == [], (
        "completions/ is stale: run python completions/generate.py"
    )
    # Python's own bytecode folder appears once the generator is imported: it is no script.
    shipped = (p.name for p in COMPLETIONS.iterdir() if p.name != "__pycache__")
    assert sorted(shipped) == sorted([*SCRIPT_NAMES.values(), "README.md", "generate.py"])


@pytest.mark.usefixtures("printed_once")
def test_generator_writes_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "completions"
    assert main(["--check", str(folder)]) == 1
    assert "hgin.bash is stale" in capsys.readouterr().out
    assert main([str(folder)]) == 0
    assert main(["--check", str(folder)]) == 0
    for name in SCRIPT_NAMES.values():
        assert (folder / name).read_bytes() == (COMPLETIONS / name).read_bytes()
    (folder / "_hgin").write_text("#compdef hgin\n", encoding="utf-8")
    assert stale_scripts(folder) == ["_hgin"]
    assert write_scripts(folder)[1] == folder / "_hgin"
    assert stale_scripts(folder) == []


def test_script_contents() -> None:
    bash = (COMPLETIONS / "hgin.bash").read_text(encoding="utf-8")
    assert "_HGIN_COMPLETE=complete_bash" in bash
    assert bash.rstrip().endswith("complete -o default -F _hgin_completion hgin")
    zsh = (COMPLETIONS / "_hgin").read_text(encoding="utf-8")
    assert zsh.startswith("#compdef hgin\n")  # compinit reads only the first line
    assert "_HGIN_COMPLETE=complete_zsh" in zsh
    assert "loadautofunc ]]; then\n  _hgin_completion" in zsh
    fish = (COMPLETIONS / "hgin.fish").read_text(encoding="utf-8")
    assert fish.startswith("complete --command hgin ")
    assert "_HGIN_COMPLETE=complete_fish" in fish


def test_the_bash_script_completes_in_bash(two_matches: None, hgin_home: Path) -> None:
    """The committed bash script, sourced into a real bash, completes against the real hgin."""
    script = COMPLETIONS / "hgin.bash"
    program = (
        f"source {script}\n"
        "COMP_WORDS=(hgin knock ''); COMP_CWORD=2; _hgin_completion hgin\n"
        'printf "%s\\n" "${COMPREPLY[@]}"; echo ---\n'
        "COMP_WORDS=(hgin su); COMP_CWORD=1; _hgin_completion hgin\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "hgin").exists(), "the hgin command is installed beside this Python"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, "--norc", "--noprofile", "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split("---\n") == ["Mary\nMaud\n", "summary\n"]


def test_install_completion_still_works(tmp_path: Path) -> None:
    """Typer's --install-completion installs the same bash and fish scripts as completions/."""
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1",
    }
    for shell in ("bash", "fish", "zsh"):
        done = subprocess.run(
            [sys.executable, "-m", "hgin", "--install-completion", shell],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert f"{shell} completion installed in" in done.stdout
    installed = (tmp_path / ".bash_completions" / "hgin.sh").read_text(encoding="utf-8")
    assert installed + "\n" == (COMPLETIONS / "hgin.bash").read_text(encoding="utf-8")
    assert "source '" in (tmp_path / ".bashrc").read_text(encoding="utf-8")
    fish = tmp_path / ".config" / "fish" / "completions" / "hgin.fish"
    assert fish.read_text(encoding="utf-8") == (COMPLETIONS / "hgin.fish").read_text("utf-8")
    zsh = (tmp_path / ".zfunc" / "_hgin").read_text(encoding="utf-8")
    assert zsh.startswith("#compdef hgin\n") and "_HGIN_COMPLETE=complete_zsh" in zsh


# -- what hgin offers ----------------------------------------------------------------------


def test_players_of_the_current_match(two_matches: None) -> None:
    assert ask("bash", "hgin gin ") == ["Mary", "Maud"]
    assert ask("bash", "hgin knock Mau") == ["Maud"]
    # Typed letters are kept as typed: shells drop candidates that do not start with them.
    assert ask("bash", "hgin knock ma") == ["mary", "maud"]
    assert ask("bash", "hgin gin mar") == ["mary"]
    assert ask("bash", "hgin gin x") == []


def test_a_match_file_giving_its_players_twice_offers_no_names(
    two_matches: None, hgin_home: Path
) -> None:
    path = next((hgin_home / "matches").glob("*maud.json"))
    text = path.read_text(encoding="utf-8")
    path.write_text('{"players": ["Eve", "Zed"], ' + text.lstrip()[1:], encoding="utf-8")
    assert ask("bash", "hgin gin ") == []


def test_players_of_the_match_named_on_the_line(two_matches: None, run: Run) -> None:
    first = match_ids(run)[0]
    assert first.endswith("ann-bob")
    assert ask("bash", f"hgin gin --match {first} ") == ["Ann", "Bob"]
    assert ask("bash", f"hgin knock -m {first} b") == ["bob"]


def test_dealer_of_a_new_match_comes_from_the_names_typed(two_matches: None) -> None:
    assert ask("bash", "hgin new Xavi Yolanda --dealer ") == ["Xavi", "Yolanda"]
    assert ask("bash", "hgin new Xavi Yolanda --games 1 -d y") == ["yolanda"]
    assert ask("zsh", "hgin new Xavi Yolanda --dealer X") == ["_arguments '*: :((\"Xavi\"))'"]
    assert ask("bash", "hgin new --dealer ") == []


def test_a_name_with_a_space_is_offered_by_its_first_word(two_matches: None) -> None:
    # 'Mary' alone names Mary Jane unambiguously; a space would split the shell word.
    assert ask("bash", "hgin gin Mary") == ["Mary"]
    assert ask("bash", 'hgin new "Mary Jane" "Mary Ann" --dealer Mary') == [
        "Mary Jane",
        "Mary Ann",
    ]


def test_match_identifiers(two_matches: None, run: Run) -> None:
    ids = match_ids(run)
    assert len(ids) == 2
    assert ask("bash", "hgin use ") == ids
    assert ask("bash", f"hgin use {ids[0][:11]}") == ids  # the date they share
    assert ask("bash", f"hgin use {ids[0][:12]}") == ids[:1]
    assert ask("bash", "hgin show --match ") == ids
    assert ask("bash", f"hgin summary -m {ids[1][:-3].upper()}") == [
        ids[1][:-3].upper() + ids[1][-3:]
    ]


def test_zsh_and_fish_answers(two_matches: None) -> None:
    assert ask("zsh", "hgin gin ") == ['_arguments \'*: :(("Mary"', '"Maud"))\'']
    assert ask("fish", "hgin knock Ma") == ["Mary", "Maud"]
    formats = ["text", "markdown", "html", "svg", "csv", "json"]
    assert ask("fish", "hgin summary --format ") == formats


def test_nothing_to_offer_is_no_error(run: Run, hgin_home: Path) -> None:
    assert ask("bash", "hgin gin ") == []
    assert ask("bash", "hgin use ") == []
    assert run("new", "Ann", "Bob", "--dealer", "Ann").exit_code == 0
    (only,) = match_ids(run)
    ScoreKeeper().store.match_path(only).write_text("{ not json", encoding="utf-8")
    assert ask("bash", "hgin gin ") == []


def test_every_match_and_player_parameter_completes(two_matches: None, run: Run) -> None:
    """Walk every command: each match parameter offers the stored identifiers, each player
    parameter offers names: the current match's, the two typed before --dealer on a line that
    starts a match, or everyone's for a --player filter."""
    ids = match_ids(run)
    current = ["Mary", "Maud"]
    everyone = ["Ann", "Bob", "Mary Jane", "Maud"]
    root = typer.main.get_command(app)
    checked = []

    def offered(*words: str) -> list[str]:
        return ask("bash", " ".join(["hgin", *words, ""]))

    def walk(command: object, path: list[str]) -> None:
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, [*path, name])
        params = getattr(command, "params", [])
        names_first = {"first", "second"} <= {p.name for p in params}
        for param in params:
            option = param.param_type_name == "option"
            if param.name == "match":
                assert offered(*path, *(["--match"] if option else [])) == ids, path
            elif param.name in ("winner", "knocker") and not option:
                assert offered(*path) == current, path
            elif param.name == "dealer" and names_first:
                assert offered(*path, "Xavi", "Yolanda", "--dealer") == ["Xavi", "Yolanda"]
            elif param.name == "dealer":
                assert offered(*path, "--dealer") == current, path
            elif param.name == "player":
                assert offered(*path, "--player") == everyone, path
            else:
                continue
            checked.append((*path, param.name))

    walk(root, [])
    for wanted in [("gin", "winner"), ("knock", "knocker"), ("new", "dealer"), ("use", "match")]:
        assert wanted in checked
    assert {("show", "match"), ("summary", "match"), ("undo", "match")} <= set(checked)


def test_answering_completion_does_not_load_rich(two_matches: None) -> None:
    """A Tab runs hgin once; it must answer without importing Rich (the heavy drawing code)."""
    program = (
        "import os, sys\n"
        "from hgin.cli import main\n"
        "try:\n    main()\n"
        "except SystemExit:\n    pass\n"
        "sys.stderr.write('rich loaded' if 'rich' in sys.modules else 'no rich')\n"
    )
    env = {
        **os.environ,
        "_HGIN_COMPLETE": "complete_bash",
        "COMP_WORDS": "hgin gin ",
        "COMP_CWORD": "2",
    }
    done = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "Mary\nMaud\n"
    assert done.stderr == "no rich"
