"""Reports built as text: summary data, Markdown and CSV, HTML pages, SVG charts, statistics.
May import: stdlib, reports, engine, cards, errors."""
