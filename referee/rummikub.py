"""Rummikub (remi batu angka): the options, the turn referee, the table put back, scoring.

RULES.md, ``rummikub``.  Everything here works on a :class:`~referee.tiles.PieceSet`
(Rummikub's 106 tiles by default) and a :class:`RummikubOptions`, ready for a
ruleset to use:

* :func:`check_turn` referees a live turn: the table before, the tiles played
  from the rack, the table after.  A later turn is a ``manipulation`` turn with
  tiles; a player's first playing turn is the initial meld, counted only from
  the rack (a joker counts the number it names).
* :func:`put_back` lays out the tiles on the table (and those added from the
  rack) as legal sets, or says which must go back or cannot be placed;
  :func:`hint` says what a rack can play; :func:`best_first_meld` the most a
  rack makes on its own.  The search is :mod:`referee.tile_solver`.
* :class:`Game` follows a game turn by turn (play or draw, passes with the pool
  empty, the round end); :func:`score_game` scores it (zero-sum);
  :func:`standing` says whether the match is over and who won.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

from referee.errors import RuleError
from referee.messages import Reason, define_message
from referee.tile_sets import check_set, readings, set_value
from referee.tile_solver import Layout, Problem, solve
from referee.tiles import (
    RUMMIKUB_TILES,
    PieceSet,
    Tile,
    format_tiles,
    parse_tiles,
    sorted_tiles,
)

# ---------------------------------------------------------------------------
# Options and presets (RULES.md, the options table)


@dataclass(frozen=True)
class RummikubOptions:
    """The options of RULES.md's table for ``rummikub`` in force, with their defaults (box
    rules).  They are declared, checked and offered as the ruleset's options
    (:mod:`referee.rulesets.rummikub`); this is only their values, as the referee reads them."""

    initial_meld: int = 30
    initial_turn_table: bool = False
    joker_value: int = 30
    games: int | None = None
    target: int | None = None
    standing: Literal["points", "games_won"] = "points"


PLAYERS = range(2, 5)
RACK_TILES = 14

# ---------------------------------------------------------------------------
# Reading tables

TableInput: TypeAlias = "str | Iterable[str | Iterable[str | Tile]]"
TilesInput: TypeAlias = "str | Tile | Iterable[str | Tile]"

NOT_A_TABLE = define_message(
    "rummikub.not_a_table", "a table is a list of sets, each a list of tiles like R7 R8 R9"
)


def parse_table(
    table: TableInput, pieces: PieceSet = RUMMIKUB_TILES
) -> tuple[tuple[Tile, ...], ...]:
    """Sets from a list of sets (each a string or a list of tiles), or text, one set a line."""
    if isinstance(table, str):
        lines = [line.strip() for line in table.splitlines()]
        return tuple(parse_tiles(line, pieces) for line in lines if line and line[0] != "#")
    if isinstance(table, Tile):
        raise RuleError(NOT_A_TABLE)
    try:
        sets = list(table)
    except TypeError:
        raise RuleError(NOT_A_TABLE) from None
    return tuple(parse_tiles(tiles, pieces) for tiles in sets)


def format_table(table: Iterable[Iterable[Tile]]) -> str:
    return "\n".join(format_tiles(list(tiles)) for tiles in table)


# ---------------------------------------------------------------------------
# The turn referee

NOTHING_PLAYED = define_message(
    "rummikub.nothing_played",
    "a turn that changes the table puts at least one tile from the rack on it",
)
TILES_LEFT = define_message(
    "rummikub.tiles_left", "{tiles} left the table: no tile may leave the table during a turn"
)
NOT_ON_TABLE = define_message(
    "rummikub.played_not_on_table",
    "{tiles} was played from the rack but is not on the table after the turn",
)
TILES_APPEARED = define_message(
    "rummikub.tiles_appeared",
    "{tiles} is on the table after the turn but was neither on it before nor played",
)
SET_ILLEGAL = define_message("rummikub.set_illegal", "set {index} ({tiles}) is not legal: {reason}")
EMPTY_SET = define_message("rummikub.empty_set", "set {index} has no tiles")
JOKER_KEEPS_TILE = define_message(
    "rummikub.joker_keeps_tile",
    "a joker stood for {tile} before the turn and no longer does, but no real {tile} is on "
    "the table after it: a joker is freed only by the real tile it stands for",
)
UNNAMED_JOKER = define_message(
    "rummikub.unnamed_joker",
    "a joker on the table must name the tile it stands for, like JK=R7",
)
FIRST_MELD_LOW = define_message(
    "rummikub.first_meld_low", "the initial meld makes {value} from your rack: {least} needed"
)
FIRST_MELD_TOUCHED = define_message(
    "rummikub.first_meld_touched",
    "in the initial meld the sets already on the table stay exactly as they were, "
    "but {sets} changed",
)
FIRST_MELD_NOT_OWN = define_message(
    "rummikub.first_meld_not_own",
    "the initial meld is made of new sets of tiles from your rack only",
)
PLAYED_COUNTS = define_message("rummikub.played_counts", "among the tiles played: {reason}")
TABLE_COUNTS = define_message("rummikub.table_counts", "on the table after the turn: {reason}")


@dataclass(frozen=True)
class TurnVerdict:
    """Whether a turn is legal, every reason it is not, and the initial meld's value."""

    reasons: tuple[Reason, ...]
    first_meld: int | None = None

    @property
    def legal(self) -> bool:
        return not self.reasons

    @property
    def reason(self) -> Reason | None:
        return self.reasons[0] if self.reasons else None

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "reasons": [reason.text for reason in self.reasons],
            "first_meld": self.first_meld,
        }


def _physical(tiles: Iterable[Tile]) -> Counter[Tile]:
    return Counter(tile.on_rack for tile in tiles)


def _key(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles))


def _set_readings(tiles: Sequence[Tile], pieces: PieceSet) -> set[tuple[Tile, ...]]:
    return {_key(read) for read in readings(tiles, pieces)}


def _table_readings(
    table: Sequence[Sequence[Tile]], pieces: PieceSet
) -> Iterator[list[Sequence[Tile]]]:
    """Every reading of a table's jokers (only jokers in groups of three have a choice)."""
    options = [list(readings(tiles, pieces)) for tiles in table]
    for chosen in itertools.product(*options):
        yield list(chosen)


def check_turn(
    before: TableInput,
    played: TilesInput,
    after: TableInput,
    *,
    melded: bool = True,
    options: RummikubOptions | None = None,
    pieces: PieceSet = RUMMIKUB_TILES,
) -> TurnVerdict:
    """Every rule a turn breaks (an empty verdict when it is legal).

    ``melded``: whether the player made the initial meld in an earlier turn; if not,
    a turn that plays is their initial meld.

    >>> check_turn(["R7 R8 R9"], "R10", ["R7 R8 R9 R10"]).legal
    True
    >>> print(check_turn([], "R7 R8 R9", ["R7 R8 R9"], melded=False).reason)
    the initial meld makes 24 from your rack: 30 needed
    """
    options = options or RummikubOptions()
    table_before = parse_table(before, pieces)
    table_after = parse_table(after, pieces)
    rack = parse_tiles(played, pieces)
    reasons: list[Reason] = []
    if any(tile.is_joker and tile.number for tile in rack):
        rack = tuple(tile.on_rack for tile in rack)
    if not rack:
        if not _same_table(table_before, table_after, pieces):
            reasons.append(Reason.of(NOTHING_PLAYED))
        return TurnVerdict(tuple(reasons))

    reasons.extend(Reason.of(PLAYED_COUNTS, reason=r) for r in pieces.count_problems(rack))
    after_tiles = [tile for tiles in table_after for tile in tiles]
    reasons.extend(Reason.of(TABLE_COUNTS, reason=r) for r in pieces.count_problems(after_tiles))

    before_count = _physical(tile for tiles in table_before for tile in tiles)
    expected = before_count + _physical(rack)
    now = _physical(after_tiles)
    missing = expected - now
    not_placed = _physical(rack) & missing
    left = missing - not_placed
    appeared = now - expected
    for key, wrong in ((TILES_LEFT, left), (NOT_ON_TABLE, not_placed), (TILES_APPEARED, appeared)):
        if wrong:
            reasons.append(Reason.of(key, tiles=format_tiles(sorted_tiles(wrong.elements()))))

    for index, tiles in enumerate(table_after, start=1):
        if not tiles:
            reasons.append(Reason.of(EMPTY_SET, index=index))
            continue
        verdict = check_set(tiles, pieces)
        if verdict.reason is not None:
            reasons.append(
                Reason.of(
                    SET_ILLEGAL, index=index, tiles=format_tiles(tiles), reason=verdict.reason
                )
            )

    if any(tile.is_bare_joker for tiles in table_before for tile in tiles):
        reasons.append(Reason.of(UNNAMED_JOKER))
    else:
        reasons.extend(_joker_reasons(table_before, table_after, pieces))

    first_meld = None
    if not melded and not reasons:
        first_meld, problem = _initial_meld(table_before, table_after, rack, options, pieces)
        if problem is not None:
            reasons.append(problem)
    return TurnVerdict(tuple(reasons), first_meld)


def _joker_reasons(
    before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]], pieces: PieceSet
) -> list[Reason]:
    """The formal check (RULES.md): for every tile t, if fewer jokers name t after the turn
    than before, a real t is on the table after it; jokers in groups of three may be read
    with any colour they may stand for, and the turn is legal if one reading passes."""
    real_after = Counter(tile for tiles in after for tile in tiles if not tile.is_joker)
    first: list[Reason] | None = None
    for read_before in _table_readings(before, pieces):
        named_before = Counter(t.face for tiles in read_before for t in tiles if t.is_joker)
        for read_after in _table_readings(after, pieces):
            named_after = Counter(t.face for tiles in read_after for t in tiles if t.is_joker)
            broken = [
                Reason.of(JOKER_KEEPS_TILE, tile=str(tile))
                for tile in sorted_tiles(named_before, pieces)
                if named_after[tile] < named_before[tile] and not real_after[tile]
            ]
            if not broken:
                return []
            first = first or broken
    return first or []


def _same_table(
    before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]], pieces: PieceSet
) -> bool:
    return not _unmatched(before, after, pieces)[0] and len(before) == len(after)


def _unmatched(
    before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]], pieces: PieceSet
) -> tuple[list[Sequence[Tile]], list[Sequence[Tile]]]:
    """The sets of ``before`` found nowhere in ``after`` (read either way), and the sets of
    ``after`` left over."""
    rest = [(tiles, _set_readings(tiles, pieces)) for tiles in after]
    lost: list[Sequence[Tile]] = []
    for tiles in before:
        mine = _set_readings(tiles, pieces)
        at = next((i for i, (_, theirs) in enumerate(rest) if mine & theirs), None)
        if at is None:
            lost.append(tiles)
        else:
            rest.pop(at)
    return lost, [tiles for tiles, _ in rest]


def _initial_meld(
    before: Sequence[Sequence[Tile]],
    after: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    options: RummikubOptions,
    pieces: PieceSet,
) -> tuple[int, Reason | None]:
    least = options.initial_meld
    if not options.initial_turn_table:
        lost, new = _unmatched(before, after, pieces)
        if lost:
            sets = "; ".join(format_tiles(tiles) for tiles in lost)
            return 0, Reason.of(FIRST_MELD_TOUCHED, sets=sets)
        if _physical(t for tiles in new for t in tiles) != _physical(rack):
            return 0, Reason.of(FIRST_MELD_NOT_OWN)
        value = sum(set_value(tiles) for tiles in new)
    else:
        value = _own_sets_value(after, rack)
    if value < least:
        return value, Reason.of(FIRST_MELD_LOW, value=value, least=least)
    return value, None


def _own_sets_value(after: Sequence[Sequence[Tile]], rack: Sequence[Tile]) -> int:
    """The most the sets made only of tiles from the rack are worth together."""
    own = _physical(rack)
    candidates = [tiles for tiles in after if not _physical(tiles) - own]
    best = 0
    for size in range(len(candidates), 0, -1):
        for chosen in itertools.combinations(candidates, size):
            if not _physical(t for tiles in chosen for t in tiles) - own:
                best = max(best, sum(set_value(tiles) for tiles in chosen))
    return best


def verify_turn(
    before: TableInput,
    played: TilesInput,
    after: TableInput,
    *,
    melded: bool = True,
    options: RummikubOptions | None = None,
    pieces: PieceSet = RUMMIKUB_TILES,
) -> TurnVerdict:
    """The verdict of a legal turn; :class:`RuleError` with the first reason otherwise."""
    verdict = check_turn(before, played, after, melded=melded, options=options, pieces=pieces)
    if verdict.reason is not None:
        raise RuleError(verdict.reason)
    return verdict


# ---------------------------------------------------------------------------
# Putting the table back, the hint, the best first meld


@dataclass(frozen=True)
class PutBack:
    """A legal layout of the tiles that can stay, and what cannot.

    ``back_to_rack``: tiles added from the rack that must go back so that the
    rest lays out; ``cannot_place``: tiles that were on the table and fit
    nowhere even so (the table before was itself not legal).
    """

    layout: Layout
    back_to_rack: tuple[Tile, ...] = ()
    cannot_place: tuple[Tile, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.back_to_rack and not self.cannot_place

    def to_json(self) -> dict[str, Any]:
        return {
            "table": [[str(tile) for tile in tiles] for tiles in self.layout.sets],
            "back_to_rack": [str(tile) for tile in self.back_to_rack],
            "cannot_place": [str(tile) for tile in self.cannot_place],
        }


def _best(
    table: Sequence[Sequence[Tile]],
    required: Sequence[Tile],
    optional: Sequence[Tile],
    pieces: PieceSet,
    *,
    by_number: bool = False,
) -> Layout | None:
    """The best layout of a table's tiles (all placed, its jokers bound by the joker rule)
    plus ``required`` tiles and any of ``optional`` ones."""
    if any(tile.is_bare_joker for tiles in table for tile in tiles):
        raise RuleError(UNNAMED_JOKER)
    best: Layout | None = None
    tried: set[tuple[Tile, ...]] = set()
    for reading in _table_readings(table, pieces):
        named = _key(t.face for tiles in reading for t in tiles if t.is_joker)
        if named in tried:
            continue
        tried.add(named)
        found = _best_for_reading(reading, required, optional, pieces, by_number)
        if found is not None and (best is None or found.score > best.score):
            best = found
    return best


def _best_for_reading(
    table: Sequence[Sequence[Tile]],
    required: Sequence[Tile],
    optional: Sequence[Tile],
    pieces: PieceSet,
    by_number: bool,
) -> Layout | None:
    reals = [t for tiles in table for t in tiles if not t.is_joker]
    reals += [t for t in required if not t.is_joker]
    real = Counter(reals)
    named = [t.face for tiles in table for t in tiles if t.is_joker]
    bound = Counter(face for face in named if not real[face])
    may = Counter(t for t in optional if not t.is_joker)
    choosable = [face for face in bound if may[face]]
    best: Layout | None = None
    for plays in itertools.product((False, True), repeat=len(choosable)):
        problem = Problem.empty(pieces)
        problem.by_number = by_number
        left = Counter(may)
        forced: list[Tile] = []
        for face, copy in zip(choosable, plays, strict=True):
            if copy:  # a copy from the rack frees the jokers that stood for it
                forced.append(face)
                left[face] -= 1
            else:
                left[face] = 0
        freed = set(forced)
        for tile in [*reals, *forced]:
            problem.add_must(tile)
        for face, count in bound.items():
            for _ in range(count):
                if face in freed:
                    problem.free_jokers.append(Tile.joker())
                else:
                    problem.add_must(Tile.joker(face), face)
        problem.free_jokers += [Tile.joker() for face in named if real[face]]
        problem.free_jokers += [Tile.joker() for t in required if t.is_joker]
        for tile in left.elements():
            problem.add_may(tile)
        problem.rack_jokers += [Tile.joker() for t in optional if t.is_joker]
        found = solve(problem)
        if found is None:
            continue
        gain = sum(t.number if by_number else 1 for t in forced)
        found = replace(found, used=(*forced, *found.used), score=found.score + gain)
        if best is None or found.score > best.score:
            best = found
    return best


def put_back(
    before: TableInput,
    added: TilesInput = (),
    *,
    pieces: PieceSet = RUMMIKUB_TILES,
) -> PutBack:
    """Lay out the table before a turn plus the tiles added from the rack, all of them if
    possible; otherwise the fewest added tiles go back to the rack; and if the table
    before was itself not legal, the fewest tiles are named as fitting nowhere.

    >>> print(put_back(["R7 R8 R9", "K5 B5 O5"], "R10 R5").layout)
    K5 B5 O5 R5
    R7 R8 R9 R10
    """
    table = parse_table(before, pieces)
    rack = parse_tiles(added, pieces)
    rack = tuple(tile.on_rack for tile in rack)
    pieces.verify_counts([*(t for tiles in table for t in tiles), *rack])
    whole = _best(table, rack, (), pieces)
    if whole is not None:
        return PutBack(whole)
    partial = _best(table, (), rack, pieces)
    if partial is not None:
        back = _physical(rack) - _physical(partial.used)
        return PutBack(partial, back_to_rack=tuple(sorted_tiles(back.elements())))
    loose = [t.on_rack for tiles in table for t in tiles]
    anything = _best((), (), [*loose, *rack], pieces)
    assert anything is not None  # placing nothing is always a layout
    left = _physical([*loose, *rack]) - _physical(anything.used)
    from_rack = _physical(rack) & left
    return PutBack(
        anything,
        back_to_rack=tuple(sorted_tiles(from_rack.elements())),
        cannot_place=tuple(sorted_tiles((left - from_rack).elements())),
    )


@dataclass(frozen=True)
class Hint:
    """What a rack can play now: the tiles, and the table they make (or the first meld)."""

    tiles: tuple[Tile, ...]
    layout: Layout | None
    first_meld: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": [str(tile) for tile in self.tiles],
            "table": [[str(t) for t in tiles] for tiles in self.layout.sets]
            if self.layout
            else None,
            "first_meld": self.first_meld,
        }


def best_first_meld(rack: TilesInput, *, pieces: PieceSet = RUMMIKUB_TILES) -> Layout:
    """The sets of the rack's own tiles worth the most together (a joker counts the number
    it stands for): the most an initial meld can make from this rack.

    >>> best_first_meld("R10 R11 R12 JK K1 B1 O1").score
    49
    """
    tiles = tuple(tile.on_rack for tile in parse_tiles(rack, pieces))
    pieces.verify_counts(tiles)
    found = _best((), (), tiles, pieces, by_number=True)
    assert found is not None
    return found


def hint(
    rack: TilesInput,
    table: TableInput,
    *,
    melded: bool = True,
    options: RummikubOptions | None = None,
    pieces: PieceSet = RUMMIKUB_TILES,
) -> Hint:
    """The most tiles the rack can put on the table this turn, and a layout; before the
    initial meld, the best initial meld when it reaches ``initial_meld`` (else nothing)."""
    options = options or RummikubOptions()
    tiles = tuple(tile.on_rack for tile in parse_tiles(rack, pieces))
    sets = parse_table(table, pieces)
    pieces.verify_counts([*(t for s in sets for t in s), *tiles])
    if not melded:
        meld = best_first_meld(tiles, pieces=pieces)
        if meld.score < options.initial_meld or not meld.used:
            return Hint((), None, meld.score)
        layout = replace(meld, sets=(*sets, *meld.sets))
        return Hint(tuple(sorted_tiles(meld.used)), layout, meld.score)
    found = _best(sets, (), tiles, pieces)
    if found is None or not found.used:
        return Hint((), None)
    return Hint(tuple(sorted_tiles(found.used)), found)


# ---------------------------------------------------------------------------
# A game turn by turn

NOT_YOUR_TURN = define_message("rummikub.not_your_turn", "it is {player}'s turn, not {other}'s")
POOL_EMPTY = define_message(
    "rummikub.pool_empty", "the pool is empty: a player who does not play passes"
)
POOL_NOT_EMPTY = define_message(
    "rummikub.pool_not_empty", "a player who does not play draws a tile: the pool still has {count}"
)
MORE_THAN_RACK = define_message(
    "rummikub.more_than_rack", "{player} played {count} tiles but has only {rack} on the rack"
)
GAME_OVER = define_message("rummikub.game_over", "the game is over: {reason}")
WENT_OUT = define_message("rummikub.went_out", "{player} emptied the rack")
POOL_PASSES = define_message(
    "rummikub.pool_passes", "the pool is empty and every player passed in turn"
)
BAD_PLAYERS = define_message(
    "rummikub.bad_players", "Rummikub is played by 2 to 4 players, not {count}"
)
UNKNOWN_PLAYER = define_message("rummikub.unknown_player", "{player} is not in this game")


def starter(players: Sequence[str], first_dealer: str, game: int) -> str:
    """Who starts the ``game``-th game (1-based, void games not counted).

    Nobody deals in Rummikub; the match file's "dealer" of a game is the player before
    its starter, and the start moves one seat on in playing order each game (RULES.md).
    """
    if first_dealer not in players:
        raise RuleError(UNKNOWN_PLAYER, player=first_dealer)
    return players[(players.index(first_dealer) + game) % len(players)]


@dataclass
class Game:
    """One game followed turn by turn: whose turn it is, the table, how many tiles each
    rack and the pool hold, who has made the initial meld, and how the game ended.

    A turn either plays (tiles from the rack to the table, checked by :func:`check_turn`)
    or draws one tile from the pool; with the pool empty a player who does not play
    passes, and as many passes in a row as there are players end the game.
    """

    players: tuple[str, ...]
    starter: str | None = None
    options: RummikubOptions = field(default_factory=RummikubOptions)
    pieces: PieceSet = RUMMIKUB_TILES
    table: tuple[tuple[Tile, ...], ...] = ()
    racks: dict[str, int] = field(default_factory=dict)
    pool: int = 0
    melded: set[str] = field(default_factory=set)
    current: int = 0
    passes: int = 0
    out: str | None = None
    pool_end: bool = False

    def __post_init__(self) -> None:
        if len(self.players) not in PLAYERS:
            raise RuleError(BAD_PLAYERS, count=len(self.players))
        if self.starter is not None:
            if self.starter not in self.players:
                raise RuleError(UNKNOWN_PLAYER, player=self.starter)
            self.current = self.players.index(self.starter)
        self.racks = {player: RACK_TILES for player in self.players}
        self.pool = len(self.pieces.full_set()) - RACK_TILES * len(self.players)

    @property
    def to_play(self) -> str:
        return self.players[self.current]

    @property
    def over(self) -> bool:
        return self.out is not None or self.pool_end

    def _check_turn_of(self, player: str) -> None:
        if self.over:
            why = Reason.of(WENT_OUT, player=self.out) if self.out else Reason.of(POOL_PASSES)
            raise RuleError(Reason.of(GAME_OVER, reason=why))
        if player != self.to_play:
            raise RuleError(NOT_YOUR_TURN, player=self.to_play, other=player)

    def _next(self) -> None:
        self.current = (self.current + 1) % len(self.players)

    def play(self, player: str, played: TilesInput, after: TableInput) -> TurnVerdict:
        """A turn that plays: refused with the first rule it breaks (nothing changes)."""
        self._check_turn_of(player)
        tiles = parse_tiles(played, self.pieces)
        if not tiles:
            raise RuleError(NOTHING_PLAYED)
        if len(tiles) > self.racks[player]:
            raise RuleError(
                MORE_THAN_RACK, player=player, count=len(tiles), rack=self.racks[player]
            )
        verdict = verify_turn(
            self.table,
            tiles,
            after,
            melded=player in self.melded,
            options=self.options,
            pieces=self.pieces,
        )
        self.table = parse_table(after, self.pieces)
        self.racks[player] -= len(tiles)
        self.melded.add(player)
        self.passes = 0
        if self.racks[player] == 0:
            self.out = player
        else:
            self._next()
        return verdict

    def draw(self, player: str) -> None:
        """A turn that draws one tile from the pool (refused when the pool is empty)."""
        self._check_turn_of(player)
        if self.pool == 0:
            raise RuleError(POOL_EMPTY)
        self.pool -= 1
        self.racks[player] += 1
        self.passes = 0
        self._next()

    def pass_turn(self, player: str) -> None:
        """A turn that neither plays nor draws: only with the pool empty."""
        self._check_turn_of(player)
        if self.pool:
            raise RuleError(POOL_NOT_EMPTY, count=self.pool)
        self.passes += 1
        if self.passes == len(self.players):
            self.pool_end = True
        else:
            self._next()


# ---------------------------------------------------------------------------
# Scoring and the match end

OUT_RACK_NOT_EMPTY = define_message(
    "rummikub.out_rack_not_empty", "{player} went out, so their rack is empty, not {tiles}"
)
RACK_EMPTY = define_message(
    "rummikub.rack_empty", "{player}'s rack is empty, but only the player who went out has none"
)
RACK_MISSING = define_message("rummikub.rack_missing", "give {player}'s rack: the tiles left on it")
BAD_RACK_VALUE = define_message(
    "rummikub.bad_rack_value", "{player}'s rack is worth a whole number of 0 or more, not {value}"
)
RACK_COUNTS = define_message("rummikub.rack_counts", "among the racks: {reason}")
OUT_AND_POOL = define_message(
    "rummikub.out_and_pool", "a game ends with a rack emptied or with the pool empty, not both"
)
NO_END = define_message(
    "rummikub.no_end", "say how the game ended: who emptied the rack, or that the pool ran out"
)

RackInput: TypeAlias = "int | str | Iterable[str | Tile]"


def rack_value(tiles: Iterable[Tile], options: RummikubOptions | None = None) -> int:
    """The numbers of a rack's tiles, a joker ``joker_value`` (30)."""
    joker = (options or RummikubOptions()).joker_value
    return sum(joker if tile.is_joker else tile.number for tile in tiles)


@dataclass(frozen=True)
class GameScore:
    """A game's scores (they add up to 0), its winners and each rack's value."""

    scores: dict[str, int]
    winners: tuple[str, ...]
    values: dict[str, int]


def score_game(
    players: Sequence[str],
    racks: Mapping[str, RackInput],
    *,
    out: str | None = None,
    pool: bool = False,
    options: RummikubOptions | None = None,
    pieces: PieceSet = RUMMIKUB_TILES,
) -> GameScore:
    """Score a finished game from the racks left (tiles, or a value as a number).

    A rack emptied: every other player scores minus their rack value, the winner
    the sum.  The pool empty: the lowest racks win; every other player scores minus
    (value - lowest) once for each winner, each winner the sum of those differences.
    """
    options = options or RummikubOptions()
    if out is not None and pool:
        raise RuleError(OUT_AND_POOL)
    if out is None and not pool:
        raise RuleError(NO_END)
    if out is not None and out not in players:
        raise RuleError(UNKNOWN_PLAYER, player=out)
    for name in racks:
        if name not in players:
            raise RuleError(UNKNOWN_PLAYER, player=name)
    values: dict[str, int] = {}
    seen: list[Tile] = []
    for player in players:
        given = racks.get(player)
        if given is None:
            if player == out:
                values[player] = 0
                continue
            raise RuleError(RACK_MISSING, player=player)
        if isinstance(given, bool) or (isinstance(given, int) and given < 0):
            raise RuleError(BAD_RACK_VALUE, player=player, value=repr(given))
        if isinstance(given, int):
            values[player] = given
            empty = given == 0
        else:
            tiles = tuple(tile.on_rack for tile in parse_tiles(given, pieces))
            seen.extend(tiles)
            values[player] = rack_value(tiles, options)
            empty = not tiles
            if player == out and tiles:
                raise RuleError(OUT_RACK_NOT_EMPTY, player=player, tiles=format_tiles(tiles))
        if empty and player != out:
            raise RuleError(RACK_EMPTY, player=player)
        if player == out and values[player]:
            raise RuleError(OUT_RACK_NOT_EMPTY, player=player, tiles=values[player])
    problems = pieces.count_problems(seen)
    if problems:
        raise RuleError(Reason.of(RACK_COUNTS, reason=problems[0]))
    if out is not None:
        scores = {p: -values[p] for p in players if p != out}
        scores[out] = -sum(scores.values())
        return GameScore({p: scores[p] for p in players}, (out,), values)
    lowest = min(values.values())
    winners = tuple(p for p in players if values[p] == lowest)
    scores = {p: -(values[p] - lowest) * len(winners) for p in players if p not in winners}
    owed = sum(values[p] - lowest for p in players if p not in winners)
    scores |= {p: owed for p in winners}
    return GameScore({p: scores[p] for p in players}, winners, values)


@dataclass(frozen=True)
class Standing:
    """The match after some games: totals, games won, whether it is over and who won."""

    totals: dict[str, int]
    games_won: dict[str, int]
    over: bool
    winners: tuple[str, ...]


def standing(
    players: Sequence[str],
    games: Sequence[GameScore],
    *,
    options: RummikubOptions | None = None,
    stopped: bool = False,
) -> Standing:
    """Totals and games won over the (non-void) games, and the match end (RULES.md): after
    ``games`` games; with ``target``, once a total has reached it, as soon as one total is
    highest alone; with neither, when the players stop.  The winner is the highest total,
    or with ``standing: games_won`` the most games won, then the highest total; a tie that
    remains is a shared win."""
    options = options or RummikubOptions()
    totals = {p: sum(game.scores.get(p, 0) for game in games) for p in players}
    won = {p: sum(p in game.winners for game in games) for p in players}
    if options.standing == "games_won":
        rank = {p: (won[p], totals[p]) for p in players}
    else:
        rank = {p: (totals[p], 0) for p in players}
    top = max(rank.values()) if players else (0, 0)
    leaders = tuple(p for p in players if rank[p] == top)
    if options.games is not None:
        over = len(games) >= options.games
    elif options.target is not None:
        reached = any(
            max(sum(g.scores.get(p, 0) for g in games[:n]) for p in players) >= options.target
            for n in range(1, len(games) + 1)
        )
        over = reached and len(leaders) == 1
    else:
        over = stopped
    return Standing(totals, won, over, leaders if over else ())
