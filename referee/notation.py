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

from referee.cards import (
    JOKER_NAMES_JOKER,
    NOT_A_CARD,
    NOT_A_CARD_LIST,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)

__all__ = [
    "JOKER_NAMES_JOKER",
    "NOT_A_CARD",
    "NOT_A_CARD_LIST",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
]
