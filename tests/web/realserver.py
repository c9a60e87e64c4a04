"""The app served for real: gunicorn with several worker processes on 127.0.0.1, and phones.

Used by the tests that need what the test client cannot give: requests that
really run at the same moment in different processes, and a server killed with
SIGKILL.  A "phone" is a ``requests.Session`` with its own cookies and CSRF
token, reading the hidden fields of a form from the page as a browser would.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
import sqlalchemy as sa

from .conftest import form_page, hidden_inputs, migrated_app

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """``count`` different ports free on 127.0.0.1 (probed together, so none twice)."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


@dataclass
class Server:
    url: str
    database: str
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(20)


def launch_server(
    database: str,
    tmp: Path,
    workers: int = 3,
    threads: int = 4,
    environment: dict[str, str] | None = None,
    port: int | None = None,
) -> Server:
    """``referee serve`` started, not yet answering (:func:`serving` waits for it)."""
    port = port or free_port()
    log = tmp / f"server-{port}.log"
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": "races-" + secrets.token_hex(8),
        "RATELIMIT_ENABLED": "false",
        "BACKUP_DIR": str(tmp / "backups"),
        **(environment or {}),
    }
    # The command `make run` ends with, with more workers than its default.
    command = [
        str(Path(sys.executable).with_name("referee")),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--threads",
        str(threads),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return Server(f"http://127.0.0.1:{port}", database, process, log)


def start_server(
    database: str,
    tmp: Path,
    workers: int = 3,
    threads: int = 4,
    environment: dict[str, str] | None = None,
) -> Server:
    """``referee serve`` (gunicorn, gthread workers) on a free port of 127.0.0.1, once it
    answers.

    Its automatic backups go to ``tmp/backups``, unless ``environment`` says otherwise."""
    return serving(launch_server(database, tmp, workers, threads, environment))


def serving(server: Server) -> Server:
    """``server`` once it answers (stopped, with its log, if it does not within a minute)."""
    process, log = server.process, server.log
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server stopped:\n" + log.read_text())
        try:
            if requests.get(server.url + "/", timeout=10).status_code == 200:
                return server
        except requests.RequestException:
            time.sleep(0.2)
    server.stop(signal.SIGKILL)
    raise RuntimeError("the server did not start:\n" + log.read_text())


def migrate(database: str) -> None:
    from referee.web.store.extensions import db

    app = migrated_app(database)
    with app.app_context():
        db.engine.dispose()


# This process's migrated databases that fresh ones are copied from (migrating one costs a
# second or two; a copy, a few milliseconds on SQLite, a tenth of a second on PostgreSQL).
_TEMPLATES: dict[str, str] = {}
_TEMPLATE_FOLDER = tempfile.TemporaryDirectory(prefix="remi-templates-")


def _template(kind: str, admin: sa.Engine | None = None) -> str:
    """The SQLite file, or the PostgreSQL database's name, migrated once per process."""
    if kind in _TEMPLATES:
        return _TEMPLATES[kind]
    if kind == "sqlite":
        path = f"{_TEMPLATE_FOLDER.name}/template.db"
        migrate(f"sqlite:///{path}")
        _TEMPLATES[kind] = path
        return path
    assert admin is not None
    base = os.environ["TEST_PG_URL"]
    name = base.rsplit("/", 1)[1] + "_template"
    with admin.connect() as connection:
        connection.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.exec_driver_sql(f"CREATE DATABASE {name}")
    migrate(base.rsplit("/", 1)[0] + "/" + name)  # its connections closed: copies may be made
    _TEMPLATES[kind] = name
    return name


@contextmanager
def fresh_database(kind: str, tmp: Path) -> Iterator[str]:
    """An empty, migrated database: a SQLite file, or a new database on the test PostgreSQL."""
    if kind == "sqlite":
        path = tmp / f"races-{uuid.uuid4().hex[:8]}.db"
        shutil.copy(_template(kind), path)
        yield f"sqlite:///{path}"
        return
    base = os.environ["TEST_PG_URL"]
    name = "races_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    template = _template(kind, admin)
    with admin.connect() as connection:
        connection.exec_driver_sql(f"CREATE DATABASE {name} TEMPLATE {template}")
    url = base.rsplit("/", 1)[0] + "/" + name
    try:
        yield url
    finally:
        _drop_database(admin, name)
        admin.dispose()


def _drop_database(admin: sa.Engine, name: str) -> None:
    """Drop a test database, waiting out a moment of PostgreSQL's own: after a restore of
    many rows an autovacuum worker may be in it, which the test role may not terminate."""
    for wait in (0.2, 0.5, 1, 2, 4, 0):
        try:
            with admin.connect() as connection:
                connection.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except sa.exc.ProgrammingError:
            if not wait:
                raise
            time.sleep(wait)


@dataclass
class Phone:
    """One phone at the table: its own cookies and CSRF token."""

    server: str
    session: requests.Session = field(default_factory=requests.Session)
    token: str = ""

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.session.get(self.server + path, allow_redirects=False, timeout=60, **kwargs)

    def csrf(self) -> str:
        if not self.token:
            page = self.get("/").text
            found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
            assert found, "no CSRF token"
            self.token = found.group(1)
        return self.token

    def form(self, url: str, page: str | None = None) -> dict[str, str]:
        """The hidden fields of the form that posts to ``url``, as the page shows them now."""
        page = page or form_page(url)
        assert page is not None
        response = self.get(page)
        assert response.status_code == 200, response.status_code
        return hidden_inputs(response.text, url, page)

    def post(self, url: str, data: dict[str, str]) -> requests.Response:
        return self.session.post(
            self.server + url,
            data={"csrf_token": self.csrf(), **data},
            allow_redirects=False,
            timeout=60,
        )


def at_once(*sends: Callable[[], requests.Response]) -> list[requests.Response]:
    """Run the sends in threads released together by a barrier; their responses, in order."""
    barrier = threading.Barrier(len(sends))

    def run(send: Callable[[], requests.Response]) -> requests.Response:
        barrier.wait()
        return send()

    with ThreadPoolExecutor(len(sends)) as pool:
        return list(pool.map(run, sends))


@contextmanager
def served_database(kind: str, tmp: Path) -> Iterator[tuple[Any, sa.Engine]]:
    """A real server on a fresh database of ``kind`` and an engine on that database; when
    the tests are done, the server's log must hold no traceback (no request answered 500)."""
    with fresh_database(kind, tmp) as database:
        server = start_server(database, tmp)
        engine = sa.create_engine(database)
        try:
            yield server, engine
        finally:
            server.stop()
            engine.dispose()
            log = server.log.read_text()
            assert "Traceback" not in log, log
