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
  names a shared store): the anonymous tools, creating tables and links that
  lead nowhere.  A known table's pages and its polling are never limited.
- Route numbers are bounded, the language switch redirects only to this app's
  own paths, and the files the app creates are readable by their owner only.
"""

from __future__ import annotations

import os
import tempfile
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Request, request
from flask.sessions import SecureCookieSessionInterface
from flask.typing import RouteCallable
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_talisman import Talisman
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
    # Answers 404 (a wrong key, a match that is not there): counted per address, app-wide.
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


def came_over_https() -> bool:
    """Whether the request came over HTTPS, to the app or to a proxy in front of it.

    The same test Flask-Talisman makes before it sends HSTS.  A client that
    lies about it only makes its own cookie ``Secure``.
    """
    return request.is_secure or request.headers.get("X-Forwarded-Proto") == "https"


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

    @app.before_request
    def limit_body() -> None:
        if request.endpoint not in LARGE_BODY_ENDPOINTS:
            _limit_body(request, app.config["FORM_MAX_CONTENT_LENGTH"])

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
    limiter = Limiter(
        get_remote_address,
        application_limits=[lambda: app.config["RATELIMIT_UNKNOWN_LINKS"]],
        application_limits_deduct_when=lambda response: response.status_code == 404,
    )
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
