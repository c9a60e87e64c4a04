"""The numeric match options' limits: one check (play/limits.py), the same refusals wherever a
match is made: the setup form, a match file imported at a table, a table file imported."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from flask_babel import force_locale

from referee.web.play.limits import option_refusal
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match

from .helpers import errors, new_table, to_english

TWO = ["Budi", "Siti"]


def match_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Match))


def table_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(CardTable))


def document(rules: str, options: dict) -> dict:
    return {
        "format": "referee-match/1",
        "rules": rules,
        "options": options,
        "players": TWO,
        "first_dealer": "Budi",
        "rounds": [],
    }


def set_up(client, table: str, rules: str, options: dict):
    data = {f"seat_{i}": name for i, name in enumerate(TWO)} | {"first_dealer": "Budi"}
    if "target" in options:  # typed as "Other"
        data |= {"target": "custom", "custom_target": str(options["target"])}
    if "hands" in options:
        data |= {"end": "hands", "hands": str(options["hands"])}
    return client.submit(f"{table}new/{rules}", data)


def import_match(client, table: str, rules: str, options: dict):
    return client.submit(table + "import", {"document": json.dumps(document(rules, options))})


def import_table(client, rules: str, options: dict):
    table_file = {
        "format": "referee-table/1",
        "name": "Meja Lain",
        "players": [],
        "matches": [document(rules, options)],
    }
    return client.submit("/tables/import", {"document": json.dumps(table_file)})


# remi's target goes from 50 to 10000 and rummy's number of rounds from 1 to 100
# (their declared options); the app's own limits are 1-100000 for a target and 1-100 rounds.
REFUSED = [
    ("remi", {"target": 0}),
    ("remi", {"target": -100}),
    ("remi", {"target": 49}),  # below remi's lowest target, within the app's limits
    ("remi", {"target": 10001}),
    ("remi", {"target": 100001}),
    ("remi", {"target": 10**12}),
    ("rummy", {"hands": 0}),
    ("rummy", {"hands": 101}),
]


@pytest.mark.parametrize(("rules", "options"), REFUSED)
def test_every_way_of_making_a_match_refuses_the_same_options(client, app, rules, options):
    to_english(client)
    table = new_table(client, players="Budi, Siti")
    tables = table_count(app)
    for way in (
        lambda: set_up(client, table, rules, options),
        lambda: import_match(client, table, rules, options),
        lambda: import_table(client, rules, options),
    ):
        response = way()
        assert response.status_code in (200, 400), response.status_code
        assert errors(response), response.get_data(as_text=True)[:500]
    assert match_count(app) == 0 and table_count(app) == tables


@pytest.mark.parametrize(
    ("rules", "options"),
    [("remi", {"target": 50}), ("remi", {"target": 10000}), ("rummy", {"hands": 100})],
)
def test_every_way_of_making_a_match_takes_the_options_at_the_ends_of_the_ranges(
    client, app, rules, options
):
    to_english(client)
    table = new_table(client, players="Budi, Siti")
    for way in (
        lambda: set_up(client, table, rules, options),
        lambda: import_match(client, table, rules, options),
        lambda: import_table(client, rules, options),
    ):
        response = way()
        assert response.status_code == 302, errors(response)
    # Three matches made, each with the options as given.
    with app.app_context():
        stored = db.session.scalars(sa.select(Match.options)).all()
    assert len(stored) == 3
    assert all(kept[name] == value for kept in stored for name, value in options.items())


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        ({"target": 0}, "target from 1 to 100000"),
        ({"target": 100001}, "target from 1 to 100000"),
        ({"target": 1e400}, "target from 1 to 100000"),  # a float too large: infinity
        ({"target": 0.5}, "target from 1 to 100000"),  # a fraction counts as a number
        ({"hands": 101}, "number of rounds from 1 to 100"),
        ({"target": 1, "hands": 100}, None),
        ({"target": 100000.0}, None),
        ({"target": True}, None),  # not a number: the engine refuses its type
        ({"target": "0"}, None),  # the same
        ([], None),  # not options at all: the engine says so
    ],
)
def test_the_one_check_of_the_limits(app, options, refused):
    with app.test_request_context(), force_locale("en"):
        found = option_refusal(options)
    if refused is None:
        assert found is None
    else:
        assert found is not None and refused in found
