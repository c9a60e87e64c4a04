"""Two API clients at the same moment, for real: concurrent requests against ``referee serve``
(gunicorn, three worker processes) on SQLite and PostgreSQL.  One outcome per race: one
201, one 409 naming the new version; a repeat with the same Idempotency-Key saves once;
never a 500."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial

import pytest
import requests
import sqlalchemy as sa

from .conftest import DATABASE_KINDS as KINDS
from .realserver import at_once, served_database

TRIALS = 5


@pytest.fixture(scope="module", params=KINDS)
def served(request, tmp_path_factory):
    with served_database(request.param, tmp_path_factory.mktemp("api-races")) as both:
        yield both


def call(method, url, **kwargs):
    return requests.request(method, url, timeout=60, **kwargs)


def new_match(base):
    table = call(
        "POST", f"{base}/api/v1/tables", json={"name": "Meja", "players": ["Budi", "Siti"]}
    )
    assert table.status_code == 201, table.text
    key = table.json()["edit_key"]
    made = call(
        "POST",
        f"{base}/api/v1/t/{key}/matches",
        json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    )
    assert made.status_code == 201, made.text
    return f"{base}/api/v1/t/{key}/m/{made.json()['id']}", made.json()["etag"]


def stored_hands(engine, match_url):
    match_id = int(match_url.rsplit("/", 1)[1])
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text("SELECT entry FROM rounds WHERE match_id = :m ORDER BY number"), {"m": match_id}
        ).all()
    return [(e if isinstance(e, dict) else json.loads(e))["hands"]["Budi"] for (e,) in rows]


def test_two_clients_saving_a_round_from_the_same_version_one_201_one_409(served):
    server, engine = served
    for _ in range(TRIALS):
        url, etag = new_match(server.url)
        send = partial(call, "POST", f"{url}/rounds", headers={"If-Match": f'"{etag}"'})
        responses = at_once(
            partial(send, json={"out": "Siti", "hands": {"Budi": ["QS"]}}),
            partial(send, json={"out": "Siti", "hands": {"Budi": ["2H"]}}),
        )
        assert Counter(r.status_code for r in responses) == {201: 1, 409: 1}
        won, lost = sorted(responses, key=lambda r: r.status_code)
        assert lost.json()["error"]["etag"] == won.json()["etag"]
        kept = ["QS"] if won.json()["totals"]["Siti"] == 10 else ["2H"]  # QS 10, 2H 2
        assert stored_hands(engine, url) == [kept]


def test_the_same_round_sent_twice_with_one_idempotency_key_is_saved_once(served):
    server, engine = served
    for trial in range(TRIALS):
        url, etag = new_match(server.url)
        headers = {"If-Match": f'"{etag}"', "Idempotency-Key": f"once-{trial}"}
        send = partial(
            call,
            "POST",
            f"{url}/rounds",
            headers=headers,
            json={"out": "Siti", "hands": {"Budi": ["QS"]}},
        )
        responses = at_once(send, send)
        assert [r.status_code for r in responses] == [201, 201]
        assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in responses) == 1
        assert stored_hands(engine, url) == [["QS"]]


def test_eight_clients_from_one_version_one_201_seven_409(served):
    """Eight writers at once queue for the one match (on SQLite in the kernel's queue before
    the file): exactly one round saved, the others told of the version it made."""
    server, engine = served
    for _ in range(2):
        url, etag = new_match(server.url)
        send = partial(call, "POST", f"{url}/rounds", headers={"If-Match": f'"{etag}"'})
        hands = ["QS", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]
        responses = at_once(
            *[partial(send, json={"out": "Siti", "hands": {"Budi": [card]}}) for card in hands]
        )
        assert Counter(r.status_code for r in responses) == {201: 1, 409: 7}
        won = next(r for r in responses if r.status_code == 201)
        assert {r.json()["error"]["etag"] for r in responses if r.status_code == 409} == {
            won.json()["etag"]
        }
        assert len(stored_hands(engine, url)) == 1
