"""Groups and runs of tiles: whether tiles on the table form a legal set, and why not.

RULES.md, ``rummikub``: a **group** is 3 or 4 tiles of one number, all of
different colours; a **run** is 3 or more tiles of one colour with consecutive
numbers, the lowest number only lowest and the highest only highest (12-13-1 is
no run).  A joker stands for the tile it names (``JK=R7``); in a group of three
it may be read as the group's number in any colour the real tiles lack
(:func:`readings`).

>>> check_set("R7 B7 JK=K7").kind
'group'
>>> print(check_set("B7 B7 R7").reason)
B7 twice in a group
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from referee.messages import Reason, define_message
from referee.tiles import (
    RUMMIKUB_TILES,
    PieceSet,
    Tile,
    format_tile,
    format_tiles,
    parse_tiles,
    sorted_tiles,
)

GROUP = "group"
RUN = "run"

TOO_FEW = define_message("tileset.too_few", "a set needs at least 3 tiles; {tiles} is only {count}")
BARE_JOKER = define_message(
    "tileset.bare_joker", "a joker on the table must name the tile it stands for, like JK=R7"
)
GROUP_TOO_BIG = define_message(
    "tileset.group_too_big",
    "a group has at most 4 tiles, one of each colour; {tiles} has {count}",
)
TWICE_IN_GROUP = define_message("tileset.twice_in_group", "{tile} twice in a group")
JOKER_COLOUR_TAKEN = define_message(
    "tileset.joker_colour_taken",
    "{joker} stands for {tile}, a colour the group already has; here it could stand for {options}",
)
JOKERS_SAME_COLOUR = define_message(
    "tileset.jokers_same_colour",
    "two jokers in a group stand for two different colours, not both for {tile}",
)
NEITHER = define_message(
    "tileset.neither",
    "{tiles} is neither a group nor a run: a group is one number, a run is one colour",
)
TWICE_IN_RUN = define_message(
    "tileset.twice_in_run", "a run holds one tile of each number, but {tile} is there twice"
)
GAP = define_message("tileset.gap", "{missing} is missing between {low} and {high}")
NO_WRAP = define_message(
    "tileset.no_wrap",
    "{lowest} is only the lowest number and {highest} only the highest: {tiles} is no run",
)
JOKER_DOES_NOT_FIT = define_message(
    "tileset.joker_does_not_fit",
    "{joker} stands for {tile}, which does not fit with {others}; here it could stand for "
    "{options}",
)


@dataclass(frozen=True)
class SetVerdict:
    """A check's answer: the set's ``kind`` and its tiles in order, or the ``reason`` why not."""

    reason: Reason | None = None
    kind: str | None = None
    tiles: tuple[Tile, ...] = ()

    @property
    def legal(self) -> bool:
        return self.kind is not None

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "kind": self.kind, "reason": self.reason and self.reason.text}


def _refuse(key: str, **params: Any) -> SetVerdict:
    return SetVerdict(reason=Reason.of(key, **params))


def set_value(tiles: Iterable[Tile]) -> int:
    """The numbers of a set's tiles added up, a joker counting the number it stands for."""
    return sum(tile.number for tile in tiles)


def check_set(tiles: str | Iterable[str | Tile], pieces: PieceSet = RUMMIKUB_TILES) -> SetVerdict:
    """Whether ``tiles`` form a legal group or run, and why not (never raises for a rule)."""
    found = parse_tiles(tiles, pieces)
    verdict = _check(found, pieces)
    jokers = [i for i, tile in enumerate(found) if tile.is_joker]
    if verdict.legal or len(jokers) != 1 or found[jokers[0]].is_bare_joker:
        return verdict
    at = jokers[0]
    options = [
        t
        for t in pieces.tiles()
        if _check((*found[:at], Tile.joker(t), *found[at + 1 :]), pieces).legal
    ]
    if not options or verdict.reason is None or verdict.reason.key == JOKER_COLOUR_TAKEN:
        return verdict
    others = found[:at] + found[at + 1 :]
    return _refuse(
        JOKER_DOES_NOT_FIT,
        joker=format_tile(found[at]),
        tile=format_tile(found[at].face),
        others=format_tiles(others),
        options=", ".join(format_tile(t) for t in options),
    )


def _check(tiles: tuple[Tile, ...], pieces: PieceSet) -> SetVerdict:
    listing = format_tiles(tiles)
    if any(tile.is_bare_joker for tile in tiles):
        return _refuse(BARE_JOKER)
    if len(tiles) < 3:
        return _refuse(TOO_FEW, tiles=listing, count=len(tiles))
    if len({tile.number for tile in tiles}) == 1:
        return _check_group(tiles, pieces, listing)
    if len({tile.colour for tile in tiles}) == 1:
        return _check_run(tiles, pieces, listing)
    return _refuse(NEITHER, tiles=listing)


def _check_group(tiles: tuple[Tile, ...], pieces: PieceSet, listing: str) -> SetVerdict:
    if len(tiles) > len(pieces.colours):
        return _refuse(GROUP_TOO_BIG, tiles=listing, count=len(tiles))
    real = Counter(tile.colour for tile in tiles if not tile.is_joker)
    for tile in sorted_tiles(t for t in tiles if not t.is_joker):
        if real[tile.colour] > 1:
            return _refuse(TWICE_IN_GROUP, tile=format_tile(tile))
    number = tiles[0].number
    missing = [Tile(c.letter, number) for c in pieces.colours if c.letter not in real]
    named: set[str] = set()
    for joker in (tile for tile in tiles if tile.is_joker):
        if joker.colour in real:
            options = ", ".join(format_tile(t) for t in missing)
            return _refuse(
                JOKER_COLOUR_TAKEN, joker=format_tile(joker), tile=str(joker.face), options=options
            )
        if joker.colour in named:
            return _refuse(JOKERS_SAME_COLOUR, tile=format_tile(joker.face))
        named.add(joker.colour)
    ordered = sorted_tiles(tiles, pieces)
    return SetVerdict(kind=GROUP, tiles=tuple(ordered))


def _check_run(tiles: tuple[Tile, ...], pieces: PieceSet, listing: str) -> SetVerdict:
    ordered = sorted(tiles, key=lambda tile: (tile.number, tile.is_joker))
    for first, second in itertools.pairwise(ordered):
        if first.number == second.number:
            twice = second if not second.is_joker else first
            return _refuse(TWICE_IN_RUN, tile=format_tile(twice.face))
    numbers = [tile.number for tile in ordered]
    if numbers[0] == pieces.lowest and numbers[-1] == pieces.highest:
        if numbers != list(pieces.numbers):
            return _refuse(NO_WRAP, lowest=pieces.lowest, highest=pieces.highest, tiles=listing)
    for low, high in itertools.pairwise(ordered):
        if high.number != low.number + 1:
            colour = low.colour
            missing = [Tile(colour, n) for n in range(low.number + 1, high.number)]
            return _refuse(
                GAP,
                missing=format_tiles(missing),
                low=format_tile(low),
                high=format_tile(high),
            )
    return SetVerdict(kind=RUN, tiles=tuple(ordered))


def readings(
    tiles: Iterable[Tile], pieces: PieceSet = RUMMIKUB_TILES
) -> Iterator[tuple[Tile, ...]]:
    """Every way to read a set's jokers (RULES.md, Decision): in a group of three tiles a
    joker stands for the group's number in any colour its real tiles lack, two jokers for
    two different such colours; elsewhere a joker is read as the tile it names."""
    found = tuple(tiles)
    jokers = [i for i, tile in enumerate(found) if tile.is_joker]
    numbers = {tile.number for tile in found}
    if len(found) != 3 or not jokers or len(numbers) != 1 or found[jokers[0]].is_bare_joker:
        yield found
        return
    number = found[0].number
    real = {tile.colour for tile in found if not tile.is_joker}
    lacking = [c.letter for c in pieces.colours if c.letter not in real]
    for colours in itertools.permutations(lacking, len(jokers)):
        read = list(found)
        for i, colour in zip(jokers, colours, strict=True):
            read[i] = Tile.joker(Tile(colour, number))
        yield tuple(read)
