"""Every file hgin keeps: matches (schema, backups), caches, presets, config, series, transfer.
May import: stdlib, platformdirs, store, engine, cards, errors."""
