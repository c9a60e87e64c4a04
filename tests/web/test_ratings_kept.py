"""The ratings each worker keeps and extends (by the table's ratings epoch, from the last match
it rated) are the ratings worked out from the first match, after any sequence of writes:
saves finishing matches and not, corrections, voids, removed rounds, deleted and restored
matches, renamed players, older matches imported; seen by two apps on one database.  A save
into a match not finished rates nothing again, a match finished after the others is one
more update, a correction rates again from the match it changed.  On SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import math
import random
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.web import create_app
from referee.web.show import charts, ratings
from referee.web.show.ratings import Finisher, RulesetRatings, rate
from referee.web.store import aggregates
from referee.web.store.extensions import db
from referee.web.store.models import CardTable

from .conftest import DATABASE_KINDS as KINDS
from .conftest import Client
from .helpers import errors
from .realserver import fresh_database
from .test_aggregates import EXAMPLES, START, Table, a_match, match_strategy, operation
from .test_ratings import BUDI_BEATS_SITI, remi

API = "/api/v1"


@pytest.fixture(scope="module", params=KINDS)
def database_url(request, tmp_path_factory):
    with fresh_database(request.param, tmp_path_factory.mktemp("ratings-kept")) as url:
        yield url


def an_app(url: str):
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
    app.test_client_class = Client
    return app


def closed(*apps) -> None:
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def table_id_of(app, key: str) -> int:
    with app.app_context():
        return db.session.scalars(db.select(CardTable.id).where(CardTable.edit_key == key)).one()


def as_compared(found: list[RulesetRatings]) -> list[tuple]:
    return [
        (
            one.rules,
            one.matches,
            [
                (r.player_id, r.name, r.mu, r.sigma, r.matches, list(r.history), list(r.at))
                for r in one.ratings
            ],
        )
        for one in found
    ]


# What each view asks for: every ruleset, one ruleset, and periods ending inside the matches
# imported and before any.
VIEWS = [
    (None, None),
    ("remi", None),
    (None, (START + timedelta(days=40)).date()),
    ("remi", (START + timedelta(days=90)).date()),
    (None, date(2020, 1, 1)),
]


def assert_kept_are_worked_out(app, table_id: int) -> None:
    with app.app_context():
        for rules, until in VIEWS:
            kept = ratings.table_ratings(table_id, rules=rules, until=until)
            fresh = ratings.worked_out(table_id, rules, until)
            assert as_compared(kept) == as_compared(fresh), (rules, until)
            for mine, theirs in zip(kept, fresh, strict=True):
                assert charts.rating_history(mine) == charts.rating_history(theirs)
        db.session.remove()


@settings(
    max_examples=3,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(
    matches=st.lists(match_strategy, min_size=3, max_size=8),
    steps=st.lists(operation, min_size=8, max_size=16),
)
def test_the_kept_ratings_are_the_ratings_worked_out_from_the_first_match(
    database_url, matches, steps
):
    one, other = an_app(database_url), an_app(database_url)
    shift = timedelta(minutes=next(EXAMPLES))
    documents = [
        a_match(players, START + shift + timedelta(days=days), rounds)
        for players, days, rounds in matches
    ]
    table = Table(one.test_client(), one, documents)
    table_id = table_id_of(one, table.key)
    assert_kept_are_worked_out(one, table_id)
    assert_kept_are_worked_out(other, table_id)
    for number, step in enumerate(steps):
        table.apply(step)
        # Each app keeps its own ratings: the one that wrote and the other one take turns
        # to look, each after some writes it did not see.
        assert_kept_are_worked_out(one if number % 3 else other, table_id)
    assert_kept_are_worked_out(one, table_id)
    assert_kept_are_worked_out(other, table_id)
    closed(one, other)


def sent(table: Table, match_id: int, method: str, path: str, body: dict) -> None:
    url = f"{API}/t/{table.key}/m/{match_id}"
    etag = table.client.get(url).headers["ETag"]
    answer = table.client.open(url + path, method=method, json=body, headers={"If-Match": etag})
    assert answer.status_code in (200, 201), answer.get_data(as_text=True)


class Counted:
    """OpenSkill's updates counted (each is one match rated)."""

    def __init__(self, monkeypatch) -> None:
        self.calls = 0
        self.model = ratings.MODEL
        monkeypatch.setattr(ratings, "MODEL", self)

    def rating(self, *args, **kwargs):
        return self.model.rating(*args, **kwargs)

    def rate(self, *args, **kwargs):
        self.calls += 1
        return self.model.rate(*args, **kwargs)

    def since(self) -> int:
        calls, self.calls = self.calls, 0
        return calls


def shown(app, table_id: int) -> dict[str, float]:
    with app.app_context():
        (found,) = ratings.table_ratings(table_id)
        db.session.remove()
        return {rating.name: rating.mu for rating in found.ratings}


def epoch_of(app, table_id: int) -> int:
    with app.app_context(), db.engine.connect() as connection:
        return aggregates.ratings_epoch_of(connection, table_id).epoch


def test_a_save_rates_again_only_what_it_changed(database_url, monkeypatch):
    app, elsewhere = an_app(database_url), an_app(database_url)
    client = app.test_client()
    # Four duels on four days of January, Budi out each time over Siti's KH QH JH = 30:
    # Budi reaches the target 30 and wins each.
    duels = [remi(["Budi", "Siti"], BUDI_BEATS_SITI, day) for day in (1, 2, 3, 4)]
    table = Table(client, app, duels)
    table_id = table_id_of(app, table.key)
    counted = Counted(monkeypatch)
    first = shown(app, table_id)
    assert counted.since() == 4
    # Two players of the same sigma: what the winner gains the loser loses (the sum stays
    # 50), and Budi won all four.
    assert first["Budi"] > 25 > first["Siti"] and first["Budi"] + first["Siti"] == pytest.approx(50)
    assert shown(elsewhere, table_id) == first
    assert counted.since() == 4

    made = client.post(
        f"{API}/t/{table.key}/matches",
        json={
            "rules": "remi",
            "players": ["Budi", "Siti"],
            "first_dealer": "Budi",
            "options": {"target": 100},
        },
    )
    assert made.status_code == 201, made.get_data(as_text=True)
    match_id = made.get_json()["id"]
    epoch = epoch_of(app, table_id)
    with app.app_context():
        (before_the_save,) = ratings.table_ratings(table_id)
        db.session.remove()
    # Siti out; Budi holds four kings and four queens, 80: Siti 80, short of 100.
    sent(table, match_id, "POST", "/rounds", {"out": "Siti", "hands": {"Budi": EIGHTY}})
    with app.app_context():
        (after_the_save,) = ratings.table_ratings(table_id)
        db.session.remove()
    # Nothing rated changed: the same ratings shown, their chart as drawn.
    assert after_the_save is before_the_save
    assert shown(app, table_id) == first and counted.since() == 0
    assert shown(elsewhere, table_id) == first and counted.since() == 0
    assert epoch_of(app, table_id) == epoch

    # Siti out again over KH QH JH = 30: Siti 110 reaches 100 and wins, the last match
    # played: one update, Siti up and Budi down by as much.
    sent(table, match_id, "POST", "/rounds", {"out": "Siti", "hands": {"Budi": ["KH", "QH", "JH"]}})
    after = shown(app, table_id)
    assert counted.since() == 1
    assert after["Siti"] > first["Siti"] and after["Budi"] < first["Budi"]
    assert after["Budi"] - first["Budi"] == pytest.approx(first["Siti"] - after["Siti"])
    assert shown(elsewhere, table_id) == after and counted.since() == 1
    assert epoch_of(app, table_id) == epoch

    # Round 2 corrected: Budi out over Siti's KH, 10; Budi 10, Siti 80, nobody at 100: the
    # match is no longer finished, the ratings are the four duels' again, nothing rated.
    sent(table, match_id, "PUT", "/rounds/2", {"out": "Budi", "hands": {"Siti": ["KH"]}})
    assert epoch_of(app, table_id) == epoch + 1
    assert shown(app, table_id) == first and counted.since() == 0
    assert shown(elsewhere, table_id) == first and counted.since() == 0

    # The third duel corrected (Siti out over Budi's KH QH JH: Siti wins it): rated again
    # from it, the third and the fourth.
    third = sorted(table.match_ids())[2]
    sent(table, third, "PUT", "/rounds/1", {"out": "Siti", "hands": {"Budi": ["KH", "QH", "JH"]}})
    corrected = shown(app, table_id)
    assert counted.since() == 2
    assert corrected["Siti"] > first["Siti"]
    assert shown(elsewhere, table_id) == corrected and counted.since() == 2

    # Two changes since the last view (the first duel and the second corrected): from the
    # first match, all four.
    for duel in sorted(table.match_ids())[:2]:
        sent(
            table, duel, "PUT", "/rounds/1", {"out": "Siti", "hands": {"Budi": ["KH", "QH", "JH"]}}
        )
    assert epoch_of(app, table_id) == epoch + 4
    everyone_once = shown(app, table_id)
    assert counted.since() == 4
    # Siti won three of the four (days 1, 2, 3), Budi the last.
    assert everyone_once["Siti"] > everyone_once["Budi"]
    with app.app_context():
        assert as_compared(ratings.table_ratings(table_id)) == as_compared(
            ratings.worked_out(table_id, None, None)
        )
    closed(app, elsewhere)


EIGHTY = ["KH", "KS", "KD", "KC", "QH", "QS", "QD", "QC"]


def test_a_match_imported_deleted_and_restored_rates_again_from_where_it_applies(
    database_url, monkeypatch
):
    app = an_app(database_url)
    client = app.test_client()
    duels = [remi(["Budi", "Siti"], BUDI_BEATS_SITI, day) for day in (1, 3, 5)]
    table = Table(client, app, duels)
    table_id = table_id_of(app, table.key)
    counted = Counted(monkeypatch)
    shown(app, table_id)
    assert counted.since() == 3
    # A match file imported (its rounds played now: after the three duels), Siti winning
    # it: one update.
    won_by_siti = remi(
        ["Budi", "Siti"], [{"out": "Siti", "hands": {"Budi": ["KH", "QH", "JH"]}}], 2
    )
    response = client.submit(
        table.url + "import",
        {"document": json.dumps({"format": "referee-match/1", **won_by_siti}), "copy": "y"},
    )
    assert response.status_code == 302, errors(response)
    shown(app, table_id)
    assert counted.since() == 1
    # The duel of January 3rd deleted: rated again from it (the one after it, and the
    # match imported), then restored, rated again from it (it and the two after it).
    second = sorted(table.match_ids())[1]
    deleted = client.submit(
        f"{table.url}m/{second}/delete", {}, page=f"{table.url}m/{second}/delete"
    )
    assert deleted.status_code == 302, errors(deleted)
    without = shown(app, table_id)
    assert counted.since() == 2
    restored = client.post(f"{table.url}m/{second}/undelete", data={"csrf_token": client.csrf()})
    assert restored.status_code == 302, errors(restored)
    again = shown(app, table_id)
    assert counted.since() == 3
    with app.app_context():
        (fresh,) = ratings.worked_out(table_id, None, None)
        assert fresh.matches == 4
        assert again == {rating.name: rating.mu for rating in fresh.ratings}
        # Budi won one duel fewer without it: lower than with it.
        assert without["Budi"] < again["Budi"]
    closed(app)


def test_a_period_and_a_ruleset_are_the_first_matches_of_the_tables_ratings(
    database_url, monkeypatch
):
    app = an_app(database_url)
    duels = [remi(["Budi", "Siti"], BUDI_BEATS_SITI, day) for day in (1, 3, 5, 7)]
    table = Table(app.test_client(), app, duels)
    table_id = table_id_of(app, table.key)
    counted = Counted(monkeypatch)
    shown(app, table_id)
    assert counted.since() == 4
    with app.app_context():
        # Up to January 4th: the duels of the 1st and the 3rd, nothing rated again.
        (period,) = ratings.table_ratings(table_id, until=date(2026, 1, 4))
        (remi_only,) = ratings.table_ratings(table_id, rules="remi")
        assert counted.since() == 0
        assert period.matches == 2 and [r.matches for r in period.ratings] == [2, 2]
        assert remi_only.matches == 4
        assert as_compared([period]) == as_compared(
            ratings.worked_out(table_id, None, date(2026, 1, 4))
        )
        assert ratings.table_ratings(table_id, rules="gin") == []
        assert ratings.table_ratings(table_id, until=date(2025, 12, 31)) == []
    closed(app)


def the_points_drawn_from_every_step(found: RulesetRatings) -> list[tuple[str, list]]:
    """Each line's points as the chart drew them from every rated mu after every match (the
    way it was drawn before the ratings were kept by player)."""
    steps = found.steps
    count = len(steps)
    every_point = max(1, math.ceil(count / charts.MOST_POINTS))
    lines = []
    for rating in found.ratings:
        first = next(i for i, step in enumerate(steps) if rating.player_id in step)
        points = [(first, 25.0)] + [
            (i + 1, step[rating.player_id])
            for i, step in enumerate(steps)
            if i >= first
            and rating.player_id in step
            and ((i + 1 - first) % every_point == 0 or i == count - 1)
        ]
        lines.append((rating.name, points))
    return lines


@pytest.mark.parametrize("count", [1, 7, 200, 201, 457])
def test_the_chart_draws_the_points_it_drew_from_every_step(count):
    shuffled = random.Random(count)
    matches = []
    for _ in range(count):
        seated = shuffled.sample(range(1, 7), shuffled.randint(2, 4))
        winner = shuffled.choice(seated)
        matches.append([Finisher(p, p == winner, shuffled.randint(0, 90)) for p in seated])
    found, steps = rate(matches)
    kept = RulesetRatings(
        "remi",
        [
            ratings.Rating(r.player_id, str(r.player_id), r.mu, r.sigma, r.matches, r.history, r.at)
            for r in sorted(found.values(), key=lambda r: -r.mu)
        ],
        len(steps),
    )
    assert kept.steps == steps
    series = charts.rating_series(kept)
    assert series == the_points_drawn_from_every_step(kept)
    assert all(len(points) <= charts.MOST_POINTS + 2 for _name, points in series)
