"""The base of every form: WTForms' own messages in the UI language, through Flask-Babel.

WTForms ships no Indonesian, so its built-in messages ("This field is
required.", "Not a valid integer value." ...) are translated in the app's own
catalogue: they are listed below so that ``python -m referee.web.show.catalog
update`` extracts them.  Validators of the app's forms give their own
messages anyway; this catches whatever a field says by itself.
"""

from __future__ import annotations

from typing import Any

from flask_babel import get_translations
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField

from referee.web.store.writes import new_token

# WTForms' messages that the app's fields can show (see the module docstring).
WTFORMS_MESSAGES = (
    _l("This field is required."),
    _l("Not a valid integer value."),
    _l("Not a valid choice."),
    _l("Number must be between %(min)s and %(max)s."),
    _l("Number must be at least %(min)s."),
    _l("Number must be at most %(max)s."),
    _l("Invalid input."),
)


class _BabelTranslations:
    """The ``gettext``/``ngettext`` pair WTForms asks its Meta for, from Flask-Babel's catalogue
    (``catalogue``: as it stood when the form was made; None: looked up at each message).

    WTForms formats the result itself (``%(min)s``), so these only look the text up.
    """

    def __init__(self, catalogue: Any = None) -> None:
        self.catalogue = catalogue

    def _catalogue(self) -> Any:
        return self.catalogue if self.catalogue is not None else get_translations()

    def gettext(self, string: str) -> str:
        return str(self._catalogue().gettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(self._catalogue().ngettext(singular, plural, n))


TRANSLATIONS = _BabelTranslations()


class Form(FlaskForm):
    """A Flask-WTF form (CSRF included) whose WTForms messages are translated."""

    class Meta:
        def get_translations(self, form: Any) -> _BabelTranslations:
            # Looked up once per form: every field without a label of its own asks for one,
            # and each lookup asks for the locale again.
            return _BabelTranslations(get_translations())


class OneTimeForm(Form):
    """A form that creates something: its one-time token makes a repeated send harmless.

    See :mod:`referee.web.store.writes` (receipts).
    """

    once = HiddenField(default=new_token)
