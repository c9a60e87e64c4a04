"""What a container platform or a load balancer asks: ``/healthz`` (the process answers)
and ``/readyz`` (the database answers and is at the migration this app expects)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from referee.web.store import reads

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Any:
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> Any:
    current, expected = reads.migrations()
    if current is None:
        return {"status": "database unreachable", "expected": expected}, 503
    if current != expected:
        return {"status": "database not migrated", "migration": current, "expected": expected}, 503
    return {"status": "ready", "migration": current}
