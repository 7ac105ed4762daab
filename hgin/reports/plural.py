"""A count with its noun, as every sentence words it. Pure, and light to import."""


def counted(count: int, noun: str, plural: str = "") -> str:
    """'1 hand', '3 hands'; `plural` for a noun that does not just take an s ('matches')."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
