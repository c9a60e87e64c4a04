"""A leaked link taken back: the table's edit or view key replaced, from its page or the API.

An old key must answer exactly what a key that never existed answers (a 404 and the
same page, nothing of the table on it), on every route that takes a key; it counts
against the rate limit like a wrong key; "My tables" lets it go with a note; a write
that came with the old key while the key was replaced is refused whole.
"""

from __future__ import annotations

import re
import shutil
import threading

import pytest
import sqlalchemy as sa
from flask import Flask

from referee.web import create_app
from referee.web.store.extensions import db

from .conftest import Client
from .helpers import new_match, new_table, save_round, text, to_english, view_url
from .qr_reading import picture, read_codes, svg_modules

API = "/api/v1"
EN = {"Accept-Language": "en"}
GONE = "This link does not exist or was replaced by the table's owner; ask them for the new one."
# The page says it once: its heading, then what to do.
GONE_PAGE = "Ask the table's owner for the new one."
# Names that appear nowhere in the app's own texts: seen on a page, they came from the table.
TABLE_NAME = "Zanzibar Nights"
PLAYERS = ["Quillon", "Marisol"]


def key_of(url: str) -> str:
    found = re.search(r"/[tv]/([A-Za-z0-9_-]+)/", url)
    assert found, url
    return found.group(1)


def replace(client: Client, table_url: str, link: str) -> str:
    """Replace a link through its confirm page, as a phone does; the new edit URL."""
    url = f"{table_url}links/{link}/replace"
    confirm = client.get(url)
    assert confirm.status_code == 200
    response = client.submit(url, page=url)
    assert response.status_code == 302, text(response)[:500]
    location = response.headers["Location"]
    assert location.endswith(f"?replaced={link}#links"), location
    return location.split("?")[0]


@pytest.fixture
def table(client: Client) -> dict[str, str]:
    """A table with a match of one round, in English: its links."""
    to_english(client)
    url = new_table(client, players=", ".join(PLAYERS), name=TABLE_NAME)
    match = new_match(client, url, "remi", PLAYERS, target=200)
    # remi: Marisol goes out, Quillon is left with KH (10): Marisol takes 10.
    saved = save_round(client, match, PLAYERS, {"Quillon": "KH"}, ending="out", player="Marisol")
    assert saved.status_code == 302
    return {"edit": url, "view": view_url(client, url), "match": match}


def test_replacing_the_edit_link_gives_this_phone_the_new_one_and_the_old_one_opens_nothing(
    client, table
):
    confirm = client.get(f"{table['edit']}links/edit/replace")
    said = text(confirm)
    assert "Replace the edit link?" in said
    assert "stops working at once, on every phone that has it" in said
    assert "The view link stays as it is." in said

    new = replace(client, table["edit"], "edit")
    assert key_of(new) != key_of(table["edit"])
    page = client.get(new + "?replaced=edit")
    shown = text(page)
    assert page.status_code == 200 and TABLE_NAME in shown
    assert "The edit link was replaced: the old one no longer works on any phone." in shown
    link = f"http://localhost{new}"
    assert f'value="{link}"' in shown  # the copy box
    assert '<details class="qr-edit" open>' in shown  # its QR code in sight
    codes = re.findall(r"<svg role=\"img\".*?</svg>", page.get_data(as_text=True), re.S)
    read = [read_codes(picture(svg_modules(code))) for code in codes]
    assert [link] in read  # a camera reads the new edit link
    assert [f"http://localhost{table['view']}"] in read  # the view link did not change

    old = client.get(table["edit"])
    assert old.status_code == 404
    assert GONE_PAGE in text(old) and TABLE_NAME not in text(old)
    assert client.get(table["view"]).status_code == 200
    assert client.get(new + "stats").status_code == 200


def test_replacing_the_view_link_keeps_the_edit_link(client, table):
    said = text(client.get(f"{table['edit']}links/view/replace"))
    assert "Replace the view link?" in said and "The edit link stays as it is." in said
    edit = replace(client, table["edit"], "view")
    assert edit == table["edit"]
    new_view = view_url(client, edit)
    assert new_view != table["view"]
    assert client.get(new_view).status_code == 200
    old = client.get(table["view"])
    assert old.status_code == 404 and GONE_PAGE in text(old) and TABLE_NAME not in text(old)


def test_only_the_edit_link_replaces_a_link(client, table):
    view_key = key_of(table["view"])
    for link in ("edit", "view"):
        for path in (f"/t/{view_key}/links/{link}/replace", f"/v/{view_key}/links/{link}/replace"):
            assert client.get(path).status_code == 404, path
        posted = client.post(
            f"/t/{view_key}/links/{link}/replace", data={"csrf_token": client.csrf()}
        )
        assert posted.status_code == 404
    assert "Replace the view link" not in text(client.get(table["view"]))
    assert client.get(table["edit"]).status_code == 200  # nothing was replaced


def test_a_double_tap_on_replace_replaces_once_and_sends_both_to_the_new_link(client, table):
    url = f"{table['edit']}links/edit/replace"
    form = client.hidden_fields(url, url)
    first = client.submit(url, form, fresh=False)
    again = client.submit(url, form, fresh=False)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"]
    new = first.headers["Location"].split("?")[0]
    assert client.get(new).status_code == 200


def test_the_table_keeps_when_and_from_which_link_each_replacement_was_made_never_a_key(
    client, table, app
):
    edit = replace(client, table["edit"], "view")
    edit = replace(client, edit, "edit")
    shown = text(client.get(edit))
    assert "History of the links (2)" in shown
    history = shown.split("History of the links (2)")[1].split("</details>")[0]
    lines = re.findall(r"<li>([^<]+)</li>", history)
    assert len(lines) == 2
    assert lines[0].startswith("Edit link replaced · ") and lines[0].endswith("from the edit link")
    assert lines[1].startswith("View link replaced · ")
    assert "History of the links" not in text(client.get(view_url(client, edit)))
    with app.app_context():
        rows = db.session.execute(sa.text("SELECT * FROM table_events ORDER BY id")).mappings()
        stored = [dict(row) for row in rows]
    assert [(row["what"], row["via"]) for row in stored] == [
        ("view-link-replaced", "t"),
        ("edit-link-replaced", "t"),
    ]
    keys = {key_of(table["edit"]), key_of(table["view"]), key_of(edit)}
    assert not any(key in str(value) for row in stored for value in row.values() for key in keys)


def test_my_tables_on_another_phone_drops_the_replaced_link_with_a_note(app, client, table):
    other = app.test_client()
    to_english(other)
    assert other.get(table["edit"]).status_code == 200  # that phone opened the table
    home = text(other.get("/"))
    assert TABLE_NAME in home
    replace(client, table["edit"], "edit")
    home = text(other.get("/"))
    assert TABLE_NAME not in home
    assert (
        "A table was taken off this list: its link was replaced by the table's owner."
        " Ask them for the new one." in home
    )
    assert "taken off this list" not in text(other.get("/"))  # said once: the list forgot it
    mine = text(client.get("/"))  # the phone that replaced it lists the new link, no note
    assert TABLE_NAME in mine and "taken off this list" not in mine


# -- every route that takes a key ----------------------------------------------------------


def _api_bodies(app: Flask) -> dict[tuple[str, str], object]:
    """A body of the right shape for every API write (the document's example), so that the
    request reaches the key: a body of the wrong shape is a 400 whatever the key."""
    doc = app.test_client().get(f"{API}/openapi.json").get_json()
    bodies: dict[tuple[str, str], object] = {}
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if content is not None:
                bodies[path, method.upper()] = content.get("example", SHAPED.get(path))
    return bodies


SHAPED = {
    f"{API}/{{mode}}/{{key}}/players": {"names": ["Dewi"]},
    f"{API}/table/players": {"names": ["Dewi"]},
    f"{API}/{{mode}}/{{key}}/m/{{match_id}}/live/arrange": {"played": ["10S", "JS"]},
    f"{API}/table/m/{{match_id}}/live/arrange": {"played": ["10S", "JS"]},
    f"{API}/{{mode}}/{{key}}/m/{{match_id}}/live/hint": {"hand": ["10S", "QD"]},
    f"{API}/table/m/{{match_id}}/live/hint": {"hand": ["10S", "QD"]},
}


def _requests(app: Flask, ids: dict[str, int]):
    """Every (method, mode, path, bearer, rule) with a key: ``KEY`` stands for it in the path."""
    from flask import url_for

    for rule in app.url_map.iter_rules():
        bearer = rule.rule.startswith(f"{API}/table") and rule.rule != f"{API}/tables"
        if "key" not in rule.arguments:
            continue
        modes = ["t", "v"] if "mode" in rule.arguments or bearer else ["t"]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for mode in modes:
                given = {"mode": mode, "key": "KEY", "rules_id": "remi", "link": "edit", **ids}
                with app.test_request_context():
                    fixed = rule.defaults or {}  # the bearer form: no key in the path
                    path = url_for(
                        rule.endpoint,
                        **{name: given[name] for name in rule.arguments if name not in fixed},
                    )
                yield method, mode, path, bearer, rule


def test_an_old_key_answers_every_route_as_a_key_that_never_was(app, client, table):
    """Every url_map rule that takes a key (and the API's bearer form), every method, both
    modes: the old key's answer is the same as a made-up key's, a 404 saying the link does
    not exist or was replaced, in HTML for the pages and JSON for the API; no name of the
    table or its players in it."""
    ids = {"match_id": int(re.search(r"/m/(\d+)/", table["match"]).group(1))}
    ids.update(number=1, turn_number=1, set_id=1)  # set_id: a house-rules set (none needed)
    with app.app_context():
        ids["player_id"] = db.session.execute(sa.text("SELECT min(id) FROM players")).scalar()
    old = {"t": key_of(table["edit"]), "v": key_of(table["view"])}
    edit = replace(client, table["edit"], "view")
    assert client.get(replace(client, edit, "edit")).status_code == 200  # its notes shown
    never = {mode: "N" + key[1:] if key[0] != "N" else "M" + key[1:] for mode, key in old.items()}
    bodies = _api_bodies(app)
    token = client.csrf()
    seen_routes = set()

    def ask(method: str, mode: str, path: str, bearer: bool, key: str):
        if bearer:
            headers = {**EN, "Authorization": f"Bearer {key}"}
            openapi = re.sub(r"/m/\d+", "/m/{match_id}", path)
            openapi = re.sub(r"/(rounds|turns)/\d+", r"/\1/{number}", openapi)
            return client.open(
                path, method=method, headers=headers, json=bodies.get((openapi, method))
            )
        real = path.replace("KEY", key)
        if path.startswith(API):
            openapi = re.sub(r"^/api/v1/[tv]/KEY", f"{API}/{{mode}}/{{key}}", path)
            openapi = re.sub(r"/m/\d+", "/m/{match_id}", openapi)
            openapi = re.sub(r"/(rounds|turns)/\d+", r"/\1/{number}", openapi)
            return client.open(real, method=method, headers=EN, json=bodies.get((openapi, method)))
        if method == "POST":
            return client.post(real, data={"csrf_token": token})
        return client.open(real, method=method)

    def same(response) -> object:
        if response.is_json:
            return response.get_json()
        return re.sub(r'value="[^"]*"', "", response.get_data(as_text=True))

    for method, mode, path, bearer, rule in _requests(app, ids):
        seen_routes.add(rule.endpoint)
        answer = ask(method, mode, path, bearer, old[mode])
        made_up = ask(method, mode, path, bearer, never[mode])
        where = f"{method} {path} ({mode})"
        assert answer.status_code == 404, (where, answer.get_data(as_text=True)[:300])
        assert same(answer) == same(made_up), where
        said = answer.get_data(as_text=True)
        for name in (TABLE_NAME, *PLAYERS):
            assert name not in said, where
        if answer.is_json:
            assert answer.get_json()["error"]["message"] == GONE, where
        else:
            assert GONE_PAGE in text(answer), where
    # The enumeration saw the pages, the API's paths and its bearer form, this work's own too.
    assert {"tables.show", "matches.version", "api_matches.add_round"} <= seen_routes
    assert {"api_matches.scoreboard_bearer", "tables.replace_link"} <= seen_routes
    assert len(seen_routes) > 90


def test_the_change_check_sends_an_old_key_to_the_page_even_with_a_current_etag(client, table):
    match = table["match"]
    check = client.get(match + "version")
    etag = check.headers["ETag"]
    assert client.get(match + "version", headers={"If-None-Match": etag}).status_code == 304
    replace(client, table["edit"], "edit")
    # Before the app, a small middleware answers 304 for a current ETag: not to an old key.
    for url in (match + "version", match):
        answer = client.get(url, headers={"If-None-Match": etag})
        assert answer.status_code == 404 and GONE_PAGE in text(answer)
    number = re.search(r"/m/(\d+)/", match).group(1)
    api = f"{API}/t/{key_of(match)}/m/{number}/version"
    answer = client.get(api, headers={"If-None-Match": etag, **EN})
    assert answer.status_code == 404 and answer.get_json()["error"]["message"] == GONE


# -- the API -------------------------------------------------------------------------------


def new_api_table(api):
    made = api.post(f"{API}/tables", json={"name": TABLE_NAME, "players": PLAYERS})
    assert made.status_code == 201
    return made.get_json()


def test_the_api_replaces_a_key_and_answers_the_new_keys_once(api):
    table = new_api_table(api)
    edit, view = table["edit_key"], table["view_key"]
    replaced = api.post(f"{API}/t/{edit}/keys", json={"link": "view"})
    assert replaced.status_code == 200
    body = replaced.get_json()
    assert body["edit_key"] == edit and body["view_key"] not in (view, edit)
    assert body["pages"]["view"] == f"/v/{body['view_key']}/"
    assert api.get(f"{API}/v/{view}", headers=EN).status_code == 404
    assert api.get(f"{API}/v/{body['view_key']}").get_json()["name"] == TABLE_NAME
    # The bearer form, with the edit key; the answer's paths carry no key.
    bearer = api.post(
        f"{API}/table/keys", json={"link": "edit"}, headers={"Authorization": f"Bearer {edit}"}
    )
    assert bearer.status_code == 200
    new_edit = bearer.get_json()["edit_key"]
    assert new_edit != edit and bearer.get_json()["view_key"] == body["view_key"]
    assert bearer.get_json()["matches"] == f"{API}/table/matches"
    again = api.post(f"{API}/t/{edit}/keys", json={"link": "edit"}, headers=EN)
    assert again.status_code == 404 and again.get_json()["error"]["message"] == GONE
    # The new keys are not given again: reading the table with the view key shows no edit key.
    assert "edit_key" not in api.get(f"{API}/v/{body['view_key']}").get_json()
    assert api.get(f"{API}/t/{new_edit}").get_json()["edit_key"] == new_edit


def test_the_view_key_cannot_replace_and_a_wrong_body_replaces_nothing(api):
    table = new_api_table(api)
    edit, view = table["edit_key"], table["view_key"]
    for path, headers in (
        (f"{API}/v/{view}/keys", {}),
        (f"{API}/t/{view}/keys", {}),
        (f"{API}/table/keys", {"Authorization": f"Bearer {view}"}),
    ):
        answer = api.post(path, json={"link": "edit"}, headers={**EN, **headers})
        assert answer.status_code == 404, path
    for wrong in ({"link": "both"}, {}, {"link": "edit", "also": 1}):
        assert api.post(f"{API}/t/{edit}/keys", json=wrong).status_code == 400
    current = api.get(f"{API}/t/{edit}").get_json()
    assert (current["edit_key"], current["view_key"]) == (edit, view)


def test_an_api_scoreboard_kept_for_the_old_key_is_not_served_to_it(api):
    """The API keeps scoreboards per worker by the match's version (versions.ByVersion):
    reading one with the old key first must not leave it served to that key."""
    table = new_api_table(api)
    edit = table["edit_key"]
    started = api.post(
        f"{API}/t/{edit}/matches",
        json={"rules": "remi", "players": PLAYERS, "first_dealer": PLAYERS[0]},
    ).get_json()
    paths = [f"{API}/t/{edit}/m/{started['id']}", f"{API}/v/{table['view_key']}/m/{started['id']}"]
    for path in paths:
        assert api.get(path).status_code == 200  # kept, at this version
    bearer = {"Authorization": f"Bearer {edit}"}
    assert api.get(f"{API}/table/m/{started['id']}", headers=bearer).status_code == 200
    api.post(f"{API}/t/{edit}/keys", json={"link": "edit"})
    api.post(f"{API}/t/{edit}/keys", json={"link": "view"})  # the old edit key: refused
    for path in paths[:1]:
        answer = api.get(path, headers=EN)
        assert answer.status_code == 404 and answer.get_json()["error"]["message"] == GONE
    assert api.get(f"{API}/table/m/{started['id']}", headers={**bearer, **EN}).status_code == 404
    assert api.get(paths[1]).status_code == 200  # the view key was not replaced


# -- a write with the old key while the key is replaced ------------------------------------


def between_check_and_turn(monkeypatch, api, during):
    """``during`` runs as another phone's request once the next write has read and checked
    what it sends, before its turn under the table's lock (as in test_api.py)."""
    from referee.web.store import writes

    taking_turn = writes.start_writing
    pending = [during]

    def interleave_then_take_turn(*args, **kwargs):
        while pending:
            other = threading.Thread(target=pending.pop(), args=(api,))
            other.start()
            other.join()
        return taking_turn(*args, **kwargs)

    monkeypatch.setattr(writes, "start_writing", interleave_then_take_turn)


@pytest.mark.parametrize("way", ["plain", "general"])
def test_a_round_checked_with_the_old_key_while_it_was_replaced_is_refused_whole(
    api, monkeypatch, way
):
    """A round save reads and checks without the lock, then takes the table's turn: the key
    is replaced in between.  The plain save (rows) and the general one (an Idempotency-Key
    sends it the ORM way) both find the key gone under the lock: 404, nothing saved."""
    table = new_api_table(api)
    edit = table["edit_key"]
    board = api.post(
        f"{API}/t/{edit}/matches",
        json={"rules": "remi", "players": PLAYERS, "first_dealer": PLAYERS[0]},
    ).get_json()
    replaced = []

    def owner(api):
        replaced.append(api.post(f"{API}/t/{edit}/keys", json={"link": "edit"}))

    between_check_and_turn(monkeypatch, api, owner)
    headers = {"If-Match": f'"{board["etag"]}"', **EN}
    if way == "general":
        headers["Idempotency-Key"] = "round-1"
    late = api.post(
        f"{API}/t/{edit}/m/{board['id']}/rounds",
        json={"out": "Marisol", "hands": {"Quillon": ["KH"]}},
        headers=headers,
    )
    assert replaced[0].status_code == 200
    assert late.status_code == 404 and late.get_json()["error"]["message"] == GONE
    new = replaced[0].get_json()["edit_key"]
    now = api.get(f"{API}/t/{new}/m/{board['id']}").get_json()
    assert now["rounds"] == [] and now["version"] == board["version"]


# -- the rate limit ------------------------------------------------------------------------


@pytest.fixture
def limited(template_db, tmp_path):
    path = tmp_path / "limited.db"
    shutil.copy(template_db, path)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "TESTING": True,
            "RATELIMIT_UNKNOWN_LINKS": "4 per minute",
        }
    )
    app.test_client_class = Client
    yield app
    with app.app_context():
        db.engine.dispose()


def test_old_keys_count_against_the_rate_limit_exactly_as_wrong_keys(limited):
    owner = limited.test_client()
    table = new_table(owner, players="")
    old = key_of(table)
    replace(owner, table, "edit")
    wrong = "W" * len(old)
    guesser = limited.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    # Two wrong keys and two old ones use up the four: the fifth, either kind, is refused.
    asked = [f"/t/{wrong}/", f"/t/{old}/", f"{API}/t/{wrong}", f"{API}/t/{old}"]
    assert [guesser.get(path).status_code for path in asked] == [404] * 4
    assert guesser.get(f"/t/{old}/").status_code == 429
    assert guesser.get(f"/t/{wrong}/").status_code == 429
    # Another address: four old keys, and a wrong one is refused after them.
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert [other.get(f"/t/{old}/m/1/").status_code for _ in range(4)] == [404] * 4
    assert other.get(f"{API}/t/{wrong}").status_code == 429
