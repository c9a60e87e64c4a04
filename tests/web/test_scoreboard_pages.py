"""The score sheet page is rendered once per match version, language and link, and shared by
every phone that follows the match (views/livepage.py); a phone that names the parts it shows
gets only the parts that changed.

Totals are derived by hand from RULES.md (remi: the player who goes out scores what the
others hold: 2C is 2, KH is 10)."""

from __future__ import annotations

import json
import re
import threading

import pytest

from referee.web.views import livepage

from .helpers import errors, new_match, new_table, save_round, to_english, totals, view_url

TWO = ["Budi", "Siti"]
PARTS = re.compile(r'data-live-parts="([^"]*)"')


def renders() -> int:
    return livepage.RENDERS["count"]


def listing(page: str) -> str:
    found = PARTS.search(page)
    assert found, "the page lists no parts"
    return found.group(1)


def phones(app, count):
    from .conftest import Client

    app.test_client_class = Client
    return [app.test_client() for _ in range(count)]


@pytest.fixture
def match(client):
    """A remi match of Budi and Siti with one round: Siti out, Budi holds KH (10): Siti 10."""
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi")
    url = new_match(client, table, "remi", TWO, target=200)
    response = save_round(client, url, TWO, {"Budi": "KH"}, ending="out", player="Siti")
    assert response.status_code == 302, errors(response)
    return table, url


def test_four_phones_share_one_render_per_change(app, client, match):
    table, url = match
    view = view_url(client, table) + url.split("/", 3)[3]
    four = phones(app, 4)
    before = renders()
    pages = [phone.get(view) for phone in four]
    assert [page.status_code for page in pages] == [200] * 4
    assert renders() == before + 1
    assert len({listing(page.text) for page in pages}) == 1
    # Round 2: Budi out, Siti holds 2C: Budi 2.  The four phones see it: one render more.
    response = save_round(client, url, TWO, {"Siti": "2C"}, ending="out", player="Budi")
    assert response.status_code == 302, errors(response)
    pages = [phone.get(view) for phone in four]
    assert renders() == before + 2
    assert all(totals(page) == [2, 10] for page in pages)
    # The four at the same moment after round 3 (Siti out, Budi 2C: Siti 12): one render.
    response = save_round(client, url, TWO, {"Budi": "2C"}, ending="out", player="Siti")
    assert response.status_code == 302, errors(response)
    start = threading.Barrier(4)
    seen: list = []

    def look(phone):
        start.wait()
        seen.append(phone.get(view))

    threads = [threading.Thread(target=look, args=(phone,)) for phone in four]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [page.status_code for page in seen] == [200] * 4
    assert all(totals(page) == [2, 12] for page in seen)
    assert renders() == before + 3


def test_a_view_link_never_gets_the_edit_page(client, match):
    table, url = match
    edit_key = url.split("/")[2]
    view = view_url(client, table) + url.split("/", 3)[3]
    edited = client.get(url).text  # the edit link's page is rendered (and kept) first
    assert "rounds/1/edit" in edited and 'name="csrf_token"' in edited
    shown = client.get(view).text
    assert edit_key not in shown
    assert "rounds/1/edit" not in shown and "rounds/new" not in shown and "/archive" not in shown
    assert "view only" in shown and totals(client.get(view)) == [0, 10]


def test_each_language_its_own_page(app, client, match):
    _table, url = match
    english, indonesian = phones(app, 2)
    to_english(english)
    assert "Score sheet" in english.get(url).text
    page = indonesian.get(url).text
    assert "Lembar skor" in page and "Score sheet" not in page
    assert "Score sheet" in english.get(url).text and "Lembar skor" not in english.get(url).text


def test_each_phone_its_own_form_token_and_once_token(app, client, match):
    _table, url = match
    other = phones(app, 1)[0]
    mine, theirs = client.get(url).text, other.get(url).text
    token = re.compile(r'data-confirm-post="([^"]+)"')
    assert token.search(mine).group(1) != token.search(theirs).group(1)
    assert livepage.TOKEN_MARK not in mine + theirs and livepage.ONCE_MARK not in mine + theirs
    # The other phone archives the match with the token its page gave it.
    version = re.search(r'name="match_version" value="(\d+)"', theirs).group(1)
    response = other.post(
        url + "archive",
        data={"csrf_token": token.search(theirs).group(1), "match_version": version},
    )
    assert response.status_code == 302, errors(response)
    assert "This match is archived" in client.get(url).text


def test_every_kind_of_change_shows_on_the_next_look(app, client, match):
    table, url = match
    phone = phones(app, 1)[0]
    to_english(phone)

    def look() -> str:
        return phone.get(url).text

    assert totals(phone.get(url)) == [0, 10]
    # A round saved: round 2, Budi out, Siti holds KH: Budi 10.
    save_round(client, url, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    assert 'data-part="sheet/r2"' in look() and totals(phone.get(url)) == [10, 10]
    # Corrected: round 2, Siti holds 2C instead: Budi 2.
    response = client.submit(
        url + "rounds/2/edit",
        {"hand_0": "", "hand_1": "2C", "ending": "out", "player": "Budi", "action": "save"},
    )
    assert response.status_code == 302, errors(response)
    assert totals(phone.get(url)) == [2, 10]
    # Seating: Andi joins before round 3 with the lowest total, 2.
    response = client.submit(
        url + "seating/join", {"new_name": "Dewi", "after": "Siti"}, page=url + "seating"
    )
    assert response.status_code == 302, errors(response)
    assert "Dewi joins (starts at 2)" in look() and totals(phone.get(url)) == [2, 10, 2]
    # Renamed: Budi is Bambang everywhere.
    settings = client.get(table + "settings").text
    budi = re.search(r'/settings/players/(\d+)".*?name="p\1-was"[^>]*?value="Budi"', settings, re.S)
    number = budi.group(1)
    response = client.submit(
        table + f"settings/players/{number}",
        {f"p{number}-was": "Budi", f"p{number}-name": "Bambang"},
        fresh=False,
    )
    assert response.status_code == 302, errors(response)
    page = look()
    assert "Bambang" in page and ">Budi<" not in page
    # Options: a new match's target changed before its first round.
    other = new_match(client, table, "remi", ["Siti", "Andi"], target=200)
    assert "to 200 points" in phone.get(other).text
    response = client.submit(
        other + "setup",
        {"seat_0": "Siti", "seat_1": "Andi", "first_dealer": "Siti", "target": "100"},
    )
    assert response.status_code == 302, errors(response)
    page = phone.get(other).text
    assert "to 100 points" in page and "to 200 points" not in page


def save_by_api(client, path: str, etag: str, out: str, holder: str) -> str:
    response = client.post(
        f"{path}/rounds",
        json={"out": out, "hands": {holder: ["2C"]}},
        headers={"If-Match": f'"{etag}"'},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["etag"]


def test_a_one_round_change_sends_only_what_changed(client):
    keys = client.post("/api/v1/tables", json={"name": "Meja", "players": TWO}).get_json()
    made = client.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={"rules": "remi", "players": TWO, "first_dealer": "Budi", "options": {"target": 1000}},
    ).get_json()
    path, etag = f"/api/v1/t/{keys['edit_key']}/m/{made['id']}", made["etag"]
    for number in range(60):  # each round: one goes out, the other holds 2C (2)
        out, holder = (TWO[number % 2], TWO[(number + 1) % 2])
        etag = save_by_api(client, path, etag, out, holder)
    page = f"/v/{keys['view_key']}/m/{made['id']}/"
    whole = client.get(page)
    assert len(whole.data) > 40_000 and totals(whole) == [60, 60]
    have = listing(whole.text)
    # Round 61: Budi out, Siti holds 2C: Budi 62.
    etag = save_by_api(client, path, etag, "Budi", "Siti")
    update = client.get(page, headers={livepage.HAVE_HEADER: have})
    assert update.headers.get(livepage.PATCH_HEADER) == "1"
    assert len(update.data) < 20_000
    sent = re.findall(r'<template data-part="([^"]+)">', update.text)
    assert {"sheet/r61", "entries/e61", "sheet/foot", "head", "chart"} <= set(sent)
    assert not {f"sheet/r{n}" for n in range(1, 61)} & set(sent)
    fresh = client.get(page)
    assert listing(update.text) == listing(fresh.text) and totals(fresh) == [62, 60]
    assert "<template" not in fresh.text  # a phone that names nothing gets the page
    # A phone that shows another frame, or names nonsense, gets the whole page, never an error.
    for named in ("frame=000000000000 head=1", "x" * 8000, "=", ""):
        answer = client.get(page, headers={livepage.HAVE_HEADER: named})
        assert answer.status_code == 200 and livepage.PATCH_HEADER not in answer.headers
        assert totals(answer) == [62, 60]


def test_a_change_on_another_worker_is_seen(app, client, match):
    """Two apps on one database, as two gunicorn workers (each its own cache in the real
    server; here they share the process's, keyed by version all the same)."""
    from referee.web import create_app

    from .conftest import TEST_CONFIG, Client

    _table, url = match
    same_server = {name: app.config[name] for name in ("SQLALCHEMY_DATABASE_URI", "PAGES_DIR")}
    other_app = create_app({**same_server, **TEST_CONFIG})
    other_app.test_client_class = Client
    other = other_app.test_client()
    to_english(other)
    assert totals(other.get(url)) == [0, 10]
    save_round(client, url, TWO, {"Siti": "2C"}, ending="out", player="Budi")  # Budi 2
    assert totals(other.get(url)) == [2, 10]


def test_another_worker_takes_the_page_from_disk_with_its_own_marks(
    app, client, match, monkeypatch
):
    """A second worker (another process: its marks differ) finds the page the first rendered
    in the server's folder: no render of its own, and each phone's form token in it works."""
    from referee.web import create_app

    from .conftest import TEST_CONFIG, Client

    _table, url = match
    assert client.get(url).status_code == 200  # rendered here, and on disk
    for name in ("TOKEN_MARK", "ONCE_MARK", "FLASH_MARK"):
        monkeypatch.setattr(livepage, name, f"{name.lower()}-of-another-process")
    monkeypatch.setattr(
        livepage, "MARKS", (livepage.TOKEN_MARK, livepage.ONCE_MARK, livepage.FLASH_MARK)
    )
    monkeypatch.setattr(
        livepage,
        "FLASHED",
        f'<p class="flash {livepage.FLASH_MARK}" role="status">{livepage.FLASH_MARK}</p>',
    )
    livepage.PAGES.clear()
    same_server = {name: app.config[name] for name in ("SQLALCHEMY_DATABASE_URI", "PAGES_DIR")}
    other_app = create_app({**same_server, **TEST_CONFIG})
    other_app.test_client_class = Client
    phone = other_app.test_client()
    to_english(phone)  # the page the first phone saw
    before = renders()
    page = phone.get(url).text
    assert renders() == before
    assert "csrf-" not in page and "once-" not in page and "flash-" not in page
    assert "of-another-process" not in page
    token = re.search(r'data-confirm-post="([^"]+)"', page).group(1)
    version = re.search(r'name="match_version" value="(\d+)"', page).group(1)
    response = phone.post(url + "archive", data={"csrf_token": token, "match_version": version})
    assert response.status_code == 302, errors(response)


def test_a_damaged_page_on_disk_costs_a_render_not_an_error(app, client, match):
    _table, url = match
    assert client.get(url).status_code == 200
    kept_pages = list(livepage.kept_pages_folder(app).glob("*.json"))
    assert kept_pages
    for kept in kept_pages:
        kept.write_text('{"key": "cut sh')
    livepage.PAGES.clear()
    before = renders()
    answer = client.get(url)
    assert answer.status_code == 200 and totals(answer) == [0, 10]
    assert renders() == before + 1


def test_a_page_kept_in_another_format_costs_a_render(app, client, match):
    """A file a worker of an older version wrote (another format) is not read."""
    _table, url = match
    assert client.get(url).status_code == 200
    kept_pages = list(livepage.kept_pages_folder(app).glob("*.json"))
    assert kept_pages
    for kept in kept_pages:
        written = json.loads(kept.read_text())
        kept.write_text(json.dumps({**written, "format": livepage.SharedPages.FORMAT - 1}))
    livepage.PAGES.clear()
    before = renders()
    answer = client.get(url)
    assert answer.status_code == 200 and totals(answer) == [0, 10]
    assert renders() == before + 1
