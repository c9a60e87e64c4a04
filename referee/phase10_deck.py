"""Phase 10's pieces: its own 108-card deck, or two standard decks with their jokers.

A :class:`Piece` is what Phase 10 plays with: a number 1-12 of a colour, a Wild or a Skip.
A :class:`PieceSet` declares a deck as data: which pieces it holds and how many of each,
how they are written, what each counts in a hand.  Two are declared (RULES.md, ``deck``):

* :data:`PHASE10_DECK` -- numbers 1-12 in red, blue, green and yellow, two of each, 8
  Wilds and 4 Skips, written colour letter and number (``R7``, ``B12``), ``W``, ``SK``.
  None of these is a playing card's notation, so a Phase 10 card is never read as one.
* :data:`STANDARD_DECKS` -- two 52-card decks and their 4 jokers: the suits are the
  colours, A is 1, 2-10 their number, J 11, Q 12, every king a Wild, every joker a Skip.
  Written as cards (``AS``, ``QH``, ``KD``, ``JK``).

In a run on the table a Wild says the number it stands for, as its deck writes numbers:
``W=5``, ``KH=J``.

>>> PHASE10_DECK.parse('R7'), PHASE10_DECK.parse('w=5').number
(Piece.parse('R7'), 5)
>>> STANDARD_DECKS.parse('QH').number, STANDARD_DECKS.parse('KD').is_wild
(12, True)
>>> STANDARD_DECKS.format(STANDARD_DECKS.parse('kh=j'))
'KH=J'
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeAlias

from referee.cards import RANKS, SUITS, Rank
from referee.errors import NotationError, RuleError
from referee.messages import define_message
from referee.notation import parse_card

NOT_A_PHASE10_CARD = define_message(
    "phase10.not_a_card",
    '"{token}" is not a Phase 10 card: write a colour (R B G Y) then a number 1-12, '
    "like R7 or G12, W for a Wild or SK for a Skip",
)
NOT_A_STANDARD_CARD = define_message(
    "phase10.not_a_standard_card",
    '"{token}" is not a card of two standard decks: write a rank (A 2-10 J Q) then a suit '
    "(S H D C), like 7H; a king is a Wild (KD=5 in a run) and JK a Skip",
)
ONLY_WILDS_NAMED = define_message(
    "phase10.only_wilds_named", '"{token}": only a Wild says the number it stands for'
)
NOT_A_CARD_LIST = define_message(
    "phase10.not_a_card_list", "cards must be given as a list like R7 R8 W"
)
TOO_MANY_COPIES = define_message(
    "phase10.too_many_copies", "{card} is there {count} times, but the deck holds only {most}"
)

CardsIn: TypeAlias = "str | Iterable[str | Piece]"


class Kind(enum.Enum):
    NUMBER = "number"
    WILD = "wild"
    SKIP = "skip"


@dataclass(frozen=True)
class Piece:
    """One Phase 10 card.

    ``face`` is the physical card as its deck writes it (``R7``, ``W``, ``KD``, ``JK``);
    ``number`` is 1-12 for a number card, the number a Wild stands for in a run (or
    ``None``); ``colour`` is the colour letter (``R B G Y``, or a suit ``S H D C`` in
    two standard decks), ``None`` for a Wild or a Skip.
    """

    kind: Kind
    face: str
    number: int | None = None
    colour: str | None = None

    @classmethod
    def parse(cls, text: str) -> Piece:
        """A card of the Phase 10 deck (see :data:`PHASE10_DECK`)."""
        return PHASE10_DECK.parse(text)

    @property
    def is_wild(self) -> bool:
        return self.kind is Kind.WILD

    @property
    def is_skip(self) -> bool:
        return self.kind is Kind.SKIP

    @property
    def in_hand(self) -> Piece:
        """The physical card: a Wild named on the table goes back to a bare Wild."""
        return Piece(self.kind, self.face) if self.is_wild else self

    def __str__(self) -> str:
        if self.is_wild and self.number is not None:
            return f"{self.face}={self.number}"
        return self.face

    def __repr__(self) -> str:
        return f"Piece.parse({str(self)!r})"


PENALTY_LOW = 5  # a number card 1-9
PENALTY_HIGH = 10  # a number card 10-12
PENALTY_SKIP = 15
PENALTY_WILD = 25


def penalty(piece: Piece) -> int:
    """What a card left in a hand costs: 5 for 1-9, 10 for 10-12, 15 a Skip, 25 a Wild."""
    if piece.is_wild:
        return PENALTY_WILD
    if piece.is_skip:
        return PENALTY_SKIP
    assert piece.number is not None
    return PENALTY_LOW if piece.number <= 9 else PENALTY_HIGH


COLOURS = ("R", "B", "G", "Y")
_PHASE10_CODE = re.compile(r"^([RBGY])(1[0-2]|[1-9])$")
_NAMED = re.compile(r"^(.+?)=(.+)$")
_STANDARD_NUMBERS = {rank.symbol: int(rank) for rank in RANKS if rank is not Rank.KING}
_STANDARD_NUMBERS["T"] = 10
_NUMBER_SYMBOLS = {number: symbol for symbol, number in _STANDARD_NUMBERS.items() if symbol != "T"}


@dataclass(frozen=True)
class PieceSet:
    """A deck declared as data: its ``key`` (the option's value), how many copies of each
    face it holds, and how it writes a number (``7`` or ``7H``'s rank)."""

    key: str
    copies: Mapping[str, int]
    standard_cards: bool

    @property
    def size(self) -> int:
        return sum(self.copies.values())

    def parse(self, text: str) -> Piece:
        """One card from its notation; :class:`NotationError` names the bad token."""
        if not isinstance(text, str):
            raise NotationError(self._not_a_card(), token=repr(text))
        token = text.strip().upper()
        named = _NAMED.match(token)
        if named:
            piece = self._parse_face(named.group(1), text)
            if not piece.is_wild:
                raise NotationError(ONLY_WILDS_NAMED, token=text.strip())
            number = self._parse_number(named.group(2), text)
            return Piece(Kind.WILD, piece.face, number)
        return self._parse_face(token, text)

    def _not_a_card(self) -> str:
        return NOT_A_STANDARD_CARD if self.standard_cards else NOT_A_PHASE10_CARD

    def _parse_face(self, token: str, whole: str) -> Piece:
        if self.standard_cards:
            try:
                card = parse_card(token)
            except NotationError:
                raise NotationError(NOT_A_STANDARD_CARD, token=whole.strip()) from None
            if card.is_joker:
                if not card.is_bare_joker:
                    raise NotationError(NOT_A_STANDARD_CARD, token=whole.strip())
                return Piece(Kind.SKIP, "JK")
            assert card.rank is not None and card.suit is not None
            face = card.rank.symbol + card.suit.value
            if card.rank is Rank.KING:
                return Piece(Kind.WILD, face)
            return Piece(Kind.NUMBER, face, int(card.rank), card.suit.value)
        if token == "W":
            return Piece(Kind.WILD, "W")
        if token == "SK":
            return Piece(Kind.SKIP, "SK")
        match = _PHASE10_CODE.match(token)
        if not match:
            raise NotationError(NOT_A_PHASE10_CARD, token=whole.strip())
        return Piece(Kind.NUMBER, token, int(match.group(2)), match.group(1))

    def _parse_number(self, token: str, whole: str) -> int:
        if self.standard_cards:
            number = _STANDARD_NUMBERS.get(token)
        else:
            number = int(token) if token.isdigit() and 1 <= int(token) <= 12 else None
        if number is None:
            raise NotationError(self._not_a_card(), token=whole.strip())
        return number

    def parse_many(self, cards: CardsIn) -> tuple[Piece, ...]:
        """Cards from a string (spaces or commas between them) or a list."""
        if isinstance(cards, str):
            tokens: list[str | Piece] = [t for t in re.split(r"[\s,;]+", cards) if t]
        else:
            try:
                tokens = list(cards)
            except TypeError:
                raise NotationError(NOT_A_CARD_LIST) from None
        return tuple(t if isinstance(t, Piece) else self.parse(t) for t in tokens)

    def format_number(self, number: int) -> str:
        return _NUMBER_SYMBOLS[number] if self.standard_cards else str(number)

    def format(self, piece: Piece) -> str:
        """A piece as this deck writes it: a Wild in a run with its number (``W=5``,
        ``KH=J``)."""
        if piece.is_wild and piece.number is not None:
            return f"{piece.face}={self.format_number(piece.number)}"
        return piece.face

    def check_copies(self, pieces: Iterable[Piece]) -> None:
        """Refuse more copies of a card than this deck holds."""
        counted = Counter(piece.in_hand.face for piece in pieces)
        for face, count in sorted(counted.items()):
            most = self.copies.get(face, 0)
            if count > most:
                raise RuleError(TOO_MANY_COPIES, card=face, count=count, most=most)


def _phase10_copies() -> Mapping[str, int]:
    copies = {f"{colour}{number}": 2 for colour in COLOURS for number in range(1, 13)}
    copies |= {"W": 8, "SK": 4}
    return MappingProxyType(copies)


def _standard_copies() -> Mapping[str, int]:
    copies = {rank.symbol + suit.value: 2 for suit in SUITS for rank in RANKS}
    copies["JK"] = 4
    return MappingProxyType(copies)


PHASE10_DECK = PieceSet("phase10", _phase10_copies(), standard_cards=False)
STANDARD_DECKS = PieceSet("standard", _standard_copies(), standard_cards=True)
DECKS: Mapping[str, PieceSet] = MappingProxyType(
    {deck.key: deck for deck in (PHASE10_DECK, STANDARD_DECKS)}
)


def describe(pieces: Iterable[Piece]) -> str:
    return " ".join(str(piece) for piece in pieces)


__all__ = [
    "DECKS",
    "PHASE10_DECK",
    "STANDARD_DECKS",
    "Kind",
    "Piece",
    "PieceSet",
    "describe",
    "penalty",
]
