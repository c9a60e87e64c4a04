"""Fixtures for the web app: a migrated SQLite file per test, a client that sends CSRF tokens.

The database is made by running the Alembic migrations (never ``create_all``):
once per worker into a template file, then copied for each test.  The ``app`` of every
test is one app object per worker, put back as it was made before each test.  Tests
of the models also run against PostgreSQL when ``TEST_PG_URL`` is set.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from referee.web import MIGRATIONS, create_app
from referee.web.serving.security import QuietRequestHandler
from referee.web.store.extensions import db

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


# The rate limits are off in tests unless a test turns them on (tests/web/test_hostile.py).
TEST_CONFIG = {"TESTING": True, "RATELIMIT_ENABLED": False}


# Every test that runs on both databases: PostgreSQL when `make test` started one.
DATABASE_KINDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(not os.environ.get("TEST_PG_URL"), reason="TEST_PG_URL not set"),
    ),
]


def migrated_app(url: str, **config: Any) -> Flask:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, **TEST_CONFIG, **config})
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


class _SharedApp:
    """One app per worker for the tests of the ``app`` fixture: making one (its routes, its
    API document) and compiling its templates cost half a second, more than most tests.
    A test that changes the app itself (a route of its own, a handler) gets it as Flask
    allows before a first request; the next test gets a new one."""

    def __init__(self, template: Path, folder: Path) -> None:
        self.template = template
        self.database = folder / "app.db"
        self.app: Flask | None = None
        self.changed = False

    def fresh(self, pages: Path) -> Flask:
        """The app on a fresh copy of the migrated database, as if made for this test: its
        settings as made, no answers kept from another test's tables."""
        if self.app is None or self.changed:
            self.close()
            self.app = self._made()
        app = self.app
        for leftover in ("-wal", "-shm", "-journal"):
            Path(f"{self.database}{leftover}").unlink(missing_ok=True)
        # A new file, not the old one overwritten: a connection a test left open keeps the old.
        copy = self.database.with_name("copy.db")
        shutil.copy(self.template, copy)
        copy.replace(self.database)
        app.config.clear()
        app.config.update(self.config)
        # Its kept pages its own: a test that damages them must not cost another test a render.
        app.config["PAGES_DIR"] = str(pages)
        for name in set(app.extensions) - self.extensions:
            del app.extensions[name]  # what requests kept per app (ratings, counted figures)
        app.test_client_class = None
        app._got_first_request = False
        return app

    def _made(self) -> Flask:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{self.database}", **TEST_CONFIG})
        self.config = dict(app.config)
        self.extensions = frozenset(app.extensions)
        self.changed = False

        def check_setup_finished(f_name: str) -> None:
            Flask._check_setup_finished(app, f_name)  # refused after a request, as always
            self.changed = True

        app._check_setup_finished = check_setup_finished  # type: ignore[method-assign]
        return app

    def close(self) -> None:
        if self.app is not None:
            with self.app.app_context():
                db.engine.dispose()


@pytest.fixture(scope="session")
def _shared_app(
    template_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[_SharedApp]:
    shared = _SharedApp(template_db, tmp_path_factory.mktemp("shared"))
    yield shared
    shared.close()


@pytest.fixture
def app(_shared_app: _SharedApp, tmp_path: Path) -> Iterator[Flask]:
    app = _shared_app.fresh(tmp_path)
    try:
        yield app
        with app.app_context():
            assert_summaries_true()
    finally:
        with app.app_context():
            db.engine.dispose()


def assert_summaries_true() -> None:
    """Whatever a test did, every match's summary and every player's totals are what the log
    gives (the summaries are kept by the writes themselves, from the objects they hold)."""
    from referee.web.store import summary

    with db.engine.connect() as connection:
        differences = summary.check(connection)
    assert not differences, [str(difference) for difference in differences]


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

    def submit(
        self,
        url: str,
        data: dict[str, Any] | None = None,
        *,
        page: str | None = None,
        fresh: bool = True,
        **kwargs: Any,
    ) -> Any:
        """Post ``data`` to ``url`` as the form on its page would: with the hidden fields
        that page gives it (versions, one-time token), as a phone sends them.

        ``fresh=False`` posts only ``data`` (a form kept from earlier is passed in full).
        """
        hidden = self.hidden_fields(url, page) if fresh else {}
        data = {"csrf_token": self.csrf(), **hidden, **(data or {})}
        return self.post(url, data=data, **kwargs)

    def hidden_fields(self, url: str, page: str | None = None) -> dict[str, str]:
        """The hidden fields of the form that posts to ``url`` on ``page`` (guessed if None)."""
        page = page or form_page(url)
        if page is None:
            return {}
        response = self.get(page)
        if response.status_code != 200:
            return {}
        return hidden_inputs(response.get_data(as_text=True), url, page)


def form_page(url: str) -> str | None:
    """The page whose form posts to ``url``."""
    path = url.split("#")[0]
    for suffix in ("/live/turn", "/live/undo", "/live/discard", "/live/hint"):
        if path.endswith(suffix):
            return path[: -len(suffix)] + "/live"
    if path.endswith("/rounds/undo"):
        return path[: -len("rounds/undo")]
    found = re.match(r"(.*/rounds/\d+)/(void|restore|undelete)$", path)
    if found:
        return found.group(1)
    found = re.match(r"(.*/m/\d+/)(archive|unarchive|delete)$", path)
    if found:
        return found.group(1)
    if path.endswith("/players"):
        return path[: -len("players")]
    if path == "/tables":
        return "/"
    if path.endswith("/language"):
        return None
    return path


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append((found.get("action", ""), {}))
        elif tag == "input" and found.get("type") == "hidden" and self.forms and found.get("name"):
            self.forms[-1][1].setdefault(found["name"], found.get("value", ""))


def hidden_inputs(body: str, url: str, page: str) -> dict[str, str]:
    parser = _Forms()
    parser.feed(body)
    target = url.split("#")[0]
    for action, fields in parser.forms:
        action = html.unescape(action).split("#")[0] or page
        if action == target:
            fields.pop("csrf_token", None)
            return fields
    return {}


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
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietRequestHandler)
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


PHONE = {"viewport": {"width": 360, "height": 740}}
# The requests of each second phone not answered yet (test_browser_together's PhoneClock).
OPEN_REQUESTS: dict[Any, set[Any]] = {}


@pytest.fixture
def second_phone(browser: Any, base_url: str) -> Iterator[Any]:
    """Another phone at the table: a browser context of its own (its own cookies), its clock
    installed (running as usual until a test pauses it) and its requests counted until
    answered."""
    context = browser.new_context(base_url=base_url, **PHONE)
    context.clock.install()
    waiting = OPEN_REQUESTS[context] = set()
    context.on("request", lambda request: waiting.add(request))
    context.on("requestfinished", lambda request: waiting.discard(request))
    context.on("requestfailed", lambda request: waiting.discard(request))
    yield context.new_page()
    del OPEN_REQUESTS[context]
    context.close()


CSP_REFUSAL = "Content Security Policy"


def watch_policy(page: Any) -> list[str]:
    """Collect what the browser says the Content-Security-Policy blocked on this page."""
    refused: list[str] = []
    page.on(
        "console",
        lambda message: refused.append(message.text) if CSP_REFUSAL in message.text else None,
    )
    return refused


@pytest.fixture
def page(page: Any) -> Iterator[Any]:
    """pytest-playwright's page; a browser test fails if the page's policy blocked anything."""
    refused = watch_policy(page)
    yield page
    assert not refused, refused


@pytest.fixture(scope="module", params=DATABASE_KINDS)
def api_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Flask]:
    """An app for the API tests of one module, on a fresh database of each kind."""
    from .realserver import fresh_database

    folder = tmp_path_factory.mktemp("api")
    with fresh_database(request.param, folder) as url:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "PAGES_DIR": str(folder),
                "TESTING": True,
                "RATELIMIT_ENABLED": False,
            }
        )
        yield app
        with app.app_context():
            db.session.remove()
            assert_summaries_true()
            db.engine.dispose()


@pytest.fixture
def api(api_app: Flask) -> FlaskClient:
    return api_app.test_client()


# Two phones and an engine on the database of a test module's real server (its ``served``
# fixture: the server and the engine, see realserver.served_database).
@pytest.fixture
def phones(served):
    from .realserver import Phone

    server, _engine = served
    return Phone(server.url), Phone(server.url)


@pytest.fixture
def engine(served):
    return served[1]


# Siti goes out, Budi holds 2C (2) and Andi 3D 4H (3 + 4): Siti scores 9 a round (remi).
SITI_OUT = {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}


@dataclass
class LongMatch:
    """A remi match of Budi, Siti and Andi to 10000 with rounds saved through the API."""

    edit_key: str
    match_id: int
    url: str  # the match in the API
    etag: str  # as If-Match wants it, quoted

    @property
    def page(self) -> str:
        return f"/t/{self.edit_key}/m/{self.match_id}/"


def long_match(client: Any, rounds: int) -> LongMatch:
    """A :class:`LongMatch` with ``rounds`` rounds of :data:`SITI_OUT` (Siti 9 x ``rounds``)."""
    players = ["Budi", "Siti", "Andi"]
    keys = client.post("/api/v1/tables", json={"name": "Meja", "players": players}).get_json()
    made = client.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        json={
            "rules": "remi",
            "players": players,
            "first_dealer": "Budi",
            "options": {"target": 10000},
        },
    ).get_json()
    found = LongMatch(
        keys["edit_key"],
        made["id"],
        f"/api/v1/t/{keys['edit_key']}/m/{made['id']}",
        f'"{made["etag"]}"',
    )
    for _number in range(rounds):
        saved = client.post(f"{found.url}/rounds", json=SITI_OUT, headers={"If-Match": found.etag})
        found.etag = f'"{saved.get_json()["etag"]}"'
    return found
