"""Two phones seat a late player at the same moment: one is seated, the other phone is told.

Real concurrent requests against ``referee serve`` (see ``test_races.py``, whose server
and phones this reuses), on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
from functools import partial

import sqlalchemy as sa

from . import test_races as races
from .realserver import at_once

# The server and a table of test_races.py (fixtures; the phones and engine are conftest's), and
# its steps.
served, table = races.served, races.table
make_match, match_id, save_quick, statuses = (
    races.make_match,
    races.match_id,
    races.save_quick,
    races.statuses,
)

TRIALS = 4


def seating_changes(database, match_url):
    with database.connect() as connection:
        stored = connection.execute(
            sa.text("SELECT seating_changes FROM matches WHERE id = :m"), {"m": match_id(match_url)}
        ).scalar()
    return json.loads(stored) if isinstance(stored, str) else stored


def test_two_joins_at_once_one_is_seated_one_is_told(phones, table, engine):
    a, b = phones
    for trial in range(TRIALS):
        match = make_match(a, table)
        save_quick(a, match, {"Siti": "KH"})
        page, url = match + "seating", match + "seating/join"
        mine = {**a.form(url, page=page), "new_name": f"Dewi{trial}", "after": "Andi"}
        theirs = {**b.form(url, page=page), "new_name": f"Eko{trial}", "after": "Budi"}
        responses = at_once(
            partial(a.post, url, mine), partial(a.post, url, mine), partial(b.post, url, theirs)
        )
        found = statuses(responses)
        [change] = seating_changes(engine, match)
        assert change["before_round"] == 2
        if f"Dewi{trial}" in change["players"]:  # a won; its double tap is answered as done
            assert found == {302: 2, 409: 1}
            assert change["players"] == ["Budi", "Siti", "Andi", f"Dewi{trial}"]
            assert "another phone" in responses[2].text or "ponsel lain" in responses[2].text
        else:
            assert found == {302: 1, 409: 2}
            assert change["players"] == ["Budi", f"Eko{trial}", "Siti", "Andi"]
