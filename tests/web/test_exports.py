"""Results to share: CSV, the results card and text, a whole table as JSON and back.

The conformance scenarios of the engine (``tests/scenarios``) go through import
and export one by one and as one table, and must come back as they went in.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from referee.match import replay
from referee.matchfile import dump_match, read_match
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match

from .helpers import errors, json_marks, new_table, totals, view_url
from .history_fixture import TABLE

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def scenarios() -> list[tuple[str, dict, dict]]:
    found = []
    for path in sorted(SCENARIOS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        found.append((path.stem, json.loads(path.read_text()), expected))
    return found


SCENARIO_LIST = scenarios()
LEGAL = [(name, doc, expected) for name, doc, expected in SCENARIO_LIST if "error" not in expected]
REFUSED = [(name, doc, expected) for name, doc, expected in SCENARIO_LIST if "error" in expected]


def pinned(output: dict, expected: dict) -> dict:
    """A replay's JSON with only the standings a scenario pins (tests/test_scenarios.py)."""
    if "standings" in expected:
        return output
    return {key: value for key, value in output.items() if key != "standings"}


def english(client) -> None:
    client.submit("/language", {"lang": "en", "next": "/"})


def imported_table(client, document: dict) -> str:
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    return response.headers["Location"]


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(model))


SMALL = {
    "format": "referee-table/1",
    "name": "Meja Kamis",
    "players": [],
    "matches": [
        {
            "rules": "remi",
            "options": {"target": 50},
            "players": ["Budi", "Siti"],
            "rounds": [
                # Budi out; Siti KH QH = 20.
                {"out": "Budi", "hands": {"Siti": ["KH", "QH"]}},
                # Siti out all at once; Budi 5C = 5, doubled: 10.
                {"out": "Siti", "at_once": True, "hands": {"Budi": ["5C"]}},
                {"end": "void"},
                # Budi out; Siti 10S KS QS = 30: Budi 20 + 30 = 50 >= 50 wins.
                {"out": "Budi", "hands": {"Siti": ["10S", "KS", "QS"]}},
            ],
            "started": "2026-03-05T19:00:00+00:00",
            "played": [
                "2026-03-05T19:10:00+00:00",
                "2026-03-05T19:20:00+00:00",
                "2026-03-05T19:30:00+00:00",
                "2026-03-06T19:00:00+00:00",
            ],
        }
    ],
}


# -- CSV ---------------------------------------------------------------------------------------


def test_a_match_as_csv(client):
    table = imported_table(client, SMALL)
    english(client)
    response = client.get(table + "m/1/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    # Dealers: Budi deals round 1, then the deal moves on; a void round keeps its dealer.
    assert rows == [
        ["Round", "Dealer", "Outcome", "Winners", "Budi", "Siti", "Budi, total", "Siti, total"],
        ["1", "Budi", "went out", "Budi", "20", "0", "20", "0"],
        ["2", "Siti", "went out at once ×2", "Siti", "0", "10", "20", "10"],
        ["3", "Budi", "void", "", "0", "0", "20", "10"],
        ["4", "Budi", "went out", "Budi", "30", "0", "50", "10"],
        ["Total", "", "", "Budi", "50", "10", "", ""],
    ]


def test_csv_keeps_match_end_bonuses_apart(client):
    table = imported_table(client, TABLE)
    english(client)
    rows = list(
        csv.reader(io.StringIO(client.get(table + "m/4/export.csv").data.decode("utf-8-sig")))
    )
    # Manipulation M4: Siti 40 + 11 = 51 in rounds, +100 for reaching the target: 151.
    assert rows[-2] == ["Match-end bonuses", "", "", "", "100", "0", "", ""]
    assert rows[-1] == ["Total", "", "", "Siti", "151", "0", "", ""]


def test_csv_cells_never_start_a_formula(client):
    document = {
        "format": "referee-table/1",
        "name": "Meja",
        "matches": [
            {
                "rules": "remi",
                "players": ["=HYPERLINK(1)", "Siti"],
                "rounds": [{"out": "Siti", "hands": {"=HYPERLINK(1)": ["KH"]}}],
            }
        ],
    }
    table = imported_table(client, document)
    text = client.get(table + "m/1/export.csv").data.decode("utf-8-sig")
    assert "'=HYPERLINK(1)" in text and ",=HYPERLINK" not in text and not text.startswith("=")


SEATED = {
    "format": "referee-table/1",
    "name": "Meja",
    "players": [],
    "matches": [
        {
            "rules": "remi",
            "options": {"target": 200},
            "players": ["Budi", "Siti", "Andi"],
            "first_dealer": "Budi",
            "rounds": [
                # Budi deals; Siti out; Budi 10H QS = 20, Andi 2C = 2: Siti 22.
                {"out": "Siti", "hands": {"Budi": ["10H", "QS"], "Andi": ["2C"]}},
                # Dewi joins at the lowest total of the seated (Budi 0, Andi 0): 0.  Siti deals
                # (clockwise after Budi); Dewi out; Budi KH 10, Siti 4D 4, Andi AS 1: Dewi 15.
                {"out": "Dewi", "hands": {"Budi": ["KH"], "Siti": ["4D"], "Andi": ["AS"]}},
                # Andi leaves; Dewi deals (after Siti); Budi out; Siti KH 10, Dewi 2C 2: Budi 12.
                {"out": "Budi", "hands": {"Siti": ["KH"], "Dewi": ["2C"]}},
            ],
            "seating_changes": [
                {"before_round": 2, "players": ["Budi", "Siti", "Andi", "Dewi"]},
                {"before_round": 3, "players": ["Budi", "Siti", "Dewi"]},
                # Andi comes back for round 4 (not played yet), with the 0 he left with.
                {"before_round": 4, "players": ["Budi", "Siti", "Andi", "Dewi"]},
            ],
        }
    ],
}


def test_csv_shows_seating_changes_as_rows(client):
    table = imported_table(client, SEATED)
    english(client)
    rows = list(
        csv.reader(io.StringIO(client.get(table + "m/1/export.csv").data.decode("utf-8-sig")))
    )
    head = ["Round", "Dealer", "Outcome", "Winners", "Budi", "Siti", "Andi", "Dewi"]
    assert rows[0] == head + ["Budi, total", "Siti, total", "Andi, total", "Dewi, total"]
    assert rows[1:] == [
        ["1", "Budi", "went out", "Siti", "0", "22", "0", "", "0", "22", "0", ""],
        ["Before round 2", "", "seating change", "", "", "", "", "joins", "", "", "", "0"],
        ["2", "Siti", "went out", "Dewi", "0", "0", "0", "15", "0", "22", "0", "15"],
        ["Before round 3", "", "seating change", "", "", "", "leaves", "", "", "", "", ""],
        ["3", "Dewi", "went out", "Budi", "12", "0", "", "0", "12", "22", "", "15"],
        ["Before round 4", "", "seating change", "", "", "", "comes back", "", "", "", "", ""],
        ["Total", "", "", "", "12", "22", "0", "15", "", "", "", ""],
    ]


# -- the results card --------------------------------------------------------------------------


def test_results_text_and_card(client):
    table = imported_table(client, SMALL)
    english(client)
    page = client.get(table + "m/1/results")
    assert page.status_code == 200
    text = page.text.split("<textarea")[1].split(">", 1)[1].split("</textarea>")[0]
    assert text == (
        "Remi · Meja Kamis\n2026-03-06 · 4 rounds\n\n🏆 Budi 50\n2. Siti 10\n\nWinner: Budi\n\nRemi Referee"
    )
    card = client.get(table + "m/1/card.svg")
    assert card.status_code == 200 and card.mimetype == "image/svg+xml"
    svg = card.text
    assert "Remi · Meja Kamis" in svg and ">Budi<" in svg and ">50<" in svg and ">10<" in svg
    # Self-contained: it shows the same in a chat, a file or under the page's security policy.
    assert (
        "<style" not in svg and "<script" not in svg and "style=" not in svg and "href" not in svg
    )
    download = client.get(table + "m/1/card.svg?download=1")
    assert "attachment" in download.headers["Content-Disposition"]


def test_results_in_indonesian_while_the_match_goes_on(client):
    table = imported_table(client, TABLE)
    page = client.get(table + "m/3/results").text  # remi-indonesia M3, still going
    text = page.split("<textarea")[1].split(">", 1)[1].split("</textarea>")[0]
    # Siti 170, Budi 75, Andi -15; nobody has won yet.
    assert text.splitlines()[3:6] == ["1. Siti 170", "2. Budi 75", "3. Andi -15"]
    assert "klasemen" in text.splitlines()[1].lower() and "🏆" not in text


def test_equal_totals_share_a_place(client):
    document = {
        "format": "referee-table/1",
        "name": "Meja",
        "matches": [
            {
                "rules": "remi",
                "players": ["Budi", "Siti", "Andi"],
                "rounds": [
                    # Budi out: Siti AS 1 + Andi 9H 9 = 10.
                    {"out": "Budi", "hands": {"Siti": ["AS"], "Andi": ["9H"]}},
                    # Siti out: Budi 9D 9 + Andi AD 1 = 10.
                    {"out": "Siti", "hands": {"Budi": ["9D"], "Andi": ["AD"]}},
                ],
            }
        ],
    }
    table = imported_table(client, document)
    page = client.get(table + "m/1/results").text
    text = page.split("<textarea")[1].split(">", 1)[1].split("</textarea>")[0]
    assert text.splitlines()[3:6] == ["1. Budi 10", "1. Siti 10", "3. Andi 0"]


# -- the whole table ---------------------------------------------------------------------------


def test_a_table_exports_and_imports_back_the_same(client, app):
    table = imported_table(client, TABLE)
    exported = json.loads(client.get(table + "export.json").data)
    assert exported["format"] == "referee-table/1" and exported["name"] == "Meja Jumat"
    assert exported["players"] == ["Andi", "Budi", "Dewi", "Siti"]
    for sent, back in zip(TABLE["matches"], exported["matches"], strict=True):
        engine_view = {
            key: value for key, value in sent.items() if key not in ("started", "played")
        }
        assert {k: v for k, v in back.items() if k not in ("started", "played")} == dump_match(
            read_match(engine_view)
        )
        assert (back["started"], back["played"]) == (sent["started"], sent["played"])
    again = imported_table(client, exported)
    assert json.loads(client.get(again + "export.json").data) == exported
    # The copy has its own links and the same history.
    assert again != table
    assert client.get(again + "stats").text.count("<tr data-player") == client.get(
        table + "stats"
    ).text.count("<tr data-player")


def test_the_view_link_exports_the_table_too(client):
    table = imported_table(client, SMALL)
    response = client.get(view_url(client, table) + "export.json")
    assert response.status_code == 200 and json.loads(response.data)["name"] == "Meja Kamis"


@pytest.mark.parametrize(
    ("document", "fragment"),
    [
        ("", "Choose a table file"),
        ("{not json", "Line 1, column 2: a name in double quotes"),
        ('{"format": "referee-table/1", "name": "x", "n": ' + "9" * 5000 + "}", "4300 digits"),
        ("[]", "referee-table/1"),
        (json.dumps({"format": "referee-match/1"}), "referee-table/1"),
        (json.dumps(SMALL | {"name": " "}), "name"),
        (json.dumps(SMALL | {"name": "x" * 81}), "name"),
        (json.dumps(SMALL | {"players": "Budi"}), "players"),
        (json.dumps(SMALL | {"players": ["Budi", "budi"]}), "same spelling"),
        (json.dumps(SMALL | {"matches": {}}), "matches"),
        (
            json.dumps(
                SMALL
                | {"matches": [SMALL["matches"][0], {"rules": "poker", "players": ["A", "B"]}]}
            ),
            "Match 2",
        ),
        (
            json.dumps(
                SMALL
                | {"matches": [SMALL["matches"][0] | {"rounds": [{"out": "Zoe", "hands": {}}]}]}
            ),
            "Zoe",
        ),
        (
            json.dumps(
                SMALL | {"matches": [SMALL["matches"][0] | {"players": ["Budi", "B" * 41]}]}
            ),
            "40",
        ),
        (
            json.dumps(SMALL | {"matches": [SMALL["matches"][0] | {"options": {"target": 0}}]}),
            "target",
        ),
        # The last round of the match is played after it was won.
        (
            json.dumps(
                SMALL
                | {
                    "matches": [
                        SMALL["matches"][0]
                        | {"rounds": [*SMALL["matches"][0]["rounds"], {"end": "void"}]}
                    ]
                }
            ),
            "Match 1",
        ),
    ],
)
def test_a_refused_table_creates_nothing(client, app, document, fragment):
    english(client)
    tables, matches = count(app, CardTable), count(app, Match)
    response = client.submit("/tables/import", {"document": document})
    assert response.status_code == 400
    assert fragment in " ".join(errors(response)), errors(response)
    assert (count(app, CardTable), count(app, Match)) == (tables, matches)


def stored_as_small(client, table: str) -> None:
    """The table imported from SMALL is stored whole: its match, rounds and totals."""
    exported = json.loads(client.get(table + "export.json").data)
    assert exported["name"] == "Meja Kamis" and exported["players"] == ["Budi", "Siti"]
    (match,) = exported["matches"]
    sent = SMALL["matches"][0]["rounds"]
    assert [entry.get("out") for entry in match["rounds"]] == ["Budi", "Siti", None, "Budi"]
    assert [entry.get("hands") for entry in match["rounds"]] == [
        entry.get("hands") for entry in sent
    ]
    assert match["rounds"][2]["end"] == "void"
    assert match["played"] == SMALL["matches"][0]["played"]
    # Budi 20 + 30 = 50, Siti 10 (see SMALL).
    assert totals(client.get(table + "m/1/")) == [50, 10]


def test_a_table_file_upload(client):
    data = {"file": (io.BytesIO(json.dumps(SMALL).encode()), "table.json")}
    response = client.submit("/tables/import", data, content_type="multipart/form-data")
    assert response.status_code == 302, errors(response)
    assert "Meja Kamis" in client.get("/").text  # remembered with its edit link
    stored_as_small(client, response.headers["Location"])


def test_a_table_import_needs_its_form_token(client, app):
    tables = count(app, CardTable)
    response = client.post("/tables/import", data={"document": json.dumps(SMALL)})
    assert response.status_code == 400 and count(app, CardTable) == tables


def test_a_big_table_fits_where_a_match_file_would_not(client):
    document = SMALL | {"matches": SMALL["matches"] * 1, "padding": "x" * (2 * 1024 * 1024)}
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    stored_as_small(client, response.headers["Location"])


# A match document whose line 3 lacks a comma after "Siti" (column 25: where "rounds" starts).
BROKEN_MATCH = (
    '{"rules": "remi",\n "players": ["Budi", "Siti"],\n "first_dealer": "Siti" "rounds": []}'
)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Line 3, column 25: a comma is missing between two items."),
        ("id", "Baris 3, kolom 25: koma kurang di antara dua isian."),
    ],
)
def test_json_mistakes_of_both_imports_in_the_pages_language(client, app, language, words):
    """The match import and the table import say where the JSON stops, in the page's language
    (not Python's ``Expecting ',' delimiter``), with the line and a mark under the place."""
    table = new_table(client, players="")
    client.submit("/language", {"lang": language, "next": "/"})
    matches = count(app, Match)
    # ' "first_dealer": "Siti" ' is columns 1-24 (a space, "first_dealer" 2-15, : 16, a space,
    # "Siti" 18-23, a space): the reading stops at column 25.
    mark = [' "first_dealer": "Siti" "rounds": []}', " " * 24 + "^"]
    match_import = client.submit(table + "import", {"document": BROKEN_MATCH})
    assert match_import.status_code == 400
    assert errors(match_import) == [words] and json_marks(match_import.text) == [mark]
    assert "Expecting" not in match_import.text
    # The same mistake in a table document, on its line 3: a space, "players" 2-10, : 11, a
    # space, [] 13-14, a space: column 16.
    whole = '{"format": "referee-table/1",\n "name": "Meja",\n "players": [] "matches": []}'
    table_import = client.submit("/tables/import", {"document": whole})
    assert table_import.status_code == 400
    assert errors(table_import) == [words.replace("25", "16")]
    assert json_marks(table_import.text) == [[' "players": [] "matches": []}', " " * 15 + "^"]]
    assert count(app, Match) == matches


# -- every conformance scenario through import and export ------------------------------------


@pytest.mark.parametrize(("name", "document", "expected"), LEGAL, ids=[s[0] for s in LEGAL])
def test_every_legal_scenario_round_trips_as_a_match(client, name, document, expected):
    table = new_table(client, players="")
    response = client.submit(table + "import", {"document": json.dumps(document)})
    assert response.status_code == 302, (name, errors(response))
    exported = json.loads(client.get(response.headers["Location"] + "export").data)
    assert exported == dump_match(read_match(document))
    assert pinned(replay(exported).to_json(), expected) == expected


@pytest.mark.parametrize(("name", "document", "expected"), REFUSED, ids=[s[0] for s in REFUSED])
def test_every_refused_scenario_is_refused_by_both_imports(client, app, name, document, expected):
    table = new_table(client, players="")
    matches, tables = count(app, Match), count(app, CardTable)
    assert client.submit(table + "import", {"document": json.dumps(document)}).status_code == 400
    whole = {"format": "referee-table/1", "name": name[:80], "matches": [document]}
    response = client.submit("/tables/import", {"document": json.dumps(whole)})
    assert response.status_code == 400 and errors(response), name
    assert (count(app, Match), count(app, CardTable)) == (matches, tables)


def test_every_legal_scenario_round_trips_in_one_table(client):
    whole = {
        "format": "referee-table/1",
        "name": "Scenarios",
        "matches": [document for _name, document, _expected in LEGAL],
    }
    table = imported_table(client, whole)
    exported = json.loads(client.get(table + "export.json").data)
    assert len(exported["matches"]) == len(LEGAL)
    for (name, document, expected), back in zip(LEGAL, exported["matches"], strict=True):
        match_only = {k: v for k, v in back.items() if k not in ("started", "played")}
        assert match_only == dump_match(read_match(document)), name
        assert pinned(replay(match_only).to_json(), expected) == expected, name


def test_a_table_import_sent_twice_makes_one_table(client, app):
    import re

    page = client.get("/tables/import").text
    once = re.search(r'name="once" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="once" value="([^"]+)"', page
    )
    assert once, "the import form carries a one-time token"
    tables = count(app, CardTable)
    data = {"document": json.dumps(SMALL), "once": once.group(1)}
    first = client.submit("/tables/import", data)
    second = client.submit("/tables/import", data)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert count(app, CardTable) == tables + 1


def test_archived_matches_travel_and_deleted_ones_stay_behind(client):
    table = imported_table(client, TABLE)
    assert client.submit(table + "m/1/archive").status_code == 302
    assert client.submit(table + "m/2/delete").status_code == 302
    exported = json.loads(client.get(table + "export.json").data)
    assert len(exported["matches"]) == 7  # M2 deleted
    assert "archived" in exported["matches"][0] and "archived" not in exported["matches"][1]
    again = imported_table(client, exported)
    listed = client.get(again + "matches?show=archived").text
    assert listed.count('class="listed ') == 1
    assert json.loads(client.get(again + "export.json").data) == exported
