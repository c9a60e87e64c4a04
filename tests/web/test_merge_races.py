"""Two corrections of one round for real: phones 1 and 3 correct round 4 at the same moment
(Réni's hand on one, Siti's on the other), concurrent requests against ``referee serve``
with three worker processes, on SQLite and PostgreSQL.  Whichever loses gets the conflict
page, whose one tap on save applies only its own correction: both corrections stand, and
the audit trail shows no revert."""

from __future__ import annotations

import json
from functools import partial

import pytest
import sqlalchemy as sa

from .conftest import DATABASE_KINDS as KINDS
from .pageform import PageForm, as_posted
from .realserver import Phone, at_once, served_database
from .test_races import make_match, make_table, match_id, statuses, stored_rounds

FOUR = ["Budi", "Réni", "Siti", "Andi"]
TRIALS = 2


@pytest.fixture(scope="module", params=KINDS)
def served(request, tmp_path_factory):
    with served_database(request.param, tmp_path_factory.mktemp("merge-races")) as both:
        yield both


def save_round(phone, match, hands):
    url = match + "rounds/new"
    data = {f"hand_{i}": hands.get(name, "") for i, name in enumerate(FOUR)}
    data.update(ending="out", player="Budi", action="save")
    assert phone.post(url, {**phone.form(url), **data}).status_code == 302


def audit_trail(engine, match):
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text("SELECT before, after FROM round_changes WHERE match_id = :m ORDER BY id"),
            {"m": match_id(match)},
        ).all()
    return [tuple(_json(side)["hands"] for side in row) for row in rows]


def _json(value):
    return value if isinstance(value, dict) else json.loads(value)


def test_two_corrections_of_round_four_at_once_both_stand_after_one_tap(served):
    server, engine = served
    one, three = Phone(server.url), Phone(server.url)
    table = make_table(one, FOUR)
    old = {"Réni": ["KS"], "Siti": ["9C"], "Andi": ["4S"]}
    both = {"Réni": ["KS", "2D"], "Siti": ["3H", "4H"], "Andi": ["4S"]}
    for _ in range(TRIALS):
        match = make_match(one, table, FOUR)
        for hand in ("2C", "3C", "4C"):
            save_round(one, match, {"Réni": hand, "Siti": "5H", "Andi": "6H"})
        save_round(one, match, {"Réni": "KS", "Siti": "9C", "Andi": "4S"})
        edit = match + "rounds/4/edit"
        form_one, form_three = one.get(edit).text, three.get(edit).text
        responses = at_once(
            partial(one.post, edit, as_posted(form_one, hand_1="KS 2D")),
            partial(three.post, edit, as_posted(form_three, hand_2="3H 4H")),
        )
        assert statuses(responses) == {302: 1, 409: 1}
        loser = one if responses[0].status_code == 409 else three
        conflict = responses[0] if loser is one else responses[1]
        kept = PageForm(conflict.text).fields
        assert (kept["hand_1"], kept["hand_2"]) == ("KS 2D", "3H 4H")
        assert loser.post(edit, as_posted(conflict.text)).status_code == 302
        [*_before, (_n, entry, _complete)] = stored_rounds(engine, match)
        assert entry["hands"] == both
        first = {**old, "Réni": ["KS", "2D"]} if loser is three else {**old, "Siti": ["3H", "4H"]}
        assert audit_trail(engine, match) == [(old, first), (first, both)]
