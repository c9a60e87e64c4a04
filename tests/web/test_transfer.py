"""Export and import of a match as its referee-match/1 document."""

from __future__ import annotations

import io
import json

import pytest

from .helpers import errors, new_match, new_table, save_round, totals

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
        ("{not json", "JSON"),
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
