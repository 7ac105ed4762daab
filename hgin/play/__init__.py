"""The `play` session: a whole match at the table, one typed line per hand, and its parser.
May import: stdlib, play, scorekeeper (the facade), engine, cards, reports, errors."""
