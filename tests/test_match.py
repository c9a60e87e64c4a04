"""Rounds and matches replayed, pinned to RULES.md and MATCH_FORMAT.md.

Every expected score below is counted by hand in the comment next to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.cards import Card
from referee.errors import MatchFileError, RefereeError, RuleError
from referee.match import RoundInProgress, live_round, replay
from referee.matchfile import read_header
from referee.scoring import Outcome

BSA = ["Budi", "Siti", "Andi"]
# Full 3-player remi hands nobody has played from: Siti 10+2+9+5+3+6+8 = 43,
# Andi 1+5+10+3+8+10+2 = 39, Budi 2+3+5+6+7+8+9 = 40.
SEVEN = {
    "Siti": ["KH", "2C", "9D", "5H", "3S", "6D", "8H"],
    "Andi": ["AS", "5D", "QH", "3H", "8D", "JD", "2H"],
    "Budi": ["2S", "3D", "5S", "6H", "7H", "8C", "9H"],
}


def match(
    rules: str, rounds: list[dict[str, Any]], players: list[str] | None = None, **options: Any
) -> dict[str, Any]:
    return {
        "format": "referee-match/1",
        "rules": rules,
        "options": options,
        "players": players or BSA,
        "rounds": rounds,
    }


def error_of(document: dict[str, Any]) -> RefereeError:
    with pytest.raises(RefereeError) as caught:
        replay(document)
    return caught.value


# The round of MATCH_FORMAT.md: Budi goes out in his only turn with plays.
FORMAT_ROUND: dict[str, Any] = {
    "turns": [
        {"player": "Siti", "melds": [["7S", "8S", "9S"]]},
        {"player": "Andi", "layoffs": [{"cards": ["10S"], "onto": 1}]},
        {
            "player": "Budi",
            "melds": [["4H", "4D", "4C"], ["JC", "QC", "KC"]],
            "layoffs": [{"cards": ["6S"], "onto": 1}],
            "discard": "2D",
            "out": True,
        },
    ],
    "hands": {"Siti": ["KH", "2C", "9D", "5H"], "Andi": ["AS", "5D", "QH", "3H", "8D", "JD"]},
}


# -- remi ------------------------------------------------------------------------------------


def test_remi_format_example_going_out_all_at_once_doubles_the_other_hands() -> None:
    # Siti 10+2+9+5 = 26, Andi 1+5+10+3+8+10 = 37; 63 doubled = 126.  A target above 126
    # keeps the match going, so the whole output of MATCH_FORMAT.md is reproduced.
    state = replay(match("remi", [FORMAT_ROUND], target=200))
    assert state.to_json() == {
        "rounds": [
            {
                "dealer": "Budi",
                "outcome": "out",
                "winner": "Budi",
                "scores": {"Budi": 126, "Siti": 0, "Andi": 0},
            }
        ],
        "totals": {"Budi": 126, "Siti": 0, "Andi": 0},
        "finished": False,
        "winners": [],
        "next_dealer": "Siti",
        "standings": [  # not over: the highest total first, Siti and Andi sharing 2nd
            {"place": 1, "player": "Budi", "total": 126, "winner": False},
            {"place": 2, "player": "Siti", "total": 0, "winner": False},
            {"place": 2, "player": "Andi", "total": 0, "winner": False},
        ],
    }
    assert state.rounds[0].at_once


def test_remi_first_to_reach_the_target_wins_the_match() -> None:
    # The same round with the default target 100: 126 reaches it, Budi wins at once.
    state = replay(match("remi", [FORMAT_ROUND]))
    assert state.finished and state.winners == ("Budi",) and state.next_dealer is None


def test_remi_melding_in_an_earlier_turn_means_not_all_at_once() -> None:
    # Budi melds 4H 4D 4C first, then goes out in a later turn: 63 points, not doubled.
    round_ = {
        "turns": [
            {"player": "Budi", "melds": [["4H", "4D", "4C"]]},
            {"player": "Siti", "melds": [["7S", "8S", "9S"]]},
            {"player": "Andi", "layoffs": [{"cards": ["10S"], "onto": 2}]},
            {
                "player": "Budi",
                "melds": [["JC", "QC", "KC"]],
                "layoffs": [{"cards": ["6S"], "onto": 2}],
                "discard": "2D",
                "out": True,
            },
        ],
        "hands": FORMAT_ROUND["hands"],
    }
    result = replay(match("remi", [round_])).rounds[0]
    assert result.scores == {"Budi": 63, "Siti": 0, "Andi": 0}
    assert not result.at_once


def test_remi_at_once_given_true_contradicting_the_turns_is_an_error() -> None:
    round_ = {
        "turns": [
            {"player": "Budi", "melds": [["4H", "4D", "4C"]]},
            {
                "player": "Budi",
                "melds": [["JC", "QC", "KC"]],
                "layoffs": [{"cards": ["4S"], "onto": 1}],
                "discard": "2D",
                "out": True,
            },
        ],
        "at_once": True,
        "hands": {"Siti": ["KH"], "Andi": ["AS"]},
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, None)
    assert "at_once" in error.message and "turn 1" in error.message


def test_remi_at_once_given_false_contradicting_the_turns_is_an_error() -> None:
    error = error_of(match("remi", [dict(FORMAT_ROUND, at_once=False)]))
    assert error.round == 1 and "at_once" in error.message


def test_remi_at_once_given_and_agreeing_with_the_turns_is_fine() -> None:
    state = replay(match("remi", [dict(FORMAT_ROUND, at_once=True)], target=200))
    assert state.totals["Budi"] == 126


def test_remi_final_table_out_and_at_once() -> None:
    # Siti QS 10H = 20, Andi 3C AD = 4; at once doubles 24 to 48.
    hands = {"Siti": ["QS", "10H"], "Andi": ["3C", "AD"]}
    plain = replay(match("remi", [{"out": "Budi", "hands": hands}]))
    doubled = replay(match("remi", [{"out": "Budi", "at_once": True, "hands": hands}]))
    assert plain.rounds[0].scores["Budi"] == 24
    assert doubled.rounds[0].scores["Budi"] == 48


def test_remi_blocked_round_scores_nothing_and_the_deal_moves_on() -> None:
    state = replay(match("remi", [{"end": "blocked"}]))
    assert state.to_json()["rounds"] == [
        {
            "dealer": "Budi",
            "outcome": "blocked",
            "winner": None,
            "scores": {"Budi": 0, "Siti": 0, "Andi": 0},
        }
    ]
    assert state.next_dealer == "Siti"


def test_remi_dealer_moves_one_seat_clockwise_each_round() -> None:
    rounds = [
        {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3C"]}},
        {"end": "blocked"},
        {"out": "Andi", "hands": {"Budi": ["4C"], "Siti": ["5C"]}},
    ]
    state = replay(match("remi", rounds))
    assert [r.dealer for r in state.rounds] == ["Budi", "Siti", "Andi"]
    assert state.next_dealer == "Budi"
    assert state.totals == {"Budi": 0, "Siti": 5, "Andi": 9}


def test_first_dealer_is_taken_from_the_header() -> None:
    document = match("remi", [{"end": "blocked"}]) | {"first_dealer": "Andi"}
    state = replay(document)
    assert state.rounds[0].dealer == "Andi" and state.next_dealer == "Budi"


def test_void_round_scores_nothing_and_keeps_the_dealer() -> None:
    rounds = [{"end": "void"}, {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3C"]}}]
    state = replay(match("remi", rounds))
    assert state.to_json()["rounds"][0] == {
        "dealer": "Budi",
        "outcome": "void",
        "winner": None,
        "scores": {"Budi": 0, "Siti": 0, "Andi": 0},
    }
    assert state.rounds[1].dealer == "Budi"


def test_void_round_is_not_checked_against_the_rules() -> None:
    # A misdeal is a reason to void: whatever was entered does not count.
    rounds = [{"end": "void", "hands": {"Budi": ["QS"], "Siti": ["QS"]}}]
    assert replay(match("remi", rounds)).rounds[0].outcome is Outcome.VOID


def test_remi_takes_only_the_top_discard() -> None:
    round_ = {
        "turns": [{"player": "Siti", "took_discard": ["7S", "KD"], "melds": [["7S", "8S", "9S"]]}],
        "end": "blocked",
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 1) and "only the top discard" in error.message


def test_remi_taken_discard_may_not_be_discarded_in_the_same_turn() -> None:
    round_ = {
        "turns": [{"player": "Siti", "took_discard": ["KD"], "discard": "KD"}],
        "end": "blocked",
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 1)
    assert (
        error.message
        == "Siti took KD from the discard pile and may not discard it in the same turn"
    )


LEFT_LAST_TURNS = [
    # 3 players, 7 dealt: Siti melds 6 and discards, 1 card left; then she takes 5H and lays
    # off one card, so 5H is the only card left in her hand.
    {"player": "Siti", "melds": [["7S", "8S", "9S"], ["4H", "4D", "4C"]], "discard": "KD"},
    {"player": "Siti", "took_discard": ["5H"], "layoffs": [{"cards": ["10S"], "onto": 1}]},
]


def test_remi_taken_discard_may_not_be_left_the_only_card_in_hand() -> None:
    error = error_of(match("remi", [{"turns": LEFT_LAST_TURNS, "end": "blocked"}]))
    assert (error.round, error.turn) == (1, 2)
    assert error.message == (
        "Siti took 5H from the discard pile and may not meld or lay off so that it is the only "
        "card left in hand"
    )


def test_rummy_taken_discard_left_last_would_have_to_be_discarded() -> None:
    error = error_of(
        match(
            "rummy",
            [{"turns": LEFT_LAST_TURNS, "end": "void"} | {"end": None, "out": "Siti", "hands": {}}],
        )
    )
    assert (error.round, error.turn) == (1, 2) and "may not discard it" in error.message


def test_remi_taken_discard_laid_off_at_once_is_fine() -> None:
    turns = [
        LEFT_LAST_TURNS[0],
        {
            "player": "Siti",
            "took_discard": ["10S"],
            "layoffs": [{"cards": ["10S"], "onto": 1}],
            "out": True,
        },
    ]
    hands = {"Budi": SEVEN["Budi"], "Andi": SEVEN["Andi"]}
    assert replay(match("remi", [{"turns": turns, "hands": hands}])).rounds[0].winners == ("Siti",)


def test_remi_hand_left_larger_than_the_deal_is_refused() -> None:
    round_ = {
        "out": "Budi",
        "hands": {"Siti": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"], "Andi": ["AS"]},
    }
    error = error_of(match("remi", [round_]))
    assert error.message == (
        "Siti holds 9 cards; in a 3-player game of remi a hand never holds more than 7"
    )
    assert (error.round, error.turn) == (1, None)


def test_remi_two_players_are_dealt_ten() -> None:
    round_ = {
        "out": "Budi",
        "hands": {"Siti": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC"]},
    }
    assert replay(match("remi", [round_], players=["Budi", "Siti"])).totals["Budi"] == 64


def test_remi_hand_left_must_match_the_cards_put_down() -> None:
    # Siti put 3 cards down out of 7, so she holds 4, not 5.
    round_ = dict(
        FORMAT_ROUND,
        hands={
            "Siti": ["KH", "2C", "9D", "5H", "6H"],
            "Andi": ["AS", "5D", "QH", "3H", "8D", "JD"],
        },
    )
    error = error_of(match("remi", [round_]))
    assert "Siti was dealt 7 cards and put 3 on the table, so holds 4, not 5" == error.message


def test_remi_going_out_needs_the_whole_hand_put_down() -> None:
    # Budi puts 6 cards down and discards one: 8 - 6 - 1 = 1 card still in hand.
    round_ = {
        "turns": [
            {
                "player": "Budi",
                "melds": [["4H", "4D", "4C"], ["JC", "QC", "KC"]],
                "discard": "2D",
                "out": True,
            }
        ],
        "hands": {"Siti": ["KH"], "Andi": ["AS"]},
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 1) and "Budi is not out" in error.message


def test_remi_emptying_the_hand_must_be_marked_out() -> None:
    turn = dict(FORMAT_ROUND["turns"][2])
    del turn["out"]
    round_ = {"turns": [*FORMAT_ROUND["turns"][:2], turn], "hands": FORMAT_ROUND["hands"]}
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 3) and '"out": true' in error.message


def test_remi_going_out_by_melding_everything_without_a_discard() -> None:
    # 8 cards put down after the draw: out with no discard needed.
    round_ = {
        "turns": [
            {
                "player": "Budi",
                "melds": [["4H", "4D", "4C"], ["JC", "QC", "KC"]],
                "layoffs": [{"cards": ["4S"], "onto": 1}, {"cards": ["10C"], "onto": 2}],
                "out": True,
            }
        ],
        "hands": {"Siti": SEVEN["Siti"], "Andi": SEVEN["Andi"]},
    }
    state = replay(match("remi", [round_]))
    assert state.rounds[0].scores["Budi"] == 164  # (43 + 39) x 2, all at once


def test_no_turn_after_the_round_ended() -> None:
    round_ = {
        "turns": [*FORMAT_ROUND["turns"], {"player": "Siti", "melds": [["2C", "3C", "4C"]]}],
        "hands": FORMAT_ROUND["hands"],
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 4) and "already over" in error.message


def test_out_named_in_the_round_must_match_the_turns() -> None:
    error = error_of(match("remi", [dict(FORMAT_ROUND, out="Siti")]))
    assert error.round == 1 and "Budi going out in turn 3" in error.message


def test_winner_of_the_round_holds_no_cards() -> None:
    round_ = {"out": "Budi", "hands": {"Budi": ["2C"], "Siti": ["3C"], "Andi": ["4C"]}}
    assert "Budi went out" in error_of(match("remi", [round_])).message


def test_every_other_hand_must_be_given() -> None:
    error = error_of(match("remi", [{"out": "Budi", "hands": {"Siti": ["3C"]}}]))
    assert isinstance(error, MatchFileError) and "Andi's hand is missing" in error.message


def test_a_round_must_say_how_it_ended() -> None:
    error = error_of(match("remi", [{"hands": {"Siti": ["3C"]}}]))
    assert error.round == 1 and "how it ended" in error.message


@pytest.mark.parametrize(
    ("rules", "round_", "first", "second"),
    [
        ("remi", {"end": "blocked", "out": "Budi"}, '"end": "blocked"', '"out"'),
        ("remi", {"end": "void", "out": "Budi"}, '"end": "void"', '"out"'),
        ("manipulation", {"end": "stock", "knock": "Siti"}, '"end": "stock"', '"knock"'),
        ("remi-indonesia", {"end": "void", "closer": "Andi"}, '"end": "void"', '"closer"'),
        ("manipulation", {"knock": "Siti", "out": "Budi"}, '"knock"', '"out"'),
        ("remi-indonesia", {"out": "Siti", "closer": "Andi"}, '"out"', '"closer"'),
    ],
)
def test_a_round_ends_one_way_only(
    rules: str, round_: dict[str, Any], first: str, second: str
) -> None:
    # MATCH_FORMAT.md: "end" beside "out", "knock" or "closer" is an error
    hands = {"Budi": ["3C"], "Siti": ["4C"], "Andi": ["5C"]}
    error = error_of(match(rules, [dict(round_, hands=hands)]))
    assert (error.round, error.turn) == (1, None)
    assert error.message == f"a round ends one way only, but this one gives {first} and {second}"


def test_closer_is_remi_indonesia_s_word_only() -> None:
    error = error_of(match("remi", [{"closer": "Budi", "hands": {"Siti": ["3C"], "Andi": ["4C"]}}]))
    assert error.message == (
        "no closing card closes a round of Remi: name who went out, not who closed"
    )


def test_rummy_has_no_blocked_rounds() -> None:
    error = error_of(match("rummy", [{"end": "blocked"}]))
    assert 'cannot end "blocked"' in error.message


def test_meld_errors_carry_round_and_turn() -> None:
    round_ = {"turns": [{"player": "Siti", "melds": [["7S", "9S", "10S"]]}], "end": "blocked"}
    error = error_of(match("remi", [{"end": "void"}, round_]))
    assert (error.round, error.turn) == (2, 1)
    assert error.message == "8S is missing between 7S and 9S"


def test_layoff_onto_a_meld_that_does_not_exist() -> None:
    round_ = {
        "turns": [{"player": "Siti", "layoffs": [{"cards": ["10S"], "onto": 1}]}],
        "end": "blocked",
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 1) and "no meld 1" in error.message


def test_remi_layoff_ace_only_below_two() -> None:
    round_ = {
        "turns": [
            {"player": "Siti", "melds": [["JS", "QS", "KS"]]},
            {"player": "Andi", "layoffs": [{"cards": ["AS"], "onto": 1}]},
        ],
        "end": "blocked",
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 2) and error.message.startswith("meld 1: ")


# -- deck integrity --------------------------------------------------------------------------


def test_a_card_in_a_hand_and_in_a_meld_is_named_with_both_places() -> None:
    round_ = {
        "turns": [
            {"player": "Siti", "melds": [["7S", "8S", "9S"]]},
            {"player": "Andi", "melds": [["QH", "QD", "QS"]]},
        ],
        "end": "blocked",
        "hands": {"Siti": ["QS", "2C", "3C", "4C"]},
    }
    error = error_of(match("remi", [round_]))
    assert error.message == "QS is in Siti's hand and in meld 2"
    assert (error.round, error.turn) == (1, None)


def test_a_card_melded_twice_is_caught_in_the_turn_of_the_second_copy() -> None:
    round_ = {
        "turns": [
            {"player": "Siti", "melds": [["7S", "8S", "9S"]]},
            {"player": "Andi", "melds": [["9S", "9H", "9D"]]},
        ],
        "end": "blocked",
    }
    error = error_of(match("remi", [round_]))
    assert (error.round, error.turn) == (1, 2)
    assert error.message == "9S is already on the table, in meld 1"


def test_a_card_in_two_hands() -> None:
    error = error_of(match("remi", [{"out": "Budi", "hands": {"Siti": ["5D"], "Andi": ["5D"]}}]))
    assert error.message == "5D is in Siti's hand and in Andi's hand"


def test_a_card_twice_in_one_hand() -> None:
    error = error_of(
        match("remi", [{"out": "Budi", "hands": {"Siti": ["5D", "5D"], "Andi": ["2C"]}}])
    )
    assert error.message == "5D is twice in Siti's hand"


def test_no_jokers_in_remi() -> None:
    error = error_of(match("remi", [{"out": "Budi", "hands": {"Siti": ["JK"], "Andi": ["2C"]}}]))
    assert "no jokers" in error.message and "Siti's hand" in error.message


def test_manipulation_with_three_players_has_two_of_each_card_and_two_jokers() -> None:
    fine = {"knock": "Andi", "hands": {"Budi": ["KS", "JK"], "Siti": ["KS", "JK"], "Andi": ["AS"]}}
    assert replay(match("manipulation", [fine])).rounds[0].winners == ("Andi",)
    three = {"knock": "Andi", "hands": {"Budi": ["KS"], "Siti": ["KS"], "Andi": ["KS"]}}
    error = error_of(match("manipulation", [three]))
    assert error.message.startswith("KS is in Budi's hand, in Siti's hand and in Andi's hand")
    jokers = {"knock": "Andi", "hands": {"Budi": ["JK", "JK"], "Siti": ["JK"], "Andi": ["AS"]}}
    assert "2 joker" in error_of(match("manipulation", [jokers])).message


def test_manipulation_with_two_players_has_one_deck_and_one_joker() -> None:
    two = {"knock": "Siti", "hands": {"Budi": ["KS", "JK"], "Siti": ["KS"]}}
    error = error_of(match("manipulation", [two], players=["Budi", "Siti"]))
    assert error.message == "KS is in Budi's hand and in Siti's hand"


# -- rummy -----------------------------------------------------------------------------------


def test_rummy_high_low_aces_are_worth_fifteen_in_hand() -> None:
    # Siti AS AH = 30, Andi KD = 10: 40.
    round_ = {"out": "Budi", "hands": {"Siti": ["AS", "AH"], "Andi": ["KD"]}}
    assert replay(match("rummy", [round_], ace="high-low")).totals["Budi"] == 40
    assert replay(match("rummy", [round_])).totals["Budi"] == 12


def test_rummy_high_low_allows_q_k_a() -> None:
    round_ = {"turns": [{"player": "Siti", "melds": [["QS", "KS", "AS"]]}], "end": "void"}
    assert replay(match("rummy", [round_], ace="high-low"))
    live = live_round(
        match("rummy", [], ace="high-low"), [{"player": "Siti", "melds": [["QS", "KS", "AS"]]}]
    )
    assert live.table[0].cards == (Card.parse("QS"), Card.parse("KS"), Card.parse("AS"))


def test_rummy_must_discard_refuses_melding_the_whole_hand() -> None:
    round_ = {
        "turns": [
            {
                "player": "Budi",
                "melds": [["4H", "4D", "4C"], ["JC", "QC", "KC"]],
                "layoffs": [{"cards": ["4S"], "onto": 1}, {"cards": ["10C"], "onto": 2}],
                "out": True,
            }
        ],
        "hands": {"Siti": SEVEN["Siti"], "Andi": SEVEN["Andi"]},
    }
    assert replay(match("rummy", [round_])).totals["Budi"] == 164
    error = error_of(match("rummy", [round_], must_discard=True))
    assert (error.round, error.turn) == (1, 1) and "must be discarded" in error.message


def test_rummy_hands_option_ends_after_n_counted_rounds_with_a_shared_win() -> None:
    # Budi 20, then a void round (not counted), then Siti 20: a tie after 2 rounds.
    rounds = [
        {"out": "Budi", "hands": {"Siti": ["KS"], "Andi": ["QS"]}},
        {"end": "void"},
        {"out": "Siti", "hands": {"Budi": ["KD"], "Andi": ["QD"]}},
    ]
    state = replay(match("rummy", rounds, hands=2))
    assert state.finished and state.winners == ("Budi", "Siti")
    assert [r.dealer for r in state.rounds] == ["Budi", "Siti", "Siti"]
    assert state.next_dealer is None


def test_rummy_hands_option_wins_over_target() -> None:
    # RULES.md Decision: with both "hands" and "target", "hands" decides.
    # Siti KS QS JS 10S = 40, Andi QD JD = 20: 60 points pass a target of 50, but with
    # hands=2 the match goes on.
    rounds = [{"out": "Budi", "hands": {"Siti": ["KS", "QS", "JS", "10S"], "Andi": ["QD", "JD"]}}]
    state = replay(match("rummy", rounds, target=50, hands=2))
    assert not state.finished and state.next_dealer == "Siti"
    # and after 1 round of hands=1 it is over, 60 points far from a target of 500
    state = replay(match("rummy", rounds, target=500, hands=1))
    assert state.finished and state.winners == ("Budi",)


def test_rummy_default_target_is_150() -> None:
    # Siti 10+10+10+10+9+8+7 = 64, Andi 2: 66 x 2 = 132, short of 150.
    round_ = {
        "out": "Budi",
        "at_once": True,
        "hands": {"Siti": ["KS", "QS", "JS", "10S", "9S", "8S", "7S"], "Andi": ["2C"]},
    }
    state = replay(match("rummy", [round_]))
    assert state.totals["Budi"] == 132 and not state.finished


def test_rounds_after_the_match_is_over_are_an_error() -> None:
    rounds = [
        {
            "out": "Budi",
            "at_once": True,
            "hands": {
                "Siti": ["KS", "QS", "JS", "10S", "9S", "8S", "7S"],
                "Andi": ["KH", "QH", "JH"],
            },
        },
        {"end": "void"},
    ]
    error = error_of(match("remi", rounds))
    assert (error.round, error.turn) == (2, None) and "already over" in error.message


# -- remi-indonesia --------------------------------------------------------------------------

INDONESIA_ROUND: dict[str, Any] = {
    "melds": {"Budi": [["5H", "6H", "7H"], ["KS", "KH", "KD"]], "Siti": [["JC", "QC", "KC"]]},
    "closer": "Budi",
    "closing_card": "AS",
    "hands": {"Siti": ["2D", "AD"], "Andi": ["3C", "9C", "10D", "QH"]},
}


def test_remi_indonesia_own_melds_minus_hand_and_closing_bonus() -> None:
    # Budi: 5+5+5 + 10+10+10 = 45, plus 10 x 15 for the ace = 195.
    # Siti: 30 - (5 + 15) = 10.  Andi: 0 - (5+5+5+10) = -25.
    state = replay(match("remi-indonesia", [INDONESIA_ROUND]))
    assert state.to_json()["rounds"] == [
        {
            "dealer": "Budi",
            "outcome": "out",
            "winner": "Budi",
            "scores": {"Budi": 195, "Siti": 10, "Andi": -25},
        }
    ]
    assert state.next_dealer == "Andi"  # the lowest total deals


def test_remi_indonesia_stock_ending_everyone_scores_nobody_wins() -> None:
    round_ = {
        "end": "stock",
        "melds": INDONESIA_ROUND["melds"],
        "hands": {"Budi": ["2S"], "Siti": ["2D", "AD"], "Andi": ["3C"]},
    }
    state = replay(match("remi-indonesia", [round_]))
    # Budi 45 - 5 = 40, Siti 30 - 20 = 10, Andi -5.
    assert state.to_json()["rounds"][0] == {
        "dealer": "Budi",
        "outcome": "stock",
        "winner": None,
        "scores": {"Budi": 40, "Siti": 10, "Andi": -5},
    }


def test_remi_indonesia_run_first_in_the_final_table() -> None:
    round_ = dict(INDONESIA_ROUND, melds={"Budi": [["KS", "KH", "KD"], ["5H", "6H", "7H"]]})
    error = error_of(match("remi-indonesia", [round_]))
    assert error.round == 1 and "run" in error.message and "KS KH KD" in error.message


def test_remi_indonesia_run_first_a_run_earlier_in_the_same_turn_counts() -> None:
    live = live_round(
        match("remi-indonesia", []),
        [{"player": "Budi", "melds": [["5H", "6H", "7H"], ["KS", "KH", "KD"]]}],
    )
    assert [m.number for m in live.table] == [1, 2]
    with pytest.raises(RuleError) as caught:
        live_round(
            match("remi-indonesia", []),
            [{"player": "Budi", "melds": [["KS", "KH", "KD"], ["5H", "6H", "7H"]]}],
        )
    assert (caught.value.round, caught.value.turn) == (1, 1)


def test_remi_indonesia_run_first_is_per_player() -> None:
    with pytest.raises(RuleError) as caught:
        live_round(
            match("remi-indonesia", []),
            [
                {"player": "Budi", "melds": [["5H", "6H", "7H"]]},
                {"player": "Siti", "melds": [["KS", "KH", "KD"]]},
            ],
        )
    assert caught.value.turn == 2 and "Siti" in caught.value.message


def test_remi_indonesia_refuses_every_layoff() -> None:
    with pytest.raises(RuleError) as caught:
        live_round(
            match("remi-indonesia", []),
            [
                {"player": "Budi", "melds": [["5H", "6H", "7H"]]},
                {"player": "Siti", "layoffs": [{"cards": ["8H"], "onto": 1}]},
            ],
        )
    assert caught.value.turn == 2 and "closed" in caught.value.message


def test_remi_indonesia_takes_up_to_three_discards_deepest_melded_with_hand_cards() -> None:
    base = match("remi-indonesia", [])
    fine = {"player": "Budi", "took_discard": ["9H", "KC", "5S"], "melds": [["4S", "5S", "6S"]]}
    assert live_round(base, [fine]).table[0].player == "Budi"
    four = {
        "player": "Budi",
        "took_discard": ["9H", "KC", "2D", "5S"],
        "melds": [["4S", "5S", "6S"]],
    }
    with pytest.raises(RuleError, match="top 3"):
        live_round(base, [four])
    unused = {"player": "Budi", "took_discard": ["9H", "KC", "5S"], "melds": [["9H", "9D", "9C"]]}
    with pytest.raises(RuleError, match="5S must go at once"):
        live_round(base, [{"player": "Budi", "melds": [["2C", "3C", "4C"]]}, unused])
    only_taken = {
        "player": "Budi",
        "took_discard": ["5S", "6S", "4S"],
        "melds": [["4S", "5S", "6S"]],
    }
    with pytest.raises(RuleError, match="cards from hand"):
        live_round(base, [only_taken])


def test_remi_indonesia_deepest_discard_in_a_set_still_needs_a_run_first() -> None:
    turn = {"player": "Budi", "took_discard": ["5S"], "melds": [["5S", "5H", "5D"]]}
    with pytest.raises(RuleError, match="run"):
        live_round(match("remi-indonesia", []), [turn])


def test_remi_indonesia_turn_by_turn_closer_discards_the_closing_card() -> None:
    # Budi: 7 + 1 - 4 - 1 = 3 cards, then 3 + 1 - 3 = 1 card left: AS, the closing card.
    # Budi 4 x 5 + 3 x 10 = 50, + 150 = 200.  Siti 30 - (5 + 15 + 5 + 5) = 0.
    # Andi 0 - (5+5+5+10+5+5+5) = -40.
    round_ = {
        "turns": [
            {"player": "Budi", "melds": [["5H", "6H", "7H", "8H"]]},
            {"player": "Siti", "melds": [["JC", "QC", "KC"]]},
            {"player": "Budi", "melds": [["KS", "KH", "KD"]], "discard": "AS", "out": True},
        ],
        "hands": {
            "Siti": ["2D", "AD", "3D", "4C"],
            "Andi": ["3C", "9C", "10D", "QH", "2H", "3H", "4H"],
        },
    }
    state = replay(match("remi-indonesia", [round_]))
    assert state.rounds[0].scores == {"Budi": 200, "Siti": 0, "Andi": -40}
    assert state.rounds[0].closing_card == Card.parse("AS")
    assert state.rounds[0].winners == ("Budi",)


def test_remi_indonesia_hands_follow_the_discards_taken() -> None:
    # Siti takes three discards (7 + 3 - 3 = 7 after melding, 6 after discarding): a
    # remi-indonesia hand may hold more than the deal, but exactly what the turns leave.
    turns = [
        {
            "player": "Siti",
            "took_discard": ["9H", "KC", "5S"],
            "melds": [["4S", "5S", "6S"]],
            "discard": "2C",
        },
        {
            "player": "Budi",
            "melds": [["2H", "3H", "4H", "5H", "6H", "7H", "8H"]],
            "discard": "AS",
            "out": True,
        },
    ]
    six = ["9H", "KC", "10D", "JD", "QS", "AD"]
    state = replay(
        match(
            "remi-indonesia",
            [
                {
                    "turns": turns,
                    "hands": {"Siti": six, "Andi": ["3C", "4C", "5C", "6C", "7C", "8C", "9C"]},
                }
            ],
        )
    )
    assert state.rounds[0].scores["Siti"] == 15 - (5 + 10 + 5 + 10 + 10 + 15)
    error = error_of(
        match(
            "remi-indonesia",
            [
                {
                    "turns": turns,
                    "hands": {"Siti": six[:5], "Andi": ["3C", "4C", "5C", "6C", "7C", "8C", "9C"]},
                }
            ],
        )
    )
    assert error.message == (
        "Siti was dealt 7 cards, took 2 more from the discard pile and put 3 on the table, "
        "so holds 6, not 5"
    )


def test_remi_indonesia_taking_may_never_leave_no_card_to_discard() -> None:
    # Budi: 7 + 1 - 5 - 1 = 2 cards; takes QC and melds all three queens: nothing to discard.
    turns = [
        {"player": "Budi", "melds": [["2D", "3D", "4D", "5D", "6D"]], "discard": "9H"},
        {"player": "Budi", "took_discard": ["QC"], "melds": [["QC", "QH", "QS"]]},
    ]
    with pytest.raises(RuleError) as caught:
        live_round(match("remi-indonesia", []), turns)
    assert caught.value.turn == 2 and "no card would be left to discard" in caught.value.message


def test_remi_indonesia_closing_needs_a_discard() -> None:
    round_ = {
        "turns": [
            {"player": "Budi", "melds": [["2H", "3H", "4H", "5H", "6H", "7H", "8H"]], "out": True}
        ],
        "hands": {"Siti": ["2D"], "Andi": ["3C"]},
    }
    error = error_of(match("remi-indonesia", [round_]))
    assert (error.round, error.turn) == (1, 1) and "closing card" in error.message


def test_remi_indonesia_closing_card_counts_in_the_deck() -> None:
    round_ = dict(INDONESIA_ROUND, closing_card="AD")
    assert error_of(match("remi-indonesia", [round_])).message == (
        "AD is in Siti's hand and the closing card"
    )


def test_remi_indonesia_closing_card_is_required_in_the_final_table() -> None:
    round_ = {k: v for k, v in INDONESIA_ROUND.items() if k != "closing_card"}
    assert "closing_card" in error_of(match("remi-indonesia", [round_])).message


def test_remi_indonesia_totals_may_go_negative_and_lowest_deals_ties_clockwise() -> None:
    players = ["P1", "P2", "P3", "P4"]
    # Dealer P1. Stock ending, no melds: P1 -5, P2 -10, P3 -10, P4 -5.
    # Lowest -10: P2 and P3 tie; the first clockwise after P1 is P2.
    round_ = {"end": "stock", "hands": {"P1": ["2C"], "P2": ["JC"], "P3": ["QC"], "P4": ["3C"]}}
    state = replay(match("remi-indonesia", [round_], players=players))
    assert state.totals == {"P1": -5, "P2": -10, "P3": -10, "P4": -5}
    assert state.next_dealer == "P2"
    # Round 2 (dealer P2): P1 -10, P2 -5, P3 -5, P4 -10: totals -15, -15, -15, -15:
    # all tied; the first clockwise after P2 is P3.
    round2 = {"end": "stock", "hands": {"P1": ["JD"], "P2": ["2D"], "P3": ["3D"], "P4": ["QD"]}}
    state = replay(match("remi-indonesia", [round_, round2], players=players))
    assert state.rounds[1].dealer == "P2" and state.next_dealer == "P3"


# Target 100 (the least RULES.md allows).  Budi melds J-Q-K twice (30 + 30), 5-6-7 (15) and
# three aces (45): 120; Siti J-Q-K twice (60) and four number runs (4 x 15 = 60): 120.  Both
# minus 5 in hand = 115: tied at the top, past the target.
INDONESIA_TIE: dict[str, Any] = {
    "end": "stock",
    "melds": {
        "Budi": [["JC", "QC", "KC"], ["JD", "QD", "KD"], ["5H", "6H", "7H"], ["AS", "AH", "AD"]],
        "Siti": [
            ["JH", "QH", "KH"],
            ["JS", "QS", "KS"],
            ["5S", "6S", "7S"],
            ["8C", "9C", "10C"],
            ["2H", "3H", "4H"],
            ["8D", "9D", "10D"],
        ],
    },
    "hands": {"Budi": ["2D"], "Siti": ["2S"]},
}


def test_remi_indonesia_tie_at_the_top_plays_on_until_it_breaks() -> None:
    tie = INDONESIA_TIE  # 115 each at target 100: play on
    state = replay(match("remi-indonesia", [tie], players=["Budi", "Siti"], target=100))
    assert not state.finished and state.winners == ()
    assert state.next_dealer == "Siti"  # tied lowest: first clockwise after Budi
    close = {
        "melds": {"Siti": [["2H", "3H", "4H"]]},
        "closer": "Siti",
        "closing_card": "9D",
        "hands": {"Budi": ["3D"]},
    }
    state = replay(match("remi-indonesia", [tie, close], players=["Budi", "Siti"], target=100))
    # Siti 15 + 50 = 65 more: 180; Budi -5: 110.
    assert (
        state.finished and state.winners == ("Siti",) and state.totals == {"Budi": 110, "Siti": 180}
    )


def test_remi_indonesia_ends_once_the_tie_breaks_even_below_the_target() -> None:
    # RULES.md Decision: once the target has been reached, the match ends as soon as one
    # total is highest alone, even if the tie-break rounds took it below the target.
    tie = INDONESIA_TIE
    # Round 1: 115 each (see above), the target 100 is reached with a tie: play on.
    # Round 2, stock, nothing melded: Budi QD KD JD = 30, Siti QS KS JS = 30:
    # 85 each, both below 100 and still tied: play on.
    still_tied = {"end": "stock", "hands": {"Budi": ["QD", "KD", "JD"], "Siti": ["QS", "KS", "JS"]}}
    players = ["Budi", "Siti"]
    state = replay(match("remi-indonesia", [tie, still_tied], players=players, target=100))
    assert state.totals == {"Budi": 85, "Siti": 85} and not state.finished
    # Round 3, stock: Budi 3C = 5 -> 80, Siti KD JD = 20 -> 65: Budi is highest alone.
    breaks = {"end": "stock", "hands": {"Budi": ["3C"], "Siti": ["KD", "JD"]}}
    state = replay(match("remi-indonesia", [tie, still_tied, breaks], players=players, target=100))
    assert state.totals == {"Budi": 80, "Siti": 65}
    assert state.finished and state.winners == ("Budi",) and state.next_dealer is None


def test_remi_indonesia_below_the_target_never_reached_goes_on() -> None:
    # Budi 20 alone at the top, but 20 < 100 and nobody ever reached 100: not over.
    round_ = {
        "end": "stock",
        "melds": {"Budi": [["5H", "6H", "7H"], ["2C", "3C", "4C"]]},
        "hands": {"Budi": ["2D", "3D"], "Siti": ["KD", "JD"]},
    }
    # Budi 30 - 10 = 20, Siti -20.
    state = replay(match("remi-indonesia", [round_], players=["Budi", "Siti"], target=100))
    assert state.totals == {"Budi": 20, "Siti": -20} and not state.finished


# -- manipulation ----------------------------------------------------------------------------


def manipulation_round(**round_: Any) -> dict[str, Any]:
    return match("manipulation", [round_])


def test_manipulation_knocker_with_the_lowest_hand_wins_the_differences() -> None:
    # Andi 1+2 = 3, Budi 10+10 = 20, Siti 5+9 = 14: (20-3) + (14-3) = 28.
    state = replay(
        manipulation_round(
            knock="Andi", hands={"Budi": ["KS", "QD"], "Siti": ["5C", "9D"], "Andi": ["AS", "2H"]}
        )
    )
    assert state.to_json()["rounds"][0] == {
        "dealer": "Budi",
        "outcome": "knock",
        "winner": "Andi",
        "scores": {"Budi": 0, "Siti": 0, "Andi": 28},
    }


def test_manipulation_undercut_lower_hand_wins_with_the_bonus() -> None:
    # Andi knocks with 2+3 = 5; Siti 1+2 = 3 is lower: (5-3) + (20-3) + 10 = 29.
    state = replay(
        manipulation_round(
            knock="Andi", hands={"Budi": ["KS", "QD"], "Siti": ["AC", "2C"], "Andi": ["2H", "3S"]}
        )
    )
    result = state.rounds[0]
    assert result.outcome is Outcome.UNDERCUT and result.winner == "Siti" and result.undercut
    assert result.scores == {"Budi": 0, "Siti": 29, "Andi": 0}


def test_manipulation_knocker_tying_for_lowest_loses_the_tie() -> None:
    # Andi knocks with 4, Siti has 4: Siti wins, (4-4) + (20-4) + 10 = 26.
    state = replay(
        manipulation_round(
            knock="Andi", hands={"Budi": ["KS", "QD"], "Siti": ["4C"], "Andi": ["AS", "3H"]}
        )
    )
    assert state.to_json()["rounds"][0]["outcome"] == "undercut"
    assert state.rounds[0].scores == {"Budi": 0, "Siti": 26, "Andi": 0}


def test_manipulation_tied_non_knockers_all_score_as_sole_winners() -> None:
    # Andi knocks with 4; Budi and Siti also 4; Dewi 30.  Each of Budi and Siti:
    # 0 + 0 + (30-4) + 10 = 36.
    players = ["Budi", "Siti", "Andi", "Dewi"]
    state = replay(
        match(
            "manipulation",
            [
                {
                    "knock": "Andi",
                    "hands": {
                        "Budi": ["2D", "2S"],
                        "Siti": ["4C"],
                        "Andi": ["AS", "3H"],
                        "Dewi": ["KS", "QS", "JD"],
                    },
                }
            ],
            players=players,
        )
    )
    assert state.to_json()["rounds"][0] == {
        "dealer": "Budi",
        "outcome": "undercut",
        "winner": ["Budi", "Siti"],
        "scores": {"Budi": 36, "Siti": 36, "Andi": 0, "Dewi": 0},
    }


def test_manipulation_two_players_winner_scores_the_difference() -> None:
    state = replay(
        match(
            "manipulation",
            [{"knock": "Budi", "hands": {"Budi": ["5S"], "Siti": ["10S", "2S"]}}],
            players=["Budi", "Siti"],
        )
    )
    assert state.rounds[0].scores == {"Budi": 7, "Siti": 0}


def test_manipulation_out_adds_25_for_the_empty_hand() -> None:
    # Siti 14, Andi 3: 17 + 25 = 42.
    state = replay(
        manipulation_round(
            out="Budi", hands={"Budi": [], "Siti": ["5C", "9D"], "Andi": ["AS", "2H"]}
        )
    )
    assert state.to_json()["rounds"][0] == {
        "dealer": "Budi",
        "outcome": "out",
        "winner": "Budi",
        "scores": {"Budi": 42, "Siti": 0, "Andi": 0},
    }


def test_manipulation_joker_in_hand_counts_25() -> None:
    # Budi JK = 25, Siti 2; Andi knocks with 1: (25-1) + (2-1) = 25.
    state = replay(
        manipulation_round(knock="Andi", hands={"Budi": ["JK"], "Siti": ["2C"], "Andi": ["AS"]})
    )
    assert state.rounds[0].scores["Andi"] == 25


def test_manipulation_knock_needs_five_or_less() -> None:
    error = error_of(
        manipulation_round(
            knock="Andi", hands={"Budi": ["KS"], "Siti": ["QS"], "Andi": ["2H", "4S"]}
        )
    )
    assert error.round == 1 and "6" in error.message and "5 or less" in error.message


def test_manipulation_stock_ending_lowest_wins_without_undercut_bonus() -> None:
    # Budi 3, Siti 3, Andi 10: both win, each (3-3) + (10-3) = 7.
    state = replay(
        manipulation_round(
            end="stock", hands={"Budi": ["3C"], "Siti": ["AD", "2D"], "Andi": ["10H"]}
        )
    )
    assert state.to_json()["rounds"][0] == {
        "dealer": "Budi",
        "outcome": "stock",
        "winner": ["Budi", "Siti"],
        "scores": {"Budi": 7, "Siti": 7, "Andi": 0},
    }


def test_manipulation_stock_ending_empty_hand_adds_25() -> None:
    # Siti 0: (3-0) + (10-0) + 25 = 38.
    state = replay(
        manipulation_round(end="stock", hands={"Budi": ["3C"], "Siti": [], "Andi": ["10H"]})
    )
    assert state.rounds[0].scores == {"Budi": 0, "Siti": 38, "Andi": 0}


def test_manipulation_match_end_bonuses_go_to_totals_only() -> None:
    rounds = [
        # Budi knocks: 3 vs 20 and 14: 28.
        {
            "knock": "Budi",
            "hands": {"Budi": ["AS", "2H"], "Siti": ["KS", "QD"], "Andi": ["5C", "9D"]},
        },
        # Siti knocks: 1 vs 7 and 5: 10.
        {"knock": "Siti", "hands": {"Siti": ["AH"], "Budi": ["3C", "4C"], "Andi": ["2S", "3S"]}},
        # Andi goes out: 30 + 19 + 25 = 74.
        {"out": "Andi", "hands": {"Budi": ["KC", "QC", "JC"], "Siti": ["10H", "9H"]}},
    ]
    state = replay(match("manipulation", rounds, target=50))
    assert [r.scores for r in state.rounds] == [
        {"Budi": 28, "Siti": 0, "Andi": 0},
        {"Budi": 0, "Siti": 10, "Andi": 0},
        {"Budi": 0, "Siti": 0, "Andi": 74},
    ]
    # Andi reached 50: +100.  Budi and Siti won one round each: +25.
    assert state.totals == {"Budi": 53, "Siti": 35, "Andi": 174}
    assert state.finished and state.winners == ("Andi",) and state.next_dealer is None
    assert [r.dealer for r in state.rounds] == ["Budi", "Siti", "Andi"]


def test_manipulation_tie_at_the_end_is_shared() -> None:
    # Stock: Budi 3, Siti 3, Andi K Q J 10 9 4 = 53: each of Budi, Siti scores 53 - 3 +
    # 3 - 3 = 50 and reaches target 50 (the least RULES.md allows); both +100: 150 each.
    andi = ["KH", "QH", "JH", "10H", "9H", "4H"]
    state = replay(
        match(
            "manipulation",
            [{"end": "stock", "hands": {"Budi": ["3C"], "Siti": ["3D"], "Andi": andi}}],
            target=50,
        )
    )
    assert state.totals == {"Budi": 150, "Siti": 150, "Andi": 0}
    assert state.winners == ("Budi", "Siti")


def test_manipulation_an_empty_hand_other_than_the_out_player_is_refused() -> None:
    error = error_of(
        manipulation_round(knock="Andi", hands={"Budi": [], "Siti": ["QS"], "Andi": ["2H"]})
    )
    assert "Budi's hand is empty" in error.message


def test_manipulation_turns_give_played_and_table() -> None:
    turns = [
        {"player": "Siti", "played": ["7S", "8S", "9S"], "table": [["7S", "8S", "9S"]]},
        {"player": "Andi", "played": ["JK", "10S"], "table": [["7S", "8S", "9S", "10S", "JK=JS"]]},
    ]
    live = live_round(match("manipulation", []), turns)
    assert live.table[0].cards[-1] == Card.parse("JK=JS")
    assert live.played["Andi"] == (Card.parse("JK"), Card.parse("10S"))
    round_ = {
        "turns": [
            *turns,
            {
                "player": "Budi",
                "played": ["6S", "6H", "6D", "6C"],
                "table": [["7S", "8S", "9S", "10S", "JK=JS"], ["6S", "6H", "6D", "6C"]],
                "out": True,
            },
        ],
        "hands": {"Siti": ["2C"], "Andi": ["3C"]},
    }
    state = replay(match("manipulation", [round_]))
    assert state.rounds[0].scores == {"Budi": 2 + 3 + 25, "Siti": 0, "Andi": 0}


def test_manipulation_table_melds_must_be_legal() -> None:
    turns = [{"player": "Siti", "played": ["7S", "8S", "10S"], "table": [["7S", "8S", "10S"]]}]
    with pytest.raises(RuleError) as caught:
        live_round(match("manipulation", []), turns)
    assert (caught.value.round, caught.value.turn) == (1, 1)
    assert "9S is missing" in caught.value.message


def test_manipulation_turn_style_is_enforced() -> None:
    with pytest.raises(RuleError, match="played"):
        live_round(match("manipulation", []), [{"player": "Siti", "melds": [["7S", "8S", "9S"]]}])
    with pytest.raises(RuleError, match="melds"):
        live_round(match("remi", []), [{"player": "Siti", "played": ["7S"], "table": []}])


# -- gin -------------------------------------------------------------------------------------

GIN_HANDS = {"Budi": "7C 8C 9C 2S 2H 2D 5H 6H 7H AS", "Siti": "6C 10C 4D 10S JS QS KS 9H 9D 9S"}


def test_gin_knock_scored_and_loser_deals_next() -> None:
    # Budi deadwood AS = 1.  Siti melds 10S-KS and the 9s, lays off 6C and 10C on
    # Budi's clubs: deadwood 4D = 4.  Budi scores 4 - 1 = 3; Siti lost and deals.
    state = replay(match("gin", [{"knock": "Budi", "hands": GIN_HANDS}], players=["Budi", "Siti"]))
    assert state.to_json()["rounds"] == [
        {"dealer": "Budi", "outcome": "knock", "winner": "Budi", "scores": {"Budi": 3, "Siti": 0}}
    ]
    assert state.next_dealer == "Siti"


def test_gin_draw_and_void_keep_the_dealer() -> None:
    state = replay(match("gin", [{"end": "draw"}, {"end": "void"}], players=["Budi", "Siti"]))
    assert [r.to_json()["outcome"] for r in state.rounds] == ["draw", "void"]
    assert [r.dealer for r in state.rounds] == ["Budi", "Budi"] and state.next_dealer == "Budi"


def test_gin_hands_hold_ten_cards() -> None:
    hands = {"Budi": "7C 8C 9C 2S 2H 2D 5H 6H 7H", "Siti": GIN_HANDS["Siti"]}
    error = error_of(match("gin", [{"knock": "Budi", "hands": hands}], players=["Budi", "Siti"]))
    assert error.round == 1 and "9 cards" in error.message


def test_gin_rounds_have_no_turns() -> None:
    error = error_of(
        match(
            "gin",
            [{"knock": "Budi", "hands": GIN_HANDS, "turns": [{"player": "Budi"}]}],
            players=["Budi", "Siti"],
        )
    )
    assert "without turns" in error.message


# -- the live round --------------------------------------------------------------------------


def test_live_round_numbers_melds_and_marks_who_laid_off_what() -> None:
    document = match("remi", [{"end": "blocked"}])
    live = live_round(document, FORMAT_ROUND["turns"][:2])
    assert live.number == 2 and live.dealer == "Siti" and live.leader == "Andi"
    (meld,) = live.table
    assert (meld.number, meld.player, meld.turn) == (1, "Siti", 1)
    assert [(str(lay.card), lay.player, lay.turn) for lay in meld.layoffs] == [("10S", "Andi", 2)]
    assert [str(c) for c in meld.cards] == ["7S", "8S", "9S", "10S"]
    assert live.played["Andi"] == (Card.parse("10S"),)
    assert live.hand_size("Andi") == 6
    assert live.melds_accepting("6S") == [1] and live.melds_accepting("JS") == [1]
    assert live.melds_accepting("5S") == []
    assert live.melds_accepting("10S") == []  # already on the table: nobody holds it


def test_live_round_apply_turn_changes_nothing_on_error() -> None:
    live = RoundInProgress.start(read_header(match("remi", [])))
    after = live.apply_turn({"player": "Siti", "melds": [["7S", "8S", "9S"]]})
    with pytest.raises(RuleError) as caught:
        after.apply_turn({"player": "Andi", "melds": [["7S", "7H", "7D"]]})
    assert (caught.value.round, caught.value.turn) == (1, 2)
    assert caught.value.message == "7S is already on the table, in meld 1"
    assert len(after.table) == 1 and live.table == ()
    assert not after.can_apply_turn({"player": "Nobody"})


def test_live_round_json_view() -> None:
    live = live_round(match("remi", []), FORMAT_ROUND["turns"][:2])
    view = live.to_json()
    assert view["table"][0]["cards"] == ["7S", "8S", "9S", "10S"]
    assert view["table"][0]["layoffs"] == [{"card": "10S", "player": "Andi", "turn": 2}]


def test_live_round_after_the_match_is_over_is_refused() -> None:
    with pytest.raises(RuleError, match="already over"):
        live_round(match("remi", [FORMAT_ROUND]))


def test_round_result_details_for_display() -> None:
    state = replay(match("remi", [FORMAT_ROUND], target=200))
    result = state.rounds[0]
    assert result.went_out == "Budi" and result.hand_values == {"Budi": 0, "Siti": 26, "Andi": 37}
    assert [m.number for m in result.table] == [1, 2, 3]
    assert [str(m) for m in result.melds_by_player["Budi"]] == ["4H 4D 4C", "JC QC KC"]
    assert "count double" in result.notes[0].text


def test_manipulation_live_turns_follow_the_formal_table_check() -> None:
    base = match("manipulation", [], players=["Ana", "Bima"])
    first = {
        "player": "Bima",
        "played": ["5H", "6H", "7H", "JK"],
        "table": [["5H", "6H", "7H", "JK=8H"]],
    }
    assert live_round(base, [first]).table[0].cards[-1] == Card.parse("JK=8H")
    refused = [
        (
            ["9S", "10S"],
            [["5H", "6H", "7H"], ["9S", "10S", "JK=JS"]],
            "a joker stood for 8H before the turn and no longer does",
        ),
        (["8H"], [["6H", "7H", "8H", "JK=9H"]], "5H left the table"),
        (["9H"], [["5H", "6H", "7H", "JK=8H", "9H", "10H"]], "10H is on the table after"),
        (["9H", "QS"], [["5H", "6H", "7H", "JK=8H", "9H"]], "QS was played from the hand but"),
        ([], [["JK=4H", "5H", "6H", "7H"]], "at least one card from the hand"),
    ]
    for played, table, words in refused:
        turn = {"player": "Ana", "played": played, "table": table}
        with pytest.raises(RuleError, match=words) as caught:
            live_round(base, [first, turn])
        assert (caught.value.round, caught.value.turn) == (1, 2)


def test_manipulation_turn_that_only_draws() -> None:
    # RULES.md Decision: nothing put down, written "played": [] with the table unchanged
    # (the melds in any order) or with the table left out
    base = match("manipulation", [], players=["Ana", "Bima"])
    first = {"player": "Bima", "played": ["5H", "6H", "7H"], "table": [["5H", "6H", "7H"]]}
    for draw in (
        {"player": "Ana", "played": []},
        {"player": "Ana", "played": [], "table": [["7H", "5H", "6H"]]},
    ):
        live = live_round(base, [first, draw])
        assert [str(meld.meld) for meld in live.table] == ["5H 6H 7H"]
        assert live.played["Ana"] == ()
    # a turn that only draws does not empty a hand; and a table needs its cards played
    with pytest.raises(RuleError, match="only drew"):
        live_round(base, [first, {"player": "Ana", "played": [], "out": True}])
    with pytest.raises(RuleError, match='needs "table"'):
        live_round(base, [first, {"player": "Ana", "played": ["8H"]}])
