"""Benchmark: how fast the Rummikub referee settles a table of tiles, puts it back, hints.

Three rows of figures, each the median and the worst over seeded random cases:

* **tables**: ``put_back([], tiles)`` on tables of 20, 40, 60, 80 and 106 tiles
  with 0-2 jokers, half solvable (legal sets dealt from the 104 tiles, shuffled,
  some tiles swapped for jokers) and half unsolvable (one tile of such a table
  swapped for another, kept when no layout exists).  106 is the whole set, and
  its row also holds the whole set less one to three tiles (103-105 tiles, with or
  without a layout).
* **put back**: a dealt table of 40-90 tiles plus 3-8 tiles added from a rack of
  which one or two fit nowhere, so that the search has to find the most that can
  stay (the "put the table back" search when the whole cannot be laid out).
* **hint**: ``hint`` for a rack of 14 against tables of 20-90 tiles.

The same tables go to the integer programme of the ``rummikub-solver`` package
(``RuleSet.arrange_table``; its hint ``RuleSet.solve`` in tile-count mode), and
the ratio of the medians is reported.  rummikub-solver may leave jokers aside as
"free jokers"; the referee places every joker, so the yes/no answers may differ
on tables whose only trouble is a joker with no room, which is counted.

Times are CPU time of this process (``time.process_time``) unless ``--wall``: the
machine the figures were taken on is shared, and CPU time is what the code costs.

A hunt for hard tables follows: from random tables of 40, 60, 90 and 100 tiles,
tiles are swapped as long as the decision walks more keys (its measure of work).

Run: ``python bench/tiles_bench.py [--cases N] [--seed S] [--no-ilp] [--wall] [--hunt STEPS]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rummikub import check_turn, hint, put_back  # noqa: E402
from referee.tile_solver import _mirrored, _OutOfKeys, _Search, problem_of, solve  # noqa: E402
from referee.tiles import RUMMIKUB_TILES, Tile  # noqa: E402

COLOURS = RUMMIKUB_TILES.letters
REAL = RUMMIKUB_TILES.tiles()
CLOCK = time.process_time  # time.perf_counter with --wall


def dealt_sets(rng: random.Random, size: int) -> list[list[Tile]]:
    """Legal sets dealt from the 104 real tiles until about ``size`` tiles are out."""
    pool = Counter({tile: 2 for tile in REAL})
    sets: list[list[Tile]] = []
    total = 0
    for _ in range(2000):
        if total >= size:
            break
        if rng.random() < 0.5:
            length, colour = rng.choice([3, 3, 4, 5, 6]), rng.choice(COLOURS)
            start = rng.randint(1, 14 - length)
            tiles = [Tile(colour, n) for n in range(start, start + length)]
        else:
            tiles = [Tile(c, rng.randint(1, 13)) for c in rng.sample(COLOURS, rng.choice([3, 4]))]
            if len({t.number for t in tiles}) > 1:
                tiles = [Tile(t.colour, tiles[0].number) for t in tiles]
        if all(pool[t] >= tiles.count(t) for t in tiles) and total + len(tiles) <= size:
            pool.subtract(tiles)
            sets.append(tiles)
            total += len(tiles)
    return sets


def loose(rng: random.Random, sets: list[list[Tile]], jokers: int) -> list[Tile]:
    tiles = [t for s in sets for t in s]
    for _ in range(jokers):
        at = rng.randrange(len(tiles))
        if not tiles[at].is_joker:
            tiles[at] = Tile.joker()
    rng.shuffle(tiles)
    return tiles


def whole_set_cases(rng: random.Random, count: int) -> list[list[Tile]]:
    """The whole set (106 tiles), and the whole set less one to three tiles (any set
    of 104 real tiles holds every tile twice, so no other table of 106 exists)."""
    cases = [RUMMIKUB_TILES.full_set()]
    while len(cases) < count:
        tiles = RUMMIKUB_TILES.full_set()
        for _ in range(rng.randint(1, 3)):
            tiles.pop(rng.randrange(len(tiles)))
        rng.shuffle(tiles)
        cases.append(tiles)
    return cases


def full_table_turn() -> tuple[list[list[str]], list[str], list[list[str]]]:
    """The worst turn on the table: all 106 tiles on it after the turn, both jokers in groups
    of three (each readable with two colours, before and after), every run rearranged.

    Before: each colour's run 1-13, its run 2-12 (the orange and red ones missing 13, the
    player's), K1 B1 JK=O1 and O1 R1 JK=K1.  The player plays O13 R13; after, every long run
    is split in two and the short ones take the 13s."""
    before: list[list[str]] = []
    after: list[list[str]] = []
    for colour in COLOURS:
        whole = [f"{colour}{n}" for n in range(1, 14)]
        short = [f"{colour}{n}" for n in range(2, 13 if colour in "OR" else 14)]
        before += [whole, short]
        after += [whole[:6], whole[6:], short + ([f"{colour}13"] if colour in "OR" else [])]
    groups = [["K1", "B1", "JK=O1"], ["O1", "R1", "JK=K1"]]
    return before + groups, ["O13", "R13"], after + [["K1", "B1", "JK=R1"], groups[1]]


def keys_walked(tiles: list[Tile]) -> int:
    """How many keys the decision walks for ``tiles`` (the search's own measure of work):
    both walks, from the lowest and from the highest number, as ``solve`` takes turns."""
    problem = problem_of(tiles)
    walks = [_Search(problem), _Search(_mirrored(problem))]
    limit = 500
    while True:
        for search in walks:
            search.limit = limit
            try:
                search.best(search.start(), 0)
            except _OutOfKeys:
                continue
            return sum(len(walk.memo) for walk in walks)
        limit *= 2


def hunt(rng: random.Random, size: int, steps: int) -> list[Tile]:
    """A hard table of ``size`` tiles: from a random one, swap tiles for tiles left in the
    box and keep a swap when the decision walks more keys (the whole set, 106, is the
    only table of 106 tiles)."""
    tiles = rng.sample(RUMMIKUB_TILES.full_set(), size)
    work = keys_walked(tiles)
    for _ in range(steps):
        trial = list(tiles)
        for _ in range(rng.randint(1, 3)):
            spare = Counter(RUMMIKUB_TILES.full_set()) - Counter(trial)
            trial[rng.randrange(len(trial))] = rng.choice(list(spare.elements()))
        trial_work = keys_walked(trial)
        if trial_work > work:
            tiles, work = trial, trial_work
    return tiles


class Ilp:
    """The same questions put to rummikub-solver's integer programme."""

    def __init__(self) -> None:
        warnings.filterwarnings("ignore")
        from rummikub_solver import RuleSet

        self.rules = RuleSet(numbers=13, repeats=2, colours=4, jokers=2, min_len=3)
        self.tiles = self.rules.tiles

    def tile(self, tile: Tile) -> Any:
        if tile.is_joker:
            return self.tiles[-1]
        return self.tiles[COLOURS.index(tile.colour) * 13 + tile.number - 1]

    def arrangeable(self, table: list[Tile]) -> tuple[bool, float]:
        state = self.rules.new_game()
        state.add_table(*(self.tile(t) for t in table))
        start = CLOCK()
        found = self.rules.arrange_table(state)
        return found is not None, CLOCK() - start

    def hint(self, table: list[Tile], rack: list[Tile]) -> tuple[int, float]:
        from rummikub_solver import SolverMode

        state = self.rules.new_game()
        state.initial = False
        state.add_table(*(self.tile(t) for t in table))
        state.add_rack(*(self.tile(t) for t in rack))
        start = CLOCK()
        found = self.rules.solve(state, SolverMode.TILE_COUNT)
        return (len(found.tiles) if found else 0), CLOCK() - start


def timed(call: Any, *args: Any) -> tuple[Any, float]:
    start = CLOCK()
    result = call(*args)
    return result, CLOCK() - start


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f}"


def report(label: str, ours: list[float], peer: list[float]) -> None:
    line = f"{label:<28} median {ms(statistics.median(ours))} ms  worst {ms(max(ours))} ms"
    if peer:
        ratio = statistics.median(peer) / statistics.median(ours)
        line += f"   rummikub-solver median {ms(statistics.median(peer))} ms (x{ratio:,.0f})"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-ilp", action="store_true")
    parser.add_argument("--wall", action="store_true")
    parser.add_argument("--hunt", type=int, default=300, help="steps of the hard-table hunt")
    args = parser.parse_args()
    if args.wall:
        global CLOCK
        CLOCK = time.perf_counter
    rng = random.Random(args.seed)
    ilp = None if args.no_ilp else Ilp()
    differ = 0

    print("tables: the decision (is there a layout of every tile?), then put_back (which")
    print("also finds the most tiles that can stay when there is none)")
    for size in (20, 40, 60, 80, 106):
        ours: list[float] = []
        decide: list[float] = []
        peer: list[float] = []
        cases: list[list[Tile]] = []
        if size == 106:
            cases = whole_set_cases(rng, args.cases)
        else:
            while len(cases) < args.cases:
                tiles = loose(rng, dealt_sets(rng, size), rng.randint(0, 2))
                if len(cases) % 2:
                    at = [i for i, t in enumerate(tiles) if not t.is_joker]
                    tiles[rng.choice(at)] = rng.choice(REAL)
                    if max(Counter(t for t in tiles if not t.is_joker).values()) > 2:
                        continue
                cases.append(tiles)
        for tiles in cases:
            decide.append(timed(solve, problem_of(tiles))[1])
            found, seconds = timed(put_back, [], tiles)
            ours.append(seconds)
            if ilp is not None:
                yes, peer_seconds = ilp.arrangeable(tiles)
                peer.append(peer_seconds)
                differ += yes != found.complete
        report(f"  {size} tiles, decision", decide, peer)
        report(f"  {size} tiles, put_back", ours, [])

    print("a turn checked on the full table (106 tiles after it, jokers in groups of three)")
    before, played, after = full_table_turn()
    ours, peer = [], []
    for _ in range(args.cases):
        verdict, seconds = timed(check_turn, before, played, after)
        assert verdict.legal, verdict.reasons
        ours.append(seconds)
        if ilp is not None:
            tiles = [Tile.parse(t).on_rack for s in after for t in s]
            yes, peer_seconds = ilp.arrangeable(tiles)
            differ += not yes
            peer.append(peer_seconds)
    report("  the whole table, a turn", ours, peer)

    print(f"the hardest tables a hunt of {args.hunt} steps found (the decision)")
    for size in (40, 60, 90, 100):
        tiles = hunt(rng, size, args.hunt)
        found, seconds = timed(solve, problem_of(tiles))
        line = f"  {size} tiles: {keys_walked(tiles)} keys, {ms(seconds)} ms"
        line += f", {'a layout' if found else 'no layout'}"
        if ilp is not None:
            yes, peer_seconds = ilp.arrangeable(tiles)
            differ += yes != (found is not None)
            line += f"; rummikub-solver {ms(peer_seconds)} ms"
        print(line, flush=True)

    print("put back (3-8 tiles added, one or two fitting nowhere: the most that can stay)")
    for size in (40, 60, 90):
        ours = []
        for _ in range(args.cases):
            sets = dealt_sets(rng, size)
            table = [[str(t) for t in s] for s in sets]
            used = Counter(t for s in sets for t in s)
            spare = [t for t in REAL for _ in range(2 - used[t])]
            added = rng.sample(spare, min(len(spare), rng.randint(3, 8)))
            _, seconds = timed(put_back, table, added)
            ours.append(seconds)
        report(f"  table of {size}", ours, [])

    print("hint (a rack of 14 against a table laid out as sets)")
    for size in (20, 40, 60, 90):
        ours, peer = [], []
        for _ in range(args.cases):
            sets = dealt_sets(rng, size)
            used = Counter(t for s in sets for t in s)
            spare = [t for t in REAL for _ in range(2 - used[t])]
            rack = rng.sample(spare, 14)
            table = [[str(t) for t in s] for s in sets]
            found, seconds = timed(hint, rack, table)
            ours.append(seconds)
            if ilp is not None:
                count, peer_seconds = ilp.hint([t for s in sets for t in s], rack)
                peer.append(peer_seconds)
                differ += count != len(found.tiles)
        report(f"  table of {size}", ours, peer)
    if ilp is not None:
        print(f"answers that differ from rummikub-solver: {differ}")


if __name__ == "__main__":
    main()
