"""The one exception type for refusals a user can cause.
May import: stdlib."""


class HginError(Exception):
    """A refused action: the message is one line meant for the person at the table."""
