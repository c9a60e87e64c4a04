"""The match list: newest first, paged by a cursor, filtered, in a few queries whatever its size."""

from __future__ import annotations

import html
import json
import re
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from referee.web.store.extensions import db

from .helpers import errors, new_match, new_table, save_round
from .history_fixture import TABLE


def listed(page: str) -> list[int]:
    """The match ids in the list, in order."""
    part = (
        page.split('<ul class="list matches">')[1].split("</ul>")[0]
        if "list matches" in page
        else ""
    )
    return [int(found) for found in re.findall(r'/m/(\d+)/"', part)]


def a_table(count: int) -> dict:
    """A table of ``count`` remi matches of one round each, the n-th played on day n."""
    matches = []
    for n in range(count):
        day = f"2025-{1 + n // 28:02d}-{1 + n % 28:02d}T20:00:00+00:00"
        winner, loser = ("Budi", "Siti") if n % 2 else ("Siti", "Budi")
        matches.append(
            {
                "rules": "remi",
                "players": ["Budi", "Siti"],
                "rounds": [{"out": winner, "hands": {loser: ["KH"]}}],
                "started": day,
                "played": [day],
            }
        )
    return {"format": "referee-table/1", "name": "Meja", "players": [], "matches": matches}


def imported(client, document: dict) -> str:
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    return response.headers["Location"]


@contextmanager
def statements(app):
    """Count the SQL statements sent while the block runs."""
    sent: list[str] = []

    def count(conn, cursor, statement, *args):
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def test_pages_of_twenty_newest_first(client):
    table = imported(client, a_table(45))
    first = client.get(table + "matches").text
    # Imported in order, match n+1 played on day n: newest (45) first.
    assert listed(first) == list(range(45, 25, -1))
    older = re.search(r'rel="next" href="([^"]+)"', first).group(1).replace("&amp;", "&")
    second = client.get(older).text
    assert listed(second) == list(range(25, 5, -1))
    third = client.get(
        re.search(r'rel="next" href="([^"]+)"', second).group(1).replace("&amp;", "&")
    ).text
    assert listed(third) == [5, 4, 3, 2, 1] and 'rel="next"' not in third
    back = re.search(r'rel="prev" href="([^"]+)"', third).group(1).replace("&amp;", "&")
    assert listed(client.get(back).text) == list(range(25, 5, -1))


def test_the_table_page_shows_the_ten_newest(client):
    table = imported(client, a_table(12))
    page = client.get(table).text
    assert listed(page) == list(range(12, 2, -1))
    assert table + "matches" in page


def test_filters(client):
    table = imported(client, TABLE)
    players = dict(
        (name, int(pid))
        for pid, name in re.findall(
            r'<option value="(\d+)">([^<]+)</option>', client.get(table + "matches").text
        )
    )

    def ids(**query):
        response = client.get(table + "matches", query_string=query)
        assert response.status_code == 200, errors(response)
        return listed(response.text)

    # The fixture's matches M1..M8 were played one a month, January to August (M8 set up only).
    assert ids() == [8, 7, 6, 5, 4, 3, 2, 1]
    assert ids(player=players["Dewi"]) == [8, 4]
    assert ids(rules="gin") == [8, 5]
    assert ids(state="playing") == [8, 7, 3]
    assert ids(state="finished") == [6, 5, 4, 2, 1]
    assert ids(since="2026-03-01", until="2026-05-31") == [5, 4, 3]
    assert ids(until="2026-01-31") == [1]
    assert ids(player=players["Andi"], state="finished") == [5, 1]
    # Filters are kept in the links to the other pages, and shown.
    page = client.get(table + "matches", query_string={"rules": "gin"}).text
    assert '<option selected value="gin">' in page or 'value="gin" selected' in page


def test_filters_that_find_nothing(client):
    table = imported(client, TABLE)
    client.submit("/language", {"lang": "en", "next": "/"})
    page = client.get(table + "matches", query_string={"since": "2027-01-01"}).text
    assert listed(page) == [] and "No match fits these filters." in page


@pytest.mark.parametrize(
    "query",
    [
        {"since": "31/03/2026"},
        {"until": "2026-02-30"},
        {"since": "2026-05-01", "until": "2026-04-01"},
    ],
)
def test_a_bad_date_is_named_and_the_rest_still_lists(client, query):
    table = imported(client, TABLE)
    client.submit("/language", {"lang": "en", "next": "/"})
    response = client.get(table + "matches", query_string=query)
    assert response.status_code == 400
    assert any("date" in message or "period" in message for message in errors(response))


@pytest.mark.parametrize(
    "cursor", ["x", "1.", ".1", "9" * 40 + ".1", "9" * 18 + ".1", "-5.3", "１.2", "1.2.3"]
)
def test_a_garbled_cursor_shows_the_first_page(client, cursor):
    table = imported(client, a_table(3))
    response = client.get(table + "matches", query_string={"before": cursor, "after": cursor})
    assert response.status_code == 200 and listed(response.text) == [3, 2, 1]


def test_the_view_link_lists_too(client):
    from .helpers import view_url

    table = new_table(client)
    match = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, match, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    view = view_url(client, table)
    page = client.get(view + "matches").text
    assert listed(page) == [1] and "/v/" in page and "/t/" not in page.split("<main>")[1]


def test_a_page_costs_the_same_few_queries_with_more_matches(client, app):
    small = imported(client, a_table(25))
    big = imported(client, a_table(120))
    counts = []
    for table in (small, big):
        client.get(table + "matches")  # warm
        with statements(app) as sent:
            assert client.get(table + "matches").status_code == 200
        counts.append(len(sent))
    assert counts[0] == counts[1] <= 10, counts
    for table in (small, big):
        with statements(app) as sent:
            assert client.get(table).status_code == 200
        assert len(sent) <= 10


def test_history_pages_need_no_inline_style_or_script(client):
    """The pages work under a Content-Security-Policy without 'unsafe-inline'."""
    table = imported(client, TABLE)
    page = client.get(table + "stats").text
    budi = re.search(r'/players/(\d+)">Budi<', page).group(1)
    siti = re.search(r'/players/(\d+)">Siti<', page).group(1)
    for url in (
        table,
        table + "matches",
        table + "stats",
        f"{table}players/{budi}",
        f"{table}head-to-head?first={budi}&second={siti}",
        table + "m/1/results",
        table + "m/1/card.svg",
        "/tables/import",
    ):
        body = client.get(url).text
        assert "style=" not in body and "<style" not in body, url
        assert not re.search(r"<script(?![^>]*\bsrc=)", body), url
    scoreboard = client.get(table + "m/1/").text
    mine = scoreboard.split('<section class="chart-box">')[1].split('<p class="muted">')[0]
    assert "style=" not in mine and "<script" not in mine


def test_a_shared_link_may_name_the_player(client):
    """``?player=Andi+Pratama`` filters like the player's id; case and spacing are the
    player's own (``name_key``), and the list's dropdown shows the player chosen."""
    table = new_table(client, players="Budi, Siti, Andi Pratama")
    alone = new_match(client, table, "remi", ["Budi", "Siti"], target=100)
    save_round(client, alone, ["Budi", "Siti"], {"Siti": "KH"}, ending="out", player="Budi")
    both = new_match(client, table, "remi", ["Andi Pratama", "Siti"], target=100)
    save_round(client, both, ["Andi Pratama", "Siti"], {"Siti": "KH"}, ending="out", player="Siti")
    client.submit("/language", {"lang": "en", "next": "/"})
    for name in ("Andi Pratama", "andi  pratama", " ANDI PRATAMA "):
        response = client.get(table + "matches", query_string={"player": name})
        assert response.status_code == 200, errors(response)
        assert listed(response.text) == [2], name
        assert re.search(r'<option selected value="\d+">Andi Pratama<', response.text)
    assert listed(client.get(table + "matches?player=Siti").text) == [2, 1]
    rivalry = client.get(table + "head-to-head", query_string={"first": "siti", "second": "Budi"})
    assert rivalry.status_code == 200 and "Siti against Budi" in rivalry.text


def test_a_name_that_is_nobodys_is_said_in_words(client):
    table = imported(client, TABLE)
    client.submit("/language", {"lang": "en", "next": "/"})
    response = client.get(table + "matches", query_string={"player": "Andi Pratama"})
    assert response.status_code == 200
    assert listed(response.text) == []
    assert "No player of this table is called “Andi Pratama”" in html.unescape(response.text)
    assert "Not a valid choice" not in response.text
    long = client.get(table + "head-to-head", query_string={"first": "x" * 200, "second": "Budi"})
    notice = re.search(r'class="flash error" role="status">([^<]+)<', long.text).group(1)
    assert long.status_code == 200 and "x" * 37 + "..." in notice and "x" * 41 not in notice
