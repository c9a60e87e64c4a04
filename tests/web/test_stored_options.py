"""A match stored before the house rules had ranges keeps replaying as it was played.

Before the option ranges of RULES.md's House rules, the app took any target from 1 up,
so a family's database may hold a remi match to 20 (now refused for a new match: remi's
target goes from 50 to 10000).  Such a match is stored here through the models, as the
old app stored it, and must still replay, show its scoreboard, take rounds, export and
import back; a new match to 20 is refused with the range (docs/house-rules.md, its Decision).
"""

from __future__ import annotations

import json
import re

import pytest
import sqlalchemy as sa

from referee.web.store import summary, work
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match, MatchPlayer, Player, Round

from .helpers import errors, new_table, save_round, text, to_english, totals

TWO = ["Budi", "Siti"]
REFUSED = "goes from 50 to 10000, not 20"
# Round 1: Budi out, Siti holds KH = 10: Budi 10, below the match's target 20.
ROUND_1 = {"out": "Budi", "hands": {"Siti": ["KH"]}}


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(model))


def store_old_match(client, app, rounds: list[dict]) -> tuple[str, str]:
    """A table of Budi and Siti and, stored as the old app did, a remi match to 20 with
    ``rounds``: the table's URL and the match's."""
    to_english(client)
    table = new_table(client, players="Budi, Siti", name="Meja Lama")
    with app.app_context():
        found = db.session.scalar(sa.select(CardTable).where(CardTable.name == "Meja Lama"))
        assert found is not None
        players = {p.name: p for p in db.session.scalars(sa.select(Player)) if p.table == found}
        match = Match(table=found, rules="remi", options={"target": 20}, first_dealer="Budi")
        for seat, name in enumerate(TWO):
            match.seats.append(MatchPlayer(seat=seat, player=players[name]))
        for number, entry in enumerate(rounds, start=1):
            match.stored_rounds.append(Round(number=number, entry=entry))
        db.session.add(match)
        work.commit(match)
        match_id = match.id
    return table, f"{table}m/{match_id}/"


@pytest.fixture
def stored(client, app) -> tuple[str, str]:
    """The old remi match to 20, with round 1 played."""
    return store_old_match(client, app, [ROUND_1])


def test_a_stored_match_to_20_replays_and_takes_rounds_to_its_own_target(client, app, stored):
    table, match = stored
    board = client.get(match)
    assert board.status_code == 200
    assert "cannot replay" not in text(board)
    assert totals(board) == [10, 0]
    # Round 2: Budi out, Siti holds QH JH = 20: Budi 10 + 20 = 30 >= 20, he wins (under
    # the default target 100 the match would go on).
    response = save_round(client, match, TWO, {"Siti": "QH JH"}, ending="out", player="Budi")
    assert response.status_code == 302, errors(response)
    board = client.get(match)
    assert totals(board) == [30, 0] and "Winner" in text(board)
    # The stored summary (the lists, the statistics) and the history check agree.
    with app.app_context(), db.engine.connect() as connection:
        assert summary.check(connection) == []
        state = connection.execute(sa.text("SELECT state FROM match_summaries")).scalar_one()
    assert state == "finished"
    stats = text(client.get(table + "stats"))
    assert '<tr data-player="Budi">' in stats


def test_a_stored_match_to_20_exports_and_imports_back(client, app, stored):
    table, match = stored
    csv_text = client.get(match + "export.csv").data.decode("utf-8-sig")
    assert csv_text.splitlines()[1].startswith("1,Budi,went out,Budi,10,0,10,0")
    exported = json.loads(client.get(match + "export").data)
    assert exported["options"] == {"target": 20} and exported["rounds"] == [ROUND_1]
    # One match, into a table: it has a round, so it restores a match already played.
    other = new_table(client, players="", name="Meja Baru")
    response = client.submit(other + "import", {"document": json.dumps(exported)})
    assert response.status_code == 302, errors(response)
    again = response.headers["Location"]
    assert json.loads(client.get(again + "export").data) == exported
    assert totals(client.get(again)) == [10, 0]
    # The whole table: every match of the export says when it was started.
    whole = json.loads(client.get(table + "export.json").data)
    response = client.submit("/tables/import", {"document": json.dumps(whole)})
    assert response.status_code == 302, errors(response)
    copy = response.headers["Location"]
    assert json.loads(client.get(copy + "export.json").data) == whole


def test_a_stored_match_to_20_not_played_yet_travels_in_its_table(client, app):
    table, match = store_old_match(client, app, [])
    whole = json.loads(client.get(table + "export.json").data)
    assert whole["matches"][0]["rounds"] == [] and "started" in whole["matches"][0]
    response = client.submit("/tables/import", {"document": json.dumps(whole)})
    assert response.status_code == 302, errors(response)
    # Alone, without rounds and without "started", it is a new match: refused.
    alone = json.loads(client.get(match + "export").data)
    tables, matches = count(app, CardTable), count(app, Match)
    response = client.submit(table + "import", {"document": json.dumps(alone)})
    assert response.status_code == 400 and REFUSED in " ".join(errors(response))
    assert (count(app, CardTable), count(app, Match)) == (tables, matches)


def test_a_new_match_to_20_is_refused_with_the_range(client, app, stored):
    table, _match = stored
    matches = count(app, Match)
    response = client.submit(
        f"{table}new/remi",
        {
            "seat_0": "Budi",
            "seat_1": "Siti",
            "first_dealer": "Budi",
            "target": "custom",
            "custom_target": "20",
        },
    )
    # The setup form checks the range the engine declares, in its own words.
    said = " ".join(errors(response))
    assert response.status_code == 400 and "Enter a target from 50 to 10000." in said
    # A new document without rounds, in a table import: refused, nothing created.
    document = {
        "format": "referee-table/1",
        "name": "Meja",
        "matches": [{"rules": "remi", "options": {"target": 20}, "players": TWO}],
    }
    tables = count(app, CardTable)
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 400 and REFUSED in " ".join(errors(response))
    assert (count(app, CardTable), count(app, Match)) == (tables, matches)


def test_a_rematch_of_a_stored_match_to_20_is_refused_with_the_range(client, app, stored):
    _table, match = stored
    # Budi out with Siti's QH JH (20): Budi 30 >= 20, the match is over.
    save_round(client, match, TWO, {"Siti": "QH JH"}, ending="out", player="Budi")
    matches = count(app, Match)
    assert re.search(r'action="[^"]*rematch"', client.get(match).text)
    response = client.submit(match + "rematch", {}, follow_redirects=True)
    assert response.status_code == 200
    assert "The rematch cannot keep this match's house rules" in text(response)
    assert REFUSED in text(response) and count(app, Match) == matches


def test_an_api_match_to_20_is_refused_with_the_range(api):
    keys = api.post("/api/v1/tables", json={"name": "Meja", "players": TWO}).get_json()
    response = api.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={"rules": "remi", "players": TWO, "options": {"target": 20}},
        headers={"Accept-Language": "en"},
    )
    # A request whose options the ruleset refuses is a bad request (400), in the engine's words.
    assert response.status_code == 400
    assert REFUSED in str(response.get_json()["error"])
