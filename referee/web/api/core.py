"""What every operation of the JSON API shares: keys, versions, repeats and errors.

- **Keys.**  A table is reached with the same keys as its pages: in the path
  (``/api/v1/t/<edit key>/...``, ``/api/v1/v/<view key>/...``) or, under
  ``/api/v1/table/...``, in an ``Authorization: Bearer <key>`` header (either
  key; the edit key can write).  Never in a query string, which ends up in logs.
  A wrong, unknown or view-only key where the edit key is needed: 404, never 403.
- **Versions.**  Every write to a match names the match as the client last saw
  it, with ``If-Match: "m<id>v<version>"`` (the ETag of every read of the match).
  A write without it is refused with 428, a stale one with 409 and the current
  version in the body; nothing is saved either way.
- **Repeats.**  A write with an ``Idempotency-Key`` header is carried out once:
  the same key again (a retry after a lost answer) answers with what the first
  one made, marked ``Idempotent-Replayed: true``; sent with another request (another
  operation, path or body) it is a 409.  The key is kept as a
  :class:`~referee.web.store.models.WriteReceipt` of the table, like the pages'
  one-time tokens.
- **Errors** are JSON, ``{"error": {"code", "status", "message", ...}}``, with
  the referee's reason in the language of ``Accept-Language`` (Indonesian by
  default) and the round and turn where they apply.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Response, current_app, jsonify, request
from flask_babel import gettext, ngettext
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from referee.errors import RefereeError
from referee.web.play.access import (
    Access,
    UnknownLink,
    find_table,
    find_table_by_either_key,
    unknown_link_text,
)
from referee.web.serving.security import NotUtf8
from referee.web.show import i18n
from referee.web.store import door, reads
from referee.web.store.models import CardTable, Match

PREFIX = "/api/v1"
IDEMPOTENCY_KEY_MAX = 200
# A repeat of a new table's request answers its edit key: only to a client that holds a
# key nobody else could have chosen.
NEW_TABLE_KEY_MIN = 16


def is_api_request() -> bool:
    return request.path == PREFIX or request.path.startswith(PREFIX + "/")


class ApiError(Exception):
    """An answer other than success: a status, a code for programs, a message for people."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers: dict[str, str] = {}


def refused(error: RefereeError) -> ApiError:
    """The engine refused: 422 with its reason, and the round and turn it names."""
    return ApiError(
        422,
        "refused",
        i18n.error_text(error, where=False),
        reason=error.reason.key,
        round=error.round,
        turn=error.turn,
    )


def error_response(error: ApiError) -> Response:
    body = {"code": error.code, "status": error.status, "message": error.message}
    body.update(error.details)
    body.setdefault("round", None)
    body.setdefault("turn", None)
    response = jsonify(error=body)
    response.status_code = error.status
    response.headers.update(error.headers)
    response.headers["Cache-Control"] = "no-store"
    return response


HTTP_CODES = {
    400: "malformed",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    428: "precondition_required",
    429: "too_many_requests",
    500: "server_error",
}


def http_message(status: int) -> str:
    messages = {
        400: gettext("That request could not be understood."),
        404: gettext("There is nothing here. Check the link you were given."),
        405: gettext("That page does not take this kind of request."),
        409: gettext(
            "Another phone saved a change to this table at the same moment, so nothing of"
            " yours was saved. Check the match and send it again."
        ),
        413: gettext("That is too much to send at once."),
        500: gettext("Something went wrong on our side. Please go back and try again."),
    }
    return messages.get(status, gettext("Something went wrong."))


def http_error(error: HTTPException) -> Response:
    """A Werkzeug HTTP error (from routing, a size limit, a parser) as the API's JSON."""
    if isinstance(error, UnknownLink):
        return error_response(unknown_link())
    status = error.code or 500
    details: dict[str, Any] = {}
    data = getattr(error, "data", None)
    if isinstance(data, dict) and "messages" in data:  # webargs: what was wrong in the body
        details["errors"] = data["messages"]
    message = error.player_message() if isinstance(error, NotUtf8) else http_message(status)
    unknown = unknown_fields(details.get("errors"))
    if unknown:
        message = ngettext(
            "The field %(fields)s is not one this request takes (check its spelling):"
            " nothing was saved.",
            "The fields %(fields)s are not ones this request takes (check their spelling):"
            " nothing was saved.",
            len(unknown),
            fields=", ".join(unknown),
        )
    found = ApiError(status, HTTP_CODES.get(status, "error"), message, **details)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        found.headers["Allow"] = ", ".join(error.valid_methods)
    found.headers.update(
        (name, value) for name, value in error.get_headers() if name == "Retry-After"
    )
    return error_response(found)


UNKNOWN_FIELD = "Unknown field."


def unknown_fields(messages: Any) -> list[str]:
    """The fields of a request the schema does not know, as webargs lists them by location
    (``json``, ``query``): nested ones by their path (``buy.kard``)."""
    if not isinstance(messages, dict):
        return []
    return [path for located in messages.values() for path in _unknown_in(located, "")]


def _unknown_in(messages: Any, where: str) -> list[str]:
    if not isinstance(messages, dict):
        return []
    found = []
    for name, said in messages.items():
        path = f"{where}.{name}" if where else str(name)
        if isinstance(said, list) and UNKNOWN_FIELD in said:
            found.append(path)
        else:
            found += _unknown_in(said, path)
    return found


def not_found() -> ApiError:
    return ApiError(404, "not_found", http_message(404))


def unknown_link() -> ApiError:
    """404 for a key that opens no table: a wrong one and a replaced one answer the same."""
    return ApiError(404, "not_found", unknown_link_text())


# -- keys ---------------------------------------------------------------------------------


def bearer_key() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    return key.strip() if scheme.lower() == "bearer" else ""


def table_access(mode: str | None, key: str | None, *, edit: bool = False) -> Access:
    """The table of a path key (``mode`` t or v) or, without one, of the bearer key; or 404."""
    try:
        if mode is not None and key is not None:
            return find_table(mode, key, edit=edit)
        return find_table_by_either_key(bearer_key(), edit=edit)
    except UnknownLink:
        raise unknown_link() from None


def key_path(access: Access) -> str:
    """The API path of the table as it was reached (the bearer form has no key in it)."""
    bearer = request.view_args is not None and request.view_args.get("mode", "") is None
    return table_path(None if bearer else access.mode, access.key)


def table_path(mode: str | None, key: str | None) -> str:
    """The API path of a table: the key in the path (``mode`` t or v), or the bearer form."""
    return f"{PREFIX}/table" if mode is None else f"{PREFIX}/{mode}/{key}"


# -- versions ------------------------------------------------------------------------------


def etag_of(match: Match) -> str:
    return reads.etag(match.id, match.version)


def seen_version(match: Match) -> door.Seen:
    """The versions of the match the write names (If-Match), for the door to compare; 428
    when it names none."""
    named = request.if_match
    if not named or named.star_tag:
        raise ApiError(
            428,
            "precondition_required",
            gettext(
                'Name the version of the match this change was made from: If-Match: "%(etag)s".',
                etag=etag_of(match),
            ),
            version=match.version,
            etag=etag_of(match),
        )
    return versions_seen(match.id)


def versions_seen(match_id: int) -> door.Seen:
    """The versions of match ``match_id`` the write names (If-Match; none: nothing)."""
    named = request.if_match
    if not named or named.star_tag:
        return door.Seen()
    return door.Seen(match_versions=tuple(reads.versions_named(match_id, named.as_set())))


def conflict(match: Match, message: str | None = None) -> ApiError:
    """409: the match is not as the write assumed; its current version and totals."""
    text = message or gettext(
        "The match was changed on another phone meanwhile: nothing was saved."
    )
    seen = reads.outlook(match)
    error = ApiError(
        409,
        "conflict",
        text,
        version=match.version,
        etag=etag_of(match),
        totals=dict(seen.state.totals) if seen.state is not None else None,
    )
    error.headers["ETag"] = f'"{etag_of(match)}"'
    return error


# -- repeats -------------------------------------------------------------------------------


def idempotency_token(table: CardTable) -> str | None:
    """The receipt token of this request's Idempotency-Key (None without one), per table
    and operation: the same key sent to another operation is another write."""
    key = request.headers.get("Idempotency-Key", "")
    if not key:
        return None
    if len(key) > IDEMPOTENCY_KEY_MAX:
        raise ApiError(
            400,
            "malformed",
            gettext("An Idempotency-Key has at most %(max)s characters.", max=IDEMPOTENCY_KEY_MAX),
        )
    operation = (request.endpoint or "").removesuffix("_bearer")
    digest = hashlib.sha256(f"{table.id}:{operation}:{key}".encode()).hexdigest()
    return "api-" + digest[:60]


def key_used() -> ApiError:
    """409: the Idempotency-Key already carried out another request."""
    return ApiError(
        409,
        "key_used",
        gettext(
            "This Idempotency-Key was already used for another request (another operation, "
            "another target or another body): nothing was done. Send this request with a new key."
        ),
    )


def replayed(token: str | None) -> Response | None:
    """What the write carried out with this token answered, if it was carried out: the
    same status, and what its path reads now."""
    repeated = door.repeated(token)
    if repeated is None or not repeated.location:
        return None
    status_text, _, rest = repeated.location.partition(" ")
    path, _, location = rest.partition(" ")
    adapter = current_app.url_map.bind("localhost")
    try:
        endpoint, args = adapter.match(path, method="GET")
    except HTTPException:
        endpoint, args = None, {}
    if endpoint is None:
        response = jsonify(replayed=True)
    else:
        answer: Any = current_app.view_functions[endpoint](**args)
        response = current_app.make_response(answer)
    response.status_code = int(status_text) if status_text.isdigit() else 200
    response.headers["Idempotent-Replayed"] = "true"
    if location:
        response.headers["Location"] = location
    return response


def receipt_location(status: int, path: str, location: str = "") -> str:
    """What a receipt keeps: the status answered, the path whose reading was the answer,
    and the Location header, if any."""
    return f"{status} {path} {location}".strip()


def idempotency_token_global() -> str | None:
    """The receipt token of a creation that belongs to no table yet (a new table)."""
    key = request.headers.get("Idempotency-Key", "")
    if not key:
        return None
    if len(key) > IDEMPOTENCY_KEY_MAX:
        raise ApiError(
            400,
            "malformed",
            gettext("An Idempotency-Key has at most %(max)s characters.", max=IDEMPOTENCY_KEY_MAX),
        )
    if len(key) < NEW_TABLE_KEY_MIN:
        raise ApiError(
            422,
            "refused",
            gettext(
                "A new table's Idempotency-Key is a secret of at least %(min)s characters "
                "(a repeat of the request is answered with the table's edit key): send a "
                "random one.",
                min=NEW_TABLE_KEY_MIN,
            ),
        )
    return "api-" + hashlib.sha256(f"new table:{key}".encode()).hexdigest()[:60]


def created(body: Any, location: str) -> tuple[Any, int, dict[str, str]]:
    return body, 201, {"Location": location}


def rollback() -> None:
    door.abandon()
