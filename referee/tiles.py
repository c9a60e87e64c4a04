"""Tiles: numbered pieces in colours, beside cards, and the piece set a game declares.

A game played with numbered, coloured pieces (Rummikub's 106 tiles; Phase 10's
deck is the same shape) declares a :class:`PieceSet`: its colours (letter and
name), its numbers, how many copies of each piece, how many jokers.  Meld and
table checks take the piece set as a parameter, so the next such game is a
declaration, not new code.

A tile is written colour letter then number (``R7``, ``K13``, ``O1``); ``JK``
is a joker on a rack and ``JK=R7`` a joker on the table standing for ``R7``.
A card ends with a suit letter, a tile with a number, so no string is both
(RULES.md and MATCH_FORMAT.md, ``rummikub``).

>>> format_tiles(parse_tiles("r7 y13 jk=b1 JK"))
'R7 O13 JK=B1 JK'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from referee.errors import NotationError, RuleError
from referee.messages import Reason, define_message

NOT_A_TILE = define_message(
    "tiles.not_a_tile",
    '"{token}" is not a tile: write a colour letter ({colours}) then a number {lowest}-{highest}, '
    "like {example}, or JK for a joker",
)
CARD_NOT_TILE = define_message(
    "tiles.card_not_tile", "{token} is a card; {game} is played with tiles such as {example}"
)
JOKER_NAMES_JOKER = define_message(
    "tiles.joker_names_joker", '"{token}" is not a tile: a joker stands for a real tile'
)
NOT_A_TILE_LIST = define_message(
    "tiles.not_a_tile_list", "tiles must be given as a list of tile codes like R7 R8 R9"
)
TOO_MANY_COPIES = define_message(
    "tiles.too_many_copies", "{tile} is there {count} times, but the game has only {most}"
)
TOO_MANY_JOKERS = define_message(
    "tiles.too_many_jokers", "{count} jokers, but the game has only {most}"
)

_SEPARATORS = re.compile(r"[\s,;]+")
_CARD = re.compile(r"^(10|[2-9AJQKT])[SHDC♠♥♦♣♤♡♢♧]$")
_TILE = re.compile(r"^([A-Z])0*([0-9]{1,2})$")


@dataclass(frozen=True)
class Colour:
    """A colour of a piece set: its notation letter and its name (a message key)."""

    letter: str
    name: str


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile: ``colour`` (its letter) and ``number``; a joker has ``is_joker`` set.

    A bare joker (on a rack) has no colour and number; a joker on the table stands
    for a tile and carries its colour and number.
    """

    colour: str = ""
    number: int = 0
    is_joker: bool = False

    @classmethod
    def joker(cls, stands_for: Tile | None = None) -> Tile:
        if stands_for is None:
            return cls("", 0, True)
        return cls(stands_for.colour, stands_for.number, True)

    @property
    def is_bare_joker(self) -> bool:
        return self.is_joker and not self.number

    @property
    def face(self) -> Tile:
        """The real tile this one plays as (itself, or a named joker's tile)."""
        return Tile(self.colour, self.number) if self.is_joker else self

    @property
    def on_rack(self) -> Tile:
        """The physical tile: a named joker goes back to being a bare joker."""
        return Tile.joker() if self.is_joker else self

    def __str__(self) -> str:
        return format_tile(self)

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        return parse_tile(text)


@dataclass(frozen=True)
class PieceSet:
    """What pieces a game has and how many of each: the declaration its checks take.

    ``aliases`` map other letters to a colour's (some Rummikub sets print the
    orange as yellow: ``Y`` reads as ``O``).
    """

    game: str
    colours: tuple[Colour, ...]
    lowest: int
    highest: int
    copies: int
    jokers: int
    aliases: Mapping[str, str] = field(default_factory=dict)

    @property
    def letters(self) -> str:
        return "".join(colour.letter for colour in self.colours)

    def colour_index(self, letter: str) -> int:
        return self.letters.index(letter)

    @property
    def numbers(self) -> range:
        return range(self.lowest, self.highest + 1)

    def tiles(self) -> list[Tile]:
        """Every real piece once, colour by colour."""
        return [Tile(c.letter, n) for c in self.colours for n in self.numbers]

    def full_set(self) -> list[Tile]:
        """Every piece of the game, with its copies and jokers."""
        return [t for t in self.tiles() for _ in range(self.copies)] + [Tile.joker()] * self.jokers

    @property
    def example(self) -> str:
        return f"{self.colours[-1].letter}7"

    def count_problems(self, tiles: Iterable[Tile]) -> list[Reason]:
        """Real tiles more often than the set holds, jokers beyond its jokers (the deck
        limits count real tiles only: a joker may name a tile whose copies are out)."""
        counts = Counter(tile.on_rack for tile in tiles)
        reasons = [
            Reason.of(TOO_MANY_COPIES, tile=str(tile), count=count, most=self.copies)
            for tile, count in sorted(counts.items())
            if not tile.is_joker and count > self.copies
        ]
        jokers = counts[Tile.joker()]
        if jokers > self.jokers:
            reasons.append(Reason.of(TOO_MANY_JOKERS, count=jokers, most=self.jokers))
        return reasons

    def verify_counts(self, tiles: Iterable[Tile]) -> None:
        problems = self.count_problems(tiles)
        if problems:
            raise RuleError(problems[0])


COLOUR_NAMES = {
    "K": define_message("tiles.colour.black", "black"),
    "B": define_message("tiles.colour.blue", "blue"),
    "O": define_message("tiles.colour.orange", "orange"),
    "R": define_message("tiles.colour.red", "red"),
}

RUMMIKUB_TILES = PieceSet(
    game="Rummikub",
    colours=tuple(Colour(letter, name) for letter, name in COLOUR_NAMES.items()),
    lowest=1,
    highest=13,
    copies=2,
    jokers=2,
    aliases={"Y": "O"},
)


def _refuse(token: str, pieces: PieceSet) -> NotationError:
    if _CARD.match(token.upper()):
        return NotationError(CARD_NOT_TILE, token=token, game=pieces.game, example=pieces.example)
    return NotationError(
        NOT_A_TILE,
        token=token,
        colours=" ".join(pieces.letters),
        lowest=pieces.lowest,
        highest=pieces.highest,
        example=pieces.example,
    )


def _real(upper: str, whole: str, pieces: PieceSet) -> Tile:
    match = _TILE.match(upper)
    if not match:
        raise _refuse(whole, pieces)
    letter = pieces.aliases.get(match.group(1), match.group(1))
    number = int(match.group(2))
    if letter not in pieces.letters or not pieces.lowest <= number <= pieces.highest:
        raise _refuse(whole, pieces)
    return Tile(letter, number)


def parse_tile(text: str, pieces: PieceSet = RUMMIKUB_TILES) -> Tile:
    """One tile from its notation; raise :class:`NotationError` naming the bad token."""
    if not isinstance(text, str):
        raise _refuse(repr(text), pieces)
    token = text.strip()
    upper = token.upper()
    if upper in ("JK", "JOKER"):
        return Tile.joker()
    if upper.startswith("JK="):
        named = upper[3:]
        if named in ("JK", "JOKER") or named.startswith("JK="):
            raise NotationError(JOKER_NAMES_JOKER, token=token)
        return Tile.joker(_real(named, token, pieces))
    return _real(upper, token, pieces)


def parse_tiles(
    tiles: str | Tile | Iterable[str | Tile], pieces: PieceSet = RUMMIKUB_TILES
) -> tuple[Tile, ...]:
    """Tiles from a string (separated by spaces or commas), or a list of strings or tiles."""
    if isinstance(tiles, Tile):
        return (tiles,)
    if isinstance(tiles, str):
        tokens: Iterable[str | Tile] = [t for t in _SEPARATORS.split(tiles) if t]
    else:
        try:
            tokens = list(tiles)
        except TypeError:
            raise NotationError(NOT_A_TILE_LIST) from None
    return tuple(t if isinstance(t, Tile) else parse_tile(t, pieces) for t in tokens)


def format_tile(tile: Tile) -> str:
    """The canonical notation: upper case, no leading zero."""
    if tile.is_bare_joker:
        return "JK"
    real = f"{tile.colour}{tile.number}"
    return "JK=" + real if tile.is_joker else real


def format_tiles(tiles: Iterable[Tile], separator: str = " ") -> str:
    return separator.join(format_tile(tile) for tile in tiles)


def sort_key(tile: Tile, pieces: PieceSet = RUMMIKUB_TILES) -> tuple[int, int, int]:
    """Colour by colour, then number; bare jokers last."""
    if tile.is_bare_joker:
        return (99, 99, 1)
    return (pieces.letters.find(tile.colour), tile.number, int(tile.is_joker))


def sorted_tiles(tiles: Iterable[Tile], pieces: PieceSet = RUMMIKUB_TILES) -> list[Tile]:
    return sorted(tiles, key=lambda tile: sort_key(tile, pieces))
