"""The same deal typed on two phones: the quick-round form opened for a
round that another phone saved meanwhile is never saved as the next round without the
player's choice; the page offers keep theirs, keep mine (a correction, in the audit trail)
or save mine as the next round.

Remi, Budi and Siti, Budi dealing round 1 (RULES.md: the deal passes clockwise, so Siti
deals round 2).  Budi goes out; the winner takes what the other hands hold: KH is 10, QH
is 10, 2C 3C is 2 + 3 = 5.
"""

from __future__ import annotations

import json
import re

import pytest

from .conftest import hidden_inputs
from .helpers import new_match, new_table, round_data, save_round, text, to_english

TWO = ["Budi", "Siti"]


@pytest.fixture
def match(client):
    to_english(client)
    return new_match(client, new_table(client), "remi", TWO, target=200)


def rounds_of(client, match):
    return json.loads(client.get(match + "export").data)["rounds"]


def seen_version(response):
    found = re.search(r'name="seen_version" value="(\d+)" form="round-form"', response.text)
    assert found, "no choice offered"
    return found.group(1)


def typed_on_a_second_phone(client, match, hands):
    """Phone 2 opens the form for round 1; phone 1 saves round 1 (Siti held KH); phone 2
    then saves what it typed: the conflict page."""
    opened = client.hidden_fields(match + "rounds/new")
    assert opened["for_round"] == "1"
    assert (
        save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi").status_code
        == 302
    )
    mine = {**opened, **round_data(TWO, hands, ending="out", player="Budi")}
    return mine, client.submit(match + "rounds/new", mine, fresh=False)


def choose(client, match, mine, conflict, choice):
    kept = hidden_inputs(conflict.text, match + "rounds/new", match + "rounds/new")
    data = {**mine, **kept, "seen_version": seen_version(conflict), "action": choice}
    return client.submit(match + "rounds/new", data, fresh=False)


def test_a_deal_saved_meanwhile_is_shown_with_the_choice_and_nothing_is_saved(client, match):
    mine, conflict = typed_on_a_second_phone(client, match, {"Siti": "2C 3C"})
    assert conflict.status_code == 409
    page = text(conflict)
    assert "Round 1 was just saved from another phone" in page
    # The page is about round 1, not about round 2 that comes next.
    assert "<title>Round 1" in conflict.text and "<h1>Round 1</h1>" in conflict.text
    assert "Hand of Siti: KH" in page  # theirs, beside...
    assert 'value="2C 3C"' in conflict.text  # ...what this phone typed, kept
    for label in ("Keep theirs", "Keep mine", "Save yours as round 2"):
        assert label in page
    assert 'name="for_round" type="hidden" value="1"' in conflict.text  # still round 1
    assert len(rounds_of(client, match)) == 1
    # Tapping Save again on that page is not a choice: still nothing saved as round 2.
    kept = hidden_inputs(conflict.text, match + "rounds/new", match + "rounds/new")
    again = client.submit(match + "rounds/new", {**mine, **kept, "action": "save"}, fresh=False)
    assert again.status_code == 409
    assert len(rounds_of(client, match)) == 1


def test_keep_theirs_saves_nothing(client, match):
    mine, conflict = typed_on_a_second_phone(client, match, {"Siti": "KH"})
    kept = choose(client, match, mine, conflict, "keep_theirs")
    assert kept.status_code == 302
    assert "Round 1 stays as it was saved from the other phone" in text(client.get(match))
    assert [r["hands"] for r in rounds_of(client, match)] == [{"Siti": ["KH"]}]
    # The same tap again does nothing more.
    assert choose(client, match, mine, conflict, "keep_theirs").status_code == 302
    assert len(rounds_of(client, match)) == 1


def test_keep_mine_replaces_their_round_as_a_correction_in_the_audit_trail(client, match):
    mine, conflict = typed_on_a_second_phone(client, match, {"Siti": "QH 2C 3C"})
    replaced = choose(client, match, mine, conflict, "keep_mine")
    assert replaced.status_code == 302
    assert [r["hands"] for r in rounds_of(client, match)] == [{"Siti": ["QH", "2C", "3C"]}]
    board = text(client.get(match))
    assert "replaced the one saved from the other phone" in board
    trail = text(client.get(match + "rounds/1"))
    assert "KH" in trail and "QH 2C 3C" in trail  # the change, before and after
    # Budi takes QH 2C 3C = 10 + 2 + 3 = 15 instead of KH = 10.
    assert re.search(r'class="total-points"[^>]*>15<', client.get(match).text)


def test_a_different_deal_is_saved_as_the_next_round_only_when_chosen(client, match):
    mine, conflict = typed_on_a_second_phone(client, match, {"Siti": "2C 3C"})
    saved = choose(client, match, mine, conflict, "save_as_next")
    assert saved.status_code == 302
    hands = [r["hands"] for r in rounds_of(client, match)]
    assert hands == [{"Siti": ["KH"]}, {"Siti": ["2C", "3C"]}]  # 10 + 5: Budi 15


def test_a_choice_made_on_an_older_state_is_offered_again(client, match):
    mine, conflict = typed_on_a_second_phone(client, match, {"Siti": "2C 3C"})
    # Meanwhile the other phone saves round 2 too: the offer named the match before it.
    assert (
        save_round(client, match, TWO, {"Siti": "QH"}, ending="out", player="Budi").status_code
        == 302
    )
    late = choose(client, match, mine, conflict, "save_as_next")
    assert late.status_code == 409
    assert "Save yours as round 3" in text(late)
    assert len(rounds_of(client, match)) == 2


def test_the_quick_round_page_follows_the_match(client, match):
    page = client.get(match + "rounds/new")
    assert 'data-live-page="' in page.text and 'data-live-carry="for_round"' in page.text
    assert "Round 1" in text(page) and "Dealer: Budi" in text(page)
    assert (
        save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi").status_code
        == 302
    )
    now = text(client.get(match + "rounds/new"))
    assert "Round 2" in now and "Dealer: Siti" in now
    assert "was just saved from another phone" not in now
    # A page whose kept form is still for round 1 asks with it, and is shown round 1.
    asked = text(client.get(match + "rounds/new?for_round=1"))
    assert "Round 1 was just saved from another phone" in asked
    assert "Save yours as round 2" in asked


def test_the_choice_in_indonesian(client, match):
    mine, _conflict = typed_on_a_second_phone(client, match, {"Siti": "2C 3C"})
    client.submit("/language", {"lang": "id", "next": "/"})
    page = text(client.submit(match + "rounds/new", mine, fresh=False))
    assert "Babak 1" in page and "babak 2" in page
    assert "Save yours" not in page
