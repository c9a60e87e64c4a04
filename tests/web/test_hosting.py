"""Any table can reach it: the package as pip installs it, several servers on one database,
a host without ``fcntl`` (Windows), the health answers of a container, the API's page."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tarfile
import time
import tomllib
import uuid
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
import sqlalchemy as sa
import yaml
from flask import Flask

from referee.web import create_app
from referee.web.store import schema
from referee.web.store.extensions import db

from .conftest import TEST_CONFIG, migrated_app
from .helpers import new_api_match
from .realserver import Phone, Server, _drop_database, free_port, migrate, start_server

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]

# What the app serves from inside the package: a wheel or an sdist without any of it fails.
SERVED_FILES = (
    "referee/web/templates/base.html",
    "referee/web/templates/api/docs.html",
    "referee/web/static/js/api-docs.js",
    "referee/web/translations/id/LC_MESSAGES/messages.po",
    "referee/web/translations/id/LC_MESSAGES/messages.mo",
    "referee/web/migrations/alembic.ini",
    "referee/web/migrations/env.py",
    "referee/web/migrations/script.py.mako",
    "referee/web/migrations/versions/0001_initial.py",
    "referee/web/migrations/versions/0019_settings.py",
)


# -- /healthz and /readyz ------------------------------------------------------------------------


def test_healthz_answers_while_the_process_runs_even_without_a_database(tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/none/x.db", **TEST_CONFIG})
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ok"}
    assert "Set-Cookie" not in answer.headers


def test_readyz_is_ready_only_with_the_database_at_the_newest_migration(tmp_path):
    url = f"sqlite:///{tmp_path}/ready.db"
    empty = create_app({"SQLALCHEMY_DATABASE_URI": url, **TEST_CONFIG})
    answer = empty.test_client().get("/readyz")
    assert answer.status_code == 503
    assert answer.get_json()["status"] == "database not migrated"

    app = migrated_app(url)
    answer = app.test_client().get("/readyz")
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ready", "migration": sorted(schema.head_revisions())}
    with app.app_context():
        db.engine.dispose()


def test_readyz_says_503_when_the_database_does_not_answer(tmp_path):
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/no/such/folder.db", **TEST_CONFIG}
    )
    answer = app.test_client().get("/readyz")
    assert answer.status_code == 503
    assert answer.get_json()["status"] == "database unreachable"


# -- the API's document and its page -----------------------------------------------------------


def test_the_api_document_is_valid_openapi_3_1_with_an_operation_id_for_each_operation(
    app: Flask,
):
    from openapi_spec_validator import validate

    document = app.test_client().get("/api/v1/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    validate(document)
    operations = [
        operation
        for methods in document["paths"].values()
        for method, operation in methods.items()
        if method in ("get", "put", "post", "delete", "patch")
    ]
    ids = [operation.get("operationId") for operation in operations]
    assert len(operations) > 40 and None not in ids
    assert len(set(ids)) == len(ids)
    assert "tools_meld" in ids and "matches_add_round_bearer" in ids


def test_the_api_page_loads_swagger_ui_5_from_this_server(app: Flask):
    client = app.test_client()
    page = client.get("/api/v1/docs").text
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(source.startswith("/") for source in sources), sources
    with client.get("/api/v1/docs/swagger-ui-bundle.js") as bundle:
        assert bundle.status_code == 200
        assert b"SwaggerUIBundle" in bundle.data
    # Swagger UI 5 is the first to read OpenAPI 3.1 documents.
    assert importlib.metadata.version("flask-swagger-ui").split(".")[0] == "5"


@pytest.mark.browser
def test_the_api_page_shows_every_operation_in_a_browser(page, base_url):
    document = requests.get(base_url + "/api/v1/openapi.json", timeout=30).json()
    operations = sum(
        method in ("get", "put", "post", "delete")
        for methods in document["paths"].values()
        for method in methods
    )
    page.goto("/api/v1/docs")
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock").count() == operations
    assert page.locator("text=Unable to render this definition").count() == 0
    assert page.locator(".opblock-summary-path").filter(has_text="/api/v1/tools/meld").count() == 1


# -- the package as pip installs it -------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel, built from this checkout without the network."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def test_the_wheel_and_the_sdist_carry_everything_the_app_serves(built):
    with zipfile.ZipFile(built["wheel"]) as wheel:
        in_wheel = set(wheel.namelist())
    assert set(SERVED_FILES) <= in_wheel, set(SERVED_FILES) - in_wheel
    assert f"remi_referee-{VERSION}.dist-info/licenses/LICENSE" in in_wheel
    assert any(name.startswith("referee/web/static/css/") for name in in_wheel)
    with tarfile.open(built["sdist"]) as sdist:
        top = f"remi_referee-{VERSION}/"
        in_sdist = {name.removeprefix(top) for name in sdist.getnames()}
    assert set(SERVED_FILES) | {"LICENSE", "CHANGELOG.md", "pyproject.toml"} <= in_sdist


def fresh_install(wheel: Path, where: Path) -> Path:
    """A new virtual environment with the wheel installed, its dependencies taken from the
    packages this test runs with (added to its path, no network): its ``bin`` folder."""
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # A plain line of a .pth file: that folder is searched after the venv's own packages.
    (Path(purelib) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def test_the_installed_wheel_serves_a_table_and_a_match_from_an_empty_folder(built, tmp_path):
    bin_folder = fresh_install(built["wheel"], tmp_path)
    version = subprocess.run(
        [str(bin_folder / "referee"), "--version"], check=True, capture_output=True, text=True
    )
    assert version.stdout.strip() == f"referee {VERSION}"
    imported = subprocess.run(
        [str(bin_folder / "python"), "-c", "import referee; print(referee.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout
    assert Path(imported).is_relative_to(tmp_path / "venv"), imported

    empty = tmp_path / "empty"
    empty.mkdir()
    environ = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DATABASE_URL", "INSTANCE_DIR", "SECRET_KEY", "BACKUP_DIR", "PYTHONPATH")
    }
    server = serve(
        [str(bin_folder / "referee"), "serve"], empty, environ, tmp_path / "installed.log"
    )
    try:
        assert requests.get(server.url + "/", timeout=30).status_code == 200
        path, _ = new_api_match(
            lambda path, body: requests.post(server.url + path, json=body, timeout=30).json()
        )
        scoreboard = requests.get(server.url + path.removeprefix("/api/v1") + "/", timeout=30)
        assert scoreboard.status_code == 200
        assert "Budi" in scoreboard.text and "Siti" in scoreboard.text
        assert requests.get(server.url + "/readyz", timeout=30).json()["status"] == "ready"
    finally:
        server.stop()
    assert (empty / "referee-data" / "remi.db").is_file()
    assert "Traceback" not in server.log.read_text()


def serve(command: list[str], folder: Path, environ: dict[str, str], log: Path) -> Server:
    """``command`` (a ``referee serve``) on a free port of 127.0.0.1, once it answers."""
    port = free_port()
    command = [*command, "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    return serve_command(command, folder, {**environ, "RATELIMIT_ENABLED": "false"}, log, port)


# -- a host without fcntl (Windows) -------------------------------------------------------------

NO_FCNTL = """\
import sys


class NoFcntl:
    \"\"\"``import fcntl`` fails, as it does on Windows.\"\"\"

    def find_spec(self, name, path=None, target=None):
        if name == "fcntl":
            raise ImportError("No module named 'fcntl'")
        return None


sys.meta_path.insert(0, NoFcntl())
sys.modules.pop("fcntl", None)
"""


def test_without_fcntl_referee_serve_serves_with_waitress(tmp_path):
    blocker = tmp_path / "no-fcntl"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(NO_FCNTL)
    checked = subprocess.run(
        [sys.executable, "-c", "import fcntl"],
        env={**os.environ, "PYTHONPATH": str(blocker)},
        capture_output=True,
        text=True,
    )
    assert "No module named 'fcntl'" in checked.stderr
    database = f"sqlite:///{tmp_path}/windows.db"
    server = start_server(
        database,
        tmp_path,
        workers=1,
        threads=4,
        environment={"PYTHONPATH": str(blocker), "INSTANCE_DIR": str(tmp_path / "data")},
    )
    try:
        phone = Phone(server.url)
        created = phone.post("/tables", {**phone.form("/tables"), "name": "Meja"})
        assert created.status_code in (302, 303), created.text
        path, _ = new_api_match(
            lambda path, body: requests.post(server.url + path, json=body, timeout=30).json()
        )
        assert requests.get(server.url + path.removeprefix("/api/v1") + "/").status_code == 200
    finally:
        server.stop()
    log = server.log.read_text()
    assert "gunicorn" not in log.lower() and "Traceback" not in log, log


# -- several servers on one PostgreSQL ---------------------------------------------------------


@pytest.fixture
def empty_postgresql() -> Iterator[str]:
    """A new, empty database (never migrated) on the test PostgreSQL."""
    base = os.environ.get("TEST_PG_URL")
    if not base:
        pytest.skip("TEST_PG_URL is not set")
    name = "servers_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f"CREATE DATABASE {name}")
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        _drop_database(admin, name)
        admin.dispose()


def test_three_servers_started_together_on_an_empty_postgresql_share_its_forms(
    empty_postgresql, tmp_path
):
    def start(number: int) -> Server:
        # Each as on its own machine: its own data folder, no SECRET_KEY given.
        return start_server(
            empty_postgresql,
            tmp_path,
            workers=1,
            threads=2,
            environment={
                "SECRET_KEY": "",
                "INSTANCE_DIR": str(tmp_path / f"machine-{number}"),
                "BACKUPS": "off",
            },
        )

    with ThreadPoolExecutor(3) as pool:
        servers = list(pool.map(start, range(3)))
    try:
        logs = [server.log.read_text() for server in servers]
        migrated = [log for log in logs if "Running upgrade" in log]
        assert len(migrated) == 1, logs
        for server in servers:
            assert requests.get(server.url + "/readyz", timeout=30).json()["status"] == "ready"

        first, second, third = servers
        phone = Phone(first.url)
        form = phone.form("/tables")  # loaded from the first server...
        token = phone.csrf()
        # ...posted to the second, with the same cookies (one address in front of them all).
        on_second = Phone(second.url, session=phone.session, token=token)
        created = on_second.post("/tables", {**form, "name": "Meja"})
        assert created.status_code in (302, 303), created.text
        table = created.headers["Location"].removeprefix(second.url)
        on_third = Phone(third.url, session=phone.session, token=token)
        added = on_third.post(
            table + "players", {**phone.form(table + "players"), "names": "Budi, Siti"}
        )
        assert added.status_code in (302, 303), added.text
        listed = Phone(second.url, session=phone.session).get(table)
        assert "Budi" in listed.text and "Siti" in listed.text
    finally:
        for server in servers:
            server.stop()
    engine = sa.create_engine(empty_postgresql)
    try:
        with engine.connect() as connection:
            kept = connection.execute(sa.text("SELECT count(*) FROM stored_settings")).scalar()
        assert kept == 1
    finally:
        engine.dispose()
    for server in servers:
        assert "Traceback" not in server.log.read_text()


def test_a_database_keeps_the_secret_this_machine_signed_with_before(tmp_path, monkeypatch):
    """A server that kept its secret in its data folder before keeps signing with it, so the
    phones' open forms and sessions go on after the upgrade."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("INSTANCE_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "secret_key").write_text("kept-on-this-machine")
    url = f"sqlite:///{tmp_path}/kept.db"
    migrate(url)
    monkeypatch.setenv("DATABASE_URL", url)
    app = create_app()
    assert app.config["SECRET_KEY"] == "kept-on-this-machine"
    monkeypatch.setenv("INSTANCE_DIR", str(tmp_path / "another-machine"))
    assert create_app().config["SECRET_KEY"] == "kept-on-this-machine"


# -- the image ----------------------------------------------------------------------------------


def final_stage() -> list[str]:
    """The instructions of the Containerfile's last stage, one per line (continuations joined)."""
    text = (ROOT / "Containerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    last = max(i for i, line in enumerate(instructions) if line.startswith("FROM "))
    return instructions[last:]


def instruction(name: str) -> list[str]:
    return [line.split(None, 1)[1] for line in final_stage() if line.split(None, 1)[0] == name]


def test_the_images_command_serves_from_an_empty_data_folder_and_its_health_check_passes(
    tmp_path,
):
    """What the image runs (its CMD, with its ENV), run here: the sandbox builds images
    but runs no container.  Only the port is the test's (and the loopback address)."""
    image_env: dict[str, str] = {}
    for line in instruction("ENV"):
        image_env.update(pair.split("=", 1) for pair in shlex.split(line))
    assert image_env["INSTANCE_DIR"] == "/data" and image_env["PORT"] == "8000"
    (command,) = [json.loads(line) for line in instruction("CMD")]
    assert command == ["referee", "serve"]
    (health,) = instruction("HEALTHCHECK")
    health_command = json.loads(health.split(" CMD ", 1)[1])

    data = tmp_path / "data"  # the image's /data volume, empty
    data.mkdir()
    port = free_port()
    environ = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DATABASE_URL", "SECRET_KEY", "BACKUP_DIR", "PUBLIC_URL")
    }
    environ.update(
        {name: value for name, value in image_env.items() if name != "PATH"},
        INSTANCE_DIR=str(data),
        HOST="127.0.0.1",
        PORT=str(port),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        RATELIMIT_ENABLED="false",
    )
    server = serve_command(command, data, environ, tmp_path / "image.log", port)
    try:
        checked = subprocess.run(
            [sys.executable if health_command[0] == "python3" else health_command[0]]
            + health_command[1:],
            env=environ,
            capture_output=True,
            timeout=30,
        )
        assert checked.returncode == 0, checked.stderr
        assert requests.get(server.url + "/readyz", timeout=30).json()["status"] == "ready"
        assert requests.get(server.url + "/", timeout=30).status_code == 200
    finally:
        server.stop()
    assert (data / "remi.db").is_file()
    assert "Traceback" not in server.log.read_text()


def serve_command(
    command: list[str], folder: Path, environ: dict[str, str], log: Path, port: int
) -> Server:
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            cwd=folder,
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(f"http://127.0.0.1:{port}", "", process, log)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError("the server stopped:\n" + log.read_text())
        try:
            requests.get(server.url + "/healthz", timeout=5)
            return server
        except requests.RequestException:
            time.sleep(0.2)
    server.stop()
    raise AssertionError("the server did not start:\n" + log.read_text())


def test_the_compose_file_runs_the_app_beside_postgresql_with_health_checks_and_volumes():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    app, database = compose["services"]["app"], compose["services"]["db"]
    assert app["build"]["dockerfile"] == "Containerfile"
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert "/readyz" in " ".join(app["healthcheck"]["test"])
    assert "pg_isready" in " ".join(database["healthcheck"]["test"])
    volumes = set(compose["volumes"])
    assert {volume.split(":")[0] for volume in app["volumes"] + database["volumes"]} == volumes
    example = (ROOT / ".env.example").read_text()
    assert "POSTGRES_PASSWORD=" in example


def test_serve_says_in_a_sentence_when_the_database_cannot_be_reached(
    tmp_path, monkeypatch, capsys
):
    from referee.web import serve as server

    monkeypatch.setenv("DATABASE_URL", f"postgresql://nobody@127.0.0.1:{free_port()}/none")
    monkeypatch.setenv("INSTANCE_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    assert server.main(host="127.0.0.1", port="0") == 2
    said = capsys.readouterr().err
    assert "referee serve: the database cannot be reached" in said
    assert "check DATABASE_URL" in said and "Traceback" not in said


# -- the file locks, with and without fcntl ------------------------------------------------------

HOLD_AND_WAIT = """\
import sys, time
from referee.web.store.filelock import locked_file
held = locked_file(sys.argv[1])
print("held", flush=True)
time.sleep(30)
"""

TRY = """\
import sys
from referee.web.store.filelock import locked_file
print("free" if locked_file(sys.argv[1], wait=False) is not None else "taken")
"""


@pytest.mark.parametrize("without_fcntl", [False, True], ids=["fcntl", "no-fcntl"])
def test_a_file_lock_held_by_one_process_keeps_out_another(tmp_path, without_fcntl):
    environ = dict(os.environ)
    if without_fcntl:
        (tmp_path / "sitecustomize.py").write_text(NO_FCNTL)
        environ["PYTHONPATH"] = str(tmp_path)
    path = str(tmp_path / "the.lock")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_AND_WAIT, path], env=environ, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        tried = subprocess.run(
            [sys.executable, "-c", TRY, path], env=environ, capture_output=True, text=True
        )
        assert tried.stdout.strip() == "taken", tried.stderr
    finally:
        holder.kill()
        holder.wait(10)
        holder.stdout.close()
    tried = subprocess.run(
        [sys.executable, "-c", TRY, path], env=environ, capture_output=True, text=True
    )
    assert tried.stdout.strip() == "free", tried.stderr
