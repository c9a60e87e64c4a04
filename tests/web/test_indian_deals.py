"""Indian rummy at the table: a deal entered on one screen, the pool's scoreboard, rejoin.

Points derived by hand from RULES.md (indian; pool 101, two decks for three players,
drops 20/40, full count 80, jokers count 0):

Deal 1, cut 7D (sevens wild): Siti shows (valid, 0).  Andi drops in the middle: 40.
Budi loses holding KS QS JD 10C 9S KH QH JC 10S 9H KD 8C 6H: no sequence at all
(spades 9 10 Q K, hearts 6 9 Q K, diamonds J K, clubs 8 10 J: no three in a row), so all
13 cards count: nine tens (KS QS JD 10C KH QH JC 10S KD) = 90, plus 9 + 9 + 8 + 6 = 32,
122, capped at the full count: 80.  Totals: Budi 80, Siti 0, Andi 40.

Deal 2, cut 3C: Budi shows 5S 6S 7C 8S | 9H 10H JH | 2D 2C 2H | KD QD JD.  The 7C is no
joker (threes are wild), so 5S 6S 7C 8S is no group, and no arrangement puts those four
in one: a wrong show, 80.  Play goes on; Andi shows validly (0) and Siti counts 15
(typed as a number).  Totals: Budi 160 (out: 101 or more), Siti 15, Andi 40.

Before deal 3: no total still in is above 79 (Siti 15, Andi 40), so Budi may rejoin with
the highest total still in plus 1: 41.
"""

from __future__ import annotations

import json
import re

import pytest

from .helpers import errors, new_match, new_table, text, to_english, totals

THREE = ["Budi", "Siti", "Andi"]
BUDI_LOSES = "KS QS JD 10C 9S KH QH JC 10S 9H KD 8C 6H"
WRONG_SHOW = "5S 6S 7C 8S\n9H 10H JH\n2D 2C 2H\nKD QD JD"


@pytest.fixture
def english(client):
    to_english(client)
    return client


def export(client, match_url):
    return json.loads(client.get(match_url + "export").data)


def indian_match(client, match_format: str = "pool101", **options) -> str:
    """A match of Budi, Siti and Andi (Budi deals first), set up as a phone sends the form."""
    fields = {"format": match_format, "decks": "", "wild": "y", "rejoin": "y", "deals": 2}
    return new_match(
        client, new_table(client), "indian", THREE, dealer="Budi", **(fields | options)
    )


def deal(client, match, **fields):
    data = {"ending": "show", "action": "save"} | {k: str(v) for k, v in fields.items()}
    return client.submit(match + "rounds/new", data)


def test_a_deal_with_a_drop_and_a_capped_count(english):
    match = indian_match(english)
    form = english.get(match + "rounds/new")
    assert form.status_code == 200
    assert 'name="cut"' in form.text and 'name="fate_2"' in form.text
    saved = deal(english, match, cut="7D", player="Siti", hand_0=BUDI_LOSES, fate_2="middle")
    assert saved.status_code == 302, errors(saved)
    entry = export(english, match)["rounds"][0]
    assert entry == {
        "cut": "7D",
        "show": "Siti",
        "hands": {"Budi": BUDI_LOSES.split()},
        "drops": {"Andi": "middle"},
    }
    assert totals(english.get(match)) == [80, 0, 40]


def test_check_shows_each_losers_arrangement_and_count_before_saving(english):
    match = indian_match(english)
    # Deal 1 of the module's text: the referee's count is shown, nothing is saved.
    checked = deal(
        english, match, cut="7D", player="Siti", hand_0=BUDI_LOSES, fate_2="middle", action="check"
    )
    assert checked.status_code == 200, errors(checked)
    page = text(checked)
    assert "Budi has no two sequences with one pure: all 13 cards count, 122, so 80" in page
    assert export(english, match)["rounds"] == []


def test_a_count_above_the_full_count_is_refused_with_the_reason(english):
    match = indian_match(english)
    refused = deal(english, match, cut="7D", player="Siti", hand_0="95", fate_2="first")
    assert refused.status_code == 400
    assert any("at most the full count, 80" in message for message in errors(refused))
    assert export(english, match)["rounds"] == []


def test_a_deal_won_by_the_last_player_left(english):
    """Budi drops first (20) and Andi shows wrongly (80): Siti is left and wins with 0."""
    match = indian_match(english)
    saved = deal(english, match, ending="last_in", cut="KH", fate_0="first", fate_2="wrong")
    assert saved.status_code == 302, errors(saved)
    entry = export(english, match)["rounds"][0]
    assert entry == {"cut": "KH", "drops": {"Budi": "first"}, "wrong_shows": ["Andi"]}
    assert totals(english.get(match)) == [20, 0, 80]


def test_an_invalid_show_is_offered_as_a_wrong_show_then_the_pool_offers_a_rejoin(english):
    match = indian_match(english)
    first = deal(english, match, cut="7D", player="Siti", hand_0=BUDI_LOSES, fate_2="middle")
    assert first.status_code == 302, errors(first)
    shown = {"cut": "3C", "player": "Budi", "groups": WRONG_SHOW}
    refused = deal(english, match, **shown, hand_1="15", hand_2="")
    assert refused.status_code == 400
    page = text(refused)
    assert "Budi's show is not valid" in page
    assert "Record Budi's show as a wrong show" in page
    assert len(export(english, match)["rounds"]) == 1
    # One tap: Budi's show becomes a wrong show; two players are still in, so the form
    # asks who won the deal and saves nothing yet.
    offered = english.submit(
        match + "rounds/new",
        {"ending": "show", "action": "wrong_show", **shown, "hand_1": "15"},
    )
    assert offered.status_code == 400
    assert "Budi's show is now a wrong show" in text(offered)
    assert len(export(english, match)["rounds"]) == 1
    saved = deal(english, match, cut="3C", player="Andi", fate_0="wrong", hand_1="15")
    assert saved.status_code == 302, errors(saved)
    assert export(english, match)["rounds"][1] == {
        "cut": "3C",
        "show": "Andi",
        "hands": {"Siti": 15},
        "wrong_shows": ["Budi"],
    }
    board = english.get(match)
    assert totals(board) == [160, 15, 40]
    page = text(board)
    assert "of 101" in page and "Rejoin at 41" in page
    form = english.get(match + "rounds/new?rejoin=Budi")
    box = re.search(r'<input[^>]*name="rejoin_0"[^>]*>', form.text)
    assert box and "checked" in box.group(0)
    assert "Budi rejoins before this deal, at 41" in text(form)
    # Deal 3, Budi back at 41: Siti shows; Budi counts 10 and Andi 5 (as numbers).
    third = deal(english, match, cut="4S", player="Siti", rejoin_0="y", hand_0="10", hand_2="5")
    assert third.status_code == 302, errors(third)
    assert export(english, match)["rounds"][2]["rejoin"] == ["Budi"]
    assert totals(english.get(match)) == [51, 15, 45]


# -- the API ---------------------------------------------------------------------------


def api_pool(api_client) -> tuple[str, str]:
    keys = api_client.post("/api/v1/tables", json={"name": "Meja", "players": THREE}).json
    made = api_client.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={"rules": "indian", "players": THREE, "first_dealer": "Budi"},
    )
    assert made.status_code == 201, made.json
    return f"/api/v1/t/{keys['edit_key']}/m/{made.json['id']}", made.json["etag"]


def test_deals_through_the_api_with_the_engines_round_keys(api):
    client = api
    """The module's deals 1 and 2 as round objects, then Budi's rejoin at 41."""
    path, etag = api_pool(client)
    first = {
        "cut": "7D",
        "show": "Siti",
        "hands": {"Budi": BUDI_LOSES.split()},
        "drops": {"Andi": "middle"},
    }
    saved = client.post(path + "/rounds", json=first, headers={"If-Match": f'"{etag}"'})
    assert saved.status_code == 201, saved.json
    assert saved.json["totals"] == {"Budi": 80, "Siti": 0, "Andi": 40}
    groups = [line.split() for line in WRONG_SHOW.splitlines()]
    refused = client.post(
        path + "/rounds",
        json={"cut": "3C", "show": "Budi", "groups": {"Budi": groups}, "hands": {"Siti": 15}},
        headers={"If-Match": f'"{saved.json["etag"]}"', "Accept-Language": "en"},
    )
    assert refused.status_code == 422
    assert "Budi's show is not valid" in refused.json["error"]["message"]
    assert client.get(path).json["totals"] == {"Budi": 80, "Siti": 0, "Andi": 40}
    second = {"cut": "3C", "show": "Andi", "hands": {"Siti": 15}, "wrong_shows": ["Budi"]}
    saved = client.post(
        path + "/rounds", json=second, headers={"If-Match": f'"{saved.json["etag"]}"'}
    )
    assert saved.status_code == 201, saved.json
    assert saved.json["totals"] == {"Budi": 160, "Siti": 15, "Andi": 40}
    third = {"rejoin": ["Budi"], "cut": "4S", "show": "Siti", "hands": {"Budi": 10, "Andi": 5}}
    saved = client.post(
        path + "/rounds", json=third, headers={"If-Match": f'"{saved.json["etag"]}"'}
    )
    assert saved.status_code == 201, saved.json
    assert saved.json["totals"] == {"Budi": 51, "Siti": 15, "Andi": 45}


def test_a_second_rejoin_through_the_api_is_refused_with_the_reason(api):
    client = api
    path, etag = api_pool(client)
    for body in (
        {"cut": "7D", "show": "Siti", "hands": {"Budi": 80}, "wrong_shows": ["Andi"]},
        {"cut": "7D", "show": "Siti", "hands": {"Andi": 10}, "wrong_shows": ["Budi"]},
    ):
        saved = client.post(path + "/rounds", json=body, headers={"If-Match": f'"{etag}"'})
        assert saved.status_code == 201, saved.json
        etag = saved.json["etag"]
    # Budi 160 and out; Siti 0, Andi 90: Andi is above 79, so nobody may come back.
    refused = client.post(
        path + "/rounds",
        json={"rejoin": ["Budi"], "cut": "2S", "show": "Siti", "hands": {"Budi": 5, "Andi": 5}},
        headers={"If-Match": f'"{etag}"', "Accept-Language": "en"},
    )
    assert refused.status_code == 422
    assert "Andi is still in with 90, above 79" in refused.json["error"]["message"]


# -- deals and points ------------------------------------------------------------------


def test_deals_show_which_deal_comes_next(english):
    """Deals of 3: Siti shows, Budi counts 30 and Andi drops first (20): Siti collects
    30 + 20 = 50, Budi -30, Andi -20."""
    match = indian_match(english, "deals", deals=3)
    assert "Next: deal 1 of 3" in text(english.get(match))
    saved = deal(english, match, cut="5C", player="Siti", hand_0="30", fate_2="first")
    assert saved.status_code == 302, errors(saved)
    board = english.get(match)
    assert totals(board) == [-30, 50, -20]
    assert "Next: deal 2 of 3" in text(board)
    assert "deal 2 of 3" in text(english.get(match + "rounds/new"))


def test_a_points_match_is_ended_by_the_players(english, app):
    match = indian_match(english, "points")
    saved = deal(english, match, cut="5C", player="Siti", hand_0="30", fate_2="first")
    assert saved.status_code == 302, errors(saved)
    board = english.get(match)
    assert "End the match now" in text(board)
    stale = english.submit(match + "stop", {"match_version": "1"}, fresh=False)
    assert stale.status_code == 409
    assert export(english, match).get("stopped") is None
    version = re.search(r'name="match_version" value="(\d+)"', board.text).group(1)
    ended = english.submit(match + "stop", {"match_version": version}, fresh=False)
    assert ended.status_code == 302
    assert export(english, match)["stopped"] is True
    page = text(english.get(match))
    assert "Winner: Siti" in page and "End the match now" not in page
    again = english.submit(match + "stop", {"match_version": version}, fresh=False)
    assert again.status_code == 302  # a second tap changes nothing
    refused = deal(english, match, cut="5C", player="Budi", hand_1="10", hand_2="10")
    assert refused.status_code == 400
    assert "the match was already over after round 1 (Siti won)" in errors(refused)
    assert len(export(english, match)["rounds"]) == 1


def test_a_pool_cannot_be_stopped(english):
    match = indian_match(english)
    deal(english, match, cut="7D", player="Siti", hand_0="30", fate_2="first")
    board = english.get(match)
    assert "End the match now" not in text(board)
    version = re.search(r'name="match_version" value="(\d+)"', board.text)
    ended = english.submit(
        match + "stop", {"match_version": version.group(1) if version else "2"}, fresh=False
    )
    assert ended.status_code == 302
    assert "stopped" not in export(english, match)


def test_a_saved_deal_opens_again_in_the_deal_form_and_a_void_deal_counts_nothing(english):
    match = indian_match(english)
    deal(english, match, cut="7D", player="Siti", hand_0=BUDI_LOSES, fate_2="middle")
    form = english.get(match + "rounds/1/edit")
    assert form.status_code == 200
    assert re.search(r'<input[^>]*name="cut"[^>]*value="7D"', form.text)
    assert re.search(r'<option selected value="middle">|<option value="middle" selected', form.text)
    voided = deal(english, match, ending="void")
    assert voided.status_code == 302, errors(voided)
    assert export(english, match)["rounds"][1] == {"end": "void"}
    assert totals(english.get(match)) == [80, 0, 40]


def test_one_tap_wrong_show_with_one_player_left_saves_the_deal_in_the_players_words(english):
    """Two players: Budi's show (the wrong one above) is refused; one tap records it as a
    wrong show, which leaves Siti alone in the deal: she wins it with 0 and Budi pays the
    full count, 80 (RULES.md: a wrong show costs the full count; a deal ends when one player
    is left).  The count typed for Siti is not hers to pay."""
    two = ["Budi", "Siti"]
    fields = {"format": "pool101", "decks": "", "wild": "y", "rejoin": "y", "deals": 2}
    match = new_match(english, new_table(english, "Budi, Siti"), "indian", two, "Budi", **fields)
    shown = {"cut": "3C", "player": "Budi", "groups": WRONG_SHOW}
    refused = deal(english, match, **shown, hand_1="15")
    assert refused.status_code == 400
    page = text(refused)
    assert "Budi's show is not valid" in page and "Record Budi's show as a wrong show" in page
    assert "wrong_shows" not in page  # a match file's key is no word for a player
    tapped = english.submit(
        match + "rounds/new", {"ending": "show", "action": "wrong_show", **shown, "hand_1": "15"}
    )
    assert tapped.status_code == 302, errors(tapped)
    assert export(english, match)["rounds"] == [{"cut": "3C", "wrong_shows": ["Budi"]}]
    assert totals(english.get(match)) == [80, 0]


def test_who_showed_is_one_tap_on_a_name_chip_named_by_its_question(english):
    match = indian_match(english)
    form = english.get(match + "rounds/new").text
    group = re.search(
        r'<fieldset class="field radios chips[^"]*" id="player">(.*?)</fieldset>', form, re.S
    )
    assert group is not None, "Who showed? is no group of chips"
    assert "<legend>Who showed?</legend>" in group.group(1)
    assert re.findall(r'name="player" type="radio" value="(\w+)"', group.group(1)) == THREE
    assert '<select id="player"' not in form
    # a correction opens with the player who showed chosen
    deal(english, match, cut="7D", player="Siti", hand_0=BUDI_LOSES, fate_2="middle")
    again = english.get(match + "rounds/1/edit").text
    assert re.search(r'<input checked[^>]*name="player" type="radio" value="Siti"', again)
