"""Language: Indonesian by default, English on request; referee reasons translated.

The English texts (templates, forms and every engine ``define_message``
template) are the message ids; ``translations/id/LC_MESSAGES/messages.po``
holds the Indonesian.  The compiled ``.mo`` is committed; if it is missing or
older than the ``.po`` (after an edit), the app compiles it when it starts.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, g, has_app_context, request, session
from flask_babel import LazyString, get_translations, gettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from referee.errors import RefereeError
from referee.messages import CATALOGUE, Reason

# The most characters of one value (a name, a card typed) that a message repeats.
CLIP = 60

LANGUAGES = {"id": "Bahasa Indonesia", "en": "English"}
DEFAULT = "id"

log = logging.getLogger(__name__)


def select_locale() -> str:
    if request.path.startswith("/api/"):  # no cookie there: the request says
        return request.accept_languages.best_match(LANGUAGES) or DEFAULT
    lang = session.get("lang")
    if lang in LANGUAGES:
        return str(lang)
    return DEFAULT


def _translations() -> Any:
    """This request's translations, looked up once: Flask-Babel finds them again through the
    request's context at every call, and the page of a long match makes hundreds."""
    if not has_app_context():  # no request: Flask-Babel's answer (the English ids)
        return get_translations()
    found = g.get("referee_translations")
    if found is None:
        found = g.referee_translations = get_translations()
    return found


def translated(text: str) -> str:
    """``gettext(text)`` with no values, on :func:`_translations`."""
    return str(_translations().ugettext(text))


def said(text: str, **values: Any) -> Markup:
    """``_(text, **values)`` as a template says it: the translation is markup, the values
    are escaped into it (Jinja's ``_``, for words worked out once per page in Python)."""
    return Markup(_translations().ugettext(text)) % values  # noqa: S704


def install_template_gettext(app: Flask) -> None:
    """The templates' ``_``, ``gettext``, ``ngettext``, ``pgettext`` and ``npgettext`` on
    :func:`_translations` (after Flask-Babel installed its own)."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda text: _translations().ugettext(text),
        ngettext=lambda one, many, n: _translations().ungettext(one, many, n),
        pgettext=lambda context, text: _translations().upgettext(context, text),
        npgettext=lambda context, one, many, n: _translations().unpgettext(context, one, many, n),
        newstyle=True,
    )


# Engine messages that name fields of the match file ("out": true): what a player reads
# instead, in the words of the forms.  Same placeholders as the engine's templates.
PLAYER_WORDING: dict[str, LazyString] = {
    "round.not_marked_out": _l(
        "{player} has no card left after this turn, so {player} went out: tick \u201cThis"
        " player's hand is now empty\u201d"
    ),
    "round.out_not_in_turns": _l(
        "{player} went out, but no turn says that a hand became empty: tick \u201cThis player's"
        " hand is now empty\u201d on the turn in which it did"
    ),
    "round.closing_needs_discard": _l(
        "{player} closes the round by discarding the last card, the closing card: enter it as"
        " the discard of that turn, with \u201cThis player's hand is now empty\u201d ticked"
    ),
    "round.no_ending": _l(
        "the round does not say how it ended: say who went out or who knocked, or how else it ended"
    ),
    "round.no_ending.gin": _l(
        "the round does not say how it ended: say who knocked, or that it was a draw or void"
    ),
    "round.closing_card_missing": _l(
        "the round was closed: give the closing card {player} discarded"
    ),
    "round.closing_card_contradicts": _l(
        "the closing card is given as {said}, but {player} discarded {card} in turn {turn_number}"
    ),
    "round.no_ending.remi": _l(
        "the round does not say how it ended: say who went out, or that it was blocked or void"
    ),
    "round.no_ending.rummy": _l(
        "the round does not say how it ended: say who went out, or that it was void"
    ),
    "round.no_ending.manipulation": _l(
        "the round does not say how it ended: say who went out or who knocked, or that the"
        " stock ran out, or that it was void"
    ),
    "round.no_ending.phase10": _l(
        "the hand does not say how it ended: say who went out, or that it was void"
    ),
    "round.no_ending.contract": _l(
        "the deal does not say how it ended: say who went out, or that it was void"
    ),
    "round.no_ending.three_thirteen": _l(
        "the deal does not say how it ended: say who went out, or that it was void"
    ),
    "round.no_ending.rummy500": _l(
        "the round does not say how it ended: say who went out, or that the stock ran out, or"
        " that it was void"
    ),
    "round.no_ending.canasta": _l(
        "the hand does not say how it ended: say who went out, or that the stock ran out, or"
        " that it was void"
    ),
    "round.no_ending.rummikub": _l(
        "the game does not say how it ended: say who emptied the rack, or that the pool ran"
        " out, or that it was void"
    ),
    "round.no_ending.indian": _l(
        "the deal does not say how it ended: say who showed, or who was left in the deal after"
        " the drops and wrong shows, or that it was void"
    ),
    "indian.end_not_void": _l(
        "a deal of Indian rummy ends with a show or with one player left; otherwise it can only"
        " be void"
    ),
    "indian.show_and_end": _l(
        "a deal ends one way only: say who showed, or that it was void, not both"
    ),
    "round.no_ending.remi_indonesia": _l(
        "the round does not say how it ended: say who closed it and with which card, or that"
        " the stock ran out, or that it was void"
    ),
}


def _player_words(template: str) -> str:
    wording = _wording_by_template().get(template)
    return str(wording) if wording is not None else translated(template)


_WORDING_BY_TEMPLATE: dict[int, dict[str, LazyString]] = {}


def _wording_by_template() -> dict[str, LazyString]:
    """:data:`PLAYER_WORDING` by the engine's template it stands for, made again if the
    catalogue has grown since (a message is defined when its engine module is imported).
    The first key's wording wins where two keys share a template."""
    size = len(CATALOGUE)
    found = _WORDING_BY_TEMPLATE.get(size)
    if found is None:
        found = {}
        for key, wording in PLAYER_WORDING.items():
            if key in CATALOGUE:
                found.setdefault(CATALOGUE[key], wording)
        _WORDING_BY_TEMPLATE.clear()
        _WORDING_BY_TEMPLATE[size] = found
    return found


def reason_text(reason: Reason | str | None) -> str:
    """A referee reason in the UI language, in the words of the forms (never the file's)."""
    if reason is None:
        return ""
    if isinstance(reason, str):
        return _player_words(reason)
    return _clipped(reason).render(_player_words)


def clip(text: str, limit: int = CLIP) -> str:
    """A short prefix of something typed, to repeat in a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clipped(reason: Reason) -> Reason:
    return Reason(
        reason.key,
        {
            name: _ruleset_name(value) if name == "rules" else _clip(value)
            for name, value in reason.params.items()
        },
    )


def _ruleset_name(value: object) -> object:
    """A ruleset named in a message as players know it ("Remi", "Gin Rummy"), not by its id."""
    from referee.rulesets import RULESETS

    for rules in RULESETS.values():
        if value in (rules.id, rules.name):
            return gettext(rules.name)
    return _clip(value)


def _clip(value: object) -> object:
    if isinstance(value, Reason):
        return _clipped(value)
    if isinstance(value, str):
        return clip(value, CLIP * 4 if ", " in value else CLIP)  # a list of names is longer
    if isinstance(value, list | tuple) and all(isinstance(v, Reason) for v in value):
        return type(value)(_clipped(v) for v in value)
    return value


def error_text(error: RefereeError, *, where: bool = True) -> str:
    """A referee error in the UI language, with the round and turn it happened in."""
    text = reason_text(error.reason)
    if not where:
        return text
    if error.round is not None and error.turn is not None:
        return (
            gettext("Round %(round)s, turn %(turn)s: ", round=error.round, turn=error.turn) + text
        )
    if error.round is not None:
        return gettext("Round %(round)s: ", round=error.round) + text
    return text


def compile_catalog(po_path: Path) -> Path:
    """Compile a ``.po`` next to itself, atomically (two processes may do it at once)."""
    mo_path = po_path.with_suffix(".mo")
    with po_path.open("rb") as po_file:
        catalog = read_po(po_file)
    handle, temporary = tempfile.mkstemp(dir=po_path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as mo_file:
            write_mo(mo_file, catalog, use_fuzzy=False)
        os.chmod(temporary, 0o644)
        os.replace(temporary, mo_path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return mo_path


def ensure_compiled(translations: Path) -> None:
    for po_path in translations.glob("*/LC_MESSAGES/*.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        try:
            compile_catalog(po_path)
        except OSError as error:  # a read-only install: use whatever .mo is there
            log.warning("could not compile %s: %s", po_path, error)


def current() -> str:
    """The UI language now: ``id`` or ``en``."""
    from flask_babel import get_locale

    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else DEFAULT
