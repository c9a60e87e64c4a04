"""A restore that cannot destroy (``referee/web/restore.py``, ``store/servers.py``).

Every file that is not a whole backup of this app at a schema it knows is refused in a
sentence, and the database in use is then exactly as it was (a SQLite file byte for byte;
every row of every table and the schemas of a PostgreSQL database).  A restore is refused
while any server announces itself in the database, and after one nothing kept from before
(pages and answers kept per match version) is served.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from referee import cli
from referee.web.store import backups, servers
from referee.web.store.extensions import db

from .conftest import DATABASE_KINDS, migrated_app
from .realserver import fresh_database
from .test_backups import api, fill


def state_of(url: str) -> str:
    """What the database in use is, to the byte: a SQLite file's (and its WAL's) digest; on
    PostgreSQL every schema, and every row of every table of the one in use."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() == "sqlite":
        digest = hashlib.sha256()
        for suffix in ("", "-wal"):
            path = Path(str(parsed.database) + suffix)
            digest.update(path.read_bytes() if path.exists() else b"-")
        return digest.hexdigest()
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            schemas = connection.execute(
                sa.text("SELECT nspname FROM pg_namespace ORDER BY nspname")
            ).scalars()
            found: dict[str, object] = {"schemas": list(schemas)}
            metadata = sa.MetaData()
            metadata.reflect(connection)
            for table in metadata.sorted_tables:
                rows = connection.execute(sa.select(table).order_by(*table.primary_key.columns))
                found[table.name] = [repr(tuple(row)) for row in rows]
    finally:
        engine.dispose()
    return json.dumps(found, sort_keys=True)


@pytest.fixture(scope="module")
def good_backup(tmp_path_factory) -> Path:
    """A SQLite backup of two tables of matches."""
    folder = tmp_path_factory.mktemp("good")
    url = f"sqlite:///{folder / 'remi.db'}"
    app = migrated_app(url)
    fill(app.test_client())
    with app.app_context():
        db.engine.dispose()
    return backups.back_up(
        backups.Place(sa.make_url(url), folder / "backups", folder / "state"),
        target=folder / "good.db",
    )


@pytest.fixture(params=DATABASE_KINDS)
def live(request, tmp_path, monkeypatch) -> Iterator[str]:
    """A database in use, with a table of its own, as the ``referee`` commands see it."""
    with fresh_database(request.param, tmp_path) as url:
        app = migrated_app(url)
        api(app.test_client(), "POST", "/api/v1/tables", {"name": "Kini", "players": ["Ani"]})
        with app.app_context():
            db.engine.dispose()
        monkeypatch.setenv("DATABASE_URL", url)
        monkeypatch.setenv("BACKUP_DIR", str(tmp_path / "kept"))
        monkeypatch.setenv("SECRET_KEY", "restore")
        yield url


# -- every kind of bad file -----------------------------------------------------------------------


def damaged(tmp: Path, good: Path) -> Path:
    data = bytearray(good.read_bytes())
    data[4096 * 2 : 4096 * 6] = b"\x07" * (4096 * 4)  # pages 3 to 6 overwritten
    path = tmp / "damaged.db"
    path.write_bytes(bytes(data))
    return path


def truncated(tmp: Path, good: Path) -> Path:
    path = tmp / "truncated.db"
    path.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    return path


def foreign(tmp: Path, _good: Path) -> Path:
    path = tmp / "recipes.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.close()
    return path


def partial(tmp: Path, good: Path) -> Path:
    """Remi Referee's, at this schema's revision, with a table missing."""
    path = tmp / "partial.db"
    shutil.copy(good, path)
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE round_changes")
    connection.close()
    return path


def future(tmp: Path, good: Path) -> Path:
    path = tmp / "future.db"
    shutil.copy(good, path)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_future'")
    connection.close()
    return path


SQLITE_FILES: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "damaged": (damaged, "damaged.db is damaged: "),
    "truncated": (truncated, "truncated.db is damaged: "),
    "foreign": (foreign, "recipes.db is a SQLite database, but not Remi Referee's"),
    "partial": (partial, "partial.db is incomplete: it has no table round_changes."),
    "future": (future, "it was made by a newer version. Update the app, then restore it."),
}


@pytest.mark.parametrize("kind", list(SQLITE_FILES))
def test_a_bad_sqlite_file_is_refused_in_a_sentence_and_nothing_changes(
    kind, live, good_backup, tmp_path, capsys
):
    make, said = SQLITE_FILES[kind]
    path = make(tmp_path, good_backup)
    before = state_of(live)
    capsys.readouterr()
    assert cli.main(["restore", str(path), "--yes"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("referee restore: ") and said in error, error
    assert "Traceback" not in error and len(error.splitlines()) == 1
    assert state_of(live) == before
    assert not (tmp_path / "kept").exists()  # not even a safety copy: nothing was begun
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.fixture
def pg_live(live):
    if sa.make_url(live).get_backend_name() != "postgresql":
        pytest.skip("a pg_dump archive is PostgreSQL's")
    if backups.pg_tool("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    return live


def pg_archive(tmp: Path, prepare: Callable[[sa.Connection], None] | None = None) -> Path:
    """A pg_dump archive of a filled database (after ``prepare`` changed it)."""
    with fresh_database("postgresql", tmp) as url:
        app = migrated_app(url)
        fill(app.test_client())
        with app.app_context():
            db.engine.dispose()
        if prepare is not None:
            engine = sa.create_engine(url)
            with engine.begin() as connection:
                prepare(connection)
            engine.dispose()
        path = tmp / f"archive-{len(list(tmp.glob('archive-*')))}.dump"
        backups.run_pg_tool("pg_dump", sa.make_url(url), "--format=custom", "--file", str(path))
    return path


def cut_last_2kb(tmp: Path) -> Path:
    path = pg_archive(tmp)
    data = bytearray(path.read_bytes())
    data[-2048:] = b"\x07" * 2048
    path.write_bytes(bytes(data))
    return path


def cut_in_half(tmp: Path) -> Path:
    path = pg_archive(tmp)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return path


PG_ARCHIVES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "damaged-last-2kb": (cut_last_2kb, "could not be read back whole, so nothing was changed"),
    "truncated": (cut_in_half, "archive"),
    "partial": (
        lambda tmp: pg_archive(
            tmp, lambda c: c.exec_driver_sql("DROP TABLE round_changes CASCADE")
        ),
        "is incomplete: it has no table round_changes.",
    ),
    "foreign": (
        lambda tmp: pg_archive(tmp, lambda c: c.exec_driver_sql("DROP TABLE alembic_version")),
        "is a pg_dump archive, but not Remi Referee's",
    ),
    "future": (
        lambda tmp: pg_archive(
            tmp, lambda c: c.exec_driver_sql("UPDATE alembic_version SET version_num = '0099_x'")
        ),
        "(0099_x): it was made by a newer version",
    ),
}


@pytest.mark.parametrize("kind", list(PG_ARCHIVES))
def test_a_bad_pg_dump_archive_is_refused_in_a_sentence_and_nothing_changes(
    kind, pg_live, tmp_path, capsys
):
    make, said = PG_ARCHIVES[kind]
    path = make(tmp_path)
    before = state_of(pg_live)
    capsys.readouterr()
    assert cli.main(["restore", str(path), "--yes"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("referee restore: ") and said in error, error
    assert "Traceback" not in error
    assert state_of(pg_live) == before


def test_a_good_pg_dump_archive_replaces_the_tables_and_keeps_the_replaced_schema(
    pg_live, tmp_path, capsys
):
    path = pg_archive(tmp_path)
    capsys.readouterr()
    assert cli.main(["restore", str(path), "--yes"]) == 0
    said = capsys.readouterr().out
    assert "Restored: 2 tables, 2 matches, 5 rounds." in said
    kept_in = "Its tables are also kept in the schema "
    replaced = next(
        line.removeprefix(kept_in).rstrip(".") for line in said.splitlines() if kept_in in line
    )
    engine = sa.create_engine(pg_live)
    with engine.connect() as connection:
        names = connection.execute(sa.text("SELECT name FROM card_tables ORDER BY id")).scalars()
        assert list(names) == ["Jumat", "Arisan"]
        kept = connection.execute(sa.text(f'SELECT name FROM "{replaced}".card_tables')).scalars()
        assert list(kept) == ["Kini"]  # the tables it replaced, kept as they were
        staging = connection.execute(
            sa.text("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'referee_restoring%'")
        ).scalar()
        assert staging == 0
    engine.dispose()


# -- never while a server serves ------------------------------------------------------------------


def test_a_restore_is_refused_while_a_server_on_another_machine_serves_the_database(
    live, good_backup, capsys
):
    engine = sa.create_engine(live)
    heartbeat = servers.Heartbeat(engine, pid=4242, host="kitchen-laptop")
    heartbeat.beat()  # as a server with BACKUPS=off on another machine announces itself
    before = state_of(live)
    capsys.readouterr()
    try:
        assert cli.main(["restore", str(good_backup), "--yes"]) == 2
        error = capsys.readouterr().err
        assert re.fullmatch(
            r"referee restore: The server on host kitchen-laptop, pid 4242, seen \d+ s ago is "
            r"serving this database: stop it first\.\n",
            error,
        ), error
        assert state_of(live) == before
        # Gone without a word (a machine switched off): 30 s later it no longer counts.
        with engine.begin() as connection:
            connection.execute(
                servers.SERVERS.update().values(
                    seen_at=servers.database_now(connection) - timedelta(seconds=31)
                )
            )
        assert cli.main(["restore", str(good_backup), "--yes"]) == 0
    finally:
        engine.dispose()


def test_a_server_that_stops_says_so(live):
    engine = sa.create_engine(live)
    heartbeat = servers.Heartbeat(engine, pid=os.getpid())
    heartbeat.start()
    try:
        with engine.connect() as connection:
            seen = servers.serving(connection)
        assert [(s.host, s.pid) for s in seen] == [(servers.this_host(), os.getpid())]
    finally:
        heartbeat.stop()
    with engine.connect() as connection:
        assert servers.serving(connection) == []
    engine.dispose()


# -- nothing kept from before is served -----------------------------------------------------------


@pytest.mark.parametrize("kind", DATABASE_KINDS)
def test_after_a_restore_no_page_or_answer_kept_from_before_is_served(
    kind, tmp_path, monkeypatch, capsys
):
    """A restore brings back version numbers used already (the match at version v after it
    would not be the one at version v before): kept pages and answers are keyed by the
    database's generation, and every version restored goes past those used before."""
    with fresh_database(kind, tmp_path) as url:
        restored_after_a_change(url, tmp_path, monkeypatch, capsys)


def restored_after_a_change(url: str, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("BACKUP_DIR", str(tmp_path / "kept"))
    app = migrated_app(url, PAGES_DIR=str(tmp_path / "pages"))
    client = app.test_client()
    key = api(client, "POST", "/api/v1/tables", {"name": "Jumat", "players": ["Budi", "Siti"]})
    key = key.json["edit_key"]
    made = api(
        client, "POST", f"/api/v1/t/{key}/matches",
        {"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    ).json  # fmt: skip
    path = f"/api/v1/t/{key}/m/{made['id']}"

    def round_won_by(out: str, etag: str) -> str:
        other = "Budi" if out == "Siti" else "Siti"
        return api(
            client, "POST", path + "/rounds", {"out": out, "hands": {other: ["KH", "QS"]}},
            **{"If-Match": f'"{etag}"'},
        ).json["etag"]  # fmt: skip

    etag = round_won_by("Siti", made["etag"])
    suffix = backups.SUFFIXES[backups.kind_of(sa.make_url(url))]
    backup = backups.back_up(backups.place_of(app), target=tmp_path / f"friday{suffix}")
    siti_twice = round_won_by("Siti", etag)
    page_before = client.get(f"/t/{key}/m/{made['id']}/", headers={"Accept-Language": "en"})
    board_before = client.get(path).json
    with app.app_context():
        db.engine.dispose()
    assert cli.main(["restore", str(backup), "--yes"]) == 0
    capsys.readouterr()
    # The phone still holds the ETag of the match before the restore (Siti twice).
    checked = client.get(path + "/version", headers={"If-None-Match": f'"{siti_twice}"'})
    assert checked.status_code == 200  # not "not modified": it is another match now
    refused = client.post(
        path + "/rounds",
        json={"out": "Budi", "hands": {"Siti": ["KH", "QS"]}},
        headers={"If-Match": f'"{etag}"'},  # a version seen before the restore
    )
    assert refused.status_code == 409, refused.get_data(True)
    round_won_by("Budi", client.get(path).json["etag"])
    page_after = client.get(f"/t/{key}/m/{made['id']}/", headers={"Accept-Language": "en"})
    board_after = client.get(path).json
    # Who went out wins the round: Siti then Siti before, Siti then Budi after.
    assert [r["winners"] for r in board_before["rounds"]] == [["Siti"], ["Siti"]]
    assert [r["winners"] for r in board_after["rounds"]] == [["Siti"], ["Budi"]]
    assert page_after.get_data(True) != page_before.get_data(True)
    with app.app_context():
        db.engine.dispose()


# -- referee restore says little and, on "n", changes nothing --------------------------------------


def test_answering_no_leaves_no_database_where_there_was_none(
    good_backup, tmp_path, monkeypatch, capsys
):
    fresh = tmp_path / "laptop" / "remi.db"
    fresh.parent.mkdir()
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{fresh}")
    monkeypatch.setenv("BACKUP_DIR", str(tmp_path / "laptop" / "backups"))
    monkeypatch.setattr("builtins.input", lambda _question: "n")
    assert cli.main(["restore", str(good_backup)]) == 1
    said = capsys.readouterr()
    assert not fresh.exists()
    assert sorted(p.name for p in fresh.parent.iterdir()) == []
    assert "Nothing was changed." in said.out
    assert "alembic" not in said.out + said.err
    assert len(said.out.splitlines()) <= 4, said.out


def test_a_restore_says_what_it_did_in_a_few_lines(good_backup, tmp_path, monkeypatch, capsys):
    fresh = tmp_path / "remi.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{fresh}")
    monkeypatch.setattr("builtins.input", lambda _question: "y")
    assert cli.main(["restore", str(good_backup)]) == 0
    said = capsys.readouterr()
    assert "alembic" not in (said.out + said.err).lower()
    assert said.err == ""
    assert len(said.out.splitlines()) <= 6, said.out
    assert "Restored: 2 tables, 2 matches, 5 rounds." in said.out
