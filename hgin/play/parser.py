"""Lines typed at the table (`hgin play`) turned into actions: pure, no I/O. A command word
may be cut to any start at least as long as its shortest form; player names are resolved later,
against the match."""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from hgin.engine.counts import counts_after, option_like, whole_number
from hgin.engine.hands import Hand, HandKind
from hgin.errors import HginError


@dataclass(frozen=True, slots=True)
class Word:
    """A command word, its shortest accepted start, and one line of help."""

    name: str
    shortest: str
    usage: str
    help: str


COMMANDS: tuple[Word, ...] = (
    Word("gin", "g", "gin PLAYER THEIRS", "gin; THEIRS: their deadwood"),
    Word("knock", "k", "knock PLAYER MINE THEIRS", "knock (hgin sees undercuts)"),
    Word("draw", "d", "draw", "a dead hand"),
    Word("count", "c", "count CARDS [-o CARDS]", "melds, deadwood, discard; records nothing"),
    Word("undo", "u", "undo", "undo the latest change"),
    Word("redo", "r", "redo", "put back what undo took"),
    Word("notice", "n", "notice", "rolling: no new game opens from now on"),
    Word("log", "l", "log", "every change so far, numbered"),
    Word("restore", "res", "restore N", "back to the state after change N"),
    Word("show", "s", "show", "the sheet again"),
    Word("summary", "su", "summary", "the whole match, hand by hand"),
    Word("edit", "e", "edit N gin|knock|draw ...", "correct hand N"),
    Word("delete", "del", "delete N", "remove hand N"),
    Word("new", "ne", "new [NAME1 NAME2 ...]", "the next match (same players, rules)"),
    Word("series", "se", "series next", "the next match of the series"),
    Word("help", "h", "help [WORD]", "this list"),
    Word("quit", "q", "quit", "leave; every hand is saved"),
)

ENTRY_KINDS: tuple[Word, ...] = COMMANDS[:3]
NEXT_MATCH = tuple(w for w in COMMANDS if w.name in ("new", "series"))
ALIASES = {"?": "help", "exit": "quit", "bye": "quit"}
ENTRY_EXAMPLE = "for example 'knock bob 4 20'"
# Far more than the longest line a hand needs (two names, 21 cards, options); splitting words
# takes time that grows with the square of a word's length, so a longer line is refused unread.
MAX_LINE = 1000


@dataclass(frozen=True, slots=True)
class Command:
    """A command word (its full name) and what it takes: a hand, a number, a word to explain."""

    name: str
    entry: Hand | None = None
    number: int | None = None
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class CountCards:
    """Count 10 or 11 cards (and the opponent's, with layoffs) without recording anything."""

    cards: tuple[str, ...]
    opponent: str | None = None


@dataclass(frozen=True, slots=True)
class NextMatch:
    """Start the next match: the same players and rules, or as `hgin new` reads `words`."""

    words: tuple[str, ...] = ()
    series: bool = False  # `series next`: refused outside a series


Action = Command | CountCards | NextMatch


def find_word(typed: str, kinds: bool = False) -> Word:
    """The word meant by `typed`: its full name or a start at least as long as its shortest
    (with `kinds`, only the kinds of hand: gin, knock, draw)."""
    words = ENTRY_KINDS if kinds else COMMANDS
    wanted = typed.casefold()
    wanted = wanted if kinds else ALIASES.get(wanted, wanted)
    hits = [w for w in words if w.name.startswith(wanted) and len(wanted) >= len(w.shortest)]
    if len(hits) == 1:
        return hits[0]
    short = [w for w in words if wanted and w.name.startswith(wanted)]
    if short:
        options = " or ".join(f"'{w.shortest}' for {w.name}" for w in short)
        raise HginError(f"'{typed}' is too short: type {options}")
    if not kinds:
        near = difflib.get_close_matches(wanted, [w.name for w in words], n=1)
        hint = f": did you mean '{near[0]}'?" if near else " (help lists them)"
        raise HginError(f"no command '{typed}'{hint}")  # worded as the one-shot commands
    names = "|".join(w.name for w in words)
    raise HginError(f"'{typed}' is not a kind of hand: use {names}, {ENTRY_EXAMPLE}")


def split_line(line: str) -> list[str]:
    """The words of a line; quotes keep a name with spaces together."""
    if len(line) > MAX_LINE:
        raise HginError(
            f"that line is too long ({len(line)} characters; at most {MAX_LINE}): "
            "type one hand or command a line"
        )
    try:
        return shlex.split(line)
    except ValueError as error:
        raise HginError(f"cannot read that line: {str(error).lower()}") from None


VALUED = {
    "--upcard": "upcard",
    "-u": "upcard",
    "--hand": "hand",
    "--opponent": "opponent",
    "-o": "opponent",
}
BIG = ("--big", "-b")


def _options(words: Sequence[str]) -> tuple[list[str], dict[str, str | None], bool, list[str]]:
    """Positional words, the valued options (upcard, cards; None: the value is missing), the
    big-gin flag, and the words that read as options but are none of an entry's own."""
    positional: list[str] = []
    values: dict[str, str | None] = {}
    big = False
    stray: list[str] = []
    rest = iter(words)
    for word in rest:
        flag, equals, inline = word.partition("=")
        if word in BIG:
            big = True
        elif flag in VALUED:
            values[VALUED[flag]] = inline if equals else next(rest, None)
        elif option_like(word):
            stray.append(word)
        else:
            positional.append(word)
    return positional, values, big, stray


def stray_option(words: Sequence[str]) -> str | None:
    """The first word of an entry that reads as an option but is none of an entry's own."""
    return next(iter(_options(words)[3]), None)


def _entry_options(words: Sequence[str], usage: str) -> tuple[list[str], dict[str, str], bool]:
    """`_options`, refused for a word no entry takes and for an option without its value."""
    positional, values, big, stray = _options(words)
    if stray:
        raise HginError(f"unknown option '{stray[0]}': {usage} [--upcard CARD] [--big]")
    if None in values.values():
        word = words[-1]
        if VALUED[word] == "upcard":
            raise HginError(f"{word} needs a card, as in {word} 7s")
        raise HginError(f'{word} needs the cards, as in {word} "7s 8s 9s ..."')
    return positional, {k: v for k, v in values.items() if v is not None}, big


def _counts(kind: str, positional: list[str], cards: bool, usage: str) -> list[int | None]:
    """The typed counts after the player; with cards they may be left out (hgin counts)."""
    wanted = {"gin": 2, "knock": 3, "draw": 0}[kind]
    least = 1 if cards else wanted
    if not least <= len(positional) <= wanted:
        many = "too many words" if len(positional) > wanted else "missing words"
        raise HginError(f"{many} for {kind}: type {usage}")
    names = (["the knocker's deadwood"] if kind == "knock" else []) + ["the opponent's deadwood"]
    typed: list[str | None] = list(positional[1:])
    typed += [None] * (len(names) - len(typed))
    return counts_after(kind, positional[0], typed, names)


def parse_entry(words: Sequence[str]) -> Hand:
    """`gin ines 18`, `knock osk 7 12 -u 7s`, `draw` (the kind word may be shortened);
    `--hand "CARDS"` and `--opponent "CARDS"` (`-o`) give the cards instead of the counts."""
    if not words:
        raise HginError(f"say what happened: gin, knock or draw, {ENTRY_EXAMPLE}")
    kind = find_word(words[0], kinds=True)
    positional, values, big = _entry_options(words[1:], kind.usage)
    upcard, hand_cards, their_cards = map(values.get, ("upcard", "hand", "opponent"))
    cards = hand_cards is not None or their_cards is not None
    if big and kind.name != "gin":
        raise HginError("--big goes with gin only")
    if kind.name == "draw":
        if positional or cards:
            raise HginError("a dead hand is just draw: no player, counts or cards")
        if upcard is not None:
            raise HginError("a dead hand needs no upcard")
        return Hand("draw")
    counts = _counts(kind.name, positional, cards, kind.usage)
    if kind.name == "gin":
        gin: HandKind = "big_gin" if big else "gin"
        return Hand(gin, positional[0], None, counts[0], upcard, hand_cards, their_cards)
    return Hand("knock", positional[0], counts[0], counts[1], upcard, hand_cards, their_cards)


def parse_line(line: str) -> Action | None:
    """The action a typed line asks for; None for an empty line or a # comment."""
    if line.lstrip().startswith("#"):
        return None
    words = split_line(line)
    if words and words[0].casefold() == "hgin":
        words = words[1:]
    if not words:
        return None
    word = find_word(words[0])
    args = words[1:]
    if word.name in ("gin", "knock", "draw"):
        return Command(word.name, parse_entry([word.name, *args]))
    if word.name == "count":
        positional, values, big = _entry_options(args, word.usage)
        if big or "upcard" in values or "hand" in values:
            raise HginError(f"count takes only cards: type {word.usage}")
        if not positional:
            raise HginError(f"say which cards: {word.usage}")
        return CountCards(tuple(positional), values.get("opponent"))
    if word.name == "series":
        if [a.casefold() for a in args] != ["next"]:
            raise HginError("type series next (the series' next match, once this one is over)")
        return NextMatch(series=True)
    if word.name == "new":  # its names and options are read by `hgin new` itself
        if len(args) == 1:
            raise HginError("type new for the same two players again, or new NAME1 NAME2")
        return NextMatch(tuple(args))
    if word.name == "help":
        if len(args) > 1:
            raise HginError("type help, or help and one command word")
        return Command("help", topic=find_word(args[0]).name if args else None)
    if word.name in ("edit", "delete"):
        if not args:
            raise HginError(f"say which hand: {word.usage}")
        number = whole_number(args[0], "the hand number")
        if word.name == "edit":
            return Command("edit", parse_entry(args[1:]), number)
        if len(args) > 1:
            raise HginError(f"too many words for delete: type {word.usage}")
        return Command("delete", number=number)
    if word.name == "restore":
        if len(args) != 1:
            raise HginError(f"say which change: {word.usage} (log lists them)")
        return Command("restore", number=whole_number(args[0], "the change number"))
    if args:
        raise HginError(f"{word.name} takes nothing more: type just {word.shortest}")
    return Command(word.name)


HELP_INTRO = "One line per hand; cut words short as in [brackets]:"
HAND_WORDS = (
    ("PLAYER", "any unique start of a name"),
    ("--big (-b)", "big gin"),
    ("-u 7s", "an Oklahoma upcard"),
    ('--hand "..." --opponent "..."', "the cards instead: hgin counts"),
)


def help_rows(topic: str | None = None) -> list[tuple[str, str]]:
    """The command list (or one command's row): each word with its shortest form in brackets,
    and what it does; then what the words of a hand take."""
    words = [w for w in COMMANDS if topic in (None, w.name)]
    rows = [(f"[{w.shortest}]{w.usage[len(w.shortest) :]}", w.help) for w in words]
    return rows + list(HAND_WORDS) if topic in (None, "gin", "knock", "edit") else rows
