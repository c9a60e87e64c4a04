"""The same match imported twice is recognised by what it means: a hand's cards in another
order, ``at_once: false`` or a default option written out is the same match (SQLite and
PostgreSQL)."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from sqlalchemy import func, select

from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match

from .conftest import Client
from .helpers import new_table

BASE = {
    "format": "referee-match/1",
    "rules": "remi",
    "players": ["Budi", "Siti", "Andi"],
    "first_dealer": "Budi",
    "rounds": [
        {"out": "Siti", "hands": {"Budi": ["10H", "QS", "2C"], "Andi": ["KD", "3S"]}},
        {"out": "Budi", "hands": {"Siti": ["4D"], "Andi": ["JC", "9C"]}},
    ],
}
REWRITINGS = {
    "cards in another order": {
        **BASE,
        "rounds": [
            {"out": "Siti", "hands": {"Budi": ["QS", "2C", "10H"], "Andi": ["3S", "KD"]}},
            BASE["rounds"][1],
        ],
    },
    "at_once written out": {
        **BASE,
        "rounds": [{**entry, "at_once": False} for entry in BASE["rounds"]],
    },
    "a default option written out": {**BASE, "options": {"target": 100}},
    "all of them": {
        **BASE,
        "options": {"target": 100},
        "rounds": [
            {
                "at_once": False,
                "hands": {"Andi": ["3S", "KD"], "Budi": ["2C", "QS", "10H"]},
                "out": "Siti",
            },
            {**BASE["rounds"][1], "at_once": False},
        ],
    },
}


@pytest.fixture
def phone(api_app: Flask) -> Client:
    api_app.test_client_class = Client
    return api_app.test_client()  # type: ignore[return-value]


def matches_at(app: Flask, table_url: str) -> int:
    key = table_url.rstrip("/").rsplit("/", 1)[1]
    with app.app_context():
        found = db.session.scalar(
            select(func.count())
            .select_from(Match)
            .join(CardTable, CardTable.id == Match.table_id)
            .where(CardTable.edit_key == key, Match.deleted_at.is_(None))
        )
        db.session.remove()
    return int(found or 0)


@pytest.mark.parametrize("variant", sorted(REWRITINGS))
def test_a_match_imported_again_written_another_way_is_recognised(phone, api_app, variant):
    phone.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(phone)
    first = phone.submit(table + "import", {"document": json.dumps(BASE)})
    assert first.status_code == 302
    again = phone.submit(table + "import", {"document": json.dumps(REWRITINGS[variant])})
    assert again.status_code == 400
    assert "This match is already at this table" in again.get_data(as_text=True)
    assert matches_at(api_app, table) == 1


def test_a_match_imported_first_written_another_way_is_recognised(phone, api_app):
    phone.submit("/language", {"lang": "en", "next": "/"})
    table = new_table(phone)
    first = phone.submit(table + "import", {"document": json.dumps(REWRITINGS["all of them"])})
    assert first.status_code == 302
    again = phone.submit(table + "import", {"document": json.dumps(BASE)})
    assert again.status_code == 400
    assert matches_at(api_app, table) == 1


def test_another_card_is_another_match(phone, api_app):
    table = new_table(phone)
    assert phone.submit(table + "import", {"document": json.dumps(BASE)}).status_code == 302
    other = json.loads(json.dumps(BASE))
    other["rounds"][0]["hands"]["Budi"] = ["10H", "QS", "3C"]
    assert phone.submit(table + "import", {"document": json.dumps(other)}).status_code == 302
    assert matches_at(api_app, table) == 2
