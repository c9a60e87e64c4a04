"""An address stopped for guessing keys gets no answer from the change check either, even
for a right key and version (the check's fast path once answered it 304); the phones whose
browser opened the table go on being answered."""

from __future__ import annotations

import shutil

import pytest

from .conftest import Client
from .helpers import new_match, new_table


@pytest.fixture
def limited(template_db, tmp_path):
    from referee.web import create_app

    path = tmp_path / "limited.db"
    shutil.copy(template_db, path)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "TESTING": True,
            "RATELIMIT_UNKNOWN_LINKS": "5 per minute",
            "PAGES_DIR": str(tmp_path),
        }
    )
    app.test_client_class = Client
    return app


@pytest.mark.parametrize("path", ["", "/api/v1"])
def test_a_stopped_guesser_gets_no_304_for_a_right_key_and_version(limited, path):
    phone = limited.test_client()
    table = new_table(phone, players="Budi, Siti")
    match = new_match(phone, table, "remi", ["Budi", "Siti"], target=100)
    check = path + match.removeprefix("http://localhost") + "version"
    first = phone.get(check)
    assert first.status_code == 200
    current = {"If-None-Match": first.headers["ETag"]}
    guesser = limited.test_client()
    assert guesser.get(check, headers=current).status_code == 304  # not stopped yet
    wrong = "/t/" + "A" * 32 + "/"
    assert [guesser.get(wrong).status_code for _ in range(6)] == [404] * 5 + [429]
    assert guesser.get(check, headers=current).status_code == 429
    assert guesser.get(check).status_code == 429
    if not path:  # the phone that opened the table (its session says so) goes on
        assert phone.get(check, headers=current).status_code == 304
