"""An evening at the table: out marked by itself, rematch, renames, a table forgotten on a phone,
the big board, the manifest, what a round's page shows after a void or a gin knock, wording."""

from __future__ import annotations

import json
import re

import pytest

from referee.messages import CATALOGUE
from referee.web.show.i18n import PLAYER_WORDING
from referee.web.store.models import Match

from .helpers import errors, new_match, new_table, save_round, stored_count, text, totals

THREE = ["Budi", "Siti", "Andi"]
TWO = ["Budi", "Siti"]
GIN_KNOCKER = "7C 8C 9C 2S 2H 2D 5H 6H 7H AS"
GIN_DEFENDER = "6C 10C 4D 10S JS QS KS 9H 9D 9S"


def turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def document(client, match):
    return json.loads(client.get(match + "export").data)


def version(client, match):
    return client.get(match + "version").get_json()["version"]


@pytest.fixture
def table(client):
    client.submit("/language", {"lang": "en", "next": "/"}, fresh=False)
    return new_table(client)


# -- out is obvious -------------------------------------------------------------------------


def test_a_turn_that_empties_the_hand_marks_the_player_out_by_itself(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    turn(client, match, player="Siti", melds="7S 8S 9S")
    turn(client, match, player="Andi", layoffs="10S > 1")
    # Budi holds 7 (3 players), draws 1: 7 put down and a discard empty the hand; no tick.
    response = turn(
        client, match, player="Budi", melds="4H 4D 4C\nJC QC KC", layoffs="6S > 1", discard="2D"
    )
    assert response.status_code == 302, errors(response)
    response = client.submit(
        match + "live/end", {"hand_1": "KH 2C 9D 5H", "hand_2": "AS 5D QH 3H 8D JD"}
    )
    assert response.status_code == 302, errors(response)
    (entry,) = document(client, match)["rounds"]
    assert entry["turns"][2]["out"] is True
    # Siti 10+2+9+5 = 26, Andi 1+5+10+3+8+10 = 37; all at once: (26 + 37) x 2 = 126
    assert totals(client.get(match)) == [126, 0, 0]


def test_a_turn_that_keeps_cards_is_not_marked_out(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    assert turn(client, match, player="Siti", melds="7S 8S 9S").status_code == 302
    assert 'name="melds"' in client.get(match + "live").text  # the round goes on


def test_no_message_shows_the_file_format_words(client):
    """Every referee reason that names fields of the match file ("out": true) has words of the
    forms instead; only the match file's own errors (``file.*``) talk about the file."""
    import referee.gin  # noqa: F401  (every engine message defined)
    import referee.match  # noqa: F401

    file_words = re.compile(r'"(out|knock|closer|end|discard|closing_card)"|: true')
    for key, template in CATALOGUE.items():
        if file_words.search(template) and not key.startswith("file."):
            assert key in PLAYER_WORDING, key
    for key, wording in PLAYER_WORDING.items():
        assert key in CATALOGUE, key
        assert not file_words.search(str(wording)), key
        placeholders = set(re.findall(r"{(\w+)}", str(wording)))
        assert placeholders <= set(re.findall(r"{(\w+)}", CATALOGUE[key])), key
    with client.application.test_request_context():
        from referee.errors import RuleError
        from referee.web.show.i18n import error_text

        message = error_text(RuleError("round.not_marked_out", player="Budi"))
        assert '"out"' not in message and "true" not in message and "Budi" in message


def test_the_live_page_does_not_autofocus_a_field(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    assert "autofocus" not in client.get(match + "live").text


def test_with_two_decks_a_card_is_used_only_when_both_copies_are(client):
    table = new_table(client, "Budi, Siti, Andi")
    match = new_match(client, table, "manipulation", THREE, target=150)
    response = turn(client, match, player="Siti", played="7S 8S 9S", table="7S 8S 9S")
    assert response.status_code == 302, errors(response)
    page = client.get(match + "live").text
    assert 'data-copies="2"' in page
    assert not re.search(r'class="pick [a-z]+ used"[^>]*data-code="7S"', page)
    response = turn(client, match, player="Andi", played="7S 8S 9S", table="7S 8S 9S\n7S 8S 9S")
    assert response.status_code == 302, errors(response)
    page = client.get(match + "live").text
    assert re.search(r'class="pick [a-z]+ used"\s+data-code="7S"', page)


# -- rematch --------------------------------------------------------------------------------


def test_rematch_of_a_finished_match_has_the_next_dealer(client, table):
    match = new_match(client, table, "remi", TWO, dealer="Budi", target=50)
    # Round 1, dealt by Budi: Siti goes out, Budi holds K Q J 10 9 8 = 10+10+10+10+9+8 = 57 >= 50.
    response = save_round(
        client, match, TWO, {"Budi": "KH QH JH 10S 9S 8S"}, ending="out", player="Siti"
    )
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [0, 57]
    page = client.get(match).text
    token = re.search(r'action="[^"]*/rematch".*?name="once" value="([^"]+)"', page, re.S)
    assert token
    data = {"once": token.group(1)}
    first = client.submit(match + "rematch", data, fresh=False)
    assert first.status_code == 302
    again = client.submit(match + "rematch", data, fresh=False)  # a double tap
    assert again.headers["Location"] == first.headers["Location"]
    rematch = first.headers["Location"]
    assert rematch != match
    header = document(client, rematch)
    # remi: the deal moves one seat clockwise; round 1 was Budi's, so Siti deals next
    assert header["first_dealer"] == "Siti"
    assert header["players"] == TWO and header["rules"] == "remi"
    assert header["options"] == document(client, match)["options"]
    assert header["rounds"] == []
    assert len(re.findall(r"/m/\d+/", client.get(table).text)) >= 2


def test_rematch_before_any_round_keeps_the_dealer(client, table):
    match = new_match(client, table, "remi", THREE, dealer="Andi", target=100)
    response = client.submit(match + "rematch", {"once": "x" * 20}, fresh=False)
    assert response.status_code == 302
    assert document(client, response.headers["Location"])["first_dealer"] == "Andi"


def test_rematch_of_gin_lets_the_loser_deal(client, table):
    match = new_match(client, table, "gin", TWO, dealer="Budi", target=100)
    data = {"hand_0": GIN_KNOCKER, "hand_1": GIN_DEFENDER, "ending": "knock", "player": "Budi"}
    data["action"] = "save"
    assert client.submit(match + "rounds/new", data).status_code == 302
    response = client.submit(match + "rematch", {"once": "g" * 20}, fresh=False)
    # gin: the loser of the round deals the next; Budi won the knock, so Siti deals
    assert document(client, response.headers["Location"])["first_dealer"] == "Siti"


def test_the_view_link_cannot_start_a_rematch(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    view = match.replace("/t/", "/v/", 1)
    response = client.submit(view + "rematch", {"once": "v" * 20}, fresh=False)
    assert response.status_code == 404
    assert stored_count(app, Match) == 1  # no rematch


# -- renames and "my tables" ----------------------------------------------------------------


def _settings(client, table):
    return table + "settings"


def test_rename_a_player_everywhere_history_included(client, table):
    match = new_match(client, table, "remi", THREE, dealer="Budi", target=200)
    turn(client, match, player="Siti", melds="7S 8S 9S")
    turn(client, match, player="Andi", layoffs="10S > 1")
    turn(client, match, player="Budi", melds="4H 4D 4C\nJC QC KC", layoffs="6S > 1", discard="2D")
    client.submit(match + "live/end", {"hand_1": "KH 2C 9D 5H", "hand_2": "AS 5D QH 3H 8D JD"})
    save_round(client, match, THREE, {"Budi": "KH", "Andi": "2C"}, ending="out", player="Siti")
    before = version(client, match)
    page = client.get(_settings(client, table)).text
    forms = re.findall(
        r'/settings/players/(\d+)".*?name="p\1-was"[^>]*?value="([^"]+)"', page, re.S
    )
    ids = {name: number for number, name in forms}
    assert set(ids) == set(THREE), forms
    url = table + f"settings/players/{ids['Budi']}"
    p = f"p{ids['Budi']}"
    response = client.submit(url, {f"{p}-was": "Budi", f"{p}-name": "Bambang"}, fresh=False)
    assert response.status_code == 302, errors(response)
    doc = document(client, match)
    assert doc["players"] == ["Bambang", "Siti", "Andi"] and doc["first_dealer"] == "Bambang"
    assert "Budi" not in json.dumps(doc)
    assert doc["rounds"][0]["turns"][2]["player"] == "Bambang"
    assert doc["rounds"][1]["hands"]["Bambang"] == ["KH"]
    assert version(client, match) > before  # the phones following the match update
    # the scores are the same, under the new name (126 for going out at once, then Siti 10 + 2)
    assert totals(client.get(match)) == [126, 12, 0]
    assert "Bambang" in text(client.get(match + "rounds/1")) and "Budi" not in text(
        client.get(match + "rounds/1")
    )
    # A second phone still showing "Budi": a conflict that keeps what it typed.
    stale = client.submit(url, {f"{p}-was": "Budi", f"{p}-name": "Bud"}, fresh=False)
    assert stale.status_code == 409
    assert 'value="Bud"' in stale.text and "Bambang" in text(stale)
    # The same rename sent twice is harmless.
    again = client.submit(url, {f"{p}-was": "Budi", f"{p}-name": "Bambang"}, fresh=False)
    assert again.status_code == 302


def test_a_rename_to_a_name_already_at_the_table_is_refused(client, table):
    page = client.get(_settings(client, table)).text
    forms = re.findall(
        r'/settings/players/(\d+)".*?name="p\1-was"[^>]*?value="([^"]+)"', page, re.S
    )
    ids = {name: number for number, name in forms}
    p = f"p{ids['Budi']}"
    response = client.submit(
        table + f"settings/players/{ids['Budi']}",
        {f"{p}-was": "Budi", f"{p}-name": "SITI"},
        fresh=False,
    )
    assert response.status_code == 400
    assert any("Siti" in message for message in errors(response))


def test_rename_a_table(client, table):
    response = client.submit(
        table + "settings/name", {"was": "Meja", "name": "Meja Jumat"}, fresh=False
    )
    assert response.status_code == 302
    assert "Meja Jumat" in text(client.get(table))
    stale = client.submit(
        table + "settings/name", {"was": "Meja", "name": "Meja Sabtu"}, fresh=False
    )
    assert stale.status_code == 409 and 'value="Meja Sabtu"' in stale.text


def test_the_view_link_cannot_rename(client, table):
    view = re.search(r'value="http://localhost(/v/[^"]+/)"', client.get(table).text).group(1)
    assert client.get(view + "settings").status_code == 404


def test_remove_a_table_from_this_phone_only(client, table):
    key = table.split("/")[2]
    assert "Meja" in text(client.get("/"))
    response = client.submit("/forget", {"key": key}, fresh=False)
    assert response.status_code == 302
    home = text(client.get("/"))
    assert "Meja" not in home.split("New table")[0]
    assert client.get(table).status_code == 200  # the table itself stays


# -- screens ---------------------------------------------------------------------------------


def test_the_app_is_installable(client):
    home = client.get("/").text
    assert 'rel="manifest" href="/manifest.webmanifest"' in home
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.data.startswith(b"\x89PNG")
        width, height = int.from_bytes(image.data[16:20]), int.from_bytes(image.data[20:24])
        assert f"{width}x{height}" == icon["sizes"]


def test_scoreboard_and_live_round_keep_the_phone_awake_and_the_big_board(client, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH 2C"}, ending="out", player="Budi")
    assert "data-keep-awake" in client.get(match).text
    assert "data-keep-awake" in client.get(match + "live").text
    board = client.get(match + "board")
    assert board.status_code == 200 and "data-keep-awake" in board.text
    assert re.findall(r'class="board-points"[^>]*>(-?\d+)<', board.text) == ["12", "0"]
    assert "data-live-url" in board.text
    assert "In the lead: Budi" in text(client.get(match))


def test_gin_round_page_shows_the_whole_adjudication(client, table):
    match = new_match(client, table, "gin", TWO, target=100)
    data = {"hand_0": GIN_KNOCKER, "hand_1": GIN_DEFENDER, "ending": "knock", "player": "Budi"}
    data["action"] = "save"
    assert client.submit(match + "rounds/new", data).status_code == 302
    page = text(client.get(match + "rounds/1"))
    assert 'class="adjudication"' in page
    assert "knocker" in page and "defender" in page
    # Budi's deadwood AS = 1; Siti's 6C 10C 4D = 20 before lay-offs, 4D = 4 after (6C, 10C
    # laid off onto 7-8-9 C): Budi scores 4 - 1 = 3
    assert "Budi 1, Siti 4 (before lay-offs 20)" in page
    assert totals(client.get(match)) == [3, 0]


def test_a_voided_round_shows_what_was_recorded(client, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH 2C"}, ending="out", player="Budi")
    assert client.submit(match + "rounds/1/void").status_code == 302
    page = text(client.get(match + "rounds/1"))
    assert "Recorded before the void" in page
    recorded = page.split("Recorded before the void")[1]
    assert "Budi went out." in recorded and "KH" in recorded and "2C" in recorded


def test_wording_for_a_two_player_game(client, table):
    client.submit("/language", {"lang": "id", "next": "/"})
    page = text(client.get(table + "new/gin"))
    assert "2 sampai 2" not in page
    gin = new_match(client, table, "gin", TWO, target=100)
    form = text(client.get(gin + "rounds/new"))
    assert "sudah habis" not in form and "Kosongkan tangan" not in form
    live = text(client.get(new_match(client, table, "remi", TWO, target=100) + "live"))
    assert "Sentuh kartu" in live and "Ketuk kartu" not in live
