"""Issue 21, cases 2 and 3, with real concurrent requests (gunicorn, three workers, SQLite and
PostgreSQL; see ``realserver.py``): a live turn from a stale page is checked on the round as
it is now, and the same deal entered on two phones is saved once.
"""

from __future__ import annotations

from functools import partial

import pytest
import sqlalchemy as sa

from .conftest import DATABASE_KINDS as KINDS
from .realserver import Phone, at_once, fresh_database, start_server
from .test_races import make_match, make_table, stored_rounds

TRIALS = 4
TWO = ["Budi", "Siti"]


@pytest.fixture(scope="module", params=KINDS)
def served(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("samedeal")
    with fresh_database(request.param, tmp) as database:
        server = start_server(database, tmp)
        engine = sa.create_engine(database)
        try:
            yield server, engine
        finally:
            server.stop()
            engine.dispose()
            log = server.log.read_text()
            assert "Traceback" not in log, log


@pytest.fixture
def phones(served):
    server, _engine = served
    return Phone(server.url), Phone(server.url)


@pytest.fixture
def engine(served):
    return served[1]


def statuses(responses):
    found = {r.status_code for r in responses}
    assert 500 not in found, [r.text[:400] for r in responses if r.status_code >= 500]
    return sorted(r.status_code for r in responses)


# -- case 3: live turns from a stale page -------------------------------------------------


def test_two_players_turns_typed_at_once_are_both_saved_in_either_order(phones, engine):
    """Two players, Budi dealing: Siti leads, then Budi, then Siti.  Both turns are typed on
    pages that show no turn; whichever lands second is the other player's turn on the round
    as the first left it, so both are saved, none refused for a stale page."""
    a, b = phones
    table = make_table(a, TWO)
    for _ in range(TRIALS):
        match = make_match(a, table, TWO)
        turn = match + "live/turn"
        form_a, form_b = a.form(turn), b.form(turn)
        siti = {**form_a, "player": "Siti", "melds": "7S 8S 9S", "action": "save"}
        budi = {**form_b, "player": "Budi", "melds": "2H 3H 4H", "action": "save"}
        responses = at_once(partial(a.post, turn, siti), partial(b.post, turn, budi))
        assert statuses(responses) == [302, 302]
        [(_n, entry, complete)] = stored_rounds(engine, match)
        assert not complete
        assert sorted(t["player"] for t in entry["turns"]) == ["Budi", "Siti"]
        assert sorted(t["melds"][0][0] for t in entry["turns"]) == ["2H", "7S"]


def test_the_same_turn_typed_on_two_phones_at_once_is_saved_once(phones, engine):
    a, b = phones
    table = make_table(a, TWO)
    for _ in range(TRIALS):
        match = make_match(a, table, TWO)
        turn = match + "live/turn"
        form_a, form_b = a.form(turn), b.form(turn)
        one = {**form_a, "player": "Siti", "melds": "7S 8S 9S", "action": "save"}
        other = {**form_b, "player": "Siti", "melds": "7S 8S 9S", "discard": "2C"}
        responses = at_once(
            partial(a.post, turn, one), partial(b.post, turn, {**other, "action": "save"})
        )
        assert statuses(responses) == [302, 409]
        [(_n, entry, _c)] = stored_rounds(engine, match)
        assert [t["player"] for t in entry["turns"]] == ["Siti"]
