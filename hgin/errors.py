"""The one exception type for refusals a user can cause."""


class HginError(Exception):
    """A refused action: the message is one line meant for the person at the table."""
