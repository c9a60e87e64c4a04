"""How cards look on a page: codes to symbols and colours, and the picker's deck."""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import RANKS, SUITS, Card
from referee.errors import NotationError
from referee.notation import format_card, parse_card


@dataclass(frozen=True)
class CardFace:
    code: str  # canonical notation, JK=7H for a named joker
    rank: str  # "10", "Q", "" for a bare joker
    suit: str  # "♥", "" for a bare joker
    colour: str  # "red", "black" or "joker"
    joker: bool

    @property
    def label(self) -> str:
        return "JK" if self.joker and not self.rank else self.rank + self.suit


def face(card: Card | str) -> CardFace:
    """A card's face; a string that is not a card comes back as it was, marked unknown."""
    if isinstance(card, str):
        typed = card
        try:
            card = parse_card(typed)
        except NotationError:
            return CardFace(typed, typed, "", "unknown", False)
    code = format_card(card)
    if card.rank is None or card.suit is None:
        return CardFace(code, "", "", "joker", True)
    colour = "red" if card.suit.is_red else "black"
    return CardFace(code, card.rank.symbol, card.suit.symbol, colour, card.is_joker)


def picker_deck(jokers: bool) -> list[list[CardFace]]:
    """The picker's rows: one per suit, ace to king, and a row with the joker if any."""
    rows = [[face(Card(rank, suit)) for rank in RANKS] for suit in SUITS]
    if jokers:
        rows.append([face(Card.joker())])
    return rows
