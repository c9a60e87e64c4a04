"""The models and the migration, on SQLite and (when TEST_PG_URL is set) PostgreSQL."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from referee.web import MIGRATIONS
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match, MatchPlayer, Player, Round

from .conftest import DATABASE_KINDS as DATABASES
from .conftest import migrated_app


@pytest.fixture(params=DATABASES)
def database(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/models.db"
    else:
        url = os.environ["TEST_PG_URL"]
    app = migrated_app(url)
    with app.app_context():
        yield app
        db.session.remove()
        downgrade(directory=str(MIGRATIONS), revision="base")
        db.engine.dispose()


def a_match(players=("Budi", "Siti")) -> Match:
    table = CardTable(name="Meja")
    db.session.add(table)
    match = Match(table=table, rules="remi", options={"target": 100}, first_dealer=players[0])
    db.session.add(match)
    for seat, name in enumerate(players):
        match.seats.append(MatchPlayer(seat=seat, player=Player(table=table, name=name)))
    db.session.commit()
    return match


def test_table_keys_are_long_random_and_distinct(database):
    tables = [CardTable(name=str(n)) for n in range(3)]
    db.session.add_all(tables)
    db.session.commit()
    keys = {key for t in tables for key in (t.edit_key, t.view_key)}
    assert len(keys) == 6 and all(len(key) >= 32 for key in keys)


def test_match_players_keep_their_seats(database):
    match = a_match(("Siti", "Andi", "Budi"))
    db.session.expire_all()
    assert db.session.get(Match, match.id).player_names == ["Siti", "Andi", "Budi"]


def test_round_entry_is_stored_exactly_as_entered(database):
    match = a_match()
    entry = {
        "out": "Siti",
        "at_once": False,
        "hands": {"Budi": ["10H", "QS"]},
        "zeta": [1, {"b": 2, "a": 1}],
    }
    match.stored_rounds.append(Round(number=1, entry=entry))
    db.session.commit()
    db.session.expire_all()
    stored = db.session.get(Match, match.id).rounds[0]
    assert stored.entry == entry and list(stored.entry) == list(entry)
    assert stored.complete is True and stored.previous_entry is None and not stored.voided


def test_complete_defaults_to_true_in_the_database(database):
    match = a_match()
    db.session.execute(
        sa.text(
            "INSERT INTO rounds (match_id, number, entry, created_at, updated_at) "
            "VALUES (:m, 1, :e, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
        ),
        {"m": match.id, "e": '{"end": "void"}'},
    )
    db.session.commit()
    stored = db.session.scalars(sa.select(Round)).one()
    assert stored.complete is True and stored.voided


def test_a_player_name_is_unique_per_table(database):
    match = a_match()
    db.session.add(Player(table=match.table, name="Budi"))
    with pytest.raises(sa.exc.IntegrityError):
        db.session.commit()
    db.session.rollback()
    db.session.add(Player(table=CardTable(name="Lain"), name="Budi"))
    db.session.commit()


def test_a_round_number_is_unique_per_match(database):
    match = a_match()
    match.stored_rounds.append(Round(number=1, entry={"end": "void"}))
    db.session.commit()
    db.session.add(Round(match_id=match.id, number=1, entry={"end": "void"}))
    with pytest.raises(sa.exc.IntegrityError):
        db.session.commit()
    db.session.rollback()


def test_the_live_round_is_not_a_complete_round(database):
    match = a_match()
    match.stored_rounds.append(Round(number=1, entry={"end": "void"}))
    match.stored_rounds.append(Round(number=2, entry={"turns": []}, complete=False))
    db.session.commit()
    assert [r.number for r in match.complete_rounds] == [1]
    assert match.live_round.number == 2


def test_the_migration_matches_the_models(database):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, db.metadata) == []


def test_upgrade_is_idempotent(database):
    upgrade(directory=str(MIGRATIONS))
