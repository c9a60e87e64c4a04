"""SQLite writers queue in the kernel (a lock on a file beside the database) before their
``BEGIN IMMEDIATE``: a writer waits while another holds the turn, readers never do, and
every kind of end of a write (saved, refused, a conflict) lets the next one in.  The races
of many writers at once are in test_races.py and test_api_races.py, through the server."""

from __future__ import annotations

import fcntl
import os
import stat
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from referee.web.store import writes

API = "/api/v1"
ROUND = {"out": "Siti", "hands": {"Budi": ["QS"]}}


@pytest.fixture
def queue_file(app) -> Path:
    database = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    return Path(database + "-writers")


@contextmanager
def turn_held_elsewhere(path: Path):
    """Hold the writers' turn as another process would (another open file, another lock)."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def turn_is_free(path: Path) -> bool:
    descriptor = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)
    return True


def new_match(client):
    table = client.post(f"{API}/tables", json={"name": "Meja", "players": ["Budi", "Siti"]})
    assert table.status_code == 201
    key = table.get_json()["edit_key"]
    made = client.post(
        f"{API}/t/{key}/matches",
        json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    )
    assert made.status_code == 201
    return f"{API}/t/{key}/m/{made.get_json()['id']}", made.get_json()["etag"], table.get_json()


def test_a_writer_waits_for_its_turn_and_readers_do_not(app, queue_file):
    url, etag, table = new_match(app.test_client())
    answers = []

    def save() -> None:
        answers.append(
            app.test_client().post(f"{url}/rounds", json=ROUND, headers={"If-Match": f'"{etag}"'})
        )

    with turn_held_elsewhere(queue_file):
        writer = threading.Thread(target=save)
        writer.start()
        writer.join(0.5)
        assert writer.is_alive() and not answers  # waiting in the queue
        reader = app.test_client()
        board = reader.get(f"{API}/v/{table['view_key']}/m/1")
        assert board.status_code == 200 and board.get_json()["rounds"] == []
        page = reader.get(f"/v/{table['view_key']}/m/1/")
        assert page.status_code == 200
    writer.join(10)
    assert not writer.is_alive()
    assert answers[0].status_code == 201 and answers[0].get_json()["totals"]["Siti"] == 10


def test_every_end_of_a_write_lets_the_next_writer_in(app, queue_file):
    client = app.test_client()
    url, etag, _table = new_match(client)
    assert turn_is_free(queue_file)
    saved = client.post(f"{url}/rounds", json=ROUND, headers={"If-Match": f'"{etag}"'})
    assert saved.status_code == 201 and turn_is_free(queue_file)
    stale = client.post(f"{url}/rounds", json=ROUND, headers={"If-Match": f'"{etag}"'})
    assert stale.status_code == 409 and turn_is_free(queue_file)
    current = {"If-Match": f'"{saved.get_json()["etag"]}"'}
    refused = client.post(f"{url}/rounds", json={"out": "Siti"}, headers=current)
    assert refused.status_code == 422 and turn_is_free(queue_file)  # Budi's hand is missing
    malformed = client.post(
        f"{url}/rounds", data="{", headers={**current, "Content-Type": "application/json"}
    )
    assert malformed.status_code == 400 and turn_is_free(queue_file)
    page = app.test_client().post("/tables", data={"name": ""})  # a form refused
    assert page.status_code == 400 and turn_is_free(queue_file)


def test_the_queue_file_is_private(app, queue_file):
    previous = os.umask(0)
    try:
        new_match(app.test_client())
    finally:
        os.umask(previous)
    assert stat.S_IMODE(queue_file.stat().st_mode) == 0o600


def test_writers_of_many_threads_take_turns(app, queue_file, monkeypatch):
    """Eight writers at once on eight matches, each saving three rounds: all saved, with no
    busy timeout at all (a writer that met the file locked would fail at once): the queue
    alone kept them apart."""
    monkeypatch.setattr(writes, "SQLITE_BUSY_TIMEOUT_MS", 0)
    client = app.test_client()
    matches = [new_match(client)[:2] for _ in range(8)]
    failures = []

    def play(url: str, etag: str) -> None:
        phone = app.test_client()
        for _ in range(3):
            answer = phone.post(f"{url}/rounds", json=ROUND, headers={"If-Match": f'"{etag}"'})
            if answer.status_code != 201:
                failures.append(answer.get_json())
                return
            etag = answer.get_json()["etag"]

    started = time.monotonic()
    threads = [threading.Thread(target=play, args=match) for match in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    assert time.monotonic() - started < 30
    for url, _etag in matches:
        assert client.get(url).get_json()["totals"]["Siti"] == 30
    assert turn_is_free(queue_file)
