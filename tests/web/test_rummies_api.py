"""500 Rum and Contract Rummy through the API: a final-table round with its ``table``, the
engine's reasons as 422, a malformed table as 400 (scores worked out by hand from RULES.md)."""

from __future__ import annotations

from .test_api import EN, error, new_match, new_table, version

# 500 Rum: Budi 7S 8S 9S = 24, AH 2H 3H = 1 + 2 + 3 = 6 (a low ace counts 1), 4C 4D 4H = 12,
# out: +42; Siti KH KD KC = 30 and 10S laid off = 10, hand AS 5D = 20: 40 - 20 = +20.
TABLE = [
    {"by": "Budi", "cards": ["7S", "8S", "9S"], "layoffs": {"Siti": ["10S"]}},
    {"by": "Siti", "cards": ["KH", "KD", "KC"]},
    {"by": "Budi", "cards": ["AH", "2H", "3H"]},
    {"by": "Budi", "cards": ["4C", "4D", "4H"]},
]


def test_a_rummy500_round_with_its_table(api):
    url, board = new_match(api, new_table(api), rules="rummy500")
    entry = {"out": "Budi", "table": TABLE, "hands": {"Siti": ["AS", "5D"]}}
    added = api.post(f"{url}/rounds", json=entry, headers=version(board))
    assert added.status_code == 201, added.get_json()
    assert added.get_json()["totals"] == {"Budi": 42, "Siti": 20}
    stored = api.get(f"{url}/rounds/1").get_json()
    assert stored["entry"]["table"][0]["layoffs"] == {"Siti": ["10S"]}


def test_a_wrong_table_is_a_422_with_the_referees_reason(api):
    url, board = new_match(api, new_table(api), rules="rummy500")
    bad = [{"by": "Budi", "cards": ["7S", "8S", "10S"]}]
    entry = {"out": "Budi", "table": bad, "hands": {"Siti": ["AS"]}}
    refused = api.post(f"{url}/rounds", json=entry, headers=version(board) | EN)
    assert refused.status_code == 422
    assert "9S" in error(refused)["message"]
    assert api.get(url).get_json()["rounds"] == []


def test_a_table_meld_without_its_owner_is_malformed(api):
    url, board = new_match(api, new_table(api), rules="rummy500")
    entry = {"out": "Budi", "table": [{"cards": ["7S", "8S", "9S"]}], "hands": {"Siti": ["AS"]}}
    refused = api.post(f"{url}/rounds", json=entry, headers=version(board))
    assert refused.status_code == 400


def test_a_contract_round_through_the_api_lowest_leads(api):
    players = ("Budi", "Siti", "Andi")
    url, board = new_match(api, new_table(api), rules="contract", players=players)
    # Deal 1, two sets: Budi out (0); Siti down, QH JK = 10 + 15 = 25; Andi AS 2C 3D = 20.
    table = [
        {"by": "Budi", "cards": ["7S", "7H", "7D"], "layoffs": {"Siti": ["7C"]}},
        {"by": "Budi", "cards": ["KC", "KC", "KS"]},
        {"by": "Siti", "cards": ["5H", "5D", "5S"]},
        {"by": "Siti", "cards": ["9C", "9D", "9H"]},
    ]
    hands = {"Siti": ["QH", "JK"], "Andi": ["AS", "2C", "3D"]}
    added = api.post(
        f"{url}/rounds",
        json={"out": "Budi", "table": table, "hands": hands},
        headers=version(board),
    )
    assert added.status_code == 201, added.get_json()
    board = added.get_json()
    assert board["totals"] == {"Budi": 0, "Siti": 25, "Andi": 20}
    assert board["leaders"] == ["Budi"]
