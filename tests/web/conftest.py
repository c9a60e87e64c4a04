"""Fixtures for the web app: a migrated SQLite file per test, a client that sends CSRF tokens.

The database is made by running the Alembic migrations (never ``create_all``):
once per worker into a template file, then copied for each test.  Tests of the
models also run against PostgreSQL when ``TEST_PG_URL`` is set.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from referee.web import MIGRATIONS, create_app
from referee.web.extensions import db

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def migrated_app(url: str, **config: Any) -> Flask:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True, **config})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS))
    return app


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    app = migrated_app(f"sqlite:///{path}")
    with app.app_context():
        db.engine.dispose()
    return path


@pytest.fixture
def app(template_db: Path, tmp_path: Path) -> Iterator[Flask]:
    path = tmp_path / "app.db"
    shutil.copy(template_db, path)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True})
    yield app
    with app.app_context():
        db.engine.dispose()


class Client(FlaskClient):
    """A test client that adds the session's CSRF token to every form it posts."""

    token: str | None = None

    def csrf(self) -> str:
        if self.token is None:
            page = self.get("/").get_data(as_text=True)
            found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
            assert found, "no CSRF token on the home page"
            self.token = found.group(1)
        return self.token

    def submit(self, url: str, data: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        data = {"csrf_token": self.csrf(), **(data or {})}
        return self.post(url, data=data, **kwargs)


@pytest.fixture
def client(app: Flask) -> Client:
    app.test_client_class = Client
    return app.test_client()  # type: ignore[return-value]


# -- real browser ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from werkzeug.serving import make_server

    path = tmp_path_factory.mktemp("live") / "live.db"
    app = migrated_app(f"sqlite:///{path}")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A 360 x 740 phone, as at the table."""
    return {**browser_context_args, "viewport": {"width": 360, "height": 740}}
