"""Reports as pure text (no I/O, no Rich): summaries, Markdown and CSV, HTML, SVG, statistics.
May import: stdlib, reports, engine, cards, errors."""
