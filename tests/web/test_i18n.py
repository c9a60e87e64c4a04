"""Indonesian by default, English on request, and every referee reason translated."""

from __future__ import annotations

import gettext
import importlib
import pkgutil
import re

from babel.messages.pofile import read_po

import referee
from referee.messages import CATALOGUE
from referee.web import TRANSLATIONS

from .helpers import text

PO = TRANSLATIONS / "id" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")


def indonesian() -> dict[str, str]:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str)}


def load_engine() -> None:
    """Import every engine module, so that every define_message has run."""
    for module in pkgutil.walk_packages(referee.__path__, "referee."):
        if not module.name.startswith("referee.web") and module.name != "referee.__main__":
            importlib.import_module(module.name)


def test_every_engine_message_has_indonesian():
    """FOR THE LEAD: this lists every engine reason (define_message) with no Indonesian text.

    When it fails, run ``python -m referee.web.catalog update``, fill in the
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

    from referee.web import ROOT

    keywords = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None}
    found: set[str | tuple[str, ...]] = set()
    for folder, method in (("templates", "jinja2"), ("referee/web", "python")):
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
