"""What a container platform or a load balancer asks: ``/healthz`` (the process answers)
and ``/readyz`` (the database answers and is at the migration this app expects)."""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa
from flask import Blueprint

from referee.web.store import schema
from referee.web.store.extensions import db

log = logging.getLogger(__name__)

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Any:
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> Any:
    expected = sorted(schema.head_revisions())
    try:
        with db.engine.connect() as connection:
            current = sorted(schema.current_revisions(connection))
    except sa.exc.SQLAlchemyError as error:
        log.warning("not ready: the database does not answer (%s)", type(error).__name__)
        return {"status": "database unreachable", "expected": expected}, 503
    if current != expected:
        return {"status": "database not migrated", "migration": current, "expected": expected}, 503
    return {"status": "ready", "migration": current}
