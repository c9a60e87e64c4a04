"""The statistics read from the aggregates kept by month are the statistics added up from every
match's summary, after any sequence of writes: saves, corrections, voids, removed rounds,
deleted and restored matches, renamed players, imported matches, a whole table imported.

The oracle is the summaries' own path (``scanned=True``: every figure summed from the
seat rows of the period, the streaks from the matches in order), compared with the pages
as served (whole months from the aggregates, the days at a period's ends from the
summaries) for every player, every pair, every ruleset and periods whose ends fall inside
months, at month boundaries and outside the played months.  On SQLite and PostgreSQL.
"""

from __future__ import annotations

import itertools
import json
import os
from datetime import date, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.match import MatchState, read_header
from referee.web import MIGRATIONS, create_app
from referee.web.show import history
from referee.web.store import aggregates, summary
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Player, PlayerMonth, SeatSummary

from .conftest import DATABASE_KINDS as KINDS
from .conftest import Client, migrated_app
from .helpers import errors, new_match, new_table, round_data
from .realserver import fresh_database
from .test_ratings import BUDI_BEATS_SITI, imported, ratings_shown, remi
from .test_rummies import DEAL_ONE, THREE, final_table, turn
from .test_table_move import import_file

API = "/api/v1"
NAMES = ["Andi", "Budi", "Dewi", "Siti"]
CARDS = ["2C", "5H", "9S", "KD", "QS", "AH", "10C", "7D"]


@pytest.fixture(scope="module", params=KINDS)
def database_url(request, tmp_path_factory):
    with fresh_database(request.param, tmp_path_factory.mktemp("aggregates")) as url:
        yield url


def a_round(players: list[str], winner: int, card: int) -> dict:
    """A remi round: ``players[winner]`` goes out, each other player holds one card."""
    out = players[winner % len(players)]
    hands = {
        name: [CARDS[(card + i) % len(CARDS)]] for i, name in enumerate(players) if name != out
    }
    return {"out": out, "hands": hands}


def a_match(players: list[str], started: datetime, rounds: list[tuple[int, int, int]]) -> dict:
    """A remi match to 60 with rounds played ``hours`` after the one before (those after
    its end left out)."""
    document = {
        "format": "referee-match/1",
        "rules": "remi",
        "options": {"target": 60},
        "players": players,
        "first_dealer": players[0],
    }
    state = MatchState.start(read_header(document))
    played, entries, when = [], [], started
    for winner, card, hours in rounds:
        if state.finished:
            break
        entries.append(a_round(players, winner, card))
        state = state.play(entries[-1])
        when += timedelta(hours=hours)
        played.append(when.isoformat())
    return document | {"rounds": entries, "started": started.isoformat(), "played": played}


START = datetime.fromisoformat("2025-11-20T19:00:00+00:00")
# Each example's matches start a minute later than the last's: a table file is never the
# same as one imported before (which the app would send to the table already there).
EXAMPLES = itertools.count()
match_strategy = st.tuples(
    st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True),
    st.integers(0, 120),  # days after START
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 7), st.integers(1, 400)), max_size=5),
)
operation = st.one_of(
    st.tuples(st.just("save"), st.integers(0, 50), st.integers(0, 3), st.integers(0, 7)),
    st.tuples(st.just("correct"), st.integers(0, 50), st.integers(0, 3), st.integers(0, 7)),
    st.tuples(st.just("void"), st.integers(0, 50), st.integers(0, 5)),
    st.tuples(st.just("restore"), st.integers(0, 50), st.integers(0, 5)),
    st.tuples(st.just("remove"), st.integers(0, 50)),
    st.tuples(st.just("delete"), st.integers(0, 50)),
    st.tuples(st.just("undelete"), st.integers(0, 50)),
    st.tuples(st.just("rename"), st.integers(0, 3)),
    st.tuples(st.just("import"), match_strategy),
)


class Table:
    """A table imported through the app, and writes to it through the app."""

    def __init__(self, client: Client, app, matches: list[dict]) -> None:
        self.client, self.app = client, app
        sent = {"format": "referee-table/1", "name": "Meja", "players": [], "matches": matches}
        response = import_file(client, sent, copies="y")
        assert response.status_code == 302, errors(response)
        self.url = response.headers["Location"]
        self.key = self.url.strip("/").split("/")[-1]
        self.deleted: list[int] = []

    def match_ids(self) -> list[int]:
        listed = self.client.get(f"{API}/t/{self.key}/matches?limit=100").get_json()
        return sorted(found["id"] for found in listed["matches"])

    def api(self, match_id: int, method: str, path: str = "", body: dict | None = None) -> None:
        url = f"{API}/t/{self.key}/m/{match_id}"
        etag = self.client.get(url).headers.get("ETag", "")
        answer = self.client.open(url + path, method=method, json=body, headers={"If-Match": etag})
        assert answer.status_code < 500, answer.get_data(as_text=True)

    def apply(self, step: tuple) -> None:
        kind, *rest = step
        ids = self.match_ids()
        if kind == "import":
            players, days, rounds = rest[0]
            document = a_match(players, START + timedelta(days=days), rounds)
            response = self.client.submit(
                self.url + "import", {"document": json.dumps(document), "copy": "y"}
            )
            assert response.status_code < 500
            return
        if kind == "rename":
            with self.app.app_context():
                found = db.session.scalars(
                    db.select(Player).join(CardTable).where(CardTable.edit_key == self.key)
                ).all()
                player = sorted(found, key=lambda p: p.id)[rest[0] % len(found)]
                player_id, old = player.id, player.name
            prefix = f"p{player_id}"
            response = self.client.submit(
                f"{self.url}settings/players/{player_id}",
                {f"{prefix}-name": old + "x", f"{prefix}-was": old},
                page=self.url + "settings",
            )
            assert response.status_code < 500
            return
        if kind == "undelete":
            if self.deleted:
                match_id = self.deleted.pop(rest[0] % len(self.deleted))
                url = f"{self.url}m/{match_id}/undelete"
                self.client.post(url, data={"csrf_token": self.client.csrf()})
            return
        if not ids:
            return
        match_id = ids[rest[0] % len(ids)]
        if kind == "delete":
            url = f"{self.url}m/{match_id}/delete"
            response = self.client.submit(url, {}, page=url)
            assert response.status_code < 500
            self.deleted.append(match_id)
            return
        shown = self.client.get(f"{API}/t/{self.key}/m/{match_id}").get_json()
        players = shown["players"]
        names = [p if isinstance(p, str) else p.get("name") for p in players]
        count = len(shown.get("rounds") or [])
        if kind == "save":
            self.api(match_id, "POST", "/rounds", a_round(names, rest[1], rest[2]))
        elif count and kind == "correct":
            number = rest[1] % count + 1
            self.api(match_id, "PUT", f"/rounds/{number}", a_round(names, rest[2], rest[1]))
        elif count and kind in ("void", "restore"):
            self.api(match_id, "POST", f"/rounds/{rest[1] % count + 1}/{kind}")
        elif count and kind == "remove":
            self.api(match_id, "DELETE", f"/rounds/{count}")


PERIODS = [
    (None, None),
    (date(2025, 12, 1), None),  # from a month's first day
    (date(2025, 12, 14), None),  # from inside a month
    (None, date(2026, 1, 31)),  # to a month's last day
    (None, date(2026, 2, 9)),  # to inside a month
    (date(2025, 11, 25), date(2026, 3, 3)),  # inside months at both ends
    (date(2026, 1, 5), date(2026, 1, 20)),  # inside one month
    (date(2025, 12, 31), date(2026, 2, 1)),  # a day either side of whole months
    (date(2027, 1, 1), None),  # nothing played
]
WHOLE_REMI = (None, None, "remi")


def assert_pages_agree(app, key: str) -> None:
    """Every page from the aggregates is the page added up from the summaries; and the
    aggregates are what ``history check`` counts."""
    with app.app_context():
        with db.engine.connect() as connection:
            assert aggregates.compare(connection) == []
            assert summary.check(connection) == []
        table = db.session.scalars(db.select(CardTable).where(CardTable.edit_key == key)).one()
        players = sorted(table.players, key=lambda p: p.id)
        for since, until, rules in [*((*period, None) for period in PERIODS), WHOLE_REMI]:
            filters = history.Filters(rules=rules, since=since, until=until)
            kept = history.table_statistics(table.id, filters)
            assert kept == history.table_statistics(table.id, filters, scanned=True)
            for player in players:
                kept_player = history.player_statistics(table.id, player, filters)
                scanned = history.player_statistics(table.id, player, filters, scanned=True)
                assert kept_player == scanned, (player.name, since, until)
                for other in players:
                    if other.id != player.id:
                        kept_pair = history.head_to_head(table.id, player, other, filters)
                        scanned_pair = history.head_to_head(
                            table.id, player, other, filters, scanned=True
                        )
                        assert kept_pair == scanned_pair, (player.name, other.name, since, until)


@settings(
    max_examples=3,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(
    matches=st.lists(match_strategy, min_size=3, max_size=8),
    steps=st.lists(operation, min_size=8, max_size=16),
)
def test_pages_from_the_aggregates_are_the_pages_from_the_summaries(database_url, matches, steps):
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True})
    app.test_client_class = Client
    client = app.test_client()
    shift = timedelta(minutes=next(EXAMPLES))
    documents = [
        a_match(players, START + shift + timedelta(days=days), rounds)
        for players, days, rounds in matches
    ]
    table = Table(client, app, documents)
    assert_pages_agree(app, table.key)
    for step in steps:
        table.apply(step)
    assert_pages_agree(app, table.key)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_streak_over_months_is_joined_from_each_months_piece():
    """Won W, lost L, in the order played, cut into months anywhere: the longest run of W
    is the same as over the whole sequence."""
    sequence = [True, True, False, True, True, True, False, False, True, True]
    # Runs of wins: 2, 3, 2: the longest is 3.
    for cut in range(len(sequence) + 1):
        for second in range(cut, len(sequence) + 1):
            pieces = [sequence[:cut], sequence[cut:second], sequence[second:]]
            joined = aggregates.Streak()
            for piece in pieces:
                joined = joined.then(aggregates.Streak.of(piece))
            assert joined.longest == 3
            assert joined.matches == 10 and joined.first == 2 and joined.last == 2
    assert aggregates.Streak.of([True] * 4).then(aggregates.Streak.of([True] * 3)).longest == 7


@pytest.mark.parametrize("kind", KINDS)
def test_the_migration_fills_the_aggregates_and_the_replayed_figures_of_stored_matches(
    kind, tmp_path
):
    """A contract match played before the aggregates (its kept replay without the facts of
    buys and contracts, as an older engine wrote it): the migration counts its buys,
    contracts and rounds gone out, and every aggregate, as the log gives them."""
    url = f"sqlite:///{tmp_path}/m.db" if kind == "sqlite" else os.environ["TEST_PG_URL"]
    app = migrated_app(url)
    app.test_client_class = Client
    client = app.test_client()
    table = new_table(client)
    match = new_match(client, table, "contract", THREE)
    # The statistics test's contract match (test_rummies): Budi goes out of deal 1 with
    # Siti down; in deal 2 Siti buys Andi's 7H and Budi goes down and out.
    hands = {"Siti": "QH JK", "Andi": "AS 2C 3D"}
    data = final_table(THREE, hands, DEAL_ONE, [("Siti", "7C", 1)], ending="out", player="Budi")
    assert client.submit(match + "rounds/new", data).status_code == 302
    for fields in (
        {"player": "Andi", "discard": "7H"},
        {"player": "Budi", "buyer": "Siti", "discard": "3D"},
        {"player": "Siti", "discard": "4C"},
        {"player": "Andi", "discard": "9H"},
        {"player": "Budi", "melds": "5H 5D 5S\n2C 3C 4C 5C 6C 7C 8C", "discard": "KD"},
    ):
        assert turn(client, match, **fields).status_code == 302
    ended = client.submit(
        match + "live/end",
        {
            "hand_1": "7H KH KS QH QS JH JS 9D 9S 10D 10S AD",
            "hand_2": "2D 4D 6D 8D 2S 4S 6S 8S AC KC",
        },
    )
    assert ended.status_code == 302, errors(ended)
    with app.app_context():
        try:
            downgrade(directory=str(MIGRATIONS), revision="0012_apisave")
            with db.engine.begin() as connection:
                replays = sa.table("match_replays", sa.column("match_id"), sa.column("facts"))
                for match_id, facts in connection.execute(sa.select(replays)).all():
                    older = json.loads(facts)
                    for played in older["rounds"]:
                        played.pop("bought", None)
                        played.pop("contracts_made", None)
                    connection.execute(
                        sa.update(replays)
                        .where(replays.c.match_id == match_id)
                        .values(facts=json.dumps(older))
                    )
            upgrade(directory=str(MIGRATIONS))
            with db.engine.connect() as connection:
                assert summary.check(connection) == []
                seats = connection.execute(
                    sa.select(
                        Player.name, SeatSummary.went_out, SeatSummary.buys, SeatSummary.contracts
                    )
                    .join(Player, Player.id == SeatSummary.player_id)
                    .order_by(Player.name)
                ).all()
                # Budi went out of both deals and made both contracts; Siti went down in deal 1
                # and bought once; Andi never went down.
                assert [tuple(row) for row in seats] == [
                    ("Andi", 0, 0, 0),
                    ("Budi", 2, 0, 2),
                    ("Siti", 0, 1, 1),
                ]
                months = connection.execute(
                    sa.select(
                        Player.name, PlayerMonth.matches, PlayerMonth.rounds, PlayerMonth.buys
                    )
                    .join(Player, Player.id == PlayerMonth.player_id)
                    .where(PlayerMonth.rules == "contract")
                    .order_by(Player.name)
                ).all()
                assert [tuple(row) for row in months] == [
                    ("Andi", 1, 2, 0),
                    ("Budi", 1, 2, 0),
                    ("Siti", 1, 2, 1),
                ]
        finally:
            db.session.remove()
            downgrade(directory=str(MIGRATIONS), revision="base")
            db.engine.dispose()


def test_the_ratings_kept_by_version_follow_a_match_finished_and_a_round_voided(client):
    """The statistics page keeps a table's ratings while its summaries stay the same; the save
    that finishes a match and a void that reopens it are seen at the next view."""
    table = imported(client, [remi(["Budi", "Siti"], BUDI_BEATS_SITI, 1)])
    first = ratings_shown(client.get(table + "stats").text)
    assert list(first) == ["Budi", "Siti"]  # Budi won the one match
    again = ratings_shown(client.get(table + "stats").text)
    assert again == first  # kept: nothing changed
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    # Siti out; Budi holds four kings and four queens, 80: Siti 80, not yet 100.  Then Siti
    # out again over KH QH JH = 30: Siti 110 reaches the target and wins.
    for hand in ("KH KS KD KC QH QS QD QC", "KH QH JH"):
        hands = round_data(["Budi", "Siti"], {"Budi": hand}, ending="out", player="Siti")
        saved = client.submit(match + "rounds/new", hands)
        assert saved.status_code == 302, errors(saved)
    after = ratings_shown(client.get(table + "stats").text)
    # One finished match won each: the ratings moved (a second rated match each).
    assert after != first and set(after) == {"Budi", "Siti"}
    # The last round voided: the second match is no longer finished; the ratings are the
    # first match's again.
    voided = client.submit(match + "rounds/2/void", {})
    assert voided.status_code == 302, errors(voided)
    assert ratings_shown(client.get(table + "stats").text) == first
