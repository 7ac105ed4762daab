"""Times as people read them (kept apart so the match list does not load the engine)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

# English names, whatever the locale (hgin's sentences are English), and no strftime: the
# match list shows thousands of times.
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# The fewest columns a time takes as `shown_time` words it.
SHORTEST_TIME = len("Mon 1 Jan, 00:00")


def shown_time(at: str | datetime) -> str:
    """A stored ISO time (or a moment) in local time: 'Tue 1 Dec, 20:15', the year added
    ('Tue 1 Dec 2025, 20:15') when it is not this year; text that is no time as it is."""
    return shown_times([at])[0]


def shown_times(times: Iterable[str | datetime]) -> list[str]:
    """Each time as `shown_time` words it (this year read once, for the whole list)."""
    this_year = datetime.now().year
    shown = []
    for at in times:
        try:
            moment = (datetime.fromisoformat(at) if isinstance(at, str) else at).astimezone()
        except ValueError:
            shown.append(str(at))
            continue
        year = "" if moment.year == this_year else f" {moment.year}"
        day, month = DAYS[moment.weekday()], MONTHS[moment.month - 1]
        shown.append(f"{day} {moment.day} {month}{year}, {moment.hour:02}:{moment.minute:02}")
    return shown
