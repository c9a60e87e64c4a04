"""The tile arranger: lay tiles out as legal groups and runs, exactly, or find the best play.

One search serves three questions: can these tiles (all of them) be laid out as
legal sets (:func:`solve`, with nothing optional), which most tiles of a rack
can join a table (the hint: optional tiles, each worth 1), and the most a rack
can make as a first meld on its own (optional tiles, each worth its number, a
joker the number it stands for).

The method is the dynamic programme over numbers of van Rijn, Takes and Vis
("The complexity of Rummikub problems", 2015), as :mod:`referee.arranger` does
for cards.  Numbers are taken from the lowest up; the state after a number is,
per colour, how many runs are open with 1, 2 or 3-or-more tiles, plus how many
jokers are used.  At a number each colour sends some of its tiles to groups and
the rest (with jokers standing for that colour) to runs; the run tiles first
extend the runs still too short (which must be extended), then the runs of 3+
(a longer run is never worse than a new one), then start new runs, so the next
state follows from the count alone.  A number's group tiles can be laid out as
groups exactly when, with ``T`` tiles (jokers included) and at most ``x`` of one
colour, some ``m >= x`` has ``3m <= T <= 4m``.  After the highest number every
run must have 3 tiles or more: 1 is never above 13.  The search is a depth-first
walk with memoisation; it stops as soon as the best score still possible is
reached, so a plain "can it be laid out" stops at the first layout.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from referee.tiles import RUMMIKUB_TILES, PieceSet, Tile, format_tiles

_NONE = -(10**9)


@dataclass
class Problem:
    """Tiles to lay out, per colour index and number.

    ``must[c][n]`` are the pieces that must be placed as colour ``c`` number ``n``
    (real tiles, and jokers bound to that tile); ``may[c][n]`` optional real tiles
    (from a rack).  ``free_jokers`` must be placed and may stand for anything;
    ``rack_jokers`` are optional ones.  A real optional tile scores
    ``tile_weight(n)``, a joker placed at number ``n`` scores ``joker_weight(n)``
    and each joker beyond the free ones scores ``joker_bonus`` more.
    """

    pieces: PieceSet
    must: list[list[list[Tile]]]
    may: list[list[list[Tile]]]
    free_jokers: list[Tile] = field(default_factory=list)
    rack_jokers: list[Tile] = field(default_factory=list)
    by_number: bool = False  # weights: the numbers (first meld) or one a tile (hint)

    @classmethod
    def empty(cls, pieces: PieceSet = RUMMIKUB_TILES) -> Problem:
        size = pieces.highest + 1
        return cls(
            pieces,
            [[[] for _ in range(size)] for _ in pieces.colours],
            [[[] for _ in range(size)] for _ in pieces.colours],
        )

    def add_must(self, tile: Tile, plays_as: Tile | None = None) -> None:
        face = plays_as or tile
        self.must[self.pieces.colour_index(face.colour)][face.number].append(tile)

    def add_may(self, tile: Tile) -> None:
        self.may[self.pieces.colour_index(tile.colour)][tile.number].append(tile)


@dataclass(frozen=True)
class Layout:
    """The sets found, and the optional tiles (rack tiles, rack jokers) they use."""

    sets: tuple[tuple[Tile, ...], ...]
    used: tuple[Tile, ...]
    score: int

    def __str__(self) -> str:
        return "\n".join(format_tiles(tiles) for tiles in self.sets)


# States of one colour's runs: (open with 1 tile, with 2, with 3 or more).
_STATES: list[tuple[int, int, int]] = [
    (a, b, c) for a in range(5) for b in range(5) for c in range(5) if a + b + c <= 4
]
_INDEX = {state: i for i, state in enumerate(_STATES)}


def _step(state: int, run_tiles: int) -> int:
    """The state after ``run_tiles`` tiles of the colour go to its runs (-1: impossible)."""
    one, two, long = _STATES[state]
    short = one + two
    if run_tiles < short:
        return -1
    rest = run_tiles - short
    extended = min(rest, long)
    after = (rest - extended, one, two + extended)
    if sum(after) > 4:
        return -1
    return _INDEX[after]


_STEP = [[_step(s, t) for t in range(9)] for s in range(len(_STATES))]
_CLOSED = {i for i, (one, two, _) in enumerate(_STATES) if one == 0 and two == 0}


def _groups_fit(total: int, most: int, colours: int) -> int:
    """The number of groups ``total`` tiles make with at most ``most`` of one colour (0: none)."""
    if total == 0:
        return 0
    for m in range(max(most, 1), total // 3 + 1):
        if 3 * m <= total <= colours * m:
            return m
    return -1


@contextmanager
def _no_collection() -> Iterator[None]:
    """No garbage collection while searching: the search makes many small tuples and no
    cycle, and a collection triggered on the way would scan the whole process."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Search:
    def __init__(self, problem: Problem) -> None:
        self.p = problem
        pieces = problem.pieces
        self.colours = len(pieces.colours)
        self.low, self.high = pieces.lowest, pieces.highest
        self.must = [[len(cell) for cell in row] for row in problem.must]
        self.may = [[len(cell) for cell in row] for row in problem.may]
        self.free = len(problem.free_jokers)
        self.jokers = self.free + len(problem.rack_jokers)
        self.memo: dict[tuple[int, tuple[int, ...], int], tuple[int, object]] = {}
        # the most the optional tiles from number n on can still add
        self.bound = [0] * (self.high + 2)
        for n in range(self.high, self.low - 1, -1):
            here = sum(self.may[c][n] for c in range(self.colours)) * self._weight(n)
            self.bound[n] = self.bound[n + 1] + here
        self.joker_top = self.high
        self.joker_bonus = 0 if problem.by_number else 1

    def _weight(self, n: int) -> int:
        return n if self.p.by_number else 1

    def _joker_weight(self, n: int) -> int:
        return n if self.p.by_number else 0

    def _upper(self, n: int, used: int) -> int:
        """The most the numbers from ``n`` on can still score."""
        if self.p.by_number:
            return self.bound[n] + (self.jokers - used) * self.joker_top
        return self.bound[n] + self.jokers - self.free

    def best(self, n: int, states: tuple[int, ...], used: int) -> int:
        if n > self.high:
            if used < self.free or any(s not in _CLOSED for s in states):
                return _NONE
            return (used - self.free) * self.joker_bonus
        key = (n, states, used)
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        self.memo[key] = (_NONE, None)  # no cycles: a key never leads back to itself
        best, choice = _NONE, None
        target = self._upper(n, used)
        for option in self._options(n, states, used):
            score_here, next_states, next_used, _ = option
            rest = self.best(n + 1, next_states, next_used)
            if rest == _NONE:
                continue
            if score_here + rest > best:
                best, choice = score_here + rest, option
                if best >= target:
                    break
        self.memo[key] = (best, choice)
        return best

    def _options(
        self, n: int, states: tuple[int, ...], used: int
    ) -> Iterator[tuple[int, tuple[int, ...], int, tuple[object, ...]]]:
        """Every way to lay number ``n``: (score, next states, jokers used, the choices)."""
        colours = self.colours
        weight = self._weight(n)
        joker_weight = self._joker_weight(n)
        left = self.jokers - used
        per_colour: list[list[tuple[int, int, int, int, int]]] = []
        for c in range(colours):
            must, may, state = self.must[c][n], self.may[c][n], states[c]
            options = []
            for extra in range(may + 1):
                real = must + extra
                for grouped in range(real + 1):
                    for jokers in range(left + 1):
                        nxt = _STEP[state][real - grouped + jokers]
                        if nxt >= 0:
                            options.append((extra, grouped, jokers, nxt, extra * weight))
            if not options:
                return
            per_colour.append(options)

        def combine(
            c: int, score: int, jokers: int, grouped: int, most: int, chosen: tuple[object, ...]
        ) -> Iterator[tuple[int, tuple[int, ...], int, tuple[object, ...]]]:
            if c == colours:
                for in_groups in range(left - jokers + 1):
                    count = _groups_fit(grouped + in_groups, most, colours)
                    if count < 0:
                        continue
                    spent = jokers + in_groups
                    states_after = tuple(choice[3] for choice in chosen)  # type: ignore[index]
                    yield (
                        score + spent * joker_weight,
                        states_after,
                        used + spent,
                        (*chosen, in_groups, count),
                    )
                return
            for option in per_colour[c]:
                extra, to_groups, in_runs, nxt, gain = option
                if jokers + in_runs > left:
                    continue
                yield from combine(
                    c + 1,
                    score + gain,
                    jokers + in_runs,
                    grouped + to_groups,
                    max(most, to_groups),
                    (*chosen, option),
                )

        yield from combine(0, 0, 0, 0, 0, ())

    # -- from the choices to sets -------------------------------------------------

    def layout(self, score: int) -> Layout:
        p = self.p
        letters = p.pieces.letters
        used_tiles: list[Tile] = []
        sets: list[tuple[Tile, ...]] = []
        runs: list[list[list[Tile]]] = [[] for _ in range(self.colours)]  # open runs
        states = tuple(_INDEX[(0, 0, 0)] for _ in range(self.colours))
        used = 0
        for n in range(self.low, self.high + 1):
            choice = self.memo[(n, states, used)][1]
            assert isinstance(choice, tuple)
            _, states, used, chosen = choice
            *colour_choices, in_groups, count = chosen
            group_tiles: list[list[Tile]] = []
            for c, (extra, grouped, in_runs, _nxt, _gain) in enumerate(colour_choices):
                optional = p.may[c][n][:extra]
                used_tiles.extend(optional)
                real = [*p.must[c][n], *optional]
                group_tiles.append(real[:grouped])
                named = [Tile.joker(Tile(letters[c], n))] * in_runs
                self._extend_runs(runs[c], [*real[grouped:], *named], sets)
            sets.extend(self._groups(group_tiles, in_groups, count, n))
        for colour_runs in runs:
            sets.extend(tuple(run) for run in colour_runs)
        used_tiles.extend([Tile.joker()] * max(0, used - self.free))
        return Layout(tuple(sets), tuple(used_tiles), score)

    @staticmethod
    def _extend_runs(
        open_runs: list[list[Tile]], tiles: list[Tile], done: list[tuple[Tile, ...]]
    ) -> None:
        short = [run for run in open_runs if len(run) < 3]
        long = [run for run in open_runs if len(run) >= 3]
        kept: list[list[Tile]] = []
        for run in [*short, *long]:
            if tiles:
                run.append(tiles.pop(0))
                kept.append(run)
            else:
                done.append(tuple(run))
        kept.extend([tile] for tile in tiles)
        open_runs[:] = kept

    def _groups(
        self, by_colour: list[list[Tile]], jokers: int, count: int, n: int
    ) -> list[tuple[Tile, ...]]:
        if count == 0:
            return []
        groups: list[list[Tile]] = [[] for _ in range(count)]
        k = 0
        for tiles in sorted(by_colour, key=len, reverse=True):
            for tile in tiles:
                groups[k % count].append(tile)
                k += 1
        letters = self.p.pieces.letters
        for _ in range(jokers):
            target = min(groups, key=len)
            taken = {tile.colour for tile in target}
            colour = next(letter for letter in letters if letter not in taken)
            target.append(Tile.joker(Tile(colour, n)))
        return [tuple(group) for group in groups]


def solve(problem: Problem) -> Layout | None:
    """The best layout of ``problem`` (all its required pieces placed), or ``None``."""
    search = _Search(problem)
    start = tuple(_INDEX[(0, 0, 0)] for _ in range(search.colours))
    with _no_collection():
        score = search.best(search.low, start, 0)
        if score == _NONE:
            return None
        return search.layout(score)


def problem_of(
    must: Sequence[Tile],
    may: Sequence[Tile] = (),
    *,
    pieces: PieceSet = RUMMIKUB_TILES,
    by_number: bool = False,
) -> Problem:
    """A problem of real tiles and jokers: bare jokers are wildcards, named jokers are bound
    to the tile they name."""
    problem = Problem.empty(pieces)
    problem.by_number = by_number
    for tile in must:
        if tile.is_bare_joker:
            problem.free_jokers.append(tile)
        else:
            problem.add_must(tile, tile.face)
    for tile in may:
        if tile.is_joker:
            problem.rack_jokers.append(Tile.joker())
        else:
            problem.add_may(tile)
    return problem
