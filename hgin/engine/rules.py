"""Rule values and the one registry of rule options: a field of `Rules` (its friendly default)
and, when it needs more than its type, an entry of `_MORE`; its help is in `hgin.reports.rule_help`.
"""

from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any, Literal, NamedTuple, get_args

from hgin.engine.money import read_stake
from hgin.errors import HginError

Tie = Literal["undercut", "knocker"]
Shutout = Literal["none", "bonus", "double"]
EntryRule = Literal["count", "next-open"]
Decide = Literal["majority", "net"]
DealerRule = Literal["alternate", "winner", "loser"]
Redeal = Literal["same", "other"]
OklahomaAce = Literal["gin", "one"]
OptionKind = Literal["number", "switch", "choice", "text"]

KNOCK_LIMIT = 10
MAX_DEADWOOD = 98
ALLOWED_GAMES = (1, 3, 5)
MAX_TARGET = 100_000
MAX_BONUS = 10_000
ROLLING_GAMES = 3  # games in progress in a rolling match until notice is given
NOT_ROLLING_GAMES = "games does not apply to a rolling match: three games are always in progress"
SWITCH_ON = ("on", "yes", "true", "1")
SWITCH_OFF = ("off", "no", "false", "0")


class Rules(NamedTuple):
    """Every value that decides a score, with the friendly profile's defaults."""

    profile: str = "friendly"
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int = 0
    target: int = 100
    games: int = 3
    rolling: bool = False
    game_bonus: int = 0
    box_bonus: int = 0
    shutout: Shutout = "none"
    tie: Tie = "undercut"
    entry: EntryRule = "count"
    decide: Decide = "majority"
    dealer_rule: DealerRule = "alternate"
    redeal: Redeal = "other"
    oklahoma: bool = False
    oklahoma_ace: OklahomaAce = "gin"
    straight: bool = False
    stake: str | None = None  # money per point; it never changes a score

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
        return self.games // 2 + 1

    @property
    def changed(self) -> bool:
        """Whether house values differ from the built-in profile this is named after."""
        builtin = PROFILES.get(self.profile)
        return builtin is not None and _house_values(builtin) != _house_values(self)

    @property
    def label(self) -> str:
        """'friendly', or 'friendly, changed' when house values differ."""
        return f"{self.profile}, changed" if self.changed else self.profile


# The values a profile fixes: all but the choices every profile offers and the stake.
_house_values = attrgetter(
    *(name for name in Rules._fields if name not in ("target", "games", "rolling", "stake"))
)


class RuleOption(NamedTuple):
    """One rule option: what any command needs to offer, read and check it."""

    name: str
    default: Any
    kind: OptionKind
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = MAX_BONUS
    allowed: tuple[int, ...] = ()
    classic: Any = None  # None: as in the friendly profile
    read: Callable[[str], Any] | None = None
    metavar: str = "TEXT"
    scoring: bool = True  # False: changing it re-scores nothing (the stake)

    @property
    def flag(self) -> str:
        return option_flag(self.name)

    def parse(self, text: str) -> Any:
        """The value typed as `text` (`rules set`, the settings file), checked."""
        text = text.strip()
        if self.kind == "number":
            try:
                return self.check(int(text))
            except ValueError:
                raise HginError(f"{self.flag} takes a whole number, not '{text}'") from None
        if self.kind == "switch":
            if text.lower() in SWITCH_ON + SWITCH_OFF:
                return text.lower() in SWITCH_ON
            raise HginError(f"{self.flag} takes on or off, not '{text}'")
        if self.kind == "choice":
            return self.check(text.lower())
        assert self.read is not None
        return self.read(text)

    def check(self, value: Any) -> Any:
        """`value` if it is one this option allows (type and range), else a refusal."""
        if self.kind == "number":
            if type(value) is not int:
                raise HginError(f"{self.flag} must be a whole number")
            if self.allowed and value not in self.allowed:
                allowed = ", ".join(str(n) for n in self.allowed)
                raise HginError(f"{self.flag} must be one of {allowed}, not {value}")
            if not self.low <= value <= self.high:
                raise HginError(
                    f"{self.flag} must be between {self.low} and {self.high}, not {value}"
                )
        elif self.kind == "switch":
            if not isinstance(value, bool):
                raise HginError(f"{self.flag} must be on or off")
        elif self.kind == "choice":
            if value not in self.choices:
                choices = ", ".join(self.choices)
                raise HginError(f"{self.flag} must be one of {choices}, not '{value}'")
        elif value is not None:
            assert self.read is not None
            if not isinstance(value, str) or self.read(value) != value:
                raise HginError(f"{self.flag} must be {self.metavar.lower()}, not {value!r}")
        return value


# What an option needs beyond its field's type and default.
_MORE: dict[str, dict[str, Any]] = {
    "target": {"low": 1, "high": MAX_TARGET},
    "games": {"low": 1, "high": max(ALLOWED_GAMES), "allowed": ALLOWED_GAMES},
    "game_bonus": {"classic": 100},
    "box_bonus": {"classic": 25},
    "shutout": {"choices": get_args(Shutout), "classic": "bonus"},
    "tie": {"choices": get_args(Tie)},
    "entry": {"choices": get_args(EntryRule)},
    "decide": {"choices": get_args(Decide)},
    "dealer_rule": {"choices": get_args(DealerRule), "classic": "winner"},
    "redeal": {"choices": get_args(Redeal), "classic": "same"},
    "oklahoma_ace": {"choices": get_args(OklahomaAce)},
    "stake": {"read": read_stake, "metavar": "AMOUNT", "scoring": False},
}


def _kind(default: Any, more: dict[str, Any]) -> OptionKind:
    if isinstance(default, bool):
        return "switch"
    if isinstance(default, int):
        return "number"
    return "choice" if "choices" in more else "text"


@cache
def rule_options() -> tuple[RuleOption, ...]:
    """The registry: every rule option, in the order `Rules` declares them."""
    friendly = Rules()
    options = []
    for name in Rules._fields[1:]:
        default, more = getattr(friendly, name), _MORE.get(name, {})
        options.append(RuleOption(name, default, _kind(default, more), **more))
    return tuple(options)


@cache
def _by_name() -> dict[str, RuleOption]:
    return {option.name: option for option in rule_options()}


def shown_value(value: Any) -> str:
    """A rule's value as typed: 'on', 'off', 'none' or the value."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


PROFILES: dict[str, Rules] = {
    "friendly": Rules(),
    "classic": Rules(
        profile="classic",
        **{o: v["classic"] for o, v in _MORE.items() if "classic" in v},
    ),
}


def option_flag(name: str) -> str:
    """The command-line spelling of a rule field (`dealer_rule` -> `dealer-rule`)."""
    return name.replace("_", "-")


def find_option(typed: str) -> RuleOption:
    """The option named as typed (`gin-bonus`, `--gin-bonus`, `gin_bonus`), refusing others."""
    name = typed.strip().lstrip("-").replace("-", "_").lower()
    found = _by_name().get(name)
    if found is None:
        known = ", ".join(o.flag for o in rule_options())
        raise HginError(f"unknown rule option '{typed}' (known: {known})")
    return found


def check_rules(rules: Rules) -> Rules:
    """Refuse rule values no table plays with; return the rules unchanged when fine."""
    for option in rule_options():
        option.check(getattr(rules, option.name))
    return _check_together(rules)


def _check_together(rules: Rules) -> Rules:
    """Refuse rule values that are each allowed but not together."""
    if rules.oklahoma and rules.straight:
        raise HginError("Oklahoma and Straight Gin cannot both be on: Straight Gin has no knocks")
    if rules.rolling and rules.games != ROLLING_GAMES:
        raise HginError(NOT_ROLLING_GAMES)
    return rules


def with_options(base: Rules, options: dict[str, Any], profile: str | None = None) -> Rules:
    """`base` with some fields replaced (None values ignored), checked."""
    changes = {k: v for k, v in options.items() if v is not None}
    for name in changes:
        if name not in _by_name():
            raise HginError(f"unknown rule option '{option_flag(name)}'")
    if changes.get("rolling"):
        if "games" in changes:
            raise HginError(NOT_ROLLING_GAMES)
        changes["games"] = ROLLING_GAMES
    if profile is not None:
        changes["profile"] = profile
    return check_rules(base._replace(**changes))


def rules_from_dict(data: Any) -> Rules:
    """Rules read back from JSON, each value checked once."""
    if not isinstance(data, dict):
        raise HginError("rules must be an object")
    for key, value in data.items():
        if key == "profile":
            if not isinstance(value, str):
                raise HginError("rule profile must be text")
        elif key not in _by_name():
            raise HginError(f"unknown rule '{key}'")
        else:
            try:
                _by_name()[key].check(value)
            except HginError as error:
                raise HginError(f"rule {error}") from None
    return _check_together(Rules(**data))


def knock_limit(rules: Rules, upcard_rank: int | None) -> int:
    """The largest deadwood a knock may have; 0 means no knocking at all in this hand."""
    if rules.straight:
        return 0
    if not rules.oklahoma or upcard_rank is None:
        return KNOCK_LIMIT
    if upcard_rank == 1:
        return 0 if rules.oklahoma_ace == "gin" else 1
    return min(upcard_rank, 10)
