"""The JSON API, every operation: its answer and each of its error statuses, on SQLite and
PostgreSQL.  Expected scores are worked out by hand from RULES.md (remi: the winner takes
the points of the cards left in the losers' hands; gin: deadwood)."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from referee.web.store.extensions import db

API = "/api/v1"
EN = {"Accept-Language": "en"}


def new_table(api, players=("Budi", "Siti", "Andi")):
    response = api.post(f"{API}/tables", json={"name": "Meja", "players": list(players)})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def new_match(api, table, rules="remi", players=("Budi", "Siti"), **options):
    response = api.post(
        f"{API}/t/{table['edit_key']}/matches",
        json={
            "rules": rules,
            "players": list(players),
            "first_dealer": players[0],
            "options": options,
        },
    )
    assert response.status_code == 201, response.get_json()
    board = response.get_json()
    return f"{API}/t/{table['edit_key']}/m/{board['id']}", board


def version(board):
    return {"If-Match": f'"{board["etag"]}"'}


def error(response):
    body = response.get_json()
    assert set(body) == {"error"}, body
    return body["error"]


# -- tools ---------------------------------------------------------------------------------


def test_a_legal_run_is_a_run(api):
    response = api.post(f"{API}/tools/meld", json={"rules": "remi", "cards": ["7S", "8S", "9S"]})
    assert response.status_code == 200
    assert response.get_json() == {
        "legal": True,
        "kind": "run",
        "meld": ["7S", "8S", "9S"],
        "reason": None,
        "reason_key": None,
    }


def test_an_illegal_meld_says_why_in_the_language_asked(api):
    cards = {"rules": "remi", "cards": ["7S", "9S", "10S"]}
    english = api.post(f"{API}/tools/meld", json=cards, headers=EN).get_json()
    indonesian = api.post(f"{API}/tools/meld", json=cards).get_json()
    assert english["legal"] is False and english["kind"] is None
    assert english["reason"] == "8S is missing between 7S and 9S"
    assert indonesian["reason"] == "8S tidak ada di antara 7S dan 9S"  # id is the default


def test_a_layoff_onto_a_meld(api):
    asked = {"rules": "remi", "cards": ["4S"], "onto": ["4H", "4D", "4C"]}
    found = api.post(f"{API}/tools/meld", json=asked).get_json()
    assert found["legal"] is True and found["kind"] == "set" and len(found["meld"]) == 4


def test_rummy_aces_high_with_the_option(api):
    cards = ["QS", "KS", "AS"]
    low = api.post(f"{API}/tools/meld", json={"rules": "rummy", "cards": cards}).get_json()
    high = api.post(
        f"{API}/tools/meld", json={"rules": "rummy", "ace": "high-low", "cards": cards}
    ).get_json()
    assert low["legal"] is False and high["legal"] is True


def test_an_unreadable_card_is_a_422_with_the_reason(api):
    response = api.post(f"{API}/tools/meld", json={"rules": "remi", "cards": ["7X"]}, headers=EN)
    assert response.status_code == 422
    found = error(response)
    assert found["code"] == "refused" and '"7X"' in found["message"]
    assert found["reason"] == "notation.not_a_card"


@pytest.mark.parametrize(
    "body",
    [
        "{",
        '{"rules": "remi"',
        '{"rules": "nope", "cards": []}',
        '{"rules": "remi", "cards": "7S 8S 9S"}',
        '{"rules": "remi", "cards": [], "extra": 1}',
        "[]",
    ],
)
def test_a_malformed_request_is_a_400(api, body):
    response = api.post(f"{API}/tools/meld", data=body, content_type="application/json")
    assert response.status_code == 400
    assert error(response)["code"] == "malformed"


def test_a_gin_hand_is_arranged_for_the_least_deadwood(api):
    # 7S-8S-9S and 2C-3C-4C leave 7H 7D KD QH = 34; the set of sevens would leave 8S 9S KD QH = 37.
    hand = "7S 8S 9S 7H 7D 2C 3C 4C KD QH".split()
    found = api.post(f"{API}/tools/gin", json={"cards": hand}).get_json()
    assert found["deadwood"] == 34 and found["can_knock"] is False
    assert sorted(map(sorted, found["melds"])) == [["2C", "3C", "4C"], ["7S", "8S", "9S"]]
    too_few = api.post(f"{API}/tools/gin", json={"cards": hand[:5]})
    assert too_few.status_code == 422


def test_a_knock_is_adjudicated(api):
    # Knocker: 7C-8C-9C, 2S 2H 2D, 5H-6H-7H and AS (deadwood 1).  The defender lays 6C and
    # 10C onto the clubs and keeps 4D 5D KS KH QC JD 3S 9H = 61: the knocker scores 61 - 1.
    asked = {
        "knocker": "7C 8C 9C 2S 2H 2D 5H 6H 7H AS".split(),
        "defender": "6C 10C 4D 5D KS KH QC JD 3S 9H".split(),
    }
    found = api.post(f"{API}/tools/knock", json=asked, headers=EN).get_json()
    assert found["outcome"] == "knock" and found["winner"] == "knocker"
    assert found["knocker_deadwood"] == 1 and found["defender_deadwood"] == 61
    assert found["points"] == 60
    assert sorted(c for layoff in found["layoffs"] for c in layoff["cards"]) == ["10C", "6C"]
    bad = api.post(f"{API}/tools/knock", json={**asked, "defender": asked["knocker"]})
    assert bad.status_code == 422


def test_a_manipulation_turn_is_checked(api):
    before, played = [["7S", "8S", "9S"]], ["10S"]
    legal = api.post(
        f"{API}/tools/turn",
        json={"before": before, "played": played, "after": [["7S", "8S", "9S", "10S"]]},
    ).get_json()
    assert legal == {"legal": True, "reasons": []}
    lost = api.post(
        f"{API}/tools/turn", json={"before": before, "played": played, "after": before}
    ).get_json()
    assert lost["legal"] is False and lost["reasons"]
    five = api.post(
        f"{API}/tools/turn", json={"players": 9, "before": [], "played": [], "after": []}
    )
    assert five.status_code == 422  # manipulation is for 2 to 5 players


def test_a_table_is_arranged_or_the_cards_go_back(api):
    found = api.post(
        f"{API}/tools/arrange", json={"before": [["7S", "8S", "9S"]], "played": ["10S", "JS"]}
    ).get_json()
    assert found == {
        "arrangeable": True,
        "table": [["7S", "8S", "9S", "10S", "JS"]],
        "take_back": [],
    }
    none = api.post(
        f"{API}/tools/arrange", json={"before": [["7S", "8S", "9S"]], "played": ["2H"]}
    ).get_json()
    assert none["arrangeable"] is False and none["table"] is None and none["take_back"] == ["2H"]


def test_a_hint_says_what_can_be_played(api):
    found = api.post(
        f"{API}/tools/hint", json={"before": [["7S", "8S", "9S"]], "hand": ["10S", "QD"]}
    ).get_json()
    assert found == {"cards": ["10S"], "table": [["7S", "8S", "9S", "10S"]]}


# -- tables and keys -----------------------------------------------------------------------


def test_a_table_is_created_with_its_keys(api):
    response = api.post(f"{API}/tables", json={"name": "  Meja  ", "players": ["Budi", "Siti"]})
    assert response.status_code == 201
    table = response.get_json()
    assert table["name"] == "Meja" and table["mode"] == "t"
    assert table["players"] == ["Budi", "Siti"]
    assert response.headers["Location"] == f"{API}/t/{table['edit_key']}"
    assert table["matches"] == f"{API}/t/{table['edit_key']}/matches"
    assert "Set-Cookie" not in response.headers  # the API keeps no session


def test_the_same_table_request_twice_makes_one_table(api):
    headers = {"Idempotency-Key": "table-once-3f9c2b7e1a"}
    first = api.post(f"{API}/tables", json={"name": "Sekali"}, headers=headers)
    again = api.post(f"{API}/tables", json={"name": "Sekali"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["edit_key"] == first.get_json()["edit_key"]


def test_a_table_refuses_a_name_twice(api):
    response = api.post(f"{API}/tables", json={"name": "M", "players": ["Budi", "budi"]})
    assert response.status_code == 422


def test_the_view_key_reads_without_the_edit_key(api):
    table = new_table(api)
    seen = api.get(f"{API}/v/{table['view_key']}").get_json()
    assert seen["mode"] == "v" and "edit_key" not in seen and seen["view_key"]


def test_the_key_in_a_bearer_header(api):
    table = new_table(api)
    edit = api.get(f"{API}/table", headers={"Authorization": f"Bearer {table['edit_key']}"})
    view = api.get(f"{API}/table", headers={"Authorization": f"Bearer {table['view_key']}"})
    assert edit.get_json()["mode"] == "t" and view.get_json()["mode"] == "v"
    assert edit.get_json()["matches"] == f"{API}/table/matches"
    written = api.post(
        f"{API}/table/players",
        json={"names": ["Dewi"]},
        headers={"Authorization": f"Bearer {table['view_key']}"},
    )
    assert written.status_code == 404  # the view key cannot write: not found, never 403


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/t/nope",
        "/api/v1/v/nope/matches",
        "/api/v1/x/nope",
        "/api/v1/table",
        "/api/v1/table?key={edit}",  # never a key in a query string
        "/api/v1/v/{edit}",  # the edit key is not a view key
        "/api/v1/t/{view}",
    ],
)
def test_a_wrong_key_is_a_404(api, url):
    table = new_table(api)
    response = api.get(url.format(edit=table["edit_key"], view=table["view_key"]))
    assert response.status_code == 404
    assert error(response)["code"] == "not_found"


def test_a_view_key_cannot_write(api):
    table = new_table(api)
    response = api.post(f"{API}/v/{table['view_key']}/players", json={"names": ["Dewi"]})
    assert response.status_code == 404
    players = api.get(f"{API}/t/{table['edit_key']}").get_json()["players"]
    assert sorted(players) == ["Andi", "Budi", "Siti"]  # no Dewi


def test_players_are_added_once(api):
    table = new_table(api)
    url = f"{API}/t/{table['edit_key']}/players"
    added = api.post(url, json={"names": ["Dewi", "Eko"]})
    assert added.status_code == 201
    assert added.get_json()["players"] == ["Andi", "Budi", "Dewi", "Eko", "Siti"]
    again = api.post(url, json={"names": ["dewi"]}, headers=EN)
    assert again.status_code == 422 and "Already at this table" in error(again)["message"]
    assert api.post(url, json={"names": []}).status_code == 400


# -- matches -------------------------------------------------------------------------------


def test_a_match_is_started(api):
    table = new_table(api)
    url, board = new_match(api, table, target=100)
    assert board["players"] == ["Budi", "Siti"] and board["target"] == 100
    assert board["totals"] == {"Budi": 0, "Siti": 0} and board["rounds"] == []
    assert board["etag"] == f"m{board['id']}v1" and board["next_dealer"] == "Budi"
    assert api.get(url).headers["ETag"] == f'"{board["etag"]}"'


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        ({"rules": "remi", "players": ["Budi", "Nobody"]}, "Not a valid choice."),
        ({"rules": "remi", "players": ["Budi", "Budi"]}, "Budi already has a seat."),
        (
            {"rules": "gin", "players": ["Budi", "Siti", "Andi"]},
            "Gin Rummy is played by exactly 2 players, not 3",
        ),
        (
            {"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Andi"},
            "The first dealer must be one of the players.",
        ),
    ],
)
def test_a_setup_the_referee_refuses_is_a_422(api, setup, said):
    table = new_table(api)
    response = api.post(f"{API}/t/{table['edit_key']}/matches", json=setup, headers=EN)
    assert response.status_code == 422, response.get_json()
    assert said in error(response)["message"]


def test_an_option_the_ruleset_does_not_take_is_malformed(api):
    """Options are checked against the ruleset's declaration: 400, in the engine's words."""
    table = new_table(api)
    setup = {"rules": "remi", "players": ["Budi", "Siti"], "options": {"ace": "high-low"}}
    response = api.post(f"{API}/t/{table['edit_key']}/matches", json=setup, headers=EN)
    assert response.status_code == 400, response.get_json()
    assert 'has no option "ace"' in error(response)["message"]


def test_rounds_are_added_corrected_voided_restored_and_removed(api):
    table = new_table(api)
    url, board = new_match(api, table, target=100)
    # Siti goes out; Budi holds 10H QS: 10 + 10 = 20 to Siti.
    first = {"out": "Siti", "hands": {"Budi": ["10H", "QS"]}}
    added = api.post(f"{url}/rounds", json=first, headers=version(board))
    assert added.status_code == 201, added.get_json()
    board = added.get_json()
    assert board["totals"] == {"Budi": 0, "Siti": 20} and board["version"] == 2
    assert added.headers["Location"] == f"{url}/rounds/1"
    assert board["rounds"][0]["scores"] == {"Budi": 0, "Siti": 20}
    # Budi goes out; Siti holds 5H: 5 to Budi.
    second = {"out": "Budi", "hands": {"Siti": ["5H"]}}
    board = api.post(f"{url}/rounds", json=second, headers=version(board)).get_json()
    assert board["totals"] == {"Budi": 5, "Siti": 20}
    # Round 1 corrected: Budi held 3H only.
    fixed = {"out": "Siti", "hands": {"Budi": ["3H"]}}
    corrected = api.put(f"{url}/rounds/1", json=fixed, headers=version(board))
    assert corrected.status_code == 200, corrected.get_json()
    board = corrected.get_json()
    assert board["totals"] == {"Budi": 5, "Siti": 3}
    round_one = api.get(f"{url}/rounds/1").get_json()
    assert round_one["entry"] == fixed and round_one["result"]["scores"] == {"Budi": 0, "Siti": 3}
    board = api.post(f"{url}/rounds/1/void", headers=version(board)).get_json()
    assert board["totals"] == {"Budi": 5, "Siti": 0} and board["rounds"][0]["voided"] is True
    board = api.post(f"{url}/rounds/1/restore", headers=version(board)).get_json()
    assert board["totals"] == {"Budi": 5, "Siti": 3}
    not_last = api.delete(f"{url}/rounds/1", headers=version(board))
    assert not_last.status_code == 409
    removed = api.delete(f"{url}/rounds/2", headers=version(board))
    assert removed.status_code == 200
    assert removed.get_json()["totals"] == {"Budi": 0, "Siti": 3}
    assert api.get(f"{url}/rounds/2").status_code == 404


def test_a_write_without_a_version_is_a_428_and_a_stale_one_a_409(api):
    table = new_table(api)
    url, board = new_match(api, table)
    entry = {"out": "Siti", "hands": {"Budi": ["10H"]}}
    missing = api.post(f"{url}/rounds", json=entry)
    assert missing.status_code == 428
    assert error(missing)["etag"] == board["etag"]
    star = api.post(f"{url}/rounds", json=entry, headers={"If-Match": "*"})
    assert star.status_code == 428
    api.post(f"{url}/rounds", json=entry, headers=version(board))
    stale = api.post(f"{url}/rounds", json=entry, headers=version(board))
    assert stale.status_code == 409
    found = error(stale)
    assert found["version"] == 2 and found["etag"] == f"m{board['id']}v2"
    assert found["totals"] == {"Budi": 0, "Siti": 10}
    assert stale.headers["ETag"] == f'"m{board["id"]}v2"'
    assert len(api.get(url).get_json()["rounds"]) == 1  # nothing saved


def test_a_stale_version_is_a_409_before_the_referee_looks_at_the_change(api):
    table = new_table(api)
    url, board = new_match(api, table)
    first = {"out": "Siti", "hands": {"Budi": ["10H"]}}
    seen = api.post(f"{url}/rounds", json=first, headers=version(board)).get_json()
    # Budi goes out, Siti holds 5H: 5 to Budi; the match is at version 3 now.
    second = {"out": "Budi", "hands": {"Siti": ["5H"]}}
    api.post(f"{url}/rounds", json=second, headers=version(seen))
    unreadable = {"out": "Siti", "hands": {"Budi": ["ZZ"]}}
    writes = [
        api.put(f"{url}/rounds/1", json=unreadable, headers=version(seen)),
        api.post(f"{url}/rounds/1/void", headers=version(seen)),
        api.put(f"{url}/seating", json={"players": ["Siti", "Budi"]}, headers=version(seen)),
    ]
    for stale in writes:
        assert stale.status_code == 409, stale.get_json()
        found = error(stale)
        assert found["code"] == "conflict" and found["version"] == 3
        assert found["totals"] == {"Budi": 5, "Siti": 10}
    board = api.get(url).get_json()
    assert board["version"] == 3 and board["totals"] == {"Budi": 5, "Siti": 10}
    current = api.put(f"{url}/rounds/1", json=unreadable, headers=version(board))
    assert current.status_code == 422  # from the current version, the referee's reason


def test_a_repeated_write_with_an_idempotency_key_is_done_once(api):
    table = new_table(api)
    url, board = new_match(api, table)
    headers = {**version(board), "Idempotency-Key": "round-1"}
    entry = {"out": "Siti", "hands": {"Budi": ["10H"]}}
    first = api.post(f"{url}/rounds", json=entry, headers=headers)
    again = api.post(f"{url}/rounds", json=entry, headers=headers)  # its If-Match is stale now
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert again.get_json() == first.get_json()
    assert len(api.get(url).get_json()["rounds"]) == 1
    # The same key at another table is another write.
    other_url, other = new_match(api, new_table(api))
    elsewhere = api.post(
        f"{other_url}/rounds", json=entry, headers={**version(other), "Idempotency-Key": "round-1"}
    )
    assert elsewhere.status_code == 201 and "Idempotent-Replayed" not in elsewhere.headers


@pytest.fixture
def plain_saves(monkeypatch):
    """What each plain save (:func:`appending.append`) answered: True when it wrote."""
    from referee.web.play import appending

    answered = []
    append = appending.append

    def counted(*args):
        answered.append(append(*args))
        return answered[-1]

    monkeypatch.setattr(appending, "append", counted)
    return answered


def test_a_plain_save_answers_as_the_scoreboard_reads_and_as_any_other_save(api, plain_saves):
    """The plain save (rows, no objects) and the general one (with a one-time key) agree."""
    table = new_table(api)
    plain_url, plain = new_match(api, table, players=("Budi", "Siti", "Andi"))
    other_url, other = new_match(api, table, players=("Budi", "Siti", "Andi"))
    rounds = [
        {"out": "Siti", "hands": {"Budi": ["10H", "QS"], "Andi": ["2C"]}},
        {"end": "void"},
        {"out": "Budi", "at_once": True, "hands": {"Siti": ["KD"], "Andi": ["3S"]}},
    ]
    for number, entry in enumerate(rounds, start=1):
        saved = api.post(f"{plain_url}/rounds", json=entry, headers=version(plain))
        keyed = {**version(other), "Idempotency-Key": f"round-{number}"}
        general = api.post(f"{other_url}/rounds", json=entry, headers=keyed)
        assert saved.status_code == general.status_code == 201
        plain, other = saved.get_json(), general.get_json()
        read = api.get(plain_url)
        assert read.get_json() == plain and read.headers["ETag"] == saved.headers["ETag"]
        assert saved.headers["Location"].endswith(f"/rounds/{number}")
        unlike = {"id", "etag"}
        assert {k: v for k, v in plain.items() if k not in unlike} == {
            k: v for k, v in other.items() if k not in unlike
        }
    assert [r["voided"] for r in plain["rounds"]] == [False, True, False]
    # Siti out: 10H 10 + QS 10 + 2C 2; Budi out all at once: (KD 10 + 3S 3) x 2.
    assert plain["totals"] == {"Budi": 26, "Siti": 22, "Andi": 0}
    assert plain["version"] == 4
    assert plain_saves == [True, True, True]  # the plain saves took the plain path


def test_a_plain_save_reads_without_a_transaction_and_writes_in_the_tables_turn(api, api_app):
    """SQLite: the plain save's two reads run without BEGIN (the version is checked again
    under the lock), its writes in one BEGIN IMMEDIATE; the next request begins as ever."""
    if api_app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("SQLite's statements")
    table = new_table(api)
    url, board = new_match(api, table)
    first = {"out": "Budi", "hands": {"Siti": ["KD"]}}
    board = api.post(f"{url}/rounds", json=first, headers=version(board)).get_json()
    with api_app.app_context():
        engine = db.engine
    statements: list[str] = []

    def trace(dbapi_connection, _record):  # what SQLite itself is asked to run
        dbapi_connection.set_trace_callback(statements.append)

    engine.dispose()
    event.listen(engine, "connect", trace)
    try:
        entry = {"out": "Siti", "hands": {"Budi": ["10H"]}}
        saved = api.post(f"{url}/rounds", json=entry, headers=version(board))
        assert saved.status_code == 201
        reads = [s.split()[0] for s in statements[: statements.index("BEGIN IMMEDIATE")]]
        writes = statements[statements.index("BEGIN IMMEDIATE") :]
        statements.clear()
        assert api.get(f"{url}/rounds/2").status_code == 200  # read through the ORM
    finally:
        event.remove(engine, "connect", trace)
        engine.dispose()
    assert reads == ["SELECT", "SELECT"]
    # The match's version, the round, the state kept with the summary, the match's summary,
    # a seat row for each of the two players; the table's statistics version, each player's
    # month of remi and of every ruleset, the pair's month in both orders, and a totals row
    # for each player (all moved by the difference: the same rows count as before).
    assert [s.split()[0] for s in writes] == (
        ["BEGIN", "UPDATE", "INSERT", "UPDATE", "UPDATE"]
        + ["UPDATE"] * 2
        + ["UPDATE"]
        + ["UPDATE"] * 4
        + ["UPDATE"] * 2
        + ["UPDATE"] * 2
        + ["COMMIT"]
    )
    assert writes[7].startswith("UPDATE statistics_versions")
    assert all(s.startswith("UPDATE player_months") for s in writes[8:12])
    assert all(s.startswith("UPDATE pair_months") for s in writes[12:14])
    assert writes[3].startswith("UPDATE match_replays")
    assert statements[0] == "BEGIN"  # the reading request after it: a transaction again


def test_a_plain_save_after_a_late_player_joined_agrees_with_the_general_one(api, plain_saves):
    table = new_table(api)
    boards = {}
    for way in ("plain", "general"):
        url, board = new_match(api, table)
        first = {"out": "Siti", "hands": {"Budi": ["10H"]}}
        board = api.post(f"{url}/rounds", json=first, headers=version(board)).get_json()
        seated = api.put(
            f"{url}/seating", json={"players": ["Budi", "Dewi", "Siti"]}, headers=version(board)
        )
        assert seated.status_code == 200, seated.get_json()
        headers = version(seated.get_json())
        if way == "general":
            headers["Idempotency-Key"] = "after-dewi"
        second = {"out": "Dewi", "hands": {"Budi": ["KD"], "Siti": ["2C", "3C"]}}
        saved = api.post(f"{url}/rounds", json=second, headers=headers)
        assert saved.status_code == 201, saved.get_json()
        boards[way] = saved.get_json()
        assert api.get(url).get_json() == boards[way]
    plain, general = (
        {k: v for k, v in b.items() if k not in ("id", "etag")} for b in boards.values()
    )
    assert plain == general
    # Round 1's players, then who joined; Dewi starts at the lowest total (Budi's 0) and
    # takes KD 10 + 2C 2 + 3C 3 going out.
    assert plain["players"] == ["Budi", "Siti", "Dewi"] and plain["totals"]["Dewi"] == 15
    assert plain_saves == [True, True, True]  # the first rounds of both and the plain second


def interleaved(monkeypatch, api, during):
    """When the next save has checked its round and waits for its turn, ``during`` runs as
    another phone's request."""
    from referee.web.store import writes

    taking_turn = writes.start_writing
    pending = [during]

    def interleave_then_take_turn(*args, **kwargs):
        while pending:  # another thread: a request of its own, as another phone's is
            other = threading.Thread(target=pending.pop(), args=(api,))
            other.start()
            other.join()
        return taking_turn(*args, **kwargs)

    monkeypatch.setattr(writes, "start_writing", interleave_then_take_turn)


def test_a_round_saved_by_another_phone_while_one_was_checked_is_a_409(api, monkeypatch):
    table = new_table(api)
    url, board = new_match(api, table)
    theirs = {"out": "Budi", "hands": {"Siti": ["2H"]}}
    mine = {"out": "Siti", "hands": {"Budi": ["10H"]}}

    saved = []

    def another_phone(api):
        saved.append(api.post(f"{url}/rounds", json=theirs, headers=version(board)))

    interleaved(monkeypatch, api, another_phone)
    late = api.post(f"{url}/rounds", json=mine, headers=EN | version(board))
    assert saved[0].status_code == 201
    assert late.status_code == 409
    found = error(late)
    assert found["etag"] == f"m{board['id']}v2" and found["totals"] == {"Budi": 2, "Siti": 0}
    assert "changed on another phone" in found["message"]
    rounds = api.get(url).get_json()["rounds"]
    assert [r["scores"] for r in rounds] == [{"Budi": 2, "Siti": 0}]  # only theirs


def test_a_repeat_sent_while_the_first_was_checked_answers_as_the_first(api, monkeypatch):
    table = new_table(api)
    url, board = new_match(api, table)
    entry = {"out": "Siti", "hands": {"Budi": ["10H"]}}
    headers = {**version(board), "Idempotency-Key": "round-1"}
    first = []

    def the_first_send(api):
        first.append(api.post(f"{url}/rounds", json=entry, headers=headers))

    interleaved(monkeypatch, api, the_first_send)
    again = api.post(f"{url}/rounds", json=entry, headers=headers)
    assert first[0].status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first[0].get_json()
    assert len(api.get(url).get_json()["rounds"]) == 1


def test_a_round_the_referee_refuses_is_a_422_naming_the_round(api):
    table = new_table(api)
    url, board = new_match(api, table)
    twice = {"out": "Siti", "hands": {"Budi": ["10H", "10H"]}}  # one deck: one 10H
    response = api.post(f"{url}/rounds", json=twice, headers={**version(board), **EN})
    assert response.status_code == 422
    found = error(response)
    assert found["round"] == 1 and "10H" in found["message"]
    assert api.get(url).get_json()["version"] == 1


def test_a_round_the_referee_refuses_is_played_once(api, monkeypatch):
    """The plain save met the refusal: it is the answer, not played again on the objects."""
    from referee.match import MatchState

    table = new_table(api)
    url, board = new_match(api, table)
    plays, play = [], MatchState.play

    def counted(self, *args):
        plays.append(1)
        return play(self, *args)

    monkeypatch.setattr(MatchState, "play", counted)
    twice = {"out": "Siti", "hands": {"Budi": ["10H", "10H"]}}
    response = api.post(f"{url}/rounds", json=twice, headers={**version(board), **EN})
    assert response.status_code == 422 and error(response)["round"] == 1
    assert len(plays) == 1


def test_a_correction_that_ends_the_match_names_the_rounds_after_it(api):
    table = new_table(api)
    url, board = new_match(api, table, target=50)
    for _ in range(2):
        board = api.post(
            f"{url}/rounds", json={"out": "Siti", "hands": {"Budi": ["2H"]}}, headers=version(board)
        ).get_json()
    # Round 1 corrected: Budi held 10H JH QH KH 10S = 50, Siti reaches the target of 50.
    winning = {"out": "Siti", "hands": {"Budi": ["10H", "JH", "QH", "KH", "10S"]}}
    refused = api.put(f"{url}/rounds/1", json=winning, headers=version(board))
    assert refused.status_code == 409
    assert error(refused)["later"] == [2]
    done = api.put(f"{url}/rounds/1?remove_later=true", json=winning, headers=version(board))
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["finished"] is True and len(done.get_json()["rounds"]) == 1


def test_the_change_check_answers_304_while_nothing_changed(api):
    table = new_table(api)
    url, board = new_match(api, table)
    first = api.get(f"{url}/version")
    assert first.status_code == 200 and first.get_json() == {"version": 1}
    assert first.headers["ETag"] == f'"{board["etag"]}"'
    same = api.get(f"{url}/version", headers={"If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304 and "Set-Cookie" not in same.headers
    bearer = api.get(
        f"{API}/table/m/{board['id']}/version",
        headers={"Authorization": f"Bearer {table['view_key']}"},
    )
    assert bearer.status_code == 200
    other = new_table(api)
    assert api.get(f"{API}/t/{other['edit_key']}/m/{board['id']}/version").status_code == 404


def test_the_export_is_the_match_file(api):
    table = new_table(api)
    url, board = new_match(api, table, target=100)
    api.post(
        f"{url}/rounds", json={"out": "Siti", "hands": {"Budi": ["QS"]}}, headers=version(board)
    )
    document = api.get(f"{url}/export").get_json()
    assert document == {
        "format": "referee-match/1",
        "rules": "remi",
        "options": {"target": 100},
        "players": ["Budi", "Siti"],
        "first_dealer": "Budi",
        "rounds": [{"out": "Siti", "hands": {"Budi": ["QS"]}}],
    }


def test_hands_given_as_points_are_scored_kept_and_exported_as_numbers(api):
    table = new_table(api)
    url, board = new_match(api, table, "remi", ("Budi", "Siti", "Andi"), target=100)
    # Siti went out; Budi says 24, Andi shows KH 2C (12): 36 for Siti.
    entry = {"out": "Siti", "hands": {"Budi": 24, "Andi": ["KH", "2C"]}}
    added = api.post(f"{url}/rounds", json=entry, headers={**version(board), **EN})
    assert added.status_code == 201, added.get_json()
    board = added.get_json()
    assert board["totals"] == {"Budi": 0, "Siti": 36, "Andi": 0}
    (unchecked,) = board["rounds"][0]["unchecked"]
    assert unchecked.startswith("Budi's hand was given as 24 points, not as cards")
    stored = api.get(f"{url}/rounds/1", headers=EN).get_json()
    assert stored["entry"] == entry and stored["result"]["unchecked"] == [unchecked]
    document = api.get(f"{url}/export").get_json()
    assert document["rounds"] == [entry]
    # Indonesian by default
    indonesian = api.get(f"{url}/rounds/1").get_json()["result"]["unchecked"]
    assert indonesian[0].startswith("tangan Budi dicatat sebagai 24 poin")


@pytest.mark.parametrize(
    ("rules", "hands", "said"),
    [
        ("remi", {"Budi": -1}, "Budi's hand cannot count -1"),
        ("remi", {"Budi": 101}, "at most 10 cards, which count at most 100"),
        ("gin", {"Budi": 12, "Siti": 30}, "Budi cannot knock"),
    ],
)
def test_impossible_points_are_refused_with_the_reason(api, rules, hands, said):
    url, board = new_match(api, new_table(api), rules)
    entry = {"knock": "Budi", "hands": hands} if rules == "gin" else {"out": "Siti", "hands": hands}
    refused = api.post(f"{url}/rounds", json=entry, headers={**version(board), **EN})
    assert refused.status_code == 422, refused.get_json()
    assert said in error(refused)["message"]
    assert api.get(url).get_json()["rounds"] == []


@pytest.mark.parametrize("hand", ["24", 2.5, True, {"points": 3}])
def test_a_hand_of_the_wrong_shape_is_a_400(api, hand):
    url, board = new_match(api, new_table(api))
    sent = api.post(
        f"{url}/rounds", json={"out": "Siti", "hands": {"Budi": hand}}, headers=version(board)
    )
    assert sent.status_code == 400, sent.get_json()


def test_another_tables_match_is_not_found(api):
    url, board = new_match(api, new_table(api))
    other = new_table(api)
    assert api.get(f"{API}/t/{other['edit_key']}/m/{board['id']}").status_code == 404
    assert api.get(f"{url}/rounds/1").status_code == 404
    assert api.get(f"{API}/t/{other['edit_key']}/m/99999999999").status_code == 404


def test_the_match_list_pages_and_the_statistics(api):
    table = new_table(api)
    made = []
    for _ in range(3):
        url, board = new_match(api, table, target=100)
        api.post(
            f"{url}/rounds", json={"out": "Siti", "hands": {"Budi": ["QS"]}}, headers=version(board)
        )
        made.append(board["id"])
    listed = api.get(f"{API}/v/{table['view_key']}/matches?limit=2").get_json()
    assert [m["id"] for m in listed["matches"]] == made[::-1][:2]
    assert listed["next"] == made[1]
    rest = api.get(f"{API}/v/{table['view_key']}/matches?limit=2&before={listed['next']}")
    assert [m["id"] for m in rest.get_json()["matches"]] == [made[0]]
    assert rest.get_json()["next"] is None
    assert listed["matches"][0]["totals"] == {"Budi": 0, "Siti": 10}
    assert api.get(f"{API}/v/{table['view_key']}/matches?limit=0").status_code == 400
    figures = api.get(f"{API}/v/{table['view_key']}/stats").get_json()
    (remi,) = figures["groups"]
    assert remi["rules"] == "remi" and remi["matches"] == 3
    siti = next(p for p in remi["players"] if p["name"] == "Siti")
    assert siti["rounds_won"] == 3 and siti["points"] == 30 and siti["best"] == 10


# -- the live round ------------------------------------------------------------------------


def test_a_live_round_turn_by_turn(api):
    table = new_table(api)
    url, board = new_match(api, table, players=("Budi", "Siti", "Andi"))
    live = api.get(f"{url}/live").get_json()
    assert live["number"] == 1 and live["turns"] == [] and live["started"] is False
    turn = {"player": "Siti", "melds": [["7S", "8S", "9S"]], "discard": "2C"}
    added = api.post(f"{url}/live/turns", json=turn, headers=version(board))
    assert added.status_code == 201, added.get_json()
    live = added.get_json()
    assert live["turns"] == [turn] and live["table"][0]["owner"] == "Siti"
    assert added.headers["Location"] == f"{url}/live/turns/1"
    # The same 7S again: the referee refuses it, naming round 1, turn 2.
    again = {"player": "Andi", "melds": [["7S", "7H", "7D"]]}
    refused = api.post(
        f"{url}/live/turns", json=again, headers={"If-Match": f'"{live["etag"]}"', **EN}
    )
    assert refused.status_code == 422
    assert error(refused)["round"] == 1 and error(refused)["turn"] == 2
    layoff = {"player": "Andi", "layoffs": [{"cards": ["10S"], "onto": 1}], "discard": "3C"}
    live = api.post(
        f"{url}/live/turns", json=layoff, headers={"If-Match": f'"{live["etag"]}"'}
    ).get_json()
    assert len(live["turns"]) == 2
    assert live["table"][0]["cards"][-1] == {"code": "10S", "by": "Andi"}
    first_back = api.delete(f"{url}/live/turns/1", headers={"If-Match": f'"{live["etag"]}"'})
    assert first_back.status_code == 409  # only the last turn
    back = api.delete(f"{url}/live/turns/2", headers={"If-Match": f'"{live["etag"]}"'})
    assert back.status_code == 200 and len(back.get_json()["turns"]) == 1
    live = back.get_json()
    # remi has no stock ending: the round is blocked, and everyone scores 0.
    stock = api.post(
        f"{url}/live/end",
        json={"end": "stock", "hands": {"Budi": ["10H"], "Siti": ["2H"], "Andi": ["4S"]}},
        headers={"If-Match": f'"{live["etag"]}"'},
    )
    assert stock.status_code == 422
    ended = api.post(
        f"{url}/live/end", json={"end": "blocked"}, headers={"If-Match": f'"{live["etag"]}"'}
    )
    assert ended.status_code == 201, ended.get_json()
    board = ended.get_json()
    assert board["live"] is None and board["rounds"][0]["outcome"] == "blocked"
    assert board["totals"] == {"Budi": 0, "Siti": 0, "Andi": 0}
    assert board["next_dealer"] == "Siti"  # the deal moves on after a blocked round
    stored = api.get(f"{url}/rounds/1").get_json()
    assert stored["entry"]["turns"] == [turn] and stored["entry"]["end"] == "blocked"


def test_a_live_round_is_discarded(api):
    table = new_table(api)
    url, board = new_match(api, table, players=("Budi", "Siti", "Andi"))
    assert api.delete(f"{url}/live", headers=version(board)).status_code == 404
    live = api.post(
        f"{url}/live/turns",
        json={"player": "Siti", "melds": [["7S", "8S", "9S"]]},
        headers=version(board),
    ).get_json()
    discarded = api.delete(f"{url}/live", headers={"If-Match": f'"{live["etag"]}"'})
    assert discarded.status_code == 200 and discarded.get_json()["live"] is None


def test_gin_has_no_live_round(api):
    table = new_table(api)
    url, board = new_match(api, table, rules="gin")
    assert api.get(f"{url}/live").status_code == 422


def test_manipulation_live_arrange_and_hint(api):
    table = new_table(api)
    url, board = new_match(api, table, rules="manipulation", players=("Budi", "Siti", "Andi"))
    turn = {"player": "Siti", "played": ["7S", "8S", "9S"], "table": [["7S", "8S", "9S"]]}
    live = api.post(f"{url}/live/turns", json=turn, headers=version(board)).get_json()
    assert live["table"][0]["cards"][0]["code"] == "7S"
    arranged = api.post(f"{url}/live/arrange", json={"played": ["10S"]}).get_json()
    assert arranged["table"] == [["7S", "8S", "9S", "10S"]]
    hinted = api.post(f"{url}/live/hint", json={"hand": ["6S", "KD"]}).get_json()
    assert hinted["cards"] == ["6S"]
    remi_url, _ = new_match(api, table, players=("Budi", "Siti"))
    assert api.post(f"{remi_url}/live/hint", json={"hand": ["6S"]}).status_code == 422


# -- the protocol --------------------------------------------------------------------------


def test_errors_are_json_with_the_right_status(api, api_app):
    assert error(api.get(f"{API}/nothing"))["code"] == "not_found"
    wrong_method = api.get(f"{API}/tools/meld")
    assert wrong_method.status_code == 405 and "POST" in wrong_method.headers["Allow"]
    assert error(wrong_method)["code"] == "method_not_allowed"
    huge = api.post(
        f"{API}/tools/meld",
        data=b'{"rules": "remi", "cards": [' + b'"7S",' * 300_000 + b'"7S"]}',
        content_type="application/json",
    )
    assert huge.status_code == 413 and error(huge)["code"] == "too_large"


def test_no_csrf_token_and_no_cookie_for_the_api(api_app):
    assert api_app.config["WTF_CSRF_ENABLED"]  # the pages' forms need their token
    client = api_app.test_client()
    response = client.post(f"{API}/tables", json={"name": "Meja"})
    assert response.status_code == 201 and "Set-Cookie" not in response.headers


def test_the_document_and_its_docs_are_served(api):
    document = api.get(f"{API}/openapi.json").get_json()
    assert document["openapi"] == "3.1.0"
    paths = document["paths"]
    assert f"{API}/{{mode}}/{{key}}/m/{{match_id}}/rounds" in paths
    assert paths[f"{API}/table/m/{{match_id}}"]["get"]["security"] == [{"tableKey": []}]
    page = api.get(f"{API}/docs")
    assert page.status_code == 200 and b"swagger-ui-bundle.js" in page.data
    assert b"<script>" not in page.data  # no inline script
    bundle = api.get(f"{API}/docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and b"SwaggerUIBundle" in bundle.get_data()
    bundle.close()


def test_nothing_of_the_api_writes_the_database_when_refused(api, api_app):
    table = new_table(api)
    url, board = new_match(api, table)
    api.post(f"{url}/rounds", json={"out": "Nobody", "hands": {}}, headers=version(board))
    with api_app.app_context():
        count = db.session.execute(sa.text("SELECT count(*) FROM rounds")).scalar()
        mine = db.session.execute(
            sa.text("SELECT count(*) FROM rounds WHERE match_id = :m"), {"m": board["id"]}
        ).scalar()
    assert mine == 0 and count >= 0


def test_a_new_match_is_not_another_matchs_replay(api):
    table = new_table(api)
    url, board = new_match(api, table, target=100)
    api.post(
        f"{url}/rounds", json={"out": "Siti", "hands": {"Budi": ["QS"]}}, headers=version(board)
    )
    _other_url, other = new_match(api, table, target=100)  # the same header, no round
    assert other["totals"] == {"Budi": 0, "Siti": 0} and other["rounds"] == []


def test_any_live_turn_is_corrected_and_every_later_turn_checked_again(api):
    table = new_table(api)
    url, board = new_match(api, table, players=("Budi", "Siti", "Andi"))
    live = {"etag": board["etag"]}
    for turn in (
        {"player": "Siti", "melds": [["7S", "8S", "9S"]]},
        {"player": "Andi", "melds": [["4H", "4D", "4C"]]},
        {"player": "Budi", "layoffs": [{"cards": ["10S"], "onto": 1}]},
    ):
        added = api.post(f"{url}/live/turns", json=turn, headers=version(live))
        assert added.status_code == 201, added.get_json()
        live = added.get_json()
    stale = dict(live)
    # a set of sevens cannot take Budi's 10S of turn 3: refused naming turn 3, nothing saved
    sevens = {"player": "Siti", "melds": [["7H", "7D", "7C"]]}
    refused = api.put(f"{url}/live/turns/1", json=sevens, headers={**version(live), **EN})
    assert refused.status_code == 422
    assert error(refused)["round"] == 1 and error(refused)["turn"] == 3
    assert "10S" in error(refused)["message"]
    assert api.get(f"{url}/live").get_json()["turns"] == live["turns"]
    longer = {"player": "Siti", "melds": [["6S", "7S", "8S", "9S"]]}
    fixed = api.put(f"{url}/live/turns/1", json=longer, headers=version(live))
    assert fixed.status_code == 200, fixed.get_json()
    corrected = fixed.get_json()
    assert corrected["turns"][0] == longer and corrected["turns"][1:] == live["turns"][1:]
    codes = [card["code"] for card in corrected["table"][0]["cards"]]
    assert codes == ["6S", "7S", "8S", "9S", "10S"]
    # named from the state before the correction: 409; a turn that is not there: 404
    again = api.put(f"{url}/live/turns/2", json=live["turns"][1], headers=version(stale))
    assert again.status_code == 409
    assert (
        api.put(f"{url}/live/turns/4", json=longer, headers=version(corrected)).status_code == 404
    )
    assert api.put(f"{url}/live/turns/1", json=longer).status_code == 428


def test_an_indian_show_is_checked_and_counted(api):
    # 7D cut: 5S 6S 7C 8S uses the 7C as a joker and no pure sequence can be made
    groups = [["5S", "6S", "7C", "8S"], ["9H", "10H", "7H"], ["QH", "QC", "QS"], ["2D", "2C", "2H"]]
    found = api.post(f"{API}/tools/indian", json={"groups": groups, "cut": "7D"}, headers=EN)
    body = found.get_json()
    assert found.status_code == 200 and body["valid"] is False
    assert body["reasons"] == ["no pure sequence: 5S 6S 7C 8S uses the 7C as a joker"]
    # as a loser's hand all 13 count (no pure sequence): 5+6+8 + 9+10 + 30 + 6 = 74
    assert body["count"]["count"] == 74 and body["count"]["meets_rule"] is False
    # the same cards ungrouped, with the 8S as 7S: 5S 6S 7S 8S... a valid show
    valid = ["5S", "6S", "7S", "8S", "9H", "10H", "JH", "2D", "2C", "2H", "KD", "QD", "JD"]
    body = api.post(f"{API}/tools/indian", json={"cards": valid, "cut": "7D"}).get_json()
    assert body["valid"] is True and body["count"]["count"] == 0
    assert (
        api.post(f"{API}/tools/indian", json={"cards": valid[:12], "cut": "7D"}).status_code == 422
    )


def test_a_live_turn_with_a_misspelt_field_is_refused_and_nothing_is_saved(api):
    table = new_table(api)
    url, board = new_match(api, table, players=("Budi", "Siti", "Andi"))
    turn = {"player": "Siti", "melds": [["7S", "8S", "9S"]], "lay_offs": [], "discard": "2C"}
    refused = api.post(f"{url}/live/turns", json=turn, headers={**version(board), **EN})
    assert refused.status_code == 400
    assert error(refused)["code"] == "malformed"
    assert "lay_offs" in error(refused)["message"]
    assert api.get(f"{url}/live").get_json()["turns"] == []


def test_a_void_sent_again_with_its_idempotency_key_is_answered_from_its_receipt(api):
    """Every write keeps its one-time key's receipt (the door's), a void and a restore too."""
    table = new_table(api)
    url, board = new_match(api, table, target=100)
    first = {"out": "Siti", "hands": {"Budi": ["10H", "QS"]}}
    board = api.post(f"{url}/rounds", json=first, headers=version(board)).get_json()
    once = {"Idempotency-Key": "void-round-one", **version(board)}
    voided = api.post(f"{url}/rounds/1/void", headers=once)
    assert voided.status_code == 200 and voided.get_json()["totals"] == {"Budi": 0, "Siti": 0}
    again = api.post(f"{url}/rounds/1/void", headers=once)
    assert again.status_code == 200
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json()["version"] == voided.get_json()["version"]
