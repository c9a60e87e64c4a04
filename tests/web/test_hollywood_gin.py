"""Hollywood gin in the app: the preset, the three games on the score sheet, the API and the
match file.  The rounds and every figure are those of the scenario
``tests/scenarios/gin-hollywood-shutout-carry-over.json``, derived by hand there from RULES.md
(gin, option ``scoring``): target 50, game 100, box 20, shutout.

Round 1 Budi gin 45 (game 1); round 2 Budi 10 (game 1 closes at 55: 55 + 40 + 100, doubled as
Siti has no entry, 390; game 2 Budi 10); round 3 Siti 10 (shut out of game 1, she starts on
game 2); round 4 Siti gin 55 (games 2 and 3 close: 65 + 40 + 100 = 205 against Budi's 10 + 20;
55 + 20 + 100 doubled, 350).  Budi 420, Siti 555: Siti wins.
"""

from __future__ import annotations

import json
import re

from .helpers import errors, new_match, new_table, save_round, text, to_english, totals

TWO = ["Budi", "Siti"]
ROUNDS = [
    ("Budi", {"Budi": "7C 8C 9C 2S 2H 2D 5H 6H 7H 8H", "Siti": "6C 10C 4D 10S JS QS KS 9H 9D 9S"}),
    ("Budi", {"Budi": "7C 8C 9C 2S 2H 2D 5H 6H 7H 5S", "Siti": "KS KH KD QC QH QD 10S 3D AS AC"}),
    ("Siti", {"Siti": "KS KH KD QC QH QD 2C 3C 4C 3D", "Budi": "7C 8C 9C JS JH JD 2S 5H AD 5D"}),
    ("Siti", {"Siti": "KS KH KD QC QH QD 2C 3C 4C 5C", "Budi": "7D 8D 9D 2S 2H 2D JS 10H 9S AH"}),
]


def hollywood_match(client) -> str:
    table = new_table(client, "Budi, Siti")
    # What a browser sends once the Hollywood preset filled the form: its bonuses shown.
    return new_match(
        client,
        table,
        "gin",
        TWO,
        target="custom",
        custom_target=50,
        scoring="hollywood",
        game_bonus=100,
        box_bonus=20,
        shutout="y",
    )


def test_a_hollywood_match_shows_its_three_games_and_ends_when_all_closed(client):
    to_english(client)
    match = hollywood_match(client)
    for number, (knocker, hands) in enumerate(ROUNDS[:2], start=1):
        saved = save_round(client, match, TWO, hands, ending="knock", player=knocker)
        assert saved.status_code == 302, (number, errors(saved))
    page = client.get(match)
    words = text(page)
    assert "Hollywood: three games at once" in words
    assert "won by Budi" in words and "shutout: doubled" in words
    # Mid-match the totals are the sums of the games: 390 + 10 for Budi.
    assert totals(page) == [400, 0]
    columns = re.findall(r'<td class="num" data-column="(\d)">\s*<strong>(\d+)</strong>', page.text)
    assert columns == [("1", "390"), ("2", "10"), ("3", "0"), ("1", "0"), ("2", "0"), ("3", "0")]
    for knocker, hands in ROUNDS[2:]:
        saved = save_round(client, match, TWO, hands, ending="knock", player=knocker)
        assert saved.status_code == 302, errors(saved)
    page = client.get(match)
    assert totals(page) == [420, 555]
    words = text(page)
    assert "Winner: Siti" in words and "Match-end bonuses" not in words
    exported = json.loads(client.get(match + "export").data)
    assert exported["options"] == {"scoring": "hollywood", "target": 50}


def test_the_api_answers_the_columns(client):
    keys = client.post("/api/v1/tables", json={"name": "Meja", "players": TWO}).json
    made = client.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={
            "rules": "gin",
            "players": TWO,
            "first_dealer": "Budi",
            "options": {"scoring": "hollywood", "target": 50},
        },
    ).json
    path, etag = f"/api/v1/t/{keys['edit_key']}/m/{made['id']}", made["etag"]
    for knocker, hands in ROUNDS:
        answer = client.post(
            path + "/rounds",
            json={
                "knock": knocker,
                "hands": {name: cards.split() for name, cards in hands.items()},
            },
            headers={"If-Match": f'"{etag}"'},
        )
        assert answer.status_code == 201, answer.json
        etag = answer.headers["ETag"].strip('"')
    board = client.get(path).json
    assert board["columns"] == [
        {"totals": {"Budi": 390, "Siti": 0}, "closed": True, "winner": "Budi"},
        {"totals": {"Budi": 30, "Siti": 205}, "closed": True, "winner": "Siti"},
        {"totals": {"Budi": 0, "Siti": 350}, "closed": True, "winner": "Siti"},
    ]
    assert board["totals"] == {"Budi": 420, "Siti": 555}
    # The rounds' points are Budi 45 + 10 = 55 and Siti 10 + 55 = 65; what the games add to
    # them (entries in several games, their bonuses and shutouts) is the match-end bonus.
    assert board["rounds"][-1]["running"] == {"Budi": 55, "Siti": 65}
    assert board["bonuses"] == {"Budi": 365, "Siti": 490}
    assert board["winners"] == ["Siti"] and board["finished"] is True
    assert [s["player"] for s in board["standings"]] == ["Siti", "Budi"]


def test_the_rules_page_of_a_hollywood_match_says_how_the_games_close(client):
    to_english(client)
    match = hollywood_match(client)
    page = text(client.get(match + "rules"))
    assert "Hollywood scoring" in page
    assert "reaches 50. That player adds 100 to it, each player adds 20" in page
    assert "doubled when the other player has no entry" in page
    plain = text(client.get("/rules/gin"))
    assert "Hollywood scoring" not in plain and "First to the target" in plain


def test_choosing_hollywood_scoring_alone_brings_its_bonuses(client):
    # The setup form showed gin's plain bonuses (0, 0, no shutout) before Hollywood was
    # chosen; left so, they say nothing and Hollywood's defaults (100, 20, true) apply.
    to_english(client)
    table = new_table(client, "Budi, Siti")
    match = new_match(client, table, "gin", TWO, scoring="hollywood", game_bonus=0, box_bonus=0)
    options = json.loads(client.get(match + "export").data)["options"]
    assert options == {"scoring": "hollywood", "target": 100}
    page = text(client.get(match + "rules"))
    assert "That player adds 100 to it, each player adds 20" in page
