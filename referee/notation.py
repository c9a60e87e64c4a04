"""Reading and writing cards in the match-file notation.

Ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` also means 10), suits ``S H D C``
or ``♠ ♥ ♦ ♣``, any case.  ``JK`` is a joker in a hand, ``JK=7H`` a joker on
the table standing for the seven of hearts.  Writers emit the canonical form.

>>> parse_card('th')
Card.parse('10H')
>>> format_cards(parse_cards('10♥ jk=qd JK'))
'10H JK=QD JK'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from referee.cards import Card, Rank, Suit
from referee.errors import NotationError
from referee.messages import define_message

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
