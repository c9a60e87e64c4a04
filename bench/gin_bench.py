"""Gin solver benchmark: remi-referee against OpenSpiel (C++) and RLCard (Python).

Run by hand (``make bench`` or ``.venv/bin/python bench/gin_bench.py [--hands N]``).  In
one process, on the same seeded hands, it times:

* 10 cards, least deadwood: ours (``deadwood_of_mask``), OpenSpiel's C++
  ``GinRummyUtils.min_deadwood`` and RLCard's ``melding.get_best_meld_clusters``;
* 11 cards, exact best discard: ours (``best_discard_of_mask``, which also names the
  discard), OpenSpiel's exact path (its C++ 10-card minimum called once per possible
  discard) and RLCard the same way; OpenSpiel's own 11-card shortcut is timed and its
  wrong answers counted, for information;
* ours through the public API (card objects in, ``Arrangement`` out), for information;

for random hands (from 52 cards) and meld-rich hands (from the 24 cards 4-9 of every
suit).  Every engine receives the hands in its own form, prepared before timing: a bit
mask for us, a list of card ids for OpenSpiel, RLCard ``Card`` objects for RLCard.  Each
timing is the best of ``--repeat`` passes with the garbage collector off.  The slowest hand
is each hand's best of 3 single timings, maximised over the run; adversarial hands with
the most set choices are timed too.  Every answer is checked against OpenSpiel.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee import gin  # noqa: E402
from referee.cards import SUITS, Card, standard_deck  # noqa: E402

DECK = tuple(standard_deck())
RICH_DECK = tuple(c for c in DECK if c.rank is not None and 4 <= c.rank <= 9)
ADVERSARIAL = (
    "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D",
    "6S 7S 8S 6H 7H 8H 6D 7D 8D 6C 7C",
    "5S 6S 7S 5H 6H 7H 5D 6D 7D 5C 6C",
    "4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C",
)
_OS_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}


def os_id(card: Card) -> int:
    assert card.rank is not None and card.suit is not None
    return _OS_SUIT[card.suit.value] * 13 + card.rank - 1


def rl_id(card: Card) -> int:
    assert card.rank is not None and card.suit is not None
    return SUITS.index(card.suit) * 13 + card.rank - 1


def best_time(solve: Callable[[Any], object], items: Sequence[Any], repeat: int) -> float:
    """The best of ``repeat`` passes of ``solve`` over every item, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        gc.disable()
        start = time.perf_counter()
        for item in items:
            solve(item)
        best = min(best, time.perf_counter() - start)
        gc.enable()
    return best


def slowest(solve: Callable[[int], object], masks: Sequence[int]) -> tuple[float, float]:
    """(max over hands of the best of 3 timings, max single timing), in microseconds."""
    clock = time.perf_counter_ns
    worst = worst_single = 0
    gc.disable()
    for mask in masks:
        best = 1 << 62
        for _ in range(3):
            start = clock()
            solve(mask)
            spent = clock() - start
            best = min(best, spent)
            worst_single = max(worst_single, spent)
        worst = max(worst, best)
    gc.enable()
    return worst / 1000, worst_single / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10000, help="hands per workload")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes (best is kept)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import pyspiel
            from rlcard.games.gin_rummy.utils import melding
            from rlcard.games.gin_rummy.utils import utils as rl_utils
        except ImportError as missing:
            print(
                f"gin_bench skipped: it needs the bench extra (pip install -e '.[bench]'): {missing}"
            )
            return 0

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    os_min = utils.min_deadwood
    rl_deck = rl_utils.get_deck()
    best_clusters = melding.get_best_meld_clusters
    rl_count = rl_utils.get_deadwood_count
    rl_value = rl_utils.get_deadwood_value

    def rl_deadwood(hand: list[Any]) -> int:
        clusters = best_clusters(hand)
        if clusters:
            return int(rl_count(hand, clusters[0]))
        return sum(rl_value(c) for c in hand)

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs;")
    print(f"{args.hands} hands per workload, seed {args.seed}, best of {args.repeat} passes\n")
    rows: list[tuple[str, str, float]] = []
    targets: list[tuple[str, bool | None, str]] = []
    worst_all = 0.0
    worst_single_all = 0.0

    def os_exact(hand: list[int]) -> int:
        return min([os_min(hand[:i] + hand[i + 1 :]) for i in range(11)])

    def rl_exact(hand: list[Any]) -> int:
        return min([rl_deadwood(hand[:i] + hand[i + 1 :]) for i in range(11)])

    for kind, deck in (("random", DECK), ("meld-rich", RICH_DECK)):
        rng = random.Random(f"{args.seed}-{kind}")
        for size in (10, 11):
            hands = [rng.sample(deck, size) for _ in range(args.hands)]
            masks = [gin.mask_of(h) for h in hands]
            ids = [[os_id(c) for c in h] for h in hands]
            rl_hands = [[rl_deck[rl_id(c)] for c in h] for h in hands]
            workload = f"{size} cards {kind}"

            # Every answer checked first; the timed runs below only repeat the work.
            if size == 10:
                solve: Callable[[int], object] = gin.deadwood_of_mask
                ours_values = [gin.deadwood_of_mask(m) for m in masks]
                assert ours_values == [os_min(i) for i in ids], "disagreement with OpenSpiel"
                assert ours_values == [rl_deadwood(h) for h in rl_hands], "disagreement: RLCard"
                engines: list[tuple[str, Callable[[Any], object], Sequence[Any]]] = [
                    ("remi-referee (mask)", solve, masks),
                    ("remi-referee public API", gin.best_arrangement, hands),
                    ("OpenSpiel C++ min_deadwood", os_min, ids),
                    ("RLCard melding", rl_deadwood, rl_hands),
                ]
            else:
                solve = gin.best_discard_of_mask
                ours_values = [gin.best_discard_of_mask(m)[0] for m in masks]
                exact_values = [os_exact(i) for i in ids]
                assert ours_values == exact_values, "disagreement with OpenSpiel's exact path"
                wrong = sum(os_min(i) != e for i, e in zip(ids, exact_values, strict=True))
                engines = [
                    ("remi-referee (mask)", solve, masks),
                    ("remi-referee public API", gin.best_arrangement, hands),
                    ("OpenSpiel exact (11 x C++)", os_exact, ids),
                    (f"OpenSpiel 11-card shortcut ({wrong} wrong)", os_min, ids),
                    ("RLCard exact (11 x melding)", rl_exact, rl_hands),
                ]
            # Passes interleaved across engines, so that each best pass is taken under
            # comparable machine load.
            best = [float("inf")] * len(engines)
            for _ in range(args.repeat):
                for index, (_name, engine, items) in enumerate(engines):
                    best[index] = min(best[index], best_time(engine, items, 1))
            speed = {
                name: len(hands) / seconds
                for (name, _, _), seconds in zip(engines, best, strict=True)
            }
            for name, per_second in speed.items():
                rows.append((workload, name, per_second))
            ours = speed["remi-referee (mask)"]
            if size == 10:
                rl = speed["RLCard melding"]
                native = speed["OpenSpiel C++ min_deadwood"]
                targets.append((f"{workload}: >= 2x RLCard", ours >= 2 * rl, f"{ours / rl:.1f}x"))
                targets.append(
                    (f"{workload}: vs OpenSpiel native C++", None, f"{ours / native:.2f}x")
                )
            else:
                rl = speed["RLCard exact (11 x melding)"]
                exact = speed["OpenSpiel exact (11 x C++)"]
                targets.append((f"{workload}: >= 2x RLCard", ours >= 2 * rl, f"{ours / rl:.1f}x"))
                targets.append(
                    (
                        f"{workload}: >= 1x OpenSpiel exact path",
                        ours >= exact,
                        f"{ours / exact:.1f}x",
                    )
                )
            worst, worst_single = slowest(solve, masks)
            rows.append(
                (
                    workload,
                    f"slowest hand (us): {worst:.1f} best-of-3, {worst_single:.1f} single",
                    -1,
                )
            )
            worst_all = max(worst_all, worst)
            worst_single_all = max(worst_single_all, worst_single)

    adversarial = [gin.mask_of(Card.parse(t) for t in text.split()) for text in ADVERSARIAL]
    adv_worst = 0.0
    for mask in adversarial:
        for solve in (gin.best_discard_of_mask, gin.deadwood_of_mask):
            adv_worst = max(adv_worst, slowest(solve, [mask] * 20)[0])

    print(f"{'workload':<20} {'engine':<42} {'hands/s':>12}")
    for workload, engine, per_second in rows:
        figure = f"{per_second:12,.0f}" if per_second >= 0 else ""
        print(f"{workload:<20} {engine:<42} {figure}")
    print()
    targets.append(
        (
            "slowest hand in the run < 100 us",
            worst_all < 100,
            f"{worst_all:.1f} us (single-shot max {worst_single_all:.1f} us)",
        )
    )
    targets.append(
        ("adversarial hands (most set choices) < 100 us", adv_worst < 100, f"{adv_worst:.1f} us")
    )
    for name, met, figure in targets:
        label = "info" if met is None else "met " if met else "MISS"
        print(f"{label}  {name:<48} {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
