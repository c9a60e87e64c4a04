"""Reachable from every phone at the table: the server, its addresses, the links and their QR codes.

No test sends traffic beyond 127.0.0.1: the machine's network interfaces are
made up (``ifaddr`` adapters), the phones are simulated with the ``Host``
header, and the real server is started on 127.0.0.1 only.
"""

from __future__ import annotations

import html
import io
import json
import logging
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
import requests
import sqlalchemy as sa
from gunicorn.config import Config
from gunicorn.workers.gthread import ThreadWorker
from ifaddr import IP, Adapter

from referee import cli
from referee.web import create_app, serve, warm_up
from referee.web.serving import addresses
from referee.web.serving.logmask import KEY_MASKING, mask_keys
from referee.web.serving.paths import MIGRATIONS
from referee.web.serving.settings import SettingError
from referee.web.store.extensions import db
from referee.web.store.models import CardTable

from .conftest import Client
from .helpers import new_api_match, new_match, new_table
from .qr_reading import picture, quiet_zone, read_codes, svg_modules, terminal_modules
from .realserver import fresh_database, start_server

REPO = Path(__file__).resolve().parents[2]

LAPTOP = [
    Adapter("lo", "lo", [IP("127.0.0.1", 8, "lo"), IP(("::1", 0, 0), 128, "lo")]),
    Adapter("docker0", "docker0", [IP("172.17.0.1", 16, "docker0")]),
    Adapter(
        "wlan0",
        "wlan0",
        [IP("192.168.1.20", 24, "wlan0"), IP(("fe80::1", 0, 3), 64, "wlan0")],
    ),
    Adapter("eth0", "eth0", [IP("169.254.7.7", 16, "eth0"), IP("10.0.0.5", 8, "eth0")]),
    Adapter("wlan1", "wlan1", [IP("192.168.1.20", 24, "wlan1")]),
]
OFFLINE = [Adapter("lo", "lo", [IP("127.0.0.1", 8, "lo")])]
# The made-up machine behind the links (a documentation address: never contacted).
MACHINE = [Adapter("wlan0", "wlan0", [IP("198.51.100.7", 24, "wlan0")])]


# -- the addresses a phone can use ------------------------------------------------------------


def test_network_addresses_are_the_ipv4_ones_real_interfaces_first():
    # Loopback, link-local (169.254) and IPv6 are left out; the Docker bridge comes last; a
    # second interface on the same address does not repeat it.
    assert addresses.network_addresses(LAPTOP) == ["192.168.1.20", "10.0.0.5", "172.17.0.1"]


def test_a_server_on_every_interface_is_reached_at_each_network_address_then_this_machine():
    assert addresses.phone_urls("0.0.0.0", 5000, LAPTOP) == [
        "http://192.168.1.20:5000/",
        "http://10.0.0.5:5000/",
        "http://172.17.0.1:5000/",
        "http://127.0.0.1:5000/",
    ]


def test_a_private_server_is_reached_from_this_machine_only():
    assert addresses.phone_urls("127.0.0.1", 5000, LAPTOP) == ["http://127.0.0.1:5000/"]
    assert addresses.network_hosts("127.0.0.1", LAPTOP) == []
    assert addresses.network_hosts("localhost", LAPTOP) == []


def test_a_server_on_one_address_is_reached_there_only():
    assert addresses.phone_urls("10.0.0.5", 8000, LAPTOP) == ["http://10.0.0.5:8000/"]


def test_port_80_is_left_out_and_ipv6_hosts_get_brackets():
    assert addresses.url("192.168.1.20", 80) == "http://192.168.1.20/"
    assert addresses.url("fd00::2", 5000) == "http://[fd00::2]:5000/"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("table.localhost", True),
        ("[::1]", True),
        ("::1", True),
        ("192.168.1.20", False),
        ("laptop.local", False),
        ("0.0.0.0", False),
    ],
)
def test_which_hosts_are_this_machine_only(host, loopback):
    assert addresses.is_loopback(host) is loopback


# -- what the server prints at start ---------------------------------------------------------


def test_banner_lists_every_address_and_draws_the_first_network_one():
    text, qr_url = serve.banner("0.0.0.0", 5000, LAPTOP)
    assert qr_url == "http://192.168.1.20:5000/"
    listed = re.findall(r"^  (\S+)", text, re.MULTILINE)
    assert listed == addresses.phone_urls("0.0.0.0", 5000, LAPTOP)
    assert "http://127.0.0.1:5000/   (this machine)" in text


def test_banner_of_a_private_server_says_how_to_let_the_phones_in():
    text, qr_url = serve.banner("127.0.0.1", 5000, LAPTOP)
    assert qr_url is None
    assert "http://127.0.0.1:5000/ (this machine only)" in text
    assert "HOST=0.0.0.0 make run" in text


def test_banner_without_any_network_says_to_join_one():
    text, qr_url = serve.banner("0.0.0.0", 5000, OFFLINE)
    assert qr_url is None
    assert "http://127.0.0.1:5000/ (this machine only)" in text
    assert "Wi-Fi" in text


def test_the_terminal_qr_code_opens_the_first_network_address():
    out = io.StringIO()
    serve.print_banner("0.0.0.0", 5000, LAPTOP, out)
    lines = out.getvalue().splitlines()
    drawing = [line for line in lines if line and set(line) <= set("█▀▄ ")]
    assert drawing, out.getvalue()
    dark = terminal_modules(drawing)
    assert read_codes(picture(dark)) == ["http://192.168.1.20:5000/"]
    assert "HOST=127.0.0.1 make run" in lines[-1]


def test_the_when_ready_hook_prints_the_port_actually_bound(monkeypatch, capsys):
    monkeypatch.setattr(addresses, "machine_adapters", lambda: LAPTOP)
    listener = SimpleNamespace(getsockname=lambda: ("0.0.0.0", 43210))
    arbiter = SimpleNamespace(
        LISTENERS=[listener], app=SimpleNamespace(settings=serve.Settings("0.0.0.0", 0, 2, 8))
    )
    serve.when_ready(arbiter)
    assert "  http://192.168.1.20:43210/" in capsys.readouterr().out


# -- the server's settings --------------------------------------------------------------------


def test_server_defaults_every_interface_port_5000_two_workers_of_eight_threads():
    assert serve.settings_from({}, {}) == serve.Settings("0.0.0.0", 5000, 2, 8)


def test_server_settings_come_from_the_environment_and_the_command_line_wins():
    environ = {"HOST": "127.0.0.1", "PORT": "8000", "WORKERS": "3", "THREADS": "4"}
    assert serve.settings_from({}, environ) == serve.Settings("127.0.0.1", 8000, 3, 4)
    given = {"host": "0.0.0.0", "port": "9000", "workers": None, "threads": None}
    assert serve.settings_from(given, environ) == serve.Settings("0.0.0.0", 9000, 3, 4)


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"PORT": "abc"}, "PORT"),
        ({"PORT": "70000"}, "PORT"),
        ({"WORKERS": "0"}, "WORKERS"),
        ({"THREADS": "many"}, "THREADS"),
        ({"HOST": "my laptop"}, "HOST"),
    ],
)
def test_a_bad_server_setting_is_refused_with_its_name(environ, named):
    with pytest.raises(SettingError, match=named):
        serve.settings_from({}, environ)


def test_referee_serve_with_a_bad_port_says_so_and_exits_2(capsys):
    assert cli.main(["serve", "--port", "abc"]) == 2
    assert "PORT must be a whole number from 0 to 65535; got 'abc'" in capsys.readouterr().err


def test_referee_serve_with_a_bad_public_url_says_so_before_starting(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PUBLIC_URL", "remi.example.org")
    monkeypatch.setenv("SECRET_KEY", "test")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'never.db'}")
    assert cli.main(["serve", "--port", "0"]) == 2
    assert "PUBLIC_URL must be the address the app is reached at" in capsys.readouterr().err


def test_gunicorn_runs_threaded_workers_and_trusts_no_forwarded_header_itself():
    server = serve.RefereeServer(serve.Settings("0.0.0.0", 5000, 2, 8))
    assert server.cfg.bind == ["0.0.0.0:5000"]
    assert (server.cfg.workers, server.cfg.threads) == (2, 8)
    assert server.cfg.worker_class is serve.IdleFirstWorker
    assert issubclass(serve.IdleFirstWorker, ThreadWorker)
    assert server.cfg.forwarded_allow_ips == []
    assert server.cfg.secure_scheme_headers == {}
    assert server.cfg.logger_class is serve.KeyMaskingLogger
    assert serve.RefereeServer(serve.Settings("::", 80, 1, 1)).cfg.bind == ["[::]:80"]


# -- keys never reach the logs ----------------------------------------------------------------

EDIT_KEY = "q1W2e3R4t5Y6u7I8o9P0a_S-d1F2g3H4"
VIEW_KEY = "Zx9Cv8Bn7Mm6Ll5Kk4Jj3Hh2Gg1Ff0Dd"


def test_mask_keys_hides_the_key_and_keeps_the_rest_of_the_path():
    assert mask_keys(f"GET /t/{EDIT_KEY}/m/3 HTTP/1.1") == "GET /t/•••/m/3 HTTP/1.1"
    assert mask_keys(f"/v/{VIEW_KEY}/") == "/v/•••/"
    assert mask_keys(f"/api/v1/tables/{EDIT_KEY}/matches") == "/api/v1/tables/•••/matches"
    assert mask_keys("/static/css/app.css /check /rules/remi") == (
        "/static/css/app.css /check /rules/remi"
    )


@pytest.fixture
def gunicorn_logger(tmp_path):
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    logger = serve.KeyMaskingLogger(cfg)
    yield logger
    for log in (logger.error_log, logger.access_log):
        for handler in list(log.handlers):
            log.removeHandler(handler)
            handler.close()


def test_gunicorns_access_log_shows_paths_and_referers_with_keys_masked(gunicorn_logger, tmp_path):
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": f"/t/{EDIT_KEY}/m/3/live?turn=2",
        "PATH_INFO": f"/t/{EDIT_KEY}/m/3/live",
        "QUERY_STRING": "turn=2",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": f"http://127.0.0.1:5000/v/{VIEW_KEY}/m/3",
        "HTTP_USER_AGENT": "Mozilla/5.0 (Android 14; Mobile)",
    }
    response = SimpleNamespace(status="302 FOUND", sent=189, headers=[])
    request = SimpleNamespace(headers=[("HOST", "127.0.0.1:5000")])
    gunicorn_logger.access(response, request, environ, timedelta(milliseconds=12))
    line = (tmp_path / "access.log").read_text(encoding="utf-8")
    assert '"POST /t/•••/m/3/live?turn=2 HTTP/1.1" 302 189' in line
    assert '"http://127.0.0.1:5000/v/•••/m/3"' in line
    assert EDIT_KEY not in line and VIEW_KEY not in line


def test_gunicorns_error_log_masks_keys_in_messages_and_tracebacks(gunicorn_logger, tmp_path):
    try:
        raise RuntimeError(f"while opening /t/{EDIT_KEY}/")
    except RuntimeError:
        gunicorn_logger.exception("Error handling request %s", f"/v/{VIEW_KEY}/m/1")
    text = (tmp_path / "error.log").read_text(encoding="utf-8")
    assert "Error handling request /v/•••/m/1" in text
    assert "RuntimeError: while opening /t/•••/" in text
    assert EDIT_KEY not in text and VIEW_KEY not in text


def test_the_masking_filter_works_on_any_handler():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(KEY_MASKING)
    log = logging.getLogger("referee.test_serve")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("slow page %s took %d ms", f"/t/{EDIT_KEY}/stats", 900)
    finally:
        log.removeHandler(handler)
        log.propagate = True
    assert stream.getvalue() == "slow page /t/•••/stats took 900 ms\n"


# -- links the other phones can open ----------------------------------------------------------


class ServedClient(Client):
    """A test client whose app is served as gunicorn serves it with ``HOST`` (its SERVER_NAME)."""

    listening = "0.0.0.0"

    def open(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["environ_overrides"] = {"SERVER_NAME": self.listening}
        return super().open(*args, **kwargs)


@pytest.fixture
def linked(template_db, tmp_path, monkeypatch):
    """A table on an app served on every interface of a made-up machine."""
    monkeypatch.setattr(addresses, "machine_adapters", lambda: MACHINE)

    def make(**config: object) -> tuple[ServedClient, str]:
        path = tmp_path / "links.db"
        shutil.copy(template_db, path)
        settings = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True}
        app = create_app({**settings, "PUBLIC_URL": "", "FORWARDED_HOPS": 0, **config})
        app.test_client_class = ServedClient
        client = app.test_client()
        return client, new_table(client)

    return make


def copied_links(page: str) -> dict[str, str]:
    """The links in the copy boxes of the table page: ``edit`` and ``view``."""
    found = [
        html.unescape(v) for v in re.findall(r'<input class="copy" readonly value="([^"]+)"', page)
    ]
    return {("edit" if "/t/" in url else "view"): url for url in found} | (
        {} if len(found) <= 2 else {"more": "than two links"}
    )


def keys(table_url: str, page: str) -> tuple[str, str]:
    edit = table_url.strip("/").split("/")[1]
    view = re.search(r"/v/([^/\"]+)/", page).group(1)
    return edit, view


def test_a_phone_gets_links_with_the_address_it_used(linked):
    client, table = linked()
    page = client.get(table, headers={"Host": "laptop.local:5000"}).text
    edit, view = keys(table, page)
    assert copied_links(page) == {
        "edit": f"http://laptop.local:5000/t/{edit}/",
        "view": f"http://laptop.local:5000/v/{view}/",
    }


def test_opened_through_127_0_0_1_the_links_carry_the_machines_network_address(linked):
    client, table = linked()
    page = client.get(table, base_url="http://127.0.0.1:5000").text
    edit, view = keys(table, page)
    assert copied_links(page) == {
        "edit": f"http://198.51.100.7:5000/t/{edit}/",
        "view": f"http://198.51.100.7:5000/v/{view}/",
    }


@pytest.mark.parametrize("opened", ["http://localhost:8080", "http://[::1]:8080"])
def test_opened_through_localhost_the_links_keep_the_port(linked, opened):
    client, table = linked()
    shown = copied_links(client.get(table, base_url=opened).text)
    assert len(shown) == 2
    assert all(url.startswith("http://198.51.100.7:8080/") for url in shown.values()), shown


def test_a_private_server_keeps_127_0_0_1_in_its_links(linked):
    client, table = linked()
    client.listening = "127.0.0.1"  # HOST=127.0.0.1
    page = client.get(table, base_url="http://127.0.0.1:5000").text
    assert all(url.startswith("http://127.0.0.1:5000/") for url in copied_links(page).values())


def test_without_a_network_the_links_keep_127_0_0_1(linked, monkeypatch):
    client, table = linked()
    monkeypatch.setattr(addresses, "machine_adapters", lambda: OFFLINE)
    page = client.get(table, base_url="http://127.0.0.1:5000").text
    assert all(url.startswith("http://127.0.0.1:5000/") for url in copied_links(page).values())


def test_public_url_names_every_link_whatever_address_was_used(linked):
    client, table = linked(PUBLIC_URL="https://remi.example.org/club/")
    for opened in ("http://127.0.0.1:5000", "http://laptop.local:5000"):
        page = client.get(table, base_url=opened).text
        edit, view = keys(table, page)
        assert copied_links(page) == {
            "edit": f"https://remi.example.org/club/t/{edit}/",
            "view": f"https://remi.example.org/club/v/{view}/",
        }


FORWARDED = {
    "X-Forwarded-For": "203.0.113.9",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "remi.example.org",
    "X-Forwarded-Prefix": "/club",
}


def test_forwarded_headers_are_ignored_unless_configured(linked):
    client, table = linked()
    page = client.get(table, headers={"Host": "laptop.local:5000", **FORWARDED}).text
    assert all(url.startswith("http://laptop.local:5000/") for url in copied_links(page).values())


def test_forwarded_headers_from_one_configured_proxy_name_the_links(linked):
    client, table = linked(FORWARDED_HOPS=1)
    page = client.get(table, headers={"Host": "127.0.0.1:5000", **FORWARDED}).text
    edit, view = keys(table, page)
    assert copied_links(page) == {
        "edit": f"https://remi.example.org/club/t/{edit}/",
        "view": f"https://remi.example.org/club/v/{view}/",
    }


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"PUBLIC_URL": "remi.example.org"}, "PUBLIC_URL must be"),
        ({"PUBLIC_URL": "ftp://remi.example.org"}, "PUBLIC_URL must be"),
        ({"PUBLIC_URL": "https://remi.example.org/?x=1"}, "PUBLIC_URL must be"),
        ({"FORWARDED_HOPS": "yes"}, "FORWARDED_HOPS must be"),
        ({"FORWARDED_HOPS": "-1"}, "FORWARDED_HOPS must be"),
    ],
)
def test_a_bad_link_setting_stops_the_app_with_a_sentence(config, message, tmp_path):
    with pytest.raises(SettingError, match=message):
        create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.db'}", **config})


# -- QR codes on the table page ---------------------------------------------------------------


def qr_codes(page: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", page, re.DOTALL)


def test_the_table_page_shows_qr_codes_of_its_links_the_edit_one_behind_a_tap(linked):
    client, table = linked()
    page = client.get(table, headers={"Host": "laptop.local:5000"}).text
    links_shown = copied_links(page)
    edit_code, view_code = qr_codes(page)
    details = re.search(r'<details class="qr-edit">.*?</details>', page, re.DOTALL).group(0)
    assert edit_code in details and view_code not in details
    for code, label in ((edit_code, "edit"), (view_code, "view")):
        dark = svg_modules(code)
        assert quiet_zone(dark)
        assert read_codes(picture(dark)) == [links_shown[label]]
        # White behind the modules (readable in dark mode), sized by the style sheet.
        size = len(dark)
        assert f'<path fill="#fff" d="M0 0h{size}v{size}h-{size}z"/>' in code
        assert not re.search(r"<svg[^>]*\swidth=", code)
    assert " style=" not in page


def test_the_view_page_shows_only_the_view_links_code(linked):
    client, table = linked()
    edit_page = client.get(table, headers={"Host": "laptop.local:5000"}).text
    edit, view = keys(table, edit_page)
    page = client.get(f"/v/{view}/", headers={"Host": "laptop.local:5000"}).text
    (code,) = qr_codes(page)
    assert read_codes(picture(svg_modules(code))) == [f"http://laptop.local:5000/v/{view}/"]
    assert edit not in page


# -- the real server, as `make run` starts it -------------------------------------------------


def make_run_command() -> str:
    """The command of ``make run`` after its install step: serve (which migrates itself)."""
    shown = subprocess.run(
        ["make", "-n", "run"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    start = [line for line in shown if line.rstrip().endswith(" serve")]
    assert len(start) == 1, shown
    assert not any(" db upgrade" in line for line in shown), shown
    return start[0]


def one_migration_behind(database: str) -> None:
    """The database as the version before this one left it: every migration but the last."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from flask_migrate import upgrade

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    (head,) = ScriptDirectory.from_config(config).get_heads()
    before = ScriptDirectory.from_config(config).get_revision(head).down_revision
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "TESTING": True})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision=before)
        db.engine.dispose()


class Output:
    """A process's output, read line by line in a thread, waited on with a deadline."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self.thread.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.lines.append(line)

    def wait_for(self, pattern: str, seconds: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = re.search(pattern, "".join(self.lines))
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} in:\n{''.join(self.lines)}")


def test_make_run_brings_an_older_database_up_to_date_and_serves_it_through_127_0_0_1_with_keys_masked_in_its_log(
    tmp_path,
):
    start = make_run_command()
    database = f"sqlite:///{tmp_path / 'run.db'}"
    environ = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_URL", "FORWARDED_HOPS")}
    environ.update(
        HOST="127.0.0.1",
        PORT="0",
        DATABASE_URL=database,
        SECRET_KEY="test",
        PYTHONIOENCODING="utf-8",
    )
    one_migration_behind(database)
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "TESTING": True})
    with app.app_context():
        table = CardTable(name="Jumat")
        db.session.add(table)
        db.session.commit()
        edit, view = table.edit_key, table.view_key
        db.engine.dispose()

    server = subprocess.Popen(
        shlex.split(start),
        cwd=REPO,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
    )
    output = Output(server)
    try:
        base = output.wait_for(
            r"Remi Referee is at (http://127\.0\.0\.1:\d+/) \(this machine only\)"
        )[1]
        with urlopen(f"{base}t/{edit}/", timeout=30) as response:
            assert response.status == 200
            page = response.read().decode()
        # Opened through 127.0.0.1 on a private server: the links stay on 127.0.0.1.
        assert f'value="{base}v/{view}/"' in page
        assert len(qr_codes(page)) == 2
        with urlopen(f"{base}readyz", timeout=30) as response:
            assert json.load(response)["status"] == "ready"
        with pytest.raises(HTTPError) as missing:
            urlopen(f"{base}v/{'x' * 32}/", timeout=30)
        assert missing.value.code == 404
        missing.value.close()
        output.wait_for(r'"GET /t/•••/ HTTP/1\.1" 200')
        output.wait_for(r'"GET /v/•••/ HTTP/1\.1" 404')
    finally:
        server.terminate()
        server.wait(30)
        output.thread.join(10)
        server.stdout.close()
    log = "".join(output.lines)
    assert "Using worker: IdleFirstWorker" in log
    assert log.count("Booting worker") == 2
    assert edit not in log and view not in log and "x" * 32 not in log


# -- connections spread over the workers ------------------------------------------------------


def test_a_worker_busy_with_a_request_leaves_new_connections_to_the_idle_one(tmp_path):
    """Two workers of one thread each; one is held in a save (the test holds SQLite's write
    lock).  gunicorn's own threaded worker would take about half of the new connections
    and keep them waiting behind the save; here every one goes to the idle worker."""
    with fresh_database("sqlite", tmp_path) as database:
        server = start_server(database, tmp_path, workers=2, threads=1)
        try:
            path, etag = new_api_match(
                lambda path, body: requests.post(server.url + path, json=body).json()
            )
            match_url = server.url + path
            holder = sqlite3.connect(sa.make_url(database).database, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            saved: list[requests.Response] = []
            save = threading.Thread(
                target=lambda: saved.append(
                    requests.post(
                        f"{match_url}/rounds",
                        json={"out": "Siti", "hands": {"Budi": ["2C", "3D"]}},
                        headers={"If-Match": f'"{etag}"'},
                        timeout=60,
                    )
                )
            )
            save.start()
            time.sleep(1.0)  # the save has a worker, and waits for the lock
            try:
                assert not saved
                for _ in range(8):
                    answer = requests.get(match_url, headers={"Connection": "close"}, timeout=5)
                    assert answer.status_code == 200
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            save.join(30)
            assert saved[0].status_code == 201, saved[0].text
            # remi: the winner takes the losers' hands, 2 + 3
            assert saved[0].json()["totals"] == {"Budi": 0, "Siti": 5}
        finally:
            server.stop()


# -- a worker warmed up before its first request ------------------------------------------------


def pages_loading_templates(app: Any) -> list[str]:
    """The templates read from disk (compiled) while a phone opens a table, starts a match
    and views its score sheet."""
    loaded: list[str] = []
    loader = app.jinja_env.loader
    read = loader.get_source

    def noted(environment: Any, name: str) -> Any:
        loaded.append(name)
        return read(environment, name)

    loader.get_source = noted
    app.test_client_class = Client
    client = app.test_client()
    table = new_table(client)
    scoreboard = new_match(client, table, "remi", ["Budi", "Siti", "Andi"])
    assert client.get(scoreboard).status_code == 200
    return loaded


def test_a_worker_warmed_up_compiles_no_template_for_its_first_pages(template_db, tmp_path):
    def fresh_app(name: str) -> Any:
        shutil.copy(template_db, tmp_path / name)
        return create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / name}", "TESTING": True}
        )

    cold = fresh_app("cold.db")
    assert "matches/_scoreboard_body.html" in pages_loading_templates(cold)
    warm = fresh_app("warm.db")
    warm_up(warm)
    assert pages_loading_templates(warm) == []


def test_a_worker_warms_up_while_its_database_is_not_reachable(caplog):
    # Port 1 of this machine: nothing listens there, the connection is refused at once.
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://app:app@127.0.0.1:1/none",
            "TESTING": True,
        }
    )
    with caplog.at_level(logging.WARNING, logger="referee.web"):
        warm_up(app)
    assert "the database is not reachable yet" in caplog.text
    assert app.jinja_env.get_template("matches/_scoreboard_body.html") is not None
