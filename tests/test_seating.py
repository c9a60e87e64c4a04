"""Players joining and leaving between rounds (``seating_changes``), derived by hand from RULES.md.

The decisions this follows (docs/late-players.md): the
ruleset's dealer rule is applied to the new seating as if it had been so when the
last counted round ended; a departed dealer's turn passes on from their seat; a
newcomer starts with the lowest total of the players seated before; a player who
left keeps their total and cannot win; gin takes no change; player counts and deck
limits hold.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from referee.errors import RefereeError
from referee.match import replay
from referee.matchfile import dump_match, read_match

BLOCKED = {"end": "blocked"}


def remi(players: list[str], changes: list[dict[str, Any]], rounds: list[Any]) -> dict[str, Any]:
    return {
        "rules": "remi",
        "players": players,
        "first_dealer": players[0],
        "seating_changes": changes,
        "rounds": rounds,
    }


def dealers(doc: dict[str, Any]) -> list[str]:
    state = replay(doc)
    return [result.dealer for result in state.rounds] + [str(state.next_dealer)]


def refusal(doc: dict[str, Any]) -> RefereeError:
    with pytest.raises(RefereeError) as caught:
        replay(doc)
    return caught.value


# -- remi and rummy: the deal moves one seat clockwise ---------------------------------------


def test_remi_late_player_deals_when_the_deal_reaches_their_seat() -> None:
    # Budi dealt round 1; Dewi sits after Andi (at the end of the list).  Clockwise from
    # Budi in the new seating: Siti, Andi, Dewi, Budi, Siti.
    changes = [{"before_round": 2, "players": ["Budi", "Siti", "Andi", "Dewi"]}]
    doc = remi(["Budi", "Siti", "Andi"], changes, [BLOCKED] * 5)
    assert dealers(doc) == ["Budi", "Siti", "Andi", "Dewi", "Budi", "Siti"]


def test_remi_late_player_at_the_dealers_left_deals_next() -> None:
    # The deal passes to the dealer's left: Dewi sits between Budi (who dealt) and Siti.
    changes = [{"before_round": 2, "players": ["Budi", "Dewi", "Siti", "Andi"]}]
    doc = remi(["Budi", "Siti", "Andi"], changes, [BLOCKED] * 4)
    assert dealers(doc) == ["Budi", "Dewi", "Siti", "Andi", "Budi"]


def test_remi_late_player_starts_with_the_lowest_total_and_scores_from_then() -> None:
    # Round 1: Siti goes out; Budi holds 10H QS (20), Andi 2C (2): Siti 22.  Round 2: Siti
    # again; Budi 5H (5), Andi 3C (3): Siti 30.  Budi 0, Andi 0, Siti 30: Dewi joins at 0.
    # Round 3 (dealt by Andi, clockwise from Siti who dealt round 2): Dewi goes out; Budi
    # KH (10), Siti 4D (4), Andi AS (1): Dewi 15.
    changes = [{"before_round": 3, "players": ["Budi", "Siti", "Andi", "Dewi"]}]
    rounds = [
        {"out": "Siti", "hands": {"Budi": ["10H", "QS"], "Andi": ["2C"]}},
        {"out": "Siti", "hands": {"Budi": ["5H"], "Andi": ["3C"]}},
        {"out": "Dewi", "hands": {"Budi": ["KH"], "Siti": ["4D"], "Andi": ["AS"]}},
    ]
    state = replay(remi(["Budi", "Siti", "Andi"], changes, rounds))
    assert state.totals == {"Budi": 0, "Siti": 30, "Andi": 0, "Dewi": 15}
    assert [r.dealer for r in state.rounds] == ["Budi", "Siti", "Andi"]
    assert "Dewi" not in state.rounds[1].scores and state.rounds[2].scores["Dewi"] == 15
    assert state.next_dealer == "Dewi"
    assert state.reseatings[0].starting_totals == {"Dewi": 0}


def test_remi_dealer_leaves_the_deal_goes_to_their_left() -> None:
    # Ani dealt round 1; Ani leaves: Budi, at Ani's left, deals as he would have.
    changes = [{"before_round": 2, "players": ["Budi", "Cici", "Dedi"]}]
    doc = remi(["Ani", "Budi", "Cici", "Dedi"], changes, [BLOCKED] * 4)
    assert dealers(doc) == ["Ani", "Budi", "Cici", "Dedi", "Budi"]


def test_remi_next_dealer_leaves_the_deal_skips_their_seat() -> None:
    # Ani dealt round 1; Budi (due next) leaves: Cici, the next seat clockwise, deals.
    changes = [{"before_round": 2, "players": ["Ani", "Cici", "Dedi"]}]
    doc = remi(["Ani", "Budi", "Cici", "Dedi"], changes, [BLOCKED] * 3)
    assert dealers(doc) == ["Ani", "Cici", "Dedi", "Ani"]


def test_remi_dealer_leaves_and_a_newcomer_takes_a_seat_on_their_right() -> None:
    # Ani dealt and leaves; Eko sits between Dedi and Budi (first in the list): a newcomer
    # between the departed dealer's neighbours counts as on the dealer's right, so Budi deals.
    changes = [{"before_round": 2, "players": ["Eko", "Budi", "Cici", "Dedi"]}]
    doc = remi(["Ani", "Budi", "Cici", "Dedi"], changes, [BLOCKED] * 4)
    assert dealers(doc) == ["Ani", "Budi", "Cici", "Dedi", "Eko"]


def test_before_any_counted_round_the_player_due_to_deal_keeps_the_deal() -> None:
    # Round 1 void: Budi deals again (a void changes no dealer).  Dewi at Budi's left does
    # not take the deal from him; when Budi leaves instead, Siti (his left) deals.
    void = {"end": "void"}
    joined = [{"before_round": 2, "players": ["Budi", "Dewi", "Siti", "Andi"]}]
    assert dealers(remi(["Budi", "Siti", "Andi"], joined, [void, BLOCKED])) == [
        "Budi",
        "Budi",
        "Dewi",
    ]
    left = [{"before_round": 2, "players": ["Siti", "Andi"]}]
    assert dealers(remi(["Budi", "Siti", "Andi"], left, [void])) == ["Budi", "Siti"]


def test_a_player_who_left_keeps_their_total_and_cannot_win() -> None:
    # rummy, 2 hands: round 1 Andi goes out, Budi holds KH QH (20), Siti 9C (9): Andi 29.
    # Andi leaves; round 2 Siti goes out, Budi holds 5S (5): Siti 5.  After 2 hands the most
    # points among the players at the table: Siti 5 (Andi's 29 stays on his line).
    doc = {
        "rules": "rummy",
        "options": {"hands": 2},
        "players": ["Budi", "Siti", "Andi"],
        "seating_changes": [{"before_round": 2, "players": ["Budi", "Siti"]}],
        "rounds": [
            {"out": "Andi", "hands": {"Budi": ["KH", "QH"], "Siti": ["9C"]}},
            {"out": "Siti", "hands": {"Budi": ["5S"]}},
        ],
    }
    state = replay(doc)
    assert state.totals == {"Budi": 0, "Siti": 5, "Andi": 29}
    assert state.finished and state.winners == ("Siti",)
    assert list(state.rounds[1].scores) == ["Budi", "Siti"]


def test_a_player_who_comes_back_keeps_their_own_total() -> None:
    # Round 1: Andi out, Budi 10H (10), Siti 2C (2): Andi 12.  Andi leaves; round 2: Siti
    # out, Budi 3D (3): Siti 3.  Andi comes back at 12 (not the lowest, 0).
    doc = remi(
        ["Budi", "Siti", "Andi"],
        [
            {"before_round": 2, "players": ["Budi", "Siti"]},
            {"before_round": 3, "players": ["Budi", "Siti", "Andi"]},
        ],
        [
            {"out": "Andi", "hands": {"Budi": ["10H"], "Siti": ["2C"]}},
            {"out": "Siti", "hands": {"Budi": ["3D"]}},
        ],
    )
    state = replay(doc)
    assert state.totals == {"Budi": 0, "Siti": 3, "Andi": 12}
    assert state.reseatings[1].joined == ("Andi",) and state.reseatings[1].starting_totals == {}
    # Budi dealt round 1, Siti round 2 (clockwise, Andi gone); Andi back after Siti deals 3.
    assert state.next_dealer == "Andi"


def test_rummy_takes_up_to_six_players() -> None:
    five = ["A1", "A2", "A3", "A4", "A5"]
    doc = {
        "rules": "rummy",
        "players": five,
        "seating_changes": [{"before_round": 2, "players": [*five, "A6"]}],
        "rounds": [{"end": "void"}, {"end": "void"}],
    }
    assert replay(doc).players == (*five, "A6")
    doc["seating_changes"] = [
        {"before_round": 2, "players": [*five, "A6"]},
        {"before_round": 3, "players": [*five, "A6", "A7"]},
    ]
    error = refusal(doc)
    assert error.message == "rummy is played by 2 to 6 players: the table would have 7"
    assert error.round == 3


# -- remi-indonesia: the lowest total deals ---------------------------------------------------


def indonesia(changes: list[dict[str, Any]], rounds: list[Any]) -> dict[str, Any]:
    return {
        "rules": "remi-indonesia",
        "players": ["Ani", "Budi", "Cici"],
        "first_dealer": "Ani",
        "seating_changes": changes,
        "rounds": rounds,
    }


# Round 1, stock ended: Ani laid 2S 3S 4S (3 x 5 = 15) and holds 9C (5): +10; Budi holds KH
# (10): -10; Cici holds 5D (5): -5.
STOCK_ROUND = {
    "end": "stock",
    "melds": {"Ani": [["2S", "3S", "4S"]]},
    "hands": {"Ani": ["9C"], "Budi": ["KH"], "Cici": ["5D"]},
}


def test_remi_indonesia_newcomer_starts_lowest_and_ties_break_clockwise() -> None:
    # Dedi joins at the lowest total, -10, tied with Budi.  Among the tied lowest, the first
    # clockwise after Ani (who dealt round 1) deals: seated after Cici, Dedi comes after Budi.
    at_end = indonesia(
        [{"before_round": 2, "players": ["Ani", "Budi", "Cici", "Dedi"]}], [STOCK_ROUND]
    )
    state = replay(at_end)
    assert state.totals["Dedi"] == -10 and state.next_dealer == "Budi"
    # Seated at Ani's left, Dedi is the first tied lowest clockwise after Ani: Dedi deals.
    at_left = indonesia(
        [{"before_round": 2, "players": ["Ani", "Dedi", "Budi", "Cici"]}], [STOCK_ROUND]
    )
    assert replay(at_left).next_dealer == "Dedi"


def test_remi_indonesia_lowest_total_leaves() -> None:
    # Budi (-10, due to deal) leaves: the lowest of Ani 10 and Cici -5 deals: Cici.
    doc = indonesia([{"before_round": 2, "players": ["Ani", "Cici"]}], [STOCK_ROUND])
    assert replay(doc).next_dealer == "Cici"


def test_remi_indonesia_dealer_leaves_ties_break_from_their_seat() -> None:
    # Round 1 void (Ani deals again), round 2 as STOCK_ROUND but Budi and Cici both hold a
    # card worth 5 (-5 each).  Ani, who dealt it, leaves: ties break clockwise from Ani's
    # seat, so Budi (at Ani's left) deals before Cici.
    second = {
        "end": "stock",
        "melds": {"Ani": [["2S", "3S", "4S"]]},
        "hands": {"Ani": ["9C"], "Budi": ["6H"], "Cici": ["5D"]},
    }
    doc = indonesia([{"before_round": 3, "players": ["Budi", "Cici"]}], [{"end": "void"}, second])
    state = replay(doc)
    assert state.totals == {"Ani": 10, "Budi": -5, "Cici": -5}
    assert state.next_dealer == "Budi"


# -- manipulation: the deck follows the number of players -------------------------------------


def test_manipulation_third_player_brings_the_second_deck() -> None:
    # Two players: one deck, so two 2C are refused.  With Cici seated (3 players) two decks
    # are used and two 2C are fine.  Knock by Ani (2C: 2) against Budi (2C 5D: 7): Ani wins
    # 7 - 2 = 5; with Cici too (KH: 10) Ani scores 5 + 8 = 13.
    knock = {"knock": "Ani", "hands": {"Ani": ["2C"], "Budi": ["2C", "5D"], "Cici": ["KH"]}}
    doc = {
        "rules": "manipulation",
        "players": ["Ani", "Budi"],
        "seating_changes": [{"before_round": 2, "players": ["Ani", "Budi", "Cici"]}],
        "rounds": [{"end": "void"}, knock],
    }
    state = replay(doc)
    assert state.rounds[1].scores == {"Ani": 13, "Budi": 0, "Cici": 0}
    assert state.rounds[1].dealer == "Ani" and state.next_dealer == "Budi"
    two_hands = {"knock": "Ani", "hands": {"Ani": ["2C"], "Budi": ["2C", "5D"]}}
    two = {"rules": "manipulation", "players": ["Ani", "Budi"], "rounds": [two_hands]}
    assert refusal(two).message == "2C is in Ani's hand and in Budi's hand"


def test_manipulation_takes_at_most_five() -> None:
    doc = {
        "rules": "manipulation",
        "players": ["A1", "A2", "A3", "A4", "A5"],
        "seating_changes": [{"before_round": 2, "players": ["A1", "A2", "A3", "A4", "A5", "A6"]}],
        "rounds": [{"end": "void"}],
    }
    assert refusal(doc).message == (
        "manipulation is played by 2 to 5 players: the table would have 6"
    )


# -- refusals ---------------------------------------------------------------------------------


def test_gin_refuses_any_change() -> None:
    doc = {
        "rules": "gin",
        "players": ["Budi", "Siti"],
        "seating_changes": [{"before_round": 2, "players": ["Budi", "Dewi"]}],
        "rounds": [{"end": "draw"}],
    }
    error = refusal(doc)
    assert error.message == (
        "gin is played by exactly 2 players from start to end: nobody can join or leave a"
        " match; start a new match instead"
    )
    assert error.round == 2


@pytest.mark.parametrize(
    ("changes", "message", "round"),
    [
        (
            [{"before_round": 2, "players": ["Budi", "Siti", "Andi"]}],
            "the seating before round 2 is the same as before",
            2,
        ),
        (
            [{"before_round": 2, "players": ["Budi", "Andi", "Siti"]}],
            "the players who stay keep their seats: Budi, Siti, Andi, in this order clockwise",
            2,
        ),
        (
            [{"before_round": 2, "players": ["Dewi", "Eko"]}],
            "a match goes on with at least one of its players; with everyone new, start a new"
            " match",
            2,
        ),
        (
            [{"before_round": 2, "players": ["Budi", "Siti", "Andi", "Dewi", "Eko"]}],
            "remi is played by 2 to 4 players: the table would have 5",
            2,
        ),
        (
            [{"before_round": 2, "players": ["Budi"]}],
            "remi is played by 2 to 4 players: the table would have 1",
            2,
        ),
        (
            [{"before_round": 1, "players": ["Budi", "Siti"]}],
            '"before_round" of a seating change must be a round number from 2 on, each change'
            " after the one before it, not 1",
            None,
        ),
        (
            [{"before_round": 4, "players": ["Budi", "Siti"]}],
            "the seating changes before round 4, but the match has 2 rounds: a seating changes"
            " before the next round at the latest",
            4,
        ),
        (
            [{"before_round": 2, "players": ["Budi", "Budi", "Siti"]}],
            "Budi is listed twice among the players",
            2,
        ),
    ],
)
def test_changes_refused(changes: list[dict[str, Any]], message: str, round: int | None) -> None:
    error = refusal(remi(["Budi", "Siti", "Andi"], changes, [BLOCKED, BLOCKED]))
    assert error.message == message
    assert error.round == round


def test_a_rotated_seating_is_the_same_order_clockwise() -> None:
    # Andi, Budi, Siti is the circle Budi, Siti, Andi written from another seat; Dewi joins.
    changes = [{"before_round": 2, "players": ["Andi", "Dewi", "Budi", "Siti"]}]
    assert dealers(remi(["Budi", "Siti", "Andi"], changes, [BLOCKED])) == ["Budi", "Siti"]


def test_a_player_who_left_is_named_as_such() -> None:
    changes = [{"before_round": 2, "players": ["Budi", "Siti"]}]
    doc = remi(["Budi", "Siti", "Andi"], changes, [BLOCKED, {"out": "Andi", "hands": {}}])
    error = refusal(doc)
    assert error.message == '"Andi" is not at the table in round 2; the players then are Budi, Siti'
    assert error.round == 2


def test_no_change_after_the_match_is_over() -> None:
    # Target 50: Siti's 10 + 10 + 10 + 10 + 10 + 1 = 51 in round 1 ends the match; a
    # change before round 2 is refused.
    doc = remi(
        ["Budi", "Siti", "Andi"],
        [{"before_round": 2, "players": ["Budi", "Siti"]}],
        [{"out": "Siti", "hands": {"Budi": ["10H", "QS", "KS", "JS", "KH"], "Andi": ["AC"]}}],
    )
    doc["options"] = {"target": 50}
    error = refusal(doc)
    assert error.message == "the match was already over after round 1 (Siti won)"
    assert error.round == 2


# -- the match file ---------------------------------------------------------------------------


def test_a_pending_change_comes_before_the_next_round() -> None:
    # After round 2, Dewi has joined but round 3 is not played yet.
    changes = [{"before_round": 3, "players": ["Budi", "Siti", "Andi", "Dewi"]}]
    state = replay(remi(["Budi", "Siti", "Andi"], changes, [BLOCKED, BLOCKED]))
    assert state.players == ("Budi", "Siti", "Andi", "Dewi")
    assert state.next_dealer == "Andi"
    live = state.start_round()
    assert live.players == ("Budi", "Siti", "Andi", "Dewi") and live.dealer == "Andi"
    assert live.leader == "Dewi"


def test_match_file_round_trip_and_replay_output() -> None:
    changes = [
        {"before_round": 2, "players": ["Budi", "Dewi", "Siti", "Andi"]},
        {"before_round": 3, "players": ["Dewi", "Siti", "Andi"]},
    ]
    doc = remi(["Budi", "Siti", "Andi"], changes, [BLOCKED, BLOCKED])
    match = read_match(doc)
    dumped = dump_match(match)
    assert dumped["seating_changes"] == changes
    assert read_match(json.dumps(dumped)) == match
    assert "seating_changes" not in dump_match(read_match(remi(["Budi", "Siti"], [], [])))
    # Round 1 dealt by Budi, round 2 by Dewi (at his left); Budi leaves, Siti deals round 3.
    assert replay(dumped).to_json() == {
        "rounds": [
            {
                "dealer": "Budi",
                "outcome": "blocked",
                "winner": None,
                "scores": {"Budi": 0, "Siti": 0, "Andi": 0},
            },
            {
                "dealer": "Dewi",
                "outcome": "blocked",
                "winner": None,
                "scores": {"Budi": 0, "Dewi": 0, "Siti": 0, "Andi": 0},
            },
        ],
        "totals": {"Budi": 0, "Siti": 0, "Andi": 0, "Dewi": 0},
        "finished": False,
        "winners": [],
        "next_dealer": "Siti",
        "players": ["Dewi", "Siti", "Andi"],
        "seating_changes": [
            {"before_round": 2, "joined": ["Dewi"], "left": [], "starting_totals": {"Dewi": 0}},
            {"before_round": 3, "joined": [], "left": ["Budi"], "starting_totals": {}},
        ],
        # Every total is 0 and nobody won: one shared first place, Budi having left before 3.
        "standings": [
            {"place": 1, "player": "Budi", "total": 0, "winner": False, "left_before": 3},
            {"place": 1, "player": "Siti", "total": 0, "winner": False},
            {"place": 1, "player": "Andi", "total": 0, "winner": False},
            {"place": 1, "player": "Dewi", "total": 0, "winner": False},
        ],
    }


def test_cli_replay_shows_who_joined_and_left(tmp_path: Any) -> None:
    changes = [{"before_round": 2, "players": ["Budi", "Siti", "Dewi"]}]
    doc = remi(
        ["Budi", "Siti", "Andi"],
        changes,
        [{"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["9H"]}}],
    )
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    done = subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    seating = next(line for line in lines if "seating" in line)
    assert "joins at 0" in seating and "leaves" in seating
    # Budi dealt round 1; Andi left and Dewi sits in his place after Siti: Siti deals.
    assert lines[-1] == "Match goes on: Siti deals round 2."


def test_a_newcomer_hand_given_as_points() -> None:
    # Round 2 after Dewi joined: Siti goes out; Budi says 12, Andi holds 2C (2), Dewi says 7:
    # Siti scores 12 + 2 + 7 = 21.
    changes = [{"before_round": 2, "players": ["Budi", "Siti", "Andi", "Dewi"]}]
    round_two = {"out": "Siti", "hands": {"Budi": 12, "Andi": ["2C"], "Dewi": 7}}
    state = replay(remi(["Budi", "Siti", "Andi"], changes, [BLOCKED, round_two]))
    assert state.rounds[1].scores == {"Budi": 0, "Siti": 21, "Andi": 0, "Dewi": 0}
    assert dump_match(read_match(remi(["Budi", "Siti", "Andi"], changes, [BLOCKED, round_two])))[
        "rounds"
    ][1]["hands"] == {"Budi": 12, "Andi": ["2C"], "Dewi": 7}
