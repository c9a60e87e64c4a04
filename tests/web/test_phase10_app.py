"""Phase 10 in the app: a match of three, its hands entered as their final table, each
player's phase on the scoreboard and the hand form, a refusal in words, the API and the
match file.  Figures by hand from RULES.md (phase10): 5 for each 1-9, 10 for each 10-12,
15 a Skip, 25 a Wild; only the players who made their phase move on.

Hand 1 (dealer Budi): Siti goes out with phase 1; Andi made phase 1 and holds W SK (40);
Budi made none and holds R1-R9 R10 (55).  Hand 2 (dealer Siti): Budi is still on phase 1,
so his "phase 2" is refused; Budi goes out with phase 1, Siti lays phase 2 as R5 B5 G5 /
Y1 Y2 W=3 B4 and holds R11 (10), Andi misses phase 2 with G1-G9 G12 (55).  Totals Budi 55,
Siti 10, Andi 95; next: Budi phase 2, Siti phase 3, Andi phase 2.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .helpers import errors, new_match, new_table, text, to_english, totals

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
THREE = ["Budi", "Siti", "Andi"]
TEN = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10"


def hand(client, match, made=None, phases=None, hands=None, out=None, ending="out"):
    data = {"ending": ending, "player": out or "", "action": "save"}
    for i, name in enumerate(THREE):
        data[f"made_{i}"] = str((made or {}).get(name, ""))
        data[f"phase_{i}"] = (phases or {}).get(name, "")
        data[f"hand_{i}"] = (hands or {}).get(name, "")
    return client.submit(match + "rounds/new", data)


def phase_now(page, player):
    found = re.search(rf'data-player="{player}" data-phase="(\d*)"', page.get_data(as_text=True))
    assert found, player
    return found.group(1)


def test_a_phase10_match_through_the_hand_form(client):
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi")
    match = new_match(client, table, "phase10", THREE)
    board = client.get(match)
    assert [phase_now(board, name) for name in THREE] == ["1", "1", "1"]
    form = text(client.get(match + "rounds/new"))
    assert "on phase 1" in form
    saved = hand(
        client,
        match,
        made={"Siti": 1, "Andi": 1},
        hands={"Budi": TEN, "Andi": "W SK"},
        out="Siti",
    )
    assert saved.status_code == 302, errors(saved)
    board = client.get(match)
    assert totals(board) == [55, 0, 40]
    assert [phase_now(board, name) for name in THREE] == ["1", "2", "2"]
    words = text(board)
    assert "made phase 1" in words and "no phase" in words
    refused = hand(
        client,
        match,
        made={"Budi": 2, "Siti": 2},
        hands={"Siti": "R11", "Andi": "G1 G2 G3 G4 G5 G6 G7 G8 G9 G12"},
        out="Budi",
    )
    assert refused.status_code == 400
    assert any("Budi is on phase 1, not phase 2" in message for message in errors(refused))
    skipped = hand(
        client,
        match,
        made={"Budi": 1, "Siti": 2},
        phases={"Siti": "R5 B5 SK\nY1 Y2 W=3 B4"},
        hands={"Siti": "R11", "Andi": "G1 G2 G3 G4 G5 G6 G7 G8 G9 G12"},
        out="Budi",
    )
    assert skipped.status_code == 400
    assert any("a Skip is never in a meld" in message for message in errors(skipped))
    saved = hand(
        client,
        match,
        made={"Budi": 1, "Siti": 2},
        phases={"Siti": "R5 B5 G5\nY1 Y2 W=3 B4"},
        hands={"Siti": "R11", "Andi": "G1 G2 G3 G4 G5 G6 G7 G8 G9 G12"},
        out="Budi",
    )
    assert saved.status_code == 302, errors(saved)
    board = client.get(match)
    assert totals(board) == [55, 10, 95]
    assert [phase_now(board, name) for name in THREE] == ["2", "3", "2"]
    assert "In the lead: Siti" in text(board)
    exported = json.loads(client.get(match + "export").data)
    assert exported["rules"] == "phase10"
    assert exported["rounds"][1]["phases"] == {
        "Siti": [["R5", "B5", "G5"], ["Y1", "Y2", "W=3", "B4"]]
    }
    assert exported["rounds"][1]["made"] == {"Budi": 1, "Siti": 2}


def test_a_stored_hand_opens_in_its_form_for_a_correction(client):
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi")
    match = new_match(client, table, "phase10", THREE)
    saved = hand(client, match, made={"Siti": 1}, hands={"Budi": TEN, "Andi": TEN}, out="Siti")
    assert saved.status_code == 302, errors(saved)
    page = client.get(match + "rounds/1/edit")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert TEN in body and '<option selected value="1">Made phase 1' in body


def test_the_api_plays_a_hand_and_answers_the_phases_first(client):
    keys = client.post("/api/v1/tables", json={"name": "Meja", "players": THREE}).json
    made = client.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={"rules": "phase10", "players": THREE, "first_dealer": "Budi"},
    ).json
    path, etag = f"/api/v1/t/{keys['edit_key']}/m/{made['id']}", made["etag"]
    answer = client.post(
        path + "/rounds",
        json={
            "out": "Siti",
            "made": {"Siti": 1, "Andi": 1},
            "hands": {"Budi": TEN.split(), "Andi": ["W", "SK"]},
        },
        headers={"If-Match": f'"{etag}"'},
    )
    assert answer.status_code == 201, answer.json
    board = client.get(path).json
    assert board["totals"] == {"Budi": 55, "Siti": 0, "Andi": 40}
    # Siti and Andi made phase 1 (Andi with 40 before Budi's 55 though Budi made none).
    assert [s["player"] for s in board["standings"]] == ["Siti", "Andi", "Budi"]
    assert board["tracked"]["next_phases"] == {"Budi": [1], "Siti": [2], "Andi": [2]}
    assert board["tracked"]["made_last"] == {"Siti": 1, "Andi": 1}


def test_every_page_of_a_phase10_match_answers_in_both_languages(client):
    table = new_table(client, "Budi, Siti, Andi")
    match = new_match(client, table, "phase10", THREE, phases="even")
    saved = hand(client, match, made={"Siti": 2}, hands={"Budi": TEN, "Andi": TEN}, out="Siti")
    assert saved.status_code == 302, errors(saved)
    for lang in ("id", "en"):
        client.submit("/language", {"lang": lang, "next": "/"})
        for page in ("", "rules", "board", "rounds/1", "rounds/1/json", "rounds/new", "export"):
            assert client.get(match + page).status_code == 200, (lang, page)
    # With phases: even everyone starts at phase 2: Siti made it and tries 4 next.
    board = client.get(match)
    assert [phase_now(board, name) for name in THREE] == ["2", "4", "2"]
    middle = client.get(match + "board")
    assert [phase_now(middle, name) for name in THREE] == ["2", "4", "2"]
    assert "phase 4" in text(client.get(match + "rounds/new"))


def test_a_tie_on_phase_10_is_replayed_by_the_tied_players_only(client):
    # The hands of the scenario phase10-tie-replay (even phases): Budi and Siti complete
    # phase 10 in hand 5 with 20 each; Andi (275) sits out the replay, which Siti wins.
    to_english(client)
    rounds = json.loads((SCENARIOS / "phase10-tie-replay.json").read_text(encoding="utf-8"))[
        "rounds"
    ]
    keys = client.post("/api/v1/tables", json={"name": "Meja", "players": THREE}).json
    made = client.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={"rules": "phase10", "players": THREE, "options": {"phases": "even"}},
    ).json
    path, etag = f"/api/v1/t/{keys['edit_key']}/m/{made['id']}", made["etag"]
    for entry in rounds[:5]:
        answer = client.post(path + "/rounds", json=entry, headers={"If-Match": f'"{etag}"'})
        assert answer.status_code == 201, answer.json
        etag = answer.headers["ETag"].strip('"')
    match = f"/t/{keys['edit_key']}/m/{made['id']}/"
    assert "Budi, Siti replay it" in text(client.get(match))
    form = text(client.get(match + "rounds/new"))
    assert "Sits out the replay" in form
    saved = hand(client, match, made={"Siti": 10}, hands={"Budi": TEN}, out="Siti")
    assert saved.status_code == 302, errors(saved)
    board = client.get(path).json
    assert board["finished"] is True and board["winners"] == ["Siti"]
    assert board["totals"] == {"Budi": 75, "Siti": 20, "Andi": 275}
