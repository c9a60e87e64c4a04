"""Putting a referee's reason next to the fields it is about."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.errors import NotationError, RefereeError
from referee.integrity import DECK_COPIES, DECK_JOKERS, DECK_ONE_COPY
from referee.match import EMPTY_HAND_IS_OUT, HAND_MISSING
from referee.messages import Reason
from referee.notation import format_card, parse_cards
from referee.web.forms.fields import CardsField, LayoffsField, MeldsField
from referee.web.show.i18n import error_text, reason_text


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


# Reasons about a card in more places than the deck has: every such place is at fault.
EVERY_PLACE = (DECK_ONE_COPY, DECK_COPIES, DECK_JOKERS)


def point_at(fields: Iterable[Any], error: RefereeError) -> int:
    """Add the error to the one field it is most about; how many fields were marked.

    That is the field whose cards are most of them named by the reason (a meld field
    before the whole hand that contains it), then the one holding the most of them.
    A card in more places than the deck has is marked in every place it is.
    """
    named = cards_named(error.reason)
    if not named:
        return 0
    if error.reason.key in EVERY_PLACE:
        text = error_text(error, where=False)
        marked = 0
        for field in fields:
            if named & field_cards(field):
                field.errors = [*field.errors, text]
                marked += 1
        return marked
    candidates = []
    for order, field in enumerate(fields):
        cards = field_cards(field)
        if named & cards:
            share = len(named & cards) / len(cards)
            candidates.append((-share, -len(named & cards), order, field))
    if not candidates:
        return 0
    field = min(candidates, key=lambda found: found[:3])[3]
    field.errors = [*field.errors, error_text(error, where=False)]
    return 1


# The engine's reasons for a hand left out; it names the first such hand only.
EMPTY_HAND_REASONS = (EMPTY_HAND_IS_OUT, HAND_MISSING)


def mark_empty_hands(error: RefereeError, hands: Mapping[str, Any]) -> int:
    """Put the engine's "hand is empty" reason next to every hand field left empty.

    The engine stops at the first empty hand, and its reason holds the same way for every
    other hand left empty in the same round (it depends on the ending, not on the player):
    naming them all at once saves a round trip per player.  ``hands`` maps each player
    whose hand the form asks for to its field.
    """
    if error.reason.key not in EMPTY_HAND_REASONS:
        return 0
    marked = 0
    for name, field in hands.items():
        if not field.data:
            reason = Reason.of(error.reason.key, **{**error.reason.params, "player": name})
            field.errors = [*field.errors, reason_text(reason)]
            marked += 1
    return marked


def show_error(
    form: Any,
    fields: Iterable[Any],
    error: RefereeError,
    number: int | None,
    hands: Mapping[str, Any] | None = None,
) -> None:
    """A referee's refusal, once: next to the fields it names, else at the top of the form.

    On round ``number``'s own form the "Round N, turn T:" location is left out.
    """
    if hands and mark_empty_hands(error, hands):
        return
    if point_at(fields, error):
        return
    form.form_errors.append(error_text(error, where=error.round not in (None, number)))
