"""Rule values and the one registry of rule options.

Each house option is declared once, as a field of `Rules` made with `rule(...)`: its type and
friendly default, the values it allows, its default in the other profiles and one help text
(what the rule books play is in the README's table). Everything else is generated from that
declaration: the
flags of `hgin new`, `hgin series new` and `hgin rules save`, the names and values `hgin rules
set` accepts, the keys of the settings file, the checks on stored rules and the rules table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NamedTuple, TypeVar, get_args

from hgin.engine.money import read_stake
from hgin.engine.names import either
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

Value = TypeVar("Value")


class RuleOption(NamedTuple):
    """One rule option of the registry: everything any command needs to offer and check it
    (a named tuple: every command loads the registry, and a dataclass costs its start).

    `read`, for a text option, turns what was typed into the stored value (or refuses it with
    an HginError); a stored text value is valid when reading it gives it back unchanged.
    """

    name: str
    default: Any
    help: str
    kind: OptionKind
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = MAX_BONUS
    allowed: tuple[int, ...] = ()
    profiles: tuple[tuple[str, Any], ...] = ()
    read: Callable[[str], Any] | None = None
    metavar: str = "TEXT"
    scoring: bool = True

    @property
    def flag(self) -> str:
        """The command-line spelling: `dealer_rule` -> `dealer-rule`."""
        return option_flag(self.name)

    @property
    def values_text(self) -> str:
        """The values it takes, for help and refusals: '0..10000', 'on or off', 'a, b or c'."""
        if self.kind == "switch":
            return "on or off"
        if self.kind == "choice":
            return either(list(self.choices))
        if self.kind == "number":
            if self.allowed:
                return either([str(n) for n in self.allowed])
            return f"{self.low}..{self.high}"
        return self.metavar.lower()

    def parse(self, text: str) -> Any:
        """The value typed as `text` (`rules set`, the settings file), checked."""
        text = text.strip()
        if self.kind == "number":
            try:
                number = int(text)
            except ValueError:
                raise HginError(f"{self.flag} takes a whole number, not '{text}'") from None
            return self.check(number)
        if self.kind == "switch":
            lowered = text.lower()
            if lowered in SWITCH_ON:
                return True
            if lowered in SWITCH_OFF:
                return False
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
            return value
        if self.kind == "switch":
            if not isinstance(value, bool):
                raise HginError(f"{self.flag} must be on or off")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                choices = ", ".join(self.choices)
                raise HginError(f"{self.flag} must be one of {choices}, not '{value}'")
            return value
        if value is None:
            return None
        assert self.read is not None
        if not isinstance(value, str) or self.read(value) != value:
            raise HginError(f"{self.flag} must be {self.values_text}, not {value!r}")
        return value

    def show(self, value: Any) -> str:
        """A value as `hgin rules` shows it and `rules set` takes it (`shown_value`)."""
        return shown_value(value)

    def default_in(self, profile: str) -> Any:
        """This option's value in a built-in profile."""
        return dict(self.profiles).get(profile, self.default)


def shown_value(value: Any) -> str:
    """A rule's value as typed: 'on', 'off', 'none' or the value."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def rule(default: Value, *, classic: Any = dataclasses.MISSING, **option: Any) -> Value:
    """Declare a rule option as a field of `Rules` (its name is the field's name); `option`
    gives the other fields of its `RuleOption` (help, choices, low, high, allowed, read...).

    The kind follows from the default and `choices`: a whole number, on/off, one of the
    choices, or text turned into its stored value by `read` (which may also give None).
    `scoring=False` marks an option that never changes a score (the stake): changing it
    re-scores nothing, and it does not make a profile 'changed'.
    """
    kind: OptionKind
    if isinstance(default, bool):
        kind = "switch"
    elif isinstance(default, int):
        kind = "number"
    elif option.get("choices"):
        kind = "choice"
    else:
        if option.get("read") is None:
            raise TypeError("a text rule option needs `read`")
        kind = "text"
    profiles = () if classic is dataclasses.MISSING else (("classic", classic),)
    made = RuleOption("", default, kind=kind, profiles=profiles, **option)
    field: Value = dataclasses.field(default=default, metadata={"option": made})
    return field


@dataclass(frozen=True, slots=True)
class Rules:
    """Every value that decides a score. Defaults are the friendly profile's; the classic
    profile's are given beside them. Add a house option here, and only here."""

    profile: str = "friendly"
    gin_bonus: int = rule(
        25,
        help="Points for gin, on top of the opponent's deadwood.",
    )
    undercut_bonus: int = rule(
        25,
        help="Bonus to the defender who undercuts a knock.",
    )
    big_gin_bonus: int = rule(
        0,
        help="Big gin (all 11 cards melded) scores this bonus plus the deadwood; 0 = not played.",
    )
    target: int = rule(
        100,
        help="Points that close a game (bonuses never count toward it).",
        low=1,
        high=MAX_TARGET,
    )
    games: int = rule(
        3,
        help="Games on the sheet: 1, 3 or 5; the match goes to who wins more than half.",
        low=1,
        high=max(ALLOWED_GAMES),
        allowed=ALLOWED_GAMES,
    )
    rolling: bool = rule(
        False,
        help="Rolling Hollywood: three games always in progress; each game that closes opens "
        "the next, until notice is given ('hgin notice'). Not with --games.",
    )
    game_bonus: int = rule(
        0,
        help="At a game's close, to its winner.",
        classic=100,
    )
    box_bonus: int = rule(
        0,
        help="At a game's close, to each player per hand they won in that game.",
        classic=25,
    )
    shutout: Shutout = rule(
        "none",
        help="When the loser of a closing game has 0 in it: none; bonus (game bonus doubled); "
        "double (winner's whole game total doubled).",
        choices=get_args(Shutout),
        classic="bonus",
    )
    tie: Tie = rule(
        "undercut",
        help="Equal counts on a knock: undercut (the defender wins) or knocker (wins 0).",
        choices=get_args(Tie),
    )
    entry: EntryRule = rule(
        "count",
        help="Which games a win enters: count (win n enters games 1..n) or next-open "
        "(also the first open game not yet entered).",
        choices=get_args(EntryRule),
    )
    decide: Decide = rule(
        "majority",
        help="Match winner: majority of games, or net (the larger sheet total).",
        choices=get_args(Decide),
    )
    dealer_rule: DealerRule = rule(
        "alternate",
        help="Who deals after a won hand: alternate, winner or loser.",
        choices=get_args(DealerRule),
        classic="winner",
    )
    redeal: Redeal = rule(
        "other",
        help="Who deals after a dead hand: the same dealer, or the other player.",
        choices=get_args(Redeal),
        classic="same",
    )
    oklahoma: bool = rule(
        False,
        help="Oklahoma: the upcard's value is the knock limit; a spade upcard doubles the hand.",
    )
    oklahoma_ace: OklahomaAce = rule(
        "gin",
        help="An Oklahoma ace upcard: gin (no knocking) or one (knock with 1).",
        choices=get_args(OklahomaAce),
    )
    straight: bool = rule(
        False,
        help="Straight Gin: no knocking, only gin ends a hand.",
    )
    stake: str | None = rule(
        None,
        help="Money per point for 'hgin settle' and the summaries, e.g. 0.05 (none: points "
        "only); it never changes a score.",
        read=read_stake,
        metavar="AMOUNT",
        scoring=False,
    )

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
    def changed(self) -> bool:
        """Whether house values differ from the built-in profile this is named after.

        Target, number of games and rolling are choices every profile offers, and options that
        never change a score (the stake) are not rules of play, so they do not count.
        """
        builtin = PROFILES.get(self.profile)
        if builtin is None:
            return False
        kept = {o.name: getattr(self, o.name) for o in rule_options() if not o.scoring}
        shaped = dataclasses.replace(
            builtin, target=self.target, games=self.games, rolling=self.rolling, **kept
        )
        return shaped != self

    @property
    def label(self) -> str:
        """The rules' name: 'friendly', or 'friendly, changed' when house values differ."""
        return f"{self.profile}, changed" if self.changed else self.profile

    def to_dict(self) -> dict[str, Any]:
        """The rule values as plain JSON-ready data (every value is a plain one already)."""
        return {name: getattr(self, name) for name in _rule_names()}


@cache
def _rule_names() -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(Rules))


@cache
def rule_options() -> tuple[RuleOption, ...]:
    """The registry: every rule option, in the order `Rules` declares them."""
    return tuple(
        f.metadata["option"]._replace(name=f.name)
        for f in dataclasses.fields(Rules)
        if "option" in f.metadata
    )


@cache
def _by_name() -> dict[str, RuleOption]:
    return {option.name: option for option in rule_options()}


def _profile(name: str) -> Rules:
    values = {o.name: o.default_in(name) for o in rule_options()}
    return Rules(profile=name, **values)


PROFILES: dict[str, Rules] = {"friendly": Rules(), "classic": _profile("classic")}


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
    if rules.oklahoma and rules.straight:
        raise HginError("Oklahoma and Straight Gin cannot both be on: Straight Gin has no knocks")
    if rules.rolling and rules.games != ROLLING_GAMES:
        raise HginError(NOT_ROLLING_GAMES)
    return rules


def with_options(base: Rules, options: dict[str, Any], profile: str | None = None) -> Rules:
    """`base` with some fields replaced (None values ignored), checked.

    Turning `rolling` on sets three games; giving `games` with it is refused.
    """
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
    return check_rules(dataclasses.replace(base, **changes))


def rules_from_dict(data: Any) -> Rules:
    """Rules read back from JSON, checked; unknown or mistyped keys are refused."""
    if not isinstance(data, dict):
        raise HginError("rules must be an object")
    values: dict[str, Any] = {}
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
