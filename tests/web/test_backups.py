"""Backups and restores (``referee/web/store/backups.py``, ``restore.py``, ``portable.py``).

What is kept is derived by hand from the rule "the newest copy of each of the last 7
days and of each of the last 4 ISO weeks that have one"; time is an injected clock,
nothing sleeps.  A restore is compared table by table, row by row, with the database
backed up, and its summaries with the log (``history check``).
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask_migrate import upgrade

from referee import cli
from referee.web import MIGRATIONS, create_app, restore
from referee.web.store import backups, portable
from referee.web.store.extensions import db

from .conftest import DATABASE_KINDS, TEST_CONFIG, migrated_app
from .realserver import fresh_database

# The newest revision of migrations/, read by Alembic itself (each engineer's new revision
# moves it).
HEAD = ScriptDirectory(str(MIGRATIONS)).get_current_head()


def at(day: str, clock: str = "21:30") -> datetime:
    return datetime.fromisoformat(f"{day}T{clock}:00+00:00")


class Clock:
    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


def names(paths):
    return sorted(Path(path).name for path in paths)


# -- which copies are kept ------------------------------------------------------------------


def copies(*moments: datetime) -> list[backups.Copy]:
    return [backups.Copy(Path(f"remi-{m:%Y%m%d-%H%M%S}.db"), m) for m in moments]


def test_forty_daily_copies_keep_the_last_seven_days_and_the_newest_of_four_weeks():
    made = copies(*(at("2025-01-01", "03:00") + timedelta(days=n) for n in range(40)))
    kept = backups.to_keep(made)
    # The newest is Sunday 9 February 2025.  Days: 3 to 9 February.  ISO weeks (Monday
    # to Sunday): week 6 (3-9 Feb) has the 9th already; week 5 (27 Jan-2 Feb) keeps the
    # 2nd, week 4 (20-26 Jan) the 26th, week 3 (13-19 Jan) the 19th.
    assert names(kept) == names(
        f"remi-2025{day}-030000.db"
        for day in ["0119", "0126", "0202", "0203", "0204", "0205", "0206", "0207", "0208", "0209"]
    )


def test_several_copies_a_day_keep_the_newest_of_each_day():
    made = copies(
        at("2025-03-07", "08:00"), at("2025-03-07", "19:00"), at("2025-03-07", "23:59"),
        at("2025-03-06", "10:00"),
    )  # fmt: skip
    assert names(backups.to_keep(made)) == ["remi-20250306-100000.db", "remi-20250307-235900.db"]


def test_gaps_count_days_that_have_a_copy_not_calendar_days():
    # A table that meets on Fridays only: 10 Fridays, the last on 14 March 2025.
    fridays = [at("2025-01-10") + timedelta(weeks=n) for n in range(10)]
    kept = backups.to_keep(copies(*fridays))
    # The 7 newest days with a copy are the 7 newest Fridays (each in its own week, so the
    # 4 weeks add nothing): 31 January to 14 March.
    assert names(kept) == names(f"remi-{f:%Y%m%d-%H%M%S}.db" for f in fridays[3:])


# -- a database to back up ------------------------------------------------------------------


def api(client, method, path, body=None, **headers):
    response = client.open(path, method=method, json=body, headers=headers)
    assert response.status_code < 300, (path, response.status_code, response.get_data(True))
    return response


def fill(client) -> None:
    """Two tables: a remi match of three rounds (the second voided), a rummy match of two."""
    keys = api(client, "POST", "/api/v1/tables", {"name": "Jumat", "players": ["Budi", "Siti"]})
    key = keys.json["edit_key"]
    made = api(
        client, "POST", f"/api/v1/t/{key}/matches",
        {"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi",
         "options": {"target": 1000}},
    ).json  # fmt: skip
    path, etag = f"/api/v1/t/{key}/m/{made['id']}", made["etag"]
    for out, other in (("Siti", "Budi"), ("Budi", "Siti"), ("Siti", "Budi")):
        etag = api(
            client, "POST", path + "/rounds", {"out": out, "hands": {other: ["10H", "QS"]}},
            **{"If-Match": f'"{etag}"'},
        ).json["etag"]  # fmt: skip
    api(client, "POST", path + "/rounds/2/void", **{"If-Match": f'"{etag}"'})
    keys = api(
        client, "POST", "/api/v1/tables", {"name": "Arisan", "players": ["Dewi", "Eko", "Rina"]}
    )
    key = keys.json["edit_key"]
    made = api(
        client, "POST", f"/api/v1/t/{key}/matches",
        {"rules": "rummy", "players": ["Dewi", "Eko", "Rina"], "first_dealer": "Eko"},
    ).json  # fmt: skip
    path, etag = f"/api/v1/t/{key}/m/{made['id']}", made["etag"]
    for out in ("Dewi", "Rina"):
        held = iter((["7C", "KD"], ["2H"]))
        hands = {name: next(held) for name in ("Dewi", "Eko", "Rina") if name != out}
        etag = api(
            client, "POST", path + "/rounds", {"out": out, "hands": hands},
            **{"If-Match": f'"{etag}"'},
        ).json["etag"]  # fmt: skip


def plain(value):
    if isinstance(value, datetime):  # SQLite keeps UTC without a zone, PostgreSQL with one
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
    if isinstance(value, bool):
        return int(value)
    return value


# What a restore writes anew by design: the database's generation, and no servers.
WRITTEN_BY_A_RESTORE = ("database_identity", "serving_servers")


def every_row(url: str, versions: bool = True) -> dict[str, list[str]]:
    """Every table of the database, every row, in primary-key order (values made plain),
    but for what a restore writes anew (:data:`WRITTEN_BY_A_RESTORE`; ``versions=False``:
    and the versions, which a restore over a database in use raises past its own)."""
    left_out = set() if versions else set(restore.VERSIONS)
    engine = sa.create_engine(url)
    found = {}
    try:
        with engine.connect() as connection:
            metadata = sa.MetaData()
            metadata.reflect(connection)
            for table in metadata.sorted_tables:
                if table.name in WRITTEN_BY_A_RESTORE:
                    continue
                shown = [c for c in table.columns if (table.name, c.name) not in left_out]
                rows = connection.execute(sa.select(*shown).order_by(*table.primary_key.columns))
                found[table.name] = [
                    json.dumps([plain(value) for value in row], sort_keys=True) for row in rows
                ]
    finally:
        engine.dispose()
    return found


@pytest.fixture(scope="module")
def filled_template(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("filled") / "remi.db"
    app = migrated_app(f"sqlite:///{path}")
    fill(app.test_client())
    with app.app_context():
        db.engine.dispose()
    return path


@pytest.fixture
def filled(filled_template, tmp_path, monkeypatch):
    """A SQLite database with two tables of matches, as ``referee`` commands see it."""
    url = f"sqlite:///{tmp_path / 'remi.db'}"
    backups.copy_sqlite(filled_template, tmp_path / "remi.db")
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("BACKUP_DIR", str(tmp_path / "backups"))
    monkeypatch.setenv("SECRET_KEY", "backups")
    return url


def place_of(url: str, tmp_path: Path) -> backups.Place:
    """Where the app of ``url`` with BACKUP_DIR ``tmp_path/backups`` keeps its backups."""
    database = sa.make_url(url).database
    return backups.Place(sa.make_url(url), tmp_path / "backups", Path(database + "-backups"))


# -- the schedule -----------------------------------------------------------------------------


def test_one_of_two_processes_makes_the_backups_at_start_then_daily_and_prunes(filled, tmp_path):
    place = place_of(filled, tmp_path)
    clock = Clock(at("2025-01-01", "18:00"))
    first, second = backups.Schedule(place, clock), backups.Schedule(place, clock)
    made = first.tick()  # the lock taken: a backup at start
    assert made is not None and made.name == "remi-20250101-180000.db"
    assert second.tick() is None  # the lock is held: the other worker makes none
    clock.moment += timedelta(hours=23)
    assert first.tick() is None  # not a day yet
    clock.moment += timedelta(hours=1)
    assert first.tick().name == "remi-20250102-180000.db"
    for _day in range(38):  # 40 days in all (1 January to 9 February), one copy each
        clock.moment += timedelta(days=1)
        assert first.tick() is not None
        assert second.tick() is None
    # The newest is 9 February 2025 18:00 (a Sunday): as in the pure rule above.
    assert names(p.path for p in backups.copies_in(place.folder)) == names(
        f"remi-2025{day}-180000.db"
        for day in ["0119", "0126", "0202", "0203", "0204", "0205", "0206", "0207", "0208", "0209"]
    )
    first.stop()  # its worker ended: the other takes over, with a backup at once
    clock.moment += timedelta(hours=2)
    assert second.tick().name == "remi-20250209-200000.db"
    second.stop()


def test_a_copy_that_fails_its_check_is_said_and_nothing_older_is_pruned(
    filled, tmp_path, monkeypatch, caplog
):
    place = place_of(filled, tmp_path)
    clock = Clock(at("2025-01-01"))
    for _ in range(9):
        backups.back_up(place, clock)
        clock.moment += timedelta(days=1)
    before = names(p.path for p in backups.copies_in(place.folder))
    assert len(before) == 7  # days 3 to 9; the 5th is the newest of ISO week 1 (30 Dec-5 Jan)
    monkeypatch.setattr(backups, "integrity_problems", lambda _c: ["Page 7 is never used"])
    with caplog.at_level(logging.ERROR, "referee.backups"), pytest.raises(backups.BackupError):
        backups.back_up(place, clock)
    assert names(p.path for p in backups.copies_in(place.folder)) == before
    assert not list(place.folder.glob(".*partial"))
    assert "Backup failed: the copy failed SQLite's integrity check: Page 7 is never used" in (
        caplog.text
    )
    status = backups.read_status(place)
    assert status.failed and "Page 7 is never used" in status.reason
    assert status.path == str(place.folder / "remi-20250109-213000.db")


def test_each_copy_is_a_whole_checked_sqlite_file_readable_by_its_owner_only(filled, tmp_path):
    path = backups.back_up(place_of(filled, tmp_path))
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert not Path(str(path) + "-wal").exists()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    connection.close()
    assert every_row(f"sqlite:///{path}") == every_row(filled)


# -- the home page of the host ----------------------------------------------------------------


@pytest.fixture
def home(filled, tmp_path):
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": filled, **TEST_CONFIG, "BACKUP_DIR": str(tmp_path / "backups")}
    )
    yield app, app.test_client()
    with app.app_context():
        db.engine.dispose()


def page(client, host="127.0.0.1:5000", remote="127.0.0.1"):
    """The home page (in Indonesian, the default) as the browser at ``remote`` sees it."""
    response = client.get("/", headers={"Host": host}, environ_base={"REMOTE_ADDR": remote})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_home_page_of_the_host_says_when_and_where_the_last_backup_was_made(home, tmp_path):
    app, client = home
    assert "Belum ada cadangan yang dibuat." in page(client)  # No backup has been made yet.
    path = backups.back_up(backups.place_of(app), Clock(at("2025-05-02", "13:30")))
    shown = page(client, host="localhost:5000")
    moment = at("2025-05-02", "13:30").astimezone().strftime("%Y-%m-%d %H:%M")
    assert f"Cadangan terakhir: {moment}, di {path}" in shown  # Last backup: ..., in ...
    # A phone, or a request that only claims to be for 127.0.0.1, sees none of it.
    assert 'id="backups"' not in page(client, host="192.168.1.20:5000", remote="192.168.1.31")
    assert 'id="backups"' not in page(client, host="127.0.0.1:5000", remote="192.168.1.31")


def test_a_failed_backup_is_said_on_the_home_page_of_the_host(home, monkeypatch):
    app, client = home
    place = backups.place_of(app)
    backups.back_up(place, Clock(at("2025-05-01")))
    shutil.rmtree(place.folder)
    place.folder.write_text("a file where the folder was")  # e.g. a USB stick unplugged
    with pytest.raises(backups.BackupError):
        backups.back_up(place, Clock(at("2025-05-02")))
    shown = page(client)
    assert 'role="alert">Pencadangan terakhir gagal (' in shown  # The last backup failed (
    assert "File exists" in shown
    assert "Cadangan terakhir: " in shown  # the last good one is still named


# -- referee backup and referee restore -------------------------------------------------------


def test_backup_then_restore_into_a_fresh_install_gives_back_every_row(
    filled, tmp_path, monkeypatch, capsys
):
    assert cli.main(["backup"]) == 0
    made = backups.copies_in(tmp_path / "backups")
    assert len(made) == 1
    assert f"Backup made and checked: {made[0].path}" in capsys.readouterr().out
    fresh = tmp_path / "new-laptop" / "remi.db"
    fresh.parent.mkdir()
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{fresh}")
    monkeypatch.setenv("BACKUP_DIR", str(tmp_path / "new-laptop" / "backups"))
    assert cli.main(["restore", str(made[0].path), "--yes"]) == 0
    said = capsys.readouterr().out
    assert f"a SQLite backup of Remi Referee (schema {HEAD}): 2 tables, 2 matches, 5 rounds" in said
    assert "history check: every summary agrees with the log." in said
    assert every_row(f"sqlite:///{fresh}") == every_row(filled)
    assert not (tmp_path / "new-laptop" / "backups").exists()  # nothing to keep on a fresh one
    assert [p.name for p in fresh.parent.iterdir() if p.name.startswith(".")] == []
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{fresh}", **TEST_CONFIG})
    checked = app.test_cli_runner().invoke(args=["history", "check"])
    assert checked.exit_code == 0 and "2 matches checked: every summary agrees" in checked.output
    with app.app_context():
        db.engine.dispose()


def test_restore_over_a_database_in_use_keeps_it_first_and_asks(
    filled, tmp_path, monkeypatch, capsys
):
    backup = tmp_path / "friday.db"
    assert cli.main(["backup", str(backup)]) == 0
    assert cli.main(["backup", str(backup)]) == 2  # never over an existing file
    assert "exists already" in capsys.readouterr().err
    app = migrated_app(filled)  # a third table after the backup
    api(app.test_client(), "POST", "/api/v1/tables", {"name": "Later", "players": ["Ani"]})
    with app.app_context():
        db.engine.dispose()
    after = every_row(filled)

    def no_answer(_question):
        raise EOFError

    monkeypatch.setattr("builtins.input", no_answer)  # a closed input: no
    assert cli.main(["restore", str(backup)]) == 1
    assert "Nothing was changed." in capsys.readouterr().out
    assert every_row(filled) == after
    monkeypatch.setattr("builtins.input", lambda _question: "y")
    in_use = restore.versions_in_use(sa.make_url(filled))
    assert cli.main(["restore", str(backup)]) == 0
    said = capsys.readouterr().out
    assert every_row(filled, versions=False) == every_row(f"sqlite:///{backup}", versions=False)
    with sqlite3.connect(filled.removeprefix("sqlite:///")) as connection:
        assert connection.execute("SELECT min(version) FROM matches").fetchone()[0] > in_use
    connection.close()
    kept = next((tmp_path / "backups").glob("remi-before-restore-*.db"))
    assert f"The database as it was is kept in {kept}" in said
    assert every_row(f"sqlite:///{kept}") == after


def test_restore_is_refused_while_a_server_uses_the_database(filled, tmp_path, capsys):
    backup = backups.back_up(place_of(filled, tmp_path))
    lock = backups.try_lock(place_of(filled, tmp_path).lock_path)  # as a serving worker holds it
    try:
        assert cli.main(["restore", str(backup), "--yes"]) == 2
    finally:
        os.close(lock)
    assert "A server is using this database: stop it first" in capsys.readouterr().err


def test_an_older_backup_is_migrated_forward(tmp_path, monkeypatch, capsys):
    old = tmp_path / "old.db"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{old}", **TEST_CONFIG})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="0005_history")
        with db.engine.begin() as connection:
            connection.exec_driver_sql(
                "INSERT INTO card_tables (id, name, edit_key, view_key, created_at)"
                " VALUES (1, 'Lama', 'e' , 'v', '2024-01-05 20:00:00')"
            )
        db.engine.dispose()
    fresh = tmp_path / "remi.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{fresh}")
    monkeypatch.setenv("SECRET_KEY", "backups")
    assert cli.main(["restore", str(old), "--yes"]) == 0
    assert "Its schema (0005_history) is migrated to this version's." in capsys.readouterr().out
    with sqlite3.connect(fresh) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]
        assert connection.execute("SELECT name FROM card_tables").fetchall() == [("Lama",)]
    connection.close()


def damaged(tmp_path: Path, good: Path) -> Path:
    data = bytearray(good.read_bytes())
    data[4096 * 2 : 4096 * 6] = b"\x07" * (4096 * 4)  # pages 3 to 6 overwritten
    path = tmp_path / "damaged.db"
    path.write_bytes(bytes(data))
    return path


def foreign(tmp_path: Path, _good: Path) -> Path:
    path = tmp_path / "recipes.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.close()
    return path


def newer(tmp_path: Path, good: Path) -> Path:
    path = tmp_path / "newer.db"
    shutil.copy(good, path)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_future'")
    connection.close()
    return path


def document(tmp_path: Path, content: object) -> Path:
    path = tmp_path / "other.json.gz"
    with gzip.open(path, "wt") as out:
        json.dump(content, out)
    return path


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda tmp, good: tmp / "missing.db", "missing.db: no such file."),
        (
            lambda tmp, good: (
                tmp / "notes.txt",
                (tmp / "notes.txt").write_text("Friday: Budi 120"),
            )[0],
            "is not a Remi Referee backup: it is neither a SQLite database, a pg_dump archive nor",
        ),
        (damaged, "damaged.db is damaged: "),
        (
            foreign,
            "recipes.db is a SQLite database, but not Remi Referee's: it has no schema version",
        ),
        (
            newer,
            "a schema this version of the app does not know (0099_future): it was made by a newer",
        ),
        (
            lambda tmp, good: document(tmp, {"format": "something-else"}),
            "other.json.gz is not a Remi Referee backup: it is not a Remi Referee backup document.",
        ),
        (
            lambda tmp, good: document(
                tmp, {"format": portable.FORMAT, "revision": "0099_future", "tables": {}}
            ),
            "(0099_future): it was made by a newer version",
        ),
    ],
    ids=["missing", "text", "damaged", "foreign", "newer", "other-document", "newer-document"],
)
def test_a_file_that_is_not_a_known_backup_is_refused_and_nothing_changes(
    filled, tmp_path, capsys, make, said
):
    good = backups.back_up(place_of(filled, tmp_path))
    path = make(tmp_path, good)
    before = every_row(filled)
    assert cli.main(["restore", str(path), "--yes"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("referee restore: ") and said in error, error
    assert "Traceback" not in error
    assert every_row(filled) == before


def test_a_backup_document_restores_into_sqlite_too(filled, tmp_path):
    """The document (PostgreSQL's backup without pg_dump) is read back by any database."""
    path = tmp_path / "all.json.gz"
    portable.write(sa.make_url(filled), path)
    fresh = tmp_path / "fresh.db"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{fresh}", **TEST_CONFIG})
    backup = restore.inspect(path)
    assert backup.kind == "document" and backup.counts == {"tables": 2, "matches": 2, "rounds": 5}
    restored = restore.apply(restore.prepare(app, backup))
    assert restored.differences == [] and restored.safety_copy is None
    assert every_row(f"sqlite:///{fresh}") == every_row(filled)
    with app.app_context():
        db.engine.dispose()


# -- PostgreSQL ---------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["pg_dump", "document"])
def test_postgresql_backup_and_restore_into_a_fresh_database(tool, tmp_path, monkeypatch):
    if not os.environ.get("TEST_PG_URL"):
        pytest.skip("TEST_PG_URL not set")
    if tool == "document":
        monkeypatch.setattr(backups, "pg_tool", lambda _name: None)
    elif backups.pg_tool("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    with (
        fresh_database("postgresql", tmp_path) as first,
        fresh_database("postgresql", tmp_path) as second,
    ):
        app = migrated_app(first, BACKUP_DIR=str(tmp_path / "backups"))
        fill(app.test_client())
        with app.app_context():
            db.engine.dispose()
        path = backups.back_up(backups.place_of(app))
        assert path.name.endswith(".dump" if tool == "pg_dump" else ".json.gz")
        into = migrated_app(second, BACKUP_DIR=str(tmp_path / "backups-2"))
        api(into.test_client(), "POST", "/api/v1/tables", {"name": "Gone", "players": ["Ani"]})
        with into.app_context():
            db.engine.dispose()
        backup = restore.inspect(path)
        assert backup.revision == HEAD
        restored = restore.apply(restore.prepare(into, backup))
        assert restored.differences == []
        assert restored.safety_copy is not None and restored.safety_copy.exists()
        assert every_row(second) == every_row(first)
        # The check a plain save commits by (migration 0016_savealone) is there again, once.
        engine = sa.create_engine(second)
        with engine.connect() as connection:
            made = connection.execute(
                sa.text(
                    "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                    " WHERE proname = 'referee_moved_all' AND nspname = current_schema()"
                )
            ).scalar()
        engine.dispose()
        assert made == 1
        # The sequences follow the ids restored: the next table is a new row.
        api(into.test_client(), "POST", "/api/v1/tables", {"name": "Next", "players": ["Ani"]})
        with into.app_context():
            db.engine.dispose()


@pytest.mark.parametrize("kind", DATABASE_KINDS)
def test_a_sqlite_backup_restores_into_either_database(kind, filled, tmp_path):
    path = backups.back_up(place_of(filled, tmp_path))
    with fresh_database(kind, tmp_path) as target:
        app = migrated_app(target, BACKUP_DIR=str(tmp_path / "kept"))
        restored = restore.apply(restore.prepare(app, restore.inspect(path)))
        with app.app_context():
            db.engine.dispose()
        assert restored.differences == []
        assert every_row(target) == every_row(filled)


def test_every_moment_is_utc_in_the_names(tmp_path):
    made = backups.new_copy_path(tmp_path, datetime(2025, 5, 2, 23, 30, tzinfo=UTC), "sqlite")
    assert made.name == "remi-20250502-233000.db"
    made.touch()
    again = backups.new_copy_path(tmp_path, datetime(2025, 5, 2, 23, 30, tzinfo=UTC), "sqlite")
    assert again.name == "remi-20250502-233000-2.db"
    assert [c.path for c in backups.copies_in(tmp_path)] == [made]


# -- where a backup is written ------------------------------------------------------------------


def test_backup_into_a_missing_folder_makes_it_and_writes_inside(filled, tmp_path, capsys):
    folder = tmp_path / "usb" / "remi"
    assert cli.main(["backup", f"{folder}/"]) == 0
    made = backups.copies_in(folder)
    assert len(made) == 1 and made[0].path.parent == folder
    assert not (tmp_path / "usb" / "remi.db").exists()
    assert f"Backup made and checked: {made[0].path}" in capsys.readouterr().out


def test_backup_to_a_name_that_is_neither_a_folder_nor_a_backup_is_refused(
    filled, tmp_path, capsys
):
    assert cli.main(["backup", str(tmp_path / "usb")]) == 2
    error = capsys.readouterr().err
    assert f"{tmp_path / 'usb'} is neither a folder nor a backup's name: write" in error
    assert not (tmp_path / "usb").exists()
    assert cli.main(["backup", str(tmp_path / "nowhere" / "friday.db")]) == 2
    assert f"the folder {tmp_path / 'nowhere'} does not exist" in capsys.readouterr().err


def test_a_partial_copy_left_by_a_killed_backup_is_removed_by_the_next(filled, tmp_path):
    folder = tmp_path / "usb"
    folder.mkdir()
    host = backups.host_label()  # 999999999: above any process id, so a process that ended
    left = folder / f".remi-20250101-000000.db.{host}.999999999.0123abcd.partial"
    left.write_bytes(b"half a copy")
    writing = folder / f".remi-20250101-000000.db.{host}.{os.getpid()}.0123abcd.partial"
    writing.write_bytes(b"being written by a process that still runs")
    made = backups.back_up(place_of(filled, tmp_path), target=folder)
    assert sorted(p.name for p in folder.iterdir()) == sorted([made.name, writing.name])


def test_two_partial_copies_of_one_name_never_share_a_file(tmp_path):
    target = tmp_path / "remi-20250101-000000.db"
    assert backups.partial_path(target) != backups.partial_path(target)


def test_one_backup_schedule_per_postgresql_database_whatever_the_machine(tmp_path):
    if not os.environ.get("TEST_PG_URL"):
        pytest.skip("TEST_PG_URL not set")
    with fresh_database("postgresql", tmp_path) as url:
        folder = tmp_path / "shared-backups"
        # Two servers on two machines: each its own instance folder, one database.
        first, second = (
            backups.Schedule(
                backups.Place(sa.make_url(url), folder, tmp_path / machine / "state"),
                Clock(at("2025-01-01", "18:00")),
            )
            for machine in ("kitchen", "garage")
        )
        try:
            assert first.tick() is not None
            assert second.tick() is None  # the database's lock is held: the other makes none
            first.stop()  # the first server stops: the other takes over
            assert second.tick() is not None
        finally:
            first.stop()
            second.stop()
