"""Counted cards as words: titled blocks of (label, value) rows, which the CLI lays out with
Rich (`hgin.cli.render_cards`), or plain lines (`hgin play`, scripts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hgin.cards.melds import Arrangement, DefenderResult, KnockCount, Meld
from hgin.cards.model import Card, format_cards
from hgin.engine.card_entry import CountedHand, HandCount, knock_outcome
from hgin.engine.rules import KNOCK_LIMIT

Rows = list[tuple[str, str]]
LABEL_WIDTH = 8


@dataclass(frozen=True, slots=True)
class Block:
    """A heading (`name` is a player's name or empty, printed literally before `title`)."""

    name: str
    title: str
    rows: Rows


def meld_rows(melds: Sequence[Meld]) -> Rows:
    if not melds:
        return [("Melds", "none")]
    return [("Melds" if i == 0 else "", format_cards(meld)) for i, meld in enumerate(melds)]


def arrangement_rows(arrangement: Arrangement) -> Rows:
    dead = arrangement.deadwood_cards
    text = f"{format_cards(dead)} = {arrangement.deadwood}" if dead else "0: gin"
    return [*meld_rows(arrangement.melds), ("Deadwood", text)]


def defender_rows(knocker_melds: Sequence[Meld], defender: DefenderResult, gin: bool) -> Rows:
    """The defender's own melds, each layoff with the meld it goes onto, and what is left."""
    rows = meld_rows(defender.melds)
    steps = layoff_steps(knocker_melds, defender)
    if gin:
        rows.append(("Lays off", "nothing: no layoffs against gin"))
    elif not steps:
        rows.append(("Lays off", "nothing"))
    for i, (card, meld) in enumerate(steps):
        rows.append(("Lays off" if i == 0 else "", f"{card} onto {format_cards(meld)}"))
    dead = defender.deadwood_cards
    rows.append(("Deadwood", f"{format_cards(dead)} = {defender.deadwood}" if dead else "0"))
    return rows


def knock_verdict(knock: KnockCount) -> str:
    """One sentence on what the two counts make, before any house rule."""
    mine, theirs = knock.knocker.deadwood, knock.defender.deadwood
    match knock_outcome(knock):
        case "gin":
            return f"Gin: no layoffs against gin; the opponent counts {theirs}."
        case "over_limit":
            return (
                f"No knock: deadwood {mine} is over the usual limit of {KNOCK_LIMIT}; "
                f"the opponent would count {theirs} after layoffs."
            )
        case "knock":
            return (
                f"Knock: {mine} against {theirs} after layoffs; the knocker wins {theirs - mine}."
            )
        case _:
            return (
                f"Undercut: {mine} against {theirs} after layoffs; the opponent wins "
                f"{mine - theirs} plus the undercut bonus."
            )


def hand_count_blocks(count: HandCount) -> tuple[list[Block], str | None]:
    """`hgin count`: the hand, then (given the opponent's cards) theirs; and the verdict."""
    rows: Rows = []
    if count.discard is not None:
        rows.append(("Discard", f"{count.discard} (the best of the eleven)"))
    rows.extend(arrangement_rows(count.arrangement))
    if count.discard is not None:
        if count.eleven is not None:
            rows.append(("Big gin", "yes: all eleven meld"))
            rows.extend(meld_rows(count.eleven.melds))
        else:
            rows.append(("Big gin", "no"))
    blocks = [Block("", f"Your {len(count.cards)} cards", rows)]
    knock = count.knock
    if knock is None:
        return blocks, None
    rows = defender_rows(knock.knocker.melds, knock.defender, knock.gin)
    blocks.append(Block("", "The opponent's 10 cards", rows))
    return blocks, knock_verdict(knock)


def counted_blocks(counted: CountedHand, player: str, opponent: str) -> list[Block]:
    """What a gin or knock recorded from the cards was counted from."""
    action = {"gin": "goes gin", "big_gin": "goes big gin", "knock": "knocks"}[counted.kind]
    blocks: list[Block] = []
    if counted.mine is not None:
        blocks.append(Block(player, action, arrangement_rows(counted.mine)))
    if counted.theirs is not None:
        melds = counted.mine.melds if counted.mine is not None else ()
        gin = counted.kind != "knock"
        blocks.append(Block(opponent, "counts", defender_rows(melds, counted.theirs, gin)))
    return blocks


def plain_lines(blocks: Sequence[Block], verdict: str | None = None) -> list[str]:
    """The blocks as plain lines, a blank line after each, then the verdict."""
    lines: list[str] = []
    for block in blocks:
        lines.append(f"{block.name} {block.title}" if block.name else block.title)
        lines.extend(f"{label:<{LABEL_WIDTH}}  {value}" for label, value in block.rows)
        lines.append("")
    if verdict:
        lines.append(verdict)
    elif lines:
        lines.pop()
    return lines


def count_json(count: HandCount) -> dict[str, Any]:
    """`hgin count --json`: the ten kept; for eleven cards the discard; the opponent's count."""
    data: dict[str, Any] = {
        "deadwood": count.arrangement.deadwood,
        "melds": [list(map(str, meld)) for meld in count.arrangement.melds],
        "deadwood_cards": list(map(str, count.arrangement.deadwood_cards)),
    }
    if count.discard is not None:
        data["discard"] = str(count.discard)
        data["big_gin"] = count.big_gin
    if count.knock is not None:
        knock = count.knock
        defender = knock.defender
        data["gin"] = knock.gin
        data["opponent"] = {
            "deadwood": defender.deadwood,
            "melds": [list(map(str, meld)) for meld in defender.melds],
            "layoffs": [
                {"card": str(card), "onto": list(map(str, meld))}
                for card, meld in layoff_steps(knock.knocker.melds, defender)
            ],
            "deadwood_cards": list(map(str, defender.deadwood_cards)),
        }
    return data


def layoff_steps(melds: Sequence[Meld], defender: DefenderResult) -> list[tuple[Card, Meld]]:
    """Each layoff in playing order with the meld as it lies when the card is added to it."""
    table = [tuple(meld) for meld in melds]
    steps: list[tuple[Card, Meld]] = []
    for layoff in defender.layoffs:
        steps.append((layoff.card, table[layoff.onto]))
        table[layoff.onto] = tuple(sorted((*table[layoff.onto], layoff.card)))
    return steps
