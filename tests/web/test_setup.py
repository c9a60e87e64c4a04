"""Starting a match: ruleset, seats within the ruleset's limits, first dealer, target, options."""

from __future__ import annotations

import json

import pytest

from referee.web.store.models import Match

from .helpers import errors, new_match, new_table, save_round, stored_count, text, to_english

RULES = ["remi", "rummy", "remi-indonesia", "manipulation", "gin"]


def export(client, match_url):
    return json.loads(client.get(match_url + "export").data)


def test_choose_lists_every_ruleset_with_its_description_and_rules_link(client):
    url = new_table(client)
    page = text(client.get(url + "new"))
    for rules in RULES:
        assert f"{url}new/{rules}" in page
        assert f"/rules/{rules}" in page


@pytest.mark.parametrize("rules", RULES)
def test_setup_page_per_ruleset(client, rules):
    url = new_table(client)
    response = client.get(f"{url}new/{rules}")
    assert response.status_code == 200
    assert 'name="seat_0"' in response.text and 'name="first_dealer"' in response.text


def test_unknown_ruleset_is_not_found(client):
    url = new_table(client)
    assert client.get(f"{url}new/poker").status_code == 404


@pytest.mark.parametrize(
    ("rules", "target"),
    [("remi", 100), ("rummy", 150), ("remi-indonesia", 500), ("manipulation", 150), ("gin", 100)],
)
def test_start_a_match_with_the_default_target(client, rules, target):
    url = new_table(client)
    match = new_match(client, url, rules, ["Budi", "Siti"], target=target)
    doc = export(client, match)
    assert doc["format"] == "referee-match/1"
    assert doc["rules"] == rules and doc["players"] == ["Budi", "Siti"]
    assert doc["options"]["target"] == target and doc["first_dealer"] == "Budi"
    assert doc["rounds"] == []


def test_seating_order_and_first_dealer_are_kept(client):
    url = new_table(client)
    match = new_match(client, url, "remi", ["Andi", "Budi", "Siti"], dealer="Siti", target=100)
    doc = export(client, match)
    assert doc["players"] == ["Andi", "Budi", "Siti"] and doc["first_dealer"] == "Siti"
    assert "Siti" in text(client.get(match)).split("next-dealer")[1][:200]


def test_first_dealer_drawn_at_random_is_one_of_the_players(client):
    url = new_table(client)
    match = new_match(client, url, "remi", ["Andi", "Budi"], dealer="random", target=100)
    assert export(client, match)["first_dealer"] in ("Andi", "Budi")


def test_custom_target(client):
    url = new_table(client)
    match = new_match(client, url, "remi", ["Budi", "Siti"], target="custom", custom_target=250)
    assert export(client, match)["options"] == {"target": 250}


def test_custom_target_missing_is_refused(client):
    url = new_table(client)
    response = client.submit(
        f"{url}new/remi",
        {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "custom"},
    )
    assert response.status_code == 400 and errors(response)


@pytest.mark.parametrize("value", ["0", "-5", "abc", "9999999"])
def test_custom_target_out_of_range_is_refused_and_kept(client, value):
    url = new_table(client)
    response = client.submit(
        f"{url}new/remi",
        {
            "seat_0": "Budi",
            "seat_1": "Siti",
            "first_dealer": "Budi",
            "target": "custom",
            "custom_target": value,
        },
    )
    assert response.status_code == 400
    assert errors(response)
    assert f'value="{value}"' in response.text or value == "abc"


def test_rummy_options(client):
    url = new_table(client)
    match = new_match(
        client, url, "rummy", ["Budi", "Siti"], target=150, ace="high-low", must_discard="y"
    )
    assert export(client, match)["options"] == {
        "target": 150,
        "ace": "high-low",
        "must_discard": True,
    }


def test_rummy_by_number_of_rounds(client):
    url = new_table(client)
    match = new_match(client, url, "rummy", ["Budi", "Siti"], end="hands", hands=5, ace="low")
    # Options left at the standard rules' value are not written out.
    assert export(client, match)["options"] == {"hands": 5}


def test_rummy_by_rounds_without_a_number_is_refused(client):
    url = new_table(client)
    response = client.submit(
        f"{url}new/rummy",
        {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "end": "hands", "ace": "low"},
    )
    assert response.status_code == 400 and errors(response)


def test_too_few_players_is_refused_with_the_rules_reason(client):
    url = new_table(client)
    response = client.submit(
        f"{url}new/remi", {"seat_0": "Budi", "first_dealer": "Budi", "target": "100"}
    )
    assert response.status_code == 400
    assert any("2" in message and "4" in message for message in errors(response))


def test_gin_is_for_exactly_two(client):
    url = new_table(client)
    response = client.submit(
        f"{url}new/gin",
        {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "100"},
    )
    assert response.status_code == 302
    assert 'name="seat_2"' not in client.get(f"{url}new/gin").text


def test_the_same_player_twice_is_refused(client):
    url = new_table(client)
    response = client.submit(
        f"{url}new/remi",
        {"seat_0": "Budi", "seat_1": "Budi", "first_dealer": "Budi", "target": "100"},
    )
    assert response.status_code == 400 and errors(response)


def test_a_player_from_elsewhere_is_refused(client, app):
    url = new_table(client)
    response = client.submit(
        f"{url}new/remi",
        {"seat_0": "Budi", "seat_1": "Zoe", "first_dealer": "Budi", "target": "100"},
    )
    assert response.status_code == 400
    assert stored_count(app, Match) == 0


def test_first_dealer_must_be_seated(client):
    url = new_table(client)
    response = client.submit(
        f"{url}new/remi",
        {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Andi", "target": "100"},
    )
    assert response.status_code == 400 and errors(response)


def test_setup_can_change_until_the_first_round(client):
    url = new_table(client)
    match = new_match(client, url, "remi", ["Budi", "Siti"], target=100)
    page = client.get(match + "setup")
    assert page.status_code == 200 and '<option selected value="Budi">' in page.text
    response = client.submit(
        match + "setup",
        {
            "seat_0": "Siti",
            "seat_1": "Budi",
            "seat_2": "Andi",
            "first_dealer": "Andi",
            "target": "200",
        },
    )
    assert response.status_code == 302
    doc = export(client, match)
    assert doc["players"] == ["Siti", "Budi", "Andi"] and doc["options"] == {"target": 200}
    save_round(
        client, match, doc["players"], {"Budi": "KH", "Andi": "2C"}, ending="out", player="Siti"
    )
    response = client.get(match + "setup")
    assert response.status_code == 302
    response = client.submit(
        match + "setup",
        {"seat_0": "Siti", "seat_1": "Budi", "first_dealer": "Siti", "target": "50"},
    )
    assert export(client, match)["options"] == {"target": 200}


def test_a_match_of_rounds_needs_the_number_of_rounds(client):
    client.submit("/language", {"lang": "en", "next": "/"})
    url = new_table(client)
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "end": "hands"}
    response = client.submit(f"{url}new/rummy", data)
    assert response.status_code == 400
    assert "How many rounds?" in errors(response)


def test_the_other_target_needs_a_number(client):
    client.submit("/language", {"lang": "en", "next": "/"})
    url = new_table(client)
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "custom"}
    response = client.submit(f"{url}new/remi", data)
    assert response.status_code == 400
    assert "Enter the target score." in errors(response)
    data["custom_target"] = "250"
    data["target"] = "100"  # a typed target wins over the preset left selected
    response = client.submit(f"{url}new/remi", data)
    assert response.status_code == 302
    assert export(client, response.headers["Location"])["options"] == {"target": 250}


TWO = ["Budi", "Siti"]


@pytest.fixture
def table(client):
    return new_table(client)


THREE = ["Budi", "Siti", "Andi"]


def test_a_typed_custom_target_wins_over_the_preset(client, table):
    match = new_match(client, table, "remi", TWO, target=100, custom_target=250)
    assert json.loads(client.get(match + "export").data)["options"] == {"target": 250}


def test_an_empty_custom_target_is_no_error(client, table):
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "100"}
    response = client.submit(f"{table}new/remi", {**data, "custom_target": "", "hands": ""})
    assert response.status_code == 302, errors(response)
    match = response.headers["Location"]
    assert json.loads(client.get(match + "export").data)["options"] == {"target": 100}


def test_ruleset_names_not_ids(client, table):
    match = new_match(client, table, "remi-indonesia", THREE)
    page = text(client.get(match))
    assert "Remi Indonesia #" in page and "remi-indonesia #" not in page
    assert "<title>Remi Indonesia" in page
    assert "Remi Indonesia" in text(client.get(table))


def test_the_scoreboard_shows_the_chosen_options(client, table):
    to_english(client)
    match = new_match(client, table, "rummy", TWO, target=150, ace="high-low", must_discard="y")
    page = text(client.get(match))
    # The House rules card says each option that differs from the standard rules.
    assert "Aces are high or low (Q-K-A is a run) and worth 15" in page
    assert "The last card must be discarded to go out" in page
    rounds = new_match(client, table, "rummy", TWO, end="hands", hands=10)
    assert "10 rounds" in text(client.get(rounds))
