"""Quick rounds with hands given as points (docs/points.md), through the pages: one round per
ruleset with the expected scores worked out from RULES.md, cards and points mixed, refusals,
corrections, and what the pages say was not checked."""

from __future__ import annotations

import json

import pytest

from .helpers import errors, new_match, new_table, round_data, save_round, text, totals

THREE = ["Budi", "Siti", "Andi"]
TWO = ["Budi", "Siti"]
GIN_KNOCKER = "7C 8C 9C 2S 2H 2D 5H 6H 7H AS"
GIN_DEFENDER = "6C 10C 4D 10S JS QS KS 9H 9D 9S"


def rounds_of(client, match):
    return json.loads(client.get(match + "export").data)["rounds"]


def english(client) -> None:
    client.submit("/language", {"lang": "en", "next": "/"})


@pytest.fixture
def table(client):
    english(client)
    return new_table(client)


def test_remi_points_and_cards_mixed(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    # Budi went out all at once; Siti says 24, Andi shows KH 2C (12): (24 + 12) x 2 = 72
    response = save_round(
        client,
        match,
        THREE,
        {"Siti": "24", "Andi": "KH 2C"},
        ending="out",
        player="Budi",
        at_once="y",
    )
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [72, 0, 0]
    assert rounds_of(client, match) == [
        {"out": "Budi", "at_once": True, "hands": {"Siti": 24, "Andi": ["KH", "2C"]}}
    ]


def test_rummy_points_only(client, table):
    match = new_match(client, table, "rummy", THREE, target=150)
    # Siti went out; 37 + 5 = 42
    response = save_round(
        client, match, THREE, {"Budi": "37", "Andi": "5"}, ending="out", player="Siti"
    )
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [0, 42, 0]


def test_remi_indonesia_points_hands_with_card_melds(client, table):
    match = new_match(client, table, "remi-indonesia", TWO, target=500)
    # Budi closed with AS (10 x 15 = 150) after melding 2H 3H 4H (15): 165; Siti 0 - 20 = -20
    data = round_data(
        TWO, {"Siti": "20"}, ending="closed", player="Budi", closing_card="AS", melds_0="2H 3H 4H"
    )
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [165, -20]


def test_manipulation_points_knock(client, table):
    match = new_match(client, table, "manipulation", THREE, target=150)
    # Andi knocked with 3, the lowest: (20 - 3) + (11 - 3) = 25
    response = save_round(
        client,
        match,
        THREE,
        {"Budi": "20", "Siti": "11", "Andi": "3"},
        ending="knock",
        player="Andi",
    )
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [0, 0, 25]


def test_gin_deadwoods_preview_and_save(client, table):
    match = new_match(client, table, "gin", TWO, target=100)
    # Budi knocked with 4 against Siti's 4: a tie is an undercut, 0 + 25 for Siti
    data = round_data(
        TWO, {"Budi": "4", "Siti": "4"}, ending="knock", player="Budi", action="check"
    )
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 200, errors(response)
    page = text(response)
    assert "not saved yet" in page and 'class="adjudication"' not in page
    assert "undercut: Siti's deadwood 4 is not higher than Budi's 4" in page
    assert "the deadwoods were given as points (Budi 4, Siti 4)" in page
    assert rounds_of(client, match) == []
    data["action"] = "save"
    assert client.submit(match + "rounds/new", data).status_code == 302
    assert totals(client.get(match)) == [0, 25]


def test_gin_one_hand_as_points_is_refused(client, table):
    match = new_match(client, table, "gin", TWO, target=100)
    response = save_round(
        client, match, TWO, {"Budi": GIN_KNOCKER, "Siti": "22"}, ending="knock", player="Budi"
    )
    assert response.status_code == 400
    assert any("both hands" in message for message in errors(response))
    assert rounds_of(client, match) == []


@pytest.mark.parametrize(
    ("rules", "hands", "said"),
    [
        ("remi", {"Siti": "-4", "Andi": "KH"}, "A hand counts 0 points or more."),
        ("remi", {"Siti": "71", "Andi": "KH"}, "Siti's hand cannot count 71"),
        ("remi", {"Siti": "0", "Andi": "KH"}, "Siti's hand is empty"),
        (
            "remi",
            {"Budi": "5", "Siti": "3", "Andi": "KH"},
            "Budi went out, so Budi's hand counts 0, not 5",
        ),
    ],
)
def test_impossible_points_are_refused_in_words(client, table, rules, hands, said):
    match = new_match(client, table, rules, THREE, target=100)
    response = save_round(client, match, THREE, hands, ending="out", player="Budi")
    assert response.status_code == 400
    assert any(said in message for message in errors(response)), errors(response)
    assert rounds_of(client, match) == []


def test_pages_show_points_and_what_was_not_checked(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    save_round(client, match, THREE, {"Siti": "24", "Andi": "KH"}, ending="out", player="Budi")
    board = text(client.get(match))
    assert "hands as points, not checked" in board
    page = text(client.get(match + "rounds/1"))
    assert "24 points" in page
    assert "Siti's hand was given as 24 points, not as cards" in page
    # the correction form shows the number where the cards would be
    form = client.get(match + "rounds/1/edit")
    assert form.status_code == 200 and 'value="24"' in form.text and 'value="KH"' in form.text
    corrected = client.submit(
        match + "rounds/1/edit",
        round_data(THREE, {"Siti": "KH QH", "Andi": "30"}, ending="out", player="Budi"),
    )
    assert corrected.status_code == 302, errors(corrected)
    assert totals(client.get(match)) == [50, 0, 0]  # 20 + 30
    assert rounds_of(client, match)[0]["hands"] == {"Siti": ["KH", "QH"], "Andi": 30}


def test_a_cards_round_shows_no_points_mark(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    assert "hands as points" not in text(client.get(match))


def test_the_form_says_a_hand_may_be_points_in_indonesian(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    client.submit("/language", {"lang": "id", "next": "/"})
    page = text(client.get(match + "rounds/new"))
    assert "bukan kartunya" in page
    save_round(client, match, TWO, {"Siti": "24"}, ending="out", player="Budi")
    assert "tangan Siti dicatat sebagai 24 poin" in text(client.get(match + "rounds/1"))
