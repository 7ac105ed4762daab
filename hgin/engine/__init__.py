"""hgin.engine."""
