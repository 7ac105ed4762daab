"""Plain sentences that say what a hand did to the sheet; pure text, no output."""

from __future__ import annotations

from collections.abc import Sequence

from hgin.engine.hands import Award
from hgin.engine.match import Match
from hgin.engine.sheet import Closing, Game, PlayedHand, Sheet, game_name
from hgin.reports.plural import counted
from hgin.reports.symbols import NOT_OPEN

RESULT_TITLES: dict[str, str] = {
    "gin": "Gin",
    "big_gin": "Big gin",
    "knock": "Knock",
    "undercut": "Undercut",
    "draw": "Dead hand",
}


def formula(award: Award) -> str:
    """A hand's arithmetic spelled out: '25 + 18 = 43', '9 − 7 + 25 = 27', '(20 − 5) × 2 = 30'."""
    if not award.terms:
        return "no score"
    first, second, *bonus = award.terms
    sign = "+" if award.result in ("gin", "big_gin") else "−"
    text = f"{first} {sign} {second}" + (f" + {bonus[0]}" if bonus else "")
    if award.doubled:
        text = f"({text}) × 2"
    return f"{text} = {award.points}"


def games_phrase(numbers: Sequence[int]) -> str:
    """'game I', 'games I and II', 'games I, II and III'."""
    names = [game_name(n) for n in numbers]
    if len(names) == 1:
        return f"game {names[0]}"
    return "games " + ", ".join(names[:-1]) + " and " + names[-1]


def notice_line(sheet: Sheet) -> str:
    """'notice given: games IV–VI are the last' once notice is given in a rolling match."""
    if sheet.notice_after is None:
        return ""
    last = [
        g.number for g in sheet.games if g.closed_by is None or g.closed_by > sheet.notice_after
    ]
    if not last:
        return "notice given"
    verb = "is" if len(last) == 1 else "are"
    if len(last) > 2 and last == list(range(last[0], last[-1] + 1)):  # 'games IV–VI'
        return f"notice given: games {game_name(last[0])}–{game_name(last[-1])} {verb} the last"
    return f"notice given: {games_phrase(last)} {verb} the last"


def describe_notice(sheet: Sheet) -> str:
    """'Notice given: games IV–VI are the last; the match ends when they close.'"""
    ends = "it closes" if len(sheet.in_progress) == 1 else "they close"
    line = notice_line(sheet)
    return f"{line[:1].upper()}{line[1:]}; the match ends when {ends}."


def _closing_phrase(closing: Closing, loser: str) -> str:
    text = f"game {game_name(closing.game)} closes, {closing.winner} wins it"
    extras = []
    if closing.game_bonus:
        extras.append(f"game bonus {closing.game_bonus}")
    if closing.shutout and not closing.shutout_bonus:
        extras.append(f"{loser} shut out")
    boxes = [f"{p} {b}" for p, b in closing.boxes.items() if b]
    if boxes:
        extras.append("boxes " + ", ".join(boxes))
    if closing.shutout_bonus:
        extras.extend(_doubling_phrases(closing, loser))
    if extras:
        text += f" ({'; '.join(extras)})"
    return text


def _doubling_phrases(closing: Closing, loser: str) -> list[str]:
    """A doubled shutout spelled out so that it adds up to the bonus the sheet shows."""
    winner = closing.winner
    box = closing.boxes.get(winner, 0)
    # The doubling adds the winner's whole game total again, so the total before it is the
    # points plus the game bonus and boxes; the points are what is left of it.
    points = closing.shutout_bonus - closing.game_bonus - box
    terms = [str(points), str(closing.game_bonus)] + ([str(box)] if box else [])
    added = [str(closing.game_bonus)] + ([str(box)] if box else []) + [str(closing.shutout_bonus)]
    bonus = closing.game_bonus + box + closing.shutout_bonus
    return [
        f"{loser} shut out, so {winner}'s {' + '.join(terms)} = {closing.shutout_bonus} "
        f"doubles to {2 * closing.shutout_bonus}",
        f"bonuses {' + '.join(added)} = +{bonus}",
    ]


def describe_hand(played: PlayedHand) -> str:
    """One sentence: 'Undercut: Bob scores 9 − 7 + 25 = 27 in games I and II; ...'."""
    award = played.award
    title = RESULT_TITLES[award.result]
    if award.winner is None:
        return f"{title}: no score, no win counted."
    where = (
        f"in {games_phrase(played.games)}"
        if played.games
        else f"but every game that win {played.win_number} enters is closed, so it is entered "
        "nowhere"
    )
    parts = [f"{title}: {award.winner} scores {formula(award)} {where}"]
    parts.extend(_closing_phrase(c, award.loser or "") for c in played.closings)
    if played.opened:
        names = games_phrase(played.opened)
        parts.append(f"{names} {'opens' if len(played.opened) == 1 else 'open'}")
    return "; ".join(parts) + "."


def _on_the_total(sheet: Sheet) -> str:
    """'Ann wins on the sheet total, 230 to 190' (the sheet has a winner)."""
    winner = sheet.winner or sheet.players[0]
    loser = next(p for p in sheet.players if p != winner)
    return f"{winner} wins on the sheet total, {sheet.totals[winner]} to {sheet.totals[loser]}"


def describe_result(sheet: Sheet) -> str:
    """'Match over: Ann wins 2 games to 1.' or an empty string while it goes on."""
    if not sheet.finished:
        return ""
    first, second = sheet.players
    if sheet.rules.decide == "net":
        if sheet.winner is None:
            return f"Match over: level on {sheet.totals[first]} each."
        return f"Match over: {_on_the_total(sheet)}."
    won = sheet.games_won
    if won[first] == won[second]:
        each = f"{counted(won[first], 'game')} each"
        if sheet.winner is None:
            return f"Match over: drawn, {each} and level on {sheet.totals[first]} each."
        return f"Match over: {each}; {_on_the_total(sheet)}."
    winner = sheet.winner or first
    loser = second if winner == first else first
    if len(sheet.games) == 1:
        return f"Match over: {winner} wins the game."
    return f"Match over: {winner} wins {counted(won[winner], 'game')} to {won[loser]}."


def describe_decided(sheet: Sheet) -> str:
    """'Decided: Ann has won 3 of the 5 games; …' while games are still open, else ''."""
    if sheet.finished or sheet.rules.decide != "majority" or sheet.rules.games == 1:
        return ""
    if sheet.rules.rolling:
        # New games open until notice; after it, the games in progress are all that is left.
        if sheet.notice_after is None:
            return ""
        first, second = sheet.players
        left = len(sheet.in_progress)
        for ahead, behind in ((first, second), (second, first)):
            if sheet.games_won[ahead] > sheet.games_won[behind] + left:
                return (
                    f"Decided: {ahead} has won {sheet.games_won[ahead]} games, more than "
                    f"{behind} can still reach; the open games are still played."
                )
        return ""
    leader = next(
        (p for p in sheet.players if sheet.games_won[p] >= sheet.rules.games_to_win), None
    )
    if leader is None:
        return ""
    return (
        f"Decided: {leader} has won {sheet.games_won[leader]} of the {sheet.rules.games} "
        "games; the open games are still played."
    )


def describe_changes(before: Sheet, after: Sheet) -> list[str]:
    """What re-scoring changed on the sheet, game by game, then the totals and the result."""
    lines: list[str] = []
    players = before.players
    for old, new in zip(before.games, after.games, strict=False):
        parts = []
        for p in players:
            was, now = _cell(old, p), _cell(new, p)
            if was != now:
                parts.append(f"{p} {was} → {now}")
        if old.winner != new.winner:
            parts.append(f"won by {new.winner}" if new.winner else "open again")
        if parts:
            lines.append(f"Game {game_name(new.number)}: " + ", ".join(parts) + ".")
    if len(after.games) != len(before.games):
        lines.append(f"The sheet now has {len(after.games)} games.")
    if before.winner != after.winner or before.finished != after.finished:
        lines.append(describe_result(after) or "The match is open again.")
    if not lines:
        lines.append("No score on the sheet changed.")
    return lines


def _cell(game: Game, player: str) -> str:
    """A player's total in a game as the sheet shows it: a dash for a game not entered."""
    if game.not_entered(player):
        return NOT_OPEN
    return str(game.scores[player] + game.bonuses[player])


def describe_new(match: Match, *, chosen: bool, after: str | None = None) -> str:
    """'New match 2026-11-30-ann-bob. Bob deals first (chosen).'; `after`: the match before."""
    how = "chosen" if chosen else f"next to deal after match {after}" if after else "drawn by lot"
    return f"New match {match.id}. {match.first_dealer} deals first ({how})."


def describe_left(match: Match) -> str:
    """What a new match says of the unfinished match that was current before it."""
    first, second = match.players
    played = counted(len(match.hands), "hand")
    return (
        f"Match {match.id} ({first} v {second}, {played}) is not finished and is no longer "
        f"current; 'hgin use {match.id}' goes back to it."
    )


def outside_series(series_id: str, match_id: str) -> str:
    """What a rematch says when the series of the match before it is over."""
    return (
        f"Series {series_id} is over: match {match_id} is outside it ('hgin series next' goes "
        "on only in a series still in play; 'hgin series new' starts another)."
    )


def describe_holding(sheet: Sheet) -> str:
    """What a version of a match holds: '8 hands, last: gin by Ann 43; game I closed'."""
    count = len(sheet.hands)
    if count == 0:
        return "no hands"
    parts = [counted(count, "hand")]
    award = sheet.hands[-1].award
    if award.winner is None:
        parts[0] += ", last: a dead hand"
    else:
        title = RESULT_TITLES[award.result].lower()
        parts[0] += f", last: {title} by {award.winner} {award.points}"
    if sheet.finished:
        parts.append(f"won by {sheet.winner}" if sheet.winner else "ended level")
    else:
        closed = [g.number for g in sheet.games if g.closed]
        if closed:
            parts.append(f"{games_phrase(closed)} closed")
    return "; ".join(parts)
