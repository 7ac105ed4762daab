"""hgin.cards.model."""
