"""The unit of work (referee/web/store/work.py): what the phone saw, and the explicit recount."""

from __future__ import annotations

import sqlalchemy as sa

from referee.web.store import work
from referee.web.store.extensions import db
from referee.web.store.models import Match, Round, SeatSummary

from .helpers import new_match, new_table, save_round

TWO = ["Budi", "Siti"]


def totals() -> list[int]:
    return db.session.scalars(sa.select(SeatSummary.total).order_by(SeatSummary.seat)).all()


def test_what_the_phone_saw_is_compared_in_one_place(client, app):
    table = new_table(client)
    match_url = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match_url, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        match = db.session.scalars(sa.select(Match)).one()
        stored = db.session.scalars(sa.select(Round)).one()
        # A new match is at version 1; saving round 1 raised it to 2; the round is at 1.
        assert (match.version, stored.version) == (2, 1)
        assert work.stale(match, match_version="2") == frozenset()
        assert work.stale(match, match_version=2, stored=stored, round_version="1") == frozenset()
        assert work.stale(match, match_version="1") == {work.MATCH}
        assert work.stale(match, stored=stored, round_version="2") == {work.ROUND}
        assert work.stale(match, turns="3", turns_now=2) == {work.TURNS}
        # Missing or not a number names nothing that holds: a write made from it is refused.
        assert work.stale(match, match_version="") == {work.MATCH}
        assert work.stale(match, match_version="²") == {work.MATCH}
        assert work.stale(match) == frozenset()  # nothing named, nothing to refuse
        assert work.changed_once(stored, "0") and not work.changed_once(stored, "1")


def test_the_summary_is_recounted_by_the_commit_that_names_the_match(client, app):
    table = new_table(client)
    match_url = new_match(client, table, "remi", TWO, target=100)
    # Budi goes out; Siti holds KH (10): Budi scores 10, Siti 0.
    save_round(client, match_url, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    with app.app_context():
        assert totals() == [10, 0]
        stored = db.session.scalars(sa.select(Round)).one()
        # Siti goes out instead, Budi holding QD (10): Siti scores 10, Budi 0.
        stored.entry = {"out": "Siti", "hands": {"Budi": ["QD"]}}
        db.session.commit()  # no unit of work: nothing recounts behind the write's back
        assert totals() == [10, 0]
        work.commit(stored.match_id)
        assert totals() == [0, 10]
