"""The engine's state kept with a match's summary (``match_replays``): a save plays its round
on it, in a worker that has never replayed the match, and it is always what a whole replay
of the stored log gives (``history check`` compares them).  On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import sqlalchemy as sa

import referee.match
from referee.web import create_app
from referee.web.store import matchlog, summary
from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchReplay

from .conftest import DATABASE_KINDS as KINDS
from .conftest import SITI_OUT, Client, long_match
from .helpers import RandomWrites
from .realserver import fresh_database

API = "/api/v1"


@pytest.fixture(params=KINDS)
def app(request, tmp_path):
    with fresh_database(request.param, tmp_path) as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
        app.test_client_class = Client
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def kept_and_replayed(app: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The facts kept with the (only) match and those of a whole replay of its stored log,
    made with no cache; ``history check`` finds nothing."""
    matchlog.REPLAYS.clear()
    with app.app_context(), db.engine.connect() as connection:
        assert summary.check(connection) == []
        match_id = connection.execute(sa.select(MatchReplay.match_id)).scalar_one()
        kept = matchlog.kept_replay(connection, match_id)  # with its rounds' facts
        log = summary.read_log(connection, match_id)
        assert kept is not None and log is not None
        whole = matchlog.replay(log.header() | {"rounds": [e for _n, e, _w in log.rounds]})
    return kept.whole_facts(), whole.facts()


def test_random_saves_corrections_removals_and_seating_keep_the_state_a_replay_gives(app):
    chance = random.Random(22)
    match = RandomWrites(app.test_client())
    done: dict[str, int] = {}
    for _step in range(24):
        if chance.random() < 0.3:
            matchlog.REPLAYS.clear()  # the next write lands in a worker that never saw the match
        what = chance.choice(["save", "save", "save", "correct", "void", "remove", "seat"])
        written = match.write(what, chance)
        if written is not None:
            done[written] = done.get(written, 0) + 1
        kept, whole = kept_and_replayed(app)
        assert kept == whole
    # The sequence went through every kind of write.
    assert set(done) == set(RandomWrites.KINDS), done


def test_a_save_into_a_long_match_replays_nothing_in_a_fresh_worker(app, monkeypatch):
    client = app.test_client()
    match = long_match(client, 30)
    url, etag, siti_out = match.url, match.etag, SITI_OUT

    def no_whole_replay(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a save replayed the whole match")

    matchlog.REPLAYS.clear()
    monkeypatch.setattr(referee.match, "replay", no_whole_replay)
    # Through the API: round 31 played on the kept state.
    answer = client.post(f"{url}/rounds", json=siti_out, headers={"If-Match": etag})
    assert answer.status_code == 201
    assert answer.get_json()["totals"]["Siti"] == 31 * 9
    # Through the round form, in a worker that has nothing cached either: round 32.
    matchlog.REPLAYS.clear()
    match_page = match.page
    answer = client.submit(
        match_page + "rounds/new",
        {"ending": "out", "player": "Siti", "hand_0": "2C", "hand_2": "3D 4H", "action": "save"},
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
    # The score sheet needs no more than the kept facts hold: shown in a worker that has only
    # the state they make, and in one that has nothing, without a replay.
    page = client.get(match_page)
    assert page.status_code == 200 and f">{32 * 9}<" in page.get_data(as_text=True)
    matchlog.REPLAYS.clear()
    assert client.get(url).get_json()["totals"] == {
        "Budi": 0,
        "Siti": 32 * 9,
        "Andi": 0,
    }
    monkeypatch.undo()
    # A round's page shows its cards: that replays the match.
    assert client.get(match_page + "rounds/1").status_code == 200
    with app.app_context():
        seen = matchlog.outlook(db.session.get(Match, match.match_id))
        assert seen.detailed and all(result.record is not None for result in seen.state.rounds)
    kept, whole = kept_and_replayed(app)
    assert kept == whole
    assert whole["totals"]["Siti"] == 32 * 9 and len(whole["rounds"]) == 32


def test_history_check_finds_a_kept_state_that_is_not_the_replay_and_fix_rewrites_it(app):
    client = app.test_client()
    keys = client.post(
        f"{API}/tables", json={"name": "Meja", "players": ["Budi", "Siti"]}
    ).get_json()
    made = client.post(
        f"{API}/t/{keys['edit_key']}/matches",
        json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    ).get_json()
    url = f"{API}/t/{keys['edit_key']}/m/{made['id']}"
    # Siti goes out, Budi holds QS (10): Siti 10.
    saved = client.post(
        f"{url}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["QS"]}},
        headers={"If-Match": f'"{made["etag"]}"'},
    )
    assert saved.status_code == 201
    kept, whole = kept_and_replayed(app)
    assert kept == whole and whole["totals"] == {"Budi": 0, "Siti": 10}
    replays = MatchReplay.__table__
    with app.app_context(), db.engine.begin() as connection:
        # The state's own facts (its rounds' are kept with them).
        own = json.loads(connection.execute(sa.select(replays.c.facts)).scalar_one())
        assert own["round_count"] == 1 and "rounds" not in own
        wrong = own | {"totals": {"Budi": 0, "Siti": 99}}
        connection.execute(sa.update(replays).values(facts=json.dumps(wrong)))
        found = summary.check(connection)
        assert [(d.figure, json.loads(d.stored)["totals"]) for d in found] == [
            ("kept replay", {"Budi": 0, "Siti": 99})
        ]
        # A state kept of other rounds is never used, and reported too.
        connection.execute(sa.update(replays).values(replay_key="0" * 64))
        assert [(d.figure, d.stored) for d in summary.check(connection)] == [
            ("kept replay", "of other rounds")
        ]
        assert summary.check(connection, fix=True) != []
        assert summary.check(connection) == []
    kept, whole = kept_and_replayed(app)
    assert kept == whole
