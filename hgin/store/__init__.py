"""hgin.store."""
