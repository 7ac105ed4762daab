"""What a match summary says, as plain data and text: the terminal view (`hgin.cli.render`)
and every file format read it from here, so they always say the same thing."""

from typing import NamedTuple

from hgin.engine.match import Match
from hgin.engine.rules import Rules
from hgin.engine.settle import (
    GameSettlement,
    Settlement,
    settle,
    settle_closed,
    settle_game,
    stake_of,
)
from hgin.engine.sheet import Game, PlayedHand, Sheet, game_name
from hgin.reports.narrate import describe_result, formula, games_phrase, notice_line
from hgin.reports.plural import counted
from hgin.reports.symbols import NOT_OPEN

KIND_PHRASES = {
    "gin": "gin by",
    "big_gin": "big gin by",
    "knock": "knock won by",
    "undercut": "undercut by",
}


def rules_label(rules: Rules) -> str:
    """'friendly rules · 3 games to 100' and the like."""
    games = "one game" if rules.games == 1 else f"{rules.games} games"
    if rules.rolling:
        games = "rolling games"
    name = f"{rules.profile} rules" + (", changed" if rules.changed else "")
    parts = [name, f"{games} to {rules.target}"]
    if rules.straight:
        parts.append("Straight Gin")
    if rules.oklahoma:
        parts.append("Oklahoma")
    return " · ".join(parts)


def result_sentence(match: Match) -> str:
    """'Match over: Ann wins 2 games to 1.' or where a match in play stands."""
    sheet = match.sheet
    hands = counted(len(sheet.hands), "hand")
    return describe_result(sheet) or f"In progress after {hands}; {sheet.dealer} deals next."


def roman_list(numbers: tuple[int, ...] | list[int]) -> str:
    """'I II III': game numbers as on the paper sheet."""
    return " ".join(game_name(n) for n in numbers)


class HandLine(NamedTuple):
    """One row of the hands table, as text."""

    number: int
    dealer: str
    what: str
    points: str
    where: str
    upcard: str = ""


def hand_line(played: PlayedHand) -> HandLine:
    """Who won a hand, the arithmetic, which games it went into (or closed), the upcard."""
    award = played.award
    upcard = played.hand.upcard or ""
    if award.winner is None:
        return HandLine(played.number, played.dealer, "dead hand", NOT_OPEN, NOT_OPEN, upcard)
    where = games_phrase(played.games) if played.games else "nowhere (games closed)"
    for closing in played.closings:
        where += f"; {game_name(closing.game)} closes"
    if played.opened:
        names = " and ".join(game_name(n) for n in played.opened)
        where += f"; {names} {'opens' if len(played.opened) == 1 else 'open'}"
    what = f"{KIND_PHRASES[award.result]} {award.winner}"
    return HandLine(played.number, played.dealer, what, formula(award), where, upcard)


def has_upcards(sheet: Sheet) -> bool:
    """Whether the hands table needs an upcard column (an Oklahoma match)."""
    return sheet.rules.oklahoma or any(p.hand.upcard for p in sheet.hands)


def hands_table(sheet: Sheet) -> tuple[list[str], list[list[str]]]:
    """The hands table of the summary files as text: its header and a row a hand."""
    upcards = has_upcards(sheet)
    header = ["#", "Dealer", *(["Upcard"] if upcards else []), "Result", "Points", "Entered in"]
    rows = []
    for played, after in zip(sheet.hands, running_scores(sheet), strict=True):
        line = hand_line(played)
        cells = [str(line.number), line.dealer, *([line.upcard] if upcards else []), line.what]
        rows.append([*cells, line.points, line.where, " · ".join(running_parts(after))])
    first, second = sheet.players
    return [*header, f"Scores after ({first}/{second})"], rows


def points_after_each_hand(sheet: Sheet) -> list[dict[int, dict[str, int]]]:
    """After each hand, each game's points (no bonuses) of each player in it, for all views
    (read only: the games a hand leaves alone are shared with the hand before)."""
    points: dict[int, dict[str, int]] = {}
    after = []
    for played in sheet.hands:
        winner = played.award.winner
        if winner is not None and played.games:
            points = dict(points)
            for number in played.games:
                column = dict(points.get(number, {}))
                column[winner] = column.get(winner, 0) + played.award.points
                points[number] = column
        after.append(points)
    return after


def running_scores(sheet: Sheet) -> list[dict[int, str]]:
    """After each hand, the points in every game entered and not yet closed: {1: '73/5'},
    '–' for a player not in that game yet, as on the sheet ({2: '27/–'})."""
    first, second = sheet.players
    closed: set[int] = set()
    texts: list[dict[int, str]] = []
    for played, points in zip(sheet.hands, points_after_each_hand(sheet), strict=True):
        shown = [n for n in sorted(points) if n not in closed]
        pairs = {
            n: (points[n].get(first, NOT_OPEN), points[n].get(second, NOT_OPEN)) for n in shown
        }
        texts.append({n: f"{one}/{other}" for n, (one, other) in pairs.items()})
        closed.update(closing.game for closing in played.closings)
    return texts


def running_parts(scores: dict[int, str]) -> list[str]:
    """One hand's running scores, a part per game: ['I 73/5', 'II 43/–'] (['–'] before any)."""
    return [f"{game_name(n)} {text}" for n, text in scores.items()] or [NOT_OPEN]


def game_score(game: Game, player: str) -> str:
    """A player's result in one game: '108', '108 + 275 = 383', or '–' when not entered."""
    points, bonus = game.scores[player], game.bonuses[player]
    if game.not_entered(player):
        return NOT_OPEN
    if bonus:
        return f"{points} + {bonus} = {points + bonus}"
    return str(points)


def hands_won_line(sheet: Sheet) -> str:
    """'Hands won: Ann 3, Bob 1'; in a rolling match also the standing and any notice."""
    line = "Hands won: " + ", ".join(f"{p} {sheet.wins[p]}" for p in sheet.players)
    if not sheet.rules.rolling:
        return line
    return " · ".join([line, *standing_parts(sheet), *filter(None, [notice_line(sheet)])])


class Standing(NamedTuple):
    """The sheet's figures after one hand: points game by game, totals, the settlement."""

    scores: tuple[int, ...]
    totals: dict[str, int]
    settlement: Settlement


def standings_after_each_hand(sheet: Sheet) -> list[Standing]:
    """The sheet's figures after each hand (the final sheet holds closed games), its points
    game by game those of `points_after_each_hand`."""
    players = sheet.players
    stake = stake_of(sheet.rules)
    final = {game.number: game for game in sheet.games}
    numbers = list(range(1, sheet.rules.games + 1))
    totals = dict.fromkeys(players, 0)
    closed: dict[int, GameSettlement] = {}
    settlement = settle_closed(players, (), tuple(numbers), stake)
    standings = []
    for played, points in zip(sheet.hands, points_after_each_hand(sheet), strict=True):
        award = played.award
        if award.winner is not None:
            totals[award.winner] += award.points * len(played.games)
        for closing in played.closings:
            game = final[closing.game]
            for player in players:
                totals[player] += game.bonuses[player]
            closed[game.number] = settle_game(game, players)
        numbers.extend(played.opened)
        if played.closings:
            settled = tuple(closed[n] for n in sorted(closed))
            still_open = tuple(n for n in numbers if n not in closed)
            settlement = settle_closed(players, settled, still_open, stake)
        scores = tuple(points.get(n, {}).get(p, 0) for n in numbers for p in players)
        standings.append(Standing(scores, dict(totals), settlement))
    return standings


def closed_record(sheet: Sheet) -> list[str]:
    """Each closed game as 'I Ann 108–22': its winner, then the winner's and loser's points."""
    record = []
    for game in sheet.closed_games:
        assert game.winner is not None
        loser = sheet.players[1] if game.winner == sheet.players[0] else sheet.players[0]
        won, lost = game.scores[game.winner], game.scores[loser]
        record.append(f"{game_name(game.number)} {game.winner} {won}–{lost}")
    return record


def standing_parts(sheet: Sheet) -> list[str]:
    """['Games won: Ann 2, Bob 1', 'sheet total: Ann 320, Bob 150']."""
    first, second = sheet.players
    return [
        f"Games won: {first} {sheet.games_won[first]}, {second} {sheet.games_won[second]}",
        f"sheet total: {first} {sheet.totals[first]}, {second} {sheet.totals[second]}",
    ]


def shown_games(sheet: Sheet) -> tuple[Game, ...]:
    """The games shown as columns: all, or in a rolling match those in progress (or last 3)."""
    if not sheet.rules.rolling:
        return sheet.games
    return sheet.in_progress or sheet.games[-3:]


def summary_settlement(match: Match) -> Settlement | None:
    """Who pays whom, when the match has a stake (summaries settle only in money)."""

    stake = stake_of(match.rules)
    return settle(match.sheet, stake) if stake is not None else None
