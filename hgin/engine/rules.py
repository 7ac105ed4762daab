"""Rule values: the two named profiles and every house option, as one frozen dataclass."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args

from hgin.errors import HginError

Tie = Literal["undercut", "knocker"]
Shutout = Literal["none", "bonus", "double"]
Entry = Literal["count", "next-open"]
Decide = Literal["majority", "net"]
DealerRule = Literal["alternate", "winner", "loser"]
Redeal = Literal["same", "other"]
OklahomaAce = Literal["gin", "one"]

KNOCK_LIMIT = 10
MAX_DEADWOOD = 98
ALLOWED_GAMES = (1, 3, 5)
MAX_TARGET = 100_000
MAX_BONUS = 10_000


@dataclass(frozen=True, slots=True)
class Rules:
    """Every value that decides a score. Defaults are the friendly profile's."""

    profile: str = "friendly"
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int = 0
    target: int = 100
    games: int = 3
    game_bonus: int = 0
    box_bonus: int = 0
    shutout: Shutout = "none"
    tie: Tie = "undercut"
    entry: Entry = "count"
    decide: Decide = "majority"
    dealer_rule: DealerRule = "alternate"
    redeal: Redeal = "other"
    oklahoma: bool = False
    oklahoma_ace: OklahomaAce = "gin"
    straight: bool = False

    @property
    def has_bonuses(self) -> bool:
        """Whether closing a game can add anything beyond the points (so totals matter)."""
        return self.game_bonus > 0 or self.box_bonus > 0 or self.shutout == "double"

    @property
    def shows_totals(self) -> bool:
        """Whether the sheet total (points + bonuses) is shown beside the games."""
        return self.has_bonuses or self.decide == "net"

    @property
    def games_to_win(self) -> int:
        """Games a player needs for the match under the majority rule."""
        return self.games // 2 + 1

    @property
    def label(self) -> str:
        """The profile name, marked when house values differ from the built-in profile's.

        Target and number of games are choices every profile offers, so they do not count.
        """
        builtin = PROFILES.get(self.profile)
        reshaped = (
            dataclasses.replace(builtin, target=self.target, games=self.games) if builtin else None
        )
        if reshaped is not None and reshaped != self:
            return f"{self.profile} (changed)"
        return self.profile

    def to_dict(self) -> dict[str, Any]:
        """The rule values as plain JSON-ready data."""
        return dataclasses.asdict(self)


PROFILES: dict[str, Rules] = {
    "friendly": Rules(),
    "classic": Rules(
        profile="classic",
        game_bonus=100,
        box_bonus=25,
        shutout="bonus",
        dealer_rule="winner",
        redeal="same",
    ),
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "shutout": get_args(Shutout),
    "tie": get_args(Tie),
    "entry": get_args(Entry),
    "decide": get_args(Decide),
    "dealer_rule": get_args(DealerRule),
    "redeal": get_args(Redeal),
    "oklahoma_ace": get_args(OklahomaAce),
}
_INTS = (
    "gin_bonus",
    "undercut_bonus",
    "big_gin_bonus",
    "target",
    "games",
    "game_bonus",
    "box_bonus",
)
_BOOLS = ("oklahoma", "straight")
OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name != "profile"
)


def option_flag(name: str) -> str:
    """The command-line spelling of a rule field (`dealer_rule` -> `dealer-rule`)."""
    return name.replace("_", "-")


def field_name(option: str) -> str:
    """The rule field for a command-line spelling, refusing unknown ones."""
    name = option.strip().lstrip("-").replace("-", "_").lower()
    if name not in OPTION_NAMES:
        known = ", ".join(option_flag(n) for n in OPTION_NAMES)
        raise HginError(f"unknown rule option '{option}' (known: {known})")
    return name


def parse_value(name: str, text: str) -> int | bool | str:
    """Turn a typed value for rule field `name` into its type, refusing nonsense."""
    text = text.strip()
    if name in _INTS:
        try:
            return int(text)
        except ValueError:
            raise HginError(f"{option_flag(name)} takes a whole number, not '{text}'") from None
    if name in _BOOLS:
        lowered = text.lower()
        if lowered in ("on", "yes", "true", "1"):
            return True
        if lowered in ("off", "no", "false", "0"):
            return False
        raise HginError(f"{option_flag(name)} takes on or off, not '{text}'")
    return text.lower()


RULE_HELP: dict[str, str] = {
    "gin_bonus": "points for gin on top of the opponent's deadwood",
    "undercut_bonus": "bonus to the defender who undercuts a knock",
    "big_gin_bonus": "big gin (all 11 cards melded): bonus + deadwood; 0 = not played",
    "target": "points that close a game (bonuses never count toward it)",
    "games": "games on the sheet (1, 3 or 5); majority means more than half",
    "game_bonus": "at a game's close, to its winner",
    "box_bonus": "at a game's close, to each player per hand they won in that game",
    "shutout": "loser has 0 in a closing game: none, bonus (game bonus doubled), "
    "double (winner's whole game total doubled)",
    "tie": "equal counts on a knock: undercut (defender wins) or knocker (wins 0)",
    "entry": "count: win n enters games 1..n; next-open: also the first open game not yet entered",
    "decide": "match winner: majority of games, or net (larger sheet total)",
    "dealer_rule": "who deals after a won hand: alternate, winner or loser",
    "redeal": "who deals after a dead hand: same dealer or the other player",
    "oklahoma": "the upcard's value is the knock limit; a spade upcard doubles the hand",
    "oklahoma_ace": "Oklahoma ace upcard: gin (no knocking) or one (knock with 1)",
    "straight": "Straight Gin: no knocking, only gin ends a hand",
}


def parse_rule_flags(words: list[str]) -> dict[str, int | bool | str]:
    """Rule values from command-line words: `--gin-bonus 20`, `--tie=knocker`, `--straight`."""
    values: dict[str, int | bool | str] = {}
    position = 0
    while position < len(words):
        word = words[position]
        position += 1
        if not word.startswith("--"):
            raise HginError(f"expected an option like --gin-bonus, not '{word}'")
        flag, equals, inline = word[2:].partition("=")
        negated = flag.startswith("no-") and flag[3:].replace("-", "_") in _BOOLS
        name = field_name(flag[3:] if negated else flag)
        if name in _BOOLS and not equals:
            values[name] = not negated
            continue
        if equals:
            text = inline
        elif position < len(words):
            text = words[position]
            position += 1
        else:
            raise HginError(f"--{flag} needs a value")
        values[name] = parse_value(name, text)
    return values


def check_rules(rules: Rules) -> Rules:
    """Refuse rule values no table plays with; return the rules unchanged when fine."""
    if not 1 <= rules.target <= MAX_TARGET:
        raise HginError(f"target must be between 1 and {MAX_TARGET}, not {rules.target}")
    if rules.games not in ALLOWED_GAMES:
        allowed = ", ".join(str(g) for g in ALLOWED_GAMES)
        raise HginError(f"games must be one of {allowed}, not {rules.games}")
    for name in ("gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "box_bonus"):
        value = getattr(rules, name)
        if not 0 <= value <= MAX_BONUS:
            raise HginError(f"{option_flag(name)} must be between 0 and {MAX_BONUS}, not {value}")
    for name, choices in _CHOICES.items():
        value = getattr(rules, name)
        if value not in choices:
            raise HginError(
                f"{option_flag(name)} must be one of {', '.join(choices)}, not '{value}'"
            )
    for name in _BOOLS:
        if not isinstance(getattr(rules, name), bool):
            raise HginError(f"{option_flag(name)} must be on or off")
    if rules.oklahoma and rules.straight:
        raise HginError("Oklahoma and Straight Gin cannot both be on: Straight Gin has no knocks")
    return rules


def with_options(base: Rules, options: dict[str, Any], profile: str | None = None) -> Rules:
    """`base` with some fields replaced (None values ignored), checked."""
    changes = {k: v for k, v in options.items() if v is not None}
    unknown = set(changes) - set(OPTION_NAMES)
    if unknown:
        raise HginError(f"unknown rule option '{option_flag(sorted(unknown)[0])}'")
    if profile is not None:
        changes["profile"] = profile
    return check_rules(dataclasses.replace(base, **changes))


def rules_from_dict(data: Any) -> Rules:
    """Rules read back from JSON, checked; unknown or mistyped keys are refused."""
    if not isinstance(data, dict):
        raise HginError("rules must be an object")
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in fields:
            raise HginError(f"unknown rule '{key}'")
        if key in _INTS and (type(value) is not int):
            raise HginError(f"rule {key} must be a whole number")
        if key in _BOOLS and not isinstance(value, bool):
            raise HginError(f"rule {key} must be true or false")
        if key not in _INTS and key not in _BOOLS and not isinstance(value, str):
            raise HginError(f"rule {key} must be text")
        values[key] = value
    return check_rules(Rules(**values))


def knock_limit(rules: Rules, upcard_rank: int | None) -> int:
    """The largest deadwood a knock may have; 0 means no knocking at all in this hand."""
    if rules.straight:
        return 0
    if not rules.oklahoma or upcard_rank is None:
        return KNOCK_LIMIT
    if upcard_rank == 1:
        return 0 if rules.oklahoma_ace == "gin" else 1
    return min(upcard_rank, 10)
