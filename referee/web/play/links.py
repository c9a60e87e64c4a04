"""The links the app shows and copies, and their QR codes: reachable from every phone.

:func:`external_url` builds every absolute link (templates call it instead of
``url_for(..., _external=True)``).  Its address, in order of preference:

1. ``PUBLIC_URL`` when set: a hosted install behind a proxy.
2. When the page was opened through 127.0.0.1 or localhost (the host's own
   browser), the machine's network address, keeping the port, as long as the
   server listens beyond the loopback (``HOST=127.0.0.1`` keeps it private
   and the links with it).
3. Otherwise the address the phone used (its ``Host`` header).

``X-Forwarded-*`` headers are honoured only when ``FORWARDED_HOPS`` says how
many proxies in front of the app set them (Werkzeug's ``ProxyFix``);
otherwise any client could choose the address of the links it is shown.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Flask, current_app, request, url_for
from markupsafe import Markup
from werkzeug.middleware.proxy_fix import ProxyFix

from referee.web.serving import addresses
from referee.web.serving.settings import SettingError


def public_url(value: str | None) -> str:
    """``PUBLIC_URL`` checked: empty, or an absolute http(s) address without query."""
    value = (value or "").strip()
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SettingError(
            f"PUBLIC_URL must be the address the app is reached at, such as "
            f"https://remi.example.org or https://example.org/remi; got {value!r}"
        )
    return value.rstrip("/")


def forwarded_hops(value: object) -> int:
    """``FORWARDED_HOPS`` checked: how many proxies in front of the app (0: trust none)."""
    try:
        hops = int(str(value if value not in (None, "") else 0).strip())
    except ValueError:
        hops = -1
    if not 0 <= hops <= 10:
        raise SettingError(
            f"FORWARDED_HOPS must be the number of proxies in front of the app (0 to 10); "
            f"got {value!r}"
        )
    return hops


def init_app(app: Flask) -> None:
    app.config["PUBLIC_URL"] = public_url(app.config.get("PUBLIC_URL"))
    hops = forwarded_hops(app.config.get("FORWARDED_HOPS"))
    app.config["FORWARDED_HOPS"] = hops
    # Inside ProxyFix: what it trusted is in the request's address and scheme by then,
    # and nothing behind it (Talisman's HSTS test reads X-Forwarded-Proto) sees the rest.
    app.wsgi_app = without_forwarded_headers(app.wsgi_app)  # type: ignore[method-assign]
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops
        )


def without_forwarded_headers(wsgi_app: Any) -> Any:
    """``wsgi_app`` given requests without ``X-Forwarded-*`` or ``Forwarded`` headers."""

    def forget(environ: dict[str, Any], start_response: Any) -> Any:
        for name in [name for name in environ if name.startswith(FORWARDED_HEADERS)]:
            del environ[name]
        return wsgi_app(environ, start_response)

    return forget


FORWARDED_HEADERS = ("HTTP_X_FORWARDED_", "HTTP_FORWARDED")


def link_origin() -> str:
    """``scheme://host[:port]`` of the links on this page (without the app's path prefix)."""
    host = request.host
    try:
        parts = urlsplit(f"//{host}")
        hostname, port = parts.hostname or "", parts.port
    except ValueError:  # a Host header that is no address: links as the phone sent it
        return f"{request.scheme}://{host}"
    if addresses.is_loopback(hostname):
        listening = request.environ.get("SERVER_NAME", "")
        reachable = addresses.reachable_host(listening, addresses.machine_adapters())
        if reachable:
            host = addresses.host_with_port(reachable, port)
    return f"{request.scheme}://{host}"


def external_url(endpoint: str, **values: Any) -> str:
    """The absolute link to ``endpoint`` that the other phones at the table can open."""
    path = url_for(endpoint, **values)
    public = current_app.config.get("PUBLIC_URL")
    if public:  # PUBLIC_URL already names the app's path prefix, if any
        return public + path.removeprefix(request.script_root)
    return link_origin() + path


@lru_cache(maxsize=256)
def qr_svg(url: str, label: str = "") -> Markup:
    """The QR code of ``url`` as inline SVG: dark modules on white, with a white quiet zone.

    The size comes from the style sheet (the SVG has a viewBox and no width),
    so it fits any screen and stays readable in dark mode.  Drawing one takes
    about 9 ms (segno tries all eight masks); a table's links are drawn once.
    """
    code = segno.make(url, micro=False, error="m")
    svg = code.svg_inline(
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr-code",
        lineclass=None,
        title=label or None,
    )
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))
