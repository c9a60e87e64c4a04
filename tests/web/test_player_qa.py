"""Problems found by playing on a phone: stale forms, corrections that end the match, targets,
untranslated form messages, errors shown once and in the right place, wording, hints."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import hidden_inputs
from .helpers import errors, new_match, new_table, round_data, save_round, text

TWO = ["Budi", "Siti"]
THREE = ["Budi", "Siti", "Andi"]


def rounds_of(client, match):
    return json.loads(client.get(match + "export").data)["rounds"]


def english(client):
    client.submit("/language", {"lang": "en", "next": "/"})


@pytest.fixture
def table(client):
    return new_table(client)


# -- 1. Back, then Save: the same round or turn is not recorded twice -----------------------


def test_the_quick_form_carries_the_round_it_was_opened_for(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    page = client.get(match + "rounds/new").text
    assert re.search(r'name="for_round" type="hidden" value="1"', page)


def test_a_resubmitted_quick_round_is_not_saved_twice(client, table):
    english(client)
    match = new_match(client, table, "remi", TWO, target=200)
    opened = client.hidden_fields(match + "rounds/new")  # the form as the phone holds it
    data = {**opened, **round_data(TWO, {"Siti": "KH"}, ending="out", player="Budi")}
    assert client.submit(match + "rounds/new", data, fresh=False).status_code == 302
    again = client.submit(match + "rounds/new", data, fresh=False)  # Back, then Save again
    assert again.status_code == 302 and again.headers["Location"] == match
    assert "This round was saved already." in text(client.get(match))
    assert len(rounds_of(client, match)) == 1


def test_a_quick_round_from_an_older_form_is_a_conflict_that_keeps_the_entry(client, table):
    english(client)
    match = new_match(client, table, "remi", TWO, target=200)
    opened = client.hidden_fields(match + "rounds/new")
    assert (
        save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi").status_code
        == 302
    )
    mine = {**opened, **round_data(TWO, {"Siti": "2C 3C"}, ending="out", player="Budi")}
    response = client.submit(match + "rounds/new", mine, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "Round 1 was saved on another phone meanwhile." in page
    assert "Totals now: Budi 10, Siti 0." in page  # the winner takes KH = 10, nobody else scores
    assert 'value="2C 3C"' in response.text  # what was typed is kept
    assert 'name="for_round" type="hidden" value="2"' in response.text  # ready as round 2
    # Saving the kept form again is one tap (the 409 page's own form), and it is round 2.
    resent = hidden_inputs(response.text, match + "rounds/new", match + "rounds/new")
    kept = {**mine, **resent}
    again = client.submit(match + "rounds/new", kept, fresh=False)
    assert again.status_code == 302
    assert len(rounds_of(client, match)) == 2


def test_a_resubmitted_turn_is_not_applied_twice(client, table):
    english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    assert 'name="turns_before" type="hidden" value="0"' in client.get(match + "live").text
    opened = client.hidden_fields(match + "live/turn")
    data = {**opened, "player": "Siti", "melds": "7S 8S 9S", "action": "save"}
    assert client.submit(match + "live/turn", data, fresh=False).status_code == 302
    again = client.submit(match + "live/turn", data, fresh=False)
    assert again.status_code == 302  # the same form twice: harmless
    assert "This turn was saved already." in text(client.get(match + "live"))
    live = client.get(match + "live").text
    assert live.count('class="meld"') == 1


def test_a_turn_from_an_older_form_is_a_conflict_that_keeps_the_entry(client, table):
    english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    opened = client.hidden_fields(match + "live/turn")
    first = {"player": "Siti", "melds": "7S 8S 9S", "action": "save"}
    assert client.submit(match + "live/turn", first).status_code == 302
    mine = {**opened, "player": "Andi", "melds": "2H 3H 4H", "action": "save"}
    response = client.submit(match + "live/turn", mine, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "Turn 1 (Siti) was recorded on another phone meanwhile." in page
    assert "2H 3H 4H" in page  # kept in the form
    # The form came back up to date: saving it now is a deliberate second turn.
    assert 'name="turns_before" type="hidden" value="1"' in response.text
    live = client.get(match + "live").text
    assert live.count('class="meld"') == 1


# -- 2. A correction that ends the match earlier ---------------------------------------------


def two_rounds_then_a_big_correction(client, table):
    match = new_match(client, table, "remi", TWO, target=100)
    for hand in ("KH", "2C"):
        response = save_round(client, match, TWO, {"Siti": hand}, ending="out", player="Budi")
        assert response.status_code == 302, errors(response)
    big = round_data(
        TWO,
        {"Siti": "KH QH JH KD QD JD KC QC JC KS"},
        ending="out",
        player="Budi",
        for_round=1,
    )
    return match, big


def test_a_correction_that_ends_the_match_offers_to_remove_the_later_rounds(client, table):
    english(client)
    match, big = two_rounds_then_a_big_correction(client, table)
    response = client.submit(match + "rounds/1/edit", big)
    assert response.status_code == 409
    page = text(response)
    assert "the match ends after round 1, but round 2 was played after it" in page
    assert 'value="save_cut"' in response.text and "data-confirm" in response.text
    assert "Save the correction and remove round 2" in page
    assert 'value="KH QH JH KD QD JD KC QC JC KS"' in response.text  # the typed correction
    assert len(rounds_of(client, match)) == 2  # nothing saved yet

    done = client.submit(match + "rounds/1/edit", {**big, "action": "save_cut"})
    assert done.status_code == 302, errors(done)
    rounds = rounds_of(client, match)
    assert len(rounds) == 1 and len(rounds[0]["hands"]["Siti"]) == 10
    assert "Round 2 was removed." in text(client.get(match))


def test_removing_later_rounds_needs_the_correction_to_end_the_match(client, table):
    match, _big = two_rounds_then_a_big_correction(client, table)
    small = round_data(TWO, {"Siti": "QH"}, ending="out", player="Budi", action="save_cut")
    response = client.submit(match + "rounds/1/edit", small)
    assert len(rounds_of(client, match)) == 2  # nothing removed
    assert response.status_code == 200 and "save_cut" not in response.text


# -- 3. A typed target wins over the preset left selected -----------------------------------


def test_a_typed_custom_target_wins_over_the_preset(client, table):
    match = new_match(client, table, "remi", TWO, target=100, custom_target=250)
    assert json.loads(client.get(match + "export").data)["options"] == {"target": 250}


# -- 4. WTForms' own messages in Indonesian --------------------------------------------------


@pytest.mark.parametrize("value", ["abc", "0"])
def test_form_messages_are_in_indonesian(client, table, value):
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "custom"}
    response = client.submit(f"{table}new/remi", {**data, "custom_target": value})
    assert response.status_code == 400
    page = text(response)
    for english_text in ("Not a valid integer value.", "Number must be between", "required"):
        assert english_text not in page
    assert errors(response)


def test_every_wtforms_message_is_in_the_catalogue(app):
    from referee.web.forms.base import TRANSLATIONS

    with app.test_request_context():
        from flask import session

        session["lang"] = "id"
        assert TRANSLATIONS.gettext("Not a valid integer value.") != "Not a valid integer value."
        assert TRANSLATIONS.gettext("This field is required.") != "This field is required."


# -- 7, 8. Errors once, next to their field, without the round's own location ---------------


def test_no_empty_error_box_when_the_error_belongs_to_a_field(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    response = client.submit(
        match + "live/turn", {"player": "Siti", "melds": "7S 8S 9X", "action": "save"}
    )
    assert response.status_code == 400
    assert "turn-error" not in response.text
    assert any("9X" in message for message in errors(response))


def test_a_refused_round_names_its_error_once_without_round_1(client, table):
    english(client)
    match = new_match(client, table, "remi", TWO, target=200)
    response = save_round(client, match, TWO, {"Siti": "KH KH KH"}, ending="out", player="Budi")
    assert response.status_code == 400
    shown = errors(response)
    assert len(shown) == 1, shown
    assert "KH" in shown[0] and not shown[0].startswith("Round 1")
    assert "form-error" not in response.text  # it is next to Siti's hand, not above the form


def test_a_refused_turn_names_its_error_once_next_to_the_field(client, table):
    english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    response = client.submit(
        match + "live/turn", {"player": "Siti", "melds": "7S 9S 10S", "action": "save"}
    )
    shown = errors(response)
    assert len(shown) == 1 and "8S is missing between 7S and 9S" in shown[0]
    assert not shown[0].startswith("Round")


# -- 10. One word per action, with confirmations ---------------------------------------------


def test_delete_last_round_names_the_round(client, table):
    english(client)
    match = new_match(client, table, "remi", TWO, target=200)
    for hand in ("KH", "2C"):
        save_round(client, match, TWO, {"Siti": hand}, ending="out", player="Budi")
    page = text(client.get(match))
    assert "Delete last round" in page and 'data-confirm="Delete round 2?"' in page
    assert "Undo the last round" not in page
    shown = text(client.get(match + "rounds/1"))
    assert "Void round (scores 0)" in shown and "Void round 1? Everyone scores 0" in shown


def test_take_back_the_last_turn_asks_first(client, table):
    english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    client.submit(match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"})
    page = text(client.get(match + "live"))
    assert "Take back last turn" in page
    assert 'data-confirm="Take back turn 1 (Siti)?"' in page


def test_indonesian_wording_of_the_three_undos(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    save_round(client, match, THREE, {"Siti": "KH", "Andi": "2C"}, ending="out", player="Budi")
    client.submit(match + "live/turn", {"player": "Andi", "melds": "7S 8S 9S", "action": "save"})
    assert "Tarik giliran terakhir" in text(client.get(match + "live"))
    assert "Batalkan babak (skor 0)" in text(client.get(match + "rounds/1"))
    client.submit(match + "live/discard")
    page = text(client.get(match))
    assert "Hapus babak terakhir" in page and "Hapus babak 1?" in page


# -- 11. The end of a live round: sizes known, every empty hand at once ---------------------


def test_end_of_round_shows_hand_sizes_and_every_empty_hand(client, table):
    english(client)
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


# -- 13, 16, 17. Only what the game has ----------------------------------------------------


def test_remi_indonesia_live_has_no_layoffs(client, table):
    match = new_match(client, table, "remi-indonesia", THREE)
    page = client.get(match + "live").text
    assert 'name="melds"' in page
    assert 'name="layoffs"' not in page and "data-layoff-strip" not in page


def test_remi_live_offers_layoffs(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    page = client.get(match + "live").text
    assert 'name="layoffs"' in page and "data-layoff-strip" in page


def test_joker_hint_only_where_the_game_has_jokers(client, table):
    english(client)
    remi = new_match(client, table, "remi", TWO, target=200)
    assert "JK for a joker" not in text(client.get(remi + "rounds/new"))
    manipulation = new_match(client, table, "manipulation", TWO)
    assert "JK for a joker" in text(client.get(manipulation + "rounds/new"))


def test_quick_form_names_each_player_once(client, table):
    english(client)
    match = new_match(client, table, "remi", TWO, target=200)
    page = text(client.get(match + "rounds/new"))
    form = page.split("<legend>")[1]
    assert form.count("Budi") == 1 and "Hand of Budi" in form


# -- 15, 21. Names and options -------------------------------------------------------------


def test_ruleset_names_not_ids(client, table):
    match = new_match(client, table, "remi-indonesia", THREE)
    page = text(client.get(match))
    assert "Remi Indonesia #" in page and "remi-indonesia #" not in page
    assert "<title>Remi Indonesia" in page
    assert "Remi Indonesia" in text(client.get(table))


def test_the_scoreboard_shows_the_chosen_options(client, table):
    match = new_match(client, table, "rummy", TWO, target=150, ace="high-low", must_discard="y")
    page = text(client.get(match))
    assert "As tinggi-rendah" in page and "kartu terakhir harus dibuang" in page
    rounds = new_match(client, table, "rummy", TWO, end="hands", hands=10)
    assert "10 babak" in text(client.get(rounds))


# -- 18, 19, 20. Gin verdict, jokers on the table, one id="table" ---------------------------


def test_gin_verdict_says_its_outcome_once_and_separates_melds(client, table):
    match = new_match(client, table, "gin", TWO, target=100)
    data = round_data(
        TWO,
        {"Budi": "AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "Siti": "AH AD AC 2H 2D 2C 3H 3D 3C 4C"},
        ending="knock",
        player="Budi",
        action="check",
    )
    page = text(client.submit(match + "rounds/new", data))
    verdict = re.search(r'class="verdict undercut">(.*?)</p>', page, re.S).group(1)
    assert "Potong bawah" in verdict and verdict.lower().count("potong bawah") == 1
    assert "undercut" not in verdict
    assert 'class="gin-sep"' in page


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


# -- 24. Copy buttons --------------------------------------------------------------------------


def test_table_links_have_copy_buttons(client, table):
    page = client.get(table).text
    assert page.count("data-copy") == 2


def test_an_empty_custom_target_is_no_error(client, table):
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "100"}
    response = client.submit(f"{table}new/remi", {**data, "custom_target": "", "hands": ""})
    assert response.status_code == 302, errors(response)


def test_a_resubmitted_end_of_round_is_not_saved_twice(client, table):
    english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    client.submit(match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"})
    assert 'name="for_round" type="hidden" value="1"' in client.get(match + "live/end").text
    data = {**client.hidden_fields(match + "live/end"), "ending": "blocked"}
    assert client.submit(match + "live/end", data, fresh=False).status_code == 302
    again = client.submit(match + "live/end", data, fresh=False, follow_redirects=True)
    assert "This round was saved already." in text(again)
    assert len(rounds_of(client, match)) == 1
