"""hgin.play."""
