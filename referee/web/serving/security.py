"""What keeps hostile input and nosy neighbours out: headers, limits, redirects, files.

- Headers through Flask-Talisman: a Content-Security-Policy with no inline
  script or style, no framing, HSTS only on requests that came over HTTPS.
  Every page carries the session's CSRF token and many carry a table key
  (the home page lists them): no dynamic response may be stored by a cache.
- The session cookie is ``Secure`` when the request came over HTTPS, so the
  app still works over plain HTTP on a home network.
- Request bodies: small for forms, larger only where a match file or a
  whole round is sent.
- Rate limits through Flask-Limiter (in memory unless ``RATELIMIT_STORAGE_URI``
  names a shared store): the anonymous tools, creating tables and guessing
  keys.  Only a key that opens nothing counts (:func:`count_wrong_key`); past the
  limit, a key is looked up only if this browser opened its table before, so a
  guesser on the phones' Wi-Fi never stops the table.
- Forms and query strings are read as UTF-8 or refused (:class:`NotUtf8`):
  Werkzeug keeps the bytes it cannot decode as percent escapes, which a name
  would have kept literally.
- Route numbers are bounded, the language switch redirects only to this app's
  own paths, and the files the app creates are readable by their owner only.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
import unicodedata
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn, cast
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from flask import Flask, Request, current_app, request
from flask.sessions import SecureCookieSessionInterface
from flask.typing import RouteCallable
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_talisman import Talisman
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import BadRequest, TooManyRequests
from werkzeug.formparser import FormDataParser
from werkzeug.routing import IntegerConverter
from werkzeug.serving import WSGIRequestHandler
from werkzeug.wrappers import Response

# The largest id a route accepts: PostgreSQL's INTEGER (SQLite's is larger).
ROUTE_INT_MAX = 2**31 - 1

CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

# Endpoints that take a whole match file or a whole round as entered (MAX_CONTENT_LENGTH);
# every other form gets FORM_MAX_CONTENT_LENGTH.
LARGE_BODY_ENDPOINTS = frozenset({"matches.import_match", "rounds.edit_json"})

# Which endpoints share which limit (the config key holding it); POST only.
RATE_LIMITED = {
    "tools.checker": "RATELIMIT_TOOLS",
    "tools.gin_analyser": "RATELIMIT_TOOLS",
    "tools.indian_show": "RATELIMIT_TOOLS",
    "tools.indian_count": "RATELIMIT_TOOLS",
    "live.hint": "RATELIMIT_TOOLS",
    "tables.create": "RATELIMIT_NEW_TABLES",
    # The JSON API's anonymous tools and new tables count with the pages'.
    **{
        f"api_tools.{name}": "RATELIMIT_TOOLS"
        for name in ("meld", "gin_hand", "knock", "turn", "indian_show")
    },
    **{f"api_tools.{name}": "RATELIMIT_TOOLS" for name in ("arrange_table", "hint")},
    **{
        f"api_live.{name}{form}": "RATELIMIT_TOOLS"
        for name in ("hint", "arrange")
        for form in ("", "_bearer")
    },
    "api_tables.create_table": "RATELIMIT_NEW_TABLES",
}

DEFAULTS: dict[str, Any] = {
    "FORM_MAX_CONTENT_LENGTH": 64 * 1024,
    "CONTENT_SECURITY_POLICY": CONTENT_SECURITY_POLICY,
    # Endpoints answered with "Cache-Control: no-cache" (revalidate, e.g. with an ETag)
    # instead of "no-store": a small polling endpoint that carries no secret.
    "REVALIDATE_ENDPOINTS": (),
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    # Per client address, and phones on one mobile network may share an address: generous.
    "RATELIMIT_TOOLS": "60 per minute; 600 per hour",
    "RATELIMIT_NEW_TABLES": "10 per minute; 100 per day",
    # Keys tried that open no table (count_wrong_key), per address.
    "RATELIMIT_UNKNOWN_LINKS": "30 per minute; 300 per hour",
}


# The settings above that the environment may give (e.g. to ``referee serve``).
FROM_ENVIRONMENT = (
    "RATELIMIT_ENABLED",
    "RATELIMIT_STORAGE_URI",
    "RATELIMIT_TOOLS",
    "RATELIMIT_NEW_TABLES",
    "RATELIMIT_UNKNOWN_LINKS",
)


def environment_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The rate limit settings given in the environment: a shared store, the limits, off."""
    found: dict[str, Any] = {name: environ[name] for name in FROM_ENVIRONMENT if environ.get(name)}
    if "RATELIMIT_ENABLED" in found:
        found["RATELIMIT_ENABLED"] = found["RATELIMIT_ENABLED"].strip().lower() not in (
            "0",
            "false",
            "no",
            "off",
        )
    return found


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` with an upper bound, so an id no database column holds is a plain 404."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", ROUTE_INT_MAX)
        super().__init__(map, *args, **kwargs)


class NotUtf8(BadRequest):
    """A form or query string with bytes that are not UTF-8 (no phone's browser sends them)."""

    def player_message(self) -> str:
        return gettext(
            "The text sent is not readable (it is not UTF-8), so nothing was saved."
            " Please type it again."
        )


def utf8_fields(raw: bytes) -> list[tuple[str, str]]:
    """The fields of a URL-encoded form or query string, or :class:`NotUtf8`."""
    try:
        return parse_qsl(raw.decode(), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise NotUtf8() from None


class Utf8FormParser(FormDataParser):
    def _parse_urlencoded(
        self, stream: Any, mimetype: str, content_length: int | None, options: dict[str, str]
    ) -> Any:
        return stream, self.cls(utf8_fields(stream.read())), self.cls()


class RefereeRequest(Request):
    """Flask's request, reading URL-encoded forms as UTF-8 or refusing them."""

    form_data_parser_class = Utf8FormParser


def came_over_https() -> bool:
    """Whether the request came over HTTPS, to the app or to a proxy in front of it.

    A proxy's ``X-Forwarded-Proto`` is in the scheme when ``FORWARDED_HOPS`` says
    to trust it (:func:`referee.web.play.links.init_app`); nobody else's reaches the app.
    """
    return request.is_secure


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` on a request that came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or came_over_https()


class QuietRequestHandler(WSGIRequestHandler):
    """Werkzeug's server, without its version and Python's in the ``Server`` header."""

    def version_string(self) -> str:
        return "Remi Referee"


def local_target(target: str | None) -> str | None:
    """``target`` if it is a path of this app (with its query), else None.

    Browsers drop tabs and newlines inside URLs and read a backslash as a
    slash, so ``/\\t/evil.example`` would be ``//evil.example``: another site.
    Anything with a control character, a backslash, a scheme or a host is refused.
    """
    if not target or len(target) > 2000 or "\\" in target or target.startswith("//"):
        return None
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    if parts.path.startswith("//"):
        return None
    return urlunsplit(("", "", parts.path, parts.query, ""))


def referrer_path() -> str | None:
    """The page of this app that the request came from (for a "Go back" link), if any."""
    parts = urlsplit(request.referrer or "")
    if parts.scheme not in ("http", "https") or parts.netloc != request.host:
        return None
    return local_target(urlunsplit(("", "", parts.path, parts.query, "")))


def init_app(app: Flask) -> None:
    """Before the other extensions: the body limit must be set before CSRF reads the form."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.url_map.converters["int"] = BoundedIntConverter
    app.session_interface = SessionInterface()

    app.request_class = RefereeRequest

    @app.before_request
    def limit_body() -> None:
        if request.endpoint not in LARGE_BODY_ENDPOINTS:
            _limit_body(request, app.config["FORM_MAX_CONTENT_LENGTH"])
        if request.query_string:
            utf8_fields(request.query_string)  # the views read request.args, Werkzeug's

    Talisman(
        app,
        force_https=False,  # a home network has no certificate; behind HTTPS the proxy redirects
        frame_options="DENY",
        strict_transport_security=True,  # Talisman sends it only on a request over HTTPS
        strict_transport_security_include_subdomains=False,
        content_security_policy=app.config["CONTENT_SECURITY_POLICY"],
        referrer_policy="same-origin",  # the links carry the table keys
        session_cookie_secure=False,  # see SessionInterface
        session_cookie_samesite=app.config.get("SESSION_COOKIE_SAMESITE", "Lax"),
    )

    @app.after_request
    def cache_control(response: Response) -> Response:
        if request.endpoint == "static" or "Cache-Control" in response.headers:
            return response
        if request.endpoint in app.config["REVALIDATE_ENDPOINTS"]:
            response.headers["Cache-Control"] = "no-cache"
        else:
            response.headers["Cache-Control"] = "no-store"
        return response


def _limit_body(current: Request, limit: int) -> None:
    configured = current.max_content_length
    current.max_content_length = limit if configured is None else min(limit, configured)


def init_rate_limits(app: Flask) -> Limiter:
    """One limiter per app (its counters live with it), after the views are registered."""
    limiter = Limiter(get_remote_address)
    limiter.init_app(app)
    app.extensions["rate_limiter"] = limiter  # the limits only hold a weak reference to it
    shared = {
        config: limiter.shared_limit(_configured(app, config), scope=config, methods=["POST"])
        for config in set(RATE_LIMITED.values())
    }
    for endpoint, config in RATE_LIMITED.items():
        view = app.view_functions.get(endpoint)
        if view is not None:  # the wrapper checks the limit, then calls the view
            app.view_functions[endpoint] = cast(RouteCallable, shared[config](view))
    return limiter


# The scope under which the keys an address tried in vain are counted.
WRONG_KEYS = "wrong-keys"


def count_wrong_key() -> None:
    """Count a key that opened no table against the address that tried it
    (``RATELIMIT_UNKNOWN_LINKS``); 429 once that address has tried too many.
    Called by :func:`referee.web.play.access.wrong_key`, where every failed lookup ends."""
    limiter = _limiter()
    if limiter is not None:
        counted = [limiter.hit(item, WRONG_KEYS, get_remote_address()) for item in _wrong_keys()]
        if not all(counted):
            stop_guessing()


def guessing_stopped() -> bool:
    """Whether this address has tried too many wrong keys for now: then a key is looked up
    only if this browser opened its table before (the caller's to tell)."""
    return address_stopped(current_app, get_remote_address())


def address_stopped(app: Flask, address: str) -> bool:
    """Whether ``address`` has tried too many wrong keys for now (False with the limits
    off); outside a request too (the change check's middleware asks before the app)."""
    extension = app.extensions.get("rate_limiter")
    if extension is None or not extension.enabled:
        return False
    limits = _parsed_limits(str(app.config["RATELIMIT_UNKNOWN_LINKS"]))
    return not all(extension.limiter.test(item, WRONG_KEYS, address) for item in limits)


def client_address(environ: Mapping[str, Any], hops: int) -> str:
    """The address a request came from as the app reads it behind ``hops`` proxies
    (Werkzeug's ``ProxyFix``: the ``hops``-th address of X-Forwarded-For from the right)."""
    if hops:
        forwarded = [
            part.strip() for part in str(environ.get("HTTP_X_FORWARDED_FOR", "")).split(",")
        ]
        if len(forwarded) >= hops and forwarded[-hops]:
            return forwarded[-hops]
    return str(environ.get("REMOTE_ADDR") or "127.0.0.1")


def stop_guessing() -> NoReturn:
    """429, with the seconds until this address may try keys again."""
    limiter = _limiter()
    address = get_remote_address()
    wait = 1.0
    if limiter is not None:
        for item in _wrong_keys():
            if not limiter.test(item, WRONG_KEYS, address):
                reset = limiter.get_window_stats(item, WRONG_KEYS, address).reset_time
                wait = max(wait, reset - time.time())
    raise TooManyRequests(retry_after=math.ceil(wait))


def _limiter() -> Any:
    """The limiter's strategy (the counters), or None when the limits are off."""
    extension = current_app.extensions.get("rate_limiter")
    if extension is None or not extension.enabled:
        return None
    return extension.limiter


def _wrong_keys() -> list[RateLimitItem]:
    return _parsed_limits(str(current_app.config["RATELIMIT_UNKNOWN_LINKS"]))


@lru_cache(maxsize=8)
def _parsed_limits(text: str) -> list[RateLimitItem]:
    return parse_many(text)


def _configured(app: Flask, config: str) -> Callable[[], str]:
    """The limit named by ``config``, read from the app's config when a request is counted."""
    return lambda: str(app.config[config])


def create_private_file(path: Path, text: str = "") -> bool:
    """Create ``path`` with ``text``, readable and writable by its owner only.

    False if it exists already.  The file appears whole (written aside, then
    linked into place), so a second process starting at the same time never
    reads it half written.
    """
    if path.exists():
        return False
    descriptor, aside = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(text)
        os.link(aside, path)  # never replaces an existing file
    except FileExistsError:
        return False
    finally:
        os.unlink(aside)
    return True
