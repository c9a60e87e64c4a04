"""Hostile input and abuse found on the app after tests/web/test_hostile.py: each answered
500, broke a connection, locked a table out, or let something through that should not be."""

from __future__ import annotations

import http.client
import json
import secrets
import shutil
import subprocess
import sys
from urllib.parse import urlencode

import pytest

from referee.errors import MatchFileError
from referee.matchfile import load_document
from referee.web import create_app
from referee.web.play.names import name_key
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match, Player, Round

from .conftest import Client
from .helpers import errors, new_match, new_table, save_round, text, to_english
from .realserver import fresh_database, start_server

API = "/api/v1"
EN = {"Accept-Language": "en"}

# Python reads at most 4,300 digits into an int (sys.get_int_max_str_digits) and raises
# ValueError past that: json.loads raised it out of every parser of the app.
HUGE = "9" * 5000
TOO_LONG_EN = "A number has more than 4300 digits: no score, option or card needs one that long."
TOO_LONG_ID = (
    "Ada angka dengan lebih dari 4300 digit: tidak ada skor, opsi, atau kartu yang butuh"
    " angka sepanjang itu."
)


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(model))


# -- integers too long for Python's int, in any JSON read --------------------------------------


@pytest.fixture
def api_table(app):
    api = app.test_client()
    keys = api.post(f"{API}/tables", json={"name": "Meja", "players": ["Budi", "Siti"]}).get_json()
    made = api.post(
        f"{API}/t/{keys['edit_key']}/matches",
        json={"rules": "manipulation", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    )
    assert made.status_code == 201
    return api, keys["edit_key"], made.get_json()


@pytest.mark.parametrize(
    "path, body",
    [
        ("/tools/meld", '{"rules": "remi", "cards": ["7S"], "x": HUGE}'),
        ("/tools/gin", '{"cards": ["7S"], "deadwood": -HUGE}'),
        ("/tools/arrange", '{"table": [], "played": [HUGE]}'),
        ("/tables", '{"name": "Meja", "players": ["Budi"], "n": HUGE}'),
        ("/t/{key}/players", '{"players": [HUGE]}'),
        ("/t/{key}/matches", '{"rules": "remi", "options": {"target": HUGE}}'),
        ("/t/{key}/m/{id}/rounds", '{"out": "Siti", "hands": {"Budi": [HUGE]}}'),
        ("/t/{key}/m/{id}/live/turns", '{"player": "Budi", "melds": [[HUGE]]}'),
        ("/t/{key}/m/{id}/seating", '{"players": ["Budi", HUGE]}'),
    ],
)
def test_a_huge_integer_in_an_api_body_is_a_400_that_says_so(app, api_table, path, body):
    api, key, board = api_table
    tables, rounds = count(app, CardTable), count(app, Round)
    headers = EN | {"If-Match": f'"{board["etag"]}"'}
    url = API + path.format(key=key, id=board["id"])
    response = api.open(
        url,
        method="PUT" if path.endswith("seating") else "POST",
        data=body.replace("HUGE", HUGE),
        content_type="application/json",
        headers=headers,
    )
    assert response.status_code == 400
    answer = response.get_json()["error"]
    assert answer["code"] == "malformed" and answer["message"] == TOO_LONG_EN
    assert (count(app, CardTable), count(app, Round)) == (tables, rounds)


def test_the_api_says_it_in_indonesian_by_default(api_table):
    api, _key, _board = api_table
    response = api.post(
        f"{API}/tools/meld",
        data='{"x": HUGE}'.replace("HUGE", HUGE),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == TOO_LONG_ID


def test_a_long_integer_python_still_reads_is_left_to_the_schema(api_table):
    api, _key, _board = api_table
    body = '{"rules": "remi", "cards": ["7S", "8S", "9S"], "x": HUGE}'.replace("HUGE", "9" * 4300)
    response = api.post(f"{API}/tools/meld", data=body, content_type="application/json")
    assert response.status_code == 400  # an unknown field, as any other
    assert response.get_json()["error"]["message"] != TOO_LONG_EN


@pytest.mark.parametrize("english", [True, False])
def test_the_round_json_editor_refuses_a_huge_integer(client, app, english):
    if english:
        to_english(client)
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, match, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        before = db.session.scalars(db.select(Round)).one().entry
    body = '{"out": "Budi", "hands": {"Siti": ["KH"]}, "x": HUGE}'.replace("HUGE", HUGE)
    response = client.submit(match + "rounds/1/json", {"entry": body})
    assert response.status_code == 400
    assert errors(response) == [TOO_LONG_EN if english else TOO_LONG_ID]
    with app.app_context():
        assert db.session.scalars(db.select(Round)).one().entry == before


def match_document(**extra) -> str:
    document = {
        "format": "referee-match/1",
        "rules": "remi",
        "options": {"target": 100},
        "players": ["Budi", "Siti"],
        "first_dealer": "Budi",
        "rounds": [{"end": "void"}],
    }
    return json.dumps(document | extra).replace('"HUGE"', HUGE)


def test_a_match_import_with_a_huge_integer_is_refused(client, app):
    to_english(client)
    table = new_table(client, players="Budi, Siti")
    response = client.submit(table + "import", {"document": match_document(seed="HUGE")})
    assert response.status_code == 400
    assert errors(response) == ["the match file has a number of more than 4300 digits"]
    assert count(app, Match) == 0


def test_a_table_import_with_a_huge_integer_says_why(client, app):
    to_english(client)
    whole = json.dumps({"format": "referee-table/1", "name": "Meja", "matches": [], "n": "HUGE"})
    tables = count(app, CardTable)
    response = client.submit("/tables/import", {"document": whole.replace('"HUGE"', HUGE)})
    assert response.status_code == 400
    assert errors(response) == [TOO_LONG_EN]
    assert count(app, CardTable) == tables


# -- guessing keys: the guesser is stopped, never the table's phones on the same address ------


@pytest.fixture
def guarded(template_db, tmp_path):
    """Clients of one app with the default rate limits on (the tests turn them off elsewhere),
    all from one address, as phones behind the same Wi-Fi or mobile network."""
    path = tmp_path / "guarded.db"
    shutil.copy(template_db, path)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True})
    assert app.config["RATELIMIT_ENABLED"] and app.config["RATELIMIT_UNKNOWN_LINKS"] == (
        "30 per minute; 300 per hour"
    )
    app.test_client_class = Client

    def client() -> Client:
        return app.test_client()  # type: ignore[return-value]

    return client


def guess(client: Client, times: int, path: str = "") -> list[int]:
    return [client.get(f"/t/{secrets.token_urlsafe(24)}/{path}").status_code for _ in range(times)]


def test_a_key_guesser_never_locks_out_the_phones_of_a_table_on_its_address(guarded):
    phones = [guarded() for _ in range(4)]
    table = new_table(phones[0], players="Budi, Siti")
    match = new_match(phones[0], table, "remi", ["Budi", "Siti"], target=100)
    for phone in phones[1:]:  # the others open the link they were given
        assert phone.get(table).status_code == 200
    guesser = guarded()
    assert guess(guesser, 300) == [404] * 30 + [429] * 270
    refused = guesser.get(f"/t/{secrets.token_urlsafe(24)}/")
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    for number, phone in enumerate(phones):
        assert phone.get(table).status_code == 200
        assert phone.get(match).status_code == 200
        checked = phone.get(match + "version")
        assert checked.status_code == 200
        assert (
            phone.get(
                match + "version", headers={"If-None-Match": checked.headers["ETag"]}
            ).status_code
            == 304
        )
        assert phone.get(match + "rounds/new").status_code == 200
        assert phone.get(match + "live").status_code == 200
        hands = {"Siti": "KH"} if number % 2 else {"Budi": "KH"}
        winner = "Budi" if number % 2 else "Siti"
        saved = save_round(phone, match, ["Budi", "Siti"], hands, ending="out", player=winner)
        assert saved.status_code == 302, errors(saved)
    # The guesser is still stopped, even with the table's own link: it never opened it.
    assert guesser.get(table).status_code == 429
    assert guess(guesser, 1) == [429]
    assert guesser.get("/").status_code == 200  # the rest of the app is not limited


def test_a_phone_asking_all_evening_never_counts_as_guessing(guarded):
    phone = guarded()
    table = new_table(phone, players="Budi, Siti")
    match = new_match(phone, table, "remi", ["Budi", "Siti"], target=100)
    for _ in range(120):  # about a minute of four phones checking every two seconds
        assert phone.get(match + "version").status_code == 200
        assert phone.get(match + "rounds/99").status_code == 404  # a round not there yet
        assert phone.get(table + "m/999/").status_code == 404  # a match deleted since
        assert phone.get(table + "m/999/version").status_code == 404
    assert guess(phone, 30) == [404] * 30  # its whole budget of mistakes is still there
    assert guess(phone, 1) == [429]


@pytest.mark.parametrize(
    "wrong",
    [
        "/t/{guess}/m/1/version",  # the change check looks the key up itself
        "/v/{guess}/",
        "/t/{guess}/m/1/rounds/new",
        "/t/ab%cd/",  # a key that cannot be one counts too
        "/api/v1/t/{guess}/m/1",
        "/api/v1/v/{guess}",
    ],
)
def test_every_way_of_trying_a_key_counts(guarded, wrong):
    guesser = guarded()
    answers = [
        guesser.get(wrong.format(guess=secrets.token_urlsafe(24))).status_code for _ in range(31)
    ]
    assert answers == [404] * 30 + [429]


def test_a_bearer_key_is_one_lookup_and_a_wrong_one_counts_once(guarded):
    api = guarded()
    keys = api.post(f"{API}/tables", json={"name": "Meja", "players": ["Budi"]}).get_json()
    for _ in range(40):  # the view key is tried as an edit key first: not a failed lookup
        read = api.get(f"{API}/table", headers={"Authorization": f"Bearer {keys['view_key']}"})
        assert read.status_code == 200
    wrong = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
    assert [api.get(f"{API}/table", headers=wrong).status_code for _ in range(31)] == [404] * 30 + [
        429
    ]


# -- forwarded headers count only from the proxies the app was told of -------------------------


def forwarded_https(app, **headers: str):
    return app.test_client().get("/", headers={"X-Forwarded-Proto": "https", **headers})


def is_secure_answer(response) -> bool:
    cookie = [part.strip() for part in response.headers["Set-Cookie"].split(";")]
    return "Strict-Transport-Security" in response.headers or "Secure" in cookie


def test_a_client_saying_it_came_over_https_changes_nothing_without_a_proxy(app):
    assert app.config["FORWARDED_HOPS"] == 0
    assert not is_secure_answer(forwarded_https(app))
    assert not is_secure_answer(forwarded_https(app, Forwarded="proto=https"))


@pytest.mark.parametrize(
    "sent, secure",
    [
        ("https", True),  # the proxy's own word
        ("http, https", True),  # the proxy appends what it saw last
        ("https, http", False),  # a client's "https" before the proxy's "http"
    ],
)
def test_behind_one_proxy_only_its_word_counts(template_db, tmp_path, sent, secure):
    path = tmp_path / "proxied.db"
    shutil.copy(template_db, path)
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True, "FORWARDED_HOPS": 1}
    )
    assert is_secure_answer(forwarded_https(app, **{"X-Forwarded-Proto": sent})) is secure


# -- a body refused unread: the connection is closed, not left broken --------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``referee serve`` (gunicorn, as ``make run`` starts it) on a SQLite file: its port."""
    tmp = tmp_path_factory.mktemp("served")
    with fresh_database("sqlite", tmp) as database:
        server = start_server(database, tmp, workers=1, threads=2)
        try:
            yield int(server.url.rsplit(":", 1)[1])
        finally:
            server.stop()


@pytest.mark.parametrize(
    "method, path, size, status",
    [
        ("POST", "/check", 70_000, 413),  # past the 64 KiB of a form
        ("POST", "/check", 900_000, 413),
        ("POST", "/api/v1/tools/meld", 2_000_000, 413),  # past the 1 MiB of anything
        ("POST", "/no/such/page", 200_000, 404),  # refused before anything read the body
    ],
)
def test_a_connection_whose_body_was_refused_unread_is_closed_not_broken(
    served, method, path, size, status
):
    connection = http.client.HTTPConnection("127.0.0.1", served, timeout=30)
    try:
        connection.request("GET", "/rules/")
        kept = connection.getresponse()
        kept.read()
        assert kept.status == 200 and kept.getheader("Connection") != "close"
        socket_before = connection.sock
        connection.request("GET", "/rules/")  # kept alive: the same connection answers
        again = connection.getresponse()
        again.read()
        assert again.status == 200 and connection.sock is socket_before

        body = b"rules=remi&cards=" + b"7S+" * (size // 3)
        kind = "application/json" if path.startswith(API) else "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers={"Content-Type": kind})
        refused = connection.getresponse()
        refused.read()
        assert refused.status == status
        assert refused.getheader("Connection") == "close"
        # http.client opens a new connection after "close"; a broken one would fail here.
        connection.request("GET", "/rules/")
        after = connection.getresponse()
        after.read()
        assert after.status == 200
    finally:
        connection.close()


# -- bytes that are not UTF-8 are refused, never stored as percent signs ------------------------

NOT_UTF8_EN = (
    "The text sent is not readable (it is not UTF-8), so nothing was saved. Please type it again."
)


def post_raw(client: Client, url: str, fields: dict[str, str], raw: bytes):
    """Post a form as a browser would, with ``raw`` (already URL-encoded) appended."""
    data = {"csrf_token": client.csrf(), **client.hidden_fields(url), **fields}
    body = urlencode(data).encode() + b"&" + raw
    return client.post(url, data=body, content_type="application/x-www-form-urlencoded")


@pytest.mark.parametrize("raw", [b"%ED%A0%80x", b"Budi%FF", b"%C3", b"Bu\xffdi"])
def test_a_player_name_that_is_not_utf8_is_refused(client, app, raw):
    to_english(client)
    table = new_table(client, players="Siti")
    response = post_raw(client, table + "players", {}, b"names=" + raw)
    assert response.status_code == 400
    assert NOT_UTF8_EN in text(response)
    with app.app_context():
        assert [player.name for player in db.session.scalars(db.select(Player))] == ["Siti"]


def test_a_table_name_that_is_not_utf8_is_refused(client, app):
    tables = count(app, CardTable)
    response = post_raw(client, "/tables", {}, b"name=Meja%ED%A0%80")
    assert response.status_code == 400
    assert "Teks yang dikirim tidak terbaca" in text(response)
    assert count(app, CardTable) == tables


def test_a_filter_that_is_not_utf8_is_refused(client):
    to_english(client)
    table = new_table(client, players="Budi, Siti")
    response = client.get(table + "matches?player=%ED%A0%80x")
    assert response.status_code == 400 and NOT_UTF8_EN in text(response)
    shown = client.get(table + "matches?since=%C3%91o%C3%B1o")  # UTF-8, though not a date
    assert NOT_UTF8_EN not in text(shown)


def test_a_name_in_proper_utf8_percent_escapes_is_kept(client):
    table = new_table(client, players="Siti")
    response = post_raw(client, table + "players", {}, b"names=%C3%91o%C3%B1o")
    assert response.status_code == 302
    assert "Ñoño" in text(client.get(table))


def test_the_api_refuses_a_query_that_is_not_utf8(api_table):
    api, key, _board = api_table
    response = api.get(f"{API}/t/{key}/matches?before=%ED%A0%80", headers=EN)
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == NOT_UTF8_EN


# -- SQLite: an acknowledged write is on the disk, not only in the OS's cache -------------------


def test_sqlite_syncs_every_commit_to_the_disk(app):
    """WAL with synchronous=FULL: the log is synced at every commit, so a round the phone
    was told is saved survives a power cut (NORMAL syncs only at checkpoints: it survives
    a killed process, not the machine going off)."""
    with app.app_context():
        connections = [db.engine.connect() for _ in range(3)]  # each new one is set up
        try:
            for connection in connections:
                assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
                assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        finally:
            for connection in connections:
                connection.close()


def test_the_sqlite_sync_can_be_chosen_and_is_checked(template_db, tmp_path, monkeypatch):
    path = tmp_path / "normal.db"
    shutil.copy(template_db, path)
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "normal")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True})
    with app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "sometimes")
    with pytest.raises(ValueError, match="SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA"):
        create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True})


# -- names that look the same as another player's (Unicode's confusables, UTS #39) -------------

CYRILLIC_BUDI = "\u0412udi"  # Вudi: a Cyrillic capital Ve
CYRILLIC_SITI = "\u0405iti"  # Ѕiti: a Cyrillic capital Dze


def test_look_alike_names_have_one_key():
    for one, other in [
        ("Budi", CYRILLIC_BUDI),
        ("Siti", CYRILLIC_SITI),
        ("BUDI", CYRILLIC_BUDI),  # case and look together
        ("Sari", "S\u0430ri"),  # a Cyrillic small a
        ("Ali", "AIi"),  # a capital I for a small l
        ("Budi", "Ｂｕｄｉ"),
        ("Eko", "Ek0"),  # a zero for an O: EKO, EK0
    ]:
        assert name_key(one) == name_key(other), (one, other)
    for one, other in [("Budi", "Budy"), ("Ami", "Arni"), ("Andi", "Anđi"), ("Eko", "Eka")]:
        assert name_key(one) != name_key(other), (one, other)


@pytest.mark.parametrize("english", [True, False])
def test_a_new_player_who_looks_like_one_at_the_table_is_refused(client, english):
    if english:
        to_english(client)
    table = new_table(client, players="Budi, Siti")
    response = client.submit(table + "players", {"names": f"Andi, {CYRILLIC_SITI}"})
    assert response.status_code == 400
    said = "Already at this table" if english else "Sudah ada di meja ini"
    assert errors(response) == [f"{said}: {CYRILLIC_SITI}"]
    assert sorted(p.name for p in players_at(client, table)) == ["Budi", "Siti"]


def players_at(client: Client, table: str) -> list[Player]:
    with client.application.app_context():
        key = table.split("/")[2]
        found = db.session.scalar(db.select(CardTable).filter_by(edit_key=key))
        return list(found.players)


def test_one_list_of_new_players_cannot_hold_two_look_alikes(client):
    to_english(client)
    table = new_table(client, players="")
    response = client.submit(table + "players", {"names": f"Budi, {CYRILLIC_BUDI}"})
    assert response.status_code == 400
    assert errors(response) == [f"{CYRILLIC_BUDI} is written twice."]
    assert players_at(client, table) == []


def test_a_rename_to_a_look_alike_is_refused(client):
    to_english(client)
    table = new_table(client, players="Budi, Siti, Andi")
    andi = next(p for p in players_at(client, table) if p.name == "Andi")
    response = client.submit(
        table + f"settings/players/{andi.id}",
        {f"p{andi.id}-was": "Andi", f"p{andi.id}-name": CYRILLIC_BUDI},
        fresh=False,
    )
    assert response.status_code == 400
    assert errors(response) == ["Already at this table: Budi"]
    assert sorted(p.name for p in players_at(client, table)) == ["Andi", "Budi", "Siti"]


def test_a_late_joiner_written_like_a_player_is_that_player(client):
    to_english(client)
    table = new_table(client, players="Budi, Siti, Andi")
    match = new_match(client, table, "remi", ["Budi", "Andi"], target=200)
    saved = save_round(client, match, ["Budi", "Andi"], {"Andi": "KH"}, ending="out", player="Budi")
    assert saved.status_code == 302, errors(saved)
    joined = client.submit(
        match + "seating/join",
        {"new_name": CYRILLIC_SITI, "after": "Andi"},
        page=match + "seating",
    )
    assert joined.status_code == 302, errors(joined)
    assert "Siti joins from round 2" in text(client.get(match))
    assert sorted(p.name for p in players_at(client, table)) == ["Andi", "Budi", "Siti"]


def test_an_imported_match_with_a_look_alike_is_refused(client, app):
    to_english(client)
    table = new_table(client, players="Budi")
    doc = json.loads(match_document())
    doc["players"] = [CYRILLIC_BUDI, "Siti"]
    doc["first_dealer"] = "Siti"
    response = client.submit(table + "import", {"document": json.dumps(doc)})
    assert response.status_code == 400
    assert errors(response) == [
        f"{CYRILLIC_BUDI} is at this table already, written Budi: use the same spelling."
    ]
    assert count(app, Match) == 0


def test_the_api_refuses_look_alikes(app):
    api = app.test_client()
    made = api.post(
        f"{API}/tables", json={"name": "Meja", "players": ["Siti", CYRILLIC_SITI]}, headers=EN
    )
    assert made.status_code == 422
    assert made.get_json()["error"]["message"] == f"{CYRILLIC_SITI} is written twice."
    keys = api.post(f"{API}/tables", json={"name": "Meja", "players": ["Budi"]}).get_json()
    added = api.post(
        f"{API}/t/{keys['edit_key']}/players", json={"names": [CYRILLIC_BUDI]}, headers=EN
    )
    assert added.status_code == 422
    assert added.get_json()["error"]["message"] == f"Already at this table: {CYRILLIC_BUDI}"


def test_the_engine_and_the_command_line_say_a_number_is_too_long(tmp_path):
    with pytest.raises(MatchFileError) as refused:
        load_document(match_document(seed="HUGE"))
    assert refused.value.reason.key == "file.number_too_long"
    melds = tmp_path / "melds.json"
    melds.write_text("[[" + HUGE + "]]")
    done = subprocess.run(
        [sys.executable, "-m", "referee", "table", "--before", str(melds), "--played", "7H"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "a number of 5000 digits (at most 4300)" in done.stderr
