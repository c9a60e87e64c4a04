"""Indonesian by default, English on request, and every referee reason translated."""

from __future__ import annotations

import gettext
import importlib
import pkgutil
import re

import pytest
from babel.messages.pofile import read_po

import referee
from referee.messages import CATALOGUE
from referee.web import TRANSLATIONS

from .helpers import errors, new_match, new_table, save_round, text, to_english

PO = TRANSLATIONS / "id" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")


def indonesian() -> dict[str, str]:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str)}


def load_engine() -> None:
    """Import every engine module, so that every define_message has run."""
    for module in pkgutil.walk_packages(referee.__path__, "referee."):
        # A package's __main__ runs its command when imported.
        if not module.name.startswith("referee.web") and not module.name.endswith(".__main__"):
            importlib.import_module(module.name)


def test_every_engine_message_has_indonesian():
    """FOR THE LEAD: this lists every engine reason (define_message) with no Indonesian text.

    When it fails, run ``python -m referee.web.show.catalog update``, fill in the
    empty ``msgstr`` entries of ``referee/web/translations/id/LC_MESSAGES/messages.po``
    (the app recompiles the .mo when it starts; the update command compiles it too),
    and commit both files.
    """
    load_engine()
    translated = indonesian()
    missing = sorted(
        f"{key}: {template}" for key, template in CATALOGUE.items() if not translated.get(template)
    )
    assert not missing, "engine messages without Indonesian:\n" + "\n".join(missing)


def ui_texts() -> set[str | tuple[str, ...]]:
    """Every text the web layer shows: the templates' and the web package's own messages."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    from referee.web.serving.paths import ROOT

    keywords = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None}
    found: set[str | tuple[str, ...]] = set()
    for folder, method in (("referee/web/templates", "jinja2"), ("referee/web", "python")):
        pattern = "**.html" if method == "jinja2" else "**.py"
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / folder), method_map=[(pattern, method)], keywords=keywords
        ):
            found.add(message)
    return found


def test_every_ui_text_has_indonesian():
    """FOR THE LEAD: like the engine messages, every template and form text needs Indonesian."""
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    missing = []
    for message_id in ui_texts():
        message = catalog.get(message_id)
        strings = message.string if message is not None else ""
        strings = strings if isinstance(strings, tuple) else (strings,)
        if not all(strings):
            missing.append(message_id if isinstance(message_id, str) else message_id[0])
    assert not missing, "texts without Indonesian:\n" + "\n".join(sorted(missing))


def test_translations_keep_every_placeholder():
    for english, translation in indonesian().items():
        if not translation:
            continue
        for pattern in (r"\{(\w+)\}", r"%\((\w+)\)s"):
            assert set(re.findall(pattern, english)) == set(re.findall(pattern, translation)), (
                english
            )


def test_compiled_catalogue_matches_the_po():
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for english, translation in indonesian().items():
        if translation:
            assert compiled.gettext(english) == translation, english


def test_indonesian_is_the_default(client):
    page = client.get("/")
    assert 'lang="id"' in page.text and "Meja saya" in text(page)


def test_switch_to_english_and_back(client):
    response = client.submit("/language", {"lang": "en", "next": "/rules/"})
    assert response.status_code == 302 and response.headers["Location"] == "/rules/"
    page = client.get("/")
    assert 'lang="en"' in page.text and "My tables" in text(page)
    client.submit("/language", {"lang": "id", "next": "/"})
    assert "Meja saya" in text(client.get("/"))


def test_an_unknown_language_changes_nothing(client):
    client.submit("/language", {"lang": "fr", "next": "/"})
    assert 'lang="id"' in client.get("/").text


def test_language_switch_never_redirects_elsewhere(client):
    for target in ("//evil.example/", "https://evil.example/", "\\\\evil", ""):
        response = client.submit("/language", {"lang": "en", "next": target})
        assert response.headers["Location"] == "/"


def test_a_referee_reason_inside_a_reason_is_translated(client):
    response = client.submit("/check", {"rules": "remi", "cards": "10S", "meld": "7S 8S 9S JS"})
    page = text(response)
    assert "tidak" in page
    client.submit("/language", {"lang": "en", "next": "/"})
    page = text(client.submit("/check", {"rules": "remi", "cards": "QS", "meld": "7S 8S 9S"}))
    assert "cannot be laid off" in page and "10S, JS are missing between 9S and QS" in page


def test_every_ruleset_description_has_indonesian():
    from referee.rulesets import RULESETS

    translated = indonesian()
    assert [r.id for r in RULESETS.values() if not translated.get(r.description)] == []


@pytest.fixture
def table(client):
    return new_table(client)


THREE = ["Budi", "Siti", "Andi"]


@pytest.mark.parametrize("value", ["abc", "0"])
def test_form_messages_are_in_indonesian(client, table, value):
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "custom"}
    response = client.submit(f"{table}new/remi", {**data, "custom_target": value})
    assert response.status_code == 400
    page = text(response)
    for english_text in ("Not a valid integer value.", "Number must be between", "required"):
        assert english_text not in page
    assert errors(response)


def test_every_wtforms_message_is_in_the_catalogue(app):
    from referee.web.forms.base import TRANSLATIONS

    with app.test_request_context():
        from flask import session

        session["lang"] = "id"
        assert TRANSLATIONS.gettext("Not a valid integer value.") != "Not a valid integer value."
        assert TRANSLATIONS.gettext("This field is required.") != "This field is required."


def test_indonesian_wording_of_the_three_undos(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    save_round(client, match, THREE, {"Siti": "KH", "Andi": "2C"}, ending="out", player="Budi")
    client.submit(match + "live/turn", {"player": "Andi", "melds": "7S 8S 9S", "action": "save"})
    assert "Tarik giliran terakhir" in text(client.get(match + "live"))
    assert "Batalkan babak (skor 0)" in text(client.get(match + "rounds/1"))
    client.submit(match + "live/discard")
    page = text(client.get(match))
    assert "Hapus babak terakhir" in page and "Hapus babak 1?" in page


TWO = ["Budi", "Siti"]


def live_turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def test_the_indonesian_lay_off_hint_says_rangkaian(client):
    to_english(client)
    client.submit("/language", {"lang": "id", "next": "/"})
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=200)
    assert live_turn(client, match, player="Budi", melds="7S 8S 9S", turns_before=0)
    page = text(client.get(match + "live"))
    assert "rangkaian yang disorot" in page and "kombinasi" not in page
