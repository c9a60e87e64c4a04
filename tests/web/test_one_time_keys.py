"""One-time keys belong to the write that used them first: a form's token and the API's
Idempotency-Key answer again only the same operation on the same target with the same body;
any other use of a known key is a 409 that says so, and nothing is saved.  A correction keeps
its key's receipt like a new round does.  On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match, Round

from .conftest import Client
from .helpers import new_match, new_table, round_data, save_round
from .pageform import as_posted
from .test_api import API, error, version
from .test_api import new_match as new_api_match
from .test_api import new_table as new_api_table

TWO = ["Budi", "Siti"]
SECRET = "f3c1b2a4-9d8e-4c7b-a6f5-0e1d2c3b4a59"


@pytest.fixture
def phone(api_app: Flask) -> Client:
    """A phone posting forms, on a database of each kind."""
    api_app.test_client_class = Client
    return api_app.test_client()  # type: ignore[return-value]


@pytest.fixture
def other_phone(api_app: Flask) -> Client:
    api_app.test_client_class = Client
    return api_app.test_client()  # type: ignore[return-value]


def count(app: Flask, model: type) -> int:
    with app.app_context():
        found = db.session.scalar(select(func.count()).select_from(model))
        db.session.remove()
        return int(found or 0)


def hands_of(app: Flask, match_id: int, number: int) -> dict[str, list[str]]:
    with app.app_context():
        stored = db.session.scalars(
            select(Round).where(Round.match_id == match_id, Round.number == number)
        ).one()
        hands = stored.entry["hands"]
        db.session.remove()
        return hands


def match_id_of(url: str) -> int:
    return int(url.rstrip("/").rsplit("/", 1)[1])


# -- the API's Idempotency-Key ---------------------------------------------------------------


def test_a_new_tables_key_never_answers_another_clients_request(api, api_app):
    first = api.post(f"{API}/tables", json={"name": "Sekali"}, headers={"Idempotency-Key": SECRET})
    assert first.status_code == 201
    tables = count(api_app, CardTable)
    other = api_app.test_client()
    taken = other.post(
        f"{API}/tables",
        json={"name": "Punyaku"},
        headers={"Idempotency-Key": SECRET, "Accept-Language": "en"},
    )
    assert taken.status_code == 409
    assert error(taken)["code"] == "key_used"
    assert "already used for another request" in error(taken)["message"]
    assert first.get_json()["edit_key"] not in taken.get_data(as_text=True)
    assert count(api_app, CardTable) == tables  # nothing made
    # The request itself again (a retry after a lost answer) still gets its table.
    again = api.post(f"{API}/tables", json={"name": "Sekali"}, headers={"Idempotency-Key": SECRET})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["edit_key"] == first.get_json()["edit_key"]


def test_a_new_tables_key_is_a_secret_not_a_word(api, api_app):
    tables = count(api_app, CardTable)
    short = api.post(
        f"{API}/tables",
        json={"name": "Sekali"},
        headers={"Idempotency-Key": "table-1", "Accept-Language": "en"},
    )
    assert short.status_code == 422
    assert "at least 16 characters" in error(short)["message"]
    assert count(api_app, CardTable) == tables


def test_a_rounds_key_sent_with_a_round_of_another_match_is_refused(api, api_app):
    table = new_api_table(api)
    url, board = new_api_match(api, table)
    other_url, other = new_api_match(api, table)
    entry = {"out": "Siti", "hands": {"Budi": ["10H"]}}
    keyed = {"Idempotency-Key": "round-1", "Accept-Language": "en"}
    assert api.post(f"{url}/rounds", json=entry, headers={**version(board), **keyed}).status_code
    elsewhere = api.post(f"{other_url}/rounds", json=entry, headers={**version(other), **keyed})
    assert elsewhere.status_code == 409
    assert error(elsewhere)["code"] == "key_used"
    assert "Idempotency-Key was already used for another request" in error(elsewhere)["message"]
    assert "Idempotent-Replayed" not in elsewhere.headers
    assert api.get(other_url).get_json()["rounds"] == []  # nothing saved, nothing claimed


def test_a_rounds_key_sent_with_another_round_of_the_same_match_is_refused(api):
    table = new_api_table(api)
    url, board = new_api_match(api, table)
    keyed = {**version(board), "Idempotency-Key": "round-1"}
    first = api.post(
        f"{url}/rounds", json={"out": "Siti", "hands": {"Budi": ["10H"]}}, headers=keyed
    )
    assert first.status_code == 201
    other = api.post(
        f"{url}/rounds", json={"out": "Budi", "hands": {"Siti": ["KS"]}}, headers=keyed
    )
    assert other.status_code == 409 and error(other)["code"] == "key_used"
    assert len(api.get(url).get_json()["rounds"]) == 1
    # The same body with its keys in another order is the same request.
    same = api.post(
        f"{url}/rounds", json={"hands": {"Budi": ["10H"]}, "out": "Siti"}, headers=keyed
    )
    assert same.status_code == 201 and same.headers["Idempotent-Replayed"] == "true"


def test_a_corrections_key_answers_only_that_correction(api):
    table = new_api_table(api)
    url, board = new_api_match(api, table)
    saved = api.post(
        f"{url}/rounds", json={"out": "Siti", "hands": {"Budi": ["10H"]}}, headers=version(board)
    )
    board = saved.get_json()
    keyed = {**version(board), "Idempotency-Key": "fix-1"}
    fixed = api.put(
        f"{url}/rounds/1", json={"out": "Siti", "hands": {"Budi": ["KH"]}}, headers=keyed
    )
    assert fixed.status_code == 200
    again = api.put(
        f"{url}/rounds/1", json={"out": "Siti", "hands": {"Budi": ["KH"]}}, headers=keyed
    )
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    other = api.put(
        f"{url}/rounds/1", json={"out": "Siti", "hands": {"Budi": ["2H"]}}, headers=keyed
    )
    assert other.status_code == 409 and error(other)["code"] == "key_used"
    assert api.get(f"{url}/rounds/1").get_json()["entry"]["hands"] == {"Budi": ["KH"]}


# -- the forms' one-time tokens ----------------------------------------------------------------


def test_a_forms_token_sent_again_with_another_round_is_refused(phone, api_app):
    table = new_table(phone)
    match = new_match(phone, table, "remi", TWO, target=100)
    sent = phone.hidden_fields(match + "rounds/new")
    first = {**sent, **round_data(TWO, {"Siti": "KH"}, ending="out", player="Budi")}
    assert phone.submit(match + "rounds/new", first, fresh=False).status_code == 302
    twice = phone.submit(match + "rounds/new", first, fresh=False)  # a double tap
    assert twice.status_code == 302
    other = {**sent, **round_data(TWO, {"Budi": "2C"}, ending="out", player="Siti")}
    phone.submit("/language", {"lang": "en", "next": "/"})
    refused = phone.submit(match + "rounds/new", other, fresh=False)
    assert refused.status_code == 409
    assert "already sent once with other contents" in refused.get_data(as_text=True)
    assert hands_of(api_app, match_id_of(match), 1) == {"Siti": ["KH"]}
    with api_app.app_context():
        rounds = db.session.scalar(select(func.count()).where(Round.match_id == match_id_of(match)))
        db.session.remove()
    assert rounds == 1


def test_a_forms_token_never_leads_to_another_tables_page(phone, other_phone):
    mine = new_table(phone)
    my_match = new_match(phone, mine, "remi", TWO, target=100)
    sent = phone.hidden_fields(my_match + "rounds/new")
    data = {**sent, **round_data(TWO, {"Siti": "KH"}, ending="out", player="Budi")}
    assert phone.submit(my_match + "rounds/new", data, fresh=False).status_code == 302
    theirs = new_table(other_phone)
    their_match = new_match(other_phone, theirs, "remi", TWO, target=100)
    fields = other_phone.hidden_fields(their_match + "rounds/new")
    stolen = {**fields, **data}  # the first table's token, posted to another table's page
    answer = other_phone.submit(their_match + "rounds/new", stolen, fresh=False)
    assert answer.status_code == 409
    assert mine.rstrip("/").rsplit("/", 1)[1] not in answer.get_data(as_text=True)
    assert "Location" not in answer.headers


def test_a_receipt_asked_for_another_page_is_not_this_drafts(phone):
    table = new_table(phone)
    match = new_match(phone, table, "remi", TWO, target=100)
    sent = phone.hidden_fields(match + "rounds/new")
    data = {**sent, **round_data(TWO, {"Siti": "KH"}, ending="out", player="Budi")}
    assert phone.submit(match + "rounds/new", data, fresh=False).status_code == 302
    path = match.split("://")[-1]
    path = path[path.index("/") :] if not path.startswith("/") else path
    right = phone.get(f"/receipts/{sent['once']}", query_string={"at": path + "rounds/new"})
    assert right.status_code == 200 and right.json == {"saved": True}
    wrong = phone.get(f"/receipts/{sent['once']}", query_string={"at": path + "rounds/1/edit"})
    assert wrong.status_code == 409 and wrong.json["saved"] is False
    assert phone.get(f"/receipts/{sent['once']}").json == {"saved": True}


# -- a correction keeps its receipt (the drafts' sequence of two phones) -----------------------


def test_a_landed_corrections_key_answers_saved_and_its_repeat_undoes_nothing(
    phone, other_phone, api_app
):
    for each in (phone, other_phone):
        each.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(phone)
    match = new_match(phone, table, "remi", TWO, target=100)
    assert (
        save_round(phone, match, TWO, {"Siti": "KH"}, ending="out", player="Budi").status_code
        == 302
    )
    edit = match + "rounds/1/edit"
    # Phone B corrects Siti's hand: its key answers "saved" once it landed.
    sent_b = as_posted(phone.get(edit).text, hand_1="KH 2D")
    once_b = sent_b["once"]
    assert phone.submit(edit, sent_b, fresh=False).status_code == 302
    assert phone.get(f"/receipts/{once_b}").json == {"saved": True}
    # Phone A corrects another field of that round.
    sent_a = as_posted(other_phone.get(edit).text, hand_0="", player="Budi", ending="out")
    sent_a["hand_1"] = "KH 2D 3D"
    assert other_phone.submit(edit, sent_a, fresh=False).status_code == 302
    # Phone B's draft sent again (its answer was lost): saved already, A's correction stays.
    again = phone.submit(edit, sent_b, fresh=False)
    assert again.status_code == 302
    assert hands_of(api_app, match_id_of(match), 1) == {"Siti": ["KH", "2D", "3D"]}
    with api_app.app_context():
        assert db.session.get(Match, match_id_of(match)).version >= 3
        db.session.remove()


def test_a_table_files_token_sent_again_with_another_file_is_refused(phone, api_app):
    import io

    from werkzeug.datastructures import FileStorage
    from werkzeug.test import encode_multipart

    from .history_fixture import TABLE

    hidden = phone.hidden_fields("/tables/import")

    def sent(document: dict) -> object:
        values = {
            "csrf_token": phone.csrf(),
            **hidden,
            "file": FileStorage(
                io.BytesIO(json.dumps(document).encode()), "table.json", "application/json"
            ),
        }
        boundary, encoded = encode_multipart(values)
        return phone.post(
            "/tables/import",
            data=encoded,
            content_type=f"multipart/form-data; boundary={boundary}",
        )

    first = sent(TABLE)
    assert first.status_code == 302
    tables = count(api_app, CardTable)
    again = sent(TABLE)  # the same file again (a double tap): where the first one went
    assert again.status_code == 302 and again.headers["Location"] == first.headers["Location"]
    other = sent({**TABLE, "name": "Meja Lain"})
    assert other.status_code == 409
    assert count(api_app, CardTable) == tables
