"""The store keeps a match's teams and each player's place, and the statistics take them:
a side's total, win and place are its partners'; head-to-head "ahead" compares places (the
lowest total first where it wins); a lowest-wins game's best round is its lowest penalty.

The team matches are of the toy partnership game of tests/test_sides.py (its figures are
derived there by hand); the contract match is tests/test_standings.py's CONTRACT_DEALS."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade
from test_sides import PAIRS, PLAYERS, ROUND_1, ROUND_2, ROUND_3, TEAMS
from test_standings import CONTRACT_DEALS

from referee.rulesets import Ruleset, registered_ruleset
from referee.web import MIGRATIONS
from referee.web.show import ratings
from referee.web.store import summary
from referee.web.store.extensions import db
from referee.web.store.models import Match, Player, SeatSummary, round_of_rank

from .conftest import DATABASE_KINDS, Client, migrated_app
from .helpers import errors

PLAYED = "2026-03-05T19:10:00+00:00"


@pytest.fixture
def pairs() -> Iterator[Ruleset]:
    with registered_ruleset(PAIRS) as rules:
        yield rules


def match(rules: str, players: list[str], rounds: list[dict], **extra: Any) -> dict[str, Any]:
    return {
        "rules": rules,
        "options": {},
        "players": players,
        "rounds": rounds,
        "started": "2026-03-05T19:00:00+00:00",
        "played": [PLAYED] * len(rounds),
        **extra,
    }


def imported(client: Any, *matches: dict[str, Any]) -> str:
    client.submit("/language", {"lang": "en", "next": "/"})
    document = {"format": "referee-table/1", "name": "M", "players": [], "matches": list(matches)}
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    return str(response.headers["Location"])


def seat_rows(match_id: int) -> dict[str, tuple[Any, ...]]:
    rows = db.session.execute(
        sa.select(
            Player.name,
            SeatSummary.place,
            SeatSummary.won,
            SeatSummary.total,
            SeatSummary.rounds_won,
            SeatSummary.points,
        )
        .join(Player, Player.id == SeatSummary.player_id)
        .where(SeatSummary.match_id == match_id)
    ).all()
    return {row[0]: tuple(row[1:]) for row in rows}


def ahead(client: Any, table: str, first: str, second: str, rules: str) -> list[str]:
    page = client.get(table + "head-to-head", query_string={"first": first, "second": second})
    part = page.text.split(f'<tbody data-rules="{rules}">')[1].split("</tbody>")[0]
    return re.findall(r'data-figure="ahead">(\d+)<', part)


TEAM_MATCH = match("pair-rummy", PLAYERS, [ROUND_1, ROUND_2, ROUND_3], teams=TEAMS)


def test_a_team_match_keeps_its_teams_and_its_sides_figures(pairs, client, app):
    table = imported(client, TEAM_MATCH)
    with app.app_context():
        stored = db.session.execute(sa.select(Match)).scalar_one()
        assert stored.teams == TEAMS
        # Mereka (Siti, Dewi) 34 + 71 = 105 won two rounds; Kita (Budi, Andi) 43, one round.
        assert seat_rows(stored.id) == {
            "Siti": (1, True, 105, 2, 105),
            "Dewi": (1, True, 105, 2, 105),
            "Budi": (2, False, 43, 1, 43),
            "Andi": (2, False, 43, 1, 43),
        }
    # Partners share a place: neither is ahead of the other; Siti's side beat Budi's.
    assert ahead(client, table, "Siti", "Dewi", "pair-rummy") == ["0", "0"]
    assert ahead(client, table, "Siti", "Budi", "pair-rummy") == ["1", "0"]
    exported = client.get(table + "export.json")
    assert exported.status_code == 200
    assert json.loads(exported.data)["matches"][0]["teams"] == TEAMS


def test_a_side_is_rated_as_a_team(pairs, client, app):
    imported(client, TEAM_MATCH)
    with app.app_context():
        table_id = db.session.execute(sa.select(Match.table_id)).scalar_one()
        (rated,) = ratings.worked_out(table_id, "pair-rummy", None)
    found = {rating.name: (rating.mu, rating.sigma) for rating in rated.ratings}
    # Plackett-Luce (Weng and Lin, algorithm 4) with OpenSkill's defaults: mu 25, sigma 25/3,
    # beta 25/6, tau 25/300 (added to each sigma first).  Two teams of two new players (each
    # s2 = sigma^2 + tau^2), a team being the sum of its players: mu 50, variance 2 * s2;
    # c^2 = sum over the teams of (variance + beta^2).  Equal mus: exp(mu/c) is the same for
    # both, so the winner's share among the teams still in (both) is 1/2, and the loser's
    # among itself alone 1.  Winners: omega = (1 - 1/2) * var/c, delta = 1/2 * 1/2 * var/c^2;
    # losers: omega = -1/2 * var/c, delta the same.  Each player takes s2/var of the team's
    # omega and sigma^2 is s2 * (1 - s2/var * delta * gamma), gamma = sqrt(var)/c.
    s2 = (25 / 3) ** 2 + (25 / 300) ** 2
    team_variance = 2 * s2
    c = math.sqrt(2 * (team_variance + (25 / 6) ** 2))
    change = s2 / team_variance * (1 / 2) * team_variance / c  # s2 / (2c)
    delta = (1 / 4) * team_variance / c**2 * math.sqrt(team_variance) / c
    sigma = math.sqrt(s2 * (1 - s2 / team_variance * delta))
    assert (25 + change, 25 - change, sigma) == pytest.approx((26.9643, 23.0357, 8.1780), abs=1e-4)
    for name in ("Siti", "Dewi"):  # Mereka won
        assert found[name] == pytest.approx((25 + change, sigma))
    for name in ("Budi", "Andi"):
        assert found[name] == pytest.approx((25 - change, sigma))
    # Not four players alone with the partners tied: then c^2 = 4 (s2 + beta^2) and each
    # winner's omega is (1 - 1/4)/2 - (1/4)/2 = 1/4 (two sharing first place) times s2/c.
    c_alone = math.sqrt(4 * (s2 + (25 / 6) ** 2))
    assert found["Siti"][0] != pytest.approx(25 + s2 / (4 * c_alone))


@pytest.mark.parametrize("kind", DATABASE_KINDS)
def test_the_migration_keeps_the_places_and_the_lowest_penalty_as_best_round(kind, tmp_path):
    """Matches stored before the places: the migration replays them and keeps each player's
    place, and a contract player's best round as the lowest penalty."""
    url = f"sqlite:///{tmp_path}/m.db" if kind == "sqlite" else os.environ["TEST_PG_URL"]
    app = migrated_app(url)
    app.test_client_class = Client
    client = app.test_client()
    # Deals 1, 3 and 4: Andi holds 20, 3 and 2, never out: his best round is 2 (round 3).
    partial = [CONTRACT_DEALS[0], CONTRACT_DEALS[2], CONTRACT_DEALS[3]]
    imported(
        client,
        match("contract", ["Budi", "Siti", "Andi"], CONTRACT_DEALS),
        match("contract", ["Budi", "Siti", "Andi"], partial),
    )
    with app.app_context():
        try:
            downgrade(directory=str(MIGRATIONS), revision="0019_settings")
            upgrade(directory=str(MIGRATIONS))
            with db.engine.connect() as connection:
                assert summary.check(connection) == []
            first, second = db.session.execute(sa.select(Match.id).order_by(Match.id)).scalars()
            # Siti 52 won, Budi 58, Andi 62 (lowest first).
            places = {name: row[0] for name, row in seat_rows(first).items()}
            assert places == {"Siti": 1, "Budi": 2, "Andi": 3}
            # Not finished: Siti 0 + 4 + 0 = 4, Andi 20 + 3 + 2 = 25, Budi 10 + 0 + 30 = 40.
            places = {name: row[0] for name, row in seat_rows(second).items()}
            assert places == {"Siti": 1, "Andi": 2, "Budi": 3}
            best = db.session.execute(
                sa.select(SeatSummary.best_round, SeatSummary.best_round_number)
                .join(Player, Player.id == SeatSummary.player_id)
                .where(SeatSummary.match_id == second, Player.name == "Andi")
            ).one()
            assert (round_of_rank(best[0], lowest_wins=True), best[1]) == (2, 3)
        finally:
            db.session.remove()
            downgrade(directory=str(MIGRATIONS), revision="base")
            db.engine.dispose()
