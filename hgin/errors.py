"""The one exception type for refusals a user can cause.
May import: stdlib."""


class HginError(Exception):
    """A refused action: the message is one line meant for the person at the table."""


class HginNotice(UserWarning):
    """Something a reading command noticed and set right without refusing (a stored sheet
    that disagrees with its hands): sent through `warnings`, printed by the command line as
    one line on stderr."""


class HginChoice(HginNotice):
    """Which match a command chose for a name ('the latest with Ann'): printed only once the
    command has succeeded, since a refusal is one line and the choice then changed nothing."""
