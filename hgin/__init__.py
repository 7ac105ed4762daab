"""hgin: a score keeper for Hollywood Gin played with real cards.
May import: stdlib.

The version is the installed package's (`importlib.metadata.version("hgin")`), kept in one
place: pyproject.toml.
"""
