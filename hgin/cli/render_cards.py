"""Drawing counted cards with Rich: melds, deadwood, the discard and the layoffs card by card."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from hgin.card_entry import CountedHand, HandCount, KnockView, knock_verdict, layoff_steps
from hgin.cards import Card, format_cards
from hgin.cli.render import make_console
from hgin.melds import Arrangement, DefenderResult, Meld

Rows = list[tuple[str, str]]


def deadwood_text(cards: Sequence[Card], points: int) -> str:
    """'7♦ 5♣ = 12', or '0: gin' when nothing is left over."""
    if not cards:
        return "0: gin"
    return f"{format_cards(cards)} = {points}"


def meld_rows(melds: Sequence[Meld]) -> Rows:
    if not melds:
        return [("Melds", "none")]
    return [("Melds" if i == 0 else "", format_cards(meld)) for i, meld in enumerate(melds)]


def arrangement_rows(arrangement: Arrangement) -> Rows:
    return [
        *meld_rows(arrangement.melds),
        ("Deadwood", deadwood_text(arrangement.deadwood_cards, arrangement.deadwood)),
    ]


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


def block(title: Text, rows: Rows) -> Group:
    """A bold heading over a two-column grid that wraps its values at narrow widths."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for label, value in rows:
        grid.add_row(Text(label, style="dim"), Text(value))
    return Group(title, grid)


def hand_count_view(count: HandCount) -> Group:
    """`hgin count`: the hand, then (with the opponent's cards) their count and the verdict."""
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
    parts: list[Group | Text] = [block(Text(f"Your {len(count.cards)} cards", style="bold"), rows)]
    if count.knock is not None:
        parts.extend(_knock_parts(count.knock))
    return Group(*parts)


def _knock_parts(knock: KnockView) -> list[Group | Text]:
    rows = defender_rows(knock.knocker.melds, knock.defender, knock.gin)
    return [
        Text(""),
        block(Text("The opponent's 10 cards", style="bold"), rows),
        Text(""),
        Text(knock_verdict(knock), style="bold"),
    ]


def print_hand_count(count: HandCount) -> None:
    make_console().print(hand_count_view(count))


def counted_view(counted: CountedHand, player: str, opponent: str) -> Group:
    """What a gin or knock recorded from the cards was counted from (names printed literally)."""
    action = {"gin": "goes gin", "big_gin": "goes big gin", "knock": "knocks"}[counted.kind]
    parts: list[Group | Text] = []
    if counted.mine is not None:
        title = Text(player, style="bold")
        title.append(f" {action}")
        parts.extend((block(title, arrangement_rows(counted.mine)), Text("")))
    if counted.theirs is not None:
        melds = counted.mine.melds if counted.mine is not None else ()
        title = Text(opponent, style="bold")
        title.append(" counts")
        rows = defender_rows(melds, counted.theirs, counted.kind != "knock")
        parts.extend((block(title, rows), Text("")))
    return Group(*parts)


def print_counted(counted: CountedHand, player: str, opponent: str) -> None:
    make_console().print(counted_view(counted, player, opponent))
