"""Each player's totals move by the difference of the match a write changed, not by adding up
every match again: after every kind of write, over several matches of the same players,
they are what a count from scratch (``history check``) says.  On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from referee.web import create_app
from referee.web.store import summary
from referee.web.store.extensions import db
from referee.web.store.models import Player, PlayerTotal

from .conftest import DATABASE_KINDS as KINDS
from .helpers import new_api_match
from .realserver import fresh_database

API = "/api/v1"


@pytest.fixture(params=KINDS)
def app(request, tmp_path):
    with fresh_database(request.param, tmp_path) as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def totals(app):
    """Siti's and Budi's stored totals (best round, matches, points); the check finds nothing."""
    with app.app_context(), db.engine.connect() as connection:
        assert summary.check(connection) == []
        rows = connection.execute(
            sa.select(Player.name, PlayerTotal.__table__).join(
                Player, Player.id == PlayerTotal.player_id
            )
        ).all()
    return {row.name: (row.best_round, row.matches, row.points) for row in rows}


def test_totals_follow_every_write_over_several_matches(app):
    client = app.test_client()
    keys = client.post(
        f"{API}/tables", json={"name": "Meja", "players": ["Budi", "Siti"]}
    ).get_json()
    etags, urls = {}, {}
    for number in range(3):
        made = client.post(
            f"{API}/t/{keys['edit_key']}/matches",
            json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
        ).get_json()
        urls[number], etags[number] = f"{API}/t/{keys['edit_key']}/m/{made['id']}", made["etag"]

    def write(number, method, path="", **kwargs):
        answer = client.open(
            urls[number] + path,
            method=method,
            headers={"If-Match": f'"{etags[number]}"'},
            **kwargs,
        )
        assert answer.status_code in (200, 201), answer.get_json()
        etags[number] = answer.get_json()["etag"]
        return totals(app)

    def siti_out(*cards):  # Siti goes out; Budi's cards left are Siti's points
        return {"json": {"out": "Siti", "hands": {"Budi": list(cards)}}}

    assert totals(app) == {}  # no round yet: nothing counted
    # Match 0: Siti 10 (QS). Match 1: Siti 25 (KS QS 5H), her best. Match 2: Siti 2 (2C).
    write(0, "POST", "/rounds", **siti_out("QS"))
    write(1, "POST", "/rounds", **siti_out("KS", "QS", "5H"))
    found = write(2, "POST", "/rounds", **siti_out("2C"))
    assert found["Siti"] == (25, 3, 37)
    # Her best round corrected down (25 -> 3): the best is now match 0's 10.
    found = write(1, "PUT", "/rounds/1", **siti_out("3H"))
    assert found["Siti"] == (10, 3, 15)
    # Match 0's round voided: that match no longer counts; the best is 3.
    found = write(0, "POST", "/rounds/1/void")
    assert found["Siti"] == (3, 2, 5)
    found = write(0, "POST", "/rounds/1/restore")
    assert found["Siti"] == (10, 3, 15)
    # A second round in match 2 (Budi out, Siti's JH: 10 to Budi), then removed again.
    found = write(2, "POST", "/rounds", json={"out": "Budi", "hands": {"Siti": ["JH"]}})
    assert found["Siti"] == (10, 3, 15) and found["Budi"][1:] == (3, 10)
    found = write(2, "DELETE", "/rounds/2")
    assert found["Siti"] == (10, 3, 15) and found["Budi"][1:] == (3, 0)
    # Match 2's only round removed: two matches count.
    found = write(2, "DELETE", "/rounds/1")
    assert found["Siti"] == (10, 2, 13) and found["Budi"][1:] == (2, 0)


def test_a_total_missing_when_it_should_move_is_counted_again(app):
    """The moving statement finds one row of two (Siti's was lost): both are added up again."""
    client = app.test_client()
    url, etag = new_api_match(lambda path, body: client.post(path, json=body).get_json())
    first = client.post(
        f"{url}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["QS"]}},
        headers={"If-Match": f'"{etag}"'},
    )
    assert totals(app)["Siti"] == (10, 1, 10)
    with app.app_context(), db.engine.begin() as connection:
        siti = connection.execute(sa.select(Player.id).where(Player.name == "Siti")).scalar()
        connection.execute(sa.delete(PlayerTotal).where(PlayerTotal.player_id == siti))
    second = client.post(
        f"{url}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["2C"]}},
        headers={"If-Match": f'"{first.get_json()["etag"]}"'},
    )
    assert second.status_code == 201
    # Siti: 10 (QS) then 2 (2C): best 10, one match, 12 points; Budi scored 0 in both.
    assert totals(app) == {"Siti": (10, 1, 12), "Budi": (0, 1, 0)}
