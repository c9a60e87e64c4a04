"""A game played in teams on the web: the setup seats partners opposite under team names,
and the scoreboard, results card, CSV and match list show the sides as the engine ranks
them.  The toy partnership game and its figures are tests/test_sides.py's."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from test_sides import PAIRS, PLAYERS, ROUND_1, ROUND_2, ROUND_3, TEAMS

from referee.rulesets import Ruleset, registered_ruleset
from referee.web import create_app
from referee.web.store.extensions import db
from referee.web.store.models import Match, Player, SeatSummary

from .conftest import DATABASE_KINDS, TEST_CONFIG, Client, assert_summaries_true
from .helpers import errors, new_table, save_round, to_english
from .realserver import fresh_database


@pytest.fixture
def pairs() -> Iterator[Ruleset]:
    with registered_ruleset(PAIRS) as rules:
        yield rules


def test_the_setup_seats_partners_opposite_under_team_names(pairs, client, app):
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi, Dewi")
    form = client.get(table + "new/pair-rummy").text
    assert "Team of seats 1, 3" in form and "Team of seats 2, 4" in form
    data = {f"seat_{i}": name for i, name in enumerate(PLAYERS)}
    data |= {"first_dealer": "Budi", "team_0": "Kita", "team_1": "Mereka"}
    started = client.submit(table + "new/pair-rummy", data)
    assert started.status_code == 302, errors(started)
    with app.app_context():
        assert db.session.execute(sa.select(Match.teams)).scalar_one() == TEAMS
    board = client.get(started.headers["Location"]).text
    assert re.search(
        r'class="total-name">Kita</div>\s*<div class="total-members muted">Budi, Andi<', board
    )
    assert "total gone" not in board
    assert (
        '<span class="tag dealer">deals next</span>'
        in board.split("Kita</div>")[1].split("Mereka")[0]
    )


def test_the_setup_refuses_two_teams_of_one_name(pairs, client, app):
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi, Dewi")
    data = {f"seat_{i}": name for i, name in enumerate(PLAYERS)}
    data |= {"first_dealer": "Budi", "team_0": "Kita", "team_1": "Kita"}
    refused = client.submit(table + "new/pair-rummy", data)
    assert refused.status_code == 400  # a form refused: nothing saved, the reason shown
    assert "two teams are named Kita" in refused.text
    data |= {"team_1": "Siti"}
    refused = client.submit(table + "new/pair-rummy", data)
    assert "the team Siti has the name of a player" in refused.text
    with app.app_context():
        assert db.session.execute(sa.select(sa.func.count(Match.id))).scalar_one() == 0


def test_with_three_players_nobody_plays_in_a_team(pairs, client, app):
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi")
    data = {f"seat_{i}": name for i, name in enumerate(["Budi", "Siti", "Andi"])}
    started = client.submit(table + "new/pair-rummy", data | {"first_dealer": "Budi"})
    assert started.status_code == 302, errors(started)
    with app.app_context():
        assert db.session.execute(sa.select(Match.teams)).scalar_one() is None


def test_the_pages_show_the_sides(pairs, client):
    to_english(client)
    played = "2026-03-05T19:10:00+00:00"
    rounds = [ROUND_1, ROUND_2, ROUND_3]
    match = {"rules": "pair-rummy", "players": PLAYERS, "teams": TEAMS, "rounds": rounds}
    match |= {"started": "2026-03-05T19:00:00+00:00", "played": [played] * 3}
    document = {"format": "referee-table/1", "name": "M", "players": [], "matches": [match]}
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    table = response.headers["Location"]
    # Mereka 34 + 71 = 105 won; Kita 43.
    results = client.get(table + "m/1/results").text
    assert "🏆 Mereka (Siti, Dewi) 105" in results and "2. Kita (Budi, Andi) 43" in results
    rows = list(
        csv.reader(io.StringIO(client.get(table + "m/1/export.csv").data.decode("utf-8-sig")))
    )
    assert rows[0][4:] == ["Kita", "Mereka", "Kita, total", "Mereka, total"]
    assert rows[-1][4:6] == ["43", "105"]
    listed = client.get(table + "matches").text
    assert "Pair Rummy · Budi, Siti, Andi, Dewi" in listed
    assert "won by Siti, Dewi" in listed


@pytest.mark.parametrize("kind", DATABASE_KINDS)
def test_rounds_saved_one_by_one_keep_the_sides_figures(pairs, kind, tmp_path):
    """The three rounds of tests/test_sides.py entered on the round form, one save each: the
    summaries kept round by round are the whole replay's."""
    with fresh_database(kind, tmp_path) as url:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "PAGES_DIR": str(tmp_path), **TEST_CONFIG}
        )
        app.test_client_class = Client
        try:
            saved_one_by_one(app)
        finally:
            with app.app_context():
                db.session.remove()
                db.engine.dispose()


def saved_one_by_one(app) -> None:
    client = app.test_client()
    to_english(client)
    table = new_table(client, "Budi, Siti, Andi, Dewi")
    data = {f"seat_{i}": name for i, name in enumerate(PLAYERS)}
    data |= {"first_dealer": "Budi", "team_0": "Kita", "team_1": "Mereka"}
    match = client.submit(table + "new/pair-rummy", data).headers["Location"]
    for entry in (ROUND_1, ROUND_2, ROUND_3):
        hands = {name: " ".join(cards) for name, cards in entry["hands"].items()}
        saved = save_round(client, match, PLAYERS, hands, ending="out", player=entry["out"])
        assert saved.status_code == 302, errors(saved)
    with app.app_context():
        assert_summaries_true()
        rows = db.session.execute(
            sa.select(Player.name, SeatSummary.place, SeatSummary.total, SeatSummary.won).join(
                Player, Player.id == SeatSummary.player_id
            )
        ).all()
    assert sorted(tuple(row) for row in rows) == [
        ("Andi", 2, 43, False),
        ("Budi", 2, 43, False),
        ("Dewi", 1, 105, True),
        ("Siti", 1, 105, True),
    ]


def test_the_api_starts_a_team_match_and_answers_per_side(pairs, app):
    api = app.test_client()
    api_root = "/api/v1"
    made = api.post(f"{api_root}/tables", json={"name": "Meja", "players": PLAYERS})
    assert made.status_code == 201, made.get_json()
    matches = f"{api_root}/t/{made.get_json()['edit_key']}/matches"
    asked = {"rules": "pair-rummy", "players": PLAYERS, "first_dealer": "Budi"}
    refused = api.post(matches, json=asked)
    assert refused.status_code == 422
    message = refused.get_json()["error"]["message"]  # the API speaks Indonesian by default
    assert 'dimainkan oleh tim berisi 2 pasangan: isi "teams"' in message
    started = api.post(matches, json=asked | {"teams": TEAMS})
    assert started.status_code == 201, started.get_json()
    board = started.get_json()
    assert [(s["place"], s["player"], s["members"]) for s in board["standings"]] == [
        (1, "Kita", ["Budi", "Andi"]),
        (1, "Mereka", ["Siti", "Dewi"]),
    ]
