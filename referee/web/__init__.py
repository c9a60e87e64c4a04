"""The Flask app of Remi Referee: ``flask --app referee.web run``.

Templates, migrations, static files and translations are all inside this package
(``serving/paths.py``), so a wheel or an image carries everything it serves.

The web layer never decides a rule: a form reads what was typed and builds
the round object of the ``referee-match/1`` format, the engine replays the
stored rounds (:mod:`referee.web.store.matchlog`) and the page shows what it says.

- ``extensions``, ``models``: Flask-SQLAlchemy 3.1 models (tables, players,
  matches with seats, rounds as entered); one reviewed Alembic revision.
- ``access``: a table is reached only through its edit or view key.
- ``forms/``: every WTForms form and field (CSRF on every form); ``templating``:
  everything the templates call, registered in one place.
- ``matchlog``, ``scoresheet``, ``feedback``: the thin glue
  between forms, the engine and the templates.
- ``summary``: the summary kept with each match (derived from its log by the
  engine, rewritten in the flush of every change); ``history``, ``charts``,
  ``exports``: the match list, statistics, head-to-head,
  charts, CSV, the whole table as JSON and the results card, all read from
  those summaries.
- ``views/``: one blueprint per area (main, tables, matches, rounds, live, tools,
  history);
  ``views.pages`` renders every page the same way (400 while a form shows an error).
- ``links``, ``addresses``, ``serve``: links and QR codes the other phones can open,
  and the production server (gunicorn) that ``make run`` starts.
- ``i18n``, ``catalog``: Indonesian by default, English on request; every engine
  reason is rendered through Flask-Babel's ``gettext``.
"""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask

from referee.web.play import links
from referee.web.serving import security
from referee.web.serving.paths import MIGRATIONS, ROOT, TEMPLATES, TRANSLATIONS
from referee.web.show import i18n
from referee.web.store import schema, versions, writes
from referee.web.store.extensions import babel, csrf, db, migrate, sqlite_path

log = logging.getLogger(__name__)


def database_url(url: str) -> str:
    """A SQLAlchemy URL, with plain PostgreSQL URLs pointed at psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def data_folder() -> str | None:
    """Where the app keeps its files (the SQLite database, backups): ``INSTANCE_DIR``; in a
    source checkout, its ``instance/`` folder (Flask's own choice); installed (pipx, an image),
    ``referee-data`` in the folder it was started from, not inside the installed package."""
    if os.environ.get("INSTANCE_DIR"):
        return os.path.abspath(os.environ["INSTANCE_DIR"])
    if (ROOT / "pyproject.toml").is_file():
        return None
    return os.path.abspath("referee-data")


def _secret_key(instance: Path) -> str:
    """This machine's own secret, when the database cannot keep one (not migrated yet)."""
    path = instance / "secret_key"
    try:
        security.create_private_file(path, secrets.token_urlsafe(32))
        return path.read_text().strip() or secrets.token_urlsafe(32)
    except OSError:
        return secrets.token_urlsafe(32)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(TEMPLATES),
        static_folder="static",
        instance_relative_config=True,
        instance_path=data_folder(),
    )
    instance = Path(app.instance_path)
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(
            os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'remi.db'}"
        ),
        BABEL_DEFAULT_LOCALE="id",
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS),
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=400 * 24 * 3600,
        # Opening a table rewrites the cookie anyway (the tables this browser knows);
        # the once-a-second "has it changed?" check must not.
        SESSION_REFRESH_EACH_REQUEST=False,
        PUBLIC_URL=os.environ.get("PUBLIC_URL", ""),
        FORWARDED_HOPS=os.environ.get("FORWARDED_HOPS", "0"),
        # Where the automatic backups go (default instance/backups); BACKUPS=off stops them.
        BACKUP_DIR=os.environ.get("BACKUP_DIR", ""),
        BACKUPS=os.environ.get("BACKUPS", "on"),
        SQLITE_SYNCHRONOUS=os.environ.get("SQLITE_SYNCHRONOUS", "FULL"),
    )
    app.config.update(security.environment_settings(os.environ))  # e.g. a shared limits store
    if test_config is None:
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY", "")
    else:
        app.config.from_mapping(test_config)
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = "test"

    i18n.ensure_compiled(TRANSLATIONS)
    security.init_app(app)  # first: it bounds the request body before CSRF reads the form
    _create_private_sqlite(app)
    db.init_app(app)
    writes.install(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    babel.init_app(app, locale_selector=i18n.select_locale)
    i18n.install_template_gettext(app)
    csrf.init_app(app)
    links.init_app(app)

    from referee.web import views

    views.register(app)
    from referee.web import api

    api.init_app(app)
    security.init_rate_limits(app)
    versions.init_app(app)  # last: it wraps the WSGI app that links and the limiter made
    if app.config.get("AUTO_MIGRATE", test_config is None):
        _migrate_empty_sqlite(app)
    if not app.config["SECRET_KEY"]:  # every server of one database signs with the same
        app.config["SECRET_KEY"] = schema.shared_secret(
            app, schema.first_secret(instance)
        ) or _secret_key(instance)
    return app


def warm_up(app: Flask) -> None:
    """What a server's worker does before its first request, which would otherwise pay for it
    (a page's templates compiled: a tenth of a second and more): every template compiled, and
    one connection to the database opened (a database not there yet is left to the requests)."""
    for name in app.jinja_env.list_templates(filter_func=lambda name: name.endswith(".html")):
        app.jinja_env.get_template(name)
    with app.app_context():
        try:
            db.engine.connect().close()
        except sa.exc.OperationalError as error:
            log.warning("the database is not reachable yet: %s", error)


def _create_private_sqlite(app: Flask) -> None:
    """Create a new SQLite file readable by its owner only (SQLite gives its journal the same mode)."""
    path = sqlite_path(app)
    if path is not None and path.parent.is_dir():
        try:
            security.create_private_file(path)
        except OSError:  # SQLite will say what is wrong with the place
            pass


def _migrate_empty_sqlite(app: Flask) -> None:
    """Start on an empty (or missing) SQLite file by running the migrations.

    ``referee serve`` brings any database up to date (:mod:`referee.web.store.schema`);
    this covers a bare ``flask --app referee.web run``.
    """
    path = sqlite_path(app)
    if path is None or (path.exists() and path.stat().st_size > 0):
        return
    schema.bring_up_to_date(app)
