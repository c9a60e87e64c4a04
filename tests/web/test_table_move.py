"""A whole table moved: the streamed export of 1,000 matches imports back as it was, and the
same match is never imported twice into a table (unless the player asks for a copy)."""

from __future__ import annotations

import copy
import io
import json
import re

import sqlalchemy as sa
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from referee.matchfile import dump_match, read_match
from referee.web.store import summary
from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchSummary

from .helpers import errors, new_match, new_table, save_round, text, to_english
from .history_fixture import MATCHES, TABLE

TEMPLATE_NAMES = ("Andi", "Budi", "Dewi", "Siti")


def renamed(document: dict, suffix: str) -> dict:
    """The match with every player's name followed by ``suffix`` (a different match)."""
    dumped = json.dumps(document)
    for name in TEMPLATE_NAMES:
        dumped = dumped.replace(f'"{name}"', f'"{name} {suffix}"')
    return json.loads(dumped)


def big_table(count: int) -> dict:
    """``count`` different matches: the eight of the history fixture, again and again, the
    players renamed each time round."""
    matches = [renamed(MATCHES[i % len(MATCHES)], str(i // len(MATCHES))) for i in range(count)]
    return {"format": "referee-table/1", "name": "Meja Besar", "players": [], "matches": matches}


def import_file(client, document: dict | str, **fields) -> object:
    """Send a table file as a phone's form does (multipart), encoded in memory: werkzeug's test
    client would spool a large body to a file it never closes."""
    body = document if isinstance(document, str) else json.dumps(document)
    values = {
        "csrf_token": client.csrf(),
        **client.hidden_fields("/tables/import"),
        "file": FileStorage(
            io.BytesIO(body.encode()), "table.json", content_type="application/json"
        ),
        **fields,
    }
    boundary, encoded = encode_multipart(values)
    return client.post(
        "/tables/import",
        data=encoded,
        content_type=f"multipart/form-data; boundary={boundary}",
    )


def without_times(match: dict) -> dict:
    return {key: value for key, value in match.items() if key not in ("started", "played")}


def test_a_thousand_matches_export_as_a_stream_and_import_back(client, app):
    sent = big_table(1000)
    response = import_file(client, sent)
    assert response.status_code == 302, errors(response)
    table = response.headers["Location"]

    exported = client.get(table + "export.json")
    assert exported.status_code == 200 and exported.is_streamed
    body = exported.get_data(as_text=True)
    # A match a line: the head line, 1,000 matches, the closing line.
    assert len(body.splitlines()) == 1000 + 2
    back = json.loads(body)
    assert back["name"] == "Meja Besar" and len(back["matches"]) == 1000
    for original, written in zip(sent["matches"], back["matches"], strict=True):
        assert without_times(written) == dump_match(read_match(without_times(original)))
        assert (written["started"], written["played"]) == (original["started"], original["played"])

    again = import_file(client, body)
    assert again.status_code == 302, errors(again)
    assert again.headers["Location"] != table
    assert client.get(again.headers["Location"] + "export.json").get_data(as_text=True) == body
    with app.app_context(), db.engine.connect() as connection:
        assert summary.check(connection) == []
        rounds = connection.execute(sa.select(sa.func.sum(MatchSummary.rounds))).scalar()
    # Both tables hold every round of the document.
    assert rounds == 2 * sum(len(match["rounds"]) for match in sent["matches"])


def test_a_table_file_larger_than_a_pasted_document_may_be(client, app):
    """A file is read as a stream from disk: past the 32 MiB a pasted document may have."""
    padded = json.dumps(big_table(8))
    padded = padded[:-1] + ', "notes": "' + "x" * (33 * 1024 * 1024) + '"}'
    response = import_file(client, padded)
    assert response.status_code == 302, errors(response)[:1]


def test_json_mistakes_in_a_table_file_say_where(client):
    to_english(client)
    response = import_file(client, '{"format": "referee-table/1", "name": "M" "matches": []}')
    assert response.status_code == 400
    assert "Line 1, column" in " ".join(errors(response))


def test_a_match_twice_in_a_table_document_is_refused_unless_kept_as_a_copy(client, app):
    to_english(client)
    twice = copy.deepcopy(TABLE)
    twice["matches"] = [*MATCHES, copy.deepcopy(MATCHES[2])]
    refused = import_file(client, twice)
    assert refused.status_code == 400
    assert errors(refused) == [
        "Match 9: it is the same match as match 3. To keep both, tick"
        " “Import repeated matches as copies”."
    ]
    kept = import_file(client, twice, copies="y")
    assert kept.status_code == 302, errors(kept)
    exported = json.loads(client.get(kept.headers["Location"] + "export.json").data)
    assert [match.get("copy") for match in exported["matches"]] == [None] * 8 + [True]
    # The export says which match is the copy: it imports back without being asked.
    assert import_file(client, exported).status_code == 302


def match_import(client, table: str, document: dict, **fields):
    return client.submit(table + "import", {"document": json.dumps(document), **fields})


def stored_matches(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Match))


def test_a_match_imported_twice_is_refused_with_a_link_to_the_first(client, app):
    to_english(client)
    table = new_table(client)
    first = match_import(client, table, MATCHES[0])
    assert first.status_code == 302
    again = match_import(client, table, MATCHES[0])
    assert again.status_code == 400
    assert errors(again) == [
        "This match is already at this table (same players, game, options and rounds)."
        " Tick “Import it again as a copy” to keep a second one."
    ]
    link = re.search(r'id="already-imported"><a class="button" href="([^"]+)"', again.text)
    assert link and link.group(1) == first.headers["Location"]
    assert stored_matches(app) == 1
    # The same match written another way (lower case cards, keys in another order) is the same.
    lower = json.loads(json.dumps(MATCHES[0]["rounds"]).replace("KH", "kh").replace("QH", "QH"))
    respelt = MATCHES[0] | {"rounds": lower}
    assert match_import(client, table, respelt).status_code == 400
    copied = match_import(client, table, MATCHES[0], copy="y")
    assert copied.status_code == 302 and stored_matches(app) == 2
    # Another round makes another match.
    longer = MATCHES[1] | {"rounds": MATCHES[1]["rounds"][:1]}
    assert match_import(client, table, longer).status_code == 302


def test_a_match_played_here_is_recognised_when_its_export_comes_back(client, app):
    to_english(client)
    table = new_table(client, "Budi, Siti")
    scoreboard = new_match(client, table, "rummy", ["Budi", "Siti"])
    saved = save_round(
        client, scoreboard, ["Budi", "Siti"], {"Siti": "KS QS"}, ending="out", player="Budi"
    )
    assert saved.status_code == 302, errors(saved)
    exported = json.loads(client.get(scoreboard + "export").data)
    assert len(exported["rounds"]) == 1
    refused = match_import(client, table, exported)
    assert refused.status_code == 400 and "already at this table" in text(refused)


def test_an_imported_match_deleted_can_be_imported_again(client, app):
    table = new_table(client)
    first = match_import(client, table, MATCHES[0])
    scoreboard = first.headers["Location"]
    assert client.submit(scoreboard + "delete").status_code == 302
    assert match_import(client, table, MATCHES[0]).status_code == 302


def test_the_duplicate_texts_are_in_indonesian(client):
    table = new_table(client)
    match_import(client, table, MATCHES[0])
    again = match_import(client, table, MATCHES[0])
    assert again.status_code == 400
    assert errors(again) == [
        "Pertandingan ini sudah ada di meja ini (pemain, permainan, pilihan, dan babak yang"
        " sama). Centang “Impor lagi sebagai salinan” untuk menyimpan yang kedua."
    ]


def test_a_table_file_nested_too_deep_is_refused_before_it_is_built(client):
    """Deep nesting costs a streaming reader time with every level: it stops at 64."""
    to_english(client)
    deep = '{"format": "referee-table/1", "name": "M", "matches": [' + "[" * 50_000
    response = import_file(client, deep + "]" * 50_000 + "]}")
    assert response.status_code == 400
    assert errors(response) == ["The document is nested too deeply."]


def test_a_table_file_with_a_byte_order_mark(client):
    response = import_file(client, "\ufeff" + json.dumps(TABLE))
    assert response.status_code == 302, errors(response)
