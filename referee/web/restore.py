"""Putting a backup back: checked first, refused when it is not ours, migrated forward.

:func:`inspect` reads a file and says what it is, or refuses it with a sentence: not a
backup at all, damaged (SQLite's integrity check), a database that is not Remi
Referee's (no Alembic version table), or of a schema this app does not know (a
revision missing from ``migrations/versions``: made by a newer app).
:func:`prepare` readies the restore without touching the database in use, and
:func:`apply` carries it out after the player's confirmation:

- **into SQLite**: the backup is copied to a file beside the database, migrated forward
  there (Flask-Migrate's upgrade) and checked (the summaries against the log, as
  ``history check`` does); then it goes into the database in one step of SQLite's
  backup API, which writes through SQLite's own locking (never a file moved over a
  database that may have a WAL beside it).  A running server is refused first: its
  workers hold the backups' lock (:func:`referee.web.store.backups.in_use`).
- **into PostgreSQL**: the tables are dropped, then a ``pg_dump`` archive goes back
  with ``pg_restore``, and a document (or a SQLite backup, read into one) is loaded
  into the schema of its revision; then it is migrated forward.

Before anything is replaced the database in use is itself copied into the backup
folder (``remi-before-restore-<when>``), so a restore chosen by mistake is undone
with another one.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from sqlalchemy.engine import URL

from referee.web.store import backups, portable

COUNTED = (("card_tables", "tables"), ("matches", "matches"), ("rounds", "rounds"))


class Refused(Exception):
    """A file that cannot be restored, or a restore that cannot be made now, in a sentence."""


@dataclass
class Backup:
    """What a backup file holds."""

    path: Path
    kind: str  # sqlite, pg_dump or document
    revision: str
    counts: dict[str, int] = field(default_factory=dict)
    document: dict[str, Any] | None = None

    def describe(self) -> str:
        what = {
            "sqlite": "a SQLite backup",
            "pg_dump": "a PostgreSQL archive (pg_dump)",
            "document": "a backup document",
        }[self.kind]
        return f"{what} of Remi Referee (schema {self.revision}){_counted(self.counts)}"


def _counted(counts: dict[str, int]) -> str:
    if not counts:
        return ""
    return ": " + ", ".join(
        f"{counts[label]} {label}" for _name, label in COUNTED if label in counts
    )


# -- the schema ---------------------------------------------------------------------------------


def script_directory() -> Any:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from referee.web.serving.paths import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def known_revisions() -> set[str]:
    return {script.revision for script in script_directory().walk_revisions()}


def head_revision() -> str:
    return str(script_directory().get_current_head())


def _known(path: Path, revision: Any) -> str:
    if not isinstance(revision, str) or not revision:
        raise Refused(f"{path} is not a Remi Referee backup: its schema version is missing.")
    if revision not in known_revisions():
        raise Refused(
            f"{path} is a Remi Referee backup of a schema this version of the app does not "
            f"know ({revision}): it was made by a newer version. Update the app, then restore it."
        )
    return revision


# -- reading a file -----------------------------------------------------------------------------


def inspect(path: Path) -> Backup:
    """What ``path`` holds; raises :class:`Refused` with the reason it cannot be restored."""
    if not path.is_file():
        raise Refused(f"{path}: no such file.")
    with path.open("rb") as file:
        header = file.read(16)
    if header.startswith(backups.SQLITE_HEADER):
        return _inspect_sqlite(path)
    if header.startswith(backups.PG_DUMP_HEADER):
        return _inspect_pg_dump(path)
    if header.startswith(backups.GZIP_HEADER):
        try:
            document = portable.read(path)
        except portable.DocumentError as error:
            raise Refused(f"{path} is not a Remi Referee backup: {error}.") from error
        revision = _known(path, document.get("revision"))
        counts = {
            label: len(document["tables"].get(name, {}).get("rows", [])) for name, label in COUNTED
        }
        return Backup(path, "document", revision, counts, document)
    raise Refused(
        f"{path} is not a Remi Referee backup: it is neither a SQLite database, "
        "a pg_dump archive nor a backup document."
    )


def _inspect_sqlite(path: Path) -> Backup:
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise Refused(f"{path} cannot be opened: {error}.") from error
    try:
        problems = backups.integrity_problems(connection)
        if problems:
            raise Refused(
                f"{path} is damaged: SQLite's integrity check says: {'; '.join(problems[:3])}."
            )
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if portable.VERSION_TABLE not in names:
            raise Refused(
                f"{path} is a SQLite database, but not Remi Referee's: it has no schema "
                "version (alembic_version)."
            )
        revision = _known(
            path, connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        )
        counts = {
            label: connection.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
            for name, label in COUNTED
            if name in names
        }
    except sqlite3.DatabaseError as error:
        raise Refused(f"{path} is damaged: {error}.") from error
    finally:
        connection.close()
    return Backup(path, "sqlite", revision, counts)


def _inspect_pg_dump(path: Path) -> Backup:
    # pg_restore reads the archive without a database: its version table's data, as text.
    try:
        listed = backups.run_pg_tool(
            "pg_restore",
            URL.create("postgresql"),
            "--data-only",
            "--table=alembic_version",
            "--file=-",
            str(path),
        ).stdout.decode()
    except backups.BackupError as error:
        raise Refused(f"{path} cannot be read as a pg_dump archive: {error}.") from error
    lines = listed.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("COPY "))
    except StopIteration:
        raise Refused(
            f"{path} is a pg_dump archive, but not Remi Referee's: it has no schema version "
            "(alembic_version)."
        ) from None
    revision = lines[start + 1].strip() if len(lines) > start + 1 else ""
    return Backup(path, "pg_dump", _known(path, revision if revision != "\\." else ""))


# -- restoring ----------------------------------------------------------------------------------


@dataclass
class Prepared:
    backup: Backup
    place: backups.Place
    current: dict[str, int]  # what the database in use holds now
    staging: Path | None = None  # SQLite: the backup, migrated, beside the database
    migrated_from: str | None = None

    def discard(self) -> None:
        if self.staging is not None:
            for suffix in ("", "-wal", "-shm", "-writers"):
                Path(str(self.staging) + suffix).unlink(missing_ok=True)
            self.staging = None


@dataclass
class Restored:
    safety_copy: Path | None
    migrated_from: str | None
    differences: list[str]
    counts: dict[str, int]


def _migrate(url: URL, revision: str = "head") -> None:
    """Flask-Migrate's upgrade of the database at ``url`` (in an app of its own)."""
    from flask_migrate import upgrade

    from referee.web import create_app
    from referee.web.serving.paths import MIGRATIONS
    from referee.web.store.extensions import db

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url.render_as_string(hide_password=False),
            "AUTO_MIGRATE": False,
            "BACKUPS": "off",
        }
    )
    with app.app_context():
        try:
            upgrade(directory=str(MIGRATIONS), revision=revision)
        finally:
            db.engine.dispose()


def _counts(url: URL) -> dict[str, int]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            present = set(sa.inspect(connection).get_table_names())
            return {
                label: connection.execute(sa.text(f"SELECT count(*) FROM {name}")).scalar_one()
                for name, label in COUNTED
                if name in present
            }
    finally:
        engine.dispose()


def prepare(app: Flask, backup: Backup) -> Prepared:
    """Everything short of replacing the database in use; raises :class:`Refused`."""
    place = backups.place_of(app)
    if backups.in_use(place):
        raise Refused(
            "A server is using this database: stop it first (Ctrl+C where `make run` runs), "
            "then restore."
        )
    prepared = Prepared(backup, place, _counts(place.url))
    if backup.revision != head_revision():
        prepared.migrated_from = backup.revision
    if place.sqlite_file is None:
        if backup.kind == "pg_dump" and place.url.get_backend_name() != "postgresql":
            raise Refused("A pg_dump archive can only be restored into PostgreSQL.")
        return prepared
    if backup.kind == "pg_dump":
        raise Refused(
            "A pg_dump archive can only be restored into PostgreSQL: set DATABASE_URL to one."
        )
    live = place.sqlite_file
    live.parent.mkdir(parents=True, exist_ok=True)
    staging = live.with_name(f".{live.name}.restore-{os.getpid()}")
    Prepared(backup, place, {}, staging).discard()  # left by a restore that was stopped
    prepared.staging = staging
    staging_url = URL.create("sqlite", database=str(prepared.staging))
    try:
        if backup.kind == "sqlite":
            backups._private(prepared.staging)
            backups.copy_sqlite(backup.path, prepared.staging)
        else:
            assert backup.document is not None
            backups._private(prepared.staging)
            _load_document(staging_url, backup.document)
        _migrate(staging_url)
    except (backups.BackupError, portable.DocumentError, sa.exc.SQLAlchemyError) as error:
        prepared.discard()
        raise Refused(f"{backup.path} could not be read back: {error}") from error
    except BaseException:
        prepared.discard()
        raise
    return prepared


def _load_document(url: URL, document: dict[str, Any]) -> None:
    _migrate(url, document["revision"])
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            portable.load(connection, document)
    finally:
        engine.dispose()


def _safety_copy(prepared: Prepared, now: datetime) -> Path | None:
    if not prepared.current.get("tables"):
        return None  # a fresh install: nothing to keep
    place = prepared.place
    stamp = now.astimezone(UTC).strftime(backups.STAMP_FORMAT)
    target = place.folder / (
        f"remi-before-restore-{stamp}" + backups.SUFFIXES[backups.kind_of(place.url)]
    )
    return backups.make_copy(place, target)


def apply(prepared: Prepared, clock: Callable[[], datetime] = backups.utcnow) -> Restored:
    """Replace the database in use with the prepared backup; what was done."""
    place = prepared.place
    try:
        if backups.in_use(place):
            raise Refused("A server started meanwhile: stop it, then restore.")
        try:
            safety = _safety_copy(prepared, clock())
        except backups.BackupError as error:
            raise Refused(
                f"The database in use could not be copied first, so nothing was changed: {error}"
            ) from error
        if prepared.staging is not None:
            assert place.sqlite_file is not None
            _copy_into_sqlite(prepared.staging, place.sqlite_file)
        else:
            _restore_into_server(place.url, prepared.backup)
    finally:
        prepared.discard()
    return Restored(safety, prepared.migrated_from, _check(place.url), _counts(place.url))


def _copy_into_sqlite(staging: Path, live: Path) -> None:
    source = backups.sqlite_connect(staging)
    target = backups.sqlite_connect(live)
    try:
        source.backup(target, pages=-1)
    finally:
        target.close()
        source.close()


# PostgreSQL: the functions the migrations make (0016_savealone) are named so, and go with
# the tables (a dump restored makes them again).
FUNCTIONS_MADE = sa.text(
    "SELECT p.oid::regprocedure::text FROM pg_proc p"
    " JOIN pg_namespace n ON n.oid = p.pronamespace"
    " WHERE n.nspname = current_schema() AND p.proname LIKE 'referee\\_%'"
)


def _drop_everything(url: URL) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            metadata = sa.MetaData()
            metadata.reflect(connection)
            metadata.drop_all(connection)
            if connection.dialect.name == "postgresql":
                for function in connection.execute(FUNCTIONS_MADE).scalars().all():
                    connection.exec_driver_sql(f"DROP FUNCTION {function}")
    finally:
        engine.dispose()


def _restore_into_server(url: URL, backup: Backup) -> None:
    document = backup.document
    if backup.kind == "sqlite":
        source = sa.create_engine(URL.create("sqlite", database=str(backup.path)))
        try:
            with source.connect() as connection:
                document = portable.document_of(connection)
        finally:
            source.dispose()
    _drop_everything(url)
    if backup.kind == "pg_dump":
        backups.run_pg_tool(
            "pg_restore",
            url,
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            "--dbname",
            str(url.database),
            str(backup.path),
        )
    else:
        assert document is not None
        _load_document(url, document)
    _migrate(url)


def _check(url: URL) -> list[str]:
    """``history check`` on the restored database: the differences, in words."""
    from referee.web.store import summary

    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return [str(difference) for difference in summary.check(connection)]
    finally:
        engine.dispose()
