"""A quick look into a stored match for shell completion: the two names its file states, read
without validating the match, so that completing a player name never loads the engine (a
completion must answer about as fast as Python can import Typer).

Completion only suggests: a file that cannot be used offers whatever names it plainly states,
or none, and the command the user then runs refuses the file with the reason.
"""

from __future__ import annotations

from hgin.errors import HginError
from hgin.store.guard import parse_json
from hgin.store.matches import Store


def match_players(store: Store, match: str | None = None) -> tuple[str, ...]:
    """The players of the match named (an identifier or its start), else of the current match;
    () when there is none or its file does not state two printable names."""
    try:
        match_id = store.find(match) if match is not None else store.current_id()
        if match_id is None:
            return ()
        data = parse_json(store.read_raw(match_id), match_id)
    except (HginError, OSError):
        return ()
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list) or len(players) != 2:
        return ()
    if not all(isinstance(name, str) and name.isprintable() and name.strip() for name in players):
        return ()
    return (players[0], players[1])
