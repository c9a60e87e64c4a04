"""The summary kept with each match: rewritten with every change of the log, checked against it.

Every write path below goes through the app's views; after each one the
stored summary must say what the log says (``summary.check`` finds no
difference) and hold the hand-computed figures.
"""

from __future__ import annotations

import json
import os
import re

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from referee.web import MIGRATIONS
from referee.web.store import summary, work
from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchSummary, Round, SeatSummary

from .conftest import DATABASE_KINDS as DATABASES
from .conftest import migrated_app
from .helpers import errors, new_match, new_table, round_data, save_round

TWO = ["Budi", "Siti"]
THREE = ["Budi", "Siti", "Andi"]


def stored(app, match_url: str) -> tuple[dict, dict[str, dict]]:
    """The match's stored summary and its seats by player name; the check must find nothing."""
    match_id = int(match_url.rstrip("/").split("/")[-1])
    with app.app_context(), db.engine.connect() as connection:
        assert summary.check(connection) == []
        row = connection.execute(
            sa.select(MatchSummary.__table__).where(MatchSummary.match_id == match_id)
        ).one()
        seats = connection.execute(
            sa.text(
                "SELECT p.name, s.* FROM seat_summaries s JOIN players p ON p.id = s.player_id "
                "WHERE s.match_id = :m"
            ),
            {"m": match_id},
        )
        return dict(row._mapping), {seat.name: dict(seat._mapping) for seat in seats}


@pytest.fixture
def table(client):
    return new_table(client)


def test_a_new_match_has_a_summary_before_any_round(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    found, seats = stored(app, match)
    assert (found["state"], found["rounds"], found["rounds_played"]) == ("playing", 0, 0)
    assert set(seats) == set(TWO) and not any(seat["counted"] for seat in seats.values())


def test_saving_correcting_voiding_restoring_and_deleting_rounds(client, app, table):
    match = new_match(client, table, "remi", TWO, target="custom", custom_target=50)
    # Round 1: Budi out, Siti holds KH (10).
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    found, seats = stored(app, match)
    assert (found["rounds"], found["rounds_played"], found["state"]) == (1, 1, "playing")
    assert (seats["Budi"]["total"], seats["Budi"]["rounds_won"], seats["Budi"]["best_round"]) == (
        10,
        1,
        10,
    )
    # Corrected: Siti held KH QH (20).
    response = client.submit(
        match + "rounds/1/edit", round_data(TWO, {"Siti": "KH QH"}, ending="out", player="Budi")
    )
    assert response.status_code == 302, errors(response)
    assert stored(app, match)[1]["Budi"]["total"] == 20
    # Round 2: Budi out again with Siti's QS JS KS (30): 20 + 30 = 50 >= 50, Budi wins.
    save_round(client, match, TWO, {"Siti": "QS JS KS"}, ending="out", player="Budi")
    found, seats = stored(app, match)
    assert found["state"] == "finished" and seats["Budi"]["won"] and not seats["Siti"]["won"]
    # Round 1 voided: Budi has round 2's 30 (< 50), the match goes on with one round played.
    assert client.submit(match + "rounds/1/void").status_code == 302
    found, seats = stored(app, match)
    assert (found["state"], found["rounds"], found["rounds_played"]) == ("playing", 2, 1)
    assert seats["Budi"]["total"] == 30 and seats["Budi"]["best_round_number"] == 2
    # Restored: finished again.
    assert client.submit(match + "rounds/1/restore").status_code == 302
    assert stored(app, match)[0]["state"] == "finished"
    # The last round deleted: 20 after one round.
    assert client.submit(match + "rounds/undo").status_code == 302
    found, seats = stored(app, match)
    assert (found["state"], found["rounds"], seats["Budi"]["total"]) == ("playing", 1, 20)


def test_a_round_edited_as_json(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    entry = {"out": "Siti", "hands": {"Budi": ["QD", "JD"]}}
    assert client.submit(match + "rounds/1/json", {"entry": json.dumps(entry)}).status_code == 302
    seats = stored(app, match)[1]
    assert (seats["Budi"]["total"], seats["Siti"]["total"], seats["Siti"]["rounds_won"]) == (
        0,
        20,
        1,
    )


def test_changing_the_options_before_the_first_round(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    data = {"seat_0": "Siti", "seat_1": "Andi", "first_dealer": "Andi", "target": "200"}
    response = client.submit(match + "setup", data)
    assert response.status_code == 302, errors(response)
    assert set(stored(app, match)[1]) == {"Siti", "Andi"}


def test_a_live_round_counts_once_it_ends(client, app, table):
    match = new_match(client, table, "remi", THREE, target=200)
    client.submit(match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"})
    found, _seats = stored(app, match)
    assert found["rounds"] == 0  # a round being played is not in the log yet
    response = client.submit(
        match + "live/turn",
        {
            "player": "Budi",
            "melds": "4H 4D 4C 4S\nJC QC KC",
            "discard": "2D",
            "out": "y",
            "action": "save",
        },
    )
    assert response.status_code == 302, errors(response)
    response = client.submit(
        match + "live/end", {"hand_1": "KH 2C 9D 5H", "hand_2": "AS 5D QH 3H 8D JD 6C"}
    )
    assert response.status_code == 302, errors(response)
    found, seats = stored(app, match)
    # Budi went out all at once: Siti 10 + 2 + 9 + 5 = 26, Andi 1 + 5 + 10 + 3 + 8 + 10 + 6 = 43;
    # 69 doubled: 138.
    assert found["rounds"] == 1 and seats["Budi"]["total"] == 138 and seats["Budi"]["at_once"] == 1


def test_an_imported_match(client, app, table):
    document = {
        "rules": "gin",
        "players": TWO,
        "rounds": [{"end": "draw"}, {"end": "void"}],
    }
    response = client.submit(table + "import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    found, seats = stored(app, response.headers["Location"])
    # A draw is a round played (0 each); a void round is not.
    assert (found["rounds"], found["rounds_played"]) == (2, 1)
    assert seats["Budi"]["rounds"] == 1 and seats["Budi"]["counted"]


def test_a_log_the_referee_refuses_is_summarised_as_broken(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        stored_round = db.session.scalars(sa.select(Round)).one()
        stored_round.entry = {"out": "Budi", "hands": {"Siti": ["KH", "KH"]}}
        work.commit(stored_round.match_id)
    found, seats = stored(app, match)
    assert found["state"] == "broken" and not seats["Budi"]["counted"]
    client.submit("/language", {"lang": "en", "next": "/"})
    assert "needs a correction" in client.get(table).text
    assert client.get(table + "matches?state=broken").text.count('class="listed state-broken"') == 1


def test_the_summary_does_not_change_the_match_version(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        before = db.session.scalars(sa.select(Match.version)).one()
    with app.app_context():
        connection = db.session.connection()
        summary.refresh(connection, db.session.scalars(sa.select(Match.id)).one())
        db.session.commit()
        assert db.session.scalars(sa.select(Match.version)).one() == before


def test_a_write_rolled_back_leaves_the_summary_as_it_was(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        stored_round = db.session.scalars(sa.select(Round)).one()
        stored_round.entry = {"out": "Siti", "hands": {"Budi": ["QD"]}}
        db.session.flush()
        work.recount(stored_round.match_id)  # the summary is rewritten in the transaction ...
        assert db.session.scalars(
            sa.select(SeatSummary.total).order_by(SeatSummary.seat)
        ).all() == [0, 10]
        db.session.rollback()  # ... and goes back with it
        assert db.session.scalars(
            sa.select(SeatSummary.total).order_by(SeatSummary.seat)
        ).all() == [10, 0]


def test_the_check_command_reports_and_fixes_a_difference(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["history", "check"])
    assert result.exit_code == 0 and "every summary agrees with the log" in result.output
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text("UPDATE seat_summaries SET total = 99 WHERE seat = 0"))
        connection.execute(sa.text("UPDATE match_summaries SET state = 'finished'"))
    result = runner.invoke(args=["history", "check"])
    assert result.exit_code == 1
    assert "match 1: state is stored as 'finished', the log gives 'playing'" in result.output
    assert "match 1, Budi: total is stored as 99, the log gives 10" in result.output
    result = runner.invoke(args=["history", "check", "--fix"])
    assert result.exit_code == 0 and "1 match summaries rewritten" in result.output
    assert runner.invoke(args=["history", "check"]).exit_code == 0


def test_the_check_compares_each_players_totals_too(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    save_round(client, match, TWO, {"Budi": "QS"}, ending="out", player="Siti")
    with app.app_context(), db.engine.begin() as connection:
        totals = connection.execute(
            sa.text("SELECT rounds, rounds_won, points FROM player_totals ORDER BY player_id")
        ).all()
        # Budi and Siti: two rounds each, one won, 10 points each.
        assert [tuple(row) for row in totals] == [(2, 1, 10), (2, 1, 10)]
        connection.execute(sa.text("UPDATE player_totals SET points = 7 WHERE player_id = 1"))
    result = app.test_cli_runner().invoke(args=["history", "check"])
    assert result.exit_code == 1
    assert "totals, table 1, Budi, remi: points is stored as 7, the log gives 10" in result.output
    result = app.test_cli_runner().invoke(args=["history", "check", "--fix"])
    assert "0 match summaries and the players' totals rewritten" in result.output
    assert app.test_cli_runner().invoke(args=["history", "check"]).exit_code == 0


def test_the_check_finds_a_missing_summary_and_one_of_a_match_gone(client, app, table):
    new_match(client, table, "remi", TWO, target=100)
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM seat_summaries"))
        connection.execute(sa.text("DELETE FROM match_summaries"))
        assert [str(d) for d in summary.check(connection)] == [
            "match 1: summary is stored as 'missing', the log gives 'playing'"
        ]
        summary.check(connection, fix=True)
        assert summary.check(connection) == []


@pytest.mark.parametrize("database", DATABASES)
def test_the_migration_summarises_the_matches_already_stored(database, tmp_path):
    url = f"sqlite:///{tmp_path}/m.db" if database == "sqlite" else os.environ["TEST_PG_URL"]
    app = migrated_app(url)
    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="0002_versions")
        with db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO card_tables (id, name, edit_key, view_key, created_at) "
                    "VALUES (1, 'Meja', 'e', 'v', '2026-01-01 10:00:00')"
                )
            )
            connection.execute(
                sa.text(
                    "INSERT INTO players (id, table_id, name, created_at) VALUES "
                    "(1, 1, 'Budi', '2026-01-01 10:00:00'), (2, 1, 'Siti', '2026-01-01 10:00:00')"
                )
            )
            connection.execute(
                sa.text(
                    "INSERT INTO matches (id, table_id, rules, options, first_dealer, created_at, "
                    "updated_at) VALUES (1, 1, 'remi', '{\"target\": 10}', 'Budi', "
                    "'2026-01-01 10:00:00', '2026-01-01 10:00:00')"
                )
            )
            connection.execute(
                sa.text(
                    "INSERT INTO match_players (match_id, seat, player_id) VALUES (1, 0, 1), (1, 1, 2)"
                )
            )
            connection.execute(
                sa.text(
                    "INSERT INTO rounds (match_id, number, entry, complete, created_at, updated_at) "
                    "VALUES (1, 1, :entry, true, '2026-01-02 20:00:00', '2026-01-02 20:00:00')"
                ),
                {"entry": json.dumps({"out": "Siti", "hands": {"Budi": ["KH"]}})},
            )
        upgrade(directory=str(MIGRATIONS))
        with db.engine.connect() as connection:
            assert summary.check(connection) == []
            row = connection.execute(sa.select(MatchSummary.__table__)).one()
            assert (row.state, row.rounds) == ("finished", 1)  # Siti 10 >= 10
            assert summary.as_utc(row.last_played_at).isoformat() == "2026-01-02T20:00:00+00:00"
        db.session.remove()
        downgrade(directory=str(MIGRATIONS), revision="base")
        db.engine.dispose()


def test_a_live_turn_leaves_the_summary_alone(client, app, table):
    """A turn of a live round is not in the log yet: no summary is rewritten for it."""
    import sqlalchemy as sa

    match = new_match(client, table, "remi", THREE, target=200)
    sent: list[str] = []

    def count(conn, cursor, statement, *args):
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        response = client.submit(
            match + "live/turn", {"player": "Siti", "melds": "7S 8S 9S", "action": "save"}
        )
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    assert response.status_code == 302, errors(response)
    assert not [s for s in sent if "summaries" in s or "player_totals" in s]
    stored(app, match)  # and the check still finds nothing


def test_archived_deleted_and_restored_matches(client, app, table):
    """Archived: out of the list, in the statistics; deleted: out of both, until restored."""
    client.submit("/language", {"lang": "en", "next": "/"})
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    other = new_match(client, table, "gin", TWO, target=100)
    listed = table + "matches"

    def ids(url):
        return [int(i) for i in re.findall(r'/m/(\d+)/"', client.get(url).text.split("<main")[1])]

    assert client.submit(match + "archive").status_code == 302
    found, seats = stored(app, match)
    assert found["archived"] and seats["Budi"]["counted"]
    assert 1 not in ids(listed) and ids(listed + "?show=archived") == [1]
    assert "Archived matches (1)" in client.get(listed).text
    assert '<tr data-player="Budi">' in client.get(table + "stats").text
    assert client.submit(match + "unarchive").status_code == 302
    assert client.submit(match + "delete").status_code == 302
    found, seats = stored(app, match)
    assert found["deleted"] and not seats["Budi"]["counted"]
    assert ids(listed) == [int(other.rstrip("/").split("/")[-1])]
    assert '<tr data-player="Budi">' not in client.get(table + "stats").text
    with app.app_context():
        assert db.session.scalar(sa.text("SELECT count(*) FROM player_totals")) == 0
    assert client.submit(match + "undelete").status_code == 302
    assert stored(app, match)[1]["Budi"]["counted"]
    assert '<tr data-player="Budi">' in client.get(table + "stats").text


def test_a_deleted_last_round_leaves_the_summary(client, app, table):
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    save_round(client, match, TWO, {"Siti": "QH"}, ending="out", player="Budi")
    assert stored(app, match)[1]["Budi"]["total"] == 20
    button = client.hidden_fields(match + "rounds/undo")
    assert client.submit(match + "rounds/undo", button, fresh=False).status_code == 302
    found, seats = stored(app, match)
    assert (found["rounds"], seats["Budi"]["total"]) == (1, 10)  # stored, but not in the log
    assert client.submit(match + "rounds/2/undelete").status_code == 302
    assert stored(app, match)[1]["Budi"]["total"] == 20
