"""Hands given as points in a final-table round (docs/points.md): reading, writing, scoring,
refusals.  Every expected number is worked out from RULES.md in the comment beside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.errors import MatchFileError, RefereeError, RuleError
from referee.gin import least_deadwood
from referee.match import replay
from referee.matchfile import dump_match, dump_round, read_match
from referee.rulesets import find_ruleset


def match(
    rules: str, players: list[str], *rounds: dict[str, Any], **options: Any
) -> dict[str, Any]:
    return {"rules": rules, "options": options, "players": players, "rounds": list(rounds)}


def refusal(document: dict[str, Any]) -> RefereeError:
    with pytest.raises(RefereeError) as caught:
        replay(document)
    return caught.value


# -- the match file ------------------------------------------------------------------------------


def test_an_integer_hand_is_read_as_points_and_written_back_in_seating_order() -> None:
    document = match(
        "remi",
        ["Budi", "Siti", "Andi"],
        {"out": "Budi", "hands": {"Andi": ["kh", "2c"], "Siti": 24}},
    )
    read = read_match(document)
    record = read.rounds[0]
    assert record.points == {"Siti": 24}
    assert list(record.hands or {}) == ["Andi"]
    written = dump_match(read)
    assert written["rounds"][0]["hands"] == {"Siti": 24, "Andi": ["KH", "2C"]}
    assert list(written["rounds"][0]["hands"]) == ["Siti", "Andi"]
    assert read_match(json.loads(json.dumps(written))) == read


def test_a_round_written_without_the_seating_puts_cards_first() -> None:
    record = read_match(
        match("remi", ["Budi", "Siti", "Andi"], {"out": "Budi", "hands": {"Siti": 0, "Andi": "KH"}})
    ).rounds[0]
    assert list(dump_round(record)["hands"].items()) == [("Andi", ["KH"]), ("Siti", 0)]


def test_cards_only_rounds_have_no_points() -> None:
    record = read_match(match("remi", ["Budi", "Siti"], {"out": "Budi", "hands": {"Siti": []}}))
    assert record.rounds[0].points is None and record.rounds[0].hands == {"Siti": ()}


@pytest.mark.parametrize("hand", [-1, 2.5, True, None, {"points": 3}])
def test_a_hand_that_is_neither_cards_nor_a_whole_number_of_0_or_more_is_refused(
    hand: Any,
) -> None:
    document = match("remi", ["Budi", "Siti"], {"out": "Budi", "hands": {"Siti": hand}})
    error = refusal(document)
    assert isinstance(error, MatchFileError) and error.round == 1
    assert "Siti's hand" in error.message


# -- what a hand can count -----------------------------------------------------------------------


def test_the_most_a_hand_can_count_per_ruleset() -> None:
    remi = find_ruleset("remi")
    # never grows: 10 dealt with 2 players (all worth 10: 100), 7 with 3-4 (70)
    assert (remi.most_hand_points(2), remi.most_hand_points(3)) == (100, 70)
    high = find_ruleset("rummy", {"ace": "high-low"})
    # 4 aces at 15 and the rest worth 10: 60 + 6 x 10 with 10 cards, 60 + 2 x 10 with 6
    assert (high.most_hand_points(2), high.most_hand_points(6)) == (120, 80)
    # 7 cards at most; 4 aces at 15 then pictures at 10: 60 + 30
    assert find_ruleset("remi-indonesia").most_hand_points(4) == 90
    manipulation = find_ruleset("manipulation")
    # no discard pile: the own 10 and the stock (53 - 20 = 33) with 2 players, 43 cards:
    # joker 25, sixteen tens 160, then 9 8 7 6 5 4 four times each (156) and two 3s (6)
    assert (manipulation.most_cards_held(2), manipulation.most_hand_points(2)) == (43, 347)
    # 3 players, two decks: 106 - 2 x 10 = 86 cards, all but the 20 lowest; the decks count
    # 2 x 340 + 2 jokers x 25 = 730, the 20 lowest (8 aces, 8 twos, 4 threes) 8 + 16 + 12 = 36
    assert (manipulation.most_cards_held(3), manipulation.most_hand_points(3)) == (86, 694)
    assert find_ruleset("gin").most_hand_points(2) == 98


def test_remi_indonesia_hands_count_multiples_of_5() -> None:
    # sums of at most 7 cards worth 5, 10 or 15 (at most 4 aces)
    assert find_ruleset("remi-indonesia").possible_hand_points(3) == set(range(0, 91, 5))


def test_every_count_up_to_the_most_is_a_remi_hand() -> None:
    assert find_ruleset("remi").possible_hand_points(3) == set(range(71))


def test_98_is_a_gin_deadwood() -> None:
    # no meld: two of each of K Q J 10 (a third would be a set) and two 9s, in suits with no run
    assert least_deadwood("KS KH QD QC JS JH 10D 10C 9S 9H") == 98


# -- scoring -------------------------------------------------------------------------------------


def test_a_round_result_keeps_the_points_and_what_they_count() -> None:
    state = replay(
        match(
            "remi",
            ["Budi", "Siti", "Andi"],
            {"out": "Budi", "hands": {"Siti": 24, "Andi": "KH 2C"}},
        )
    )
    result = state.rounds[0]
    assert result.points == {"Siti": 24}
    assert result.hand_values == {"Budi": 0, "Siti": 24, "Andi": 12}
    assert result.scores == {"Budi": 36, "Siti": 0, "Andi": 0}  # 24 + 10 + 2
    assert [reason.params["player"] for reason in result.unchecked] == ["Siti"]
    assert "the 7 cards dealt" in result.unchecked[0].text


def test_a_cards_only_round_has_nothing_unchecked() -> None:
    state = replay(match("remi", ["Budi", "Siti"], {"out": "Budi", "hands": {"Siti": "KH"}}))
    assert state.rounds[0].unchecked == () and "unchecked" not in state.to_json()["rounds"][0]


def test_manipulation_stock_ending_with_an_empty_hand_given_as_0() -> None:
    # stock ran out: Budi 0 is the lowest, 12 - 0 = 12, no undercut bonus, +25 for the empty hand
    state = replay(
        match("manipulation", ["Budi", "Siti"], {"end": "stock", "hands": {"Budi": 0, "Siti": 12}})
    )
    assert state.rounds[0].scores == {"Budi": 37, "Siti": 0}


def test_gin_points_after_a_draw_and_a_void_change_nothing() -> None:
    state = replay(
        match(
            "gin",
            ["Budi", "Siti"],
            {"end": "draw"},
            {"end": "void"},
            {"knock": "Siti", "hands": {"Budi": 30, "Siti": 10}},
        )
    )
    # the draw and the void keep Budi dealing; knock 30 - 10 = 20 for Siti; Budi lost, deals
    assert [r.dealer for r in state.rounds] == ["Budi", "Budi", "Budi"]
    assert state.totals == {"Budi": 0, "Siti": 20} and state.next_dealer == "Budi"
    assert state.rounds[2].adjudication is None
    assert "Budi 30, Siti 10" in state.rounds[2].unchecked[0].text


def test_points_in_a_blocked_round_count_for_nothing() -> None:
    state = replay(match("remi", ["Budi", "Siti"], {"end": "blocked", "hands": {"Budi": 30}}))
    result = state.rounds[0]
    assert result.scores == {"Budi": 0, "Siti": 0}
    assert result.points == {} and result.unchecked == ()
    assert dump_match(
        read_match(match("remi", ["Budi", "Siti"], {"end": "blocked", "hands": {"Budi": 30}}))
    )["rounds"] == [{"end": "blocked", "hands": {"Budi": 30}}]


# -- refusals ------------------------------------------------------------------------------------


def test_a_player_who_went_out_counts_0() -> None:
    error = refusal(
        match("remi", ["Budi", "Siti"], {"out": "Budi", "hands": {"Budi": 5, "Siti": 9}})
    )
    assert isinstance(error, RuleError) and error.message == (
        "Budi went out, so Budi's hand counts 0, not 5"
    )


def test_0_points_is_an_empty_hand_which_is_going_out() -> None:
    error = refusal(match("rummy", ["Budi", "Siti"], {"out": "Budi", "hands": {"Siti": 0}}))
    assert "Siti's hand is empty" in error.message


def test_points_in_a_round_entered_turn_by_turn_are_refused() -> None:
    turns = [{"player": "Siti", "melds": [["7S", "8S", "9S"]]}]
    error = refusal(
        match("remi", ["Budi", "Siti"], {"turns": turns, "end": "blocked", "hands": {"Budi": 12}})
    )
    assert error.round == 1 and "entered turn by turn" in error.message


def test_gin_points_with_the_knockers_melds_are_refused() -> None:
    error = refusal(
        match(
            "gin",
            ["Budi", "Siti"],
            {
                "knock": "Budi",
                "hands": {"Budi": 4, "Siti": 20},
                "melds": {"Budi": [["7S", "8S", "9S"]]},
            },
        )
    )
    assert "melds can only be used with the cards" in error.message


def test_the_knock_limit_is_checked_on_points() -> None:
    error = refusal(
        match("gin", ["Budi", "Siti"], {"knock": "Siti", "hands": {"Budi": 20, "Siti": 11}})
    )
    assert error.message.startswith("Siti cannot knock with 11 deadwood")
    assert "10 or less" in error.message


# -- the command line ----------------------------------------------------------------------------


def test_the_score_sheet_says_what_was_not_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "points.json"
    path.write_text(
        json.dumps(
            match("gin", ["Budi", "Siti"], {"knock": "Budi", "hands": {"Budi": 3, "Siti": 40}})
        )
    )
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "knock: Budi" in out and "+37 = 37" in out  # 40 - 3
    assert "Not checked (hands given as points):" in out
    assert "Round 1: the deadwoods were given as points (Budi 3, Siti 40)" in out
