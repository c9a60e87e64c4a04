"""Cards, ranks and suits.

A :class:`Card` is immutable and hashable, read and written in the match-file notation
(:func:`parse_card`, :func:`format_card`; :mod:`referee.notation` is their public home).  A joker is a card too: in a hand it
is a bare joker (``JK``); inside a meld on the table it stands for a named card
(``JK=7H``) and carries that card's rank and suit.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from referee.errors import NotationError
from referee.messages import define_message


class Suit(enum.Enum):
    """The four suits; the value is the notation letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(enum.IntEnum):
    """Ranks in ace-low order; the value is the rank's position (A = 1, K = 13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    @property
    def is_picture(self) -> bool:
        return self >= Rank.JACK


_RANK_SYMBOLS = {rank: str(rank.value) for rank in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}

SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)

JOKER_BIT = 64
"""The :attr:`Card.bit` of every joker: past the 64 bits of the natural cards."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card.

    ``rank`` and ``suit`` are ``None`` only for a bare joker.  A joker that
    stands for a card on the table has ``is_joker`` set and that card's rank
    and suit.

    ``bit`` is the card's bit number in a card mask, worked out once: ``16 * s +
    rank - 1`` for a natural card of the suit at position ``s`` in S H D C (so each
    suit is a 13-bit lane, lanes 3 bits apart), :data:`JOKER_BIT` for any joker.
    The gin solver reads hands through it.

    >>> Card(Rank.TEN, Suit.HEARTS)
    Card.parse('10H')
    >>> Card.parse('jk=7h').stands_for
    Card.parse('7H')
    """

    rank: Rank | None
    suit: Suit | None
    is_joker: bool = False
    bit: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise ValueError("a card has both a rank and a suit, or neither (a bare joker)")
        if self.rank is None and not self.is_joker:
            raise ValueError("only a joker may lack a rank and suit")
        if self.is_joker or self.rank is None or self.suit is None:
            bit = JOKER_BIT
        else:
            bit = 16 * SUITS.index(self.suit) + self.rank - 1
        object.__setattr__(self, "bit", bit)

    def __hash__(self) -> int:
        # The bit tells natural cards apart (jokers share one); cheaper than hashing the
        # rank and suit enums, which decks, counters and places of cards do all the time.
        return self.bit

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def joker(cls, stands_for: Card | None = None) -> Card:
        if stands_for is None:
            return cls(None, None, True)
        return cls(stands_for.rank, stands_for.suit, True)

    @property
    def is_bare_joker(self) -> bool:
        return self.is_joker and self.rank is None

    @property
    def stands_for(self) -> Card | None:
        """The natural card this card plays as (itself, or a named joker's card)."""
        if self.rank is None or self.suit is None:
            return None
        return Card(self.rank, self.suit) if self.is_joker else self

    @property
    def in_hand(self) -> Card:
        """The physical card: a named joker goes back to being a bare joker."""
        return Card.joker() if self.is_joker else self

    @property
    def sort_key(self) -> tuple[int, int, int]:
        if self.rank is None or self.suit is None:
            return (99, 99, 1)
        return (SUITS.index(self.suit), int(self.rank), int(self.is_joker))

    def __str__(self) -> str:
        return format_card(self)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def standard_deck() -> Iterator[Card]:
    """The 52 natural cards, suit by suit."""
    for suit in SUITS:
        for rank in RANKS:
            yield Card(rank, suit)


# -- the notation (referee.notation says it) -------------------------------------------------

NOT_A_CARD = define_message(
    "notation.not_a_card",
    '"{token}" is not a card: write a rank (A 2-10 J Q K) then a suit (S H D C), '
    "like 10H or QS, or JK for a joker",
)
NOT_A_CARD_LIST = define_message(
    "notation.not_a_card_list", "cards must be given as a list of card codes like 7S 8S 9S"
)
JOKER_NAMES_JOKER = define_message(
    "notation.joker_names_joker", '"{token}" is not a card: a joker stands for a real card'
)

_RANKS = {rank.symbol: rank for rank in Rank} | {"T": Rank.TEN}
_SUITS = {suit.value: suit for suit in Suit} | {suit.symbol: suit for suit in Suit}
_SUITS |= {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_CARD = re.compile(r"^(10|[2-9AJQKT])(.)$")
_SEPARATORS = re.compile(r"[\s,;]+")


def _natural(token: str, whole: str) -> Card:
    match = _CARD.match(token)
    if not match or match.group(2) not in _SUITS:
        raise NotationError(NOT_A_CARD, token=whole)
    return Card(_RANKS[match.group(1)], _SUITS[match.group(2)])


def parse_card(text: str) -> Card:
    """One card from its notation; raise :class:`NotationError` naming the bad token."""
    if not isinstance(text, str):
        raise NotationError(NOT_A_CARD, token=repr(text))
    token = text.strip()
    upper = token.upper()
    if upper in ("JK", "JOKER"):
        return Card.joker()
    if upper.startswith("JK="):
        named = upper[3:]
        if named in ("JK", "JOKER") or named.startswith("JK="):
            raise NotationError(JOKER_NAMES_JOKER, token=token)
        return Card.joker(_natural(named, token))
    return _natural(upper, token)


def parse_cards(cards: str | Card | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from a string (separated by spaces or commas), or a list of strings or cards."""
    if isinstance(cards, Card):
        return (cards,)
    if isinstance(cards, str):
        tokens: Iterable[str | Card] = [t for t in _SEPARATORS.split(cards) if t]
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise NotationError(NOT_A_CARD_LIST) from None
    return tuple(token if isinstance(token, Card) else parse_card(token) for token in tokens)


def format_card(card: Card) -> str:
    """The canonical notation of a card."""
    if card.rank is None or card.suit is None:
        return "JK"
    natural = card.rank.symbol + card.suit.value
    return "JK=" + natural if card.is_joker else natural


def format_cards(cards: Sequence[Card] | Iterable[Card], separator: str = " ") -> str:
    return separator.join(format_card(card) for card in cards)
