"""Schemathesis against the served OpenAPI document, in process (WSGI), with a fixed seed.

Every operation gets generated requests, half of them at a real table and match (the
keys and ids of a table made first), so that the fuzzing reaches the engine and the
writes, not only the 404 of an unknown key.  Checked on every answer: no server error,
a status, content type, headers and body that the document allows.  Then the state
machine follows the document's links (a table made, read, its match started, ...).
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import checks

from referee.web import create_app
from referee.web.store.extensions import db

from .conftest import migrated_app

EXAMPLES = 12
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,  # the same examples on every run
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]


def _app(tmp: Path):
    url = f"sqlite:///{tmp / 'fuzz.db'}"
    app = migrated_app(url)
    with app.app_context():
        db.engine.dispose()
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True, "RATELIMIT_ENABLED": False})


# The schema is read from the app when the module is imported, before any fixture can give it
# a folder; the folder goes when the module's tests end (or, none run, when pytest exits).
FOLDER = tempfile.TemporaryDirectory(prefix="api-fuzz-")
APP = _app(Path(FOLDER.name))
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def _folder_removed() -> Iterator[None]:
    yield
    with APP.app_context():
        db.engine.dispose()
    FOLDER.cleanup()


@pytest.fixture(scope="module")
def real():
    """A table with players and a remi match with one round: the keys and ids to aim at."""
    client = APP.test_client()
    table = client.post(
        "/api/v1/tables", json={"name": "Fuzz", "players": ["Budi", "Siti", "Andi"]}
    ).get_json()
    key = table["edit_key"]
    board = client.post(
        f"/api/v1/t/{key}/matches",
        json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    ).get_json()
    client.post(
        f"/api/v1/t/{key}/m/{board['id']}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["QS"]}},
        headers={"If-Match": f'"{board["etag"]}"'},
    )
    return {"t": key, "v": table["view_key"], "match_id": board["id"]}


def aim(case, real) -> None:
    """Half the cases (chosen by their own content, so the same each run) go to the real table."""
    digest = hashlib.sha256(repr(case.path_parameters).encode()).digest()
    params = case.path_parameters or {}
    if digest[0] % 2 == 0:
        if "key" in params and params.get("mode") in ("t", "v"):
            params["key"] = real[params["mode"]]
        if "match_id" in params:
            params["match_id"] = real["match_id"]
        if "number" in params:
            params["number"] = 1 + digest[1] % 3
    if case.path.startswith("/api/v1/table") and digest[2] % 2 == 0:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {real['t']}"}


@schema.parametrize()
@SETTINGS
def test_no_request_breaks_the_api_or_its_document(case, real):
    aim(case, real)
    response = case.call_and_validate(checks=CHECKS)
    replacing = case.method == "POST" and case.path.endswith("/keys")
    if replacing and response.status_code == 200:  # the real table's keys were replaced
        replaced = response.json()
        real["t"], real["v"] = replaced["edit_key"], replaced["view_key"]


class StatefulMachine(schema.as_state_machine()):  # type: ignore[misc]
    """The same checks as above: a valid-shaped request the referee refuses is a 422, not
    a "valid data rejected" (schemathesis' positive-data check expects a 2xx there)."""

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)


class TestTheApiStatefully(StatefulMachine.TestCase):  # type: ignore[misc,name-defined]
    settings = settings(
        max_examples=8,
        stateful_step_count=6,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
