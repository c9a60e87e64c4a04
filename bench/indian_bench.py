"""Indian rummy solver benchmark: show checks and least counts per second, and the slowest hand.

Run by hand (``.venv/bin/python bench/indian_bench.py [--hands N] [--cpu]``).  No open-source
Indian rummy validator exists to compare with (none on PyPI; the GitHub ones are parts of
JavaScript/TypeScript games, with no exact count), so the peer in the same run is the
independent brute force of ``tests/test_indian.py`` (every subset of the 13 cards that is a
group, then every packing of them), on the first ``--brute`` hands; every answer of the
solver on those hands is checked against it.

Hands: 13 cards from one or two decks (chosen at random) after a random cut, with 0-6
jokers (printed jokers and cards of the wild rank, uniformly), the rest natural cards
drawn at random (*random*), or from six consecutive ranks (*rich*: many groups).  They
are read into card objects before timing; each call is the public API
(:func:`referee.indian.least_count`, :func:`referee.indian.check_show`) with its checks.
Rates are the best of ``--repeat`` passes with the garbage collector off; the slowest
hand is each hand's best of 3 single timings, maximised over the run.  ``--cpu`` times the
process's CPU instead of the wall clock (a shared machine disturbs it less).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import indian  # noqa: E402
from referee.cards import Card  # noqa: E402
from tests.test_indian import brute  # noqa: E402

Deal = tuple[tuple[Card, ...], Card, int]
ADVERSARIAL = (
    ("2H 3H 4H 5H 6H 7H 8H 9H 10H JK JK 7S 7D", "7C"),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "JK"),
    ("2H 3H 4H 5H 6H 8H 9H 10H JH JK JK 9C 9D", "9S"),
    ("5H 5S 5D 5C 6H 6S 6D 6C 7H 7S 7D 5H 6H", "9D"),
    ("9H 9S 9D 9H JK JK AS 4D 7C KS QS 2C 6H", "9C"),
)
CLOCK: Callable[[], float] = time.perf_counter


def deals(count: int, seed: int, rich: bool) -> list[Deal]:
    rnd = random.Random(seed)
    out: list[Deal] = []
    for _ in range(count):
        decks = rnd.choice((1, 2))
        pack = list(indian.deck(decks))
        cut = rnd.choice(pack)
        pack.remove(cut)
        wild = indian.wild_rank(cut)
        jokers = [c for c in pack if indian.is_joker(c, wild)]
        naturals = [c for c in pack if not indian.is_joker(c, wild)]
        if rich:
            low = rnd.randint(1, 8)
            naturals = [c for c in naturals if low <= int(c.rank or 0) < low + 6]
        chosen = rnd.sample(jokers, rnd.randint(0, min(6, len(jokers))))
        chosen += rnd.sample(naturals, 13 - len(chosen))
        rnd.shuffle(chosen)
        out.append((tuple(chosen), cut, decks))
    return out


def best_pass(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.disable()
        start = CLOCK()
        work()
        best = min(best, CLOCK() - start)
        gc.enable()
    return best


def slowest(call: Callable[[Deal], object], hands: Sequence[Deal]) -> tuple[float, Deal]:
    worst = (0.0, hands[0])
    gc.disable()
    for deal in hands:
        single = float("inf")
        for _ in range(3):
            start = CLOCK()
            call(deal)
            single = min(single, CLOCK() - start)
        if single > worst[0]:
            worst = (single, deal)
    gc.enable()
    return worst


def count(deal: Deal) -> indian.Count:
    return indian.least_count(deal[0], deal[1], decks=deal[2])


def show(deal: Deal) -> indian.ShowCheck:
    return indian.check_show(deal[0], deal[1], decks=deal[2])


def describe(deal: Deal) -> str:
    return f"{' '.join(map(str, deal[0]))} (cut {deal[1]})"


def main() -> None:
    global CLOCK
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--brute", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--cpu", action="store_true", help="time CPU instead of the wall clock")
    args = parser.parse_args()
    if args.cpu:
        CLOCK = time.process_time
    print(f"# Indian rummy solver, {platform.python_implementation()} {platform.python_version()}")
    print(f"load average before: {os.getloadavg()[0]:.1f}; clock: {'CPU' if args.cpu else 'wall'}")
    print()
    print("| hands | call | per second | mean ms | slowest ms | slowest hand |")
    print("|---|---|---:|---:|---:|---|")
    for name, rich in (("random", False), ("rich", True)):
        hands = deals(args.hands, args.seed, rich)
        for label, call in (("least count", count), ("show check", show)):
            total = best_pass(lambda call=call, hands=hands: [call(d) for d in hands], args.repeat)
            worst, deal = slowest(call, hands)
            print(
                f"| {name} | {label} | {len(hands) / total:,.0f} | {1000 * total / len(hands):.2f}"
                f" | {1000 * worst:.2f} | {describe(deal)} |"
            )
    print()
    print("Adversarial hands (best of 5, ms):")
    print()
    for cards, cut in ADVERSARIAL:
        deal = (indian.read_cards(cards), Card.parse(cut), 2)
        timing = best_pass(lambda deal=deal: count(deal), 5)
        print(f"- {describe(deal)}: {1000 * timing:.2f} (count {count(deal).count})")
    print()
    sample = deals(args.brute, args.seed + 1, False)[: args.brute // 2]
    sample += deals(args.brute, args.seed + 2, True)[: args.brute - len(sample)]
    solver = best_pass(lambda: [count(d) for d in sample], 1)
    start = CLOCK()
    answers = [brute(d[0], indian.wild_rank(d[1])) for d in sample]
    brute_time = CLOCK() - start
    agree = sum(
        count(d).points == points and show(d).valid == valid
        for d, (points, valid) in zip(sample, answers, strict=True)
    )
    print(
        f"Brute force (the peer): {len(sample)} hands, {len(sample) / brute_time:,.1f} per second "
        f"against the solver's {len(sample) / solver:,.0f} (x{brute_time / solver:,.0f}); "
        f"the solver agrees on {agree} of {len(sample)}."
    )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
