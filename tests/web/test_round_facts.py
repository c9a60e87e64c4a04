"""The state kept with a match a round at a time (migration ``0015_roundfacts``): each round's
facts with the round (``rounds.facts``), the state's own in ``match_replays``.  A save writes
its own round's facts and not the rounds' before it; whatever the writes, the kept parts make
the state a whole replay gives; the migration splits kept states and joins them back; a state
kept in the older form is read right or replayed.  On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee.match
from referee.web import MIGRATIONS, create_app
from referee.web.play import appending
from referee.web.store import matchlog, summary
from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchReplay, Round

from .conftest import DATABASE_KINDS as KINDS
from .conftest import SITI_OUT, Client, long_match
from .helpers import RandomWrites
from .realserver import fresh_database

API = "/api/v1"
REPLAYS, ROUNDS = MatchReplay.__table__, Round.__table__


@pytest.fixture(params=KINDS)
def app(request, tmp_path):
    with fresh_database(request.param, tmp_path) as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
        app.test_client_class = Client
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def assert_kept_is_the_replay(app: Any, match_id: int) -> dict[str, Any]:
    """The state kept with the match, made of its own facts and its rounds', is the state a
    whole replay of the stored log gives (with no cache), at the match's version; its facts."""
    with app.app_context(), db.engine.connect() as connection:
        kept = matchlog.kept_replay(connection, match_id)
        log = summary.read_log(connection, match_id)
        version = connection.execute(
            sa.select(Match.version).where(Match.id == match_id)
        ).scalar_one()
    assert kept is not None and log is not None
    entries = [entry for _number, entry, _when in log.rounds]
    whole = referee.match.replay(log.header() | {"rounds": entries}, as_played=True)
    assert kept.key == matchlog.replay_key(log.header(), entries)
    assert kept.version == version
    assert len(kept.rounds) == len(entries) and json.loads(kept.facts)["round_count"] == len(
        entries
    )
    assert kept.whole_facts() == whole.facts()
    assert kept.state(log.header()).facts() == whole.facts()
    return whole.facts()


# -- a save writes its own round's facts -------------------------------------------------------


def written_by_a_save(app: Any, client: Any, match: Any, how: str) -> tuple[list[str], list[str]]:
    """The parameters (as text) of every statement that writes, while the next round of
    ``match`` is saved (``how``: through the API or the round form) in a worker that has
    nothing cached, and every statement run."""
    with app.app_context():
        engine = db.engine
    params: list[str] = []
    seen: list[str] = []

    def spy(_conn, _cursor, statement, parameters, _context, _many):
        seen.append(statement)
        if statement.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "WITH"):
            params.append(json.dumps(parameters, default=str, ensure_ascii=False))

    form = match.page + "rounds/new"
    posted: dict[str, Any] = {}
    if how == "form":  # the page's hidden fields read first (its one-time token)
        posted = {"csrf_token": client.csrf(), **client.hidden_fields(form)}
        posted |= {"ending": "out", "player": "Siti", "hand_0": "2C", "hand_2": "3D 4H"}
        posted["action"] = "save"
    matchlog.REPLAYS.clear()
    sa.event.listen(engine, "before_cursor_execute", spy)
    try:
        if how == "api":
            headers = {"If-Match": match.etag}
            answer = client.post(f"{match.url}/rounds", json=SITI_OUT, headers=headers)
            assert answer.status_code == 201
            match.etag = f'"{answer.get_json()["etag"]}"'
        else:
            answer = client.post(form, data=posted)
            assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
    finally:
        sa.event.remove(engine, "before_cursor_execute", spy)
    return params, seen


@pytest.mark.parametrize("how", ["api", "form"])
def test_a_plain_save_writes_its_own_rounds_facts_and_no_more_as_the_match_grows(
    app, monkeypatch, how
):
    client = app.test_client()
    plain: list[bool] = []
    append = appending.append

    def counted(*args: Any, **kwargs: Any) -> bool:
        plain.append(append(*args, **kwargs))
        return plain[-1]

    short, long = long_match(client, 2), long_match(client, 40)
    with app.app_context(), db.engine.connect() as connection:
        earlier = (
            connection.execute(sa.select(ROUNDS.c.facts).where(ROUNDS.c.match_id == long.match_id))
            .scalars()
            .all()
        )
    assert len(earlier) == 40 and None not in earlier
    monkeypatch.setattr(appending, "append", counted)
    short_written, _short_run = written_by_a_save(app, client, short, how)
    long_written, long_run = written_by_a_save(app, client, long, how)
    assert plain == [True, True]  # both took the plain path
    # No parameter of the save carries a round's facts from before it.
    for facts in earlier:
        text = json.dumps(facts, ensure_ascii=False)[1:-1]  # as it sits in the parameters
        assert not any(text in params for params in long_written)
    # The one round written: its facts (totals after it: Siti 9 a round) with the INSERT.
    assert sum(params.count("totals_after") for params in long_written) == 1
    assert '\\"Siti\\":369' in "".join(long_written)  # 41 x 9
    # The bytes written do not grow with the match: round 41's save writes what round 3's
    # does, but for the digits of its numbers (a rewrite of the facts: 40 x ~250 bytes more).
    short_bytes, long_bytes = sum(map(len, short_written)), sum(map(len, long_written))
    assert long_bytes <= short_bytes + 120, (short_bytes, long_bytes)
    # The kept state is read with the match and its rounds: not by a statement of its own
    # (the one that reads it with its rounds' facts elsewhere, matchlog.KEPT_REPLAY).
    assert not any("UNION ALL" in statement for statement in long_run)
    for match in (short, long):
        assert_kept_is_the_replay(app, match.match_id)


# -- whatever the writes, the kept parts make the replay's state -------------------------------

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["save", "save", "correct", "void", "remove", "seat"]),
        st.integers(0, 2**32 - 1),
        st.booleans(),
    ),
    min_size=3,
    max_size=9,
)


@settings(
    max_examples=6,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_after_any_writes_the_kept_parts_make_the_state_a_whole_replay_gives(app, steps):
    match = RandomWrites(app.test_client())
    for what, seed, cold in steps:
        if cold:
            matchlog.REPLAYS.clear()  # the write lands in a worker that never saw the match
        match.write(what, random.Random(seed))
        assert_kept_is_the_replay(app, match.match_id)


# -- the migration -------------------------------------------------------------------------------


def some_matches(client: Any) -> list[Any]:
    """A long match, one with a void round and a player who joined, one with a deleted round
    (each a :class:`LongMatch` at its version)."""
    long = long_match(client, 12)
    other = long_match(client, 2)
    void = client.post(
        f"{other.url}/rounds", json={"end": "void"}, headers={"If-Match": other.etag}
    )
    assert void.status_code == 201
    seating = client.put(
        f"{other.url}/seating",
        json={"players": ["Budi", "Siti", "Andi", "Dewi"]},
        headers={"If-Match": f'"{void.get_json()["etag"]}"'},
    )
    assert seating.status_code == 200, seating.get_json()
    # Dewi joins with the lowest total (0); Siti out, Budi 2C, Andi 3D 4H, Dewi 5S: Siti 14.
    joined = client.post(
        f"{other.url}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"], "Dewi": ["5S"]}},
        headers={"If-Match": f'"{seating.get_json()["etag"]}"'},
    )
    assert joined.status_code == 201, joined.get_json()
    other.etag = f'"{joined.get_json()["etag"]}"'
    third = long_match(client, 3)
    removed = client.delete(f"{third.url}/rounds/3", headers={"If-Match": third.etag})
    assert removed.status_code == 200, removed.get_json()
    return [long, other, third]


def test_the_migration_splits_the_kept_states_and_joins_them_back(app, monkeypatch):
    client = app.test_client()
    matches = some_matches(client)
    ids = [match.match_id for match in matches]
    facts = {match_id: assert_kept_is_the_replay(app, match_id) for match_id in ids}
    assert [len(facts[match_id]["rounds"]) for match_id in ids] == [12, 4, 2]
    with app.app_context():
        try:
            downgrade(directory=str(MIGRATIONS), revision="0014_ratings")
            with db.engine.begin() as connection:
                columns = {c["name"] for c in sa.inspect(connection).get_columns("rounds")}
                assert "facts" not in columns
                replays = sa.table("match_replays", sa.column("match_id"), sa.column("facts"))
                whole = dict(connection.execute(sa.select(replays)).all())
                # Joined back: each state whole in match_replays, as 0014 kept them.
                assert {match_id: json.loads(whole[match_id]) for match_id in ids} == facts
                # A state kept of other rounds than its match's (here: one too many) is not
                # split: it is removed, and the match's next write keeps it again.
                spoiled = json.loads(whole[ids[0]])
                spoiled["rounds"].append(spoiled["rounds"][-1])
                connection.execute(
                    sa.update(replays)
                    .where(replays.c.match_id == ids[0])
                    .values(facts=json.dumps(spoiled))
                )
            upgrade(directory=str(MIGRATIONS))
            with db.engine.connect() as connection:
                kept = set(connection.execute(sa.select(REPLAYS.c.match_id)).scalars())
                assert summary.check(connection) == []
        finally:
            db.session.remove()
            db.engine.dispose()
    assert kept == set(ids[1:])
    for match_id in ids[1:]:
        assert assert_kept_is_the_replay(app, match_id) == facts[match_id]
    # The next save of a migrated match plays on its kept parts: no whole replay.
    monkeypatch.setattr(referee.match, "replay", lambda *a, **k: pytest.fail("replayed"))
    matchlog.REPLAYS.clear()
    other = matches[1]
    answer = client.post(
        f"{other.url}/rounds",
        json={"out": "Budi", "hands": {"Siti": ["2C"], "Andi": ["3D"], "Dewi": ["4H"]}},
        headers={"If-Match": other.etag},
    )
    # Budi out: 2C 2 + 3D 3 + 4H 4 = 9, on Budi's 0 (Siti 9 x 2 + 14 = 32).
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["totals"] == {"Budi": 9, "Siti": 32, "Andi": 0, "Dewi": 0}
    monkeypatch.undo()
    assert_kept_is_the_replay(app, ids[1])


# -- a state kept in the older form --------------------------------------------------------------


def test_a_state_kept_whole_is_read_right_and_the_next_save_keeps_it_a_round_at_a_time(app):
    client = app.test_client()
    match = long_match(client, 5)
    facts = assert_kept_is_the_replay(app, match.match_id)
    with app.app_context(), db.engine.begin() as connection:  # as the engine before kept it
        connection.execute(sa.update(REPLAYS).values(facts=json.dumps(facts)))
        connection.execute(sa.update(ROUNDS).values(facts=None))
    matchlog.REPLAYS.clear()
    # The score sheet from the state kept whole: Siti 9 a round.
    assert client.get(match.url).get_json()["totals"] == {"Budi": 0, "Siti": 45, "Andi": 0}
    matchlog.REPLAYS.clear()
    answer = client.post(f"{match.url}/rounds", json=SITI_OUT, headers={"If-Match": match.etag})
    assert answer.status_code == 201
    assert answer.get_json()["totals"] == {"Budi": 0, "Siti": 54, "Andi": 0}
    kept = assert_kept_is_the_replay(app, match.match_id)  # a round at a time again
    assert len(kept["rounds"]) == 6


def test_rounds_without_their_facts_are_not_taken_for_the_kept_state(app):
    client = app.test_client()
    match = long_match(client, 4)
    with app.app_context(), db.engine.begin() as connection:  # a round's facts lost
        connection.execute(sa.update(ROUNDS).where(ROUNDS.c.number == 2).values(facts=None))
        found = summary.check(connection)
        assert [(d.figure, d.stored) for d in found] == [("kept replay", "the facts of 3 rounds")]
    matchlog.REPLAYS.clear()
    # The sheet is replayed instead; the save goes the general way and keeps every round's.
    assert client.get(match.url).get_json()["totals"]["Siti"] == 36
    matchlog.REPLAYS.clear()
    answer = client.post(f"{match.url}/rounds", json=SITI_OUT, headers={"If-Match": match.etag})
    assert answer.status_code == 201 and answer.get_json()["totals"]["Siti"] == 45
    assert len(assert_kept_is_the_replay(app, match.match_id)["rounds"]) == 5
    # A round's facts that are not the replay's: history check finds them, --fix rewrites them.
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(
            sa.update(ROUNDS).where(ROUNDS.c.number == 3).values(facts='{"number": 3}')
        )
        assert [d.figure for d in summary.check(connection)] == ["kept replay"]
        assert summary.check(connection, fix=True) != []
        assert summary.check(connection) == []
    assert_kept_is_the_replay(app, match.match_id)
