"""The web shows the engine's standings and score-sheet rows: results card, score sheet, CSV,
API.  The matches are those of tests/test_standings.py; every order is derived by hand there
from RULES.md (a pool by elimination, contract lowest first, 500 Rum highest first)."""

from __future__ import annotations

import csv
import io
import json
import re

from test_standings import CONTRACT_DEALS, POOL_WITH_REJOIN, POOL_WITHOUT_REJOIN

from .helpers import errors, text

PLAYED = "2026-03-05T19:10:00+00:00"


def match(rules: str, players: list[str], rounds: list[dict], **extra: object) -> dict:
    return {
        "rules": rules,
        "options": {},
        "players": players,
        "rounds": rounds,
        "started": "2026-03-05T19:00:00+00:00",
        "played": [PLAYED] * len(rounds),
        **extra,
    }


POOL = ["Siti", "Andi", "Budi"]
RUMMY500_ROUND = {
    # rummy500-points-only: Budi 0 - 40 = -40, Siti 30 - 12 = 18, Andi 25 - 0 = 25.
    "table": [{"by": "Siti", "cards": ["10H", "JH", "QH"], "layoffs": {"Andi": ["KH", "AH"]}}],
    "out": "Andi",
    "hands": {"Budi": 40, "Siti": 12},
}
TABLE = {
    "format": "referee-table/1",
    "name": "Meja Kamis",
    "players": [],
    "matches": [
        match("indian", POOL, POOL_WITH_REJOIN, first_dealer="Siti"),
        match("contract", ["Budi", "Siti", "Andi"], CONTRACT_DEALS),
        match("rummy500", ["Budi", "Siti", "Andi"], [RUMMY500_ROUND]),
        match("indian", POOL, POOL_WITHOUT_REJOIN[:2], first_dealer="Siti"),
    ],
}


def imported(client) -> str:
    client.submit("/language", {"lang": "en", "next": "/"})
    response = client.submit("/tables/import", {"document": json.dumps(TABLE)})
    assert response.status_code == 302, errors(response)
    return response.headers["Location"]


def card_lines(client, table: str, number: int) -> list[str]:
    page = client.get(f"{table}m/{number}/results")
    assert page.status_code == 200
    body = page.text
    start = body.index("<textarea")
    block = body[body.index(">", start) + 1 : body.index("</textarea>", start)]
    lines = block.replace("&#39;", "'").splitlines()
    return [line for line in lines if re.match(r"(🏆|\d+\.) ", line)]


def test_results_cards_rank_in_each_games_order(client):
    table = imported(client)
    # Pool: Siti won; Budi went out after deal 4 with 106, Andi after deal 3 with 107.
    assert card_lines(client, table, 1) == [
        "🏆 Siti 45",
        "2. Budi 106 (out of the pool after round 4)",
        "3. Andi 107 (out of the pool after round 3)",
    ]
    # Contract: lowest first, Siti 52, Budi 58, Andi 62.
    assert card_lines(client, table, 2) == ["🏆 Siti 52", "2. Budi 58", "3. Andi 62"]
    # 500 Rum after one round: highest first.
    assert card_lines(client, table, 3) == ["1. Andi 25", "2. Siti 18", "3. Budi -40"]


def test_a_pool_leader_is_never_a_player_out(client):
    table = imported(client)
    board = client.get(f"{table}m/4/")
    assert board.status_code == 200
    # After deal 2: Siti 25 and Budi 46 are in, Andi 119 is out: Siti leads.
    assert "In the lead: Siti" in text(board)
    key = table.split("/t/")[1].strip("/")
    body = client.get(f"/api/v1/t/{key}/m/4").get_json()
    assert body["leaders"] == ["Siti"]
    assert [(s["place"], s["player"], s["out_after"]) for s in body["standings"]] == [
        (1, "Siti", None),
        (2, "Budi", None),
        (3, "Andi", 2),
    ]


def test_a_rejoin_is_a_row_of_the_sheet_not_a_bonus(client):
    table = imported(client)
    page = text(client.get(f"{table}m/1/"))
    assert "Andi comes back into the pool at 47" in page
    assert "Match-end bonuses" not in page
    rows = list(
        csv.reader(io.StringIO(client.get(f"{table}m/1/export.csv").data.decode("utf-8-sig")))
    )
    assert ["Before round 3", "", "rejoin", "", "", "comes back", "", "", "47", ""] in rows
    third = next(row for row in rows if row[0] == "3")
    assert third[-3:] == ["45", "107", "46"]  # Andi from 47, not from 119
    assert not any(row[0] == "Match-end bonuses" for row in rows)
    assert rows[-1][4:7] == ["45", "107", "106"]


def ratings_order(client, finished: dict) -> list[str]:
    document = {"format": "referee-table/1", "name": "Meja", "players": [], "matches": [finished]}
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    page = client.get(response.headers["Location"] + "stats").text
    part = page.split('class="sheet ratings"')[1].split("</table>")[0]
    rated = re.findall(r'<tr data-rated="([^"]+)" data-rating="([\d.-]+)">', part)
    return [name for name, _ in sorted(rated, key=lambda row: -float(row[1]))]


def test_ratings_take_a_pools_elimination_order(client):
    # Siti won; Budi went out after Andi: Siti, Budi, Andi.
    pool_match = match("indian", POOL, POOL_WITH_REJOIN, first_dealer="Siti")
    assert ratings_order(client, pool_match) == ["Siti", "Budi", "Andi"]


def test_ratings_take_contracts_lowest_total_first(client):
    # Siti 52 won; Budi 58 before Andi 62.
    contract_match = match("contract", ["Budi", "Siti", "Andi"], CONTRACT_DEALS)
    assert ratings_order(client, contract_match) == ["Siti", "Budi", "Andi"]


def imported_table(client, *matches: dict) -> str:
    document = {"format": "referee-table/1", "name": "M", "players": [], "matches": list(matches)}
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    return response.headers["Location"]


def stats_cells(client, table: str, player: str) -> list[str]:
    page = client.get(table + "stats").text
    row = page.split(f'<tr data-player="{player}">')[1].split("</tr>")[0]
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    ]


def test_contract_statistics_show_the_lowest_penalty_as_best_round(client):
    # In contract the player who goes out scores 0, so points per round won would say
    # nothing: the figure is not shown; the best round is the lowest penalty.  Siti went out
    # in deals 1, 4, 6: her best round is 0, first in deal 1 (her scores 0, 25, 4, 0, 8, 0, 15).
    client.submit("/language", {"lang": "en", "next": "/"})
    table = imported_table(client, match("contract", ["Budi", "Siti", "Andi"], CONTRACT_DEALS))
    # matches, won, win rate, rounds, rounds won, best round
    assert stats_cells(client, table, "Siti")[:6] == [
        "1",
        "1",
        "100%",
        "7",
        "3",
        "0 (#1, round 1)",
    ]


def stats_section(page: str, rules: str) -> str:
    return page.split(f'<section class="stats-group" data-rules="{rules}">')[1].split("</section>")[
        0
    ]


def test_points_per_round_won_only_where_the_winner_of_a_round_scores(client):
    # RULES.md: in contract the lowest total wins and whoever goes out scores 0; in 500 Rum
    # the highest total wins and Andi's one round won scored 25 (RUMMY500_ROUND): 25.0.
    client.submit("/language", {"lang": "en", "next": "/"})
    table = imported_table(
        client,
        match("contract", ["Budi", "Siti", "Andi"], CONTRACT_DEALS),
        match("rummy500", ["Budi", "Siti", "Andi"], [RUMMY500_ROUND]),
    )
    page = client.get(table + "stats").text
    assert "Points per round won" not in stats_section(page, "contract")
    assert "Points per round won" in stats_section(page, "rummy500")
    # matches, won, win rate, rounds, rounds won, points per round won, best round
    andi = stats_section(page, "rummy500").split('<tr data-player="Andi">')[1].split("</tr>")[0]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", andi)]
    assert cells[3:7] == ["1", "1", "25.0", "25 (#2, round 1)"]
    andi_id = re.search(r'/players/(\d+)">Andi<', page)
    assert andi_id
    player_page = client.get(f"{table}players/{andi_id.group(1)}").text
    assert 'data-figure="points_per_round_won"' not in stats_section(player_page, "contract")
    assert 'data-figure="points_per_round_won">25.0<' in stats_section(player_page, "rummy500")


def test_contract_best_round_of_a_player_who_never_went_out(client):
    # Deals 1, 3 and 4 of CONTRACT_DEALS: Siti, Budi, Siti go out; Andi holds 20, 3, 2.
    # His best round is the lowest, 2 in round 3 (the highest, 20, is his worst).
    client.submit("/language", {"lang": "en", "next": "/"})
    rounds = [CONTRACT_DEALS[0], CONTRACT_DEALS[2], CONTRACT_DEALS[3]]
    table = imported_table(client, match("contract", ["Budi", "Siti", "Andi"], rounds))
    assert stats_cells(client, table, "Andi")[5] == "2 (#1, round 3)"  # no points per round won


def test_contract_head_to_head_puts_the_lower_total_ahead(client):
    # Siti 52 won, Andi 62 came last: Siti finished ahead of Andi, not he of her.
    client.submit("/language", {"lang": "en", "next": "/"})
    table = imported_table(client, match("contract", ["Budi", "Siti", "Andi"], CONTRACT_DEALS))
    page = client.get(table + "head-to-head", query_string={"first": "Siti", "second": "Andi"})
    part = page.text.split('<tbody data-rules="contract">')[1].split("</tbody>")[0]
    assert re.findall(r'data-figure="ahead">(\d+)<', part) == ["1", "0"]


def test_the_round_form_names_the_dealer_after_the_rejoin_it_asks_for(client):
    # Budi deals first (Siti, Andi, Budi).  D1 (Budi): Siti shows; Andi 60, Budi 10.  D2 (Siti):
    # Budi shows; Andi 110, out; Siti 10.  The deal passes from Siti to Budi, Andi skipped;
    # with Andi back (at 10 + 1 = 11) it passes to Andi, at Siti's left.
    rounds = [
        {"cut": "3C", "show": "Siti", "hands": {"Andi": 60, "Budi": 10}},
        {"cut": "3C", "show": "Budi", "hands": {"Andi": 50, "Siti": 10}},
    ]
    pool_match = match("indian", POOL, rounds, first_dealer="Budi")
    document = {"format": "referee-table/1", "name": "M", "players": [], "matches": [pool_match]}
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    form = response.headers["Location"] + "m/1/rounds/new"
    client.submit("/language", {"lang": "en", "next": "/"})
    assert "Dealer: Budi" in text(client.get(form))
    asked = text(client.get(form + "?rejoin=Andi"))
    assert "Andi rejoins before this deal, at 11" in asked
    assert "Dealer: Andi" in asked


def test_a_departure_that_leaves_one_player_in_a_pool_ends_it(client):
    # Pool 101, Siti deals first.  D1 (Siti): Andi shows wrongly (80), Budi drops first (20).
    # D2 (Andi): Andi drops midway (120, out), Budi first (40).  Budi leaves: Siti, the only
    # player left in the pool, wins; Andi may not rejoin and no deal 3 is asked for.
    rounds = [
        {"cut": "5H", "wrong_shows": ["Andi"], "drops": {"Budi": "first"}},
        {"cut": "9S", "drops": {"Andi": "middle", "Budi": "first"}},
    ]
    pool_match = match("indian", POOL, rounds, first_dealer="Siti")
    document = {"format": "referee-table/1", "name": "M", "players": [], "matches": [pool_match]}
    response = client.submit("/tables/import", {"document": json.dumps(document)})
    assert response.status_code == 302, errors(response)
    client.submit("/language", {"lang": "en", "next": "/"})
    board = response.headers["Location"] + "m/1/"
    left = client.submit(board + "seating/leave", {"leave-player": "Budi"}, page=board + "seating")
    assert left.status_code == 302, errors(left)
    page = text(client.get(board))
    assert "Budi leaves the table with 40 points; the match is over: Siti won." in page
    assert "Winner: Siti" in page
    assert "Rejoin at" not in page
    refused = client.get(board + "rounds/new?rejoin=Andi")
    assert refused.status_code != 500  # the match is over: no deal form to fill
    assert card_lines(client, response.headers["Location"], 1) == [
        "🏆 Siti 0",
        "2. Budi 40 (left before round 3)",
        "3. Andi 120 (out of the pool after round 2)",
    ]
