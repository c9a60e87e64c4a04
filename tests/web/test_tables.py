"""Card tables: creating one, its two links, players, the home page, statistics."""

from __future__ import annotations

import re

import pytest

from referee.web.store.models import Player

from .helpers import (
    errors,
    new_match,
    new_table,
    save_round,
    stored_count,
    text,
    to_english,
    view_url,
)

PLAYERS = ["Budi", "Siti", "Andi"]


def test_home_page_offers_to_create_a_table(client):
    response = client.get("/")
    assert response.status_code == 200
    assert 'name="csrf_token"' in response.text
    assert "/tables" in response.text


def test_create_table_redirects_to_its_edit_link(client):
    url = new_table(client, players="")
    assert url.startswith("/t/") and len(url.split("/")[2]) >= 32
    page = client.get(url)
    assert page.status_code == 200
    assert "Meja" in text(page)


def test_create_table_without_a_name_is_refused_and_saves_nothing(client):
    response = client.submit("/tables", {"name": "   "})
    assert response.status_code == 400
    assert errors(response)
    assert "/t/" not in client.get("/").text


def test_create_table_with_a_too_long_name_keeps_what_was_typed(client):
    response = client.submit("/tables", {"name": "x" * 81})
    assert response.status_code == 400
    assert "x" * 81 in response.text


def test_home_lists_the_tables_this_browser_opened(client):
    url = new_table(client, name="Meja Jumat")
    home = text(client.get("/"))
    assert "Meja Jumat" in home and url in home


def test_another_browser_does_not_see_the_table_on_its_home(client, app):
    new_table(client, name="Rahasia")
    other = app.test_client()
    assert "Rahasia" not in text(other.get("/"))


def test_view_link_shows_the_table_read_only(client):
    url = new_table(client)
    view = view_url(client, url)
    page = client.get(view)
    assert page.status_code == 200
    players = page.text.split('id="players"')[1].split("</section>")[0]
    # The players are listed, and nothing in their section can add one.
    assert re.findall(r'<span class="chip">([^<]+)</span>', players) == ["Andi", "Budi", "Siti"]
    assert "<form" not in players and 'name="names"' not in players
    assert 'action="' + view + 'players"' not in page.text
    response = client.submit(view + "players", {"names": "Eka"})
    assert response.status_code == 404


def test_view_link_cannot_start_a_match(client):
    view = view_url(client, new_table(client))
    assert client.get(view + "new").status_code == 404
    assert client.get(view + "new/remi").status_code == 404


def test_a_wrong_key_is_not_found(client):
    new_table(client)
    assert client.get("/t/not-a-key/").status_code == 404
    assert client.get("/v/not-a-key/").status_code == 404
    assert client.get("/x/whatever/").status_code == 404


def test_one_tables_link_does_not_reach_another_tables_match(client):
    first = new_table(client, name="Satu")
    second = new_table(client, name="Dua")
    match = new_match(client, first, "remi", ["Budi", "Siti"])
    match_id = match.rstrip("/").split("/")[-1]
    assert client.get(f"{second}m/{match_id}/").status_code == 404
    assert client.get(f"{second}m/{match_id}/export").status_code == 404
    assert client.submit(f"{second}m/{match_id}/rounds/undo").status_code == 404


def test_add_players_one_per_line_or_comma(client):
    url = new_table(client, players="")
    response = client.submit(url + "players", {"names": "Budi\nSiti, Andi"})
    assert response.status_code == 302
    page = text(client.get(url))
    for name in ("Budi", "Siti", "Andi"):
        assert f'<span class="chip">{name}</span>' in page


def test_add_a_player_who_is_already_there_is_refused(client):
    url = new_table(client)
    response = client.submit(url + "players", {"names": "Eka, budi"})
    assert response.status_code == 400
    assert any("budi" in message for message in errors(response))
    assert "Eka" not in text(client.get(url))


def test_add_players_twice_in_one_go_is_refused(client):
    url = new_table(client, players="")
    response = client.submit(url + "players", {"names": "Eka, Eka"})
    assert response.status_code == 400
    assert errors(response)


def test_add_a_player_with_a_too_long_name_is_refused(client):
    url = new_table(client, players="")
    response = client.submit(url + "players", {"names": "E" * 41})
    assert response.status_code == 400
    assert "E" * 41 in response.text


def test_add_no_player_is_refused(client, app):
    url = new_table(client, players="")
    assert client.submit(url + "players", {"names": " , "}).status_code == 400
    assert stored_count(app, Player) == 0


def test_table_page_lists_matches_newest_first_with_winners(client):
    url = new_table(client)
    # Siti's hand counts 10 x 4 + 9 + 2 = 51: past the target 50 (the least RULES.md allows).
    first = new_match(client, url, "remi", ["Budi", "Siti"], target="custom", custom_target=50)
    siti = {"Siti": "KH QH JH 10H 9H 2C"}
    save_round(client, first, ["Budi", "Siti"], siti, ending="out", player="Budi")
    second = new_match(client, url, "gin", ["Siti", "Andi"])
    page = text(client.get(url))
    assert page.index(second) < page.index(first)
    assert "Budi" in page.split(first)[1].split("</li>")[0]


def test_statistics_per_table(client):
    url = new_table(client)
    players = ["Budi", "Siti"]
    match = new_match(client, url, "remi", players, target="custom", custom_target=50)
    # Budi 20 (KH QH), Siti 5 (5C), Budi 32 (JD QD KD 2C): Budi 52 >= 50 wins.
    save_round(client, match, players, {"Siti": "KH QH"}, ending="out", player="Budi")
    save_round(client, match, players, {"Budi": "5C"}, ending="out", player="Siti")
    save_round(client, match, players, {"Siti": "JD QD KD 2C"}, ending="out", player="Budi")
    new_match(client, url, "gin", ["Siti", "Andi"])
    page = client.get(url + "stats")
    assert page.status_code == 200
    budi = text(page).split('<tr data-player="Budi">')[1].split("</tr>")[0]
    cells = [c.split("<")[0].strip() for c in budi.split("<td>")[1:]]
    # matches, won, win rate, rounds, rounds won, points per round won, best round
    assert cells[:6] == ["1", "1", "100%", "3", "2", "26.0"]  # (20 + 32) / 2
    assert cells[6].startswith("32")
    # the gin match was never played: only the remi players are listed
    assert text(client.get(view_url(client, url) + "stats")).count("<tr data-player=") == 2


@pytest.fixture
def table(client):
    return new_table(client)


def test_table_links_have_copy_buttons(client, table):
    page = client.get(table).text
    assert page.count("data-copy") == 2


TWO = ["Budi", "Siti"]


def test_the_table_pages_replay_each_match_once(client, monkeypatch):
    to_english(client)
    from referee.web.store import matchlog

    calls = []
    engine = matchlog.replay
    monkeypatch.setattr(
        matchlog, "replay", lambda doc, **how: calls.append(1) or engine(doc, **how)
    )
    matchlog.REPLAYS.clear()
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    calls.clear()  # saving replays the match to check it, and for its stored summary
    for url in (table, table + "stats", match, match + "rounds/1", table):
        assert client.get(url).status_code == 200
    assert len(calls) == 0  # the score sheet reuses the replay made for the summary
    matchlog.REPLAYS.clear()
    for url in (table, table + "stats", table + "matches"):
        assert client.get(url).status_code == 200
    assert len(calls) == 0  # the list and the statistics read the stored summaries
    for url in (match, match + "rounds/1", match):
        assert client.get(url).status_code == 200
    assert len(calls) == 1
