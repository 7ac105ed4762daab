"""The sheet of games as a pure function of the ordered hands (the rules as README.md states
them: entry, closing, rolling games and notice, who wins the match).
"""

from collections.abc import Iterable
from typing import NamedTuple

from hgin.engine.hands import Award, Hand, hand_award, other_player
from hgin.engine.rules import Rules
from hgin.errors import HginError

ROMAN = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip


def game_name(number: int) -> str:
    """Roman numeral of a 1-based game number, as on a paper sheet."""
    parts = []
    for value, numeral in ROMAN:
        count, number = divmod(number, value)
        parts.append(numeral * count)
    return "".join(parts)


# The dicts of a sheet's games are never changed once it holds them (`extend` posts into copies).


class Closing(NamedTuple):
    """What happened when a game closed: its winner and the bonuses it paid."""

    game: int
    winner: str
    game_bonus: int
    boxes: dict[str, int]
    shutout: bool
    shutout_bonus: int


class Game(NamedTuple):
    """One column of the sheet, for both players."""

    number: int
    scores: dict[str, int]
    bonuses: dict[str, int]
    hands_won: dict[str, int]
    entered: dict[str, bool]
    winner: str | None
    closed_by: int | None

    @property
    def closed(self) -> bool:
        return self.winner is not None

    def not_entered(self, player: str) -> bool:
        """Whether `player` has nothing in this game yet (the sheet's '–')."""
        return not self.entered[player] and not self.scores[player] and not self.bonuses[player]


class PlayedHand(NamedTuple):
    """A recorded hand with everything derived from it."""

    number: int
    hand: Hand
    award: Award
    dealer: str
    win_number: int | None
    games: tuple[int, ...]
    closings: tuple[Closing, ...]
    opened: tuple[int, ...] = ()  # the games this hand's closings opened (rolling)


class Sheet(NamedTuple):
    """The whole score sheet after the given hands."""

    players: tuple[str, str]
    rules: Rules
    first_dealer: str
    games: tuple[Game, ...]
    wins: dict[str, int]
    hands: tuple[PlayedHand, ...]
    dealer: str
    finished: bool
    winner: str | None
    totals: dict[str, int]
    games_won: dict[str, int]
    notice_after: int | None = None

    @property
    def last(self) -> PlayedHand | None:
        return self.hands[-1] if self.hands else None

    @property
    def notice(self) -> bool:
        """Whether notice was given (a rolling match then opens no new game)."""
        return self.notice_after is not None

    @property
    def in_progress(self) -> tuple[Game, ...]:
        """The games not closed yet, in number order."""
        return tuple(g for g in self.games if not g.closed)

    @property
    def closed_games(self) -> tuple[Game, ...]:
        """The games closed so far, in number order."""
        return tuple(g for g in self.games if g.closed)


def _new_game(number: int, players: tuple[str, str]) -> Game:
    zero = dict.fromkeys(players, 0)
    return Game(number, zero, dict(zero), dict(zero), dict.fromkeys(players, False), None, None)


def _copy(game: Game) -> Game:
    """A game in progress with dicts of its own, to post into."""
    return game._replace(
        scores=dict(game.scores),
        bonuses=dict(game.bonuses),
        hands_won=dict(game.hands_won),
        entered=dict(game.entered),
    )


def _close(game: Game, winner: str, loser: str, rules: Rules) -> Closing:
    """Pay the bonuses of a game that closes (into its own dicts); `extend` marks it closed."""
    shutout = game.scores[loser] == 0 and rules.shutout != "none"
    game_bonus = rules.game_bonus * (2 if shutout and rules.shutout == "bonus" else 1)
    boxes = {p: rules.box_bonus * n for p, n in game.hands_won.items()}
    for player, box in boxes.items():
        game.bonuses[player] += box
    game.bonuses[winner] += game_bonus
    shutout_bonus = 0
    if shutout and rules.shutout == "double":
        shutout_bonus = game.scores[winner] + game.bonuses[winner]
        game.bonuses[winner] += shutout_bonus
    return Closing(game.number, winner, game_bonus, boxes, shutout, shutout_bonus)


def _entered(games: list[Game], winner: str, wins: int, rules: Rules) -> list[Game]:
    """The games in progress this win enters (the first ones), marking newly entered ones."""
    count = 0
    if rules.entry == "count":
        for game in games:
            if game.number > wins:
                break
            game.entered[winner] = True
            count += 1
    else:
        for game in games:
            count += 1
            if not game.entered[winner]:
                game.entered[winner] = True
                break
    return games[:count]


def next_dealer(rules: Rules, players: tuple[str, str], dealer: str, award: Award) -> str:
    """Who deals after a hand with this award."""
    if award.winner is None:
        return dealer if rules.redeal == "same" else other_player(players, dealer)
    if rules.dealer_rule == "winner":
        return award.winner
    if rules.dealer_rule == "loser":
        return other_player(players, award.winner)
    return other_player(players, dealer)


def empty_sheet(
    players: tuple[str, str], rules: Rules, first_dealer: str, *, notice_after: int | None = None
) -> Sheet:
    """The sheet before the first hand."""
    if first_dealer not in players:
        raise HginError(f"the first dealer '{first_dealer}' is not a player")
    if notice_after is not None and (not rules.rolling or notice_after < 0):
        raise HginError("notice is given only in a rolling match")
    games = tuple(_new_game(n, players) for n in range(1, rules.games + 1))
    zero = dict.fromkeys(players, 0)
    return Sheet(
        players,
        rules,
        first_dealer,
        games,
        zero,
        (),
        first_dealer,
        False,
        None,
        zero,
        zero,
        notice_after,
    )


def replay(
    players: tuple[str, str],
    rules: Rules,
    first_dealer: str,
    hands: Iterable[Hand],
    *,
    notice_after: int | None = None,
) -> Sheet:
    """The sheet after scoring every hand in order; refuses a hand after the match ended."""
    return extend(empty_sheet(players, rules, first_dealer, notice_after=notice_after), hands)


def extend(sheet: Sheet, hands: Iterable[Hand]) -> Sheet:
    """The sheet after `hands` more hands, continuing from `sheet` (which is not changed)."""
    players, rules, notice_after = sheet.players, sheet.rules, sheet.notice_after
    games = {g.number: g if g.closed else _copy(g) for g in sheet.games}
    in_progress = [g for g in games.values() if not g.closed]
    wins, played, dealer, target = dict(sheet.wins), list(sheet.hands), sheet.dealer, rules.target
    for number, hand in enumerate(hands, start=len(played) + 1):
        if not in_progress:
            raise HginError(f"hand {number} comes after the match ended at hand {number - 1}")
        try:
            award = hand_award(rules, players, hand)
        except HginError as refusal:
            raise HginError(f"hand {number}: {refusal}") from None
        win_number, posted, closings, opened = None, [], [], []
        winner, loser = award.winner, award.loser
        if winner is not None and loser is not None:
            wins[winner] += 1
            win_number = wins[winner]
            for game in _entered(in_progress, winner, win_number, rules):
                game.scores[winner] += award.points
                game.hands_won[winner] += 1
                posted.append(game.number)
                if game.scores[winner] >= target:
                    closings.append(_close(game, winner, loser, rules))
                    games[game.number] = game._replace(winner=winner, closed_by=number)
        if closings:
            in_progress = [games[g.number] for g in in_progress if not games[g.number].closed]
            if rules.rolling and (notice_after is None or number <= notice_after):
                # Each close opens the next numbered game, empty: it takes wins from the next
                # hand on.
                for _ in closings:
                    game = _new_game(len(games) + 1, players)
                    games[game.number] = game
                    in_progress.append(game)
                    opened.append(game.number)
        # Made without the named tuple's Python-level constructor (once per hand of a replay).
        facts = (number, hand, award, dealer, win_number, (*posted,), (*closings,), (*opened,))
        played.append(tuple.__new__(PlayedHand, facts))
        dealer = next_dealer(rules, players, dealer, award)
    done = tuple(games.values())
    totals = {p: sum(g.scores[p] + g.bonuses[p] for g in done) for p in players}
    games_won = {p: sum(1 for g in done if g.winner == p) for p in players}
    finished = not in_progress
    winner = _match_winner(players, rules, games_won, totals) if finished else None
    return Sheet(
        players,
        rules,
        sheet.first_dealer,
        done,
        wins,
        tuple(played),
        dealer,
        finished,
        winner,
        totals,
        games_won,
        notice_after,
    )


def _match_winner(
    players: tuple[str, str], rules: Rules, games_won: dict[str, int], totals: dict[str, int]
) -> str | None:
    """Who won the match under `decide` (level in games: the larger total); None: drawn."""
    first, second = players
    if rules.decide == "majority" and games_won[first] != games_won[second]:
        return first if games_won[first] > games_won[second] else second
    if totals[first] != totals[second]:
        return first if totals[first] > totals[second] else second
    return None


def check_rolling_change(before: Sheet, rules: Rules) -> None:
    """Refuse turning `rolling` on or off (to `rules`) once that would change something
    already decided."""
    switched = "on" if rules.rolling else "off"
    if before.finished:
        raise HginError(f"the match is over: rolling cannot be turned {switched} now")
    if before.notice:
        raise HginError("notice was given in this match: rolling stays on")
    beyond = [g for g in before.closed_games if g.number > rules.games]
    if beyond:
        raise HginError(
            f"game {game_name(beyond[0].number)} is closed: turning rolling {switched} would "
            "change it"
        )
    if not rules.rolling and all(g.closed for g in before.games[: rules.games]):
        raise HginError("turning rolling off would end the match: its first games are all closed")
