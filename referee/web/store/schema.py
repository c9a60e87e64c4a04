"""The database brought up to date before serving, and the secret every server shares.

``referee serve`` runs the migrations a database lacks before it serves
(:func:`bring_up_to_date`), so an older database is never served a page that expects
a newer one.  Several servers may start at once on one database: the migrations run
under a database lock (``pg_advisory_lock`` on PostgreSQL, a lock on a file beside a
SQLite database), the first server migrates and the others find it done.

The secret that signs the forms and the session cookie must be the same on every server
(a form loaded from one is posted to another).  Unless ``SECRET_KEY`` gives it, the first
server to start keeps one in the database (:class:`StoredSetting`) and the others read it.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from sqlalchemy.orm import Mapped, mapped_column

from referee.web.serving.paths import MIGRATIONS
from referee.web.store.extensions import db, sqlite_path
from referee.web.store.filelock import locked_file

if TYPE_CHECKING:  # Flask-SQLAlchemy's db.Model is this declarative base, made at run time
    from referee.web.store.extensions import Base as Model
else:
    Model = db.Model

log = logging.getLogger(__name__)

# pg_advisory_lock's key for the migrations: any number no other lock of the app uses.
MIGRATION_LOCK = 0x52454D49  # "REMI"
SECRET_KEY_NAME = "secret_key"


class StoredSetting(Model):
    """A setting every server of one database shares (the secret that signs the forms)."""

    __tablename__ = "stored_settings"
    name: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    value: Mapped[str] = mapped_column(sa.Text)


@lru_cache(maxsize=1)
def head_revisions() -> frozenset[str]:
    """The revisions of the newest schema, as this version of the app knows it."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def current_revisions(connection: sa.Connection) -> frozenset[str]:
    """The revisions the database is at (empty for a database never migrated)."""
    return frozenset(MigrationContext.configure(connection).get_current_heads())


def is_up_to_date(engine: sa.Engine) -> bool:
    with engine.connect() as connection:
        return current_revisions(connection) == head_revisions()


@contextmanager
def migration_lock(app: Flask, engine: sa.Engine) -> Iterator[None]:
    """Held by one server at a time, across machines on PostgreSQL."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                yield
            finally:
                connection.execute(
                    sa.text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK}
                )
        return
    path = sqlite_path(app)
    if path is None:  # in memory: one process
        yield
        return
    descriptor = locked_file(f"{path}-migrations")
    try:
        yield
    finally:
        if descriptor is not None:
            os.close(descriptor)


def bring_up_to_date(app: Flask) -> bool:
    """Run the migrations the database lacks, one server at a time; whether any ran.

    Raises SQLAlchemy's ``OperationalError`` when the database cannot be reached."""
    from flask_migrate import upgrade

    with app.app_context():
        engine = db.engine
        if is_up_to_date(engine):
            return False
        with migration_lock(app, engine):
            if is_up_to_date(engine):  # another server did it while this one waited
                return False
            log.warning("bringing the database up to date (migrations)")
            upgrade(directory=str(MIGRATIONS))
            return True


def shared_secret(app: Flask, first: Callable[[], str]) -> str | None:
    """The secret kept in the database, kept there first (``first()``) if it has none;
    None if the database cannot say (not reachable, or not migrated yet)."""
    query = sa.select(StoredSetting.value).where(StoredSetting.name == SECRET_KEY_NAME)
    with app.app_context():
        engine = db.engine
        try:
            with engine.connect() as connection:
                found = connection.execute(query).scalar()
            if found:
                return str(found)
            try:
                with engine.begin() as connection:
                    connection.execute(
                        sa.insert(StoredSetting).values(name=SECRET_KEY_NAME, value=first())
                    )
            except sa.exc.IntegrityError:
                pass  # another server kept its own first: that one is everyone's
            with engine.connect() as connection:
                found = connection.execute(query).scalar()
        except (sa.exc.OperationalError, sa.exc.ProgrammingError) as error:
            log.info("no secret in the database (%s)", type(error).__name__)
            return None
        finally:
            engine.dispose()  # nothing opened here may cross a fork into the workers
        return str(found) if found else None


def first_secret(instance: Path) -> Callable[[], str]:
    """The secret a database is given first: the one this machine kept before the database
    did (so the phones' forms and sessions go on), else a new one."""

    def make() -> str:
        try:
            kept = (instance / "secret_key").read_text().strip()
        except OSError:
            kept = ""
        return kept or secrets.token_urlsafe(32)

    return make
