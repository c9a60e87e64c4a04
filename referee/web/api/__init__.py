"""The JSON API, ``/api/v1``: everything the pages do, for a club's display, a bot, a sheet.

Built with flask-smorest (marshmallow schemas, apispec): the OpenAPI 3.1
document at ``/api/v1/openapi.json`` is generated from the operations and
their schemas below, and Swagger UI 5 (which reads OpenAPI 3.1) at ``/api/v1/docs`` is
served from the ``flask-swagger-ui`` package's own copy of its files (no CDN).  Keys, versions, repeats
and errors: :mod:`referee.web.api.core`.  The operations call the same engine
and the same steps as the pages (:mod:`referee.web.play.changes`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apispec import BasePlugin
from flask import Blueprint, Flask, render_template, send_from_directory
from flask_smorest import Api

from referee.web.api import core
from referee.web.api.schemas import ErrorAnswer
from referee.web.serving.security import CONTENT_SECURITY_POLICY

SWAGGER_UI_FILES = ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js")


TAGS = {
    "api_tools": "tools",
    "api_tiles": "Rummikub tiles",
    "api_tables": "tables",
    "api_matches": "matches",
    "api_live": "live rounds",
}


class DocumentPlugin(BasePlugin):
    """The ``/api/v1/table/...`` operations take their key from the Authorization header;
    the tags are named for people, not after the blueprints."""

    def __init__(self) -> None:
        super().__init__()
        self.operation_ids: set[str] = set()

    def operation_helper(
        self, path: str | None = None, operations: Any = None, rule: Any = None, **_: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            operation["tags"] = [TAGS.get(tag, tag) for tag in operation.get("tags", [])]
            if rule is not None and "operationId" not in operation:
                operation["operationId"] = self.operation_id(rule.endpoint, method, len(operations))
            if path and (path + "/").startswith(core.PREFIX + "/table/"):
                operation["security"] = [{"tableKey": []}]

    def operation_id(self, endpoint: str, method: str, methods: int) -> str:
        """``tools_meld`` for ``api_tools.meld``; the method added where an endpoint has
        several, a number where an endpoint has several paths."""
        area, _, name = endpoint.partition(".")
        found = f"{area.removeprefix('api_')}_{name}" + (f"_{method}" if methods > 1 else "")
        unique, number = found, 2
        while unique in self.operation_ids:
            unique, number = f"{found}_{number}", number + 1
        self.operation_ids.add(unique)
        return unique


class RefereeApi(Api):
    """flask-smorest's Api, leaving errors to the app's handlers (which answer JSON here)."""

    ERROR_SCHEMA = ErrorAnswer

    def _register_error_handlers(self) -> None:
        pass


DESCRIPTION = """\
Remi Referee's JSON API: check melds and lay-offs, analyse gin hands, settle
manipulation turns, and keep a card table's matches, round by round or turn by turn.

**Keys.** A table is reached with its edit key (writes and reads) or its view key
(reads): in the path, `/api/v1/t/{key}/...` and `/api/v1/v/{key}/...`, or with
`Authorization: Bearer {key}` under `/api/v1/table/...`. A wrong key answers 404.

**Versions.** Every write to a match names the version it was made from:
`If-Match: "m{id}v{version}"`, the `etag` of every read of the match (and its `ETag`
header). Missing: 428; stale: 409 with the current version; nothing is saved.

**Repeats.** Send `Idempotency-Key: <any text>` with a write: the same key again, with
the same request (operation, path and body), answers what the first request made
(`Idempotent-Replayed: true`), doing nothing twice; the key sent with another request is a
409 (`key_used`). A new table's key is a secret of at least 16 characters (its repeat
answers the table's edit key).

**Errors** are `{"error": {"code", "status", "message", "round", "turn", ...}}`, with the
referee's reason in the language of `Accept-Language` (`id` by default, or `en`):
400 malformed, 404 unknown, 409 conflict, 413 too large, 422 a rule broken.
"""


def init_app(app: Flask) -> None:
    app.config.update(
        API_TITLE="Remi Referee",
        API_VERSION="1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX=core.PREFIX,
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {"description": DESCRIPTION},
            "servers": [{"url": "/"}],
            "components": {
                "securitySchemes": {
                    "tableKey": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "a table's edit key or view key",
                    }
                }
            },
        },
    )
    api = RefereeApi(app, spec_kwargs={"extra_plugins": [DocumentPlugin()]})
    from referee.web.api import live, matches, tables, tiles, tools

    for module in (tools, tiles, tables, matches, live):
        api.register_blueprint(module.blp)
    for tag in api.spec._tags:
        tag["name"] = TAGS.get(tag["name"], tag["name"])
    app.register_blueprint(docs)
    from referee.web.store.reads import csrf

    for module in (tools, tiles, tables, matches, live):
        csrf.exempt(module.blp)  # no cookie authenticates the API: there is nothing to forge
    app.extensions["referee-api"] = api


docs = Blueprint("api_docs", __name__, url_prefix=core.PREFIX)


@docs.get("/docs")
def swagger_ui() -> str:
    return render_template("api/docs.html")


# Swagger UI's style sheet draws its icons as data: URLs: images only, scripts stay 'self'.
swagger_ui.talisman_view_options = {  # type: ignore[attr-defined]  # read by Flask-Talisman
    "content_security_policy": {**CONTENT_SECURITY_POLICY, "img-src": "'self' data:"}
}


@docs.get("/docs/<any(" + ",".join(f'"{name}"' for name in SWAGGER_UI_FILES) + "):name>")
def swagger_ui_file(name: str) -> Any:
    import flask_swagger_ui

    folder = Path(flask_swagger_ui.__file__).parent / "dist"
    return send_from_directory(folder, name, max_age=86400)
