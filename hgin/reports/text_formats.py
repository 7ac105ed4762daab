"""Match summaries as plain-text files: Markdown for a chat message, CSV for a spreadsheet, JSON."""

from __future__ import annotations

import csv
import io

from hgin.engine.match import Match
from hgin.engine.money import money_text
from hgin.engine.settle import stake_of
from hgin.engine.sheet import game_name
from hgin.reports.json_output import json_text
from hgin.reports.narrate import formula
from hgin.reports.settlement import settlement_dict, settlement_lines
from hgin.reports.sheet_json import show_dict
from hgin.reports.summary import (
    game_score,
    hands_table,
    hands_won_line,
    has_upcards,
    result_sentence,
    roman_list,
    rules_label,
    standings_after_each_hand,
    summary_settlement,
)
from hgin.reports.times import shown_time

# Characters GitHub Markdown could read as markup (links, emphasis, tables, mentions, math).
MARKDOWN_SPECIAL = frozenset("\\`*_[]<>#|~&$@")
# A spreadsheet takes a cell starting with one of these for a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def summary_json(match: Match) -> str:
    """`show --json`'s object plus the match's start, result and settlement, as JSON text."""
    settlement = summary_settlement(match)
    data = {
        "id": match.id,
        **show_dict(match.sheet),
        "created": match.created,
        "first_dealer": match.first_dealer,
        "rules_label": rules_label(match.rules),
        "result": result_sentence(match),
        "settlement": settlement_dict(settlement) if settlement is not None else None,
    }
    return json_text(data)


def md(text: str) -> str:
    """User text made literal in GitHub Markdown (also inside a table cell)."""
    return "".join("\\" + char if char in MARKDOWN_SPECIAL else char for char in text)


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def summary_markdown(match: Match) -> str:
    """A summary to paste into a chat message or an issue: two GitHub tables."""
    sheet = match.sheet
    first, second = (md(p) for p in match.players)
    lines = [
        f"## Hollywood Gin: {first} v {second}",
        "",
        f"**{md(result_sentence(match))}**",
        "",
        f"{md(rules_label(match.rules))} · first dealer {md(match.first_dealer)} · "
        f"match `{match.id}`, started {md(shown_time(match.created))}",
        "",
        _md_row(["Game", "Winner", *(md(p) for p in sheet.players)]),
        _md_row([":--", ":--", *("--:" for _ in sheet.players)]),
    ]
    for game in sheet.games:
        winner = md(game.winner) if game.winner else "open"
        scores = [game_score(game, p) for p in sheet.players]
        lines.append(_md_row([game_name(game.number), winner, *scores]))
    if sheet.rules.shows_totals:
        totals = [f"**{sheet.totals[p]}**" for p in sheet.players]
        lines.append(_md_row(["**Total**", "", *totals]))
    lines += ["", md(hands_won_line(sheet)), ""]
    settlement = summary_settlement(match)
    if settlement is not None:
        lines += ["### Settling up", ""]
        lines += [*(f"- {md(line)}" for line in settlement_lines(settlement)), ""]
    lines += ["### Hands", ""]
    if not sheet.hands:
        return "\n".join([*lines, "No hands yet.", ""])
    header, rows = hands_table(sheet)
    lines.append(_md_row([md(h) for h in header]))
    upcard = [":-:"] if has_upcards(sheet) else []
    lines.append(_md_row(["--:", ":--", *upcard, ":--", "--:", ":--", ":--"]))
    lines.extend(_md_row([md(cell) for cell in row]) for row in rows)
    return "\n".join([*lines, ""])


def spreadsheet_text(text: str) -> str:
    """User text a spreadsheet will not run as a formula (an apostrophe in front if needed)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_header(match: Match) -> list[str]:
    """The CSV columns: the hand, then running scores per game per player (and totals)."""
    header = [
        "Hand",
        "Dealer",
        "Result",
        "Winner",
        "Knocker",
        "Knocker deadwood",
        "Opponent deadwood",
        *(["Upcard"] if has_upcards(match.sheet) else []),
        "Points",
        "Formula",
        "Games entered",
        "Games closed",
    ]
    for game in match.sheet.games:  # a rolling match opens games as it goes: all of them
        header.extend(f"Game {game_name(game.number)} {p}" for p in match.players)
    if match.rules.shows_totals:
        header.extend(f"Total {p}" for p in match.players)
    if match.rules.stake is not None:
        header.extend(f"Settled {p}" for p in match.players)
    return [spreadsheet_text(cell) for cell in header]


def csv_rows(match: Match) -> list[list[str | int]]:
    """One row per hand, with the scores (and, with a stake, the money) after that hand."""
    rows: list[list[str | int]] = []
    final = match.sheet
    stake = stake_of(match.rules)
    upcards = has_upcards(final)
    for played, after in zip(final.hands, standings_after_each_hand(final), strict=True):
        hand, award = played.hand, played.award
        knocker_deadwood = "" if hand.kind == "draw" else hand.deadwood or 0
        row: list[str | int] = [
            played.number,
            spreadsheet_text(played.dealer),
            award.result,
            spreadsheet_text(award.winner or ""),
            spreadsheet_text(hand.player or ""),
            knocker_deadwood,
            "" if hand.opponent_deadwood is None else hand.opponent_deadwood,
            *([hand.upcard or ""] if upcards else []),
            award.points,
            formula(award),
            roman_list(played.games),
            roman_list([c.game for c in played.closings]),
        ]
        row.extend(after.scores)
        row.extend([""] * (2 * len(final.games) - len(after.scores)))  # games not open yet
        if match.rules.shows_totals:
            row.extend(after.totals[p] for p in match.players)
        if stake is not None:
            for p in match.players:
                net = after.settlement.net_amount(p)
                row.append(money_text(net) if net is not None else "")
        rows.append(row)
    return rows


def summary_csv(match: Match) -> str:
    """Every hand as a CSV row, with a header row; LF line ends, UTF-8 text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows([csv_header(match), *csv_rows(match)])
    return buffer.getvalue()
