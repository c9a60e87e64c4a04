"""A sixth ruleset is one module, in the web app too: the toy game of
``tests/test_sixth_ruleset.py``, registered for these tests only, goes through match
setup, quick rounds, the live round, the scoreboard, statistics and the rules page with
nothing of the web layer changed.

The toy: 2-3 players, winner takes the cards left in the other hands, x3 for going out
all at once, the round's winner deals, first to 50 wins; targets offered 30, 50, 100.
The rounds are those worked out by hand in the engine's test:

1. dealt by Ana: Ben out all at once, Ana holds 6D JH = 16, x3 = 48 for Ben;
2. dealt by Ben (the winner): Ana out, Ben holds KS QS = 20 for Ana;
3. dealt by Ana: blocked, nobody scores, the dealer stays;
4. dealt by Ana: Ben out all at once, Ana holds 2H = 2, x3 = 6: Ben 54 >= 50 wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_sixth_ruleset import TOY

from referee.rulesets import RULESETS, Ruleset, registered_ruleset

from .helpers import errors, new_match, new_table, save_round, text, totals

PLAYERS = ["Ana", "Ben"]


@pytest.fixture
def toy() -> Iterator[Ruleset]:
    with registered_ruleset(TOY) as rules:
        yield rules


@pytest.fixture
def english(client):
    client.submit("/language", {"lang": "en", "next": "/"})
    return client


def stats_row(page: str, player: str) -> list[str]:
    """The cells of a player's row in the statistics table (after the name)."""
    row = re.search(rf'<tr data-player="{player}">(.*?)</tr>', page, re.S)
    assert row, f"no row for {player}"
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row[1])]


def test_the_toy_is_offered_and_set_up_from_its_data(english, toy):
    table = new_table(english, "Ana, Ben")
    choose = text(english.get(table + "new"))
    assert "Toy Rummy" in choose and f"{table}new/toy" in choose
    assert "Five cards each, x3 for going out all at once, the winner deals" in choose
    setup = english.get(table + "new/toy").text
    offered = re.findall(r'name="target"[^>]*value="(\w+)"', setup) or re.findall(
        r'value="(\w+)"[^>]*name="target"', setup
    )
    assert offered == ["30", "50", "100", "custom"]
    match = new_match(english, table, "toy", PLAYERS, dealer="Ana", target=30)
    assert english.get(match + "export").json["options"] == {"target": 30}


def test_the_toy_played_by_quick_rounds_to_its_end(english, toy):
    table = new_table(english, "Ana, Ben")
    match = new_match(english, table, "toy", PLAYERS, dealer="Ana")
    scoreboard = text(english.get(match))
    assert "Toy Rummy" in scoreboard
    assert f"{match}live" in scoreboard  # its turns can be entered one by one
    form = text(english.get(match + "rounds/new"))
    assert "Someone went out" in form and "Blocked" in form and "Void" in form
    assert "Someone knocked" not in form
    assert "All at once (nothing melded or laid off before): ×3" in form

    rounds = [
        ({"Ana": "6D JH"}, {"ending": "out", "player": "Ben", "at_once": "y"}, [0, 48]),
        ({"Ben": "KS QS"}, {"ending": "out", "player": "Ana"}, [20, 48]),
        ({}, {"ending": "blocked"}, [20, 48]),
        ({"Ana": "2H"}, {"ending": "out", "player": "Ben", "at_once": "y"}, [20, 54]),
    ]
    for hands, fields, expected in rounds:
        response = save_round(english, match, PLAYERS, hands, **fields)
        assert response.status_code == 302, errors(response)
        assert totals(english.get(match)) == expected
    scoreboard = text(english.get(match))
    assert "Winner: Ben" in scoreboard
    assert "went out at once ×3" in scoreboard and "×2" not in scoreboard
    dealers = re.findall(r"dealer (\w+)", scoreboard)
    assert dealers == ["Ana", "Ben", "Ana", "Ana"]

    stats = english.get(table + "stats").text
    assert "Toy Rummy" in stats and "Out at once" in stats and "Knocks" not in stats
    ben, ana = stats_row(stats, "Ben"), stats_row(stats, "Ana")
    # Matches, won, win rate, rounds, rounds won, points per round won, best, out at once.
    assert (ben[0], ben[1], ben[4], ben[7]) == ("1", "1", "2", "2")
    assert (ana[0], ana[1], ana[4], ana[7]) == ("1", "0", "1", "0")


def test_a_quick_round_of_the_toy_asks_who_went_out(english, toy):
    match = new_match(english, new_table(english, "Ana, Ben"), "toy", PLAYERS, dealer="Ana")
    response = save_round(english, match, PLAYERS, {"Ana": "6D JH"}, ending="out")
    assert response.status_code == 400
    assert "Who went out?" in errors(response)


def test_a_live_round_of_the_toy(english, toy):
    match = new_match(english, new_table(english, "Ana, Ben"), "toy", PLAYERS, dealer="Ana")
    turn = {"player": "Ben", "melds": "7S 8S 9S", "discard": "QD", "action": "save"}
    response = english.submit(match + "live/turn", turn)
    assert response.status_code == 302, errors(response)
    page = text(english.get(match + "live"))
    assert "7S" in page and "9S" in page
    ending = english.get(match + "live/end").text
    assert "Blocked" in ending and "Void" in ending
    assert "Someone went out" not in ending  # no turn emptied a hand: out is not offered


def test_the_toy_has_no_rules_page_yet_and_says_so(english, toy):
    response = english.get("/rules/toy")
    assert response.status_code == 404
    assert "The rules of Toy Rummy are not written up here yet." in text(response)


def test_the_toy_leaves_with_its_fixture(client):
    assert "toy" not in RULESETS
    assert client.get("/rules/toy").status_code == 404
