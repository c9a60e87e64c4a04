"""The API's blueprints: 400 for a request of the wrong shape, routes below a table's key,
and the error answers each operation documents."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import flask_smorest
from flask import Request
from marshmallow import Schema
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from referee import jsonread
from referee.errors import RefereeError
from referee.web.api import core
from referee.web.api.schemas import ErrorAnswer
from referee.web.show import jsontext


class Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400  # the shape is wrong: malformed; 422 is the referee's

    def _raw_load_json(self, req: Request) -> Any:
        """The body read by the project's one JSON reader (webargs' own lets a number too
        long for Python through as a bare ValueError)."""
        if not is_json_request(req):
            return missing
        return jsonread.loads(req.get_data(cache=True).decode("utf-8"))

    def load_json(self, req: Request, schema: Schema) -> Any:
        try:
            return super().load_json(req, schema)
        except jsonread.NumberTooLong as error:
            raise core.ApiError(400, "malformed", jsontext.number_too_long(error)) from None


ERROR_DESCRIPTIONS = {
    400: "Malformed: not JSON, or not of the documented shape",
    404: "Unknown, or a wrong key (never 403: a key's existence is not confirmed)",
    409: "Conflict: the match changed since the version named; the body has the current one",
    413: "Too large",
    422: "The referee refused: the reason, with the round and turn where it applies",
    428: "The write named no version (If-Match)",
    429: "Too many requests from this address (the anonymous tools, new tables, wrong keys)",
}

IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string", "maxLength": 200},
    "description": 'The match\'s version this write was made from: "m{id}v{version}" (428 without it)',
    "example": '"m1v1"',
}
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "maxLength": core.IDEMPOTENCY_KEY_MAX},
    "description": (
        "Any text: the same write (operation, path and body) sent again with it is carried"
        " out once; the key sent with another write is a 409"
    ),
}
ACCEPT_LANGUAGE = {
    "in": "header",
    "name": "Accept-Language",
    "required": False,
    "schema": {"type": "string", "maxLength": 200},
    "description": "The language of the messages: id (the default) or en",
}


class ApiBlueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        """As flask-smorest's, with the schema made once: webargs would make one from a
        schema class on every request (marshmallow 4 schemas keep no state while loading)."""
        if isinstance(schema, type) and issubclass(schema, Schema):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)

    def table_route(self, rule: str, **options: Any) -> Callable[[Any], Any]:
        """A route below a table, twice: with the key in the path (``/t/{key}``, ``/v/{key}``)
        and under ``/table`` with the key in the Authorization header."""

        def decorator(func: Any) -> Any:
            self.route("/<any(t,v):mode>/<key>" + rule, endpoint=func.__name__, **options)(func)
            self.route(
                "/table" + rule,
                endpoint=func.__name__ + "_bearer",
                defaults={"mode": None, "key": None},
                **options,
            )(func)
            return func

        return decorator

    def errors(self, *statuses: int, writes: bool = False) -> Callable[[Any], Any]:
        """Document the error answers of an operation (and, for a write, its headers)."""

        def decorator(func: Any) -> Any:
            for status in (400, 413, 429, *statuses):
                func = self.alt_response(
                    status, schema=ErrorAnswer, description=ERROR_DESCRIPTIONS[status]
                )(func)
            parameters = [ACCEPT_LANGUAGE] + ([IF_MATCH, IDEMPOTENCY_KEY] if writes else [])
            return self.doc(parameters=parameters)(func)

        return decorator


def engine_call(func: Any) -> Any:
    """An operation whose engine refusals answer 422 with the reason (nothing saved)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RefereeError as error:
            core.rollback()
            raise core.refused(error) from None

    return wrapper
