"""Playing cards: the card model and its text, the meld solver (melds, deadwood, layoffs). Pure.
May import: stdlib, cards, errors."""
