"""Benchmark: how fast ``referee.table`` settles a manipulation table, and the hint.

Builds seeded random tables of 20, 40, 60, 80 and 106 cards with 0, 1 and 2
jokers, half of them solvable (legal melds dealt from two decks and shuffled
together, some cards swapped for jokers) and half unsolvable (one card of such
a table swapped for another, kept when no arrangement exists), and times
``arrange`` on each: median and worst per size.  The same tables go to the
integer programme of the ``rummikub-solver`` package (den Hertog and Hulshof's
model, via cvxpy), and the ratio of the times is reported.

Every table is also timed through the search alone (the arranger's rank DP on the
table already read into counts, ``referee.arranger``), so that the cost of the public
call around it (reading the cards, counting the deck, building the melds) shows.

Then the "what can I play" hint: ``best_play`` for a hand of 10-14 cards
against tables of 20, 40, 60, 80 and 92 cards (92 is the largest table that
leaves a 14-card hand in the deck) laid out as melds, with 0, 1 or 2 of their
cards replaced by jokers naming them, the hand dealt from the rest of the deck
(a bare joker among them now and then): median and worst per size.

Run: ``python bench/table_bench.py [--tables N] [--hands N] [--seed S] [--repeat R]
[--cpu] [--gc-freeze] [--no-ilp] [--no-hint]``.  ``--repeat R`` times every call R
times and keeps the fastest, to see through a busy machine; ``--cpu`` times CPU time
instead of the wall clock (what the code costs, whatever else the machine is doing);
``--gc-freeze`` keeps the garbage collector from scanning what start-up loaded (with
cvxpy loaded a full collection takes about 15 ms; the referee runs with collections
off, but the integer programme, or an older referee, may trigger one).  106 cards is
the whole deck (104 cards and 2 jokers): with 0 or 1 jokers that row holds 104 and
105 cards, and no unsolvable table of that size exists (any whole deck is
solvable), so that row is solvable tables only.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.arranger import _decide_both_ways, _Problem  # noqa: E402
from referee.cards import SUITS, Card, Rank  # noqa: E402
from referee.notation import parse_cards  # noqa: E402
from referee.rulesets import find_ruleset  # noqa: E402
from referee.table import arrange, best_play  # noqa: E402

RULES = find_ruleset("manipulation")

SIZES = (20, 40, 60, 80, 106)
HINT_SIZES = (20, 40, 60, 80, 92)
CLOCK = time.perf_counter  # or time.process_time with --cpu
DECK = [Card(rank, suit) for suit in SUITS for rank in Rank]


def deal(rng: random.Random, size: int) -> list[Card] | None:
    """``size`` natural cards that form legal melds (runs, ace low or high, and sets)."""
    if size >= 104:
        return DECK * 2
    melds = deal_melds(rng, size)
    return None if melds is None else [card for meld in melds for card in meld]


def deal_melds(rng: random.Random, size: int) -> list[list[Card]] | None:
    """Legal melds (runs, ace low or high, and sets) of ``size`` cards from two decks."""
    pool = Counter({card: 2 for card in DECK})
    melds: list[list[Card]] = []
    total = 0
    for _ in range(2000):
        left = size - total
        if left == 0:
            return melds
        if left >= 3 and rng.random() < 0.8:
            if rng.random() < 0.5:
                length, suit = rng.choice([3, 3, 4, 5]), rng.choice(SUITS)
                length = min(length, left)
                start = rng.randint(1, 15 - length)
                cards = [
                    Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)
                ]
            else:
                rank = rng.choice(list(Rank))
                cards = [
                    Card(rank, suit) for suit in rng.sample(SUITS, min(left, rng.choice([3, 4])))
                ]
            if len(cards) >= 3 and all(pool[card] for card in cards):
                pool.subtract(cards)
                melds.append(cards)
                total += len(cards)
        elif melds:  # lay off one card to reach the size exactly
            meld = rng.choice(melds)
            extra = _lay_off(meld)
            if extra is not None and pool[extra]:
                pool[extra] -= 1
                meld.append(extra)
                total += 1
    return None


def _lay_off(meld: list[Card]) -> Card | None:
    rank, suit = meld[0].rank, meld[0].suit
    assert rank is not None and suit is not None
    ranks = {card.rank for card in meld}
    if len(ranks) == 1:
        missing = [other for other in SUITS if other not in {card.suit for card in meld}]
        return Card(rank, missing[0]) if missing else None
    positions = sorted(
        14 if (c.rank is Rank.ACE and Rank.KING in ranks) else int(c.rank or 0) for c in meld
    )
    if positions[-1] < 13 or (positions[-1] == 13 and positions[0] > 1):
        top = positions[-1] + 1
        return Card(Rank(1 if top == 14 else top), suit)
    if positions[0] > 1 and positions[-1] < 14:
        return Card(Rank(positions[0] - 1), suit)
    return None


def solvable_table(rng: random.Random, size: int, jokers: int) -> list[str]:
    naturals = size - jokers if size < 106 else 104
    while True:
        cards = deal(rng, naturals + jokers if size < 106 else 104)
        if cards is not None:
            break
    cards = list(cards)
    rng.shuffle(cards)
    if size < 106:  # the jokers stand in for cards of the melds
        cards = cards[jokers:]
    return [str(card) for card in cards] + ["JK"] * jokers


def unsolvable_table(rng: random.Random, size: int, jokers: int) -> list[str] | None:
    for _ in range(400):
        cards = solvable_table(rng, size, jokers)
        naturals = [c for c in cards if c != "JK"]
        counts = Counter(naturals)
        spare = [str(c) for c in DECK if counts[str(c)] < 2]
        if not spare:
            return None
        i = rng.randrange(len(naturals))
        naturals[i] = rng.choice(spare)
        table = naturals + ["JK"] * jokers
        if arrange([], table, 3) is None:
            return table
    return None


class Ilp:
    """The same question put to rummikub-solver's integer programme."""

    def __init__(self) -> None:
        warnings.filterwarnings("ignore")
        from rummikub_solver import RuleSet

        self.rules = RuleSet(numbers=13, repeats=2, colours=4, jokers=2, min_len=3)
        self.tiles = self.rules.tiles
        self.backend = str(self.rules.backend)

    def tile(self, code: str) -> Any:
        if code == "JK":
            return self.tiles[-1]
        card = Card.parse(code)
        assert card.suit is not None and card.rank is not None
        return self.tiles[SUITS.index(card.suit) * 13 + int(card.rank) - 1]

    def arrangeable(self, table: list[str]) -> tuple[bool, float]:
        state = self.rules.new_game()
        state.add_table(*(self.tile(code) for code in table))
        start = CLOCK()
        found = self.rules.arrange_table(state)
        elapsed = CLOCK() - start
        # rummikub-solver may leave jokers aside ("free jokers"); the referee adds them to
        # the melds, which is always possible once a run is on the table
        return found is not None, elapsed


def timed(table: list[str], repeat: int = 1) -> tuple[bool, float, float]:
    """Whether ``table`` can be arranged, and the fastest of ``repeat`` timings of the
    public call and of the search alone."""
    best = search = float("inf")
    cards = parse_cards(table)
    for _ in range(repeat):
        start = CLOCK()
        found = arrange([], table, 3)
        best = min(best, CLOCK() - start)
        problem = _Problem.for_turn((), cards, RULES, 3)
        start = CLOCK()
        _decide_both_ways(problem.table, problem.free_jokers)
        search = min(search, CLOCK() - start)
    return found is not None, best, search


def hint_case(rng: random.Random, size: int, jokers: int) -> tuple[list[list[str]], list[str]]:
    """A table of ``size`` cards as melds with ``jokers`` of them jokers naming their card,
    and a hand of 10-14 cards from the rest of the deck (now and then a bare joker)."""
    while True:
        melds = deal_melds(rng, size)
        if melds is not None:
            break
    placed = 0
    while placed < jokers:
        meld = rng.choice(melds)
        i = rng.randrange(len(meld))
        if not meld[i].is_joker:
            meld[i] = Card.joker(meld[i])
            placed += 1
    pool = Counter({card: 2 for card in DECK})
    pool.subtract(card for meld in melds for card in meld if not card.is_joker)
    naturals = sorted(pool.elements(), key=str)
    hand_size = rng.randint(10, 14)
    hand_jokers = 1 if jokers < 2 and rng.random() < 0.3 else 0
    if hand_size - hand_jokers > len(naturals):  # a big table leaves few cards
        hand_jokers = min(2 - jokers, hand_size - len(naturals))
        hand_size = min(hand_size, len(naturals) + hand_jokers)
    hand = rng.sample(naturals, hand_size - hand_jokers)
    names = [str(card) for card in hand] + ["JK"] * hand_jokers
    return [[str(card) for card in meld] for meld in melds], names


def hint_bench(rng: random.Random, hands: int, repeat: int) -> None:
    print()
    print("the hint: best_play for a hand of 10-14 cards")
    print(
        f"{'table':>5} {'n':>3} {'median ms':>10} {'worst ms':>9} {'p90 ms':>7} "
        f"{'cards played':>13} {'whole hand':>11}"
    )
    for size in HINT_SIZES:
        times, played, held, whole = [], 0, 0, 0
        for index in range(hands):
            table, hand = hint_case(rng, size, index % 3)
            best = float("inf")
            for _ in range(repeat):
                start = CLOCK()
                play = best_play(hand, table, 3)
                best = min(best, CLOCK() - start)
            times.append(best)
            played += len(play.cards)
            held += len(hand)
            whole += len(play.cards) == len(hand)
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"{size:>5} {hands:>3} {statistics.median(times) * 1e3:>10.2f} "
            f"{times[-1] * 1e3:>9.2f} {p90 * 1e3:>7.2f} {played / held:>12.0%} "
            f"{whole:>7}/{hands}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10, help="tables per kind (default 10)")
    parser.add_argument("--hands", type=int, default=30, help="hint hands per size (default 30)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=1, help="keep the fastest of R timings")
    parser.add_argument("--no-ilp", action="store_true", help="skip rummikub-solver")
    parser.add_argument("--no-hint", action="store_true", help="skip the hint")
    parser.add_argument(
        "--cpu", action="store_true", help="time the referee's CPU time, not the wall clock"
    )
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="freeze the objects loaded at start-up, so that garbage collections skip them",
    )
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    print(
        f"clock: {'process CPU time' if args.cpu else 'wall'}, fastest of {args.repeat}"
        f"{', start-up objects frozen for the garbage collector' if args.gc_freeze else ''}"
    )
    rng = random.Random(args.seed)
    ilp = None if args.no_ilp else Ilp()
    arrange([], "7S 8S 9S JK", 3)  # warm up both
    if ilp is not None:
        ilp.arrangeable(["7S", "8S", "9S"])
    if args.gc_freeze:
        # what is loaded by now (cvxpy, scipy: ~80,000 objects) stays: a full garbage
        # collection that a timed call happens to trigger then does not scan it (~15 ms)
        gc.collect()
        gc.freeze()

    rows = []
    print(
        f"{'cards':>5} {'jokers':>6} {'kind':>10} {'n':>3} {'median ms':>10} {'worst ms':>9}",
        end="",
    )
    print("" if ilp is None else f" {'ILP median':>10} {'ILP worst':>9} {'agree':>6}")
    all_times: dict[int, list[float]] = {size: [] for size in SIZES}
    search_times: dict[int, list[float]] = {size: [] for size in SIZES}
    ilp_times: dict[int, list[float]] = {size: [] for size in SIZES}
    for size in SIZES:
        for jokers in (0, 1, 2):
            kinds = {"solvable": [solvable_table(rng, size, jokers) for _ in range(args.tables)]}
            if size < 106:
                made = [unsolvable_table(rng, size, jokers) for _ in range(args.tables)]
                kinds["unsolvable"] = [table for table in made if table is not None]
            for kind, tables in kinds.items():
                if not tables:
                    print(f"{size:>5} {jokers:>6} {kind:>10}   0  (none found)")
                    continue
                ours, theirs, agree = [], [], 0
                for table in tables:
                    answer, elapsed, search = timed(table, args.repeat)
                    assert answer == (kind == "solvable"), (size, jokers, kind, table)
                    ours.append(elapsed)
                    search_times[size].append(search)
                    if ilp is not None:
                        their_answer, their_time = ilp.arrangeable(table)
                        theirs.append(their_time)
                        agree += their_answer == answer
                all_times[size].extend(ours)
                ilp_times[size].extend(theirs)
                line = (
                    f"{size:>5} {jokers:>6} {kind:>10} {len(tables):>3} "
                    f"{statistics.median(ours) * 1e3:>10.2f} {max(ours) * 1e3:>9.2f}"
                )
                if theirs:
                    line += (
                        f" {statistics.median(theirs) * 1e3:>10.2f} {max(theirs) * 1e3:>9.2f}"
                        f" {agree:>3}/{len(tables)}"
                    )
                print(line, flush=True)
                rows.append((size, jokers, kind, ours, theirs, agree))
    print()
    print("per size, all tables (search: the search alone, the same tables):")
    print(f"{'cards':>5} {'median ms':>10} {'worst ms':>9} {'search median':>14}", end="")
    print("" if ilp is None else f" {'ILP median':>10} {'ILP worst':>9} {'ILP/ours (median)':>18}")
    for size in SIZES:
        ours = all_times[size]
        line = (
            f"{size:>5} {statistics.median(ours) * 1e3:>10.2f} {max(ours) * 1e3:>9.2f}"
            f" {statistics.median(search_times[size]) * 1e3:>14.2f}"
        )
        if ilp_times[size]:
            theirs = ilp_times[size]
            ratio = statistics.median(theirs) / statistics.median(ours)
            line += (
                f" {statistics.median(theirs) * 1e3:>10.2f} {max(theirs) * 1e3:>9.2f}"
                f" {ratio:>18.1f}"
            )
        print(line)
    first, last = all_times[SIZES[0]], all_times[SIZES[-1]]
    print(
        f"growth 20 -> 106 cards: median x{statistics.median(last) / statistics.median(first):.1f}, "
        f"worst x{max(last) / max(first):.2f} (cards x{106 / 20:.1f})"
    )
    if ilp is not None:
        print(f"ILP backend: {ilp.backend} (via cvxpy)")
    if not args.no_hint:
        hint_bench(random.Random(args.seed + 1), args.hands, args.repeat)


if __name__ == "__main__":
    main()
