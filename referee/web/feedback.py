"""Putting a referee's reason next to the fields it is about."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from referee.errors import NotationError, RefereeError
from referee.messages import Reason
from referee.notation import format_card, parse_cards
from referee.web.fields import CardsField, LayoffsField, MeldsField
from referee.web.i18n import error_text


def cards_named(reason: Reason) -> set[str]:
    """The card codes a reason mentions in its parameters (nested reasons included)."""
    found: set[str] = set()
    for value in reason.params.values():
        values = value if isinstance(value, list | tuple) else [value]
        for item in values:
            if isinstance(item, Reason):
                found |= cards_named(item)
            elif isinstance(item, str):
                try:
                    found |= {format_card(card) for card in parse_cards(item)}
                except NotationError:
                    pass
    return found


def field_cards(field: Any) -> set[str]:
    if isinstance(field, MeldsField):
        return {card for meld in field.melds for card in meld}
    if isinstance(field, LayoffsField):
        return {card for layoff in field.layoffs for card in layoff["cards"]}
    if isinstance(field, CardsField):
        return set(field.cards)
    return set()


def point_at(fields: Iterable[Any], error: RefereeError) -> int:
    """Add the error to every field holding a card the reason names; how many were marked."""
    named = cards_named(error.reason)
    if not named:
        return 0
    text = error_text(error, where=False)
    marked = 0
    for field in fields:
        if named & field_cards(field):
            field.errors = [*field.errors, text]
            marked += 1
    return marked
