"""The live round: the table, turns with melds and lay-offs, rejected plays, undo, the end."""

from __future__ import annotations

import html
import json
import re

import pytest

from .helpers import errors, field_errors, new_match, new_table, text, to_english, totals, view_url

THREE = ["Budi", "Siti", "Andi"]
TWO = ["Budi", "Siti"]


def turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def rounds_of(client, match):
    return json.loads(client.get(match + "export").data)["rounds"]


@pytest.fixture
def remi(client):
    return new_match(client, new_table(client), "remi", THREE, target=200)


def test_live_page_starts_with_an_empty_table(client, remi):
    page = client.get(remi + "live")
    assert page.status_code == 200
    assert 'id="on-table"' in page.text and 'name="player"' in page.text
    assert '<option selected value="Siti">' in page.text  # the player after the dealer leads


def test_a_meld_goes_on_the_table_with_who_laid_it(client, remi):
    assert turn(client, remi, player="Siti", melds="7S 8S 9S").status_code == 302
    page = text(client.get(remi + "live"))
    meld = page.split('id="meld-1"')[1].split('class="meld"')[0]
    assert "7S" in meld and "9S" in meld and "Siti" in meld
    assert rounds_of(client, remi) == []  # a live round is not a finished round


def test_a_rejected_meld_shows_the_reason_and_saves_nothing(client, remi):
    response = turn(client, remi, player="Siti", melds="7S 9S 10S")
    assert response.status_code == 400
    assert any("8S" in message for message in errors(response))
    assert "has-error" in response.text  # next to the melds field
    assert "7S 9S 10S" in response.text
    assert "meld-1" not in client.get(remi + "live").text


def test_a_bad_card_in_a_turn_is_named(client, remi):
    response = turn(client, remi, player="Siti", melds="7S 8S 9X")
    assert response.status_code == 400
    assert any("9X" in message for message in errors(response))


def test_an_empty_turn_is_refused(client, remi):
    response = turn(client, remi, player="Siti")
    assert response.status_code == 400 and errors(response)


def test_a_layoff_onto_another_players_meld_is_marked_with_who_laid_it(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    assert turn(client, remi, player="Andi", layoffs="10S > 1").status_code == 302
    page = client.get(remi + "live").text
    meld = page.split('id="meld-1"')[1]
    assert re.search(r'data-code="10S".*?class="by"[^>]*>Andi<', meld, re.S)


def test_the_table_says_which_melds_take_each_card(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    turn(client, remi, player="Andi", melds="4H 4D 4C")
    page = client.get(remi + "live").text
    accepts = json.loads(html.unescape(re.search(r'data-accepts="([^"]*)"', page).group(1)))
    assert accepts["6S"] == [1] and accepts["10S"] == [1] and accepts["4S"] == [2]
    assert "QS" not in accepts


def test_a_layoff_that_does_not_fit_is_refused(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    response = turn(client, remi, player="Andi", layoffs="QS > 1")
    assert response.status_code == 400 and errors(response)


def test_a_layoff_onto_a_missing_meld_is_refused(client, remi):
    response = turn(client, remi, player="Andi", layoffs="QS > 4")
    assert response.status_code == 400 and errors(response)


def test_a_badly_written_layoff_is_refused(client, remi):
    response = turn(client, remi, player="Andi", layoffs="QS onto")
    assert response.status_code == 400 and errors(response)


def test_going_out_all_at_once_doubles_the_round(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    turn(client, remi, player="Andi", layoffs="10S > 1")
    response = turn(
        client,
        remi,
        player="Budi",
        melds="4H 4D 4C\nJC QC KC",
        layoffs="6S > 1",
        discard="2D",
        out="y",
    )
    assert response.status_code == 302, errors(response)
    live = client.get(remi + "live")
    assert "Budi" in text(live) and 'name="melds"' not in live.text  # the round is over
    end = client.get(remi + "live/end")
    assert end.status_code == 200 and 'name="hand_0"' not in end.text
    response = client.submit(
        remi + "live/end", {"hand_1": "KH 2C 9D 5H", "hand_2": "AS 5D QH 3H 8D JD"}
    )
    assert response.status_code == 302, errors(response)
    page = client.get(remi)
    assert totals(page) == [126, 0, 0]
    assert "×2" in text(page)
    (entry,) = rounds_of(client, remi)
    assert entry["turns"][1] == {"player": "Andi", "layoffs": [{"cards": ["10S"], "onto": 1}]}
    assert entry["hands"] == {
        "Siti": ["KH", "2C", "9D", "5H"],
        "Andi": ["AS", "5D", "QH", "3H", "8D", "JD"],
    }


def test_end_with_a_hand_missing_is_refused(client, remi):
    assert (
        turn(
            client, remi, player="Budi", melds="4H 4D 4C 4S\nJC QC KC", discard="2D", out="y"
        ).status_code
        == 302
    )
    response = client.submit(remi + "live/end", {"hand_1": "KH"})
    assert response.status_code == 400 and errors(response)
    assert rounds_of(client, remi) == []


def test_end_a_live_round_as_blocked(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    response = client.submit(remi + "live/end", {"ending": "blocked"})
    assert response.status_code == 302, errors(response)
    assert rounds_of(client, remi)[0]["end"] == "blocked"


def test_undo_the_last_turn(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    turn(client, remi, player="Andi", melds="4H 4D 4C")
    assert client.submit(remi + "live/undo").status_code == 302
    page = client.get(remi + "live").text
    assert "meld-1" in page and "meld-2" not in page
    client.submit(remi + "live/undo")
    assert "meld-1" not in client.get(remi + "live").text


def test_discard_the_live_round(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    assert client.submit(remi + "live/discard").status_code == 302
    assert "meld-1" not in client.get(remi + "live").text


def test_no_quick_round_while_a_round_is_live(client, remi):
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    response = client.get(remi + "rounds/new")
    assert response.status_code == 302 and response.headers["Location"].endswith("live")


def test_view_link_sees_the_live_table_without_the_form(client):
    table = new_table(client)
    match = new_match(client, table, "remi", THREE, target=200)
    turn(client, match, player="Siti", melds="7S 8S 9S")
    from .helpers import view_url

    view = match.replace(table, view_url(client, table))
    page = client.get(view + "live")
    assert page.status_code == 200 and "meld-1" in page.text and 'name="melds"' not in page.text
    assert client.get(view + "live/end").status_code == 404


def test_rummy_must_discard_refuses_melding_the_whole_hand(client):
    match = new_match(
        client, new_table(client), "rummy", TWO, target=150, ace="low", must_discard="y"
    )
    response = turn(
        client, match, player="Siti", melds="4H 4D 4C\nJC QC KC\n7S 8S 9S\n2D 3D 4D", out="y"
    )
    assert response.status_code == 400 and errors(response)


def test_remi_indonesia_runs_first(client):
    match = new_match(client, new_table(client), "remi-indonesia", TWO, target=500)
    response = turn(client, match, player="Budi", melds="5H 5D 5C")
    assert response.status_code == 400 and errors(response)
    assert turn(client, match, player="Budi", melds="2H 3H 4H\n5H 5D 5C").status_code == 302


def test_remi_indonesia_has_no_layoffs(client):
    match = new_match(client, new_table(client), "remi-indonesia", TWO, target=500)
    turn(client, match, player="Budi", melds="2H 3H 4H")
    response = turn(client, match, player="Siti", layoffs="5H > 1")
    assert response.status_code == 400 and errors(response)


def test_gin_has_no_live_round(client):
    match = new_match(client, new_table(client), "gin", TWO, target=100)
    page = client.get(match + "live")
    assert page.status_code == 302 and page.headers["Location"].endswith("rounds/new")
    assert (
        client.submit(match + "live/turn", {"player": "Budi", "melds": "7S 8S 9S"}).status_code
        == 302
    )


# -- manipulation ---------------------------------------------------------------------------


@pytest.fixture
def manipulation(client):
    return new_match(client, new_table(client), "manipulation", TWO, target=150)


def manipulation_turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def test_manipulation_turn_with_the_table_after_it(client, manipulation):
    response = manipulation_turn(
        client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S"
    )
    assert response.status_code == 302, errors(response)
    response = manipulation_turn(
        client, manipulation, player="Budi", played="10S 7H 7D", table="7S 8S 9S 10S\n7H 7D JK=7C"
    )
    assert response.status_code == 400  # the joker was never played
    response = manipulation_turn(
        client, manipulation, player="Budi", played="10S 7H 7D", table="8S 9S 10S\n7S 7H 7D"
    )
    assert response.status_code == 302, errors(response)
    page = client.get(manipulation + "live").text
    assert "meld-2" in page


def test_manipulation_cards_leaving_the_table_are_refused(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = manipulation_turn(
        client, manipulation, player="Budi", played="4H 4D 4C", table="4H 4D 4C"
    )
    assert response.status_code == 400 and errors(response)


def test_manipulation_arrange_it_for_us(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = manipulation_turn(
        client, manipulation, player="Budi", played="10S 7H 7D", action="arrange"
    )
    assert response.status_code == 200, errors(response)
    table = html.unescape(
        re.search(r'name="table"[^>]*>\s*([^<]*)</textarea>', response.text).group(1)
    )
    melds = sorted(sorted(line.split()) for line in table.strip().splitlines())
    assert melds == [["10S", "8S", "9S"], ["7D", "7H", "7S"]]
    assert "meld-2" not in client.get(manipulation + "live").text  # nothing saved yet
    response = manipulation_turn(
        client, manipulation, player="Budi", played="10S 7H 7D", table=table
    )
    assert response.status_code == 302, errors(response)


def test_manipulation_arrange_says_what_goes_back(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = manipulation_turn(
        client, manipulation, player="Budi", played="10S QD", action="arrange"
    )
    assert response.status_code == 400
    assert any("QD" in message for message in errors(response))


def test_manipulation_knock_after_turns(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = client.submit(
        manipulation + "live/end",
        {"ending": "knock", "player": "Siti", "hand_0": "KH QH", "hand_1": "2C"},
    )
    assert response.status_code == 302, errors(response)
    assert totals(client.get(manipulation)) == [0, 18]


def test_manipulation_turn_form_starts_from_the_table(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    page = client.get(manipulation + "live").text
    assert re.search(r'name="table"[^>]*>\s*7S 8S 9S</textarea>', page)


# -- manipulation: what can I play? ---------------------------------------------------------


def hint(client, match, hand):
    return client.submit(match + "live/hint", {"hand": hand})


def hint_result(response):
    return text(response).split('id="hint-result"')[1].split("</div>\n")[0]


def turn_field(response, name):
    found = re.search(rf'name="{name}"[^>]*>\s*([^<]*)</textarea>', response.text) or re.search(
        rf'name="{name}"[^>]*value="([^"]*)"', response.text
    )
    return html.unescape(found.group(1)) if found else ""


def test_the_live_page_asks_what_can_be_played_only_in_manipulation(client, manipulation, remi):
    assert "live/hint" in client.get(manipulation + "live").text
    assert "live/hint" not in client.get(remi + "live").text


def test_what_can_i_play_names_the_cards_and_lays_out_the_table(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = hint(client, manipulation, "10S QD 6S")
    assert response.status_code == 200, errors(response)
    result = hint_result(response)
    assert "6S" in result and "10S" in result and "QD" not in result
    assert re.search(r"6S.*7S.*8S.*9S.*10S", result, re.S)
    # The turn form comes back filled in with that play; saving it is the player's choice.
    assert turn_field(response, "played") == "6S 10S"
    assert turn_field(response, "table").split() == ["6S", "7S", "8S", "9S", "10S"]
    assert "meld-2" not in client.get(manipulation + "live").text
    assert len(live_turns(client, manipulation)) == 1  # nothing saved
    response = manipulation_turn(
        client,
        manipulation,
        player="Budi",
        played=turn_field(response, "played"),
        table=turn_field(response, "table"),
    )
    assert response.status_code == 302, errors(response)


def test_what_can_i_play_on_an_empty_table(client, manipulation):
    response = hint(client, manipulation, "4H 4D 4C 9S JK")
    assert response.status_code == 200, errors(response)
    result = hint_result(response)
    assert all(code in result for code in ("4H", "4D", "4C"))


def test_what_can_i_play_when_nothing_fits(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    client.submit("/language", {"lang": "en", "next": "/"})
    response = hint(client, manipulation, "QD 2C")
    assert response.status_code == 200, errors(response)
    assert "No card of this hand can go on the table now" in hint_result(response)
    assert turn_field(response, "played") == ""


@pytest.mark.parametrize(
    ("hand", "named"),
    [
        ("10S 9X", "9X"),  # not a card
        ("", None),  # no hand
        ("7S", "7S"),  # 7S is on the table, and two players play with one deck
        ("JK JK", None),  # one joker with two players
        (" ".join(["2C"] * 31), None),  # more cards than a hand can hold for the hint
    ],
)
def test_what_can_i_play_refuses_a_bad_hand(client, manipulation, hand, named):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = hint(client, manipulation, hand)
    assert response.status_code == 400
    messages = errors(response)
    assert messages and (named is None or any(named in message for message in messages))
    assert len(live_turns(client, manipulation)) == 1


def test_what_can_i_play_with_the_view_link(client, manipulation):
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = hint(client, view_match_url(client, manipulation), "10S")
    assert response.status_code == 200, errors(response)
    assert "10S" in hint_result(response) and 'name="played"' not in response.text


def test_what_can_i_play_elsewhere_goes_back_to_the_table(client, remi, manipulation):
    response = hint(client, remi, "10S")
    assert response.status_code == 302 and response.headers["Location"].endswith("/live")
    manipulation_turn(
        client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S", out="y"
    )
    assert hint(client, manipulation, "10S").status_code == 302  # the round is over


def test_arrange_is_only_for_manipulation(client, remi):
    response = turn(client, remi, player="Siti", melds="7S 8S 9S", action="arrange")
    assert response.status_code == 302
    assert "meld-1" in client.get(remi + "live").text


def live_turns(client, match):
    page = client.get(match + "live").text
    turns = page.split('class="turns"')[1] if 'class="turns"' in page else ""
    return re.findall(r"<li><strong>", turns)


def view_match_url(client, match):
    """The same match through the table's view link: ``/v/<view key>/m/<id>/``."""
    table, match_path = match.split("/m/")
    return view_url(client, table + "/") + "m/" + match_path


def test_a_turn_with_nothing_to_record_is_refused(client, remi):
    client.submit("/language", {"lang": "en", "next": "/"})
    response = turn(client, remi, player="Siti")
    assert response.status_code == 400
    assert "Nothing to record: add a meld or a lay-off." in errors(response)
    assert rounds_of(client, remi) == []


def test_a_knock_ending_a_live_round_asks_who_knocked(client, manipulation):
    client.submit("/language", {"lang": "en", "next": "/"})
    manipulation_turn(client, manipulation, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    response = client.submit(
        manipulation + "live/end", {"ending": "knock", "hand_0": "KH QH", "hand_1": "2C"}
    )
    assert response.status_code == 400
    assert "Who knocked?" in errors(response)
    assert rounds_of(client, manipulation) == []  # the live round goes on


@pytest.fixture
def table(client):
    return new_table(client)


def test_no_empty_error_box_when_the_error_belongs_to_a_field(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    response = client.submit(
        match + "live/turn", {"player": "Siti", "melds": "7S 8S 9X", "action": "save"}
    )
    assert response.status_code == 400
    assert "turn-error" not in response.text
    assert any("9X" in message for message in errors(response))


def test_a_refused_turn_names_its_error_once_next_to_the_field(client, table):
    to_english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    response = client.submit(
        match + "live/turn", {"player": "Siti", "melds": "7S 9S 10S", "action": "save"}
    )
    shown = errors(response)
    assert len(shown) == 1 and "8S is missing between 7S and 9S" in shown[0]
    assert not shown[0].startswith("Round")


def test_take_back_the_last_turn_asks_first(client, table):
    to_english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    client.submit(match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"})
    page = text(client.get(match + "live"))
    assert "Take back last turn" in page
    assert 'data-confirm="Take back turn 1 (Siti)?"' in page


def test_end_of_round_shows_hand_sizes_and_every_empty_hand(client, table):
    to_english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    out = {
        "player": "Siti",
        "melds": "7S 8S 9S 10S\n4H 4D 4C",
        "discard": "2D",
        "out": "y",
        "action": "save",
    }
    assert client.submit(match + "live/turn", out).status_code == 302
    form = text(client.get(match + "live/end"))
    assert "Hand of Budi (7 cards)" in form and "Hand of Andi (7 cards)" in form
    response = client.submit(match + "live/end", {})
    shown = errors(response)
    assert len(shown) == 2, shown
    assert shown[0].startswith("Budi's hand is empty") and shown[1].startswith("Andi's hand")


def test_remi_indonesia_live_has_no_layoffs(client, table):
    match = new_match(client, table, "remi-indonesia", THREE)
    page = client.get(match + "live").text
    assert 'name="melds"' in page
    assert 'name="layoffs"' not in page and "data-layoff-strip" not in page


def test_remi_live_offers_layoffs(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    page = client.get(match + "live").text
    assert 'name="layoffs"' in page and "data-layoff-strip" in page


def test_a_named_joker_on_the_table_is_labelled(client, table):
    match = new_match(client, table, "manipulation", TWO)
    turn = {"player": "Siti", "played": "7S 8S JK", "table": "7S 8S JK=9S", "action": "save"}
    assert client.submit(match + "live/turn", turn).status_code == 302, errors(
        client.submit(match + "live/turn", turn)
    )
    meld = client.get(match + "live").text.split('id="meld-1"')[1].split("</div>")[0]
    assert 'class="jk">JK</small>9' in meld


def test_one_element_per_id_on_the_manipulation_live_page(client, table):
    match = new_match(client, table, "manipulation", TWO)
    page = client.get(match + "live").text
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def live_turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def test_cards_taken_from_the_discard_pile_are_shown(client):
    to_english(client)
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=200)
    assert live_turn(client, match, player="Budi", discard="KD", turns_before=0).status_code == 302
    response = live_turn(
        client, match, player="Siti", took_discard="KD", melds="KD KH KS", turns_before=1
    )
    assert response.status_code == 302, errors(response)
    taken = re.compile(
        r'took\s*(</div>)?\s*<span class="cards"><span class="card red ?" data-code="KD"'
    )
    assert taken.search(client.get(match + "live").get_data(as_text=True))
    assert taken.search(client.get(match + "rounds/1").get_data(as_text=True))


def test_a_refused_turn_names_its_error_under_one_field(client):
    to_english(client)
    three = ["Budi", "Siti", "Andi"]
    table = new_table(client)
    match = new_match(client, table, "remi-indonesia", three, target=300)
    for number, (player, card) in enumerate([("Budi", "9H"), ("Siti", "4C"), ("Andi", "KD")]):
        response = live_turn(client, match, player=player, discard=card, turns_before=number)
        assert response.status_code == 302, errors(response)
    response = live_turn(
        client,
        match,
        player="Budi",
        melds="7H 8H 9H",
        took_discard="KD 4C 9H 2S",
        discard="3S",
        turns_before=3,
    )
    assert response.status_code == 400
    marked = field_errors(response)
    assert list(marked) == ["took_discard"], marked


def test_an_end_sent_from_a_page_older_than_a_turn_taken_back_is_a_conflict(client, remi):
    to_english(client)
    turn(client, remi, player="Siti", melds="7S 8S 9S")
    turn(client, remi, player="Andi", melds="4H 4D 4C")
    stale = client.hidden_fields(remi + "live/end", page=remi + "live/end")
    assert client.submit(remi + "live/undo").status_code == 302  # another phone, meanwhile
    response = client.submit(remi + "live/end", {**stale, "ending": "blocked"}, fresh=False)
    assert response.status_code == 409
    assert "changed on another phone meanwhile: it has 1 turns now" in text(response)
    assert rounds_of(client, remi) == []
    again = client.submit(remi + "live/end", {"ending": "blocked"})
    assert again.status_code == 302, errors(again)
    assert rounds_of(client, remi)[0]["end"] == "blocked"


def test_a_round_being_played_live_is_not_made_void(client, remi, app):
    """A void posted for the live round (its version current) is refused in words, and the
    round's turns stay (it was silently ignored)."""
    import sqlalchemy as sa

    from referee.web.store.extensions import db
    from referee.web.store.models import Round

    turn(client, remi, player="Siti", melds="7S 8S 9S")
    with app.app_context():
        version = db.session.scalars(sa.select(Round.version)).one()
    response = client.submit(
        remi + "rounds/1/void", {"round_version": str(version)}, follow_redirects=True
    )
    assert "Babak 1 sedang dimainkan langsung: babak ini tidak bisa dibatalkan." in text(response)
    assert "meld-1" in client.get(remi + "live").text
