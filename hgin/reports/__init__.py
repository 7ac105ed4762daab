"""hgin.reports."""
