"""The production server: gunicorn (waitress where gunicorn cannot run), serving the app
to every phone at the table.

``referee serve`` (what ``make run`` starts) embeds gunicorn through its
``BaseApplication``: several worker processes with threads each (``gthread``;
the live pages poll with short ETag checks, so no thread waits on a phone).
A worker takes a new connection only while it has no request in progress
(:class:`IdleFirstWorker`), so the phones' connections spread over the workers,
and closes a connection whose body was refused unread (a 413), which gunicorn
could not reuse.
Each worker builds its own app, so no database connection crosses a fork.

Settings, from the command line or the environment:

- ``--host`` / ``HOST``: ``0.0.0.0`` (every network interface, the default) or
  ``127.0.0.1`` to keep it to this machine;
- ``--port`` / ``PORT``: 5000 (0 picks a free one, printed at start);
- ``--workers`` / ``WORKERS``: 2 processes; ``--threads`` / ``THREADS``: 8 each.

Every worker starts the automatic backups' thread; the one holding their lock makes
them (:mod:`referee.web.store.backups`).  Every worker also announces its server in the
database (:mod:`referee.web.store.servers`), so a restore is refused while it serves.

At start it prints every address a phone can use and a QR code of the first.
The access log masks the table keys (:mod:`referee.web.serving.logmask`); the server
ignores ``X-Forwarded-*`` headers itself: only ``FORWARDED_HOPS`` makes the app
trust them (:mod:`referee.web.play.links`).
"""

from __future__ import annotations

import gc
import logging
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import ifaddr
import segno

try:
    from gunicorn.app.base import BaseApplication
    from gunicorn.glogging import Logger
    from gunicorn.workers.gthread import ThreadWorker

    HAS_GUNICORN = True
except ImportError:  # Windows (no fcntl, no fork): waitress serves instead
    BaseApplication = Logger = ThreadWorker = object
    HAS_GUNICORN = False

from referee.web.serving import addresses
from referee.web.serving.logmask import KEY_MASKING
from referee.web.serving.settings import SettingError

DEFAULTS = {"host": "0.0.0.0", "port": "5000", "workers": "2", "threads": "8"}
LIMITS = {"port": (0, 65535), "workers": (1, 64), "threads": (1, 256)}


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    workers: int
    threads: int

    @property
    def bind(self) -> str:
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return f"{host}:{self.port}"


def settings_from(given: Mapping[str, Any], environ: Mapping[str, str]) -> Settings:
    """The settings: a command-line value, else the environment variable, else the default.

    Raises :class:`SettingError` with a sentence naming the bad value.
    """
    chosen = {}
    for name, default in DEFAULTS.items():
        value = given.get(name)
        if value is None or value == "":
            value = environ.get(name.upper()) or default
        chosen[name] = str(value).strip()
    numbers = {}
    for name, (low, high) in LIMITS.items():
        try:
            numbers[name] = int(chosen[name])
        except ValueError:
            numbers[name] = -1
        if not low <= numbers[name] <= high:
            raise SettingError(
                f"{name.upper()} must be a whole number from {low} to {high}; got {chosen[name]!r}"
            )
    if not chosen["host"] or any(c.isspace() or c in "/?#" for c in chosen["host"]):
        raise SettingError(
            f"HOST must be an address such as 0.0.0.0 or 127.0.0.1; got {chosen['host']!r}"
        )
    return Settings(chosen["host"], numbers["port"], numbers["workers"], numbers["threads"])


def banner(listening: str, port: int, adapters: Iterable[ifaddr.Adapter]) -> tuple[str, str | None]:
    """What the server prints at start, and the address to draw as a QR code (None: private)."""
    adapters = list(adapters)
    network = [addresses.url(host, port) for host in addresses.network_hosts(listening, adapters)]
    urls = addresses.phone_urls(listening, port, adapters)
    if not network:
        if addresses.is_loopback(listening):
            advice = "To let the phones at the table in, start it with HOST=0.0.0.0 make run"
        else:
            advice = "No network found: join the table's Wi-Fi (or a phone's hotspot) and restart."
        return f"Remi Referee is at {urls[0]} (this machine only).\n{advice}", None
    lines = ["Remi Referee is ready. Open it on any phone on the same Wi-Fi:"]
    lines += [f"  {url}" + ("" if url in network else "   (this machine)") for url in urls]
    lines.append(f"Or scan this code with a phone's camera ({network[0]}):")
    return "\n".join(lines), network[0]


def print_banner(
    listening: str, port: int, adapters: Iterable[ifaddr.Adapter], out: TextIO
) -> None:
    text, qr_url = banner(listening, port, adapters)
    print(text, file=out)
    if qr_url:
        try:
            segno.make(qr_url, micro=False).terminal(out=out, compact=True)
        except UnicodeEncodeError:  # a terminal that cannot draw blocks: the addresses suffice
            print("(this terminal cannot draw the QR code)", file=out)
        print("To keep it to this machine instead: HOST=127.0.0.1 make run", file=out)
    out.flush()


def when_ready(arbiter: Any) -> None:
    """gunicorn's hook, once the port is bound: the addresses, with the port actually bound."""
    port = arbiter.LISTENERS[0].getsockname()[1]
    listening = arbiter.app.settings.host
    print_banner(listening, port, addresses.machine_adapters(), sys.stdout)


class KeyMaskingLogger(Logger):
    """gunicorn's logger, with the table keys masked in the access and the error log."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.addFilter(KEY_MASKING)


def gunicorn_options(settings: Settings) -> dict[str, Any]:
    return {
        "bind": [settings.bind],
        "workers": settings.workers,
        "threads": settings.threads,
        "worker_class": IdleFirstWorker,
        "accesslog": "-",
        "errorlog": "-",
        "logger_class": KeyMaskingLogger,
        "when_ready": when_ready,
        "proc_name": "remi-referee",
        "keepalive": 5,
        "graceful_timeout": 10,
        # X-Forwarded-* are the app's to trust or not (FORWARDED_HOPS), not the server's.
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
        # Several servers (or test runs) on one machine would share its default control socket.
        "control_socket_disable": True,
    }


class IdleFirstWorker(ThreadWorker):
    """gunicorn's threaded worker, accepting new connections only while it is idle.

    Every worker listens on the same socket, and gunicorn's takes whatever comes: four
    phones opening their connections at once could all land on one worker, whose
    requests then share one core (Python runs one thread of a process at a time) while
    the other workers wait.  Here a worker with a request in progress leaves new
    connections to the others (or to itself once it is done); the connections it has
    already accepted are served by its threads as before.  With every worker in a
    request, a new connection waits in the socket's queue for the first one done (a
    connection that sends nothing yet holds no thread: gunicorn puts it aside).

    It overrides methods of gunicorn's ThreadWorker that are not its public interface, so
    gunicorn is pinned to 27.x.  Kept because no public setting does the same, measured
    with ``bench/fairness_bench.py`` (two workers of one thread each, one held in a save
    waiting for SQLite's lock; 8 new connections, each given 3 s):

    - this worker: 8 answered (the 8 in 0.2 s);
    - gunicorn's ``gthread``: 4; the other 4 wait behind the save;
    - ``reuse_port``: 4; the kernel spreads connections by their addresses, busy or not;
    - ``worker_connections`` at 2: 7, and it caps the phones' open connections;
    - the ``sync`` worker: 8 (0.4 s), but one request at a time and no keep-alive, so a
      slow phone's upload holds a whole worker.

    The same bench's saves under ``wrk -t2 -c4`` (load average 16-24 from other work)
    moved too much to rank the ways (14-40 requests/s for each), but gunicorn's own
    worker once took all 186 requests of a run in one worker, and ``reuse_port`` 3 to 1.
    A single-process server (waitress) would put every phone on one core.
    """

    # Counted in the worker's main loop only (gunicorn calls both methods there): no lock.
    requests_in_progress = 0
    wsgi: Any  # the app, set by load_wsgi

    def enqueue_req(self, conn: Any) -> None:
        self.requests_in_progress += 1
        self.set_accept_enabled(False)
        super().enqueue_req(conn)

    def finish_request(self, conn: Any, fs: Any) -> None:
        self.requests_in_progress -= 1
        super().finish_request(conn, fs)

    def set_accept_enabled(self, enabled: bool) -> None:
        # The worker's loop turns accepting back on once its connections are below the
        # limit; it stays off while a request is in progress.
        super().set_accept_enabled(enabled and self.requests_in_progress == 0)

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = closing_after_unread_bodies(self.wsgi)


# What gunicorn reads and throws away of a body the app left unread, before it serves the
# next request on the connection (gunicorn.http.parser._DRAIN_MAX_BYTES); past that it
# closes the connection without a word, after an answer that said "keep-alive".
DRAINED_AT_MOST = 64 * 1024


def closing_after_unread_bodies(wsgi: Any) -> Any:
    """``wsgi``, closing the connection after a 413 and after any error answer to a body
    larger than gunicorn drains (refused before it was read, by the router or a limit).

    The answer then says ``Connection: close`` and the phone's next request opens a new
    connection, instead of being sent on one the server has dropped.  gunicorn ignores
    a ``Connection`` header from the app (it is hop-by-hop): its response object is the
    one to tell, and it is what ``start_response`` is bound to.
    """

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        def start(status: str, headers: Any, exc_info: Any = None) -> Any:
            code = int(status.split(" ", 1)[0])
            if code == 413 or (code >= 400 and _body_length(environ) > DRAINED_AT_MOST):
                force_close = getattr(
                    getattr(start_response, "__self__", None), "force_close", None
                )
                if force_close is not None:
                    force_close()
            return start_response(status, headers, exc_info)

        return wsgi(environ, start)

    return app


def _body_length(environ: dict[str, Any]) -> int:
    if environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked":
        return sys.maxsize  # of unknown length
    try:
        return int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class RefereeServer(BaseApplication):
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        for name, value in gunicorn_options(self.settings).items():
            self.cfg.set(name, value)

    def load(self) -> Any:
        from referee.web import create_app, warm_up
        from referee.web.store import backups, servers

        app = create_app()
        warm_up(app)
        # The app's own log lines go through gunicorn's handlers, keys masked.
        app_log = logging.getLogger("referee")
        app_log.handlers = list(logging.getLogger("gunicorn.error").handlers)
        app_log.propagate = False
        # In every worker (after the fork): the one that takes the lock makes the backups.
        backups.start_schedule(app)
        # Whatever its settings: a restore is refused while this server serves the database.
        servers.announce(app)
        # What the worker holds from now on (the app, its templates, the engine: some 270,000
        # objects) is left out of the garbage collector's full passes, which otherwise walked
        # it all and held up a request every few dozen for 150-200 ms.
        gc.freeze()
        return app


def prepare_app() -> None:
    """Build the app once before the workers do, and let go of its database connections.

    Its settings are checked here, with a message instead of workers failing to
    boot; the database is brought up to date (one server at a time, see
    :mod:`referee.web.store.schema`) and given the secret every server signs with.
    """
    import sqlalchemy as sa

    from referee.web import create_app
    from referee.web.store import schema
    from referee.web.store.extensions import db

    app = create_app()
    print(f"Remi Referee keeps its files in {app.instance_path}", file=sys.stderr)
    try:
        schema.bring_up_to_date(app)
    except sa.exc.OperationalError as error:
        raise SettingError(
            f"the database cannot be reached ({error.orig}); check DATABASE_URL"
        ) from None
    if not os.environ.get("SECRET_KEY"):
        schema.shared_secret(app, schema.first_secret(Path(app.instance_path)))
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()


def serve_with_waitress(settings: Settings) -> None:
    """Where gunicorn cannot run (Windows): waitress, one process with every thread
    (``WORKERS`` x ``THREADS``)."""
    import waitress

    from referee.web import create_app, warm_up
    from referee.web.store import backups

    app = create_app()
    warm_up(app)
    # The app's and waitress's log lines on the console, the table keys masked.
    console = logging.StreamHandler(sys.stderr)
    console.addFilter(KEY_MASKING)
    for name in ("referee", "waitress"):
        logger = logging.getLogger(name)
        logger.handlers = [console]
        logger.setLevel(logging.INFO)
        logger.propagate = False
    backups.start_schedule(app)
    server = waitress.create_server(
        app,
        host=settings.host,
        port=settings.port,
        threads=settings.workers * settings.threads,
        ident="Remi Referee",
        # X-Forwarded-* are the app's to trust or not (FORWARDED_HOPS): passed on untouched.
        clear_untrusted_proxy_headers=False,
    )
    port = getattr(server, "effective_port", settings.port)
    print_banner(settings.host, port, addresses.machine_adapters(), sys.stdout)
    server.run()


def main(**given: Any) -> int:
    """Start the server (blocks until it is stopped); 2 with a message when a setting is wrong."""
    try:
        settings = settings_from(given, os.environ)
        prepare_app()
    except SettingError as error:
        print(f"referee serve: {error}", file=sys.stderr)
        return 2
    if HAS_GUNICORN:
        RefereeServer(settings).run()
    else:
        serve_with_waitress(settings)
    return 0
