"""Cards, ranks and suits.

A :class:`Card` is immutable and hashable.  A joker is a card too: in a hand it
is a bare joker (``JK``); inside a meld on the table it stands for a named card
(``JK=7H``) and carries that card's rank and suit.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field


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
        from referee.notation import parse_card

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
        from referee.notation import format_card

        return format_card(self)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def standard_deck() -> Iterator[Card]:
    """The 52 natural cards, suit by suit."""
    for suit in SUITS:
        for rank in RANKS:
            yield Card(rank, suit)
