"""Backups of a database that four phones are writing to, for real: ``referee serve`` with
three worker processes, rounds saved through the API at the same moment as the copies.

Every round the server acknowledged before a copy began is in that copy, and every one
is in the copy made after the last save; each copy passes SQLite's integrity check and
is one moment of the database (every summary agrees with its log).  The saves are
never refused or held up by a copy (no 409, no 500).  Of the three workers, one made
the backup at start.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import requests
import sqlalchemy as sa

from referee import cli
from referee.web.store import backups, servers, summary

from .conftest import DATABASE_KINDS
from .realserver import free_ports, fresh_database, launch_server, serving, start_server

PHONES = 4
ROUNDS_EACH = 12


def new_match(base: str, number: int) -> tuple[str, str]:
    players = ["Budi", "Siti"]
    keys = requests.post(
        f"{base}/api/v1/tables", json={"name": f"Meja {number}", "players": players}, timeout=30
    ).json()
    made = requests.post(
        f"{base}/api/v1/t/{keys['edit_key']}/matches",
        json={
            "rules": "remi",
            "players": players,
            "first_dealer": "Budi",
            "options": {"target": 10000},
        },
        timeout=30,
    )
    assert made.status_code == 201, made.text
    return f"{base}/api/v1/t/{keys['edit_key']}/m/{made.json()['id']}", made.json()["etag"]


def rounds_in(path: Path) -> set[tuple[int, int]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        found = set(connection.execute("SELECT match_id, number FROM rounds"))
    connection.close()
    return found


def test_backups_while_four_phones_save_rounds_lose_nothing_and_hold_nobody_up(tmp_path):
    with fresh_database("sqlite", tmp_path) as database:
        server = start_server(database, tmp_path, workers=3)
        try:
            folder = tmp_path / "backups"
            deadline = time.monotonic() + 30
            while not backups.copies_in(folder) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert len(backups.copies_in(folder)) == 1  # made at start, by one of the workers
            matches = [new_match(server.url, n) for n in range(PHONES)]
            acknowledged: list[tuple[float, tuple[int, int]]] = []
            answers: list[int] = []
            going = threading.Barrier(PHONES + 1)

            def phone(path: str, etag: str) -> None:
                match_id = int(path.rsplit("/", 1)[1])
                going.wait()
                for number in range(1, ROUNDS_EACH + 1):
                    out, other = ("Siti", "Budi") if number % 2 else ("Budi", "Siti")
                    answer = requests.post(
                        path + "/rounds",
                        json={"out": out, "hands": {other: ["10H", "QS"]}},
                        headers={"If-Match": f'"{etag}"'},
                        timeout=60,
                    )
                    answers.append(answer.status_code)
                    if answer.status_code != 201:
                        return
                    acknowledged.append((time.monotonic(), (match_id, number)))
                    etag = answer.json()["etag"]

            threads = [threading.Thread(target=phone, args=match) for match in matches]
            for thread in threads:
                thread.start()
            place = backups.Place(
                sa.make_url(database), folder, Path(sa.make_url(database).database + "-backups")
            )
            going.wait()
            copies = []
            for number in range(3):  # `referee backup` while the phones save
                began = time.monotonic()
                copies.append(
                    (began, backups.back_up(place, target=tmp_path / f"during-{number}.db"))
                )
                time.sleep(0.05)
            for thread in threads:
                thread.join(120)
            copies.append((time.monotonic(), backups.back_up(place, target=tmp_path / "after.db")))
        finally:
            server.stop()
        assert answers == [201] * (PHONES * ROUNDS_EACH)
        saved = {which for _when, which in acknowledged}
        assert any(when > copies[0][0] for when, _which in acknowledged)  # they did overlap
        for began, path in copies:
            with sqlite3.connect(path) as connection:
                assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            connection.close()
            held = rounds_in(path)
            assert {which for when, which in acknowledged if when < began} <= held
            assert held <= saved
            engine = sa.create_engine(f"sqlite:///{path}")
            with engine.connect() as connection:
                assert summary.check(connection) == []  # one moment: every summary is its log's
            engine.dispose()
        assert rounds_in(copies[-1][1]) == saved
        log = server.log.read_text()
        assert "Traceback" not in log, log
        assert log.count("Backup made: ") == 1, log  # the copy at start, by one worker


@pytest.mark.parametrize("kind", DATABASE_KINDS)
def test_a_restore_while_three_phones_save_is_refused_and_loses_no_round(
    kind, tmp_path, monkeypatch, capsys
):
    """The server runs with its backups off (no lock to hold): it announces itself in the
    database, and the restore names it and changes nothing."""
    with fresh_database(kind, tmp_path) as database:
        server = start_server(database, tmp_path, environment={"BACKUPS": "off"})
        try:
            monkeypatch.setenv("DATABASE_URL", database)
            monkeypatch.setenv("BACKUP_DIR", str(tmp_path / "kept"))
            place = backups.Place(sa.make_url(database), tmp_path / "kept", tmp_path / "state")
            suffix = backups.SUFFIXES[backups.kind_of(place.url)]
            before = backups.back_up(place, target=tmp_path / f"before{suffix}")
            matches = [new_match(server.url, n) for n in range(3)]
            acknowledged: list[tuple[int, int]] = []
            going, done = threading.Barrier(4), threading.Event()

            def phone(path: str, etag: str) -> None:
                match_id = int(path.rsplit("/", 1)[1])
                going.wait()
                number = 0
                while number < 60 and (number < 4 or not done.is_set()):
                    number += 1
                    out, other = ("Siti", "Budi") if number % 2 else ("Budi", "Siti")
                    answer = requests.post(
                        path + "/rounds",
                        json={"out": out, "hands": {other: ["10H", "QS"]}},
                        headers={"If-Match": f'"{etag}"'},
                        timeout=60,
                    )
                    assert answer.status_code == 201, answer.text
                    acknowledged.append((match_id, number))
                    etag = answer.json()["etag"]

            threads = [threading.Thread(target=phone, args=match) for match in matches]
            for thread in threads:
                thread.start()
            going.wait()
            capsys.readouterr()
            at_start = len(acknowledged)
            refused = cli.main(["restore", str(before), "--yes"])
            said = capsys.readouterr().err
            during = len(acknowledged)
            done.set()
            for thread in threads:
                thread.join(120)
        finally:
            server.stop()
        assert refused == 2
        assert (
            f"The server on host {servers.this_host()}, pid {server.process.pid}, seen" in said
        ), said
        assert "is serving this database: stop it first." in said
        assert at_start < during  # rounds were acknowledged while the restore ran
        engine = sa.create_engine(database)
        with engine.connect() as connection:
            saved = set(connection.execute(sa.text("SELECT match_id, number FROM rounds")).all())
            assert servers.serving(connection) == []  # the server said it stopped
        engine.dispose()
        assert set(acknowledged) <= saved
        assert "Traceback" not in server.log.read_text()


def test_three_servers_on_one_postgresql_make_one_backup_between_them(tmp_path):
    if not os.environ.get("TEST_PG_URL"):
        pytest.skip("TEST_PG_URL not set")
    with fresh_database("postgresql", tmp_path) as database:
        shared = tmp_path / "shared-backups"
        started = []
        machines = ("kitchen", "garage", "attic")  # an instance folder each
        try:
            # Started together (their schedules race from the first minute), then each waited for.
            for machine, port in zip(machines, free_ports(len(machines)), strict=True):
                started.append(
                    launch_server(
                        database,
                        tmp_path,
                        workers=2,
                        environment={
                            "BACKUP_DIR": str(shared),
                            "INSTANCE_DIR": str(tmp_path / machine),
                        },
                        port=port,
                    )
                )
            for server in started:
                serving(server)
            deadline = time.monotonic() + 60
            while not backups.copies_in(shared) and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(3)  # time for another schedule to make one too, if it would
            made = backups.copies_in(shared)
        finally:
            for server in started:
                server.stop()
        assert len(made) == 1, made
        logs = "".join(server.log.read_text() for server in started)
        assert logs.count("Backup made: ") == 1, logs
        assert "Backup failed" not in logs and "Traceback" not in logs
        assert [p.name for p in shared.iterdir() if p.name.startswith(".")] == []
