"""Drawing the sheet and the summary with Rich (render_* beside it draw the other views)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hgin.cli.console import make_console as make_console  # still importable from here
from hgin.cli.layout import Fit, Pieces, record
from hgin.cli.text_layout import (
    GAP,
    SEPARATOR,
    Line,
    Piece,
    line_width,
    pieces_lines,
    row_lines,
    wrapped,
    write_lines,
)
from hgin.engine.match import Match
from hgin.engine.rules import Rules
from hgin.engine.sheet import Game, Sheet, game_name
from hgin.reports.bars import progress_bar
from hgin.reports.narrate import describe_decided, describe_result, notice_line
from hgin.reports.summary import (
    closed_record,
    game_score,
    hand_line,
    hands_won_line,
    has_upcards,
    result_sentence,
    rules_label,
    running_scores,
    running_text,
    shown_games,
    standing_parts,
    summary_settlement,
)
from hgin.reports.symbols import BAR_FULL, NOT_OPEN, WON_MARK

# A cell's content is built once, as lines of styled pieces: the sheet laid out by hand
# (`sheet_lines`) writes them as they are, the Rich tables turn them into Text (`as_text`).


def as_text(lines: Sequence[Line]) -> Text:
    """Lines of styled pieces as one Rich Text."""
    text = Text()
    for number, line in enumerate(lines):
        if number:
            text.append("\n")
        for piece, style in line:
            text.append(piece, style=style or None)
    return text


def _game_header(game: Game, rules: Rules) -> list[Line]:
    below = "closed" if game.closed else f"to {rules.target}"
    return [((f"Game {game_name(game.number)}", "bold"),), ((below, "dim"),)]


def _game_cell(game: Game, player: str, sheet: Sheet) -> list[Line]:
    if not game.entered[player] and game.scores[player] == 0:
        return [((NOT_OPEN, "dim"),)]
    points = game.scores[player]
    if not game.closed:
        return [((str(points), ""),), ((progress_bar(points, sheet.rules.target), ""),)]
    if game.winner == player:
        lines: list[Line] = [((f"{WON_MARK} {points}", "bold green"),)]
    else:
        lines = [((str(points), "dim"),)]
    bonus = game.bonuses[player]
    if sheet.rules.has_bonuses and bonus:
        lines.append(((f"+{bonus}", "dim"),))
    return lines


def _player_label(player: str, sheet: Sheet) -> Line:
    if sheet.finished and sheet.winner == player:
        return ((player, "bold"), (" (winner)", ""))
    if not sheet.finished and sheet.dealer == player:
        return ((player, "bold"), (" (deals)", "dim"))
    return ((player, "bold"),)


def sheet_table(sheet: Sheet) -> Table:
    """The score sheet: a row per player, a column per game, then wins (and totals)."""
    games = shown_games(sheet)
    table = Table(box=box.SIMPLE_HEAVY, pad_edge=False, show_edge=False)
    table.add_column("Player", no_wrap=False, max_width=18)
    for game in games:
        table.add_column(as_text(_game_header(game, sheet.rules)), justify="right", no_wrap=True)
    table.add_column(Text("Wins", style="bold"), justify="right")
    if sheet.rules.shows_totals:
        table.add_column(Text("Total", style="bold"), justify="right")
    for player in sheet.players:
        row: list[Text] = [as_text([_player_label(player, sheet)])]
        row.extend(as_text(_game_cell(game, player, sheet)) for game in games)
        row.append(Text(str(sheet.wins[player])))
        if sheet.rules.shows_totals:
            row.append(Text(str(sheet.totals[player])))
        table.add_row(*row)
    if any(g.closed for g in games):
        table.add_section()
        cells = [Text("won by", style="dim")]
        for game in games:
            cells.append(Text(game.winner, style="bold") if game.winner else Text("open", "dim"))
        table.add_row(*cells)
    return table


def narrow_sheet_table(sheet: Sheet, *, label_lines: bool = False) -> Table:
    """The sheet turned on its side for a narrow terminal: a row per game, a column per player.

    `label_lines` puts '(deals)' under the name, for when a long name would not fit beside it.
    """
    table = Table(box=box.SIMPLE_HEAVY, pad_edge=False, show_edge=False)
    table.add_column("", no_wrap=True)
    for player in sheet.players:
        label = _stacked_label(player, sheet) if label_lines else [_player_label(player, sheet)]
        table.add_column(as_text(label), justify="right", min_width=6)
    for game in shown_games(sheet):
        cells = [as_text(_game_cell(game, player, sheet)) for player in sheet.players]
        table.add_row(as_text(_game_header(game, sheet.rules)), *cells)
    table.add_section()
    table.add_row(Text("Wins", style="bold"), *(Text(str(sheet.wins[p])) for p in sheet.players))
    if sheet.rules.shows_totals:
        totals = (Text(str(sheet.totals[p])) for p in sheet.players)
        table.add_row(Text("Total", style="bold"), *totals)
    return table


def _stacked_label(player: str, sheet: Sheet) -> list[Line]:
    """The player's name, with '(winner)' or '(deals)' under it."""
    name, *tail = _player_label(player, sheet)
    return [(name,), *(((piece.strip(), "dim"),) for piece, _ in tail)]


def sheet_records(sheet: Sheet) -> Group:
    """The sheet stacked for the narrowest terminals: a record per game, a line per player."""
    parts: list[Text | Group] = []
    for game in shown_games(sheet):
        state = "closed" if game.closed else f"to {sheet.rules.target}"
        if game.winner:
            state += f" · won by {game.winner}"
        lines = []
        for player in sheet.players:
            line = Text("  ")
            line.append_text(as_text([_player_label(player, sheet)]))
            line.append(" ")
            line.append_text(as_text(_game_cell(game, player, sheet)))
            line.plain = line.plain.replace("\n", "  ")
            lines.append(line)
        parts.append(Group(Text(f"Game {game_name(game.number)} · {state}", style="bold"), *lines))
    wins = " · ".join(f"{p} {sheet.wins[p]}" for p in sheet.players)
    parts.append(Text(f"Wins: {wins}", style="bold"))
    if sheet.rules.shows_totals:
        totals = " · ".join(f"{p} {sheet.totals[p]}" for p in sheet.players)
        parts.append(Text(f"Total: {totals}", style="bold"))
    return Group(*parts)


# A line under the sheet: pieces joined by the separator and broken only between pieces, or
# (separator None) one sentence, wrapped like any text.
Note = tuple[list[Piece], Piece | None]
PLAIN_DOT: Piece = (" · ", "")


def sheet_notes(sheet: Sheet) -> list[Note]:
    """The lines under the sheet: the closed games of a rolling match, what the marks mean,
    who deals, the result."""
    notes: list[Note] = []
    games = shown_games(sheet)
    if sheet.rules.rolling:
        shown = {g.number for g in games}
        record = [
            item
            for item, game in zip(closed_record(sheet), sheet.closed_games, strict=True)
            if game.number not in shown
        ]
        if record:
            record[0] = f"closed: {record[0]}"
            notes.append(([(item, "") for item in record], (", ", "")))
        notes.append(([(part, "") for part in standing_parts(sheet)], PLAIN_DOT))
    shown_dash = any(not g.entered[p] and g.scores[p] == 0 for g in games for p in sheet.players)
    legend = []
    if shown_dash:
        legend.append(f"{NOT_OPEN} not entered yet")
    if any(g.closed for g in games):
        legend.append(f"{WON_MARK} game won (closed, no more scores)")
    if any(not g.closed and (g.entered[p] or g.scores[p]) for g in games for p in g.scores):
        legend.append(f"{BAR_FULL} share of the {sheet.rules.target} reached")
    if legend:
        notes.append(([(item, "dim") for item in legend], SEPARATOR))
    result = describe_result(sheet)
    if result:
        notes.append(([(result, "bold")], None))
    else:
        decided = describe_decided(sheet)
        if decided:
            notes.append(([(decided, "bold")], None))
        notes.append(([(f"Next deal: {sheet.dealer}.", "")], None))
    return notes


def _title(match: Match) -> list[Piece]:
    first, second = match.players
    return [
        (f"{first} v {second}", "bold"),
        (rules_label(match.rules), "dim"),
        (f"match {match.id}", "dim"),
        (notice_line(match.sheet), "bold"),
    ]


def _rich_note(note: Note) -> Text | Pieces:
    pieces, separator = note
    if separator is None:
        return as_text([tuple(pieces)])
    return Pieces((as_text([(piece,)]) for piece in pieces), as_text([(separator,)]))


def sheet_view(match: Match) -> Group:
    """Title, table and notes for one match."""
    sheet = match.sheet
    title = _rich_note((_title(match), SEPARATOR))
    table = Fit(
        sheet_table(sheet),
        narrow_sheet_table(sheet),
        narrow_sheet_table(sheet, label_lines=True),
        sheet_records(sheet),
    )
    return Group(title, table, *map(_rich_note, sheet_notes(sheet)))


PLAYER_WIDTH = 18  # the sheet's name column; a longer label wraps (and Rich lays it out)


def _wide_table(sheet: Sheet) -> tuple[int, list[Line]] | None:
    """The lines of `sheet_table` laid out by hand and its width; None when a player's label
    is too long for its column (Rich then wraps it)."""
    games = shown_games(sheet)
    totals = sheet.rules.shows_totals
    header: list[list[Line]] = [[(("Player", "bold"),)]]
    header.extend(_game_header(game, sheet.rules) for game in games)
    header.append([(("Wins", "bold"),)])
    if totals:
        header.append([(("Total", "bold"),)])
    rows: list[list[list[Line]]] = []
    for player in sheet.players:
        row = [[_player_label(player, sheet)]]
        row.extend(_game_cell(game, player, sheet) for game in games)
        row.append([((str(sheet.wins[player]), ""),)])
        if totals:
            row.append([((str(sheet.totals[player]), ""),)])
        rows.append(row)
    won_by: list[list[Line]] | None = None
    if any(g.closed for g in games):
        won_by = [[(("won by", "dim"),)]]
        won_by.extend(
            [((game.winner, "bold"),)] if game.winner else [(("open", "dim"),)] for game in games
        )
        won_by.extend([[]] * (len(header) - len(won_by)))
    every = [header, *rows, *([won_by] if won_by else [])]
    widths = [
        max(line_width(line) for row in every for line in row[number])
        if any(row[number] for row in every)
        else 0
        for number in range(len(header))
    ]
    if widths[0] > PLAYER_WIDTH:
        return None
    total = sum(widths) + len(GAP) * (len(widths) - 1)
    lines = [*row_lines(header, widths, bottom=True), (("━" * total, ""),)]
    for row in rows:
        lines.extend(row_lines(row, widths, bottom=False))
    if won_by:
        lines.append(())  # a section: the heavy simple box draws it as a blank line
        lines.extend(row_lines(won_by, widths, bottom=False))
    return total, lines


def sheet_lines(match: Match, width: int, wrap: int | None) -> list[Line] | None:
    """`sheet_view` laid out by hand, when its wide table fits `width` and no name needs
    wrapping (the common case, and Rich's tables are slow to start); None otherwise.
    Sentences are wrapped at `wrap` (None: never)."""
    table = _wide_table(match.sheet)
    if table is None or table[0] > width:
        return None
    lines = pieces_lines(_title(match), width, wrap)
    lines.extend(table[1])
    for pieces, separator in sheet_notes(match.sheet):
        if separator is None:
            lines.extend(wrapped(pieces[0][0], wrap, pieces[0][1]))
        else:
            lines.extend(pieces_lines(pieces, width, wrap, separator))
    return lines


def print_sheet(match: Match, lines: Iterable[str] = ()) -> None:
    """Print the sheet, then the sentences that say what just happened."""
    console = make_console()
    wrap = None if console.soft_wrap else console.width
    laid_out = sheet_lines(match, console.width, wrap)
    if laid_out is None:
        console.print(sheet_view(match))
        laid_out = []
    for line in lines:
        laid_out.extend(wrapped(line, wrap))
    write_lines(console, laid_out)


def hands_records(sheet: Sheet) -> Group:
    """The hands table stacked, a record per hand, for a narrow terminal."""
    parts = []
    first, second = sheet.players
    for played, after in zip(sheet.hands, running_scores(sheet), strict=True):
        line = hand_line(played)
        upcard = [f"upcard {line.upcard}"] if line.upcard else []
        scores = f"after it ({first}–{second}): {running_text(after)}"
        fields = [f"{line.dealer} dealt", *upcard, line.points, line.where, scores]
        parts.append(record(f"Hand {line.number}: {line.what}", fields))
    return Group(*parts)


def games_records(sheet: Sheet) -> Group:
    """The games table stacked, a record per game, for a narrow terminal."""
    parts = [
        record(
            f"Game {game_name(game.number)}: {f'won by {game.winner}' if game.winner else 'open'}",
            [f"{player} {game_score(game, player)}" for player in sheet.players],
        )
        for game in sheet.games
    ]
    if sheet.rules.shows_totals:
        parts.append(record("Total", [f"{p} {sheet.totals[p]}" for p in sheet.players]))
    return Group(*parts)


def hands_table(sheet: Sheet) -> Table:
    """Every hand: who dealt, what happened, the arithmetic, where it went, and the points
    in each game still in play after it (a column per game, empty once the game closed)."""
    upcards = has_upcards(sheet)
    running = running_scores(sheet)
    games = sorted({number for after in running for number in after})
    first, second = sheet.players
    table = Table(
        box=box.SIMPLE,
        pad_edge=False,
        show_edge=False,
        caption=f"{', '.join(game_name(n) for n in games)}: points in the game after the hand, "
        f"{first}–{second}"
        if games
        else None,
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("Dealer")
    if upcards:
        table.add_column("Upcard")
    table.add_column("Result")
    table.add_column("Points", justify="right")
    table.add_column("Entered in")
    for number in games:
        table.add_column(game_name(number), justify="right", no_wrap=True)
    for played, after in zip(sheet.hands, running, strict=True):
        line = hand_line(played)
        cells = [line.dealer, *([line.upcard] if upcards else []), line.what, line.points]
        cells += [line.where, *(after.get(number, "") for number in games)]
        table.add_row(Text(str(line.number)), *(Text(cell) for cell in cells))
    return table


def games_table(sheet: Sheet) -> Table:
    """Per game: winner, points, bonuses and game totals for both players."""
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
    table.add_column("Game")
    table.add_column("Winner")
    for player in sheet.players:
        table.add_column(Text(player), justify="right")
    for game in sheet.games:
        cells = [Text(game_name(game.number)), Text(game.winner or "open")]
        cells.extend(Text(game_score(game, player)) for player in sheet.players)
        table.add_row(*cells)
    if sheet.rules.shows_totals:
        cells = [Text("Total", style="bold"), Text("")]
        cells.extend(Text(str(sheet.totals[p]), style="bold") for p in sheet.players)
        table.add_row(*cells)
    return table


def summary_view(match: Match, *, records: bool = True) -> Group:
    """The printable match summary. Where the games or hands table does not fit, a record
    per game or hand instead; `records=False` keeps the tables, their cells wrapped (for
    a page of fixed width: the text file and the SVG)."""
    sheet = match.sheet
    first, second = match.players
    result = result_sentence(match)
    header = Text()
    header.append(f"Hollywood Gin: {first} v {second}\n", style="bold")
    header.append(f"Match {match.id}, started {match.created}\n")
    header.append(f"Rules: {rules_label(match.rules)}\n")
    header.append(f"First dealer: {match.first_dealer}\n")
    header.append(result, style="bold")
    settling: list[Text] = []
    settlement = summary_settlement(match)
    if settlement is not None:
        settling = [Text("Settling up", style="bold underline")]
        from hgin.reports.settlement import settlement_lines

        settling += [Text(line) for line in settlement_lines(settlement)]
        settling.append(Text(""))
    return Group(
        header,
        Text(""),
        Text("Games", style="bold underline"),
        Fit(games_table(sheet), games_records(sheet)) if records else games_table(sheet),
        Text(hands_won_line(sheet)),
        Text(""),
        *settling,
        Text("Hands", style="bold underline"),
        _hands_view(sheet, records),
    )


def _hands_view(sheet: Sheet, records: bool) -> RenderableType:
    if not sheet.hands:
        return Text("No hands yet.")
    return Fit(hands_table(sheet), hands_records(sheet)) if records else hands_table(sheet)


def print_summary(match: Match) -> None:
    make_console().print(summary_view(match))


def print_lines(lines: Iterable[str]) -> None:
    console = make_console()
    for line in lines:
        console.print(Text(line))
