"""Write (or check) the shell completion scripts in completions/, generated from the app itself.

    python completions/generate.py            # rewrite completions/ (run from the checkout)
    python completions/generate.py --check    # exit 1 if a committed script is stale

Each script is what `hgin` prints when the shell asks it for one (`_HGIN_COMPLETE=source_zsh
hgin`): the same script `hgin --install-completion` installs. The scripts call hgin back at
every Tab, so subcommands, options, players and match identifiers are always current.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

COMPLETE_VARIABLE = "_HGIN_COMPLETE"
# File names each shell looks for: bash-completion loads `hgin` or `hgin.bash`, zsh's
# compinit autoloads `_hgin` from $fpath, fish loads `hgin.fish`.
SCRIPT_NAMES = {"bash": "hgin.bash", "zsh": "_hgin", "fish": "hgin.fish"}
ZSH_REGISTER = "compdef _hgin_completion hgin"
# Typer's zsh script only registers its function, so when compinit autoloads the file from
# $fpath the first Tab of every shell does nothing; this ending also completes right away.
ZSH_ENDING = """\
# Autoloaded from $fpath by compinit: complete now (else the first Tab does nothing).
# Sourced from ~/.zshrc: register the function for the Tabs to come.
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _hgin_completion "$@"
else
  compdef _hgin_completion hgin
fi"""


def completion_script(shell: str) -> str:
    """The completion script for `shell`, as the hgin command itself prints it."""
    if shell not in SCRIPT_NAMES:
        raise ValueError(f"no completion script for {shell}")
    env = {**os.environ, COMPLETE_VARIABLE: f"source_{shell}"}
    done = subprocess.run(
        [sys.executable, "-m", "hgin"],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    # zsh's compinit only autoloads a file whose first line is `#compdef`.
    script = done.stdout.strip()
    if shell == "zsh":
        script = zsh_autoload_ending(script)
    return script + "\n"


def zsh_autoload_ending(script: str) -> str:
    """Typer's zsh script made to complete on the first Tab when autoloaded from $fpath."""
    head, register, tail = script.rpartition(ZSH_REGISTER)
    if not register or tail.strip():
        raise RuntimeError(f"Typer's zsh script no longer ends with '{ZSH_REGISTER}'")
    return head + ZSH_ENDING


def stale_scripts(folder: Path) -> list[str]:
    """Names of the scripts in `folder` that are missing or differ from what hgin prints now."""
    stale = []
    for shell, name in SCRIPT_NAMES.items():
        path = folder / name
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current != completion_script(shell):
            stale.append(name)
    return stale


def write_scripts(folder: Path) -> list[Path]:
    """Write every completion script into `folder` (files of the source tree, not of a user's
    data); returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for shell, name in SCRIPT_NAMES.items():
        (folder / name).write_text(completion_script(shell), encoding="utf-8")
        written.append(folder / name)
    return written


def main(argv: list[str] | None = None) -> int:
    """`python completions/generate.py [--check] [FOLDER]` (FOLDER: ./completions)."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    rest = [a for a in args if a != "--check"]
    folder = Path(rest[0]) if rest else Path("completions")
    if check:
        stale = stale_scripts(folder)
        for name in stale:
            print(f"{folder / name} is stale: run python completions/generate.py")
        return 1 if stale else 0
    for path in write_scripts(folder):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
