"""The change check: "has this match changed?", asked by every phone that follows a match.

The pages that follow a match (``.../m/<id>/version``) and the API
(``/api/v1/.../m/<id>/version``) answer it with the match's version as an
ETag, reached through the table's key.  It is one small query
(:data:`MATCH_VERSION`, an index lookup on each side of a join), compiled
once per database and run on a pooled connection of its own: no ORM session,
no transaction of the app's (a single SELECT reads one consistent state).

Most of the time the answer is "nothing changed" (304).  :class:`ChangeCheck`,
in front of the whole app, answers exactly that case itself, after the same
query, without the per-request work of Flask and its extensions (security
headers for a body there is none of, the rate limiter, the session): nothing is
cached, so no worker answers from a stale state.  Every other case (a first
look, a change, a wrong key, any odd path) goes on to the app's own views,
which answer 200 or 404 with every header and count a wrong key against the
rate limit; so does a check from an address stopped for guessing keys (the app refuses it
unless its browser opened the table).

The same query tells the API's scoreboard whether the answer it made for the
match at this version (:class:`ByVersion`) still holds.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from cachetools import LRUCache
from flask import Flask, current_app, request
from sqlalchemy import literal_column, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.sql import bindparam
from werkzeug.http import parse_etags

from referee.web.serving.security import ROUTE_INT_MAX, address_stopped, client_address
from referee.web.store.extensions import db
from referee.web.store.models import KEY_FORMAT, CardTable, DatabaseIdentity, Match

ID_MAX = ROUTE_INT_MAX

MATCHES, TABLES = Match.__table__, CardTable.__table__
IDENTITY = DatabaseIdentity.__table__
# Which database this is (a restore writes a new one): versions repeat across a restore.
GENERATION = (
    select(IDENTITY.c.generation).where(IDENTITY.c.id == literal_column("1")).scalar_subquery()
)
# A key given as None matches no table: the bearer form gives both, the paths one.
MATCH_VERSION = (
    select(
        MATCHES.c.version,
        MATCHES.c.created_at,
        MATCHES.c.deleted_at,
        GENERATION.label("generation"),
    )
    .join(TABLES, MATCHES.c.table_id == TABLES.c.id)
    .where(
        MATCHES.c.id == bindparam("match_id"),
        or_(TABLES.c.edit_key == bindparam("edit_key"), TABLES.c.view_key == bindparam("view_key")),
    )
)

# The paths of the check: a page's (``/t/<key>/m/<id>/version``) and the API's, with the key
# in the path; the API's bearer form (``/api/v1/table/...``) is left to the app.
CHECK_PATH = re.compile(r"(?:/api/v1)?/([tv])/([A-Za-z0-9_-]{1,64})/m/([1-9][0-9]{0,9})/version")


class VersionQuery:
    """:data:`MATCH_VERSION` compiled once for one engine, run on a raw pooled connection."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        compiled = MATCH_VERSION.compile(dialect=engine.dialect)
        self.sql = compiled.string
        self.names = list(compiled.positiontup or []) if compiled.positional else None

    def __call__(self, match_id: int, edit_key: str | None, view_key: str | None) -> Any:
        """The match's row (version, created_at, deleted_at, the database's generation), or None."""
        if not 0 < match_id <= ID_MAX:
            return None
        keys = [key for key in (edit_key, view_key) if key is not None]
        if not keys or not all(KEY_FORMAT.fullmatch(key) for key in keys):
            return None  # never a NUL in a PostgreSQL query
        values = {"match_id": match_id, "edit_key": edit_key, "view_key": view_key}
        params: Any = [values[name] for name in self.names] if self.names is not None else values
        connection = self.engine.raw_connection()
        driver = connection.driver_connection
        # One SELECT needs no transaction: on PostgreSQL none is opened (nor rolled back
        # when the connection goes back to the pool), one round trip instead of three.
        autocommit = self.engine.dialect.name == "postgresql"
        try:
            if autocommit:
                driver.autocommit = True  # type: ignore[union-attr]
            cursor = connection.cursor()
            try:
                cursor.execute(self.sql, params)
                row = cursor.fetchone()
            finally:
                cursor.close()
        finally:
            if autocommit:
                try:
                    driver.autocommit = False  # type: ignore[union-attr]
                except Exception:
                    connection.invalidate()  # never back to the pool in autocommit
                    raise
            connection.close()  # back to the pool, which rolls back what was read
        return row


def match_row(match_id: int, edit_key: str | None, view_key: str | None) -> Any:
    """The match's (version, created_at, deleted_at, generation), if it belongs to the table of one of
    these keys (as :class:`ChangeCheck` found it for this request already, if it looked)."""
    asked = (match_id, edit_key, view_key)
    looked = request.environ.get(FOUND)
    if looked is not None and looked[0] == asked:
        return looked[1]
    query: VersionQuery = current_app.extensions["referee-change-check"]
    return query(*asked)


def match_version(match_id: int, edit_key: str | None, view_key: str | None) -> int | None:
    """The version of the match, if it belongs to the table of one of these keys."""
    row = match_row(match_id, edit_key, view_key)
    return int(row[0]) if row is not None else None


def etag(match_id: int, version: int) -> str:
    return f"m{match_id}v{version}"


def versions_named(match_id: int, tags: Iterable[str]) -> list[str]:
    """The versions of match ``match_id`` that these ETags name (an If-Match's strong tags)."""
    prefix = f"m{match_id}v"
    return [tag.removeprefix(prefix) for tag in tags if tag.startswith(prefix)]


# Where the middleware leaves what it found, for the view of the same request.
FOUND = "referee.change_check"


class ChangeCheck:
    """WSGI middleware answering "not modified" to a change check whose ETag is current."""

    def __init__(
        self,
        app: Callable[..., Iterable[bytes]],
        query: VersionQuery,
        stopped: Callable[[dict[str, Any]], bool] = lambda _environ: False,
    ) -> None:
        self.app = app
        self.query = query
        self.stopped = stopped  # whether the request's address guessed too many keys

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        seen = environ.get("HTTP_IF_NONE_MATCH")
        if seen and environ.get("REQUEST_METHOD") == "GET" and not environ.get("QUERY_STRING"):
            found = CHECK_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None:
                mode, key, number = found.groups()
                asked = (int(number), key if mode == "t" else None, key if mode == "v" else None)
                try:
                    row = self.query(*asked)
                except Exception:  # the app's own view answers it, with its error handling
                    return self.app(environ, start_response)
                environ[FOUND] = (asked, row)  # the view needs not ask again
                if row is not None:
                    current = etag(asked[0], int(row[0]))
                    # A guesser stopped is answered by the app, as any of its requests is:
                    # a right key and version teach it nothing the app would not tell.
                    if parse_etags(seen).contains_weak(current) and not self.stopped(environ):
                        start_response(
                            "304 NOT MODIFIED",
                            [("ETag", f'"{current}"'), ("Cache-Control", "no-cache")],
                        )
                        return []
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    """After every other wrapper of ``app.wsgi_app`` (the check sees the request first)."""
    with app.app_context():
        query = VersionQuery(db.engine)
    app.extensions["referee-change-check"] = query
    hops = int(app.config.get("FORWARDED_HOPS") or 0)

    def stopped(environ: dict[str, Any]) -> bool:
        return address_stopped(app, client_address(environ, hops))

    app.wsgi_app = ChangeCheck(app.wsgi_app, query, stopped)  # type: ignore[method-assign]


class ByVersion:
    """Answers kept per worker by what they were made from: a match at one version.

    A match's version rises with every change of anything its answers show (rounds,
    seats, names, options, archiving), so an answer made at one version stays true
    while the version read from the database (every request reads it) is the same.
    The key also holds the match's creation time (SQLite may give a purged match's id
    to a new one), the database's generation (a restore brings back versions that were
    used already) and whatever else the answer depends on (its language).
    """

    def __init__(self, size: int = 256) -> None:
        self.kept: LRUCache[Hashable, bytes] = LRUCache(maxsize=size)
        self.lock = threading.Lock()  # cachetools' caches are not thread-safe

    def get(self, key: Hashable) -> bytes | None:
        with self.lock:
            return self.kept.get(key)

    def put(self, key: Hashable, answer: bytes) -> None:
        with self.lock:
            self.kept[key] = answer

    def clear(self) -> None:
        with self.lock:
            self.kept.clear()
