"""Corrections that cannot hurt: any turn of a round played live, corrected through the turn form.

The correction is re-checked with every turn after it; a correction that breaks a later turn
is refused naming that turn, and nothing is saved.  A stale page is a 409 that keeps the entry.
"""

from __future__ import annotations

import html
import re

import pytest

from .conftest import hidden_inputs
from .helpers import errors, json_marks, new_match, new_table, text, view_url

THREE = ["Budi", "Siti", "Andi"]


def turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def correct(client, match, number, turn_number, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    url = f"{match}rounds/{number}/turns/{turn_number}"
    return client.submit(url, data, page=url)


def table_melds(client, match):
    """The melds on the live table, each as its card codes in order."""
    page = client.get(match + "live").text
    section = page.split('id="on-table"')[1].split("</section>")[0]
    return [
        re.findall(r'data-code="([^"]+)"', meld) for meld in re.split(r'id="meld-\d+"', section)[1:]
    ]


@pytest.fixture
def remi(client):
    client.submit("/language", {"lang": "en", "next": "/"}, fresh=False)
    match = new_match(client, new_table(client), "remi", THREE, target=200)
    # Budi deals, Siti leads
    assert turn(client, match, player="Siti", melds="7S 8S 9S").status_code == 302
    assert turn(client, match, player="Andi", melds="4H 4D 4C").status_code == 302
    assert turn(client, match, player="Budi", layoffs="10S > 1").status_code == 302
    return match


def test_the_live_page_offers_to_correct_every_turn(client, remi):
    page = client.get(remi + "live").text
    for number in (1, 2, 3):
        assert f'href="{remi}rounds/1/turns/{number}"' in page


def test_the_turn_form_opens_filled_with_the_turn_over_the_table_before_it(client, remi):
    response = client.get(remi + "rounds/1/turns/3")
    assert response.status_code == 200
    page = response.text
    assert '<option selected value="Budi">' in page
    assert re.search(r'<textarea[^>]*name="layoffs"[^>]*>\s*10S &gt; 1</textarea>', page)
    # the table before turn 3: Siti's run and Andi's set, without the 10S laid off in turn 3
    before = page.split('id="on-table"')[1].split("</section>")[0]
    assert 'id="meld-1"' in before and 'id="meld-2"' in before
    assert 'data-code="10S"' not in before
    first = client.get(remi + "rounds/1/turns/1").text
    assert re.search(r'<textarea[^>]*name="melds"[^>]*>\s*7S 8S 9S</textarea>', first)
    assert "Nothing on the table yet." in first


def test_an_earlier_turn_is_corrected_and_the_later_turns_still_hold(client, remi):
    response = correct(client, remi, 1, 1, player="Siti", melds="6S 7S 8S 9S")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(remi + "live")
    assert "Turn 1 corrected." in text(client.get(remi + "live"))
    # 10S, laid off by Budi in turn 3, still extends the run 6S-9S
    assert table_melds(client, remi) == [["6S", "7S", "8S", "9S", "10S"], ["4H", "4D", "4C"]]


def test_a_correction_that_breaks_a_later_turn_is_refused_naming_it(client, remi):
    # a set of sevens cannot take the 10S that Budi laid off on meld 1 in turn 3
    response = correct(client, remi, 1, 1, player="Siti", melds="7H 7D 7C")
    assert response.status_code == 400
    found = [m for m in errors(response) if "no longer holds" in m]
    assert len(found) == 1
    assert "turn 3 (Budi) no longer holds" in found[0] and "10S" in found[0]
    assert "Nothing was saved." in found[0]
    assert "7H 7D 7C" in response.text  # the entry stays
    assert table_melds(client, remi) == [["7S", "8S", "9S", "10S"], ["4H", "4D", "4C"]]


def test_a_correction_that_is_itself_illegal_is_shown_at_the_field(client, remi):
    response = correct(client, remi, 1, 2, player="Andi", melds="4H 5D 4C")
    assert response.status_code == 400
    assert "has-error" in response.text and errors(response)
    assert table_melds(client, remi)[1] == ["4H", "4D", "4C"]


def test_a_correction_from_a_stale_page_is_a_conflict_that_keeps_the_entry(client, remi):
    url = remi + "rounds/1/turns/1"
    opened = client.hidden_fields(url, url)
    # another phone records turn 4 meanwhile
    assert turn(client, remi, player="Andi", melds="JC QC KC").status_code == 302
    mine = {**opened, "player": "Siti", "melds": "6S 7S 8S 9S", "action": "save"}
    response = client.submit(url, mine, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "Turn 4 (Andi) was recorded on another phone meanwhile." in page
    assert "6S 7S 8S 9S" in page  # kept
    assert table_melds(client, remi)[0] == ["7S", "8S", "9S", "10S"]  # nothing saved
    # saving it again from the conflict page is one tap
    again = {**mine, **hidden_inputs(response.text, url, url)}
    assert client.submit(url, again, fresh=False).status_code == 302
    assert table_melds(client, remi)[0] == ["6S", "7S", "8S", "9S", "10S"]


def test_a_correction_of_a_turn_taken_back_meanwhile_is_a_conflict(client, remi):
    url = remi + "rounds/1/turns/3"
    opened = client.hidden_fields(url, url)
    seen = client.hidden_fields(remi + "live/undo", remi + "live")
    assert client.submit(remi + "live/undo", seen, fresh=False).status_code == 302
    mine = {**opened, "player": "Budi", "layoffs": "6S > 1", "action": "save"}
    response = client.submit(url, mine, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "Turn 3 of round 1 is no longer there" in page
    assert "6S > 1" in page  # what was typed is shown


def test_the_same_correction_sent_twice_is_applied_once(client, remi):
    url = remi + "rounds/1/turns/1"
    data = {**client.hidden_fields(url, url), "player": "Siti", "melds": "6S 7S 8S 9S"}
    data["action"] = "save"
    assert client.submit(url, data, fresh=False).status_code == 302
    again = client.submit(url, data, fresh=False)
    assert again.status_code == 302  # answered with where the first one led
    assert "saved already" in text(client.get(again.headers["Location"]))


def test_the_audit_trail_records_the_correction(client, remi):
    assert correct(client, remi, 1, 1, player="Siti", melds="6S 7S 8S 9S").status_code == 302
    page = text(client.get(remi + "live"))
    trail = page.split("Changes to this round")[1]
    assert "Turn corrected" in trail and "from the edit link" in trail
    assert "Turn 1: Siti · meld 7S 8S 9S → Siti · meld 6S 7S 8S 9S" in trail
    # the round's page keeps it after the round ends
    end = remi + "live/end"
    assert client.submit(end, {"ending": "blocked"}, page=end).status_code == 302
    shown = text(client.get(remi + "rounds/1"))
    assert "Turn 1: Siti · meld 7S 8S 9S → Siti · meld 6S 7S 8S 9S" in shown


def test_the_view_link_cannot_correct_a_turn(client, remi):
    view = view_url(client, remi.split("/m/")[0] + "/")
    match_id = remi.rstrip("/").rsplit("/", 1)[1]
    assert client.get(f"{view}m/{match_id}/rounds/1/turns/1").status_code == 404
    assert "turns/1" not in client.get(f"{view}m/{match_id}/live").text


@pytest.mark.parametrize("number", [0, 4, 99])
def test_a_turn_that_is_not_there_is_404(client, remi, number):
    assert client.get(f"{remi}rounds/1/turns/{number}").status_code == 404


def test_a_finished_round_played_live_is_corrected_through_the_turn_form(client, remi):
    end = remi + "live/end"
    assert client.submit(end, {"ending": "blocked"}, page=end).status_code == 302
    round_page = client.get(remi + "rounds/1").text
    assert f'href="{remi}rounds/1/turns/2"' in round_page
    response = correct(client, remi, 1, 2, player="Andi", melds="4H 4D 4C 4S")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(remi + "rounds/1")
    shown = html.unescape(client.get(remi + "rounds/1").text)
    assert "Turn 2: Andi · meld 4H 4D 4C → Andi · meld 4H 4D 4C 4S" in shown
    refused = correct(client, remi, 1, 1, player="Siti", melds="7H 7D 7C")
    assert refused.status_code == 400
    assert any("turn 3 (Budi) no longer holds" in m for m in errors(refused))


def test_manipulation_turns_open_with_the_cards_played_and_the_table_after(client):
    client.submit("/language", {"lang": "en", "next": "/"}, fresh=False)
    match = new_match(client, new_table(client), "manipulation", THREE)
    data = {"player": "Siti", "played": "7S 8S 9S", "table": "7S 8S 9S"}
    assert turn(client, match, **data).status_code == 302
    data = {"player": "Andi", "played": "10S", "table": "7S 8S 9S 10S"}
    assert turn(client, match, **data).status_code == 302
    page = client.get(match + "rounds/1/turns/2").text
    assert re.search(r'name="played"[^>]*value="10S"', page)
    assert re.search(r'<textarea[^>]*name="table"[^>]*>\s*7S 8S 9S 10S</textarea>', page)
    # Andi's turn needs the run: a correction of Siti's turn to a set breaks it
    url = match + "rounds/1/turns/1"
    response = client.submit(
        url, {"player": "Siti", "played": "7S 7H 7D", "table": "7S 7H 7D", "action": "save"}
    )
    assert response.status_code == 400
    assert any("turn 2 (Andi) no longer holds" in m for m in errors(response))


def test_a_correction_that_leaves_a_later_hand_empty_unmarked_is_refused(client, remi):
    # remi deals 7 cards to each of 3 players.  Siti: 7 + 1 drawn - 3 melded - 1 discarded = 4
    # after turn 1; turn 4: 4 + 1 - 3 - 1 = 1 card left.  With turn 1 corrected to a meld of 4
    # she holds 3 after it, and turn 4 would leave her none without going out.
    assert turn(client, remi, player="Siti", melds="JC QC KC").status_code == 302
    response = correct(client, remi, 1, 1, player="Siti", melds="6S 7S 8S 9S")
    assert response.status_code == 400
    found = [m for m in errors(response) if "no longer holds" in m]
    assert len(found) == 1 and "turn 4 (Siti) no longer holds" in found[0], found
    assert table_melds(client, remi)[0] == ["7S", "8S", "9S", "10S"]


# -- the JSON editor stays as an expert path --------------------------------------------------

TWO = ["Budi", "Siti"]
MISSING_COMMA = '{\n  "out": "Siti",\n  "hands": {"Budi": ["QD" "JD"]}\n}'


def json_errors(client, language, entry, *, marks=None):
    client.submit("/language", {"lang": language, "next": "/"}, fresh=False)
    match = new_match(client, new_table(client), "remi", TWO, target=100)
    data = {"hand_1": "KH", "ending": "out", "player": "Budi", "action": "save"}
    assert client.submit(match + "rounds/new", data).status_code == 302
    response = client.submit(match + "rounds/1/json", {"entry": entry})
    assert response.status_code == 400
    assert entry in html.unescape(response.text)  # kept as typed
    if marks is not None:
        marks.extend(json_marks(response.text))
    return errors(response)


def test_a_json_parse_error_names_the_line_and_column_in_words(client):
    # line 3 is `  "hands": {"Budi": ["QD" "JD"]}`: the parser stops at the second card, which
    # starts in column 27 (2 spaces, "hands" 3-9, : 10, { 12, "Budi" 13-18, [ 21, "QD" 22-25)
    marks: list[list[str]] = []
    found = json_errors(client, "en", MISSING_COMMA, marks=marks)
    assert found == ["Line 3, column 27: a comma is missing between two items."]
    assert not any("Expecting" in message or "delimiter" in message for message in found)
    # The line as typed, and under it a mark in column 27.
    assert marks == [['  "hands": {"Budi": ["QD" "JD"]}', " " * 26 + "^"]]


def test_a_json_parse_error_in_indonesian(client):
    marks: list[list[str]] = []
    found = json_errors(client, "id", MISSING_COMMA, marks=marks)
    assert found == ["Baris 3, kolom 27: koma kurang di antara dua isian."]
    assert marks == [['  "hands": {"Budi": ["QD" "JD"]}', " " * 26 + "^"]]


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ('{"out": "Siti",}', "Line 1, column 16: a name in double quotes"),
        ('{"out": "Siti}', "Line 1, column 9: a text in quotes is not closed"),
        ('{"out" "Siti"}', "Line 1, column 8: a colon (:) is missing"),
        ('{"out": }', "Line 1, column 9: a value is missing here"),
        ('{"end": "void"} }', "Line 1, column 17: something follows the end of the round object"),
    ],
)
def test_each_kind_of_json_mistake_is_said_in_words(client, entry, words):
    found = json_errors(client, "en", entry)
    assert len(found) == 1 and found[0].startswith(words), found


def test_a_finished_rounds_turn_corrected_from_a_stale_page_is_a_conflict(client, remi):
    end = remi + "live/end"
    assert client.submit(end, {"ending": "blocked"}, page=end).status_code == 302
    url = remi + "rounds/1/turns/2"
    opened = client.hidden_fields(url, url)
    assert correct(client, remi, 1, 1, player="Siti", melds="6S 7S 8S 9S").status_code == 302
    mine = {**opened, "player": "Andi", "melds": "4H 4D 4C 4S", "action": "save"}
    response = client.submit(url, mine, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "Round 1 was changed on another phone meanwhile" in page
    assert "4H 4D 4C 4S" in page
    again = {**mine, **hidden_inputs(response.text, url, url)}
    assert client.submit(url, again, fresh=False).status_code == 302
    shown = text(client.get(remi + "rounds/1"))
    assert "Turn 1: Siti · meld 7S 8S 9S → Siti · meld 6S 7S 8S 9S" in shown
    assert "Turn 2: Andi · meld 4H 4D 4C → Andi · meld 4H 4D 4C 4S" in shown


def test_the_refusal_of_a_later_turn_in_indonesian(client, remi):
    client.submit("/language", {"lang": "id", "next": "/"}, fresh=False)
    response = correct(client, remi, 1, 1, player="Siti", melds="7H 7D 7C")
    assert response.status_code == 400
    found = [m for m in errors(response) if "tidak sah lagi" in m]
    assert len(found) == 1
    assert found[0].startswith("Dengan perbaikan ini giliran 3 (Budi) tidak sah lagi: ")
    assert found[0].endswith("Tidak ada yang disimpan.")


def test_manipulation_arrange_it_for_us_in_a_correction_saves_nothing(client):
    client.submit("/language", {"lang": "en", "next": "/"}, fresh=False)
    match = new_match(client, new_table(client), "manipulation", THREE)
    data = {"player": "Siti", "played": "7S 8S 9S", "table": "7S 8S 9S"}
    assert turn(client, match, **data).status_code == 302
    data = {"player": "Andi", "played": "10S", "table": "7S 8S 9S 10S"}
    assert turn(client, match, **data).status_code == 302
    url = match + "rounds/1/turns/2"
    asked = {"player": "Andi", "played": "10S 7H 7D", "action": "arrange"}
    response = client.submit(url, asked)
    assert response.status_code == 200, errors(response)
    table = html.unescape(re.search(r'name="table"[^>]*>\s*([^<]*)</textarea>', response.text)[1])
    # on the table before turn 2 (7S 8S 9S), 10S 7H 7D make 8S 9S 10S and 7S 7H 7D
    assert sorted(sorted(line.split()) for line in table.strip().splitlines()) == [
        ["10S", "8S", "9S"],
        ["7D", "7H", "7S"],
    ]
    assert table_melds(client, match) == [["7S", "8S", "9S", "10S"]]  # nothing saved
    saved = client.submit(url, {**asked, "table": table, "action": "save"})
    assert saved.status_code == 302, errors(saved)
    assert sorted(table_melds(client, match)) == [["7S", "7H", "7D"], ["8S", "9S", "10S"]]
