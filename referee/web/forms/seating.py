"""The forms of the seating page: a player joins the match, a player leaves it."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, SelectField, StringField
from wtforms.validators import Length, Optional

from referee.web.forms.base import Form, OneTimeForm
from referee.web.forms.general import NAME_MAX
from referee.web.play.names import clean_name


class JoinForm(OneTimeForm):
    """Who joins (a player of the table, or a new name) and where they sit; the choices are
    the table's, filled in by the view."""

    match_version = HiddenField()
    player = SelectField(_l("Player of this table"), validate_choice=False)
    new_name = StringField(
        _l("Or a new player"),
        filters=[clean_name],
        validators=[
            Optional(),
            Length(max=NAME_MAX, message=_l("At most %(max)d letters, please.")),
        ],
    )
    after = SelectField(_l("Sits at the left of"), validate_choice=False)


class LeaveForm(Form):
    match_version = HiddenField()
    player = SelectField(_l("Who leaves"), validate_choice=False)
