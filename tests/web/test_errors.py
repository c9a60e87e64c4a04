"""Friendly error pages, and no request ever answers 500."""

from __future__ import annotations

import re

import pytest

from referee.errors import RuleError
from referee.web.store import work
from referee.web.store.extensions import db
from referee.web.store.models import Match, Round

from .helpers import new_match, new_table, save_round, text


def test_not_found_is_a_friendly_page(client):
    response = client.get("/no/such/page/here")
    assert response.status_code == 404
    assert 'class="error-page"' in response.text and 'href="/"' in response.text


def test_wrong_method_is_a_friendly_page(client):
    response = client.get("/tables")
    assert response.status_code == 405 and 'class="error-page"' in response.text


def test_a_form_without_its_csrf_token_saves_nothing(client):
    response = client.post("/tables", data={"name": "Tanpa token"})
    assert response.status_code == 400
    assert 'class="error-page"' in response.text
    assert "Tanpa token" not in text(client.get("/"))


@pytest.mark.parametrize("url", ["/language", "/check", "/gin"])
def test_every_form_needs_its_csrf_token(client, url):
    assert client.post(url, data={"lang": "en", "cards": "7S 8S 9S"}).status_code == 400


def test_a_referee_error_anywhere_becomes_a_message(app):
    @app.get("/boom-referee")
    def boom_referee():
        raise RuleError("rules.unknown", rules="poker", known="remi")

    response = app.test_client().get("/boom-referee")
    assert response.status_code == 400
    assert "poker" in text(response) and 'class="error-page"' in response.text


def test_an_unexpected_error_is_a_friendly_page(app):
    @app.get("/boom")
    def boom():
        raise RuntimeError("bug")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    # The words shown, not a random form token that may happen to spell "bug".
    shown = re.sub(r'value="[^"]*"', "", response.text)
    assert 'class="error-page"' in response.text and "bug" not in shown


def test_a_too_large_upload_is_refused(client):
    table = new_table(client)
    response = client.submit(table + "import", {"document": "x" * (2 * 1024 * 1024)})
    assert response.status_code == 413


def test_a_stored_round_the_referee_refuses_is_shown_not_crashed(client, app):
    table = new_table(client)
    match_url = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, match_url, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        stored = db.session.scalars(db.select(Round)).one()
        stored.entry = {"out": "Budi", "hands": {"Siti": ["KH", "KH"]}}
        work.commit(stored.match_id)
    page = client.get(match_url)
    assert page.status_code == 200
    assert 'class="error-box"' in page.text and "rounds/1/edit" in page.text
    assert client.get(table).status_code == 200
    assert client.get(table + "stats").status_code == 200
    assert client.get(match_url + "rounds/1").status_code == 200
    assert client.get(match_url + "live").status_code == 200
    assert client.get(match_url + "export").status_code == 200


def test_a_stored_match_with_an_unknown_ruleset_is_shown_not_crashed(client, app):
    table = new_table(client)
    match_url = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    with app.app_context():
        match = db.session.scalars(db.select(Match)).one()
        match.rules = "poker"
        work.commit(match)
    for url in ("", "rounds/new", "live", "setup", "export"):
        assert client.get(match_url + url).status_code < 500, url


GARBAGE = ["", "x", "'; drop table", "%00", "9" * 30, "../..", "JK=JK", "💥", "arrange", "7S 8S 9S"]
FIELDS = (
    "name",
    "names",
    "cards",
    "meld",
    "rules",
    "ace",
    "lang",
    "next",
    "player",
    "melds",
    "layoffs",
    "played",
    "table",
    "hand",
    "ending",
    "hand_0",
    "hand_1",
    "seat_0",
    "seat_1",
    "first_dealer",
    "target",
    "custom_target",
    "entry",
    "document",
    "discard",
    "took_discard",
    "closing_card",
    "melds_0",
    "action",
)


@pytest.mark.parametrize("rules", ["remi", "manipulation"])
def test_no_route_answers_500_to_garbage(client, app, rules):
    table = new_table(client)
    match_url = new_match(client, table, rules, ["Budi", "Siti"], target=100)
    if rules == "remi":
        save_round(client, match_url, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    else:  # a live round with a meld on the table, for the turn, arrange and hint forms
        response = client.submit(
            match_url + "live/turn",
            {"player": "Siti", "played": "4H 4D 4C", "table": "4H 4D 4C", "action": "save"},
        )
        assert response.status_code == 302
    key = table.split("/")[2]
    values = {
        "mode": "t",
        "key": key,
        "match_id": match_url.rstrip("/").split("/")[-1],
        "number": "1",
    }
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = rule.rule
        for name in rule.arguments:
            url = url.replace(f"<{name}>", values.get(name, "remi"))
            for converter in ("int:", "any(t,v):"):
                url = url.replace(f"<{converter}{name}>", values.get(name, "remi"))
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for junk in GARBAGE:
                if method == "GET":
                    response = client.get(url, query_string={"x": junk})
                else:
                    response = client.submit(url, dict.fromkeys(FIELDS, junk))
                assert response.status_code < 500, (method, url, junk)


def test_pages_keep_the_table_keys_to_themselves(client):
    response = client.get(new_table(client))
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert 'name="robots" content="noindex' in response.text


def test_static_assets_are_served_by_the_app(client):
    for path in ("/static/css/app.css", "/static/js/app.js", "/static/favicon.svg"):
        response = client.get(path)
        assert response.status_code == 200
        response.close()
    assert "http" not in client.get("/").text.split("<body")[0].replace("http-equiv", "")
