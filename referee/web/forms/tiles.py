"""The Rummikub table referee's form: the table before and after a turn (one set a line), the
tiles played from the rack, whether the player has made the initial meld, and a rack for the
hint.  Only what was typed is read here; the tiles referee judges it."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, StringField, TextAreaField
from wtforms.validators import Length

from referee.web.forms.base import Form

TABLE_TEXT_MAX = 2000  # 106 tiles written out, with room to spare
TILES_TEXT_MAX = 400

TILES_INPUT = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}


class TilesTableForm(Form):
    before = TextAreaField(
        _l("The table before the turn: one set a line"),
        validators=[Length(max=TABLE_TEXT_MAX)],
        render_kw={**TILES_INPUT, "rows": 4, "placeholder": "R10 R11 R12\nK7 B7 JK=O7"},
    )
    played = StringField(
        _l("Tiles played from the rack"),
        validators=[Length(max=TILES_TEXT_MAX)],
        render_kw={**TILES_INPUT, "placeholder": "R13 O7"},
    )
    after = TextAreaField(
        _l("The table now: one set a line"),
        validators=[Length(max=TABLE_TEXT_MAX)],
        render_kw={**TILES_INPUT, "rows": 5},
    )
    melded = BooleanField(_l("This player made the initial meld in an earlier turn"))
    rack = StringField(
        _l("A rack, for the hint"),
        validators=[Length(max=TILES_TEXT_MAX)],
        render_kw={**TILES_INPUT, "placeholder": "R13 K1 B1 O1 JK"},
    )
