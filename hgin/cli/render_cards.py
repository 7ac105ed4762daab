"""Drawing counted cards with Rich: melds, deadwood, the discard and the layoffs card by card."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from hgin.cli.layout import print_views
from hgin.engine.card_entry import CountedHand, HandCount
from hgin.engine.hands import other_player
from hgin.engine.match import Match
from hgin.reports.card_text import Block, counted_blocks, hand_count_blocks


def block_view(block: Block) -> Group:
    """A bold heading over a two-column grid that wraps its values at narrow widths."""
    if block.name:
        heading = Text.assemble((block.name, "bold"), f" {block.title}")
    else:
        heading = Text(block.title, style="bold")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for label, value in block.rows:
        grid.add_row(Text(label, style="dim"), Text(value))
    return Group(heading, grid)


def blocks_view(blocks: Sequence[Block], verdict: str | None = None) -> Group:
    """The blocks with a blank line after each, then the verdict."""
    parts: list[Group | Text] = []
    for block in blocks:
        parts.extend((block_view(block), Text("")))
    if verdict:
        parts.append(Text(verdict, style="bold"))
    elif parts:
        parts.pop()
    return Group(*parts)


def print_hand_count(count: HandCount) -> None:
    """`hgin count` for people."""
    print_views(blocks_view(*hand_count_blocks(count)))


def print_counted(counted: CountedHand, match: Match) -> None:
    """What the last hand of `match`, recorded from the cards, was counted from."""
    player = match.hands[-1].player or ""
    print_views(
        blocks_view(counted_blocks(counted, player, other_player(match.players, player))), ""
    )
