"""The scoring engine: rules, hands, the sheet, matches, series, narration, card entry. Pure.
May import: stdlib, engine, cards, errors."""
