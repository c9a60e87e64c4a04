"""Putting a backup back: read whole and checked in a staging copy, then swapped in.

:func:`inspect` reads a file and says what it is, or refuses it with a sentence: not a
backup at all, damaged (SQLite's integrity check), a database that is not Remi
Referee's (no Alembic version table), or of a schema this app does not know (a
revision missing from ``migrations/versions``: made by a newer app).
:func:`prepare` reads the whole backup into a staging copy without touching the
database in use (SQLite: a file beside it; PostgreSQL: a schema of its own in the same
database), migrates it forward and checks it (integrity, every table and column of
this schema, readable, at this revision); :func:`apply` swaps it in after the player's
confirmation, in one step: SQLite's backup API (through SQLite's own locking, never a
file moved over a database that may have a WAL beside it); on PostgreSQL two schema
renames in one transaction, the replaced schema kept.  Nothing is dropped first.

Both refuse while any server serves the database (:mod:`referee.web.store.servers`),
and the database in use is first copied into the backup folder
(``remi-before-restore-<when>``), so a restore chosen by mistake is undone with another
one.  The staged copy gets a new generation (``database_identity``): what was kept per
match version before the restore is not served after it.  ``docs/restore.md`` says it
for the people who run it.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from sqlalchemy.engine import URL

from referee.web.store import backups, portable, servers

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
        return f"{what} of Remi Referee (schema {self.revision}){counted(self.counts)}"


def counted(counts: dict[str, int]) -> str:
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


# -- restoring ---------------------------------------------------------------------------------

STAGING_SCHEMA = "referee_restoring"
REPLACED_SCHEMA = "referee_replaced_"  # + when: the schema a restore replaced, kept


@dataclass
class Prepared:
    """A backup checked whole in a staging copy beside the database in use, ready to swap in."""

    backup: Backup
    place: backups.Place
    current: dict[str, int]  # what the database in use holds now
    staging: Path | None = None  # SQLite: the backup, migrated and checked, beside the database
    staging_schema: str | None = None  # PostgreSQL: the same, in a schema of the database
    migrated_from: str | None = None

    def discard(self) -> None:
        if self.staging is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(str(self.staging) + suffix).unlink(missing_ok=True)
            self.staging = None
        if self.staging_schema is not None:
            _drop_schema(self.place.url, self.staging_schema)
            self.staging_schema = None


@dataclass
class Restored:
    safety_copy: Path | None
    migrated_from: str | None
    differences: list[str]
    counts: dict[str, int]
    replaced_schema: str | None = None  # PostgreSQL: where the replaced tables still are


def _migrate(url: URL, revision: str = "head") -> None:
    """Flask-Migrate's upgrade of the database at ``url`` (in an app of its own), without
    Alembic's line per revision (a person reads what the restore says instead)."""
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
    logging.disable(logging.INFO)
    try:
        with app.app_context():
            try:
                upgrade(directory=str(MIGRATIONS), revision=revision)
            finally:
                db.engine.dispose()
    finally:
        logging.disable(logging.NOTSET)


def _counts(url: URL) -> dict[str, int]:
    if url.get_backend_name() == "sqlite" and not Path(str(url.database)).exists():
        return {}  # no database yet (and none made by looking)
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


def refuse_while_serving(place: backups.Place) -> None:
    """Raise :class:`Refused` naming the servers that serve this database now."""
    seen = servers.serving_at(place.url)
    if seen:
        named = "; ".join(str(server) for server in seen)
        verb = "is" if len(seen) == 1 else "are"
        raise Refused(f"{named[0].upper()}{named[1:]} {verb} serving this database: stop it first.")
    if backups.in_use(place):  # a server of an older version, which does not announce itself
        raise Refused(
            "A server is using this database: stop it first (Ctrl+C where `make run` runs), "
            "then restore."
        )


def prepare(app: Flask, backup: Backup) -> Prepared:
    """The backup read whole into a staging copy, migrated forward and checked, without
    touching the database in use; raises :class:`Refused`."""
    place = backups.place_of(app)
    refuse_while_serving(place)
    prepared = Prepared(backup, place, _counts(place.url))
    if backup.revision != head_revision():
        prepared.migrated_from = backup.revision
    if backup.kind == "pg_dump" and place.url.get_backend_name() != "postgresql":
        raise Refused(
            "A pg_dump archive can only be restored into PostgreSQL: set DATABASE_URL to one."
        )
    try:
        if place.sqlite_file is None:
            staging_url = _stage_in_schema(prepared)
        else:
            staging_url = _stage_in_file(prepared)
        _check_staged(staging_url, backup, versions_in_use(place.url))
    except Refused:
        prepared.discard()
        raise
    except (backups.BackupError, portable.DocumentError, sa.exc.SQLAlchemyError) as error:
        prepared.discard()
        raise Refused(
            f"{backup.path} could not be read back whole, so nothing was changed: {error}"
        ) from error
    except BaseException:
        prepared.discard()
        raise
    return prepared


def _stage_in_file(prepared: Prepared) -> URL:
    backup, live = prepared.backup, prepared.place.sqlite_file
    assert live is not None
    live.parent.mkdir(parents=True, exist_ok=True)
    for left in live.parent.glob(f".{live.name}.restore-*"):  # by a restore that was stopped
        left.unlink(missing_ok=True)
    prepared.staging = live.with_name(f".{live.name}.restore-{os.getpid()}")
    staging_url = URL.create("sqlite", database=str(prepared.staging))
    backups._private(prepared.staging)
    if backup.kind == "sqlite":
        backups.copy_sqlite(backup.path, prepared.staging)
    else:
        assert backup.document is not None
        _load_document(staging_url, backup.document, backup.path)
    _migrate(staging_url)
    return staging_url


def _load_document(url: URL, document: dict[str, Any], source: Path) -> None:
    _migrate(url, document["revision"])
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            missing = sorted(
                set(sa.inspect(connection).get_table_names())
                - set(document["tables"])
                - {portable.VERSION_TABLE}
            )
            if missing:
                raise Refused(
                    f"{source} is incomplete: it has no table {', '.join(missing)}. "
                    "Nothing was changed."
                )
            portable.load(connection, document)
    finally:
        engine.dispose()


def _in_schema(url: URL, schema: str) -> URL:
    """``url`` with every name looked up in ``schema`` (libpq's options)."""
    return url.update_query_dict({"options": f"-csearch_path={schema}"})


def _stage_in_schema(prepared: Prepared) -> URL:
    """PostgreSQL: the backup restored into a schema of its own in the database in use."""
    backup, url = prepared.backup, prepared.place.url
    schema = f"{STAGING_SCHEMA}_{os.getpid()}"
    _drop_schema(url, schema)
    prepared.staging_schema = schema
    staging_url = _in_schema(url, schema)
    if backup.kind == "pg_dump":
        _pg_restore_into(url, backup.path, schema)
    else:
        document = backup.document
        if backup.kind == "sqlite":
            source = sa.create_engine(URL.create("sqlite", database=str(backup.path)))
            try:
                with source.connect() as connection:
                    document = portable.document_of(connection)
            finally:
                source.dispose()
        assert document is not None
        _run(url, f'CREATE SCHEMA "{schema}"')
        _load_document(staging_url, document, backup.path)
    _migrate(staging_url)
    return staging_url


def _run(url: URL, *statements: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            for statement in statements:
                connection.exec_driver_sql(statement)
    finally:
        engine.dispose()


def _drop_schema(url: URL, schema: str) -> None:
    _run(url, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _live_schema(url: URL) -> str:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return str(connection.execute(sa.text("SELECT current_schema()")).scalar_one())
    finally:
        engine.dispose()


def _pg_restore_into(url: URL, archive: Path, schema: str) -> None:
    """The archive read whole (``pg_restore`` into a script: a damaged or cut archive fails
    here), then run in one transaction that sets the schema in use aside, restores into a
    new one of its name, renames that to ``schema`` and puts the one in use back: the
    tables in use are the same before and after, and nothing is left half done."""
    live = _live_schema(url)
    with tempfile.TemporaryDirectory(prefix="remi-restore-") as folder:
        script = Path(folder) / "restore.sql"
        backups.run_pg_tool(
            "pg_restore", url, "--no-owner", "--no-privileges", "--file", str(script), str(archive)
        )
        aside = f"{STAGING_SCHEMA}_aside_{os.getpid()}"
        wrapped = Path(folder) / "wrapped.sql"
        with wrapped.open("w") as out:
            out.write(f'ALTER SCHEMA "{live}" RENAME TO "{aside}";\nCREATE SCHEMA "{live}";\n')
            out.write(f"\\i {script}\n")
            out.write(
                "SELECT pg_catalog.set_config('search_path', 'public', false);\n"
                f'ALTER SCHEMA "{live}" RENAME TO "{schema}";\n'
                f'ALTER SCHEMA "{aside}" RENAME TO "{live}";\n'
            )
        psql = backups.pg_tool("psql")
        if psql is None:
            raise backups.BackupError("psql is not installed")
        done = subprocess.run(
            [
                psql,
                "--no-psqlrc",
                "--quiet",
                "--single-transaction",
                "--set=ON_ERROR_STOP=1",
                "--file",
                str(wrapped),
            ],
            env=backups.pg_environment(url),
            capture_output=True,
            timeout=3600,
        )
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise backups.BackupError(
            "pg_restore failed: " + (said[-1] if said else f"exit {done.returncode}")
        )


# Every version a phone or a form may have seen (an ETag, a form's hidden field, a kept
# state's match version): raised past the highest in use by the restored copy.
VERSIONS = (
    ("matches", "version"),
    ("rounds", "version"),
    ("house_rules", "version"),
    ("match_replays", "match_version"),
    ("statistics_versions", "version"),
)


def versions_in_use(url: URL) -> int:
    """The highest version of anything in the database at ``url`` (0: none, or no database)."""
    if url.get_backend_name() == "sqlite" and not Path(str(url.database)).exists():
        return 0
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            present = set(sa.inspect(connection).get_table_names())
            return max(
                (
                    connection.execute(sa.text(f"SELECT max({column}) FROM {table}")).scalar() or 0
                    for table, column in VERSIONS
                    if table in present
                ),
                default=0,
            )
    finally:
        engine.dispose()


def _check_staged(url: URL, backup: Backup, above: int = 0) -> None:
    """The staged copy is whole: SQLite's integrity check, every table and column of this
    version's schema there and readable, at this version's revision."""
    from referee.web.store.extensions import db

    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "sqlite":
                problems = [
                    str(row[0])
                    for row in connection.exec_driver_sql("PRAGMA integrity_check").all()
                ]
                if problems != ["ok"]:
                    raise Refused(
                        f"{backup.path} is damaged: SQLite's integrity check says: "
                        f"{'; '.join(problems[:3])}. Nothing was changed."
                    )
            found = sa.inspect(connection)
            present = set(found.get_table_names())
            for table in db.metadata.sorted_tables:
                if table.name not in present:
                    raise Refused(
                        f"{backup.path} is incomplete: it has no table {table.name}. "
                        "Nothing was changed."
                    )
                columns = {column["name"] for column in found.get_columns(table.name)}
                missing = [column.name for column in table.columns if column.name not in columns]
                if missing:
                    raise Refused(
                        f"{backup.path} is incomplete: its table {table.name} lacks "
                        f"{', '.join(missing)}. Nothing was changed."
                    )
                connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
            if portable.revision_of(connection) != head_revision():
                raise Refused(
                    f"{backup.path} could not be brought to this version's schema. "
                    "Nothing was changed."
                )
            # A new generation (what was kept per match version before is not this), and
            # no servers: the backup's were those of another moment.
            identity = db.metadata.tables["database_identity"]
            connection.execute(identity.delete())
            connection.execute(identity.insert().values(id=1, generation=secrets.token_hex(16)))
            connection.execute(db.metadata.tables["serving_servers"].delete())
            # A restore brings back versions that were used already: a phone holding the
            # match at version 7 must not be told "not modified" by another match at 7,
            # nor a form seen at 7 be saved over it.  Every restored version goes past
            # the highest in use (``above``), so none from before names anything now.
            if above:
                for name, column in VERSIONS:
                    connection.execute(
                        sa.text(f"UPDATE {name} SET {column} = {column} + :above"),
                        {"above": above},
                    )
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
    """Swap the checked copy in for the database in use, in one step; what was done."""
    place = prepared.place
    replaced = None
    try:
        refuse_while_serving(place)
        now = clock()
        try:
            safety = _safety_copy(prepared, now)
        except backups.BackupError as error:
            raise Refused(
                f"The database in use could not be copied first, so nothing was changed: {error}"
            ) from error
        if prepared.staging is not None:
            assert place.sqlite_file is not None
            _copy_into_sqlite(prepared.staging, place.sqlite_file)
        else:
            assert prepared.staging_schema is not None
            replaced = REPLACED_SCHEMA + now.astimezone(UTC).strftime("%Y%m%d_%H%M%S")
            live = _live_schema(place.url)
            # One transaction: another connection sees the old tables or the new ones.
            _run(
                place.url,
                f'ALTER SCHEMA "{live}" RENAME TO "{replaced}"',
                f'ALTER SCHEMA "{prepared.staging_schema}" RENAME TO "{live}"',
            )
            prepared.staging_schema = None
    finally:
        prepared.discard()
    return Restored(safety, prepared.migrated_from, _check(place.url), _counts(place.url), replaced)


def _copy_into_sqlite(staging: Path, live: Path) -> None:
    """SQLite's backup API in one step: it writes through SQLite's own locking (never a file
    moved over a database that may have a WAL beside it)."""
    source = backups.sqlite_connect(staging)
    target = backups.sqlite_connect(live)
    try:
        source.backup(target, pages=-1)
    finally:
        target.close()
        source.close()


def _check(url: URL) -> list[str]:
    """``history check`` on the restored database: the differences, in words."""
    from referee.web.store import summary

    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return [str(difference) for difference in summary.check(connection)]
    finally:
        engine.dispose()
