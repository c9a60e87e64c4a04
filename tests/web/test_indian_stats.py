"""Indian rummy's statistics: valid shows, wrong shows, drops, eliminations and rejoins.

One table of Budi, Siti and Andi, two pool 101 matches (drops 20/40, wrong show 80), the
counts derived by hand from RULES.md (indian) deal by deal:

Match A, entered through the deal form (Budi deals first):
- D1: Siti shows (valid); Budi counts 30; Andi drops in the middle (40).
  Totals Budi 30, Siti 0, Andi 40.
- D2: Budi drops first (20), Andi shows wrongly (80): Siti is the last one in and wins the
  deal without a show.  Totals Budi 50, Siti 0, Andi 120: Andi reaches 101, out.
- D3: Andi rejoins (nobody still in is above 79) at 50 + 1 = 51.  Budi shows (valid);
  Siti counts 60, Andi 10.  Totals Budi 50, Siti 60, Andi 61.
- D4: Budi shows wrongly (80), Andi drops first (20): Siti is left.  Totals Budi 130
  (out), Siti 60, Andi 81: two players still in, the match goes on.
Match A: Budi 1 valid show, 1 wrong show, 1 first drop, out once; Siti 1 valid show;
Andi 1 wrong show, 1 first drop, 1 middle drop, out once, 1 rejoin.

Match B, entered through the API:
- R1: Siti shows (valid); Budi counts 80; Andi shows wrongly (80).  Budi 80, Siti 0, Andi 80.
- R2: Andi shows (valid); Siti counts 10; Budi drops first (20).  Budi 100, Siti 10,
  Andi 80: everybody still in (below 101).
- R3: Siti shows (valid); Budi counts 5 and Andi 30: Budi 105 and Andi 110, both out in
  the same deal.  Siti is the last one in: she wins.
Match B: Budi 1 first drop, out once; Siti 2 valid shows; Andi 1 valid show, 1 wrong
show, out once.

Both matches: Budi 1 / 1 / 2 / 0 / 2 / 0 (valid shows, wrong shows, first drops, middle
drops, out of the pool, rejoins), Siti 3 / 0 / 0 / 0 / 0 / 0, Andi 1 / 2 / 1 / 1 / 2 / 1.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from referee.web.store import summary
from referee.web.store.extensions import db
from referee.web.store.models import Round

from .helpers import errors, new_match, new_table, text, to_english, totals, view_url

THREE = ["Budi", "Siti", "Andi"]
FIGURES = ["valid_shows", "wrong_shows", "first_drops", "middle_drops", "eliminations", "rejoins"]
JANUARY = datetime(2020, 1, 15, 20, 0, tzinfo=UTC)
MATCH_A = {
    "Budi": [1, 1, 1, 0, 1, 0],
    "Siti": [1, 0, 0, 0, 0, 0],
    "Andi": [0, 1, 1, 1, 1, 1],
}
MATCH_B = {
    "Budi": [0, 0, 1, 0, 1, 0],
    "Siti": [2, 0, 0, 0, 0, 0],
    "Andi": [1, 1, 0, 0, 1, 0],
}
BOTH = {
    "Budi": [1, 1, 2, 0, 2, 0],
    "Siti": [3, 0, 0, 0, 0, 0],
    "Andi": [1, 2, 1, 1, 2, 1],
}


def deal(client, match, **fields):
    data = {"ending": "show", "action": "save"} | {k: str(v) for k, v in fields.items()}
    saved = client.submit(match + "rounds/new", data)
    assert saved.status_code == 302, errors(saved)


def play_match_a(client, table: str) -> str:
    fields = {"format": "pool101", "decks": "", "wild": "y", "rejoin": "y", "deals": 2}
    match = new_match(client, table, "indian", THREE, dealer="Budi", **fields)
    deal(client, match, cut="7D", player="Siti", hand_0="30", fate_2="middle")
    deal(client, match, ending="last_in", cut="KH", fate_0="first", fate_2="wrong")
    assert totals(client.get(match)) == [50, 0, 120]
    deal(client, match, cut="4S", player="Budi", rejoin_2="y", hand_1="60", hand_2="10")
    assert totals(client.get(match)) == [50, 60, 61]
    deal(client, match, ending="last_in", cut="9C", fate_0="wrong", fate_2="first")
    assert totals(client.get(match)) == [130, 60, 81]
    return match


def play_match_b(client, table: str) -> int:
    key = table.strip("/").split("/")[-1]
    made = client.post(
        f"/api/v1/t/{key}/matches",
        json={"rules": "indian", "players": THREE, "first_dealer": "Budi"},
    )
    assert made.status_code == 201, made.json
    path, etag = f"/api/v1/t/{key}/m/{made.json['id']}", made.json["etag"]
    for body in (
        {"cut": "7D", "show": "Siti", "hands": {"Budi": 80}, "wrong_shows": ["Andi"]},
        {"cut": "7D", "show": "Andi", "hands": {"Siti": 10}, "drops": {"Budi": "first"}},
        {"cut": "2S", "show": "Siti", "hands": {"Budi": 5, "Andi": 30}},
    ):
        saved = client.post(path + "/rounds", json=body, headers={"If-Match": f'"{etag}"'})
        assert saved.status_code == 201, saved.json
        etag = saved.json["etag"]
    assert saved.json["totals"] == {"Budi": 105, "Siti": 10, "Andi": 110}
    return int(made.json["id"])


@pytest.fixture
def table(client, app) -> tuple[str, str]:
    """The table with both matches; match B played in January 2020, match A now."""
    to_english(client)
    table = new_table(client)
    match_a = play_match_a(client, table)
    match_b = play_match_b(client, table)
    with app.app_context():
        db.session.execute(
            sa.update(Round).where(Round.match_id == match_b).values(created_at=JANUARY)
        )
        db.session.commit()
        with db.engine.begin() as connection:
            summary.check(connection, fix=True)
    return table, match_a


def counts_table(page: str) -> dict[str, list[int]]:
    """The Indian section's counts, per player: [valid shows, wrong shows, ...]."""
    section = re.search(
        r'<section class="stats-group" data-rules="indian">(.*?)</section>', page, re.S
    )
    assert section, "no Indian rummy section"
    rows = {}
    for name, cells in re.findall(
        r'<tr data-indian-player="([^"]+)">(.*?)</tr>', section.group(1), re.S
    ):
        found = dict(re.findall(r'<td data-figure="([^"]+)">(\d+)</td>', cells))
        rows[html.unescape(name)] = [int(found[figure]) for figure in FIGURES]
    return rows


def player_counts(page: str) -> list[int]:
    section = re.search(
        r'<section class="stats-group" data-rules="indian">(.*?)</section>', page, re.S
    )
    assert section, "no Indian rummy section"
    found = dict(re.findall(r'<dd data-figure="([^"]+)">(\d+)</dd>', section.group(1)))
    return [int(found[figure]) for figure in FIGURES]


def player_ids(client, table: str) -> dict[str, int]:
    page = client.get(table + "stats").text
    return {name: int(pid) for pid, name in re.findall(r'/players/(\d+)[^"]*">([^<]+)<', page)}


def test_the_statistics_count_shows_drops_and_eliminations_of_both_matches(client, table):
    url, _match = table
    page = client.get(url + "stats")
    assert page.status_code == 200
    assert counts_table(page.text) == BOTH
    body = text(page)
    assert "Valid shows" in body and "Out of the pool" in body


def test_the_period_filter_keeps_only_the_matches_played_in_it(client, table):
    url, _match = table
    january = client.get(url + "stats", query_string={"since": "2020-01-01", "until": "2020-01-31"})
    assert counts_table(january.text) == MATCH_B
    later = client.get(url + "stats", query_string={"since": "2020-02-01"})
    assert counts_table(later.text) == MATCH_A
    nothing = client.get(url + "stats", query_string={"until": "2019-12-31"})
    assert 'data-rules="indian"' not in nothing.text


def test_a_players_page_shows_their_counts_within_the_period(client, table):
    url, _match = table
    ids = player_ids(client, url)
    for name, expected in BOTH.items():
        page = client.get(f"{url}players/{ids[name]}")
        assert page.status_code == 200
        assert player_counts(page.text) == expected, name
    january = client.get(
        f"{url}players/{ids['Andi']}", query_string={"since": "2020-01-01", "until": "2020-01-31"}
    )
    assert player_counts(january.text) == MATCH_B["Andi"]


def test_the_view_link_sees_the_same_counts(client, table):
    url, _match = table
    view = view_url(client, url)
    assert counts_table(client.get(view + "stats").text) == BOTH
    ids = player_ids(client, url)
    assert player_counts(client.get(f"{view}players/{ids['Budi']}").text) == BOTH["Budi"]


def test_a_new_deal_is_counted_on_the_next_view(client, table):
    """After a first view (the counts kept), match A goes on: D5, Budi out (130) is not dealt
    in; Siti shows (valid) and Andi counts 10 (91, still in).  Siti's valid shows: 3 + 1."""
    url, match = table
    assert counts_table(client.get(url + "stats").text) == BOTH
    deal(client, match, cut="5H", player="Siti", hand_2="10")
    assert totals(client.get(match)) == [130, 60, 91]
    assert counts_table(client.get(url + "stats").text)["Siti"] == [4, 0, 0, 0, 0, 0]


def test_the_counts_are_in_indonesian_too(client, table):
    url, _match = table
    client.submit("/language", {"lang": "id", "next": "/"})
    body = text(client.get(url + "stats"))
    assert "Deklarasi sah" in body and "Keluar dari pool" in body and "Mundur di tengah" in body
