"""A Rummikub game entered as the racks left when it ended: who emptied the rack, or that the
pool ran out, and each other rack as its tiles (``R7 K13 JK``) or as what it is worth (``24``).

The form is the final table's (:func:`~referee.web.forms.rounds.quick_form_class`) with each
hand a rack of tiles: the ruleset's pieces read what was typed, so a card is refused in words.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms.validators import ValidationError

from referee.errors import NotationError
from referee.rulesets import Ruleset
from referee.rulesets.options import RoundInput
from referee.tiles import format_tiles, parse_tiles
from referee.web.forms.fields import HandField, add_numbered, check_size
from referee.web.forms.rounds import quick_form_class
from referee.web.play.pools import Pool, state_before
from referee.web.show.i18n import reason_text

RACK_MAX = 60  # more tiles than any rack holds: a longer text is no rack


def read_tiles(text: str) -> list[str]:
    """Canonical tile codes from what was typed; raise ValidationError with the reason."""
    try:
        return format_tiles(parse_tiles(text or "")).split()
    except NotationError as error:
        raise ValidationError(reason_text(error.reason)) from None


class RackField(HandField):
    """A rack left at the end of a game: its tiles, or what it is worth (a whole number)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["render_kw"] = {"data-tiles": "rack", "inputmode": "text"}
        super().__init__(*args, max_cards=RACK_MAX, **kwargs)
        self.render_kw.pop("data-cards", None)  # the card picker has no tiles

    def pre_validate(self, form: Any) -> None:
        text = (self.data or "").strip()
        if text and not text.lstrip("+-").isdigit():
            check_size(text, self.max_cards, self.too_many)
            self.points = None
            self.cards = read_tiles(text)
            return
        super().pre_validate(form)


def racks_form_class(
    rules: Ruleset, players: list[str], inputs: tuple[RoundInput, ...] = ()
) -> type[FlaskForm]:
    """The final-racks form of a match's players."""
    base = quick_form_class(rules, players, inputs)
    made = _MADE.get(base)
    if made is None:  # made once for each shape, as the final table's form
        made = type("RacksForm", (base,), {})
        add_numbered(made, "hand", len(players), lambda i: RackField(_l("Rack")))
        _MADE[base] = made
    return made


_MADE: dict[type[FlaskForm], type[FlaskForm]] = {}


def racks_before(match: Any, number: int) -> Pool | None:
    """Before game ``number`` of a match with no fixed end (neither games nor target): the
    scoreboard offers to stop it.  None when the match has a fixed end or does not replay."""
    state = state_before(match, number)
    if state is None or not state.may_be_stopped:
        return None
    seated = state.players
    totals = {name: state.totals.get(name, 0) for name in seated}
    return Pool(number, None, totals, seated, (), open_ended=True)
