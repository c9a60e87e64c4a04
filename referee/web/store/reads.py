"""What the pages and the API may take from the store besides the door and the models: the
reads, in one place.

A page or an API operation writes through the door (:mod:`referee.web.store.door`) and
reads what the models hold; everything else it reads (a match replayed by the engine, a
version and its ETag, a table's history, the state of the host's backups, the database's
migration) comes from here.  It is a façade of its own rather than the door's read side
because reading and writing meet nowhere else: the door stays the write path alone, and
the store's modules behind this one (the log and its replays, the versions and their
caches, the audit trail, the backups, the schema) can be rearranged without a page or an
operation changing.  The import contracts (pyproject.toml) hold views and api to the door,
the models and this module.

Two pieces of the store's machinery that pages must name come with the reads: the CSRF
guard (a route exempt from it, its token in a page) and the lock on a file (the live
page's cache shared by the workers).
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa

from referee.web.store.audit import ShownChange, shown, table_history, trail
from referee.web.store.backups import status_for_the_host
from referee.web.store.extensions import csrf, db
from referee.web.store.filelock import lock
from referee.web.store.matchlog import (
    MAX_ROUNDS,
    Outlook,
    call_engine,
    canonical_round,
    document,
    entries,
    entry_text,
    header,
    live,
    outlook,
    readable_entry,
    replay,
    restores_play,
    stored_header,
    verify,
)
from referee.web.store.schema import current_revisions, head_revisions
from referee.web.store.versions import ByVersion, etag, match_row, match_version, versions_named
from referee.web.store.writes import version_of

__all__ = [
    "MAX_ROUNDS",
    "ByVersion",
    "Outlook",
    "ShownChange",
    "call_engine",
    "canonical_round",
    "csrf",
    "document",
    "entries",
    "entry_text",
    "etag",
    "header",
    "live",
    "lock",
    "match_row",
    "match_version",
    "migrations",
    "outlook",
    "posted_number",
    "readable_entry",
    "replay",
    "restores_play",
    "shown",
    "status_for_the_host",
    "stored_header",
    "table_history",
    "trail",
    "verify",
    "versions_named",
]

log = logging.getLogger(__name__)


def migrations() -> tuple[list[str] | None, list[str]]:
    """The database's migrations and the ones this app expects, sorted; None for the
    database's when it does not answer."""
    expected = sorted(head_revisions())
    try:
        with db.engine.connect() as connection:
            return sorted(current_revisions(connection)), expected
    except sa.exc.SQLAlchemyError as error:
        log.warning("the database does not answer (%s)", type(error).__name__)
        return None, expected


def posted_number(field: Any) -> int | None:
    """The whole number a form's field or a query's argument names (a round's number, an
    id, a count of turns), None if missing or not one."""
    return version_of(field)
