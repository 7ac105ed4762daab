"""`python -m hgin`.
May import: cli."""

from hgin.cli import main

main()
