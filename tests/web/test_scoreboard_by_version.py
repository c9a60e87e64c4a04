"""The API's scoreboard is kept per worker by the match's version, which every read checks in
the database first: no worker ever answers a scoreboard older than the match, whatever
changed it (a round, a rename on the pages, a deletion) and whichever worker changed it,
and a new match that takes a purged one's id is not mistaken for it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from referee.web import create_app
from referee.web.store import work
from referee.web.store.extensions import db
from referee.web.store.models import Match, now
from referee.web.views.housekeeping import purge_deleted

from .conftest import DATABASE_KINDS as KINDS
from .helpers import new_match, new_table, view_url
from .realserver import fresh_database

API = "/api/v1"
CONFIG = {"TESTING": True, "RATELIMIT_ENABLED": False}


@pytest.fixture(params=KINDS)
def two_workers(request, tmp_path):
    """Two apps on one database, as two gunicorn workers would be."""
    with fresh_database(request.param, tmp_path) as url:
        apps = [create_app({"SQLALCHEMY_DATABASE_URI": url, **CONFIG}) for _ in range(2)]
        yield [app.test_client() for app in apps]
        for app in apps:
            with app.app_context():
                db.session.remove()
                db.engine.dispose()


def test_no_worker_answers_an_older_scoreboard(two_workers):
    one, other = two_workers
    table = one.post(f"{API}/tables", json={"name": "Meja", "players": ["Budi", "Siti"]})
    keys = table.get_json()
    made = one.post(
        f"{API}/t/{keys['edit_key']}/matches",
        json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    ).get_json()
    edit = f"{API}/t/{keys['edit_key']}/m/{made['id']}"
    view = f"{API}/v/{keys['view_key']}/m/{made['id']}"
    for client in (one, other):  # both keep version 1
        assert client.get(view).get_json()["rounds"] == []
    # Siti goes out; Budi holds QS: 10 to Siti.
    saved = one.post(
        f"{edit}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["QS"]}},
        headers={"If-Match": f'"{made["etag"]}"'},
    ).get_json()
    for client in (other, one):
        board = client.get(view)
        assert board.headers["ETag"] == f'"{saved["etag"]}"'
        assert board.get_json()["totals"] == {"Budi": 0, "Siti": 10}
    voided = other.post(f"{edit}/rounds/1/void", headers={"If-Match": f'"{saved["etag"]}"'})
    assert voided.status_code == 200
    for client in (one, other):
        board = client.get(view).get_json()
        assert board["totals"] == {"Budi": 0, "Siti": 0} and board["rounds"][0]["voided"]
        assert board == voided.get_json()  # the same answer as the write's own


def test_each_language_its_own_scoreboard(two_workers):
    one, _other = two_workers
    keys = one.post(f"{API}/tables", json={"name": "Meja", "players": ["Budi", "Siti"]}).get_json()
    made = one.post(
        f"{API}/t/{keys['edit_key']}/matches",
        json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    ).get_json()
    url = f"{API}/t/{keys['edit_key']}/m/{made['id']}"
    one.post(
        f"{url}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["QS"]}},
        headers={"If-Match": f'"{made["etag"]}"'},
    )
    english = one.get(url, headers={"Accept-Language": "en"}).get_json()["rounds"][0]["label"]
    indonesian = one.get(url, headers={"Accept-Language": "id"}).get_json()["rounds"][0]["label"]
    assert english != indonesian
    assert one.get(url, headers={"Accept-Language": "en"}).get_json()["rounds"][0]["label"] == (
        english
    )


@pytest.fixture
def table(client):
    return new_table(client, players="Budi, Siti, Andi")


def scoreboard_url(client, table, match):
    return f"{API}{view_url(client, table)}m/{match.rstrip('/').rsplit('/', 1)[1]}"


def test_a_rename_on_the_pages_reaches_the_scoreboard(client, table):
    match = new_match(client, table, "remi", ["Budi", "Siti"])
    url = scoreboard_url(client, table, match)
    assert client.get(url).get_json()["players"] == ["Budi", "Siti"]
    page = client.get(table + "settings").text
    ids = dict(
        (name, number)
        for number, name in re.findall(
            r'/settings/players/(\d+)".*?name="p\1-was"[^>]*?value="([^"]+)"', page, re.S
        )
    )
    p = f"p{ids['Budi']}"
    renamed = client.submit(
        table + f"settings/players/{ids['Budi']}", {f"{p}-was": "Budi", f"{p}-name": "Bambang"}
    )
    assert renamed.status_code == 302
    board = client.get(url).get_json()
    assert board["players"] == ["Bambang", "Siti"] and board["first_dealer"] == "Bambang"


def test_a_deleted_match_is_gone_and_its_id_taken_again_is_another_match(client, app, table):
    match = new_match(client, table, "remi", ["Budi", "Siti"])
    url = scoreboard_url(client, table, match)
    assert client.get(url).get_json()["players"] == ["Budi", "Siti"]
    assert client.submit(match + "delete").status_code == 302
    assert client.get(url).status_code == 404
    with app.app_context():
        stored = db.session.scalars(select(Match)).one()
        stored.deleted_at = now() - timedelta(days=31)
        work.commit(stored)
        assert purge_deleted() == [stored.id]
        work.commit(stored.id)
    again = new_match(client, table, "remi", ["Siti", "Andi"])
    assert again == match  # SQLite gives the purged match's id to the new one, at version 1
    assert client.get(url).get_json()["players"] == ["Siti", "Andi"]
