"""Hostile input and abuse found on the app after tests/web/test_hostile.py: each answered
500, broke a connection, locked a table out, or let something through that should not be."""

from __future__ import annotations

import json

import pytest

from referee.web.extensions import db
from referee.web.models import CardTable, Match, Round

from .helpers import errors, new_match, new_table, save_round, to_english

API = "/api/v1"
EN = {"Accept-Language": "en"}

# Python reads at most 4,300 digits into an int (sys.get_int_max_str_digits) and raises
# ValueError past that: json.loads raised it out of every parser of the app.
HUGE = "9" * 5000
TOO_LONG_EN = "A number has more than 4300 digits: no score, option or card needs one that long."
TOO_LONG_ID = (
    "Ada angka dengan lebih dari 4300 digit: tidak ada skor, opsi, atau kartu yang butuh"
    " angka sepanjang itu."
)


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(model))


# -- integers too long for Python's int, in any JSON read --------------------------------------


@pytest.fixture
def api_table(app):
    api = app.test_client()
    keys = api.post(f"{API}/tables", json={"name": "Meja", "players": ["Budi", "Siti"]}).get_json()
    made = api.post(
        f"{API}/t/{keys['edit_key']}/matches",
        json={"rules": "manipulation", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    )
    assert made.status_code == 201
    return api, keys["edit_key"], made.get_json()


@pytest.mark.parametrize(
    "path, body",
    [
        ("/tools/meld", '{"rules": "remi", "cards": ["7S"], "x": HUGE}'),
        ("/tools/gin", '{"cards": ["7S"], "deadwood": -HUGE}'),
        ("/tools/arrange", '{"table": [], "played": [HUGE]}'),
        ("/tables", '{"name": "Meja", "players": ["Budi"], "n": HUGE}'),
        ("/t/{key}/players", '{"players": [HUGE]}'),
        ("/t/{key}/matches", '{"rules": "remi", "options": {"target": HUGE}}'),
        ("/t/{key}/m/{id}/rounds", '{"out": "Siti", "hands": {"Budi": [HUGE]}}'),
        ("/t/{key}/m/{id}/live/turns", '{"player": "Budi", "melds": [[HUGE]]}'),
        ("/t/{key}/m/{id}/seating", '{"players": ["Budi", HUGE]}'),
    ],
)
def test_a_huge_integer_in_an_api_body_is_a_400_that_says_so(app, api_table, path, body):
    api, key, board = api_table
    tables, rounds = count(app, CardTable), count(app, Round)
    headers = EN | {"If-Match": f'"{board["etag"]}"'}
    url = API + path.format(key=key, id=board["id"])
    response = api.open(
        url,
        method="PUT" if path.endswith("seating") else "POST",
        data=body.replace("HUGE", HUGE),
        content_type="application/json",
        headers=headers,
    )
    assert response.status_code == 400
    answer = response.get_json()["error"]
    assert answer["code"] == "malformed" and answer["message"] == TOO_LONG_EN
    assert (count(app, CardTable), count(app, Round)) == (tables, rounds)


def test_the_api_says_it_in_indonesian_by_default(api_table):
    api, _key, _board = api_table
    response = api.post(
        f"{API}/tools/meld",
        data='{"x": HUGE}'.replace("HUGE", HUGE),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == TOO_LONG_ID


def test_a_long_integer_python_still_reads_is_left_to_the_schema(api_table):
    api, _key, _board = api_table
    body = '{"rules": "remi", "cards": ["7S", "8S", "9S"], "x": HUGE}'.replace("HUGE", "9" * 4300)
    response = api.post(f"{API}/tools/meld", data=body, content_type="application/json")
    assert response.status_code == 400  # an unknown field, as any other
    assert response.get_json()["error"]["message"] != TOO_LONG_EN


@pytest.mark.parametrize("english", [True, False])
def test_the_round_json_editor_refuses_a_huge_integer(client, app, english):
    if english:
        to_english(client)
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, match, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        before = db.session.scalars(db.select(Round)).one().entry
    body = '{"out": "Budi", "hands": {"Siti": ["KH"]}, "x": HUGE}'.replace("HUGE", HUGE)
    response = client.submit(match + "rounds/1/json", {"entry": body})
    assert response.status_code == 400
    assert errors(response) == [TOO_LONG_EN if english else TOO_LONG_ID]
    with app.app_context():
        assert db.session.scalars(db.select(Round)).one().entry == before


def match_document(**extra) -> str:
    document = {
        "format": "referee-match/1",
        "rules": "remi",
        "options": {"target": 100},
        "players": ["Budi", "Siti"],
        "first_dealer": "Budi",
        "rounds": [{"end": "void"}],
    }
    return json.dumps(document | extra).replace('"HUGE"', HUGE)


def test_a_match_import_with_a_huge_integer_is_refused(client, app):
    to_english(client)
    table = new_table(client, players="Budi, Siti")
    response = client.submit(table + "import", {"document": match_document(seed="HUGE")})
    assert response.status_code == 400
    assert errors(response) == ["the match file has a number of more than 4300 digits"]
    assert count(app, Match) == 0


def test_a_table_import_with_a_huge_integer_says_why(client, app):
    to_english(client)
    whole = json.dumps({"format": "referee-table/1", "name": "Meja", "matches": [], "n": "HUGE"})
    tables = count(app, CardTable)
    response = client.submit("/tables/import", {"document": whole.replace('"HUGE"', HUGE)})
    assert response.status_code == 400
    assert errors(response) == [TOO_LONG_EN]
    assert count(app, CardTable) == tables
