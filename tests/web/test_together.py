"""Many phones, one match (test client): the "has it changed?" check and versioned writes.

Each phone's form names what it was made from; these tests send forms kept from
an earlier page (``fresh=False``) the way a second phone or a double tap would.
The same races with real concurrent requests are in ``test_races.py``.
"""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import event

from referee.web.store.extensions import db

from .conftest import hidden_inputs
from .helpers import (
    errors,
    new_match,
    new_table,
    round_data,
    save_round,
    text,
    to_english,
    totals,
    view_url,
)

TWO = ["Budi", "Siti"]
THREE = ["Budi", "Siti", "Andi"]


def english(client):
    client.submit("/language", {"lang": "en", "next": "/"})


@pytest.fixture
def table(client):
    english(client)
    return new_table(client)


def rounds_on_sheet(client, match):
    return client.get(match).text.count('class="round-no"')


# -- the change check ---------------------------------------------------------------------


def test_the_change_check_answers_304_until_the_match_changes(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    first = client.get(match + "version")
    assert first.status_code == 200 and first.json == {"version": 1}
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert "Set-Cookie" not in first.headers  # asking writes nothing, not even the session
    same = client.get(match + "version", headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.data == b""
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    after = client.get(match + "version", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.json == {"version": 2}
    assert after.headers["ETag"] != etag


def test_the_change_check_reads_one_row(client, app, table):
    match = new_match(client, table, "remi", TWO, target=200)
    etag = client.get(match + "version").headers["ETag"]
    statements: list[str] = []
    with app.app_context():
        engine = db.engine

    def trace(dbapi_connection, _record, _proxy):  # what reaches SQLite itself
        dbapi_connection.set_trace_callback(statements.append)

    event.listen(engine, "checkout", trace)
    try:
        for asked in (etag, '"m1v0"'):  # not modified, then changed
            statements.clear()
            answer = client.get(match + "version", headers={"If-None-Match": asked})
            assert answer.status_code == (304 if asked == etag else 200)
            assert len(statements) == 1, statements
            assert "matches.version" in statements[0] and "JOIN card_tables" in statements[0]
    finally:
        event.remove(engine, "checkout", trace)
        engine.dispose()


def test_the_change_check_needs_the_tables_key(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    viewer = view_url(client, table) + match.split("/", 3)[3]
    assert client.get(viewer + "version").status_code == 200
    other = new_table(client, players="Budi, Siti")
    wrong = other + "m/" + match.rstrip("/").rsplit("/", 1)[1] + "/version"
    assert client.get(wrong).status_code == 404
    assert client.get(match.replace("/m/1/", "/m/99/") + "version").status_code == 404


def test_pages_that_follow_the_match_say_where_to_ask(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    for page in (match, match + "live"):
        body = client.get(page).text
        assert f'data-live-url="{match}version"' in body
        assert 'data-live-etag="m1v1"' in body
    live = client.get(match + "live").text
    assert f'data-live-page="{match}live"' in live
    for region in ("live-table", "turn", "live-turns", "live-actions"):
        assert f'id="{region}" data-live-region' in live


# -- every write names what it was made from --------------------------------------------------


def test_two_corrections_of_the_same_round_the_second_is_refused_and_kept(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    phone_a = client.hidden_fields(match + "rounds/1/edit")
    phone_b = client.hidden_fields(match + "rounds/1/edit")  # its own form, its own one-time key
    a = {**phone_a, **round_data(TWO, {"Siti": "KH QH"}, ending="out", player="Budi")}
    b = {**phone_b, **round_data(TWO, {"Budi": "2C"}, ending="out", player="Siti")}
    assert client.submit(match + "rounds/1/edit", a, fresh=False).status_code == 302
    response = client.submit(match + "rounds/1/edit", b, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "Round 1 was changed on another phone meanwhile" in page
    assert "Totals now: Budi 20, Siti 0." in page  # A's correction stands: KH + QH = 20
    assert 'value="2C"' in response.text  # B's entry is kept for another try
    assert totals(client.get(match)) == [20, 0]


def test_a_correction_from_the_conflict_page_is_one_tap(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    opened = client.hidden_fields(match + "rounds/1/edit")
    client.submit(
        match + "rounds/1/edit", round_data(TWO, {"Siti": "QH"}, ending="out", player="Budi")
    )
    mine = {**opened, **round_data(TWO, {"Budi": "2C"}, ending="out", player="Siti")}
    conflict = client.submit(match + "rounds/1/edit", mine, fresh=False)
    assert conflict.status_code == 409
    again = {
        **mine,
        **hidden_inputs(conflict.text, match + "rounds/1/edit", match + "rounds/1/edit"),
    }
    # Both phones changed Siti's hand (KH -> QH there, KH -> none here): a choice, never taken
    # silently; once this phone keeps its own, one tap saves.
    unchosen = client.submit(match + "rounds/1/edit", again, fresh=False)
    assert unchosen.status_code == 409
    again = {
        **again,
        **hidden_inputs(unchosen.text, match + "rounds/1/edit", match + "rounds/1/edit"),
        "keep-hand_1": "mine",  # hands are numbered from 0: Siti is hand_1
    }
    assert client.submit(match + "rounds/1/edit", again, fresh=False).status_code == 302
    assert totals(client.get(match)) == [0, 2]  # Siti went out and takes Budi's 2C


def test_delete_last_round_removes_the_round_it_names_only(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    button = client.hidden_fields(match + "rounds/undo")  # "Delete round 1?"
    assert button["round_number"] == "1"
    save_round(client, match, TWO, {"Siti": "2C"}, ending="out", player="Budi")  # another phone
    response = client.submit(match + "rounds/undo", button, fresh=False)
    assert response.status_code == 409
    assert "Round 1 is no longer the last: round 2 was saved or started after it" in text(response)
    assert rounds_on_sheet(client, match) == 2


def test_a_double_tap_on_delete_removes_one_round(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    for hand in ("KH", "2C", "3C"):
        save_round(client, match, TWO, {"Siti": hand}, ending="out", player="Budi")
    button = client.hidden_fields(match + "rounds/undo")
    first = client.submit(match + "rounds/undo", button, fresh=False)
    second = client.submit(match + "rounds/undo", button, fresh=False)
    assert first.status_code == 302 and second.status_code == 302
    assert "Round 3 was deleted already." in text(client.get(match))
    assert rounds_on_sheet(client, match) == 2


def test_void_and_restore_name_the_round_version(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    void = client.hidden_fields(match + "rounds/1/void")
    client.submit(
        match + "rounds/1/edit", round_data(TWO, {"Siti": "QH JH"}, ending="out", player="Budi")
    )
    stale = client.submit(match + "rounds/1/void", void, fresh=False)
    assert stale.status_code == 409
    assert "Round 1 was changed on another phone meanwhile; nothing was done." in text(stale)
    assert totals(client.get(match)) == [20, 0]
    fresh = client.hidden_fields(match + "rounds/1/void")
    assert client.submit(match + "rounds/1/void", fresh, fresh=False).status_code == 302
    assert client.submit(match + "rounds/1/void", fresh, fresh=False).status_code == 302  # again
    assert totals(client.get(match)) == [0, 0]


def test_a_double_tap_on_take_back_removes_one_turn(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    for player, meld in (("Siti", "7S 8S 9S"), ("Andi", "2H 3H 4H")):
        response = client.submit(
            match + "live/turn", {"player": player, "melds": meld, "action": "save"}
        )
        assert response.status_code == 302, errors(response)
    button = client.hidden_fields(match + "live/undo")
    assert button["turns"] == "2"
    assert client.submit(match + "live/undo", button, fresh=False).status_code == 302
    again = client.submit(match + "live/undo", button, fresh=False, follow_redirects=True)
    assert "Turn 2 was taken back already." in text(again)
    assert client.get(match + "live").text.count('class="meld"') == 1


def test_take_back_refuses_when_another_turn_came_meanwhile(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    client.submit(match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"})
    button = client.hidden_fields(match + "live/undo")
    client.submit(match + "live/turn", {"player": "Andi", "melds": "2H 3H 4H", "action": "save"})
    response = client.submit(match + "live/undo", button, fresh=False)
    assert response.status_code == 409
    assert "Turn 2 (Andi) was recorded on another phone meanwhile; nothing was done." in text(
        response
    )
    assert client.get(match + "live").text.count('class="meld"') == 2


def test_the_same_match_setup_sent_twice_starts_one_match(client, table):
    form = client.hidden_fields(f"{table}new/remi")
    data = {**form, "seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "100"}
    first = client.submit(f"{table}new/remi", data, fresh=False)
    second = client.submit(f"{table}new/remi", data, fresh=False)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert text(client.get(table)).count("Remi ·") == 1


def test_the_same_players_sent_twice_are_added_once(client):
    english(client)
    table = new_table(client, players="")
    form = client.hidden_fields(table + "players")
    data = {**form, "names": "Budi, Siti"}
    assert client.submit(table + "players", data, fresh=False).status_code == 302
    assert client.submit(table + "players", data, fresh=False).status_code == 302
    page = client.get(table).text
    assert page.count('class="chip">Budi<') == 1


def test_the_same_import_sent_twice_imports_one_match(client, table):
    from pathlib import Path

    document = Path("referee/examples/remi-example.json").read_text()
    form = client.hidden_fields(table + "import")
    data = {**form, "document": document}
    first = client.submit(table + "import", data, fresh=False)
    second = client.submit(table + "import", data, fresh=False)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert text(client.get(table)).count("Remi ·") == 1


def test_setting_up_again_from_an_older_form_is_a_conflict(client, table):
    match = new_match(client, table, "remi", THREE, target=200)
    opened = client.hidden_fields(match + "setup")
    base = {"seat_0": "Budi", "seat_1": "Siti", "seat_2": "Andi", "first_dealer": "Siti"}
    assert client.submit(match + "setup", {**base, "target": "100"}).status_code == 302
    mine = {**opened, **base, "target": "300"}
    response = client.submit(match + "setup", mine, fresh=False)
    assert response.status_code == 409
    assert "This match was set up again on another phone meanwhile." in text(response)
    assert "to 100 points" in text(client.get(match))


def test_sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout(app):
    with app.app_context(), db.engine.connect() as connection:
        pragma = connection.exec_driver_sql
        assert pragma("PRAGMA journal_mode").scalar() == "wal"
        assert pragma("PRAGMA foreign_keys").scalar() == 1
        assert pragma("PRAGMA busy_timeout").scalar() == 15_000
        assert pragma("PRAGMA synchronous").scalar() == 2  # FULL (tests/web/test_abuse.py)


def test_a_writing_request_takes_the_sqlite_write_lock_at_once(client, app, table):
    """BEGIN IMMEDIATE: a write never starts from a snapshot another writer has moved past."""
    match = new_match(client, table, "remi", TWO, target=200)
    begins: list[str] = []
    with app.app_context():
        engine = db.engine

    def seen(statement):
        if statement.startswith("BEGIN"):
            begins.append(statement)

    def trace(dbapi_connection, _record):  # what SQLite itself is asked to run
        dbapi_connection.set_trace_callback(seen)

    engine.dispose()
    event.listen(engine, "connect", trace)
    try:
        client.get(match)
        reading = list(begins)
        begins.clear()
        save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    finally:
        event.remove(engine, "connect", trace)
        engine.dispose()
    assert reading and set(reading) == {"BEGIN"}
    assert "BEGIN IMMEDIATE" in begins


def rounds_of(client, match):
    return json.loads(client.get(match + "export").data)["rounds"]


def test_a_resubmitted_quick_round_is_not_saved_twice(client, table):
    to_english(client)
    match = new_match(client, table, "remi", TWO, target=200)
    opened = client.hidden_fields(match + "rounds/new")  # the form as the phone holds it
    data = {**opened, **round_data(TWO, {"Siti": "KH"}, ending="out", player="Budi")}
    assert client.submit(match + "rounds/new", data, fresh=False).status_code == 302
    again = client.submit(match + "rounds/new", data, fresh=False)  # Back, then Save again
    assert again.status_code == 302 and again.headers["Location"] == match
    assert "This round was saved already." in text(client.get(match))
    assert len(rounds_of(client, match)) == 1


def test_a_quick_round_from_an_older_form_is_a_conflict_that_keeps_the_entry(client, table):
    to_english(client)
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
    assert "Round 1 was just saved from another phone" in page
    assert 'value="2C 3C"' in response.text  # what was typed is kept
    assert 'name="for_round" type="hidden" value="1"' in response.text  # still typed as round 1
    # Saving the kept form again is not taken as round 2 (the same deal would be saved twice):
    # round 2 is one tap on "Save yours as round 2" (test_same_deal.py has every choice).
    resent = hidden_inputs(response.text, match + "rounds/new", match + "rounds/new")
    kept = {**mine, **resent}
    assert client.submit(match + "rounds/new", kept, fresh=False).status_code == 409
    seen = re.search(r'name="seen_version" value="(\d+)"', response.text).group(1)
    chosen = {**kept, "seen_version": seen, "action": "save_as_next"}
    assert client.submit(match + "rounds/new", chosen, fresh=False).status_code == 302
    assert len(rounds_of(client, match)) == 2


def test_a_resubmitted_turn_is_not_applied_twice(client, table):
    to_english(client)
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
    to_english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    opened = client.hidden_fields(match + "live/turn")
    first = {"player": "Siti", "melds": "7S 8S 9S", "action": "save"}
    assert client.submit(match + "live/turn", first).status_code == 302
    # Siti's turn again (typed on a second phone): a stale turn that still holds is saved
    # (test_stale_turns.py), but a second turn of the player who just played is not.
    mine = {**opened, "player": "Siti", "melds": "2H 3H 4H", "action": "save"}
    response = client.submit(match + "live/turn", mine, fresh=False)
    assert response.status_code == 409
    page = text(response)
    assert "Turn 1 (Siti) was recorded on another phone meanwhile." in page
    assert "2H 3H 4H" in page  # kept in the form
    # The form came back up to date: saving it now is a deliberate second turn.
    assert 'name="turns_before" type="hidden" value="1"' in response.text
    live = client.get(match + "live").text
    assert live.count('class="meld"') == 1


def test_a_resubmitted_end_of_round_is_not_saved_twice(client, table):
    to_english(client)
    match = new_match(client, table, "remi", THREE, target=200)
    client.submit(match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"})
    assert 'name="for_round" type="hidden" value="1"' in client.get(match + "live/end").text
    data = {**client.hidden_fields(match + "live/end"), "ending": "blocked"}
    assert client.submit(match + "live/end", data, fresh=False).status_code == 302
    again = client.submit(match + "live/end", data, fresh=False, follow_redirects=True)
    assert "This round was saved already." in text(again)
    assert len(rounds_of(client, match)) == 1
