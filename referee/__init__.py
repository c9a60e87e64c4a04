"""Remi Referee: a rules engine for five rummy-family games played with real cards.

The engine is pure Python and imports nothing from the web layer (``referee.web``).
"""

from referee.cards import Card, Rank, Suit
from referee.errors import NotationError, RefereeError
from referee.notation import format_card, format_cards, parse_card, parse_cards

__all__ = [
    "Card",
    "NotationError",
    "Rank",
    "RefereeError",
    "Suit",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
]
