"""What one match contributes to the match list and to the statistics (kept in the cache)."""

from __future__ import annotations

from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from hgin.engine.hands import Award
    from hgin.engine.match import Match


class PlayerFigures(NamedTuple):
    """One player's figures in one match (`settled`: the points won or paid when settled)."""

    games_won: int
    hands_won: int
    gins: int
    knocks: int
    undercuts: int
    biggest_hand: int
    points: int
    longest_streak: int
    settled: int


class MatchSummary(NamedTuple):
    """One match as the match list shows it and as the statistics count it (`started`: the
    creation as a POSIX timestamp, 0 when it is not a time)."""

    id: str
    players: tuple[str, str]
    created: str
    started: float
    profile: str
    hands: int
    finished: bool
    winner: str | None
    stake: str | None
    figures: tuple[PlayerFigures, PlayerFigures]

    def list_dict(self) -> dict[str, Any]:
        """The match as the match list gives it in JSON."""
        return {
            "id": self.id,
            "players": list(self.players),
            "profile": self.profile,
            "created": self.created,
            "hands": self.hands,
            "finished": self.finished,
            "winner": self.winner,
        }


# The one order of matches in time: by the instant each began, then by the text, then the id.
TIME_ORDER = attrgetter("started", "created", "id")


def summarize(match: Match) -> MatchSummary:
    """Replay a match once and keep what the list and the statistics need."""
    from hgin.engine.settle import settle

    sheet, rules = match.sheet, match.rules
    settlement = settle(sheet)
    # One walk over the hands: each player's awards won and runs of wins (a dead hand, won
    # by nobody, breaks no run).
    won: dict[str, list[Award]] = {player: [] for player in match.players}
    run = dict.fromkeys(match.players, 0)
    longest = dict.fromkeys(match.players, 0)
    for played in sheet.hands:
        award = played.award
        if award.winner is None or award.loser is None:
            continue
        won[award.winner].append(award)
        run[award.winner] += 1
        run[award.loser] = 0
        longest[award.winner] = max(longest[award.winner], run[award.winner])
    figures = []
    for player in match.players:
        results = [award.result for award in won[player]]
        points = [award.points for award in won[player]]
        figures.append(
            PlayerFigures(
                games_won=sheet.games_won[player],
                hands_won=len(results),
                gins=results.count("gin") + results.count("big_gin"),
                knocks=results.count("knock"),
                undercuts=results.count("undercut"),
                biggest_hand=max(points, default=0),
                points=sum(points),
                longest_streak=longest[player],
                settled=settlement.net(player),
            )
        )
    try:
        started = datetime.fromisoformat(match.created).timestamp()  # no offset: local time
    except ValueError:
        started = 0.0
    return MatchSummary(
        id=match.id,
        players=match.players,
        created=match.created,
        started=started,
        profile=rules.label,
        hands=len(match.hands),
        finished=sheet.finished,
        winner=sheet.winner,
        stake=rules.stake,
        figures=(figures[0], figures[1]),
    )
