"""The round form's plain save (:mod:`referee.web.views.plainsave`), SQLite and PostgreSQL.

The next round saved from the quick round form is written the API's plain way (rows, the
kept replay, one transaction); ``test_one_save.py`` holds what it stores equal to the ORM
path's.  Here: it is that way that saved it, its one-time receipt is kept in the same
transaction (a form sent again later finds it), a token whose receipt exists is never
saved a second time, even when the form names the match's current version, and the
receipts past their lifetime are swept by these saves at most once a minute.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from referee.web.play import appending, changes
from referee.web.store import writes
from referee.web.store.extensions import db
from referee.web.store.models import WriteReceipt, now

from .conftest import Client
from .helpers import errors, new_match, new_table, round_data, text, to_english

THREE = ["Budi", "Siti", "Andi"]
# Siti goes out; Budi holds the king of hearts (10), Andi two low cards (2 + 3).
ROUND = round_data(THREE, {"Budi": "KH", "Andi": "2C 3D"}, ending="out", player="Siti")


@pytest.fixture
def phone(api_app: Flask) -> Client:
    client = Client(api_app, api_app.response_class, use_cookies=True)
    to_english(client)
    return client


@pytest.fixture
def ways(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How many rounds each way saved: the plain one (rows) and the ORM's."""
    counted = {"plain": 0, "orm": 0}
    append, save_round = appending.append, changes.save_round

    def counted_append(*args: Any, **kwargs: Any) -> bool:
        written = append(*args, **kwargs)
        counted["plain"] += bool(written)
        return written

    def counted_save_round(*args: Any, **kwargs: Any) -> Any:
        counted["orm"] += 1
        return save_round(*args, **kwargs)

    monkeypatch.setattr(appending, "append", counted_append)
    monkeypatch.setattr(changes, "save_round", counted_save_round)
    yield counted


def rounds_of(phone: Client, match: str) -> list[dict[str, Any]]:
    return list(json.loads(phone.get(match + "export").data)["rounds"])


def test_the_next_round_from_the_form_is_saved_plainly_with_its_receipt(
    phone: Client, ways: dict[str, int]
) -> None:
    match = new_match(phone, new_table(phone), "remi", THREE, target=200)
    opened = phone.hidden_fields(match + "rounds/new")  # the form as the phone holds it
    saved = phone.submit(match + "rounds/new", {**opened, **ROUND}, fresh=False)
    assert saved.status_code == 302, errors(saved)
    assert saved.headers["Location"] == match
    assert ways == {"plain": 1, "orm": 0}
    page = text(phone.get(match))
    assert "Round 1 saved." in page
    # As remi's round form writes it (no "all at once" ticked: said as false).
    assert rounds_of(phone, match) == [
        {"out": "Siti", "at_once": False, "hands": {"Budi": ["KH"], "Andi": ["2C", "3D"]}}
    ]
    # The round deleted, then the same form sent again (Back, then Save): its receipt,
    # written with the round, says it was saved; nothing is saved again.
    deleted = phone.submit(
        match + "rounds/undo", {"round_number": "1", **_last_round(phone, match)}
    )
    assert deleted.status_code == 302, errors(deleted)
    again = phone.submit(match + "rounds/new", {**opened, **ROUND}, fresh=False)
    assert again.status_code == 302 and again.headers["Location"] == match
    assert "This round was saved already." in text(phone.get(match))
    assert rounds_of(phone, match) == []
    assert ways == {"plain": 1, "orm": 0}


def test_a_form_without_this_browser_s_token_saves_nothing(
    phone: Client, ways: dict[str, int]
) -> None:
    """The plain way builds the form without a CSRF field of its own: the request's token is
    checked before the view, and a page posted from elsewhere saves no round either way."""
    match = new_match(phone, new_table(phone), "remi", THREE, target=200)
    opened = phone.hidden_fields(match + "rounds/new")
    for token in ("forged", ""):
        answer = phone.post(match + "rounds/new", data={**opened, **ROUND, "csrf_token": token})
        assert answer.status_code == 400
    assert ways == {"plain": 0, "orm": 0}
    assert rounds_of(phone, match) == []
    saved = phone.submit(match + "rounds/new", {**opened, **ROUND}, fresh=False)
    assert saved.status_code == 302 and ways == {"plain": 1, "orm": 0}


def _last_round(phone: Client, match: str) -> dict[str, str]:
    """The undo button's fields for the match's last round (its id and version)."""
    hidden = phone.hidden_fields(match + "rounds/undo")
    return {name: hidden[name] for name in ("round_id", "round_version") if name in hidden}


def test_a_token_with_a_receipt_saves_nothing_even_at_the_current_version(
    phone: Client, api_app: Flask, ways: dict[str, int]
) -> None:
    match = new_match(phone, new_table(phone), "remi", THREE, target=200)
    opened = phone.hidden_fields(match + "rounds/new")
    with api_app.app_context():  # the token's write was carried out (elsewhere, say)
        db.session.add(WriteReceipt(token=opened["once"], location=match + "history"))
        db.session.commit()
        db.session.remove()
    answer = phone.submit(match + "rounds/new", {**opened, **ROUND}, fresh=False)
    assert answer.status_code == 302 and answer.headers["Location"] == match + "history"
    assert ways == {"plain": 0, "orm": 0}
    assert rounds_of(phone, match) == []


def _receipts(api_app: Flask) -> set[str]:
    with api_app.app_context():
        found = set(db.session.scalars(db.select(WriteReceipt.token)))
        db.session.remove()
        return found


def _old_receipt(api_app: Flask, token: str) -> None:
    """A receipt made three days ago (its lifetime is two)."""
    with api_app.app_context():
        made = now() - timedelta(days=3)
        db.session.add(WriteReceipt(token=token, location="/", created_at=made))
        db.session.commit()
        db.session.remove()


def test_expired_receipts_are_swept_at_most_once_a_minute(
    phone: Client, api_app: Flask, ways: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(phone, new_table(phone), "remi", THREE, target=200)
    monkeypatch.setattr(writes, "_receipts_swept", [float("-inf")])  # never swept yet
    _old_receipt(api_app, "older-than-two-days-1")
    first = phone.submit(match + "rounds/new", ROUND)
    assert first.status_code == 302, errors(first)
    kept = _receipts(api_app)
    assert "older-than-two-days-1" not in kept and len(kept) >= 1  # the new one is there
    _old_receipt(api_app, "older-than-two-days-2")
    # Round 2: Budi goes out; Siti holds 5 and 6 of spades, Andi the ace of clubs.
    second = round_data(THREE, {"Siti": "5S 6S", "Andi": "AC"}, ending="out", player="Budi")
    assert phone.submit(match + "rounds/new", second).status_code == 302
    assert "older-than-two-days-2" in _receipts(api_app)  # within the minute: left for later
    assert ways == {"plain": 2, "orm": 0}


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many round forms a request builds and how many rounds the engine plays."""
    from referee.match import MatchState
    from referee.web.views import plainsave, roundform

    counted = {"forms": 0, "plays": 0}

    class Counted:
        def __init__(self, entering: Any) -> None:
            self.entering = entering

        def __getattr__(self, name: str) -> Any:
            return getattr(self.entering, name)

        def form_class(self, *args: Any) -> Any:
            made = self.entering.form_class(*args)

            def form(*given: Any, **named: Any) -> Any:
                counted["forms"] += 1
                return made(*given, **named)

            return form

    def counted_entry_form(*args: Any) -> Counted:
        return Counted(rounds_entry_form(*args))

    rounds_entry_form, play = roundform.entry_form, MatchState.play

    def counted_play(self: MatchState, *args: Any) -> MatchState:
        counted["plays"] += 1
        return play(self, *args)

    monkeypatch.setattr(roundform, "entry_form", counted_entry_form)
    monkeypatch.setattr(plainsave, "entry_form", counted_entry_form)
    monkeypatch.setattr(MatchState, "play", counted_play)
    return counted


def test_a_round_the_engine_refuses_is_built_and_played_once(
    phone: Client, ways: dict[str, int], built: dict[str, int]
) -> None:
    """The door chooses the plain way; the engine's refusal met there is its answer, and the
    page shows it with the form as it was built: not built nor played a second time."""
    match = new_match(phone, new_table(phone), "remi", THREE, target=200)
    opened = phone.hidden_fields(match + "rounds/new")
    saved = phone.submit(match + "rounds/new", {**opened, **ROUND}, fresh=False)
    assert saved.status_code == 302, errors(saved)
    opened = phone.hidden_fields(match + "rounds/new")
    # Three kings of hearts: remi is played with two decks.
    refused = round_data(THREE, {"Budi": "KH KH", "Andi": "KH"}, ending="out", player="Siti")
    built.update(forms=0, plays=0)
    answer = phone.submit(match + "rounds/new", {**opened, **refused}, fresh=False)
    assert answer.status_code == 400
    assert "KH" in " ".join(errors(answer)), errors(answer)
    assert built == {"forms": 1, "plays": 1}
    assert ways == {"plain": 1, "orm": 0}
    assert len(rounds_of(phone, match)) == 1
