"""hgin: a score keeper for Hollywood Gin played with real cards."""

__version__ = "0.1.0"
