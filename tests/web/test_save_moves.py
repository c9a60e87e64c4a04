"""A plain save moves the match's summary, the statistics' months and the players' totals
by the round's difference: on PostgreSQL in the one statement that adds the round (one
round trip while the table is locked), on SQLite one statement a table.

A month, a pair's month, a total or the statistics version missing when the round is saved
(a table whose aggregates were lost, or never made) is counted again from the seat rows in
the same transaction: ``history check`` then finds every figure equal to a count from
scratch.  On SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from referee.web.play import appending
from referee.web.store import aggregates, summary
from referee.web.store.extensions import db
from referee.web.store.models import (
    PairMonth,
    Player,
    PlayerMonth,
    PlayerTotal,
    StatisticsVersion,
)

from .conftest import Client

API = "/api/v1"
PLAYERS = ["Budi", "Siti", "Andi"]
# Siti goes out; Budi holds 2C (2), Andi 3D 4H (3 + 4): Siti scores 9.
SITI_OUT = {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}
# Budi goes out; Siti holds KH (10), Andi 5C (5): Budi scores 15.
BUDI_OUT = {"out": "Budi", "hands": {"Siti": ["KH"], "Andi": ["5C"]}}


@pytest.fixture
def app(api_app: Any) -> Any:
    return api_app


def new_match(app: Any) -> tuple[Client, str, int]:
    client = app.test_client()
    keys = client.post(f"{API}/tables", json={"name": "Meja", "players": PLAYERS}).get_json()
    made = client.post(
        f"{API}/t/{keys['edit_key']}/matches",
        json={"rules": "remi", "players": PLAYERS, "first_dealer": "Budi"}
        | {"options": {"target": 1000}},
    ).get_json()
    return client, keys["edit_key"], made["id"]


def save(
    client: Client, edit_key: str, match_id: int, entry: dict[str, Any], etag: str = ""
) -> dict[str, Any]:
    url = f"{API}/t/{edit_key}/m/{match_id}"
    etag = etag or client.get(url).get_json()["etag"]
    saved = client.post(f"{url}/rounds", json=entry, headers={"If-Match": f'"{etag}"'})
    assert saved.status_code == 201, saved.get_json()
    return saved.get_json()


def everything_counted_again_agrees(app: Any) -> None:
    with app.app_context(), db.engine.connect() as connection:
        assert aggregates.compare(connection) == []
        assert summary.check(connection) == []


def statements_of(app: Any, saving: Any, alone: list[bool] | None = None) -> list[str]:
    """The SQL statements run while ``saving()`` runs (with ``alone``: whether each was
    committed by itself, PostgreSQL's autocommit)."""
    seen: list[str] = []

    def note(conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        seen.append(" ".join(statement.split()))
        if alone is not None:
            alone.append(bool(getattr(conn.connection.dbapi_connection, "autocommit", False)))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        saving()
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)
    return seen


def test_a_round_more_moves_every_figure_by_its_difference(app, monkeypatch):
    client, edit_key, match_id = new_match(app)
    etag = save(client, edit_key, match_id, SITI_OUT)["etag"]
    plain: list[bool] = []
    append = appending.append

    def spied(*args: Any, **kwargs: Any) -> bool:
        plain.append(append(*args, **kwargs))
        return plain[-1]

    monkeypatch.setattr(appending, "append", spied)
    alone: list[bool] = []
    seen = statements_of(app, lambda: save(client, edit_key, match_id, BUDI_OUT, etag), alone)
    assert plain == [True]
    touching = [text for text in seen if "player_months" in text]
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # Two reads, then one statement: the version raised (the table's row locked), the
        # round, the kept replay, the summary, the seats, the statistics version, the
        # months, the pairs and the totals; each a transaction of its own (no BEGIN, no
        # COMMIT: the table's row is locked only while the write runs).
        assert len(touching) == 1 and touching[0].startswith("WITH raised AS")
        assert "referee_moved_all" in touching[0]
        assert len(seen) == 3 and alone == [True, True, True]
    else:
        assert len(touching) == 1 and touching[0].startswith("UPDATE player_months")
    everything_counted_again_agrees(app)
    with app.app_context():
        budi = db.session.execute(
            sa.select(PlayerTotal.points_won, PlayerTotal.rounds_won)
            .join(Player, Player.id == PlayerTotal.player_id)
            .where(PlayerTotal.rules == "remi", Player.name == "Budi")
            .where(PlayerTotal.table_id == Player.table_id)
            .order_by(PlayerTotal.table_id.desc())
            .limit(1)
        ).one()
    # Budi won one round of the two, for 15 points (Siti's KH 10 and Andi's 5C 5).
    assert tuple(budi) == (15, 1)


def test_figures_missing_at_a_save_are_counted_again(app):
    client, edit_key, match_id = new_match(app)
    save(client, edit_key, match_id, SITI_OUT)
    save(client, edit_key, match_id, BUDI_OUT)
    with app.app_context():
        table_id = db.session.execute(
            sa.text("SELECT table_id FROM matches WHERE id = :id"), {"id": match_id}
        ).scalar_one()
        budi, siti, andi = (
            db.session.execute(
                sa.select(Player.id).where(Player.table_id == table_id, Player.name == name)
            ).scalar_one()
            for name in PLAYERS
        )
        db.session.execute(sa.delete(PlayerMonth).where(PlayerMonth.player_id == budi))
        db.session.execute(sa.delete(PairMonth).where(PairMonth.player_id == siti))
        db.session.execute(sa.delete(PlayerTotal).where(PlayerTotal.player_id == andi))
        db.session.execute(
            sa.delete(StatisticsVersion).where(StatisticsVersion.table_id == table_id)
        )
        db.session.commit()
    alone: list[bool] = []
    seen = statements_of(app, lambda: save(client, edit_key, match_id, SITI_OUT), alone)
    everything_counted_again_agrees(app)
    with app.app_context(), db.engine.connect() as connection:
        assert aggregates.version_of(connection, table_id) == 1
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # The statement that would have committed alone undid itself; the round was saved
        # once, in a transaction that counted the missing figures again.
        writes = [index for index, text in enumerate(seen) if text.startswith("WITH raised AS")]
        assert len(writes) == 2
        first, second = writes
        assert alone[first] and "referee_moved_all" in seen[first]
        assert not alone[second] and "referee_moved_all" not in seen[second]
        assert any(text.startswith("INSERT INTO player_months") for text in seen[second:])
    with app.app_context():
        numbers = db.session.execute(
            sa.text("SELECT number FROM rounds WHERE match_id = :id ORDER BY number"),
            {"id": match_id},
        ).scalars()
        assert list(numbers) == [1, 2, 3]


def test_a_save_that_finds_its_match_moved_on_writes_nothing(app):
    """The statement that commits by itself, given a version the match is no longer at:
    no round, no receipt of the form's token, no figure moved."""
    client, edit_key, match_id = new_match(app)
    save(client, edit_key, match_id, SITI_OUT)
    with app.app_context(), db.engine.connect() as connection:
        stored = appending.read(connection, edit_key, match_id)
        assert stored is not None and stored.plain
        entry, state = appending.checked_round(stored, BUDI_OUT, connection)
    save(client, edit_key, match_id, SITI_OUT)  # another phone, first
    with app.app_context():
        with db.engine.connect() as connection:
            figures = connection.execute(sa.select(PlayerTotal.points_won)).scalars().all()
            written = appending.append(
                connection, stored, entry, state, once="a" * 43, location="/there"
            )
        assert written is False
        with db.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM write_receipts")).scalar() == 0
            assert (
                connection.execute(
                    sa.text("SELECT count(*) FROM rounds WHERE match_id = :id"), {"id": match_id}
                ).scalar()
                == 2
            )
            assert connection.execute(sa.select(PlayerTotal.points_won)).scalars().all() == figures
    everything_counted_again_agrees(app)
