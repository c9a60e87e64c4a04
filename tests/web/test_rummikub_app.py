"""Rummikub in the app: a match set up, games entered as the racks left (tiles or points),
the zero-sum scores and the games won on the scoreboard, the rules page, the match file out
and back in.  Every figure worked out by hand from RULES.md (``rummikub``)."""

from __future__ import annotations

import json
import re

import pytest

from .helpers import errors, new_match, new_table, save_round, text, totals

THREE = ["Budi", "Siti", "Andi"]


def english(client) -> None:
    client.submit("/language", {"lang": "en", "next": "/"})


@pytest.fixture
def table(client):
    english(client)
    return new_table(client)


def rounds_of(client, match):
    return json.loads(client.get(match + "export").data)["rounds"]


def test_a_rack_emptied_then_the_pool_empty(client, table):
    match = new_match(client, table, "rummikub", THREE, dealer="Andi")
    # Andi emptied the rack; Budi R1 R2 = 3, Siti JK K5 = 30 + 5 = 35: Andi +38
    response = save_round(
        client, match, THREE, {"Budi": "r1 r2", "Siti": "JK K5"}, ending="out", player="Andi"
    )
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [-3, -35, 38]
    # the pool ran out: Budi says 12, Siti R3 B4 = 7, Andi K1 O2 = 3, the lowest
    response = save_round(
        client, match, THREE, {"Budi": "12", "Siti": "R3 B4", "Andi": "K1 O2"}, ending="pool"
    )
    assert response.status_code == 302, errors(response)
    page = client.get(match).text
    assert totals(client.get(match)) == [-12, -39, 51]
    assert re.findall(r'data-games-won="(\w+)">\w+ (\d+)', page) == [
        ("Budi", "0"),
        ("Siti", "0"),
        ("Andi", "2"),
    ]
    # no games and no target: the players stop the match when they choose
    version = re.search(r'name="match_version" value="(\d+)"', page).group(1)
    assert "End the match now" in page
    ended = client.submit(match + "stop", {"match_version": version}, fresh=False)
    assert ended.status_code == 302, errors(ended)
    document = json.loads(client.get(match + "export").data)
    assert document["stopped"] is True
    assert rounds_of(client, match) == [
        {"out": "Andi", "hands": {"Budi": ["R1", "R2"], "Siti": ["JK", "K5"]}},
        {"end": "pool", "hands": {"Budi": 12, "Siti": ["R3", "B4"], "Andi": ["K1", "O2"]}},
    ]


def test_a_card_is_refused_in_words_and_nothing_is_saved(client, table):
    match = new_match(client, table, "rummikub", THREE)
    response = save_round(
        client, match, THREE, {"Budi": "7H", "Siti": "R1"}, ending="out", player="Andi"
    )
    assert response.status_code == 400
    assert "7H is a card; Rummikub is played with tiles such as R7" in text(response)
    assert rounds_of(client, match) == []


def test_the_match_file_goes_out_and_back_in(client, table):
    document = {
        "format": "referee-match/1",
        "rules": "rummikub",
        "options": {"initial_meld": 50},
        "players": ["Budi", "Siti"],
        "first_dealer": "Siti",
        "rounds": [
            {
                "turns": [
                    {"player": "Budi", "played": ["R10", "R11", "R12", "R13"], "table": []},
                ],
                "out": "Budi",
                "hands": {"Siti": ["K1"]},
            }
        ],
    }
    # Sabra: the initial meld R10-R13 makes 46, not 50; the whole file is refused in words
    document["rounds"][0]["turns"][0]["table"] = [["R10", "R11", "R12", "R13"]]
    refused = client.submit(table + "import", {"document": json.dumps(document)})
    assert refused.status_code == 400
    assert "the initial meld makes 46 from your rack: 50 needed" in text(refused)
    document["options"] = {"initial_meld": 40}
    response = client.submit(table + "import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    match = response.headers["Location"]
    assert totals(client.get(match)) == [1, -1]  # Siti's K1 is worth 1
    exported = json.loads(client.get(match + "export").data)
    assert exported["rounds"] == document["rounds"]
    assert exported["options"] == {"initial_meld": 40}


def test_a_game_through_the_api(api):
    keys = api.post("/api/v1/tables", json={"name": "Meja", "players": ["Budi", "Siti"]})
    assert keys.status_code == 201, keys.get_json()
    table = keys.get_json()["edit_key"]
    setup = {
        "rules": "rummikub",
        "players": ["Budi", "Siti"],
        "first_dealer": "Siti",
        "options": {"games": 2, "standing": "games_won"},
    }
    made = api.post(f"/api/v1/t/{table}/matches", json=setup)
    assert made.status_code == 201, made.get_json()
    board = made.get_json()
    url = f"/api/v1/t/{table}/m/{board['id']}"
    # the pool ran out: Budi O1 O2 = 3, Siti JK = 30: Budi +27, Siti -27
    game = {"end": "pool", "hands": {"Budi": ["O1", "Y2"], "Siti": ["JK"]}}
    added = api.post(f"{url}/rounds", json=game, headers={"If-Match": f'"{board["etag"]}"'})
    assert added.status_code == 201, added.get_json()
    board = added.get_json()
    assert board["totals"] == {"Budi": 27, "Siti": -27}
    stored = api.get(f"{url}/rounds/1").get_json()
    assert stored["entry"] == {"end": "pool", "hands": {"Budi": ["O1", "O2"], "Siti": ["JK"]}}
    # a card is refused in words, nothing saved
    card = {"out": "Siti", "hands": {"Budi": ["7H"]}}
    headers = {"If-Match": f'"{board["etag"]}"', "Accept-Language": "en"}
    refused = api.post(f"{url}/rounds", json=card, headers=headers)
    assert refused.status_code in (400, 422), refused.get_json()
    assert "7H is a card" in refused.get_json()["error"]["message"]
    assert api.get(url).get_json()["totals"] == {"Budi": 27, "Siti": -27}


TOOLS = "/api/v1/tools/tiles"
EN = {"Accept-Language": "en"}


def test_the_turn_checker_counts_the_initial_meld_from_the_rack(api):
    # K9 B9 JK: the joker counts 9, the group's number: 27
    low = {"before": [], "played": ["K9", "B9", "JK"], "after": [["K9", "B9", "JK=O9"]]}
    answer = api.post(f"{TOOLS}/turn", json={**low, "melded": False}, headers=EN).get_json()
    assert answer == {
        "legal": False,
        "reasons": ["the initial meld makes 27 from your rack: 30 needed"],
        "first_meld": 27,
    }
    ten = {"before": [], "played": ["K10", "B10", "JK"], "after": [["K10", "B10", "JK=O10"]]}
    answer = api.post(f"{TOOLS}/turn", json={**ten, "melded": False}).get_json()
    assert answer == {"legal": True, "reasons": [], "first_meld": 30}
    sabra = {**ten, "melded": False, "options": {"initial_meld": 50}}
    answer = api.post(f"{TOOLS}/turn", json=sabra, headers=EN).get_json()
    assert answer["reasons"] == ["the initial meld makes 30 from your rack: 50 needed"]
    bad = api.post(f"{TOOLS}/turn", json={**ten, "options": {"initial_meld": 101}}, headers=EN)
    assert bad.status_code == 422
    assert "goes from 0 to 100, not 101" in bad.get_json()["error"]["message"]


def test_a_bad_rearrangement_is_put_back(api):
    # the table R7 R8 R9 / K5 B5 O5 was rearranged wrongly; with R10 and R5 from the rack
    # every tile still fits: R7-R10 and the four 5s
    table = [["R7", "R8"], ["R9", "K5"], ["B5", "O5"]]
    answer = api.post(f"{TOOLS}/put-back", json={"table": table, "added": ["R10", "R5"]})
    found = answer.get_json()
    assert found["complete"] and found["back_to_rack"] == [] and found["cannot_place"] == []
    assert sorted(sorted(s) for s in found["table"]) == [
        ["B5", "K5", "O5", "R5"],
        ["R10", "R7", "R8", "R9"],
    ]
    # K1 fits nowhere: it goes back to the rack
    answer = api.post(f"{TOOLS}/put-back", json={"table": table, "added": ["K1"]}).get_json()
    assert answer["back_to_rack"] == ["K1"] and not answer["complete"]


def test_the_hint_says_what_a_rack_can_play(api):
    asked = {"table": [["R7", "R8", "R9"]], "rack": ["R10", "K2"]}
    answer = api.post(f"{TOOLS}/hint", json=asked).get_json()
    assert answer == {"tiles": ["R10"], "table": [["R7", "R8", "R9", "R10"]], "first_meld": None}


def referee_page(client, action, **fields):
    data = {"action": action, "melded": "y", **fields}
    return client.submit("/tiles", data)


def test_the_table_referee_page(client):
    english(client)
    refused = referee_page(client, "check", played="K9 B9 JK", after="K9 B9 JK=O9", melded="")
    assert "the initial meld makes 27 from your rack: 30 needed" in text(refused)
    accepted = referee_page(client, "check", played="K10 B10 JK", after="K10 B10 JK=O10", melded="")
    assert "A legal turn" in text(accepted) and "The initial meld makes 30" in text(accepted)
    # a rearranged table: O10 frees the joker, which goes on with the 13s
    rearranged = referee_page(
        client,
        "check",
        before="R10 R11 R12\nK10 B10 JK=O10\nO13 K13 B13",
        played="O10",
        after="R10 R11 R12\nK10 B10 O10\nO13 K13 B13 JK=R13",
    )
    assert "A legal turn" in text(rearranged)
    put = referee_page(client, "put_back", after="R7 R8\nR9 K5\nB5 O5", played="R10 R5 K1")
    assert sorted(re.findall(r'class="tile-set">([^<]+)<', put.text)) == [
        "K5 B5 O5 R5",
        "R7 R8 R9 R10",
    ]
    assert re.search(r'class="back-to-rack">K1<', put.text)
    sabra = client.submit(
        "/tiles?options=" + json.dumps({"initial_meld": 50}),
        {"action": "check", "played": "K10 B10 JK", "after": "K10 B10 JK=O10"},
    )
    assert "the initial meld makes 30 from your rack: 50 needed" in text(sabra)
    card = referee_page(client, "check", played="7H", after="7H")
    assert card.status_code == 400 and "7H is a card" in text(card)


def test_the_stop_button_says_who_wins_by_the_games_won(client, table):
    match = new_match(client, table, "rummikub", THREE, dealer="Andi", standing="games_won")
    response = save_round(
        client, match, THREE, {"Budi": "r1 r2", "Siti": "JK K5"}, ending="out", player="Andi"
    )
    assert response.status_code == 302, errors(response)
    page = text(client.get(match))
    # RULES.md (rummikub): with standing games_won the most games won win, then the total
    assert "End the match now: the most games won wins, then the highest total" in page
    assert "highest total wins" not in page


def test_the_stop_button_says_the_highest_total_wins_by_points(client, table):
    match = new_match(client, table, "rummikub", THREE, dealer="Andi")
    response = save_round(
        client, match, THREE, {"Budi": "r1 r2", "Siti": "JK K5"}, ending="out", player="Andi"
    )
    assert response.status_code == 302, errors(response)
    assert "End the match now: the highest total wins" in text(client.get(match))
