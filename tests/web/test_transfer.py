"""Export and import of a match as its referee-match/1 document."""

from __future__ import annotations

import io
import json

import pytest

from referee.web.store import work
from referee.web.store.extensions import db
from referee.web.store.models import Match, Round

from .helpers import errors, new_match, new_table, save_round, text, to_english, totals

TWO = ["Budi", "Siti"]
DOC = {
    "format": "referee-match/1",
    "rules": "remi",
    "options": {"target": 100},
    "players": ["Budi", "Siti", "Andi"],
    "first_dealer": "Budi",
    "rounds": [
        {
            "turns": [
                {"player": "Siti", "melds": [["7S", "8S", "9S"]]},
                {"player": "Andi", "layoffs": [{"cards": ["10S"], "onto": 1}]},
                {
                    "player": "Budi",
                    "melds": [["4H", "4D", "4C"], ["JC", "QC", "KC"]],
                    "layoffs": [{"cards": ["6S"], "onto": 1}],
                    "discard": "2D",
                    "out": True,
                },
            ],
            "hands": {
                "Siti": ["KH", "2C", "9D", "5H"],
                "Andi": ["AS", "5D", "QH", "3H", "8D", "JD"],
            },
        }
    ],
}


def test_export_is_the_match_document(client):
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    response = client.get(match + "export")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    doc = json.loads(response.data)
    assert doc == {
        "format": "referee-match/1",
        "rules": "remi",
        "options": {"target": 100},
        "players": ["Budi", "Siti"],
        "first_dealer": "Budi",
        "rounds": [{"out": "Budi", "at_once": False, "hands": {"Siti": ["KH"]}}],
    }


def test_import_a_document_pasted(client):
    table = new_table(client, players="Budi")
    response = client.submit(table + "import", {"document": json.dumps(DOC)})
    assert response.status_code == 302, errors(response)
    match = response.headers["Location"]
    assert totals(client.get(match)) == [126, 0, 0]
    assert json.loads(client.get(match + "export").data) == DOC
    assert "Andi" in client.get(table).text  # new players joined the table


def test_import_a_file(client):
    table = new_table(client, players="")
    data = {"file": (io.BytesIO(json.dumps(DOC).encode()), "match.json")}
    response = client.submit(table + "import", data, content_type="multipart/form-data")
    assert response.status_code == 302, errors(response)
    match = response.headers["Location"]
    # Budi out in his first turn, all at once: (Siti KH 10 + 2C 2 + 9D 9 + 5H 5 = 26, Andi
    # AS 1 + 5D 5 + QH 10 + 3H 3 + 8D 8 + JD 10 = 37) = 63, doubled: 126.
    assert totals(client.get(match)) == [126, 0, 0]
    assert json.loads(client.get(match + "export").data) == DOC


def test_export_then_import_round_trips(client):
    table = new_table(client)
    match = new_match(client, table, "gin", TWO, target=100)
    save_round(client, match, TWO, {}, ending="draw")
    doc = json.loads(client.get(match + "export").data)
    other = new_table(client, players="", name="Lain")
    response = client.submit(other + "import", {"document": json.dumps(doc)})
    assert json.loads(client.get(response.headers["Location"] + "export").data) == doc


@pytest.mark.parametrize(
    ("document", "fragment"),
    [
        ("", ""),
        ("{not json", "Baris 1, kolom 2: "),  # the page is in Indonesian (the default)
        ("[1, 2]", "referee-match/1"),
        (json.dumps(DOC | {"rules": "poker"}), "poker"),
        (json.dumps(DOC | {"players": ["Budi"]}), ""),
        (json.dumps(DOC | {"rounds": [{"out": "Zoe", "hands": {}}]}), "Zoe"),
        (
            json.dumps(DOC | {"rounds": [{"out": "Budi", "hands": {"Siti": ["QQ"], "Andi": []}}]}),
            "QQ",
        ),
        (json.dumps(DOC | {"players": ["B" * 50, "Siti"], "rounds": []}), ""),
    ],
)
def test_import_refuses_a_bad_document_and_saves_nothing(client, document, fragment):
    table = new_table(client, players="")
    response = client.submit(table + "import", {"document": document})
    assert response.status_code == 400
    assert errors(response) and fragment in " ".join(errors(response))
    assert "/m/" not in client.get(table).text


def test_import_page(client):
    table = new_table(client)
    assert client.get(table + "import").status_code == 200


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def imported(client, document: str):
    table = new_table(client, players="")
    return table, client.submit(table + "import", {"document": document})


def stored_match(app, url: str) -> Match:
    return db.session.get(Match, int(url.rstrip("/").rsplit("/", 1)[1]))


def many_rounds(count: int) -> str:
    # Each QUICK round gives Budi KS 10 + 8C 8 = 18: 500 rounds make 9000, below remi's
    # highest target 10000, so every round is played before the match ends.
    doc = DOC | {"options": {"target": 10000}, "rounds": [QUICK] * count}
    return json.dumps(doc)


QUICK = {"out": "Budi", "at_once": False, "hands": {"Siti": ["KS"], "Andi": ["8C"]}}


def test_an_import_with_a_deep_unknown_key_stores_only_the_canonical_round(client, app):
    to_english(client)
    raw = json.dumps(DOC)[:-3] + ', "x": ' + deep(900) + "}]}"
    assert json.loads(raw)["rounds"][0]["x"]
    table, response = imported(client, raw)
    assert response.status_code == 302, errors(response)
    match = response.headers["Location"]
    for url in (match, match + "export", match + "rounds/1", match + "rounds/1/json"):
        assert client.get(url).status_code == 200, url
    for url in (table, table + "stats"):
        assert client.get(url).status_code == 200, url
    assert json.loads(client.get(match + "export").data) == DOC
    with app.app_context():
        assert "x" not in db.session.scalars(db.select(Round)).one().entry


@pytest.mark.parametrize("depth", [5000, 100_000])
def test_an_import_nested_too_deeply_is_refused(client, depth):
    to_english(client)
    _, response = imported(client, deep(depth))
    assert response.status_code == 400
    assert "nested too deeply" in " ".join(errors(response))


def test_rounds_stored_before_imports_were_checked_do_not_break_the_table(client, app):
    to_english(client)
    table = new_table(client)
    deep_one = new_match(client, table, "gin", TWO, target=100)
    save_round(client, deep_one, TWO, {}, ending="draw")
    bad_one = new_match(client, table, "gin", TWO, target=100)
    save_round(client, bad_one, TWO, {}, ending="draw")
    other = new_match(client, table, "gin", TWO, target=100)
    with app.app_context():
        stored_match(app, deep_one).rounds[0].entry = {"end": "draw", "x": json.loads(deep(900))}
        stored_match(app, bad_one).rounds[0].entry = {"end": "draw", "hands": json.loads(deep(50))}
        work.commit(stored_match(app, deep_one), stored_match(app, bad_one))
    page = client.get(table)
    assert page.status_code == 200 and text(page).count("needs a correction") == 1
    assert client.get(table + "stats").status_code == 200
    for url in (deep_one, deep_one + "export", deep_one + "rounds/1", deep_one + "rounds/1/json"):
        assert client.get(url).status_code == 200, url
    board = client.get(bad_one)
    assert board.status_code == 200 and "cannot replay" in text(board)
    assert client.get(bad_one + "rounds/1").status_code == 200
    assert client.get(bad_one + "rounds/1/json").status_code == 200
    assert client.get(bad_one + "rounds/1/edit").status_code == 302  # to the JSON editor
    assert client.get(other).status_code == 200


def test_an_import_of_too_many_rounds_is_refused(client):
    to_english(client)
    _, response = imported(client, many_rounds(501))
    assert response.status_code == 400
    assert "at most 500 rounds" in " ".join(errors(response))


def test_an_import_of_500_rounds_is_taken(client, app):
    to_english(client)
    _, response = imported(client, many_rounds(500))
    assert response.status_code == 302, errors(response)
    match = response.headers["Location"]
    with app.app_context():
        assert len(stored_match(app, match).stored_rounds) == 500
    assert totals(client.get(match)) == [500 * 18, 0, 0]  # 18 a round (see many_rounds)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"players": ["Budi", "Siti", "budi"], "rounds": []}, "written twice"),
        ({"options": {"target": 10**400}}, "target from 1 to 100000"),
        ({"options": {"target": 0}}, "target from 1 to 100000"),
    ],
)
def test_an_import_keeps_to_the_limits_of_the_forms(client, change, fragment):
    to_english(client)
    _, response = imported(client, json.dumps(DOC | change))
    assert response.status_code == 400
    assert fragment in " ".join(errors(response))


def test_an_import_keeps_to_the_number_of_rounds_of_the_setup(client):
    to_english(client)
    doc = DOC | {"rules": "remi-indonesia", "options": {"hands": 101}, "rounds": []}
    _, response = imported(client, json.dumps(doc))
    assert response.status_code == 400
    assert "number of rounds from 1 to 100" in " ".join(errors(response))


def test_an_import_does_not_split_a_player_by_spelling(client):
    to_english(client)
    table = new_table(client, players="budi")
    response = client.submit(table + "import", {"document": json.dumps(DOC)})
    assert response.status_code == 400
    assert "same spelling" in " ".join(errors(response))
