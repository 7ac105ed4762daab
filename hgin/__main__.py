"""`python -m hgin`."""

from hgin.cli import main

main()
