"""Hollywood gin: where each round's score goes, each column's close and the match result.

Every expectation is worked out by hand from RULES.md (gin, option ``scoring``).
"""

from __future__ import annotations

import pytest

from referee.errors import RuleError
from referee.hollywood import (
    HandResult,
    HollywoodOptions,
    columns_entered,
    results_of,
    score_columns,
)

PLAYERS = ("Budi", "Siti")


def win(name: str, points: int) -> HandResult:
    return HandResult(name, points)


def sheet_of(*results: HandResult, rules: HollywoodOptions | None = None):
    return score_columns(PLAYERS, list(results), rules or HollywoodOptions())


def test_first_win_enters_column_1_second_1_and_2_third_all_three():
    sheet = sheet_of(win("Budi", 30), win("Budi", 20), win("Budi", 10))
    assert [column.points["Budi"] for column in sheet.columns] == [60, 30, 10]
    assert [len(column.entries) for column in sheet.columns] == [3, 2, 1]


def test_the_fourth_win_and_later_ones_go_into_all_three():
    sheet = sheet_of(win("Budi", 10), win("Budi", 10), win("Budi", 10), win("Budi", 10))
    assert [column.points["Budi"] for column in sheet.columns] == [40, 30, 20]


def test_each_player_climbs_the_columns_on_their_own_wins():
    sheet = sheet_of(
        win("Budi", 30), win("Budi", 20), win("Budi", 10), win("Siti", 25), win("Siti", 40)
    )
    assert [column.points for column in sheet.columns] == [
        {"Budi": 60, "Siti": 65},
        {"Budi": 30, "Siti": 40},
        {"Budi": 10, "Siti": 0},
    ]
    assert not any(column.closed for column in sheet.columns)
    assert sheet.winners == ()


def test_a_draw_enters_nothing():
    sheet = sheet_of(win("Budi", 30), HandResult.draw(), win("Budi", 20))
    assert [column.points["Budi"] for column in sheet.columns] == [50, 20, 0]


def test_a_win_of_zero_is_an_entry_and_saves_from_the_shutout():
    # Budi's 0 is his entry in column 1; Siti's 100 closes it: no shutout, both boxes.
    sheet = sheet_of(win("Budi", 0), win("Siti", 100))
    first = sheet.columns[0]
    assert first.closed and first.winner == "Siti"
    assert first.boxes == {"Budi": 20, "Siti": 20}
    assert not first.shutout
    assert first.totals == {"Budi": 20, "Siti": 100 + 20 + 100}


def test_column_closing_bonuses_shutout_and_the_shut_out_player_starting_on_the_next():
    sheet = sheet_of(win("Budi", 60), win("Budi", 50), win("Siti", 10), win("Siti", 100))
    first, second, third = sheet.columns
    # Column 1 closes after round 2 at Budi 110: 2 boxes, the game, and doubled (Siti has
    # no entry).
    assert (first.closed, first.winner, first.closed_after) == (True, "Budi", 2)
    assert first.totals == {"Budi": (110 + 40 + 100) * 2, "Siti": 0}
    assert first.shutout
    # Siti, shut out of column 1, enters her first win in column 2, the next open one;
    # her next win goes into 2 and 3 (never into the closed column 1).
    assert [entry.player for entry in second.entries] == ["Budi", "Siti", "Siti"]
    assert [entry.round for entry in third.entries] == [4]
    # Round 4 closes columns 2 and 3 at once.
    assert second.closed_after == third.closed_after == 4
    assert second.winner == third.winner == "Siti"
    assert second.totals == {"Budi": 50 + 20, "Siti": 110 + 40 + 100}
    assert not second.shutout
    assert third.totals == {"Budi": 0, "Siti": (100 + 20 + 100) * 2}
    assert third.shutout
    assert sheet.over
    assert sheet.totals == {"Budi": 500 + 70 + 0, "Siti": 0 + 250 + 440}
    assert sheet.winners == ("Siti",)
    assert sheet.columns_won == {"Budi": 1, "Siti": 2}


def test_the_sum_of_the_differences_names_the_same_winner_as_the_totals():
    sheet = sheet_of(win("Budi", 60), win("Budi", 50), win("Siti", 10), win("Siti", 100))
    signed = [
        column.difference if column.winner == "Siti" else -column.difference
        for column in sheet.columns
    ]
    assert signed == [-500, 180, 440]
    assert sum(signed) == sheet.totals["Siti"] - sheet.totals["Budi"] == 120


def test_more_columns_won_decides_nothing():
    # Siti wins two columns and still loses on the totals.
    sheet = sheet_of(win("Budi", 500), win("Siti", 100), win("Siti", 100))
    assert sheet.columns_won == {"Budi": 1, "Siti": 2}
    # Column 1: Budi (500 + 20 + 100) * 2; column 2: Siti 100 + 20 + 100 doubled (Budi has
    # no entry), then her second win closes column 3 as its first entry, doubled too.
    assert sheet.totals == {"Budi": 1240, "Siti": 440 + 440}
    assert sheet.winners == ("Budi",)


def test_equal_sums_share_the_win():
    rules = HollywoodOptions(game_bonus=0, box_bonus=10, shutout=False)
    sheet = sheet_of(
        win("Budi", 130),  # column 1 closes: Budi 130 + 10
        win("Siti", 40),
        win("Siti", 40),
        win("Siti", 40),  # column 2 closes: Siti 120 + 30; column 3 Siti 80
        win("Budi", 100),  # column 3 closes: Budi 100 + 10, Siti 80 + 20
        rules=rules,
    )
    assert [column.winner for column in sheet.columns] == ["Budi", "Siti", "Budi"]
    assert sheet.totals == {"Budi": 250, "Siti": 250}
    assert sheet.winners == ("Budi", "Siti")


def test_without_shutout_nothing_is_doubled():
    sheet = sheet_of(win("Budi", 100), rules=HollywoodOptions(shutout=False))
    assert sheet.columns[0].totals == {"Budi": 100 + 20 + 100, "Siti": 0}


def test_the_house_bonuses_act_at_each_close():
    sheet = sheet_of(win("Budi", 100), rules=HollywoodOptions(game_bonus=50, box_bonus=25))
    assert sheet.columns[0].totals == {"Budi": (100 + 25 + 50) * 2, "Siti": 0}


def test_a_column_closes_on_reaching_the_target_not_before():
    rules = HollywoodOptions(target=150)
    sheet = sheet_of(win("Budi", 149), rules=rules)
    assert not sheet.columns[0].closed
    sheet = sheet_of(win("Budi", 149), win("Budi", 1), rules=rules)
    assert sheet.columns[0].closed
    assert not sheet.columns[1].closed


def test_oklahoma_makes_the_column_target_150_and_hollywood_defaults_stand():
    assert HollywoodOptions.for_gin({"oklahoma": True}) == HollywoodOptions(target=150)
    assert HollywoodOptions.for_gin({}) == HollywoodOptions(
        target=100, game_bonus=100, box_bonus=20, shutout=True
    )
    assert HollywoodOptions.for_gin({"target": 200, "box_bonus": 25}).box_bonus == 25


def test_which_columns_a_win_enters():
    sheet = sheet_of(win("Budi", 100))  # column 1 closed
    assert columns_entered(sheet.columns, "Siti") == (2,)
    assert columns_entered(sheet.columns, "Budi") == (2,)


def test_a_round_after_the_third_column_closed_is_refused():
    with pytest.raises(RuleError, match="round 4 comes after the end of the match"):
        sheet_of(win("Budi", 100), win("Budi", 100), win("Budi", 100), win("Siti", 5))


def test_a_stranger_cannot_win_a_round():
    with pytest.raises(RuleError, match="Andi is not one of the two players"):
        sheet_of(win("Andi", 10))


def test_a_negative_score_is_refused():
    with pytest.raises(RuleError, match="0 or more, not -5"):
        sheet_of(win("Budi", -5))


def test_options_out_of_range_are_refused_in_words():
    with pytest.raises(RuleError, match="target of a game is from 50 to 1000, not 40"):
        HollywoodOptions(target=40)
    with pytest.raises(RuleError, match="box bonus is from 0 to 100, not 101"):
        HollywoodOptions(box_bonus=101)


def test_three_players_are_refused():
    with pytest.raises(RuleError, match="exactly 2 players, not 3"):
        score_columns(("Budi", "Siti", "Andi"), [], HollywoodOptions())


def test_the_sheet_as_the_match_file_writes_it():
    sheet = sheet_of(win("Budi", 100), win("Siti", 12))
    assert sheet.to_json() == {
        "columns": [
            {"totals": {"Budi": 440, "Siti": 0}, "closed": True, "winner": "Budi"},
            {"totals": {"Budi": 0, "Siti": 12}, "closed": False},
            {"totals": {"Budi": 0, "Siti": 0}, "closed": False},
        ]
    }


def test_gins_scored_rounds_become_the_results_a_void_is_no_round_a_draw_no_win():
    from referee.scoring import Outcome, RoundScore

    rounds = [
        RoundScore(Outcome.UNDERCUT, ("Siti",), {"Budi": 0, "Siti": 31}),
        RoundScore(Outcome.VOID, (), {"Budi": 0, "Siti": 0}),
        RoundScore(Outcome.DRAW, (), {"Budi": 0, "Siti": 0}),
        # An undercut with equal deadwood and undercut_bonus 0 is a win with 0.
        RoundScore(Outcome.UNDERCUT, ("Budi",), {"Budi": 0, "Siti": 0}),
    ]
    assert results_of(rounds) == [win("Siti", 31), HandResult.draw(), win("Budi", 0)]


def test_true_or_false_is_no_number_and_a_number_no_switch():
    with pytest.raises(RuleError, match="the game bonus is from 0 to 500, not True"):
        HollywoodOptions(game_bonus=True)
    with pytest.raises(RuleError, match="shutout is true or false, not 1"):
        HollywoodOptions(shutout=1)  # type: ignore[arg-type]
