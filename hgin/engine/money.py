"""Stakes (the money one point is worth) and amounts of money: exact decimals, never floats."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext

from hgin.errors import HginError

MAX_STAKE = Decimal(1000)
STAKE_DECIMALS = 4
CENT = Decimal("0.01")
MAX_CURRENCY = 12
_STAKE_TEXT = re.compile(r"(?:[0-9]{1,7}(?:\.[0-9]*)?|\.[0-9]+)")


def parse_stake(text: str) -> Decimal:
    """The stake meant by `text`, refusing anything but a plain non-negative decimal."""
    typed = text.strip()
    if "," in typed and _STAKE_TEXT.fullmatch(typed.replace(",", ".", 1)):
        raise HginError(f"write the stake with a decimal point: {typed.replace(',', '.', 1)}")
    if not _STAKE_TEXT.fullmatch(typed):
        shown = typed[:40]
        raise HginError(
            f"a stake is an amount per point such as 0.05 or 1, not '{shown}' "
            "(digits and one decimal point; no sign or exponent)"
        )
    value = Decimal(typed)
    places = len(typed.partition(".")[2].rstrip("0"))
    if places > STAKE_DECIMALS:
        raise HginError(f"a stake has at most {STAKE_DECIMALS} decimals, not '{typed}'")
    if value > MAX_STAKE:
        raise HginError(f"a stake is at most {MAX_STAKE} per point, not {typed}")
    return value


def stake_text(stake: Decimal) -> str:
    """A stake written plainly with at least two decimals: '0.05', '1.00', '0.0025'."""
    exponent = stake.normalize().as_tuple().exponent
    places = max(2, -exponent if isinstance(exponent, int) else 2)
    return f"{stake:.{places}f}"


def read_stake(text: str) -> str | None:
    """A stake as typed for a match or in config.toml: its stored spelling, or None for 'none'."""
    if text.strip().lower() in ("none", "off", "no", ""):
        return None
    return stake_text(parse_stake(text))


def amount(points: int, stake: Decimal) -> Decimal:
    """Money for `points` at `stake` a point: exact, then rounded to cents half up."""
    with localcontext() as context:
        context.prec = 60  # far more digits than points × MAX_STAKE can need: never rounds
        exact = Decimal(points) * stake
        return exact.quantize(CENT, rounding=ROUND_HALF_UP)


def money_text(value: Decimal, currency: str | None = None) -> str:
    """'14.75', or '14.75 EUR' with a currency."""
    text = f"{value:.2f}"
    return f"{text} {currency}" if currency else text


def check_currency(text: str) -> str:
    """A currency label as it will be printed: short and printable ('EUR', '€', 'chips')."""
    label = text.strip()
    if not label or len(label) > MAX_CURRENCY or not label.isprintable():
        raise HginError(
            f"a currency is a short label such as EUR or €, at most {MAX_CURRENCY} characters"
        )
    return label
