"""Two phones importing the same match file into a table at the same moment, for real (gunicorn
with several workers, on SQLite and PostgreSQL): one match is made, the other phone is told
that the match is already at the table, and nobody gets a 500."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
import sqlalchemy as sa

from .conftest import DATABASE_KINDS as KINDS
from .history_fixture import MATCHES
from .realserver import Phone, at_once, served_database

TRIALS = 3


@pytest.fixture(scope="module", params=KINDS)
def served(request, tmp_path_factory):
    with served_database(request.param, tmp_path_factory.mktemp("import-races")) as both:
        yield both


def make_table(phone: Phone) -> str:
    created = phone.post("/tables", {**phone.form("/tables"), "name": "Meja"})
    assert created.status_code == 302
    return created.headers["Location"].replace(phone.server, "")


@pytest.mark.parametrize("trial", range(TRIALS))
def test_the_same_match_imported_twice_at_once_is_one_match(served, trial):
    server, engine = served
    first, second = Phone(server.url), Phone(server.url)
    table = make_table(first)
    document = json.dumps(MATCHES[trial])
    url = table + "import"
    forms = [first.form(url), second.form(url)]
    responses = at_once(
        *(
            lambda phone=phone, form=form: phone.post(url, {**form, "document": document})
            for phone, form in zip((first, second), forms, strict=True)
        )
    )
    found = Counter(response.status_code for response in responses)
    assert found == Counter({302: 1, 400: 1}), [r.text[:300] for r in responses]
    made = next(r for r in responses if r.status_code == 302).headers["Location"]
    refused = next(r for r in responses if r.status_code == 400)
    link = re.search(r'id="already-imported"><a class="button" href="([^"]+)"', refused.text)
    assert link and link.group(1) == made.replace(server.url, "")
    key = table.strip("/").split("/")[1]
    with engine.connect() as connection:
        stored = connection.execute(
            sa.text(
                "SELECT count(*) FROM matches JOIN card_tables ON card_tables.id = table_id"
                " WHERE edit_key = :key"
            ),
            {"key": key},
        ).scalar()
    assert stored == 1
