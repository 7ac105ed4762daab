"""Benchmark the meld solver: python tests/bench/solver.py

Times best_arrangement on 10,000 random 10-card hands and best_discard on 10,000 random 11-card
hands (fixed seed) and prints the median, 99th percentile and worst time per hand.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hgin.cards.melds import best_arrangement, best_discard
from hgin.cards.model import Card, full_deck

HANDS = 10_000
SEED = 20240601


def time_each(function: Callable[[Sequence[Card]], object], hands: list[list[Card]]) -> list[float]:
    """Wall time of one call per hand, in microseconds."""
    clock = time.perf_counter_ns
    times: list[float] = []
    for hand in hands:
        start = clock()
        function(hand)
        times.append((clock() - start) / 1000)
    return times


def report(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * len(ordered)) - 1)]
    print(f"{name:<28} median {median:8.1f} µs   p99 {p99:8.1f} µs   worst {ordered[-1]:8.1f} µs")


def main() -> None:
    rng = random.Random(SEED)
    deck = list(full_deck())
    tens = [rng.sample(deck, 10) for _ in range(HANDS)]
    elevens = [rng.sample(deck, 11) for _ in range(HANDS)]
    for hand in tens[:200]:  # warm-up
        best_arrangement(hand)
    print(f"Python {sys.version.split()[0]}, {HANDS} hands each, seed {SEED}")
    report("best_arrangement (10 cards)", time_each(best_arrangement, tens))
    report("best_discard (11 cards)", time_each(best_discard, elevens))


if __name__ == "__main__":
    main()
