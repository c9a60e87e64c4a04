"""Hostile input: each attack found on the app answered 500 (or worse) before; now it gets a
clear answer.  On SQLite and, where the database matters, on PostgreSQL (TEST_PG_URL)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from flask import Flask
from werkzeug.routing import IntegerConverter

from referee.web.play.names import clean_name, name_key
from referee.web.serving.security import local_target
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Player

from .conftest import DATABASE_KINDS as DATABASES
from .conftest import Client, migrated_app
from .helpers import errors, new_match, new_table, save_round, text, to_english
from .realserver import fresh_database
from .test_transfer import DOC


@pytest.fixture(scope="module")
def pg_app(tmp_path_factory) -> Iterator[Flask]:
    """The app on a PostgreSQL database of this module's own (the workers share the cluster)."""
    with fresh_database("postgresql", tmp_path_factory.mktemp("hostile")) as url:
        app = migrated_app(url)
        yield app
        with app.app_context():
            db.engine.dispose()


@pytest.fixture(params=DATABASES)
def any_client(request: pytest.FixtureRequest) -> Client:
    """A client of the app on SQLite, then on PostgreSQL."""
    app = request.getfixturevalue("app" if request.param == "sqlite" else "pg_app")
    app.test_client_class = Client
    return app.test_client()  # type: ignore[return-value]


def stored(client: Client, model: type, **where: object) -> list[str]:
    app = client.application
    with app.app_context():
        return [row.name for row in db.session.scalars(db.select(model).filter_by(**where))]


# -- the language switch redirects only to this app's own paths -------------------------------

ELSEWHERE = [
    "/\t/evil.example",  # browsers drop the tab: //evil.example
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "/a\r\nSet-Cookie: x=1",  # answered 500 (a newline in a header)
    "//evil.example/",
    "///evil.example/",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "\\\\evil.example",
    "/\\evil.example",
    "evil.example",
    "/\u2028/evil.example",
    "/\x00/evil.example",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_the_language_switch_never_leaves_the_app(client, target):
    response = client.submit("/language", {"lang": "en", "next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize(
    "target", ["/rules/", "/rules/gin", "/check?rules=rummy", "/t/abc_DEF-123/m/7/", "/%2F%2Fx"]
)
def test_the_language_switch_returns_to_the_page_it_was_on(client, target):
    response = client.submit("/language", {"lang": "en", "next": target})
    assert response.status_code == 302 and response.headers["Location"] == target


def test_a_local_target_drops_a_fragment_and_keeps_the_query():
    assert local_target("/rules/?a=1#top") == "/rules/?a=1"
    assert local_target(None) is None and local_target("") is None


# -- ids no database column holds are a plain 404 ----------------------------------------------

HUGE_IDS = [2**31, 2**63, 10**30]


@pytest.mark.parametrize("huge", HUGE_IDS)
def test_a_huge_match_id_is_not_found(any_client, huge):
    table = new_table(any_client, players="Budi, Siti")
    match = new_match(any_client, table, "remi", ["Budi", "Siti"], target=100)
    assert any_client.get(match).status_code == 200
    assert any_client.get(f"{table}m/{huge}/").status_code == 404
    assert any_client.get(f"{match}rounds/{huge}").status_code == 404
    assert any_client.get(f"{table}m/{2**31 - 1}/").status_code == 404


def test_every_numbered_route_refuses_a_huge_number(any_client):
    app = any_client.application
    table = new_table(any_client, players="Budi, Siti")
    match = new_match(any_client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(any_client, match, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    key, match_id = table.split("/")[2], match.rstrip("/").split("/")[-1]
    numbered = [
        rule
        for rule in app.url_map.iter_rules()
        if any(isinstance(conv, IntegerConverter) for conv in rule._converters.values())
    ]
    assert len(numbered) >= 10
    for rule in numbered:
        for huge_argument in [name for name in rule.arguments if name in ("match_id", "number")]:
            values = {"mode": "t", "key": key, "match_id": match_id, "number": "1"}
            values[huge_argument] = str(2**63)
            url = rule.rule
            for name, value in values.items():
                for converter in ("", "int:", "any(t,v):"):
                    url = url.replace(f"<{converter}{name}>", value)
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                if method == "GET":
                    response = any_client.get(url)
                else:
                    response = any_client.submit(url, {"action": "save"})
                assert response.status_code == 404, (method, url)


# -- numbers too long for WTForms' range check -------------------------------------------------


@pytest.mark.parametrize(
    "digits", ["9" * 10, "9" * 309, "9" * 5000, "-" + "9" * 309, "1" + "0" * 400]
)
def test_a_target_of_hundreds_of_digits_is_out_of_range(client, digits):
    table = new_table(client, players="Budi, Siti")
    response = client.submit(
        table + "new/rummy",
        {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "custom"}
        | {"custom_target": digits},
    )
    assert response.status_code == 400
    # rummy's target goes from 50 to 10000 (RULES.md, House rules).
    assert errors(response) == ["Isi target dari 50 sampai 10000."]


def test_a_number_of_rounds_of_hundreds_of_digits_is_out_of_range(client):
    client.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(client, players="Budi, Siti")
    response = client.submit(
        table + "new/rummy",
        {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "end": "hands"}
        | {"hands": "9" * 309},
    )
    assert response.status_code == 400
    assert errors(response) == ["Enter a number of rounds from 1 to 100."]


def test_a_long_number_with_leading_zeros_is_still_the_number(client):
    table = new_table(client, players="Budi, Siti")
    response = client.submit(
        table + "new/rummy",
        {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "custom"}
        | {"custom_target": "0" * 20 + "250"},
    )
    assert response.status_code == 302
    assert "250" in text(client.get(response.headers["Location"]))


# -- names: no NUL, nothing invisible, one spelling per person --------------------------------


def test_clean_names():
    assert clean_name("Bu\u200bdi") == "Budi"  # zero-width space
    assert clean_name("Ｂｕｄｉ") == "Budi"  # full-width letters
    assert clean_name("\u202eidub") == "idub"  # right-to-left override
    assert clean_name("Bu\x00di") == "Budi"
    assert clean_name("  Siti \t\n Rahma\u00a0 ") == "Siti Rahma"
    assert clean_name("\u200b\u200c\u200d\u2060\ufeff\u3164\u2800\u034f") == ""
    assert clean_name("Wayan 🃏") == "Wayan 🃏" and clean_name("Ñoño") == "Ñoño"


def test_names_compare_without_case_or_width():
    assert name_key("Budi") == name_key("BUDI") == name_key("Ｂｕｄｉ") == name_key("bu\u200bdi")
    assert name_key("Budi") != name_key("Budy")


@pytest.mark.parametrize(
    "name, shown",
    [("Meja\x00 Jumat", "Meja Jumat"), ("\u202eMeja", "Meja"), ("Ｍｅｊａ  Ａ", "Meja A")],
)
def test_a_table_name_is_cleaned(any_client, name, shown):
    response = any_client.submit("/tables", {"name": name})
    assert response.status_code == 302
    key = response.headers["Location"].split("/")[2]
    assert stored(any_client, CardTable, edit_key=key) == [shown]


@pytest.mark.parametrize("name", ["\u200b", "\x00", "\u202e\u200d", "\u3164\u3164"])
def test_a_table_name_that_shows_nothing_is_refused(any_client, name):
    response = any_client.submit("/tables", {"name": name})
    assert response.status_code == 400
    assert errors(response) == ["Beri nama mejanya."]


def players_of(client: Client, table: str) -> list[str]:
    key = table.split("/")[2]
    with client.application.app_context():
        found = db.session.scalar(db.select(CardTable).filter_by(edit_key=key))
        return sorted(player.name for player in found.players)


def test_a_nul_in_a_player_name_is_cleaned(any_client):
    table = new_table(any_client, players="Bu\x00di, Si\x00ti")
    assert players_of(any_client, table) == ["Budi", "Siti"]
    assert stored(any_client, Player, name="Budi")


@pytest.mark.parametrize("twin", ["Bu\u200bdi", "BUDI", "Ｂｕｄｉ", "\u202eBudi", " budi\u00a0"])
def test_a_look_alike_of_a_player_is_the_same_player(any_client, twin):
    any_client.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(any_client, players="Budi")
    response = any_client.submit(table + "players", {"names": twin})
    assert response.status_code == 400
    assert errors(response) == [f"Already at this table: {clean_name(twin)}"]
    assert players_of(any_client, table) == ["Budi"]


def test_look_alikes_in_one_list_are_written_twice(client):
    client.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(client, players="")
    response = client.submit(table + "players", {"names": "Andi, ａｎｄｉ"})
    assert response.status_code == 400 and errors(response) == ["andi is written twice."]


def test_names_of_invisible_characters_only_are_refused(client):
    table = new_table(client, players="")
    response = client.submit(table + "players", {"names": "\u200b, \u200c\u200d\n\u2060"})
    assert response.status_code == 400
    assert errors(response) == ["Tulis paling sedikit satu nama."]


def test_full_width_names_are_stored_plain(client):
    table = new_table(client, players="Ｓｉｔｉ, \u202eAndi")
    assert players_of(client, table) == ["Andi", "Siti"]


def document(players: list[str]) -> str:
    return json.dumps(
        {
            "format": "referee-match/1",
            "rules": "remi",
            "options": {"target": 100},
            "players": players,
            "first_dealer": players[0],
            "rounds": [{"end": "void"}],
        }
    )


@pytest.mark.parametrize(
    "players, message",
    [
        (
            ["Bu\u200bdi", "Siti"],
            "The name Bu\\u200bdi has invisible or unusual characters: write it Budi.",
        ),
        (
            ["Bu\x00di", "Siti"],
            "The name Bu\\x00di has invisible or unusual characters: write it Budi.",
        ),
        (
            ["Ｓｉｔｉ", "Andi"],
            "The name Ｓｉｔｉ has invisible or unusual characters: write it Siti.",
        ),
        (["Andi", "ANDI"], "ANDI is written twice."),
        (["BUDI", "Andi"], "BUDI is at this table already, written Budi: use the same spelling."),
    ],
)
def test_an_imported_match_with_look_alike_names_is_refused(any_client, players, message):
    any_client.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(any_client, players="Budi")
    response = any_client.submit(table + "import", {"document": document(players)})
    assert response.status_code == 400
    assert errors(response) == [message]
    assert players_of(any_client, table) == ["Budi"]


# -- garbage with NULs and huge numbers in every field of every route, on both databases -------

JUNK = ["\x00", "Bu\x00di", "9" * 309, "9" * 5000, "²", "-1", "\u202e", "JK=\x00"]
FIELDS = (
    "name names cards meld rules ace lang next player melds layoffs played table hand ending"
    " hand_0 hand_1 seat_0 seat_1 first_dealer target custom_target end hands entry document"
    " discard took_discard closing_card melds_0 action for_round turns_before at_once out"
    " once match_version round_version round_id round_number"
).split()


@pytest.mark.parametrize("rules", ["remi", "manipulation"])
def test_no_route_answers_500_to_nul_or_huge_numbers(any_client, rules):
    app = any_client.application
    table = new_table(any_client, players="Budi, Siti")
    match = new_match(any_client, table, rules, ["Budi", "Siti"], target=100)
    if rules == "remi":
        save_round(any_client, match, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    else:  # a live round with a meld on the table
        response = any_client.submit(
            match + "live/turn",
            {"player": "Siti", "played": "4H 4D 4C", "table": "4H 4D 4C", "action": "save"},
        )
        assert response.status_code == 302
    values = {
        "mode": "t",
        "key": table.split("/")[2],
        "match_id": match.rstrip("/").split("/")[-1],
        "number": "1",
    }
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = rule.rule
        for name in rule.arguments:
            for converter in ("", "int:", "any(t,v):"):
                url = url.replace(f"<{converter}{name}>", values.get(name, "remi"))
        # The hidden fields of the route's form, read once: each junk overrides those it names
        # (the one-time key and the versions among them), as a phone posting from one page.
        hidden = any_client.hidden_fields(url) if rule.methods - {"GET", "HEAD", "OPTIONS"} else {}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for junk in JUNK:
                if method == "GET":
                    response = any_client.get(url, query_string={"x": junk})
                else:
                    posted = hidden | dict.fromkeys(FIELDS, junk)
                    response = any_client.submit(url, posted, fresh=False)
                assert response.status_code < 500, (method, url, junk[:20])
    keyed = [rule for rule in app.url_map.iter_rules() if "key" in rule.arguments]
    for junk in ("\x00", "ab\x00cd", "x" * 65, "ab%cd"):  # keys that are no key: never looked up
        for rule in keyed:
            url = rule.rule.replace("<key>", junk)
            for name in rule.arguments - {"key"}:
                for converter in ("", "int:", "any(t,v):"):
                    url = url.replace(f"<{converter}{name}>", values.get(name, "remi"))
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                response = any_client.open(url, method=method)
                assert response.status_code in (400, 404), (method, url)


# -- sizes: bodies, boxes of cards and card counts are checked before anything is read ---------


def test_an_anonymous_check_of_900_kb_is_refused_whole(client):
    response = client.submit("/check", {"rules": "remi", "cards": "7S " * 300_000})
    assert response.status_code == 413
    assert "Itu terlalu banyak untuk dikirim sekaligus." in text(response)


@pytest.fixture
def cards_never_read(monkeypatch):
    """Fail the test if a long box of cards is read (the size checks must come first)."""
    from referee.notation import parse_cards

    def short_only(text):
        assert len(text) < 40, "the cards were read"
        return parse_cards(text)

    monkeypatch.setattr("referee.web.forms.fields.parse_cards", short_only)


def test_a_box_of_cards_too_long_is_refused_unread(client, cards_never_read):
    client.submit("/language", {"lang": "en", "next": "/"})
    response = client.submit("/check", {"rules": "remi", "cards": "7S " * 600})
    assert response.status_code == 400
    assert errors(response) == ["That is too long: at most 1500 characters."]


def test_too_many_cards_are_refused_unread(client, cards_never_read):
    client.submit("/language", {"lang": "en", "next": "/"})
    response = client.submit("/check", {"rules": "remi", "cards": "7S," * 111})
    assert response.status_code == 400
    assert errors(response) == ["Too many cards: at most 110."]


def test_the_hint_counts_the_hand_before_reading_it(client, cards_never_read):
    client.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "manipulation", ["Budi", "Siti"], target=100)
    response = client.submit(match + "live/hint", {"hand": " ".join(["7S"] * 31)})
    assert response.status_code == 400
    assert errors(response) == ["A hand of at most 30 cards, please."]


def test_a_whole_table_of_two_decks_still_fits_a_box(client):
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    response = client.submit("/check", {"rules": "remi", "cards": " ".join(deck * 2 + ["JK"] * 2)})
    assert response.status_code == 200  # read (and judged), not refused for its size


def test_a_match_file_may_be_larger_than_a_form(client):
    table = new_table(client, players="Budi, Siti")
    rounds = [{"end": "void"}] * 400
    big = json.dumps(
        {
            "format": "referee-match/1",
            "rules": "remi",
            "options": {"target": 100},
            "players": ["Budi", "Siti"],
            "first_dealer": "Budi",
            "rounds": rounds,
        },
        indent=40,
    )
    assert len(big) > 80 * 1024
    response = client.submit(table + "import", {"document": big})
    assert response.status_code == 302, errors(response)


# -- rate limits: the anonymous tools, new tables, links that lead nowhere ----------------------


@pytest.fixture
def limited(template_db, tmp_path):
    """An app with the rate limits on (tests turn them off elsewhere), tight ones for the tools."""
    import shutil

    from referee.web import create_app

    path = tmp_path / "limited.db"
    shutil.copy(template_db, path)

    def make(**limits: str) -> Client:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True, **limits}
        )
        app.test_client_class = Client
        return app.test_client()  # type: ignore[return-value]

    return make


def test_the_checker_is_rate_limited_per_address(limited):
    client = limited(RATELIMIT_TOOLS="3 per minute")
    for _ in range(3):
        assert client.submit("/check", {"rules": "remi", "cards": "7S 8S 9S"}).status_code == 200
    refused = client.submit("/check", {"rules": "remi", "cards": "7S 8S 9S"})
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "Terlalu banyak permintaan dari sini. Tunggu satu menit, lalu coba lagi." in text(
        refused
    )
    assert client.get("/check").status_code == 200  # reading the page is not limited
    client.submit("/language", {"lang": "en", "next": "/"})
    refused = client.submit("/gin", {"cards": "7S 8S 9S"})  # the tools share the limit
    assert refused.status_code == 429
    assert "Too many requests from here. Please wait a minute, then try again." in text(refused)
    neighbour = client.application.test_client()
    neighbour.environ_base["REMOTE_ADDR"] = "192.0.2.7"  # another address (documentation range)
    assert neighbour.submit("/check", {"rules": "remi", "cards": "7S 8S 9S"}).status_code == 200


def test_creating_tables_is_rate_limited(limited):
    client = limited(RATELIMIT_NEW_TABLES="2 per minute")
    assert [client.submit("/tables", {"name": "Meja"}).status_code for _ in range(3)] == [
        302,
        302,
        429,
    ]


def test_wrong_keys_are_rate_limited_but_known_tables_are_not(limited):
    client = limited(RATELIMIT_UNKNOWN_LINKS="5 per minute")
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    for _ in range(300):  # four phones polling a table every 1.5 s for more than a minute
        assert client.get(match).status_code == 200
    assert client.get(table).status_code == 200
    wrong = "/t/" + "A" * 32 + "/"
    assert [client.get(wrong).status_code for _ in range(6)] == [404] * 5 + [429]
    # This address guessed too much, for a while: only the tables its browser opened are
    # looked up (tests/web/test_abuse.py has the guesser beside four phones).
    assert client.get(table).status_code == 200
    stranger = client.application.test_client()
    assert stranger.get(table).status_code == 429


def test_the_default_limits_leave_a_table_of_phones_alone(limited):
    client = limited()
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, match, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    for _ in range(200):
        assert client.get(match).status_code == 200
        assert client.get(match + "live").status_code == 200
    for _ in range(10):  # someone mistyping a link a few times
        assert client.get("/t/no-such-table/").status_code == 404
    assert client.get(table).status_code == 200


def test_the_limits_can_be_set_in_the_environment(monkeypatch, tmp_path):
    from referee.web import create_app

    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "memory://")
    monkeypatch.setenv("RATELIMIT_TOOLS", "1 per hour")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/x.db"})
    assert type(app.extensions["rate_limiter"].storage).__name__ == "MemoryStorage"
    app.test_client_class = Client
    client = app.test_client()
    codes = [client.submit("/gin", {"cards": "7S"}).status_code for _ in range(2)]
    assert codes == [400, 429]
    monkeypatch.setenv("RATELIMIT_ENABLED", "false")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/x.db"})
    assert app.config["RATELIMIT_ENABLED"] is False


def imported(client, document: str):
    table = new_table(client, players="")
    return table, client.submit(table + "import", {"document": document})


@pytest.mark.parametrize("where", ["players", "out"])
def test_a_huge_name_is_never_echoed_in_full(client, where):
    to_english(client)
    huge = "B" * 300_000
    if where == "players":
        doc = DOC | {"players": [huge, "Siti"], "rounds": []}
    else:
        doc = DOC | {"rounds": [{"out": huge, "hands": {}}]}
    _, response = imported(client, json.dumps(doc))
    assert response.status_code == 400 and errors(response)
    assert len(" ".join(errors(response))) < 300
