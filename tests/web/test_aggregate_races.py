"""Four phones saving at the same moment in four matches of the same players (the same
month, so the same aggregate rows: each player's month, each pair's, the table's): against
``referee serve`` on SQLite and PostgreSQL, every save is kept once, and the aggregates
are what a count from the summaries gives (no update lost or doubled, no deadlock, no 500).
"""

from __future__ import annotations

from collections import Counter

import pytest
import requests
import sqlalchemy as sa

from referee.web.store import aggregates, summary

from .conftest import DATABASE_KINDS as KINDS
from .realserver import at_once, served_database

PLAYERS = ["Budi", "Siti", "Andi"]
SAVES = 6
CARDS = ["KS", "2H"]  # 10 and 2 points: one each for the players left holding cards


@pytest.fixture(scope="module", params=KINDS)
def served(request, tmp_path_factory):
    with served_database(request.param, tmp_path_factory.mktemp("aggregate-races")) as both:
        yield both


def call(method, url, **kwargs):
    return requests.request(method, url, timeout=60, **kwargs)


def test_four_phones_saving_in_matches_of_the_same_players_leave_the_aggregates_counted(served):
    server, engine = served
    base = f"{server.url}/api/v1"
    table = call("POST", f"{base}/tables", json={"name": "Meja", "players": PLAYERS})
    assert table.status_code == 201, table.text
    key = table.json()["edit_key"]
    matches = []
    for seats in (PLAYERS, PLAYERS[:2], PLAYERS[1:], [PLAYERS[2], PLAYERS[0]]):
        made = call(
            "POST",
            f"{base}/t/{key}/matches",
            json={"rules": "rummy", "players": seats, "first_dealer": seats[0], "options": {}},
        )
        assert made.status_code == 201, made.text
        matches.append((f"{base}/t/{key}/m/{made.json()['id']}", seats, made.json()["etag"]))

    def phone(url, seats, first_etag):
        def saves():
            answers, etag = [], first_etag
            for number in range(SAVES):
                out = seats[number % len(seats)]
                others = [name for name in seats if name != out]
                hands = {name: [CARDS[index]] for index, name in enumerate(others)}
                answer = call(
                    "POST",
                    f"{url}/rounds",
                    json={"out": out, "hands": hands},
                    headers={"If-Match": f'"{etag}"'},
                )
                answers.append(answer)
                if answer.status_code == 201:
                    etag = answer.json()["etag"]
            return answers

        return saves

    every = at_once(*(phone(url, seats, etag) for url, seats, etag in matches))
    codes = Counter(answer.status_code for answers in every for answer in answers)
    # Each phone saves into its own match: nothing to refuse.
    assert codes == {201: 4 * SAVES}, [a.text for answers in every for a in answers]
    with engine.connect() as connection:
        assert aggregates.compare(connection) == []
        assert summary.check(connection) == []
        stored = connection.execute(
            sa.select(aggregates.TABLE_MONTHS.c.matches, aggregates.TABLE_MONTHS.c.finished)
        ).all()
        played = connection.execute(
            sa.select(sa.func.sum(aggregates.PLAYER_MONTHS.c.rounds)).where(
                aggregates.PLAYER_MONTHS.c.rules == "rummy"
            )
        ).scalar()
    # Four matches played this month; each saw SAVES rounds with 3, 2, 2 and 2 players seated.
    assert sum(matches for matches, _finished in stored) == 4
    assert played == SAVES * (3 + 2 + 2 + 2)
