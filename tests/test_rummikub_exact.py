"""The tile arranger and the best first meld against an independent brute force.

The brute force knows nothing of the solver's states: it takes the first tile
left and tries every group and every run that could hold it (jokers filling any
gap or missing colour), recursively, with memoisation on what is left.  It is
slow, so the random tables are small (up to a dozen tiles, within a few numbers).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rummikub import best_first_meld, check_turn, hint, put_back
from referee.tile_sets import check_set
from referee.tile_solver import _mirrored, _Search, _unmirrored, problem_of
from referee.tiles import RUMMIKUB_TILES, Tile

COLOURS = RUMMIKUB_TILES.letters
NUMBERS = range(1, 14)
NONE = -1


def brute_best(
    tiles: Counter[tuple[int, int]], jokers: int, optional: bool, count: bool = False
) -> int:
    """The most value laid out as legal sets (a tile worth its number, a joker the number
    it stands for; with ``count``, every tile and joker worth 1); with ``optional`` False
    every tile and joker must be placed (NONE when impossible, else the value)."""

    def worth(numbers: list[int]) -> int:
        return len(numbers) if count else sum(numbers)

    keys = sorted(tiles)

    @cache
    def best(left: tuple[int, ...], wild: int) -> int:
        first = next((i for i, n in enumerate(left) if n), None)
        if first is None:
            return 0 if (optional or wild == 0) else NONE
        c, n = keys[first]
        rest = list(left)
        rest[first] -= 1
        found = best(tuple(rest), wild) if optional else NONE
        # groups holding this tile: 3 or 4 distinct colours, jokers for the missing ones
        for size in (3, 4):
            for others in range(size):
                need = size - 1 - others
                if need > wild:
                    continue
                for colours in combinations([o for o in range(4) if o != c], others):
                    at = [keys.index((o, n)) for o in colours if (o, n) in tiles]
                    if len(at) < others or any(not rest[i] for i in at):
                        continue
                    after = list(rest)
                    for i in at:
                        after[i] -= 1
                    value = best(tuple(after), wild - need)
                    if value != NONE:
                        found = max(found, value + worth([n] * size))
        # runs holding this tile, from low to high
        for low in range(1, n + 1):
            for high in range(max(n, low + 2), 14):
                value = fill(rest, [q for q in range(low, high + 1) if q != n], c, wild)
                if value != NONE:
                    found = max(found, value + worth(list(range(low, high + 1))))
        return found

    def fill(left: list[int], numbers: list[int], c: int, wild: int) -> int:
        if not numbers:
            return best(tuple(left), wild)
        key = (c, numbers[0])
        found = NONE
        if key in tiles and left[keys.index(key)]:
            left[keys.index(key)] -= 1
            found = fill(left, numbers[1:], c, wild)
            left[keys.index(key)] += 1
        if wild:
            found = max(found, fill(left, numbers[1:], c, wild - 1))
        return found

    return best(tuple(tiles[key] for key in keys), jokers)


def near_tiles(size: int) -> st.SearchStrategy[list[Tile]]:
    """A few tiles within four numbers (so that sets are likely), at most two of each."""
    return st.integers(1, 10).flatmap(
        lambda low: st.lists(
            st.sampled_from([Tile(c, n) for c in COLOURS for n in range(low, low + 4)]),
            min_size=2,
            max_size=size,
        ).filter(lambda tiles: max(Counter(tiles).values()) <= 2)
    )


def cells(tiles: list[Tile]) -> Counter[tuple[int, int]]:
    return Counter((COLOURS.index(t.colour), t.number) for t in tiles)


def all_legal(sets: tuple[tuple[Tile, ...], ...]) -> bool:
    return all(check_set(tiles).legal for tiles in sets)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_tiles(10), st.integers(0, 2))
def test_the_arranger_agrees_with_brute_force(tiles: list[Tile], jokers: int) -> None:
    added = [*tiles, *[Tile.joker()] * jokers]
    found = put_back([], added)
    expected = brute_best(cells(tiles), jokers, optional=False) != NONE
    assert found.complete == expected
    if found.complete:  # the layout passes the turn referee
        assert all_legal(found.layout.sets)
        assert check_turn([], added, [list(s) for s in found.layout.sets]).legal


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_tiles(9), st.integers(0, 2))
def test_the_best_first_meld_agrees_with_brute_force(tiles: list[Tile], jokers: int) -> None:
    rack = [*tiles, *[Tile.joker()] * jokers]
    found = best_first_meld(rack)
    assert found.score == brute_best(cells(tiles), jokers, optional=True)
    assert all_legal(found.sets)
    assert sum(sum(t.number for t in s) for s in found.sets) == found.score
    assert not Counter(t.on_rack for s in found.sets for t in s) - Counter(rack)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_tiles(9), st.integers(0, 2))
def test_the_most_tiles_a_rack_can_play_agrees_with_brute_force(
    tiles: list[Tile], jokers: int
) -> None:
    rack = [*tiles, *[Tile.joker()] * jokers]
    found = hint(rack, [])
    assert len(found.tiles) == brute_best(cells(tiles), jokers, optional=True, count=True)
    if found.layout is not None:
        assert all_legal(found.layout.sets)


def dealt_sets(rng: random.Random, count: int) -> list[list[Tile]]:
    """Legal sets dealt from the 104 real tiles: runs and groups."""
    pool = Counter({tile: 2 for tile in RUMMIKUB_TILES.tiles()})
    sets: list[list[Tile]] = []
    for _ in range(400):
        if len(sets) == count:
            break
        if rng.random() < 0.5:
            length, colour = rng.choice([3, 3, 4, 5, 7]), rng.choice(COLOURS)
            start = rng.randint(1, 14 - length)
            tiles = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = rng.choice(NUMBERS)
            tiles = [Tile(c, number) for c in rng.sample(COLOURS, rng.choice([3, 4]))]
        if all(pool[t] for t in tiles):
            pool.subtract(tiles)
            sets.append(tiles)
    return sets


@pytest.mark.parametrize("seed", range(40))
def test_dealt_tables_with_jokers_are_always_put_back(seed: int) -> None:
    rng = random.Random(seed)
    sets = dealt_sets(rng, rng.randint(2, 25))
    loose = [t for s in sets for t in s]
    for _ in range(rng.randint(0, 2)):  # jokers played in place of some tiles
        loose[rng.randrange(len(loose))] = Tile.joker()
    loose = [t for t in loose]
    rng.shuffle(loose)
    found = put_back([], loose)
    assert found.complete
    assert all_legal(found.layout.sets)
    assert Counter(t.on_rack for s in found.layout.sets for t in s) == Counter(loose)


@pytest.mark.parametrize("seed", range(60))
def test_one_tile_taken_from_a_tight_table_is_judged_right(seed: int) -> None:
    rng = random.Random(1000 + seed)
    sets = dealt_sets(rng, rng.randint(1, 3))
    tiles = [t for s in sets for t in s]
    tiles.pop(rng.randrange(len(tiles)))
    found = put_back([], tiles)
    assert found.complete == (brute_best(cells(tiles), 0, optional=False) != NONE)


@pytest.mark.parametrize("seed", range(40))
def test_the_most_that_can_stay_when_put_back_agrees_with_brute_force(seed: int) -> None:
    rng = random.Random(2000 + seed)
    sets = dealt_sets(rng, rng.randint(1, 3))
    table = [t for s in sets for t in s]
    spare = Counter({tile: 2 for tile in RUMMIKUB_TILES.tiles()}) - Counter(table)
    nearby = [t for t in spare.elements() if any(abs(t.number - u.number) <= 2 for u in table)]
    added = rng.sample(nearby, min(len(nearby), rng.randint(1, 5)))
    added += [Tile.joker()] * rng.choice([0, 0, 1])
    found = put_back([[str(t) for t in s] for s in sets], added)
    most = next(
        size
        for size in range(len(added), -1, -1)
        if any(
            brute_best(
                cells([*table, *(t for t in kept if not t.is_joker)]),
                sum(t.is_joker for t in kept),
                optional=False,
            )
            != NONE
            for kept in combinations(added, size)
        )
    )
    assert len(added) - len(found.back_to_rack) == most
    assert all_legal(found.layout.sets)


@pytest.mark.parametrize("seed", range(30))
def test_the_walk_from_the_highest_number_gives_the_same_tiles_in_legal_sets(seed: int) -> None:
    rng = random.Random(3000 + seed)
    sets = dealt_sets(rng, rng.randint(2, 20))
    tiles = [t for s in sets for t in s]
    for _ in range(rng.randint(0, 2)):
        tiles[rng.randrange(len(tiles))] = Tile.joker()
    search = _Search(_mirrored(problem_of(tiles)))
    score = search.best(search.start(), 0)
    assert score == 0
    layout = _unmirrored(search.layout(score), RUMMIKUB_TILES)
    assert all_legal(layout.sets)
    assert Counter(t.on_rack for s in layout.sets for t in s) == Counter(tiles)
