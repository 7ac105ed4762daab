"""Drawing a match with Rich, and printing what is drawn: the sheet, the summary, the journal,
the backups and the rules (the cards, the statistics and the match list are drawn beside it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hgin.cli.layout import Fit, Pieces, print_views, record, simple_table, table_or_records
from hgin.engine.rules import Rules, rule_options, shown_value
from hgin.engine.sheet import Game, Sheet, game_name
from hgin.reports.bars import progress_bar
from hgin.reports.narrate import describe_decided, describe_holding, describe_result, notice_line
from hgin.reports.rule_help import RULE_HELP
from hgin.reports.settlement import settlement_lines
from hgin.reports.summary import (
    closed_record,
    game_score,
    hand_line,
    hands_won_line,
    has_upcards,
    result_sentence,
    rules_label,
    running_parts,
    running_scores,
    shown_games,
    standing_parts,
    summary_settlement,
)
from hgin.reports.symbols import BAR_FULL, NOT_OPEN, WON_MARK
from hgin.reports.times import shown_time

if TYPE_CHECKING:
    from hgin.engine.card_entry import CountedHand
    from hgin.engine.editing import JournalRow
    from hgin.engine.match import Match
    from hgin.engine.series import Standing
    from hgin.scorekeeper import BackupEntry


def _game_header(game: Game, rules: Rules) -> Text:
    below = "closed" if game.closed else f"to {rules.target}"
    return Text.assemble((f"Game {game_name(game.number)}", "bold"), "\n", (below, "dim"))


def _game_cell(game: Game, player: str, sheet: Sheet) -> Text:
    if game.not_entered(player):
        return Text(NOT_OPEN, style="dim")
    points = game.scores[player]
    if not game.closed:
        return Text(f"{points}\n{progress_bar(points, sheet.rules.target)}")
    if game.winner == player:
        cell = Text.assemble((f"{WON_MARK} {points}", "bold green"))
    else:
        cell = Text.assemble((str(points), "dim"))
    bonus = game.bonuses[player]
    if sheet.rules.has_bonuses and bonus:
        cell.append(f"\n+{bonus}", style="dim")
    return cell


def _player_label(player: str, sheet: Sheet, *, stacked: bool = False) -> Text:
    """The player's name with '(winner)' or '(deals)' beside it, or under it (`stacked`)."""
    label = Text(player, style="bold")
    after = "\n" if stacked else " "
    if sheet.finished and sheet.winner == player:
        label.append(f"{after}(winner)", style="dim" if stacked else "")
    elif not sheet.finished and sheet.dealer == player:
        label.append(f"{after}(deals)", style="dim")
    return label


def sheet_table(sheet: Sheet) -> Table:
    """The score sheet: a row per player, a column per game, then wins (and totals)."""
    games = shown_games(sheet)
    table = Table(box=box.SIMPLE_HEAVY, pad_edge=False, show_edge=False)
    # Up to 18 columns wide, a name wrapped between its words; never narrower than a word.
    longest_word = max(cell_len(word) for player in sheet.players for word in player.split())
    table.add_column("Player", no_wrap=False, max_width=max(18, longest_word))
    for game in games:
        table.add_column(_game_header(game, sheet.rules), justify="right", no_wrap=True)
    table.add_column(Text("Wins", style="bold"), justify="right")
    if sheet.rules.shows_totals:
        table.add_column(Text("Total", style="bold"), justify="right")
    for player in sheet.players:
        row = [_player_label(player, sheet)]
        row.extend(_game_cell(game, player, sheet) for game in games)
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


def narrow_sheet_table(sheet: Sheet, *, stacked: bool = False) -> Table:
    """The sheet on its side: a row per game; `stacked` puts '(deals)' under the name."""
    table = Table(box=box.SIMPLE_HEAVY, pad_edge=False, show_edge=False)
    table.add_column("", no_wrap=True)
    for player in sheet.players:
        label = _player_label(player, sheet, stacked=stacked)
        table.add_column(label, justify="right", min_width=6)
    for game in shown_games(sheet):
        cells = [_game_cell(game, player, sheet) for player in sheet.players]
        table.add_row(_game_header(game, sheet.rules), *cells)
    table.add_section()
    table.add_row(Text("Wins", style="bold"), *(Text(str(sheet.wins[p])) for p in sheet.players))
    if sheet.rules.shows_totals:
        totals = (Text(str(sheet.totals[p])) for p in sheet.players)
        table.add_row(Text("Total", style="bold"), *totals)
    return table


def sheet_records(sheet: Sheet) -> Group:
    """The sheet for the narrowest terminals: a record per player."""
    records = []
    for player in sheet.players:
        games = [
            f"{game_name(game.number)} {_game_cell(game, player, sheet).plain}".replace("\n", "  ")
            for game in shown_games(sheet)
        ]
        sums = [f"wins {sheet.wins[player]}"]
        sums += [f"total {sheet.totals[player]}"] if sheet.rules.shows_totals else []
        records.append(record(_player_label(player, sheet).plain, games, sums))
    return Group(*records)


def _pieces(texts: Iterable[str], style: str = "", separator: str = " · ") -> Pieces:
    return Pieces((Text(t, style=style) for t in texts), Text(separator, style=style))


def sheet_notes(sheet: Sheet) -> list[RenderableType]:
    """Under the sheet: a rolling match's closed games, the marks, the result, who deals."""
    notes: list[RenderableType] = []
    games = shown_games(sheet)
    if sheet.rules.rolling:
        shown = {g.number for g in games}
        closed = [
            item
            for item, game in zip(closed_record(sheet), sheet.closed_games, strict=True)
            if game.number not in shown
        ]
        if closed:
            notes.append(_pieces([f"closed: {closed[0]}", *closed[1:]], separator=", "))
        notes.append(_pieces(standing_parts(sheet)))
    legend = []
    if any(g.not_entered(p) for g in games for p in sheet.players):
        legend.append(f"{NOT_OPEN} not entered yet")
    if any(g.closed for g in games):
        legend.append(f"{WON_MARK} game won (closed, no more scores)")
    if any(not g.closed and not g.not_entered(p) for g in games for p in g.scores):
        legend.append(f"{BAR_FULL} share of the {sheet.rules.target} reached")
    if legend:
        notes.append(_pieces(legend, "dim"))
    result = describe_result(sheet)
    decided = "" if result else describe_decided(sheet)
    notes.extend(Text(line, style="bold") for line in (result, decided) if line)
    if not result:
        # Without its full stop where the name and the stop would not fit on one line.
        sentence, after = f"Next deal: {sheet.dealer}", Text(f"{sheet.dealer}.")
        notes.append(Fit(Text(f"{sentence}."), Text(sentence), judged_by=[after]))
    return notes


def match_title(match: Match) -> Pieces:
    """'Ann v Bob · match ID', a line broken only between the two."""
    first, second = match.players
    return Pieces([Text(f"{first} v {second}"), Text(f"match {match.id}")])


def sheet_view(match: Match) -> Group:
    """Title, table and notes for one match."""
    sheet = match.sheet
    first, second = match.players
    title = Pieces(
        [
            Text(f"{first} v {second}", style="bold"),
            Text(rules_label(match.rules), style="dim"),
            Text(f"match {match.id}", style="dim"),
            Text(notice_line(sheet), style="bold"),
        ]
    )
    table = Fit(
        sheet_table(sheet),
        narrow_sheet_table(sheet),
        narrow_sheet_table(sheet, stacked=True),
        sheet_records(sheet),
    )
    return Group(title, table, *sheet_notes(sheet))


def print_sheet(
    match: Match, lines: Iterable[str] = (), counted: CountedHand | None = None
) -> None:
    """Print what the cards `counted` to (if given), the sheet, then what just happened."""
    if counted is not None:
        from hgin.cli.render_cards import print_counted  # the card tables: only for cards

        print_counted(counted, match)
    print_views(sheet_view(match), *lines)


def hands_table(sheet: Sheet) -> Fit:
    """Every hand: who dealt, what happened, the arithmetic, where it went, and the points
    in each game still in play after it."""
    upcards = has_upcards(sheet)
    running = running_scores(sheet)
    games = sorted({number for after in running for number in after})
    first, second = sheet.players
    headers = ["#", "Dealer", *(["Upcard"] if upcards else []), "Result", "Points", "Entered in"]
    table = simple_table(*headers, right=(0, len(headers) - 2))
    if games:
        names = ", ".join(game_name(n) for n in games)
        table.caption = f"{names}: points in the game after the hand, {first}/{second}"
        table.caption_justify = "left"
    for number in games:
        table.add_column(game_name(number), justify="right", no_wrap=True)
    records = []
    for played, after in zip(sheet.hands, running, strict=True):
        line = hand_line(played)
        cells = [line.dealer, *([line.upcard] if upcards else []), line.what, line.points]
        cells += [line.where, *(after.get(number, "") for number in games)]
        table.add_row(Text(str(line.number)), *map(Text, cells))
        upcard = [f"upcard {line.upcard}"] if line.upcard else []
        fields = [f"{line.dealer} dealt", *upcard, line.points, line.where]
        first_game, *more = running_parts(after)
        scores = [f"after it ({first} v {second}): {first_game}", *more]
        # A dead hand's points and games, "–", say nothing its title does not.
        title, fields = f"Hand {line.number}: {line.what}", [f for f in fields if f != NOT_OPEN]
        records.append(record(title, fields, scores))
    return Fit(table, Group(*records))


def games_table(sheet: Sheet) -> Fit:
    """Per game: winner, points, bonuses and game totals for both players."""
    table = simple_table("Game", "Winner", *map(Text, sheet.players), right=(2, 3))
    records: list[tuple[str, list[str]]] = []
    for game in sheet.games:
        scores = [game_score(game, player) for player in sheet.players]
        table.add_row(*map(Text, [game_name(game.number), game.winner or "open", *scores]))
        won = f"won by {game.winner}" if game.winner else "open"
        figures = [f"{p} {score}" for p, score in zip(sheet.players, scores, strict=True)]
        records.append((f"Game {game_name(game.number)}: {won}", figures))
    if sheet.rules.shows_totals:
        totals = (Text(str(sheet.totals[p]), style="bold") for p in sheet.players)
        table.add_row(Text("Total", style="bold"), Text(""), *totals)
        records.append(("Total", [f"{p} {sheet.totals[p]}" for p in sheet.players]))
    return table_or_records(table, records)


def summary_view(match: Match, *, records: bool = True) -> Group:
    """The printable match summary; `records=False` keeps the tables even where they do not fit."""
    sheet = match.sheet
    first, second = match.players
    header = Text.assemble(
        (f"Hollywood Gin: {first} v {second}\n", "bold"),
        f"Match {match.id}, started {shown_time(match.created)}\n",
        f"Rules: {rules_label(match.rules)}\n",
        f"First dealer: {match.first_dealer}\n",
        (result_sentence(match), "bold"),
    )
    settling: list[Text] = []
    settlement = summary_settlement(match)
    if settlement is not None:
        settling = [Text("Settling up", style="bold underline")]
        settling += [*map(Text, settlement_lines(settlement)), Text("")]
    games: RenderableType = games_table(sheet)
    hands: RenderableType = hands_table(sheet) if sheet.hands else Text("No hands yet.")
    if not records:  # the tables alone, their cells wrapped
        games, hands = (v.choices[0] if isinstance(v, Fit) else v for v in (games, hands))
    return Group(
        header,
        Text(""),
        Text("Games", style="bold underline"),
        games,
        Text(hands_won_line(sheet)),
        Text(""),
        *settling,
        Text("Hands", style="bold underline"),
        hands,
    )


MEANING_AT_LEAST = 30  # a last column of sentences any narrower: a record each instead


def journal_table(rows: Sequence[JournalRow]) -> Fit:
    """One row per change: its number, when, and the sentence (with where it stands now)."""
    table = simple_table("#", "When", "Change", right=(0,))
    judge = simple_table("#", "When", "Change", right=(0,))
    records = []
    for row in rows:
        text, when = Text(row.text), shown_time(row.at)
        if row.status in ("undone", "set aside"):
            text.append(f" ({row.status})", style="dim")
        table.add_row(Text(str(row.number)), Text(when), text)
        judge.add_row(Text(str(row.number)), Text(when), Text(row.text[:MEANING_AT_LEAST]))
        records.append(record(f"Change {row.number} · {when}", [text.plain]))
    return Fit(table, Group(*records), judged_by=[judge])


def backups_table(entries: list[BackupEntry]) -> Fit:
    """One row per backup: its number, when it was kept (file name below), what it holds."""
    table = simple_table("#", "Kept · file", "Holds", right=(0,))
    records = []
    for entry in entries:
        kept, holds = shown_time(entry.backup.kept_at), f"unreadable: {entry.problem}"
        if entry.match is not None:
            holds = describe_holding(entry.match.sheet)
        upgrade = ["(as before an upgrade)"] if entry.backup.before_schema is not None else []
        below = "".join(f"\n{line}" for line in [entry.backup.name, *upgrade])
        table.add_row(Text(str(entry.number)), Text.assemble(kept, (below, "dim")), Text(holds))
        records.append((f"Backup {entry.number}", [kept, holds, entry.backup.name, *upgrade]))
    return table_or_records(table, records)


def rules_table(rules: Rules) -> Fit:
    """Every rule option with its value and what it means."""
    table = simple_table("Option", "Value", "Meaning", unwrapped=(0, 1))
    judge = simple_table("Option", "Value", "Meaning", unwrapped=(0, 1))
    records = []
    for option in rule_options():
        value, meaning = shown_value(getattr(rules, option.name)), RULE_HELP[option.name]
        table.add_row(Text(option.flag), Text(value), Text(meaning, style="dim"))
        judge.add_row(Text(option.flag), Text(value), Text(meaning[:MEANING_AT_LEAST]))
        records.append(record(f"{option.flag} {value}", [meaning], style="dim"))
    return Fit(table, Group(*records), judged_by=[judge])


def profiles_table(profiles: dict[str, Rules], builtin: set[str]) -> Fit:
    """Built-in profiles and saved presets, with how each differs from friendly."""
    reference = Rules()
    table = simple_table("Rules", "Kind", "Differs from friendly in", unwrapped=(0, 1))
    judge = simple_table("Rules", "Kind", "Differs from friendly in", unwrapped=(0, 1))
    records = []
    for name, rules in profiles.items():
        diffs = [
            f"{o.flag} {shown_value(getattr(rules, o.name))}"
            for o in rule_options()
            if getattr(rules, o.name) != getattr(reference, o.name)
        ] or ["nothing"]
        kind = "built-in" if name in builtin else "preset"
        table.add_row(Text(name), Text(kind), Text(", ".join(diffs)))
        judge.add_row(Text(name), Text(kind), Text(", ".join(diffs)[:MEANING_AT_LEAST]))
        records.append(record(f"{name} · {kind}", diffs))
    return Fit(table, Group(*records), judged_by=[judge])


def standing_view(state: Standing) -> Group:
    """A series: a row per match with the running totals, then the result."""
    series = state.series
    first, second = series.players
    table = simple_table("Match", Text(first), Text(second), "Won by", right=(1, 2))
    records = []
    running = dict.fromkeys(series.players, 0)
    for match_id, totals, winner in state.per_match:
        for player in series.players:
            running[player] += totals[player]
        cells = [f"+{totals[p]} = {running[p]}" for p in series.players]
        table.add_row(*map(Text, [match_id, *cells, winner or "level"]))
        figures = [f"{p} {c}" for p, c in zip(series.players, cells, strict=True)]
        records.append((match_id, [*figures, f"won by {winner}" if winner else "level"]))
    if state.in_play:
        table.add_row(Text(state.in_play), Text("in play"), Text(""), Text(""))
        records.append((state.in_play, ["in play"]))
    if not state.finished:
        result = f"Totals: {first} {state.credited[first]}, {second} {state.credited[second]}."
    elif state.winner:
        low = min(state.credited.values())
        result = f"Series over: {state.winner} wins, {state.credited[state.winner]} to {low}."
    else:
        result = "Series over: level."
    title = Text(f"Series {series.id}: {first} v {second} to {series.target}", "bold")
    return Group(title, table_or_records(table, records), Text(result))
