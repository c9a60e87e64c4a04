"""The servers of a database, announced in the database itself.

Every worker of ``referee serve`` refreshes its server's row of ``serving_servers`` (the
host, the process id of the server's main process, when it started, when it was last
seen) every :data:`BEAT_EVERY` seconds from a thread of its own, and removes it when it
stops.  A row not refreshed for :data:`STALE_AFTER` seconds is a server that is gone (a
machine switched off, a ``kill -9``).  A restore reads these rows, so it is refused while
any server of the database serves, whatever its settings and on whichever machine; a
lock on this machine's disk could only see the servers of this machine.

Time is the database's own clock on PostgreSQL (servers on several machines), this
machine's on SQLite (every server of a SQLite file runs beside it).
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.pool import NullPool

from referee.web.store.models import ServingServer

log = logging.getLogger("referee.servers")

BEAT_EVERY = 5.0  # seconds
STALE_AFTER = timedelta(seconds=30)
SERVERS = cast(sa.Table, ServingServer.__table__)


@dataclass(frozen=True)
class Serving:
    """A server seen lately: where it runs and how long ago it said so."""

    host: str
    pid: int
    seen_ago: timedelta

    def __str__(self) -> str:
        return (
            f"the server on host {self.host}, pid {self.pid}, "
            f"seen {max(0, round(self.seen_ago.total_seconds()))} s ago"
        )


def this_host() -> str:
    return socket.gethostname() or "localhost"


def database_now(connection: Connection) -> datetime:
    if connection.dialect.name == "postgresql":
        moment: datetime = connection.execute(sa.select(sa.func.now())).scalar_one()
        return moment.astimezone(UTC)
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def serving(connection: Connection) -> list[Serving]:
    """The servers of this database seen in the last :data:`STALE_AFTER`, longest serving
    first (none when the database has no such table yet: no server of this version ran)."""
    if not sa.inspect(connection).has_table(SERVERS.name):
        return []
    now = database_now(connection)
    rows = connection.execute(
        sa.select(SERVERS.c.host, SERVERS.c.pid, SERVERS.c.seen_at)
        .where(SERVERS.c.seen_at > now - STALE_AFTER)
        .order_by(SERVERS.c.started_at)
    ).all()
    return [Serving(host, pid, now - _aware(seen)) for host, pid, seen in rows]


def serving_at(url: URL) -> list[Serving]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return serving(connection)
    except sa.exc.OperationalError:
        return []  # no database there yet: nothing serves it
    finally:
        engine.dispose()


class Heartbeat:
    """One worker's announcements of its server (``pid``: the server's main process)."""

    def __init__(self, engine: Engine, pid: int, host: str | None = None) -> None:
        self.engine = engine
        self.pid = pid
        self.host = host or this_host()
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def beat(self) -> None:
        """This server seen now (its row made if it has none: the first worker, or the
        table emptied by a restore)."""
        with self.engine.begin() as connection:
            now = database_now(connection)
            mine = (SERVERS.c.host == self.host) & (SERVERS.c.pid == self.pid)
            if connection.execute(SERVERS.update().where(mine).values(seen_at=now)).rowcount:
                return
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    SERVERS.insert().values(
                        host=self.host, pid=self.pid, started_at=now, seen_at=now
                    )
                )
        except sa.exc.IntegrityError:  # another worker of this server made it meanwhile
            pass

    def forget(self) -> None:
        """This server stopped (its last worker going: a restore need not wait for it)."""
        with self.engine.begin() as connection:
            connection.execute(
                SERVERS.delete().where((SERVERS.c.host == self.host) & (SERVERS.c.pid == self.pid))
            )

    def try_beat(self) -> None:
        try:
            self.beat()
        except Exception as error:  # the database busy or away a moment: the next beat tries
            log.warning("this server could not announce itself in the database: %s", error)

    def run(self) -> None:
        while not self.stopping.wait(BEAT_EVERY):
            self.try_beat()

    def start(self) -> None:
        self.try_beat()  # before the first request is served
        self.thread = threading.Thread(target=self.run, name="remi-heartbeat", daemon=True)
        self.thread.start()
        atexit.register(self.stop)

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(5)
            self.thread = None
            try:
                self.forget()
            except Exception as error:
                log.warning("this server could not say it stopped: %s", error)


def own_engine(url: URL) -> Engine:
    """The heartbeat's connections, apart from the app's pool and its SQLite write queue: a
    beat that finds SQLite's write lock taken gives up after a second (the next one tries
    again) instead of holding a connection through the app's long busy timeout."""
    if url.get_backend_name() == "sqlite":
        return sa.create_engine(url, poolclass=NullPool, connect_args={"timeout": 1})
    return sa.create_engine(url, poolclass=NullPool, connect_args={"connect_timeout": 10})


def announce(app: object, pid: int | None = None) -> Heartbeat:
    """Start announcing this worker's server in ``app``'s database (``pid``: the server's
    main process, by default this worker's parent: gunicorn's arbiter)."""
    from flask import Flask

    from referee.web.store.extensions import db

    assert isinstance(app, Flask)
    with app.app_context():
        url = db.engine.url
    heartbeat = Heartbeat(own_engine(url), pid if pid is not None else os.getppid())
    heartbeat.start()
    return heartbeat
