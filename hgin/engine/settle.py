"""Settling up: who pays whom, game by game, in points and at a stake in money. Each closed
game settles on its own, at the difference of the two totals in it; open games settle nothing.
"""

from decimal import Decimal
from typing import NamedTuple

from hgin.engine.money import amount, parse_stake
from hgin.engine.rules import Rules
from hgin.engine.sheet import Game, Sheet


class GameSettlement(NamedTuple):
    """One closed game: its winner, both totals in it, and the winner's total minus the
    loser's (negative when boxes give the loser the larger total)."""

    number: int
    winner: str
    loser: str
    totals: dict[str, int]
    difference: int


class Settlement(NamedTuple):
    """What a match settles at so far."""

    players: tuple[str, str]
    games: tuple[GameSettlement, ...]
    open_games: tuple[int, ...]
    points: int
    payer: str | None
    payee: str | None
    stake: Decimal | None
    amount: Decimal | None

    @property
    def complete(self) -> bool:
        """Whether every game is closed, so this is the match's final settlement."""
        return not self.open_games

    def net(self, player: str) -> int:
        """Points `player` wins (positive) or pays (negative)."""
        if self.payer is None:
            return 0
        return self.points if player == self.payee else -self.points

    def net_amount(self, player: str) -> Decimal | None:
        """Money `player` wins (positive) or pays (negative); None without a stake."""
        if self.amount is None:
            return None
        if self.payer is None:
            return Decimal("0.00")
        return self.amount if player == self.payee else -self.amount


def stake_of(rules: Rules) -> Decimal | None:
    """The stake kept with a match's rules, if it has one."""
    return parse_stake(rules.stake) if rules.stake is not None else None


def settle_game(game: Game, players: tuple[str, str]) -> GameSettlement:
    """The settlement of one closed game."""
    winner = game.winner
    assert winner is not None  # closed games only
    first, second = players
    loser = second if winner == first else first
    scores, bonuses = game.scores, game.bonuses  # points and bonuses
    totals = {first: scores[first] + bonuses[first], second: scores[second] + bonuses[second]}
    return GameSettlement(game.number, winner, loser, totals, totals[winner] - totals[loser])


def settle(sheet: Sheet, stake: Decimal | None = None) -> Settlement:
    """Settle the closed games of `sheet`; with a stake, also in money."""
    players = sheet.players
    games = tuple([settle_game(g, players) for g in sheet.games if g.closed])
    open_games = tuple([g.number for g in sheet.games if not g.closed])
    return settle_closed(players, games, open_games, stake)


def settle_closed(
    players: tuple[str, str],
    games: tuple[GameSettlement, ...],
    open_games: tuple[int, ...],
    stake: Decimal | None = None,
) -> Settlement:
    """What the closed `games` settle at while `open_games` are still played."""
    first, second = players
    balance = sum(g.totals[first] - g.totals[second] for g in games)
    payer = payee = None
    if balance > 0:
        payer, payee = second, first
    elif balance < 0:
        payer, payee = first, second
    points = abs(balance)
    money = amount(points, stake) if stake is not None else None
    return Settlement(players, games, open_games, points, payer, payee, stake, money)
