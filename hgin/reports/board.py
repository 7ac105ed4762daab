"""What the live board shows of a match, as JSON-ready data: every word and number of the page
(`hgin/board/static/` adds only fixed labels), so it says what `show` and `summary` say."""

from __future__ import annotations

from typing import Any

from hgin.cards.model import RANK_NAMES
from hgin.engine.match import Match
from hgin.engine.rules import MAX_DEADWOOD, knock_limit
from hgin.engine.sheet import Game, game_name
from hgin.reports.narrate import describe_hand, describe_result
from hgin.reports.settlement import payment_line
from hgin.reports.summary import closed_record, rules_label, shown_games, summary_settlement
from hgin.reports.symbols import NOT_OPEN

NO_MATCH = "No match yet: start one with 'hgin new NAME1 NAME2'."


def board_view(match: Match, *, series_in_play: bool = False) -> dict[str, Any]:
    """The sheet as the board shows it: games, banner, last hand, totals, money, result
    (`series_in_play`: the match is in a series not yet over, whose next match comes next)."""
    sheet = match.sheet
    players = sheet.players
    settlement = summary_settlement(match)
    last = sheet.last
    return {
        "id": match.id,
        "version": list(match.version),
        "players": list(players),
        "rules": rules_label(sheet.rules),
        "games": [
            {
                "name": game_name(game.number),
                "winner": game.winner,
                "note": f"won by {game.winner}" if game.winner else "",
                "cells": [_cell(game, player) for player in players],
            }
            for game in shown_games(sheet)
        ],
        "closed": closed_record(sheet) if sheet.rules.rolling else [],
        "banner": describe_result(sheet) or f"{sheet.dealer} deals next",
        "finished": sheet.finished,
        "last": describe_hand(last) if last is not None else "No hand yet.",
        "hands": len(sheet.hands),
        "totals": [sheet.totals[player] for player in players],
        "wins": [sheet.wins[player] for player in players],
        # Every hand, newest first, as the hands list shows it (for Edit and Delete).
        "hand_list": [
            {"number": played.number, "text": f"{played.number}. {describe_hand(played)}"}
            for played in reversed(sheet.hands)
        ],
        "offers": _offers(match, series_in_play=series_in_play),
        "questions": QUESTIONS,
        "money": payment_line(settlement) if settlement is not None else "",
    }


QUESTIONS = {
    "gin": "Who went gin?",
    "big_gin": "Who went big gin?",
    "knock": "Who knocked?",
    "rank": "The upcard?",
    "suit": "Its suit?",
    "correct": "what was it? Gin, Big gin, Knock or Dead hand",
    "deadwood": "{player}'s deadwood?",
    "upcard": "upcard {card}",
    # Said by the page itself: its entry found no board, or its live stream is down.
    "unreachable": "hgin: the board cannot be reached; look at the sheet before trying again",
    "reconnecting": "reconnecting…",
}
# What the page says of a count out of range as it is typed ({player}, {limit}, {count}).
COUNT_REFUSALS = {
    "knock": "{player} cannot knock with {count}: the limit is {limit}",
    "no_knock": "no knock on this upcard: gin only",
    "deadwood": "a deadwood is at most {limit}, not {count}",
}


def _offers(match: Match, *, series_in_play: bool) -> dict[str, Any]:
    """What the scorer page offers: big gin where the rules pay it, knocks unless Straight
    Gin, Next in series instead of Rematch in a series not yet over, and what Undo and Redo
    would take back or bring back, in words ('' for nothing)."""
    rules, state, over = match.rules, match.state, match.sheet.finished
    undo = state.applied[-1] if state.applied else None
    redo = state.undone[-1] if state.undone else None
    return {
        "gin": not over,
        "big_gin": rules.big_gin_bonus > 0 and not over,
        "knock": not rules.straight and not over,
        "draw": not over,
        "notice": rules.rolling and state.notice_after is None and not over,
        "rematch": over and not series_in_play,
        "series_next": over and series_in_play,
        "new": over,
        "upcard": rules.oklahoma,
        # The knock limits the engine applies: without an upcard, and for each upcard rank.
        "knock_limit": {
            "": knock_limit(rules, None),
            **{name: knock_limit(rules, rank) for rank, name in RANK_NAMES.items()},
        },
        "max_deadwood": MAX_DEADWOOD,
        "refusals": COUNT_REFUSALS,
        "undo": f"Undo change {undo}: {match.journal[undo - 1].text}?" if undo else "",
        "redo": f"Redo change {redo}: {match.journal[redo - 1].text}?" if redo else "",
    }


def waiting_view(*, unreadable: str | None = None, pointer_damaged: bool = False) -> dict[str, Any]:
    """What the board shows while it has no match to show, and why, in words that name no
    file (every viewer sees them): no match yet, the current match cannot be told, or the
    match `unreadable` cannot be read."""
    if unreadable is not None:
        why = f"'hgin show -m {unreadable}' on the laptop says why"
        reason = f"Match {unreadable} cannot be read: {why}."
    elif pointer_damaged:
        reason = "The current match cannot be told: 'hgin use MATCH' on the laptop picks one."
    else:
        reason = NO_MATCH
    return {"waiting": reason}


def _cell(game: Game, player: str) -> dict[str, Any]:
    """A player's square of one game: the points in large type ('–' for a game not entered)
    and, once the game is closed with bonuses, '+ 275 = 383' beneath them."""
    points, bonus = game.scores[player], game.bonuses[player]
    entered = not game.not_entered(player)
    return {
        "points": str(points) if entered else NOT_OPEN,
        # No number parted from its sign: a narrow column breaks only before the '='.
        "bonus": f"+\u00a0{bonus} =\u00a0{points + bonus}" if bonus else "",
        "entered": game.entered[player],
    }
