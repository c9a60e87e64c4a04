"""A live turn typed on a page made before the round moved on (the live banner's promise:
"the referee checks it against the latest state when you save").

The turn is checked again on the round as it is now: saved when it still holds and it is
still that player's turn, otherwise a 409 that says why.  Remi with Budi, Siti and Andi,
Budi dealing: Siti leads, then Andi, then Budi (RULES.md: play goes clockwise from the
player after the dealer).  The same races with real concurrent requests are in
``test_samedeal_races.py``.
"""

from __future__ import annotations

import pytest

from .helpers import new_match, new_table, text, to_english

THREE = ["Budi", "Siti", "Andi"]
API = "/api/v1"


@pytest.fixture
def match(client):
    to_english(client)
    return new_match(client, new_table(client), "remi", THREE, target=200)


def live_turns(client, match):
    return [turn["player"] for turn in _live(client, match)]


def _live(client, match):
    """The live round's turns as the API reads them (the edit key is in the match's path)."""
    key, match_id = match.split("/")[2], match.rstrip("/").split("/")[-1]
    return client.get(f"{API}/t/{key}/m/{match_id}/live").get_json()["turns"]


def turn(client, match, opened, **typed):
    return client.submit(match + "live/turn", {**opened, **typed, "action": "save"}, fresh=False)


def siti_leads_on_another_phone(client, match):
    """Another phone, on a fresh page, records Siti's lead (7S 8S 9S) while this one waits."""
    fresh = client.hidden_fields(match + "live/turn")
    assert turn(client, match, fresh, player="Siti", melds="7S 8S 9S").status_code == 302


def test_the_next_players_turn_from_a_stale_page_is_saved_at_once(client, match):
    opened = client.hidden_fields(match + "live/turn")  # this phone's page: no turn yet
    siti_leads_on_another_phone(client, match)
    saved = turn(client, match, opened, player="Andi", melds="2H 3H 4H")
    assert saved.status_code == 302  # Andi plays after Siti: it still holds
    assert live_turns(client, match) == ["Siti", "Andi"]
    page = text(client.get(match + "live"))
    assert "your turn still holds on it and was saved as turn 2" in page


def test_the_same_players_turn_entered_on_two_phones_is_saved_once(client, match):
    opened = client.hidden_fields(match + "live/turn")
    siti_leads_on_another_phone(client, match)
    again = turn(client, match, opened, player="Siti", melds="7S 8S 9S", discard="2C")
    assert again.status_code == 409
    page = text(again)
    assert "Turn 1 (Siti) was recorded on another phone meanwhile." in page
    assert "It is most likely this same turn, so yours was not saved a second time." in page
    assert "2C" in page  # what was typed is kept
    assert live_turns(client, match) == ["Siti"]


def test_a_turn_of_a_player_who_is_not_next_any_more_is_a_conflict(client, match):
    opened = client.hidden_fields(match + "live/turn")
    siti_leads_on_another_phone(client, match)
    late = turn(client, match, opened, player="Budi", melds="2H 3H 4H")
    assert late.status_code == 409  # after Siti comes Andi, not Budi
    assert "It is Andi's turn now, not Budi's." in text(late)
    assert live_turns(client, match) == ["Siti"]


def test_a_turn_that_no_longer_holds_on_the_table_says_the_referees_reason(client, match):
    opened = client.hidden_fields(match + "live/turn")
    siti_leads_on_another_phone(client, match)
    clash = turn(client, match, opened, player="Andi", melds="9S 10S JS")
    assert clash.status_code == 409  # one deck: 9S is on the table in Siti's meld
    page = text(clash)
    assert "Checked against the round as it is now, this turn no longer holds:" in page
    assert "9S" in page
    assert live_turns(client, match) == ["Siti"]
    # The form came back naming the round as it is: the fix is saved in one tap.
    kept = client.hidden_fields(match + "live/turn")
    assert 'name="turns_before" type="hidden" value="1"' in clash.get_data(as_text=True)
    fixed = turn(client, match, kept, player="Andi", melds="10S JS QS")
    assert fixed.status_code == 302 and live_turns(client, match) == ["Siti", "Andi"]


def test_a_turn_typed_while_an_earlier_turn_was_corrected_keeps_its_place(client, match):
    siti_leads_on_another_phone(client, match)
    opened = client.hidden_fields(match + "live/turn")  # turn 2 is typed here...
    fix = match + "rounds/1/turns/1"  # ...while another phone corrects turn 1
    corrected = client.submit(fix, {"player": "Siti", "melds": "6S 7S 8S 9S", "action": "save"})
    assert corrected.status_code == 302
    saved = turn(client, match, opened, player="Andi", layoffs="10S > 1")
    assert saved.status_code == 302  # 10S still goes on 6S-9S
    turns = _live(client, match)
    assert [t["player"] for t in turns] == ["Siti", "Andi"]
    assert turns[0]["melds"] == [["6S", "7S", "8S", "9S"]]


# -- the API -----------------------------------------------------------------------------


def api_match(api):
    table = api.post(f"{API}/tables", json={"name": "Meja", "players": THREE}).get_json()
    made = api.post(
        f"{API}/t/{table['edit_key']}/matches",
        json={"rules": "remi", "players": THREE, "first_dealer": "Budi"},
    ).get_json()
    return f"{API}/t/{table['edit_key']}/m/{made['id']}", {"If-Match": f'"{made["etag"]}"'}


def test_the_api_checks_a_turn_from_an_older_version_on_the_round_as_it_is(api):
    url, opened = api_match(api)
    siti = {"player": "Siti", "melds": [["7S", "8S", "9S"]]}
    assert api.post(f"{url}/live/turns", json=siti, headers=opened).status_code == 201
    andi = {"player": "Andi", "melds": [["2H", "3H", "4H"]]}
    saved = api.post(f"{url}/live/turns?after=0&round=1", json=andi, headers=opened)
    assert saved.status_code == 201, saved.get_json()
    assert [t["player"] for t in saved.get_json()["turns"]] == ["Siti", "Andi"]
    twice = api.post(
        f"{url}/live/turns?after=0", json=siti, headers={**opened, "Accept-Language": "en"}
    )
    assert twice.status_code == 409
    assert (
        "Turn 1 (Siti) was recorded on another phone meanwhile."
        in (twice.get_json()["error"]["message"])
    )
    clash = {"player": "Budi", "melds": [["2H", "3H", "4H"]]}
    refused = api.post(
        f"{url}/live/turns?after=2", json=clash, headers={**opened, "Accept-Language": "en"}
    )
    assert refused.status_code == 409  # 2H is on the table in Andi's meld
    assert "this turn no longer holds" in refused.get_json()["error"]["message"]
    live = api.get(f"{url}/live").get_json()
    assert [t["player"] for t in live["turns"]] == ["Siti", "Andi"]


def test_the_api_without_after_refuses_a_player_who_just_played(api):
    url, opened = api_match(api)
    siti = {"player": "Siti", "melds": [["7S", "8S", "9S"]]}
    assert api.post(f"{url}/live/turns", json=siti, headers=opened).status_code == 201
    again = {"player": "Siti", "melds": [["2H", "3H", "4H"]]}
    assert api.post(f"{url}/live/turns", json=again, headers=opened).status_code == 409
    andi = {"player": "Andi", "melds": [["2H", "3H", "4H"]]}
    assert api.post(f"{url}/live/turns", json=andi, headers=opened).status_code == 201
