"""Headers and secrets: the Content-Security-Policy, caching of keyed pages, HTTPS-only
headers and cookies, the Server header, and files readable by their owner only."""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import urllib.request
from pathlib import Path

import pytest

from referee.web import TEMPLATES, _secret_key, create_app

from .conftest import migrated_app
from .helpers import new_match, new_table, save_round, view_url
from .realserver import fresh_database, start_server


def directives(response) -> dict[str, str]:
    policy = response.headers["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


def test_pages_carry_a_strict_content_security_policy(client):
    response = client.get(new_table(client))
    policy = directives(response)
    assert policy["default-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    assert "unsafe-eval" not in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_no_template_has_an_inline_style_or_script():
    """The policy allows neither: a style attribute or an inline script would be blocked."""
    for path in sorted(TEMPLATES.rglob("*.html")):
        source = path.read_text()
        assert not re.search(r"\sstyle\s*=", source), path
        assert "<style" not in source, path
        assert not re.search(r"\son[a-z]+\s*=", source), path  # onclick= and the like
        assert "javascript:" not in source, path
        for tag in re.findall(r"<script\b[^>]*>", source):
            assert re.search(r"\ssrc=", tag), (path, tag)


def test_the_referee_error_page_goes_back_without_a_javascript_link(app):
    from referee.errors import RuleError

    @app.get("/boom-referee")
    def boom_referee():
        raise RuleError("rules.unknown", rules="poker", known="remi")

    client = app.test_client()
    came_from = client.get("/boom-referee", headers={"Referer": "http://localhost/check?x=1"})
    assert came_from.status_code == 400
    assert 'href="/check?x=1"' in came_from.text and "javascript:" not in came_from.text
    elsewhere = client.get("/boom-referee", headers={"Referer": "http://evil.example/check"})
    assert "evil.example" not in elsewhere.text and '<a class="button" href' not in elsewhere.text


def test_the_progress_to_the_target_is_a_progress_element(client):
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, match, ["Budi", "Siti"], {"Siti": "KH QH"}, ending="out", player="Budi")
    page = client.get(match).text
    # Budi has 20 of 100 points (KH and QH are 10 each in remi).
    assert '<progress class="bar" max="100" value="20">' in page
    assert 'style="' not in page


def keyed_pages(client) -> list[str]:
    """A page of every kind, with a table, a match and a saved round behind them."""
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, match, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    view = view_url(client, table)
    return [
        "/",  # lists the tables this browser opened, with their links
        table,
        view,
        table + "stats",
        table + "new",
        table + "new/remi",
        table + "import",
        match,
        match + "live",
        match + "rounds/new",
        match + "rounds/1",
        match + "rounds/1/edit",
        match + "rounds/1/json",
        match + "export",
        view + match.split("/", 3)[3],
        "/t/" + "A" * 32 + "/",  # not found, but the key is in the path
    ]


def test_every_page_that_carries_a_key_is_never_stored(client):
    for url in keyed_pages(client):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        assert response.headers["Cache-Control"] == "no-store", url
    created = client.submit("/tables", {"name": "Meja"})  # the redirect names the new key
    assert created.status_code == 302 and created.headers["Cache-Control"] == "no-store"


def test_no_page_as_served_has_an_inline_style_or_script(client):
    """The templates, and what they draw (the QR codes), as the browser gets them."""
    for url in keyed_pages(client) + ["/check", "/gin", "/rules/", "/rules/manipulation"]:
        body = client.get(url).text
        assert not re.search(r"\sstyle\s*=", body), url
        assert not re.search(r"\son[a-z]+\s*=", body), url
        for tag in re.findall(r"<script\b[^>]*>", body):
            assert re.search(r"\ssrc=", tag), (url, tag)


def test_static_files_may_be_cached(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200 and "no-store" not in response.headers.get(
        "Cache-Control", ""
    )
    response.close()


def test_an_endpoint_can_be_revalidated_instead(app, client):
    app.config["REVALIDATE_ENDPOINTS"] = ("matches.scoreboard",)
    table = new_table(client, players="Budi, Siti")
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    assert client.get(match).headers["Cache-Control"] == "no-cache"
    assert client.get(table).headers["Cache-Control"] == "no-store"


def test_hsts_and_secure_cookies_only_over_https(app):
    plain = app.test_client().get("/")
    assert "Strict-Transport-Security" not in plain.headers
    assert "session=" in plain.headers["Set-Cookie"]
    assert "Secure" not in plain.headers["Set-Cookie"]  # a home network has no certificate

    secure = app.test_client().get("/", base_url="https://remi.example")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")
    cookie = [part.strip() for part in secure.headers["Set-Cookie"].split(";")]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie

    # Behind a proxy the app was told of (FORWARDED_HOPS), the proxy's word counts; from
    # anyone else it does not (tests/web/test_abuse.py).
    behind_proxy = create_app(
        {"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "FORWARDED_HOPS": 1}
    )
    proxied = behind_proxy.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" in proxied.headers
    assert "Secure" in [part.strip() for part in proxied.headers["Set-Cookie"].split(";")]


def test_http_is_not_redirected_to_https(client):
    assert client.get("/").status_code == 200


def test_the_server_header_names_no_version(live_server):
    """The tests' own server (Werkzeug's, with QuietRequestHandler)."""
    with urllib.request.urlopen(live_server + "/rules/") as response:  # 127.0.0.1 only
        server = response.headers["Server"]
    assert server == "Remi Referee"


def test_make_runs_server_names_no_version_and_sends_the_headers(tmp_path):
    """``referee serve`` (gunicorn), as ``make run`` starts it, on 127.0.0.1."""
    with fresh_database("sqlite", tmp_path) as database:
        server = start_server(database, tmp_path, workers=1, threads=2)
        try:
            with urllib.request.urlopen(server.url + "/rules/") as response:
                headers = response.headers
        finally:
            server.stop()
    assert not re.search(r"\d", headers["Server"]), headers["Server"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-store"


# -- files readable by their owner only --------------------------------------------------------


@pytest.fixture
def open_umask():
    """The most permissive umask, so that only the app's own choice of mode counts."""
    previous = os.umask(0)
    yield
    os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_secret_key_file_is_created_private(tmp_path, monkeypatch, open_umask):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    key = _secret_key(tmp_path)
    assert mode(tmp_path / "secret_key") == 0o600
    assert _secret_key(tmp_path) == key and len(key) >= 32
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # nothing left aside


def test_a_new_sqlite_file_is_created_private(tmp_path, open_umask):
    path = tmp_path / "remi.db"
    migrated_app(f"sqlite:///{path}")
    assert mode(path) == 0o600
    assert path.stat().st_size > 0  # the migrations ran into it


def test_an_existing_sqlite_file_is_left_as_it_is(tmp_path):
    path = tmp_path / "remi.db"
    path.write_bytes(b"")
    path.chmod(0o640)
    create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True})
    assert mode(path) == 0o640


def test_instance_dir_holds_the_database_which_keeps_the_secret_key(
    tmp_path, monkeypatch, open_umask
):
    """``INSTANCE_DIR``: the app's own files go there, made private (the folder too); the
    secret is kept in the database, where every server of that database finds it."""
    folder = tmp_path / "kept" / "here"
    monkeypatch.setenv("INSTANCE_DIR", str(folder))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app()
    assert Path(app.instance_path) == folder
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{folder / 'remi.db'}"
    assert mode(folder) == 0o700
    assert mode(folder / "remi.db") == 0o600
    assert not (folder / "secret_key").exists()
    with sqlite3.connect(folder / "remi.db") as connection:
        (kept,) = connection.execute("SELECT value FROM stored_settings").fetchone()
    connection.close()
    assert kept == app.config["SECRET_KEY"] and len(kept) >= 32
