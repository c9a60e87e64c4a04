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
run must have 3 tiles or more: 1 is never above 13.

The search is a depth-first walk with memoisation; within a number it decides
the colours one after the other (see :class:`_Search`), and it drops a branch
whose runs too short cannot be continued by the next number's tiles.  With
optional tiles it is a branch and bound: it asks first for a layout leaving none
of them out, then at most 1, 2, 4 ... (by score), cutting every branch that
cannot reach that; a plain "can it be laid out" stops at the first layout.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache

from referee.tiles import RUMMIKUB_TILES, PieceSet, Tile, format_tiles

_NONE = -(10**9)


@dataclass
class Problem:
    """Tiles to lay out, per colour index and number.

    ``must[c][n]`` are the pieces that must be placed as colour ``c`` number ``n``
    (real tiles, and jokers bound to that tile); ``may[c][n]`` optional real tiles
    (from a rack).  ``free_jokers`` must be placed and may stand for anything;
    ``rack_jokers`` are optional ones.  The score counts the optional pieces placed:
    one each, or with ``by_number`` each tile's number and each joker's the number it
    stands for (every joker's then, as only a rack's own tiles are scored that way).
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
_SHORT = [one + two for one, two, _ in _STATES]
# A state with its runs of 3+ cut to how many the next number can extend: the others
# would be closed there anyway, so closing them now changes nothing but merges keys.
_CAPPED = [[_INDEX[(one, two, min(long, room))] for room in range(5)] for one, two, long in _STATES]


@cache
def _needs(next_room: int, room_after: int) -> list[int]:
    """Per state, the fewest jokers its short runs need when the colour has these many
    tiles at the next two numbers."""
    return [max(0, one + two - next_room) + max(0, one - room_after) for one, two, _ in _STATES]


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
    """The walk: a key is (number, colour, the colours' run states, jokers used, tiles
    sent to groups at this number so far, the most of one colour among them).

    Within a number the colours are decided one after the other, each key keeping only
    what the groups still need to know, so a number costs the sum of the colours'
    choices rather than their product; after the last colour the number's groups are
    closed (with jokers in them) and the walk moves to the next number.
    """

    def __init__(self, problem: Problem) -> None:
        self.p = problem
        pieces = problem.pieces
        self.colours = len(pieces.colours)
        self.low, self.high = pieces.lowest, pieces.highest
        self.must = [[len(cell) for cell in row] for row in problem.must]
        self.may = [[len(cell) for cell in row] for row in problem.may]
        self.free = len(problem.free_jokers)
        self.jokers = self.free + len(problem.rack_jokers)
        self.by_number = problem.by_number
        self.memo: dict[tuple[int, ...], tuple[int, tuple[int, ...] | None, int]] = {}
        # the most the optional tiles from number n on can still add
        self.bound = [[0] * (self.colours + 1) for _ in range(self.high + 2)]
        for n in range(self.high, self.low - 1, -1):
            self.bound[n][self.colours] = self.bound[n + 1][0]
            for c in range(self.colours - 1, -1, -1):
                here = self.may[c][n] * self._weight(n)
                self.bound[n][c] = self.bound[n][c + 1] + here
        # the most tiles a colour can have at a number, jokers aside (0 past the highest)
        self.room = [
            [
                self.must[c][n] + self.may[c][n] if n <= self.high else 0
                for n in range(self.high + 3)
            ]
            for c in range(self.colours)
        ]
        # the real tiles colours c, c+1 ... may still have at number n
        self.later = [
            [sum(self.room[d][n] for d in range(c, self.colours)) for c in range(self.colours + 1)]
            for n in range(self.high + 2)
        ]
        # the fewest jokers a colour's short runs still need after number n (the next two
        # numbers' tiles of the colour cannot continue them all)
        self.needs = [
            [_needs(self.room[c][n + 1], self.room[c][n + 2]) for n in range(self.high + 1)]
            for c in range(self.colours)
        ]
        self.options: dict[tuple[int, int, int, int, int], list[tuple[int, int, int, int]]] = {}
        self.limit = float("inf")  # the most keys this walk may hold before it stops

    def _weight(self, n: int) -> int:
        return n if self.by_number else 1

    def _upper(self, n: int, c: int, used: int) -> int:
        """The most the search from number ``n``, colour ``c`` on can still score."""
        if self.by_number:
            return self.bound[n][c] + (self.jokers - used) * self.high
        return self.bound[n][c] + self.jokers - self.free

    def _colour_options(
        self, must: int, may: int, state: int, left: int, n: int
    ) -> list[tuple[int, int, int, int]]:
        """(tiles from the rack, tiles to groups, jokers in runs, next state) for a colour."""
        key = (must, may, state, left, n if self.by_number else 0)
        known = self.options.get(key)
        if known is None:
            known = []
            step = _STEP[state]
            for extra in range(may, -1, -1):
                real = must + extra
                for grouped in range(real + 1):
                    # a joker in this colour's runs while a real tile of it is in a group:
                    # swapping the two gives the same sets, so only one of them is tried
                    for jokers in range(1) if grouped else range(left + 1):
                        nxt = step[real - grouped + jokers]
                        if nxt >= 0:
                            known.append((extra, grouped, jokers, nxt))
            self.options[key] = known
        return known

    def _upper_at(self, key: tuple[int, ...]) -> int:
        return self._upper(key[0], key[1], key[2]) if key[0] <= self.high else self.jokers

    def best(self, key: tuple[int, ...], need: int) -> int:
        """The best score from ``key`` on when it is ``need`` or more, else ``_NONE``.

        A branch that cannot reach ``need`` even with every optional tile left is not
        walked (branch and bound); a key that failed is walked again only for a lower
        ``need``.  A score returned is exact: a branch cut could not have beaten it.
        """
        known = self.memo.get(key)
        if known is not None:
            value, _, floor = known
            if value != _NONE or need >= floor:
                return value
        if len(self.memo) >= self.limit:
            raise _OutOfKeys
        n, c, used, grouped, most, *states = key
        best: int = _NONE
        choice: tuple[int, ...] | None = None
        if n > self.high:
            if used >= self.free and all(s in _CLOSED for s in states):
                best = (used - self.free) * (0 if self.by_number else 1)
            self.memo[key] = (best, None, _NONE)
            return best
        target = self._upper(n, c, used)
        left = self.jokers - used
        moves: list[tuple[tuple[int, ...], int, tuple[int, ...]]] = []
        if c == self.colours:
            joker_weight = n if self.by_number else 0
            needs = sum(self.needs[d][n][states[d]] for d in range(self.colours))
            for in_groups in range(left - needs + 1):
                if _groups_fit(grouped + in_groups, most, self.colours) >= 0:
                    moves.append(
                        (
                            (in_groups,),
                            in_groups * joker_weight,
                            (n + 1, 0, used + in_groups, 0, 0, *states),
                        )
                    )
        else:
            weight = self._weight(n)
            options = self._colour_options(self.must[c][n], self.may[c][n], states[c], left, n)
            ahead = self.room[c][n + 1]
            later = self.later[n][c + 1]
            for extra, to_groups, in_runs, nxt_state in options:
                room = ahead + left - in_runs - _SHORT[nxt_state]
                if room < 0:
                    continue  # runs too short that the next number cannot continue
                sent, one_colour = grouped + to_groups, max(most, to_groups)
                if sent and sent + later + left - in_runs < 3 * one_colour:
                    continue  # too few tiles left at this number for its groups
                after = list(states)
                after[c] = _CAPPED[nxt_state][min(room, 4)]
                needs = sum(self.needs[d][n][after[d]] for d in range(c + 1))
                needs += sum(self.needs[d][n - 1][after[d]] for d in range(c + 1, self.colours))
                if needs > left - in_runs:
                    continue  # the runs still too short need more jokers than are left
                nxt = (n, c + 1, used + in_runs, sent, one_colour, *after)
                gain = extra * weight + in_runs * (n if self.by_number else 0)
                moves.append(((extra, to_groups, in_runs), gain, nxt))
        for made, gain, nxt in moves:
            wanted = max(need, best + 1) - gain
            if self._upper_at(nxt) < wanted:
                continue
            rest = self.best(nxt, wanted)
            if rest != _NONE and rest + gain > best:
                best, choice = rest + gain, (*made, *nxt)
                if best >= target:
                    break
        self.memo[key] = (best, choice, need)
        return best

    def start(self) -> tuple[int, ...]:
        return (self.low, 0, 0, 0, 0, *([_INDEX[(0, 0, 0)]] * self.colours))

    # -- from the choices to sets -------------------------------------------------

    def layout(self, score: int) -> Layout:
        p = self.p
        letters = p.pieces.letters
        used_tiles: list[Tile] = []
        sets: list[tuple[Tile, ...]] = []
        runs: list[list[list[Tile]]] = [[] for _ in range(self.colours)]  # open runs
        key = self.start()
        group_tiles: list[list[Tile]] = []
        while key[0] <= self.high:
            n, c = key[0], key[1]
            choice = self.memo[key][1]
            assert choice is not None
            if c == self.colours:
                in_groups = choice[0]
                count = _groups_fit(key[3] + in_groups, key[4], self.colours)
                sets.extend(self._groups(group_tiles, in_groups, count, n))
                group_tiles = []
                key = choice[1:]
                continue
            extra, grouped, in_runs = choice[:3]
            optional = p.may[c][n][:extra]
            used_tiles.extend(optional)
            real = [*p.must[c][n], *optional]
            group_tiles.append(real[:grouped])
            named = [Tile.joker(Tile(letters[c], n))] * in_runs
            self._extend_runs(runs[c], [*real[grouped:], *named], sets)
            key = choice[3:]
        for colour_runs in runs:
            sets.extend(tuple(run) for run in colour_runs)
        used_tiles.extend([Tile.joker()] * max(0, key[2] - self.free))
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


class _OutOfKeys(Exception):
    """A walk reached its limit of keys (it may go on later: its keys stay valid)."""


def _mirror(tile: Tile, pieces: PieceSet) -> Tile:
    if tile.is_bare_joker:
        return tile
    number = pieces.lowest + pieces.highest - tile.number
    return Tile(tile.colour, number, tile.is_joker)


def _mirrored(problem: Problem) -> Problem:
    """The same problem with the numbers reversed (1 <-> 13): groups and runs map onto
    groups and runs, so it has a layout exactly when the problem has."""
    pieces = problem.pieces
    flipped = Problem.empty(pieces)
    flipped.by_number = problem.by_number
    flipped.free_jokers = list(problem.free_jokers)
    flipped.rack_jokers = list(problem.rack_jokers)
    for source, target in ((problem.must, flipped.must), (problem.may, flipped.may)):
        for c, row in enumerate(source):
            for n in pieces.numbers:
                target[c][pieces.lowest + pieces.highest - n] = [
                    _mirror(tile, pieces) for tile in row[n]
                ]
    return flipped


def _unmirrored(layout: Layout, pieces: PieceSet) -> Layout:
    sets = []
    for tiles in layout.sets:
        back = [_mirror(tile, pieces) for tile in tiles]
        sets.append(tuple(sorted(back, key=lambda t: t.number)) if len(tiles) > 1 else tuple(back))
    used = tuple(_mirror(tile, pieces) for tile in layout.used)
    return Layout(tuple(sets), used, layout.score)


def _decide(problem: Problem) -> Layout | None:
    """Whether every piece can be laid out: the walk from the lowest number and the walk
    from the highest take turns with growing limits, and the first to finish answers (a
    table with no layout often shows it at one end much sooner than at the other)."""
    forward = _Search(problem)
    forward.limit = 500
    try:  # most tables are settled at once: the walk from the highest is built only if not
        score = forward.best(forward.start(), 0)
    except _OutOfKeys:
        pass
    else:
        return None if score == _NONE else forward.layout(score)
    walks = [(forward, False), (_Search(_mirrored(problem)), True)]
    limit = 500
    while True:
        for search, mirrored in walks:
            search.limit = limit
            try:
                score = search.best(search.start(), 0)
            except _OutOfKeys:
                continue
            if score == _NONE:
                return None
            found = search.layout(score)
            return _unmirrored(found, problem.pieces) if mirrored else found
        limit *= 2


def solve(problem: Problem) -> Layout | None:
    """The best layout of ``problem`` (all its required pieces placed), or ``None``."""
    optional = problem.rack_jokers or any(any(cell) for row in problem.may for cell in row)
    if not optional:
        with _no_collection():
            return _decide(problem)
    search = _Search(problem)
    with _no_collection():
        start = search.start()
        most = search._upper_at(start)
        # scores are never negative: the best of all is the first found with need 0
        needs = sorted({max(0, most - short) for short in (0, 1, 2, 4, 8, 16, most)}, reverse=True)
        for need in needs:  # few tiles left out first: most branches are cut
            score = search.best(start, need)
            if score != _NONE:
                return search.layout(score)
        return None


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
