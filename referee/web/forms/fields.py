"""Form fields that read cards: a list of cards, one meld per line, lay-offs.

Fields only read the notation (a bad token is reported next to the field with
the engine's own reason); whether the cards make a legal play is the
engine's decision, made when the round is replayed.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, StringField, TextAreaField
from wtforms.validators import NumberRange, StopValidation, ValidationError

from referee.errors import NotationError
from referee.notation import format_card, parse_cards
from referee.web.play.limits import NUMBER_DIGITS_MAX
from referee.web.show.i18n import reason_text

# More cards than two decks and their jokers in one box is a mistake (or an attack).
CARDS_MAX = 110
# The most characters a box of cards holds: the whole table of two decks, with room to spare.
CARD_TEXT_MAX = 1500
_TOKEN = re.compile(r"[^\s,;]+")


def check_size(text: str, max_cards: int = CARDS_MAX, too_many: Any = None) -> None:
    """Refuse too much typed before reading a card of it (reading costs time per card)."""
    if len(text) > CARD_TEXT_MAX:
        raise ValidationError(
            _l("That is too long: at most %(max)s characters.", max=CARD_TEXT_MAX)
        )
    count = sum(1 for _ in _TOKEN.finditer(text))
    if count > max_cards:
        raise ValidationError(too_many or _l("Too many cards: at most %(max)s.", max=max_cards))


def read_cards(text: str) -> list[str]:
    """Canonical card codes from what was typed; raise ValidationError with the reason."""
    try:
        return [format_card(card) for card in parse_cards(text or "")]
    except NotationError as error:
        raise ValidationError(reason_text(error.reason)) from None


def _typed_cards(kwargs: dict[str, Any], kind: str, **attributes: Any) -> dict[str, Any]:
    """A field's arguments, rendered as an input for card codes (``data-cards``: for the picker)."""
    kwargs["render_kw"] = {
        "autocomplete": "off",
        "autocapitalize": "characters",
        "spellcheck": "false",
        "data-cards": kind,
        **attributes,
        **(kwargs.get("render_kw") or {}),
    }
    return kwargs


class CardsField(StringField):
    """Cards separated by spaces or commas: ``7S 8S 9S``; at most ``max_cards`` of them."""

    data: str | None
    cards: list[str]

    def __init__(
        self, *args: Any, max_cards: int = CARDS_MAX, too_many: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **_typed_cards(kwargs, ""))
        self.cards = []
        self.max_cards = max_cards
        self.too_many = too_many

    def process_formdata(self, valuelist: list[Any]) -> None:
        super().process_formdata(valuelist)
        self.data = (self.data or "").strip()

    def pre_validate(self, form: Any) -> None:
        check_size(self.data or "", self.max_cards, self.too_many)
        self.cards = read_cards(self.data or "")


_POINTS = re.compile(r"^[+-]?\d{1,9}$")


class HandField(CardsField):
    """A hand left at the end of a final-table round: its cards, or what it counts (``24``).

    A whole number is the hand's points (docs/points.md); anything else is read as cards.
    """

    points: int | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.points = None

    def pre_validate(self, form: Any) -> None:
        text = (self.data or "").strip()
        self.points = None
        if _POINTS.match(text):
            self.cards = []
            self.points = int(text)
            if self.points < 0:
                raise ValidationError(_l("A hand counts 0 points or more."))
            return
        super().pre_validate(form)

    @property
    def hand(self) -> list[str] | int:
        """The cards, or the points when a number was typed."""
        return self.points if self.points is not None else self.cards


class LiveHandField(CardsField):
    """A hand left at the end of a live round: its cards (the turns were checked card by card,
    so the hands are too; a number is refused with that reason, not as a bad card)."""

    def pre_validate(self, form: Any) -> None:
        if _POINTS.match((self.data or "").strip()):
            raise ValidationError(
                _l(
                    "A round played live needs the cards left in each hand, not what they"
                    " count: tap or type them (like 7S 10H)."
                )
            )
        super().pre_validate(form)


class CardField(CardsField):
    """Exactly one card, or nothing."""

    def pre_validate(self, form: Any) -> None:
        super().pre_validate(form)
        if len(self.cards) > 1:
            raise ValidationError(_l("Enter one card here."))

    @property
    def card(self) -> str | None:
        return self.cards[0] if self.cards else None


class MeldsField(TextAreaField):
    """Melds, one per line: ``7S 8S 9S`` then ``4H 4D 4C`` on the next line."""

    melds: list[list[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **_typed_cards(kwargs, "lines", rows=2))
        self.melds = []

    def pre_validate(self, form: Any) -> None:
        check_size(self.data or "")
        lines = [line for line in (self.data or "").splitlines() if line.strip()]
        self.melds = [read_cards(line) for line in lines]


try:  # WTForms 3.3 wants SelectChoice values; older versions take (value, label) pairs
    from wtforms.fields.choices import SelectChoice as _SelectChoice
except ImportError:  # pragma: no cover
    _SelectChoice = None


def choices(pairs: list[tuple[str, Any]]) -> list[Any]:
    """Choices for a SelectField or RadioField from ``(value, label)`` pairs."""
    if _SelectChoice is None:  # pragma: no cover
        return list(pairs)
    return [_SelectChoice(value, label) for value, label in pairs]


# A meld number has at most 3 digits (no table holds a thousand melds).
_LAYOFF = re.compile(
    r"^(?P<cards>.*?)\s*(?:>|->|→|@|\bon\b|\bke\b)\s*#?(?P<onto>\d{1,3})\s*$", re.I
)
_LAYOFF_FIRST = re.compile(r"^#?(?P<onto>\d{1,3})\s*[:>]\s*(?P<cards>.*)$")


class LayoffsField(TextAreaField):
    """Lay-offs, one per line: the cards, then ``>`` and the meld's number: ``10S > 1``."""

    layoffs: list[dict[str, Any]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **_typed_cards(kwargs, "layoffs", rows=2))
        self.layoffs = []

    def pre_validate(self, form: Any) -> None:
        self.layoffs = []
        check_size(self.data or "", max_cards=3 * CARDS_MAX)  # each line adds "> 1"
        for line in (self.data or "").splitlines():
            if not line.strip():
                continue
            match = _LAYOFF.match(line.strip()) or _LAYOFF_FIRST.match(line.strip())
            if not match:
                raise ValidationError(
                    _l(
                        '"%(line)s": write the cards, then > and the meld number, like 10S > 1',
                        line=line.strip(),
                    )
                )
            cards = read_cards(match.group("cards"))
            if not cards:
                raise ValidationError(
                    _l(
                        '"%(line)s": which cards go onto meld %(onto)s?',
                        line=line.strip(),
                        onto=match.group("onto"),
                    )
                )
            self.layoffs.append({"cards": cards, "onto": int(match.group("onto"))})


def numbered(form: Any, prefix: str) -> list[Any]:
    """The fields ``prefix_0``, ``prefix_1`` ... of a form, in order (one per seat).

    Per-seat fields are separate named fields, not a FieldList: a FieldList
    renumbers its entries when one is missing from the posted form, which
    would hand one player's cards to another.
    """
    found: list[Any] = []
    while (field := getattr(form, f"{prefix}_{len(found)}", None)) is not None:
        found.append(field)
    return found


def add_numbered(form_class: Any, prefix: str, count: int, make: Any) -> None:
    """Add the fields ``prefix_0`` ... ``prefix_{count-1}`` made by ``make(index)``."""
    for index in range(count):
        setattr(form_class, f"{prefix}_{index}", make(index))


def cards_by_player(form: Any, prefix: str, names: list[str]) -> dict[str, list[str]]:
    return {name: field.cards for name, field in zip(names, numbered(form, prefix), strict=True)}


def hands_by_player(form: Any, prefix: str, names: list[str]) -> dict[str, list[str] | int]:
    """Each player's hand: the cards, or the points of a :class:`HandField` given a number."""
    fields = zip(names, numbered(form, prefix), strict=True)
    return {name: getattr(field, "hand", field.cards) for name, field in fields}


def hand_text(hand: Any) -> str:
    """A stored hand as a form shows it: card codes, or the number of points."""
    if isinstance(hand, int) and not isinstance(hand, bool):
        return str(hand)
    return " ".join(hand or [])


class NumberField(IntegerField):
    """A whole number; something else typed is one translated message, not two."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and not str(valuelist[0]).strip():
            self.data = None  # left empty: Optional() decides
            return
        if (
            valuelist
            and len(str(valuelist[0]).strip().lstrip("+-").lstrip("0")) > NUMBER_DIGITS_MAX
        ):
            self.data = None  # int() would take it, but WTForms' range check cannot
            raise ValueError(self._out_of_range())
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(_l("Enter a whole number, like 250.")) from None

    def _out_of_range(self) -> Any:
        for validator in self.validators:
            if isinstance(validator, NumberRange) and validator.message:
                return validator.message % {"min": validator.min, "max": validator.max}
        return _l("That number is too big.")

    def pre_validate(self, form: Any) -> None:
        if self.process_errors:  # not a number: the range check has nothing to say
            raise StopValidation()
