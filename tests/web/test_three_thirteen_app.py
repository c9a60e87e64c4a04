"""Three Thirteen in the app: a match of three, its deals entered as their final table, the
next deal's cards and wild rank on the scoreboard, the lowest total leading, a refusal in
words, the API and the match file.  Figures by hand from RULES.md (three-thirteen): deal n
gives n + 2 cards and the rank n + 2 is wild; A 1, 2-10 face value, J Q K 10.

Deal 1 (threes wild, dealer Budi): Siti goes out; Budi holds KS QH 2C (no meld: 22); Andi
holds 5H 5D 3H (3H wild makes a set of fives: 0).  Deal 2 (fours wild, dealer Siti): Andi
goes out; Budi holds AS 2S 3D 9C (no 4: A-2 of spades is no run: 1 + 2 + 3 + 9 = 15); Siti
holds 4H 5S 6S 9D (4H as 7S: 5S 6S 7S; 9D = 9).  Totals: Budi 37, Siti 9, Andi 0.
"""

from __future__ import annotations

import json

from .helpers import errors, new_match, new_table, save_round, text, to_english, totals

THREE = ["Budi", "Siti", "Andi"]


def test_a_three_thirteen_match_through_the_quick_form(client):
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi")
    match = new_match(client, table, "three-thirteen", THREE)
    board = text(client.get(match))
    assert "Next: deal 1 of 11, 3 cards each, wild: 3" in board
    refused = save_round(
        client,
        match,
        THREE,
        {"Siti": "KS QH 2C", "Budi": "5H 5D 3H", "Andi": "4S 4H 9C"},
        ending="out",
        player="Siti",
    )
    assert refused.status_code == 400
    assert any(
        "threes are wild" in message and "Siti cannot go out" in message
        for message in errors(refused)
    )
    saved = save_round(
        client,
        match,
        THREE,
        {"Budi": "KS QH 2C", "Andi": "5H 5D 3H"},
        ending="out",
        player="Siti",
    )
    assert saved.status_code == 302, errors(saved)
    saved = save_round(
        client,
        match,
        THREE,
        {"Budi": "AS 2S 3D 9C", "Siti": "4H 5S 6S 9D"},
        ending="out",
        player="Andi",
    )
    assert saved.status_code == 302, errors(saved)
    page = client.get(match)
    assert totals(page) == [37, 9, 0]
    words = text(page)
    assert "Next: deal 3 of 11, 5 cards each, wild: 5" in words
    assert "In the lead: Andi" in words
    exported = json.loads(client.get(match + "export").data)
    assert exported["rules"] == "three-thirteen"
    assert [round_["out"] for round_ in exported["rounds"]] == ["Siti", "Andi"]


def test_the_scoreboard_counts_the_match_in_deals(client):
    # RULES.md (three-thirteen): eleven deals make a match; the engine names a round a deal.
    to_english(client)
    table = new_table(client, "Budi, Siti")
    match = new_match(client, table, "three-thirteen", ["Budi", "Siti"])
    page = text(client.get(match))
    assert "11 deals ·" in page and "11 rounds" not in page


def test_no_live_round_is_offered(client):
    to_english(client)
    table = new_table(client, "Budi, Siti")
    match = new_match(client, table, "three-thirteen", ["Budi", "Siti"])
    page = text(client.get(match))
    assert "Play a round live" not in page and "Quick round (final table)" not in page
    assert client.get(match + "live").status_code in (302, 303, 404)


def test_the_api_plays_a_deal_and_answers_the_lowest_first(client):
    keys = client.post("/api/v1/tables", json={"name": "Meja", "players": THREE}).json
    made = client.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={"rules": "three-thirteen", "players": THREE, "first_dealer": "Budi"},
    ).json
    path, etag = f"/api/v1/t/{keys['edit_key']}/m/{made['id']}", made["etag"]
    answer = client.post(
        path + "/rounds",
        json={"out": "Siti", "hands": {"Budi": ["KS", "QH", "2C"], "Andi": ["5H", "5D", "3H"]}},
        headers={"If-Match": f'"{etag}"'},
    )
    assert answer.status_code == 201, answer.json
    board = client.get(path).json
    assert board["totals"] == {"Budi": 22, "Siti": 0, "Andi": 0}
    assert [s["player"] for s in board["standings"]] == ["Siti", "Andi", "Budi"]
    assert board["hands"] == 11 and board["finished"] is False
