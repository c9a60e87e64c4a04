"""Statistics, a player's page and head-to-head, against figures worked out by hand.

The table is ``history_fixture.TABLE``: eight matches across the five rulesets,
each round's score derived in the comments there.  Below, each expected figure
is added up from those round scores.  Every page reads the stored summaries.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from .helpers import errors, new_match, new_table, save_round, text, to_english
from .history_fixture import TABLE


@pytest.fixture
def table(client) -> str:
    response = client.submit("/tables/import", {"document": json.dumps(TABLE)})
    assert response.status_code == 302, errors(response)
    return response.headers["Location"]


def section(page: str, rules: str) -> str:
    found = re.search(
        rf'<section class="stats-group" data-rules="{rules}">(.*?)</section>', page, re.S
    )
    assert found, f"no section for {rules}"
    return found.group(1)


def stats_rows(page: str, rules: str) -> dict[str, list[str]]:
    """Each player's cells in a ruleset's table: name -> [matches, won, win rate, ...]."""
    rows = {}
    for name, cells in re.findall(
        r'<tr data-player="([^"]+)">(.*?)</tr>', section(page, rules), re.S
    ):
        rows[html.unescape(name)] = [
            re.sub(r"<[^>]+>", "", html.unescape(cell)).strip()
            for cell in re.findall(r"<td>(.*?)</td>", cells, re.S)
        ]
    return rows


def figures(part: str) -> dict[str, str]:
    return {
        name: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.unescape(value))).strip()
        for name, value in re.findall(r'<dd data-figure="([^"]+)">(.*?)</dd>', part, re.S)
    }


def player_id(client, table: str, name: str) -> int:
    page = client.get(table + "stats").text
    found = re.search(rf'/players/(\d+)">{name}<', page)
    assert found
    return int(found.group(1))


def english(client) -> None:
    client.submit("/language", {"lang": "en", "next": "/"})


def test_table_statistics_per_ruleset(client, table):
    english(client)
    page = client.get(table + "stats").text
    # Played (a round that is not void): M1-M6; M7 (void only) and M8 (no round) do not count.
    # Finished: M1, M2, M4, M5, M6 (M3 goes on).
    assert "6 matches played, 5 finished." in page
    # Columns: matches, won, win rate, rounds, rounds won, points per round won, best round,
    # then remi's "out at once".
    remi = stats_rows(page, "remi")
    # Budi: M1 rounds 1, 2, 4 (3 is void) won 1 and 4 with 22 + 30; M6 round 1 won with 50.
    # 2 matches, both won; 4 rounds, 3 won; (22 + 30 + 50) / 3 = 34.0; best 50 in M6 round 1.
    assert remi["Budi"][:6] == ["2", "2", "100%", "4", "3", "34.0"]
    assert remi["Budi"][6].startswith("50 (#6, round 1)")
    assert remi["Budi"][7] == "0"
    # Siti: M1 won round 2 only (24, all at once), M6 nothing; 2 matches, none won.
    assert remi["Siti"] == ["2", "0", "0%", "4", "1", "24.0", "24 (#1, round 2)", "1"]
    # Andi: M1 only, never won a round: no points per round won; best 0 (round 1, the first).
    assert remi["Andi"] == ["1", "0", "0%", "3", "0", "–", "0 (#1, round 1)", "0"]
    # rummy (M2): Siti went rummy for 80, Budi took round 2 for 3; Siti won on the 2 hands.
    rummy = stats_rows(page, "rummy")
    assert rummy["Siti"] == ["1", "1", "100%", "2", "1", "80.0", "80 (#2, round 1)", "1"]
    assert rummy["Budi"] == ["1", "0", "0%", "2", "1", "3.0", "3 (#2, round 2)", "0"]
    # remi-indonesia (M3, not finished: no win rate).  Budi 95 - 20 = 75 over 2 rounds, won
    # round 1 (95); Siti -10 + 180 = 170, won round 2 (180); Andi -15 + 0, best 0 in round 2.
    indonesia = stats_rows(page, "remi-indonesia")
    assert indonesia["Budi"] == ["1", "0", "–", "2", "1", "95.0", "95 (#3, round 1)"]
    assert indonesia["Siti"] == ["1", "0", "–", "2", "1", "180.0", "180 (#3, round 2)"]
    assert indonesia["Andi"] == ["1", "0", "–", "2", "0", "–", "0 (#3, round 2)"]
    # manipulation (M4): Siti won both rounds (40, then 11 by undercut): (40 + 11) / 2 = 25.5;
    # Dewi knocked once and was undercut.  Columns add knocks, then undercuts made / against.
    manipulation = stats_rows(page, "manipulation")
    assert manipulation["Siti"] == [
        "1",
        "1",
        "100%",
        "2",
        "2",
        "25.5",
        "40 (#4, round 1)",
        "1",
        "1 / 0",
    ]
    assert manipulation["Dewi"] == ["1", "0", "0%", "2", "0", "–", "0 (#4, round 1)", "1", "0 / 1"]
    # gin (M5): Budi gin for 71 (a knock too), then knocked and was undercut; Andi undercut
    # for 31, knocked for 78.  Columns: knocks, gins made / against, undercuts made / against.
    gin = stats_rows(page, "gin")
    assert gin["Andi"] == [
        "1",
        "1",
        "100%",
        "3",
        "2",
        "54.5",
        "78 (#5, round 3)",
        "1",
        "0 / 1",
        "1 / 0",
    ]
    assert gin["Budi"] == [
        "1",
        "0",
        "0%",
        "3",
        "1",
        "71.0",
        "71 (#5, round 1)",
        "2",
        "1 / 0",
        "0 / 1",
    ]
    # Best rounds link to the round itself.
    assert "/m/5/rounds/3" in section(page, "gin")


def test_a_players_page(client, table):
    english(client)
    budi = player_id(client, table, "Budi")
    page = client.get(f"{table}players/{budi}").text
    overall = figures(page.split('class="player-overall"')[1].split("</section>")[0])
    # Budi counted matches: M1, M6 (remi), M2 (rummy), M3 (remi-indonesia), M5 (gin) = 5; won
    # M1 and M6; finished M1, M2, M5, M6 = 4: 2 / 4 = 50%.  Rounds 4 + 2 + 2 + 3 = 11, won
    # 3 + 1 + 1 + 1 = 6.  Finished matches in order: M1 won, M2 lost, M5 lost, M6 won: the
    # longest run of wins is 1.  Last played: M6, 13 June.
    assert overall == {
        "matches": "5",
        "won": "2",
        "win_rate": "50%",
        "rounds": "11",
        "rounds_won": "6",
        "longest_streak": "1",
        "last_played": "2026-06-13",
    }
    remi = figures(section(page, "remi"))
    # In remi alone M1 and M6 are both won: a streak of 2.
    assert remi["matches"] == "2" and remi["finished"] == "2" and remi["won"] == "2"
    assert remi["longest_streak"] == "2" and remi["points_per_round_won"] == "34.0"
    assert remi["best_round"].startswith("50") and remi["at_once"] == "0"
    assert "knocks" not in remi
    gin = figures(section(page, "gin"))
    assert gin["knocks"] == "2" and gin["gins"] == "1 / 0" and gin["undercuts"] == "0 / 1"
    assert gin["last_played"] == "2026-05-09" and gin["longest_streak"] == "0"
    # Results over time: one match a month (Jan, Feb, Mar, May, Jun), won in Jan and Jun.
    table_part = page.split('class="chart-table"')[1].split("</table>")[0]
    periods = re.findall(
        r'<th scope="row">([^<]+)</th><td class="num">(\d+)</td><td class="num">(\d+)</td>',
        table_part,
    )
    assert periods == [
        ("2026-01", "1", "1"),
        ("2026-02", "1", "0"),
        ("2026-03", "1", "0"),
        ("2026-05", "1", "0"),
        ("2026-06", "1", "1"),
    ]
    assert '<svg class="chart-svg"' in page and 'role="img"' in page


def test_siti_has_a_winning_streak_of_two(client, table):
    siti = player_id(client, table, "Siti")
    page = client.get(f"{table}players/{siti}").text
    overall = figures(page.split('class="player-overall"')[1].split("</section>")[0])
    # Siti's finished matches: M1 lost, M2 won, M4 won, M6 lost (M3 goes on, M7 is void only).
    assert overall["longest_streak"] == "2"
    # 5 matches (M1, M2, M3, M4, M6), won M2 and M4 of 4 finished; rounds 4 + 2 + 2 + 2.
    assert (overall["matches"], overall["won"], overall["win_rate"], overall["rounds"]) == (
        "5",
        "2",
        "50%",
        "10",
    )
    assert overall["rounds_won"] == "5"  # 1 + 1 + 1 + 2


def test_a_players_page_for_one_ruleset_and_period(client, table):
    budi = player_id(client, table, "Budi")
    page = client.get(f"{table}players/{budi}", query_string={"rules": "remi"}).text
    assert 'data-rules="gin"' not in page
    overall = figures(page.split('class="player-overall"')[1].split("</section>")[0])
    assert overall["matches"] == "2" and overall["longest_streak"] == "2"
    # March to May: M3 (remi-indonesia) and M5 (gin).
    page = client.get(
        f"{table}players/{budi}", query_string={"since": "2026-03-01", "until": "2026-05-31"}
    ).text
    overall = figures(page.split('class="player-overall"')[1].split("</section>")[0])
    assert overall["matches"] == "2" and overall["won"] == "0" and overall["rounds"] == "5"
    assert re.findall(r'data-rules="([^"]+)"', page) == ["remi-indonesia", "gin"]


def test_table_statistics_for_a_period(client, table):
    english(client)
    page = client.get(
        table + "stats", query_string={"since": "2026-03-01", "until": "2026-05-31"}
    ).text
    # M3 (going on), M4 and M5 (finished).
    assert "3 matches played, 2 finished." in page
    # One match each: in the order of the games menu.
    assert re.findall(r'data-rules="([^"]+)"', page) == ["remi-indonesia", "manipulation", "gin"]


def test_head_to_head(client, table):
    english(client)
    budi, siti = player_id(client, table, "Budi"), player_id(client, table, "Siti")
    page = client.get(table + "head-to-head", query_string={"first": budi, "second": siti}).text
    # Both played M1, M6 (remi), M2 (rummy), M3 (remi-indonesia): 4 matches, 3 finished.
    assert "4 matches together, 3 finished." in page

    def rows(rules):
        part = page.split(f'<tbody data-rules="{rules}">')[1].split("</tbody>")[0]
        cells = re.findall(r'data-figure="(\w+)">(-?\d+)<', part)
        found: dict[str, list[int]] = {}
        for name, value in cells:
            found.setdefault(name, []).append(int(value))
        return found

    # remi: Budi won both (52 vs 24, 50 vs 0); rounds won 2 + 1 against 1 + 0; points
    # 52 + 50 = 102 and 24.
    assert rows("remi") == {
        "won": [2, 0],
        "ahead": [2, 0],
        "rounds_won": [3, 1],
        "points": [102, 24],
    }
    # rummy: Siti won 80 to 3; one round each.
    assert rows("rummy") == {
        "won": [0, 1],
        "ahead": [0, 1],
        "rounds_won": [1, 1],
        "points": [3, 80],
    }
    # remi-indonesia goes on: nobody has won or finished ahead yet.
    assert rows("remi-indonesia") == {
        "won": [0, 0],
        "ahead": [0, 0],
        "rounds_won": [1, 1],
        "points": [75, 170],
    }
    assert rows("all") == {"won": [2, 1], "ahead": [2, 1], "rounds_won": [5, 3]}
    recent = re.findall(r"/m/(\d+)/\">", page.split("<h3>")[1])
    assert recent == ["6", "3", "2", "1"]  # newest first


def test_head_to_head_of_players_who_never_met(client, table):
    english(client)
    dewi, andi = player_id(client, table, "Dewi"), player_id(client, table, "Andi")
    page = client.get(table + "head-to-head", query_string={"first": dewi, "second": andi})
    assert page.status_code == 200
    assert "have not played a match together yet" in page.text


def test_head_to_head_needs_two_different_players(client, table):
    budi = player_id(client, table, "Budi")
    response = client.get(table + "head-to-head", query_string={"first": budi, "second": budi})
    assert response.status_code == 400 and errors(response)


def test_a_player_of_another_table_is_not_found(client, table):
    other = client.submit("/tables", {"name": "Lain"}).headers["Location"]
    budi = player_id(client, table, "Budi")
    assert client.get(f"{other}players/{budi}").status_code == 404
    assert client.get(f"{table}players/999999").status_code == 404


def test_statistics_read_no_match_log(client, table, app, monkeypatch):
    """The pages aggregate the stored summaries: no match is replayed to show them."""
    from referee.web.store import matchlog

    def refuse(*args, **kwargs):
        raise AssertionError("a statistics page replayed a match")

    monkeypatch.setattr(matchlog, "replay", refuse)
    monkeypatch.setattr(matchlog, "replayed", refuse)
    budi, siti = player_id(client, table, "Budi"), player_id(client, table, "Siti")
    for url in (
        table,
        table + "matches",
        table + "stats",
        f"{table}players/{budi}",
        f"{table}head-to-head?first={budi}&second={siti}",
    ):
        assert client.get(url).status_code == 200, url


TWO = ["Budi", "Siti"]


def stats_groups(client, url):
    """{ruleset id: {player: [cells]}} from the statistics page."""
    body = text(client.get(url + "stats"))
    groups = {}
    for part in body.split('data-rules="')[1:]:
        rules = part.split('"')[0]
        rows = {}
        for row in part.split("</section>")[0].split('<th scope="row">')[1:]:
            cells = [
                re.sub(r"<[^>]+>", "", c).strip() for c in row.split("</tr>")[0].split("<td>")[1:]
            ]
            rows[re.sub(r"<[^>]+>", "", row.split("</th>")[0])] = [c.split("<")[0] for c in cells]
        groups[rules] = rows
    return groups


def test_statistics_count_matches_played_per_ruleset(client):
    to_english(client)
    table = new_table(client)
    remi = new_match(client, table, "remi", TWO, target=200)
    save_round(client, remi, TWO, {"Siti": "KH QH"}, ending="out", player="Budi")
    new_match(client, table, "remi", TWO, target=200)  # never played
    voided = new_match(client, table, "remi", TWO, target=200)
    save_round(client, voided, TWO, {}, ending="void")
    gin = new_match(client, table, "gin", ["Siti", "Andi"], target=100)
    save_round(client, gin, ["Siti", "Andi"], {}, ending="draw")
    groups = stats_groups(client, table)
    assert set(groups) == {"remi", "gin"}
    # matches, won, win rate (none finished), rounds, rounds won, points per round won
    assert groups["remi"]["Budi"][:6] == ["1", "0", "–", "1", "1", "20.0"]
    assert "Andi" not in groups["remi"]
    # a draw is a round played that nobody won
    assert groups["gin"]["Andi"][:6] == ["1", "0", "–", "1", "0", "–"]
    page = text(client.get(table + "stats"))
    assert "2 matches played" in page and "blocked rounds and draws are rounds played" in page
