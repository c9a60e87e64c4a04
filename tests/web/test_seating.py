"""A late player joins, a player leaves: the seating page, the score sheet, exports, statistics.

Expected seats, totals and dealers are derived by hand from RULES.md and the decisions in
docs/late-players.md.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import sqlalchemy as sa

from referee.web.store.extensions import db
from referee.web.store.models import Match, SeatSummary

from .helpers import errors, new_match, new_table, save_round, text, totals

THREE = ["Budi", "Siti", "Andi"]
FOUR = ["Budi", "Siti", "Andi", "Dewi"]


@pytest.fixture
def table(client):
    client.submit("/language", {"lang": "en", "next": "/"}, fresh=False)
    return new_table(client, "Budi, Siti, Andi, Eko")


def seating(match: str) -> str:
    return match + "seating"


def join(client, match, data, **kwargs):
    return client.submit(seating(match) + "/join", data, page=seating(match), **kwargs)


def leave(client, match, name, **kwargs):
    return client.submit(
        seating(match) + "/leave", {"leave-player": name}, page=seating(match), **kwargs
    )


def document(client, match):
    return json.loads(client.get(match + "export").data)


def first_round(client, match):
    # Round 1, dealt by Budi: Siti goes out; Budi holds 10H QS (20), Andi 2C (2): Siti 22.
    response = save_round(
        client, match, THREE, {"Budi": "10H QS", "Andi": "2C"}, ending="out", player="Siti"
    )
    assert response.status_code == 302, errors(response)


def test_a_late_player_joins_between_rounds(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    page = client.get(match).text
    assert "Add a player or a player leaves" in page
    # Dewi is new at the table and sits at Andi's left (the end of the list).
    response = join(client, match, {"new_name": "Dewi", "after": "Andi"})
    assert response.status_code == 302, errors(response)
    # She starts with the lowest total (Budi 0, Andi 0): 0.  Budi dealt round 1; the deal
    # moves clockwise in the new seating: Siti deals round 2.
    flashed = text(client.get(match))
    assert "Dewi joins from round 2 with 0 points; Siti deals." in flashed
    assert "Before round 2:" in flashed and "Dewi joins (starts at 0)" in flashed
    assert "Next dealer: Siti" in flashed
    assert totals(client.get(match)) == [0, 22, 0, 0]
    doc = document(client, match)
    assert doc["players"] == THREE
    assert doc["seating_changes"] == [{"before_round": 2, "players": FOUR}]
    # Round 2, dealt by Siti: Dewi goes out; Budi KH (10), Siti 4D (4), Andi AS (1): 15.
    response = save_round(
        client, match, FOUR, {"Budi": "KH", "Siti": "4D", "Andi": "AS"}, ending="out", player="Dewi"
    )
    assert response.status_code == 302, errors(response)
    page = client.get(match).text
    assert totals(client.get(match)) == [0, 22, 0, 15]
    # Round 1's row has no cell for Dewi; round 2 has hers.
    round_one = re.search(r'<strong class="round-no">1</strong>.*?</tbody>', page, re.S).group(0)
    assert round_one.count('class="num not-seated"') == 1
    round_two = re.search(r'<strong class="round-no">2</strong>.*?</tbody>', page, re.S).group(0)
    assert "not-seated" not in round_two
    # Siti dealt round 2: Andi deals round 3, then Dewi round 4.
    assert "Next dealer: Andi" in text(client.get(match))
    assert "joined in round 2" in text(client.get(match))


def test_a_player_leaves_keeps_the_total_and_the_deal_goes_on(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    # Siti (22), due to deal round 2, leaves: the deal goes from Budi's left past her seat:
    # Andi deals.
    response = leave(client, match, "Siti")
    assert response.status_code == 302, errors(response)
    page = text(client.get(match))
    assert "Siti leaves the table with 22 points; Andi deals round 2." in page
    assert "left before round 2" in page and "Next dealer: Andi" in page
    # Round 2: Andi goes out, Budi holds 9H: 9.  Only Budi and Andi have hands to enter.
    response = save_round(
        client, match, ["Budi", "Andi"], {"Budi": "9H"}, ending="out", player="Andi"
    )
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [0, 22, 9]
    # Siti is not a leader, though her 22 is the highest: she is not at the table.
    assert "In the lead: Andi" in text(client.get(match))
    rows = list(csv.reader(io.StringIO(client.get(match + "export.csv").data.decode("utf-8-sig"))))
    # Before round 2, a row says Siti leaves; round 2's row: Budi 0, Siti blank, Andi 9.
    assert rows[2][2:7] == ["seating change", "", "", "leaves", ""]
    assert rows[3][4:7] == ["0", "", "9"]
    # The results card keeps her total, marked.
    assert "1. Siti 22 (left before round 2)" in text(client.get(match + "results"))
    # A double tap (or a second phone) asking Siti to leave again: done already, not a 409.
    again = leave(client, match, "Siti", fresh=False)
    assert again.status_code == 302


def test_a_join_undone_before_any_round(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    assert join(client, match, {"player": "Eko", "after": "Budi"}).status_code == 302
    assert document(client, match)["seating_changes"] == [
        {"before_round": 2, "players": ["Budi", "Eko", "Siti", "Andi"]}
    ]
    # Eko at Budi's left, and Budi dealt round 1: Eko deals round 2.
    assert "Next dealer: Eko" in text(client.get(match))
    assert leave(client, match, "Eko").status_code == 302
    assert "seating_changes" not in document(client, match)
    assert "Eko" not in text(client.get(match)).split("Score sheet")[1].split("Players")[0]


def test_refusals_between_rounds_only_and_as_the_game_allows(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    # Before the first round: the setup says who plays.
    response = join(client, match, {"player": "Eko", "after": "Andi"})
    assert response.status_code == 400
    assert "Before the first round, change the players in the match's setup." in text(response)
    first_round(client, match)
    # In the middle of a live round.
    started = client.submit(
        match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"}
    )
    assert started.status_code == 302, errors(started)
    response = join(client, match, {"player": "Eko", "after": "Andi"})
    assert response.status_code == 400
    assert "A round is being played: players join or leave between rounds." in text(response)
    assert "Add a player or a player leaves" not in client.get(match).text
    assert client.submit(match + "live/discard", {}).status_code == 302
    # remi takes 4 players: a fifth is refused.
    assert join(client, match, {"player": "Eko", "after": "Andi"}).status_code == 302
    response = join(client, match, {"new_name": "Fajar", "after": "Andi"})
    assert response.status_code == 400
    assert "Remi is played by 2 to 4 players: the table would have 5" in errors(response)
    # Someone already seated, written in another case.
    response = join(client, match, {"new_name": "budi", "after": "Andi"})
    assert response.status_code == 400
    assert "Budi is at the table already." in errors(response)


def test_gin_refuses_a_change_of_players(client, table):
    match = new_match(client, table, "gin", ["Budi", "Siti"], target=100)
    data = {"ending": "draw", "action": "save"}
    assert client.submit(match + "rounds/new", data).status_code == 302
    assert "Add a player or a player leaves" not in client.get(match).text
    response = join(client, match, {"player": "Andi", "after": "Siti"})
    assert response.status_code == 400
    assert (
        "Gin Rummy is played by exactly 2 players from start to end: nobody can join or leave a"
        " match; start a new match instead"
    ) in errors(response)


def test_a_stale_join_is_a_conflict_that_keeps_the_choice(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    stale = client.hidden_fields(seating(match) + "/join", seating(match))
    # Meanwhile another phone saves round 2 (dealt by Siti): Budi out, Siti 3H, Andi 4H: 7.
    response = save_round(
        client, match, THREE, {"Siti": "3H", "Andi": "4H"}, ending="out", player="Budi"
    )
    assert response.status_code == 302, errors(response)
    data = {**stale, "player": "Eko", "after": "Siti"}
    response = join(client, match, data, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "The match was changed on another phone meanwhile." in page
    assert (
        '<option selected value="Eko">' in response.text or 'value="Eko" selected' in response.text
    )
    assert "seating_changes" not in document(client, match)
    # The form now names the current version: sent again, it is saved.
    kept = dict(
        re.findall(r'name="(once|match_version)" type="hidden" value="([^"]*)"', response.text)
    )
    assert join(client, match, {**data, **kept}, fresh=False).status_code == 302
    assert document(client, match)["seating_changes"][0]["before_round"] == 3


def test_the_view_link_cannot_change_the_seating(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    view = client.get(table).text
    view_key = re.search(r'value="http://localhost/v/([^/"]+)/"', view).group(1)
    view_match = re.sub(r"/t/[^/]+/", f"/v/{view_key}/", match)
    assert client.get(seating(view_match)).status_code == 404
    assert "Add a player or a player leaves" not in client.get(view_match).text


def test_export_import_and_statistics_follow_the_seating(client, table, app):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    assert join(client, match, {"new_name": "Dewi", "after": "Andi"}).status_code == 302
    response = save_round(
        client, match, FOUR, {"Budi": "KH", "Siti": "4D", "Andi": "AS"}, ending="out", player="Dewi"
    )
    assert response.status_code == 302, errors(response)
    assert leave(client, match, "Budi").status_code == 302
    doc = document(client, match)
    assert doc["seating_changes"] == [
        {"before_round": 2, "players": FOUR},
        {"before_round": 3, "players": ["Siti", "Andi", "Dewi"]},
    ]
    # The match file imports back into the table as the same match (a copy: it is there already).
    response = client.submit(table + "import", {"document": json.dumps(doc), "copy": "y"})
    assert response.status_code == 302, errors(response)
    copy = response.headers["Location"]
    again = document(client, copy)
    assert again["seating_changes"] == doc["seating_changes"]
    assert again["rounds"] == doc["rounds"]
    assert totals(client.get(copy)) == totals(client.get(match)) == [0, 22, 0, 15]
    # The whole table round-trips too.
    exported = client.get(table + "export.json").data
    response = client.post(
        "/tables/import",
        data={"csrf_token": client.csrf(), "file": (io.BytesIO(exported), "table.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, errors(response)
    # Statistics count a round only for the players seated in it: Dewi played round 2 only,
    # Budi rounds 1 and 2, Siti and Andi both.
    with app.app_context():
        match_id = int(re.search(r"/m/(\d+)/", match).group(1))
        rows = db.session.execute(
            sa.select(SeatSummary.player_id, SeatSummary.rounds, SeatSummary.points).where(
                SeatSummary.match_id == match_id
            )
        ).all()
        stored = db.session.get(Match, match_id)
        names = {seat.player_id: seat.player.name for seat in stored.seats}
        figures = {names[player]: (rounds, points) for player, rounds, points in rows}
    assert figures == {"Budi": (2, 0), "Siti": (2, 22), "Andi": (2, 0), "Dewi": (1, 15)}


def test_rename_a_player_who_joined(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    assert join(client, match, {"player": "Eko", "after": "Andi"}).status_code == 302
    page = client.get(table + "settings").text
    forms = re.findall(
        r'/settings/players/(\d+)".*?name="p\1-was"[^>]*?value="([^"]+)"', page, re.S
    )
    eko = {name: number for number, name in forms}["Eko"]
    data = {f"p{eko}-was": "Eko", f"p{eko}-name": "Eko P"}
    response = client.submit(table + f"settings/players/{eko}", data, fresh=False)
    assert response.status_code == 302, errors(response)
    assert document(client, match)["seating_changes"][0]["players"][-1] == "Eko P"
    assert "Eko P joins (starts at 0)" in text(client.get(match))


def test_deleting_the_last_round_undoes_a_join_made_after_it(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    assert join(client, match, {"player": "Eko", "after": "Andi"}).status_code == 302
    response = client.submit(match + "rounds/undo", {}, page=match)
    assert response.status_code == 302, errors(response)
    assert "seating_changes" not in document(client, match)
    assert totals(client.get(match)) == [0, 0, 0]


def test_the_seating_page_in_indonesian(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    client.submit("/language", {"lang": "id", "next": "/"}, fresh=False)
    page = text(client.get(seating(match)))
    assert "Tambah pemain" in page
    response = join(client, match, {"new_name": "Dewi", "after": "Andi"})
    assert response.status_code == 302
    assert "Dewi ikut mulai babak 2 dengan 0 poin; Siti membagi kartu." in text(client.get(match))


def test_the_api_seats_a_late_player(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    first_round(client, match)
    key = re.search(r"/t/([^/]+)/", table).group(1)
    number = re.search(r"/m/(\d+)/", match).group(1)
    url = f"/api/v1/t/{key}/m/{number}"
    english = {"Accept-Language": "en"}
    etag = client.get(url).get_json()["etag"]
    answer = client.put(
        url + "/seating", json={"players": FOUR}, headers={**english, "If-Match": f'"{etag}"'}
    )
    assert answer.status_code == 200, answer.get_json()
    board = answer.get_json()
    # Dewi at Andi's left starts at the lowest total, 0; Budi dealt round 1, Siti deals next.
    assert board["seated"] == FOUR and board["next_dealer"] == "Siti"
    assert board["totals"] == {"Budi": 0, "Siti": 22, "Andi": 0, "Dewi": 0}
    assert board["seating_changes"] == [{"before_round": 2, "players": FOUR}]
    # The version named is stale now: 409, nothing saved.
    stale = client.put(
        url + "/seating", json={"players": THREE}, headers={**english, "If-Match": f'"{etag}"'}
    )
    assert stale.status_code == 409
    # Five players: the referee refuses (422) with the reason.
    etag = board["etag"]
    five = client.put(
        url + "/seating",
        json={"players": [*FOUR, "Eko"]},
        headers={**english, "If-Match": f'"{etag}"'},
    )
    assert five.status_code == 422
    assert five.get_json()["error"]["message"] == (
        "Remi is played by 2 to 4 players: the table would have 5"
    )
