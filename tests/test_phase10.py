"""Phase 10: the deck, the phases and their validator, hits, Skips, a hand's final table and
the phase tracker over a match.

Every expectation is worked out by hand from RULES.md (``phase10``) and MATCH_FORMAT.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from referee.errors import NotationError, RuleError
from referee.phase10 import (
    LEAST_CARDS,
    OPTION_TABLE,
    PHASES,
    HandPlay,
    HandResult,
    Meld,
    MeldKind,
    Phase10Options,
    Phase10State,
    check_meld,
    hit,
    melds_of,
    play_turns,
    replay_match,
    score_hand,
    verify_phase,
)
from referee.phase10_deck import PHASE10_DECK, STANDARD_DECKS, penalty

P = PHASE10_DECK.parse
SEATS = ("Andi", "Budi", "Siti")


def melds(*typed: str):
    return melds_of(PHASE10_DECK, typed)


def pieces(typed: str):
    return PHASE10_DECK.parse_many(typed)


# --- the deck ----------------------------------------------------------------------------


def test_the_phase10_deck_holds_108_cards():
    copies = PHASE10_DECK.copies
    assert PHASE10_DECK.size == 108
    assert copies["R7"] == copies["Y12"] == copies["G1"] == 2
    assert copies["W"] == 8 and copies["SK"] == 4
    assert sum(v for k, v in copies.items() if k not in ("W", "SK")) == 96


def test_two_standard_decks_hold_108_cards_kings_wild_jokers_skip():
    assert STANDARD_DECKS.size == 108
    assert STANDARD_DECKS.parse("KD").is_wild
    assert STANDARD_DECKS.parse("JK").is_skip
    assert STANDARD_DECKS.parse("AS").number == 1
    assert STANDARD_DECKS.parse("10H").number == 10
    assert STANDARD_DECKS.parse("JC").number == 11
    assert STANDARD_DECKS.parse("QH").number == 12
    assert STANDARD_DECKS.parse("QH").colour == "H"


def test_a_phase10_card_is_never_read_as_a_playing_card():
    assert P("r7").colour == "R" and P("R7").number == 7
    assert P("B12").number == 12
    assert P("w").is_wild and P("sk").is_skip
    with pytest.raises(NotationError, match='"7H" is not a Phase 10 card'):
        P("7H")
    with pytest.raises(NotationError, match='"R13" is not a Phase 10 card'):
        P("R13")
    with pytest.raises(NotationError, match='"R7" is not a card of two standard decks'):
        STANDARD_DECKS.parse("R7")


def test_a_wild_in_a_run_names_its_number_as_its_deck_writes_numbers():
    assert P("W=5").number == 5 and str(P("w=5")) == "W=5"
    assert STANDARD_DECKS.parse("KH=J").number == 11
    assert STANDARD_DECKS.format(STANDARD_DECKS.parse("KH=A")) == "KH=A"
    with pytest.raises(NotationError, match="only a Wild says the number"):
        P("R7=5")
    with pytest.raises(NotationError, match="W=13"):
        P("W=13")
    with pytest.raises(NotationError, match="KH=11"):
        STANDARD_DECKS.parse("KH=11")


def test_penalties_5_10_15_25():
    assert [penalty(P(c)) for c in ("R1", "G9", "B10", "Y12", "SK", "W")] == [5, 5, 10, 10, 15, 25]
    standard = [
        penalty(STANDARD_DECKS.parse(c)) for c in ("AS", "9H", "10D", "JC", "QS", "JK", "KH")
    ]
    assert standard == [5, 5, 10, 10, 10, 15, 25]


# --- melds -------------------------------------------------------------------------------


def test_a_set_is_two_or_more_of_one_number_colours_do_not_matter():
    assert check_meld(pieces("R7 B7"), MeldKind.SET) is None
    assert check_meld(pieces("R7 R7 W"), MeldKind.SET) is None
    why = check_meld(pieces("R7 B7 G8"), MeldKind.SET)
    assert why is not None and why.text == "R7 B7 G8: a set is of one number, and G8 is not a 7"


def test_a_run_is_consecutive_numbers_each_once_and_12_1_is_no_run():
    assert check_meld(pieces("R3 B4 W=5 G6"), MeldKind.RUN) is None
    assert "5 is missing" in check_meld(pieces("R3 B4 G6"), MeldKind.RUN).text
    assert "4 is there twice" in check_meld(pieces("R3 B4 G4 Y5"), MeldKind.RUN).text
    assert "2 is missing" in check_meld(pieces("R11 B12 W=1"), MeldKind.RUN).text
    assert "says the number it stands for" in check_meld(pieces("R3 B4 W"), MeldKind.RUN).text


def test_a_colour_group_is_of_one_colour():
    assert check_meld(pieces("R1 R5 R9 R12 W"), MeldKind.COLOUR_GROUP) is None
    why = check_meld(pieces("R1 R5 B9"), MeldKind.COLOUR_GROUP)
    assert (
        why is not None
        and why.text == "R1 R5 B9: a colour group is of one colour, and B9 is not red"
    )


def test_a_skip_is_never_in_a_meld_and_a_meld_holds_a_card_that_is_not_a_wild():
    assert (
        check_meld(pieces("R7 B7 SK"), MeldKind.SET).text == "R7 B7 SK: a Skip is never in a meld"
    )
    assert "not a Wild" in check_meld(pieces("W W W"), MeldKind.SET).text


# --- the phases --------------------------------------------------------------------------


def test_the_ten_phases():
    described = {n: [part.text for part in parts] for n, parts in PHASES.items()}
    assert described == {
        1: ["set of 3", "set of 3"],
        2: ["set of 3", "run of 4"],
        3: ["set of 4", "run of 4"],
        4: ["run of 7"],
        5: ["run of 8"],
        6: ["run of 9"],
        7: ["set of 4", "set of 4"],
        8: ["colour group of 7"],
        9: ["set of 5", "set of 2"],
        10: ["set of 5", "set of 3"],
    }
    assert [LEAST_CARDS[n] for n in range(1, 11)] == [6, 7, 8, 7, 8, 9, 8, 7, 7, 8]


def test_phase_1_accepts_two_sets_of_3_or_more_even_of_the_same_number():
    assert verify_phase(1, melds("R7 B7 W", "G2 G2 Y2")).phase == 1
    assert verify_phase(1, melds("R7 B7 G7 Y7", "R2 B2 W")).cards == 7
    assert verify_phase(1, melds("R7 B7 G7", "Y7 R7 W")).phase == 1


def test_phase_1_is_never_three_sets():
    with pytest.raises(
        RuleError, match="phase 1 is set of 3 \\+ set of 3: 3 melds were laid, not 2"
    ):
        verify_phase(1, melds("R7 B7 W", "G2 G2 Y2", "R5 B5 G5"))


def test_a_phase_pairs_its_melds_with_its_parts_in_any_order():
    laid = verify_phase(2, melds("R4 R5 W=6 B7", "G9 Y9 R9"))
    assert [meld.kind for meld in laid.melds] == [MeldKind.SET, MeldKind.RUN]
    laid = verify_phase(9, melds("R3 B3", "G8 G8 Y8 B8 W"))
    assert [len(meld.pieces) for meld in laid.melds] == [5, 2]


def test_a_part_needs_its_size():
    with pytest.raises(RuleError, match="R4 R5 B6: a run needs at least 4 cards, not 3"):
        verify_phase(2, melds("R4 R5 B6", "G9 Y9 R9"))
    with pytest.raises(RuleError, match="a set needs at least 5 cards, not 4"):
        verify_phase(10, melds("R3 B3 G3 Y3", "G8 G8 Y8"))


def test_phase_4_is_a_run_of_7_with_named_wilds():
    assert verify_phase(4, melds("R2 B3 W=4 G5 Y6 W=7 R8")).phase == 4
    with pytest.raises(RuleError, match="phase 4 is run of 7: R2 B3 G5"):
        verify_phase(4, melds("R2 B3 G5 Y6 R7 R8 R9"))


def test_phase_8_is_a_colour_group_of_7():
    assert verify_phase(8, melds("G1 G3 G3 G7 G9 G12 W")).phase == 8
    with pytest.raises(RuleError, match="Y9 is not green"):
        verify_phase(8, melds("G1 G3 G3 G7 Y9 G12 W"))


def test_a_phase_never_holds_a_skip_or_a_meld_of_wilds_only():
    with pytest.raises(RuleError, match="a Skip is never in a meld"):
        verify_phase(1, melds("R7 B7 SK", "G2 G2 Y2"))
    with pytest.raises(RuleError, match="at least one card that is not a Wild"):
        verify_phase(1, melds("W W W", "G2 G2 Y2"))


# --- a hand, turn by turn: the exact phase, hits, skips -----------------------------------


def test_a_player_makes_exactly_their_own_phase():
    play = HandPlay({"Budi": (3,), "Siti": (1,)})
    with pytest.raises(RuleError, match="Budi is on phase 3, not phase 2"):
        play.lay_phase("Budi", melds("R4 R5 W=6 B7", "G9 Y9 R9"), phase=2)
    with pytest.raises(RuleError, match="phase 3 is set of 4 \\+ run of 4"):
        play.lay_phase("Budi", melds("R4 R5 W=6 B7", "G9 Y9 R9"))
    play.lay_phase("Budi", melds("R4 R5 W=6 B7", "G9 Y9 R9 W"))
    assert play.made == {"Budi": 3}


def test_the_phase_is_laid_once_per_hand():
    play = HandPlay({"Budi": (1,), "Siti": (1,)})
    play.lay_phase("Budi", melds("R7 B7 W", "G2 G2 Y2"))
    with pytest.raises(RuleError, match="Budi has already laid down a phase in this hand"):
        play.lay_phase("Budi", melds("R8 B8 W", "G3 G3 Y3"))


def test_hits_only_after_ones_own_phase_is_down_onto_any_phase():
    play = HandPlay({"Budi": (2,), "Siti": (1,)})
    with pytest.raises(RuleError, match="Siti cannot hit before laying down their own phase"):
        play.hit("Siti", P("R8"), 1)
    play.lay_phase("Budi", melds("G9 Y9 R9", "R4 R5 W=6 B7"))
    # Budi hits in the same turn, on his own run (meld 2).
    assert str(play.hit("Budi", P("R8"), 2)) == "R4 R5 W=6 B7 R8"
    with pytest.raises(RuleError, match="Siti cannot hit"):
        play.hit("Siti", P("B9"), 1)
    play.lay_phase("Siti", melds("R2 B2 G2", "Y11 Y11 W"))
    # Siti hits Budi's set of 9s and run.
    assert str(play.hit("Siti", P("B9"), 1)) == "G9 Y9 R9 B9"
    assert str(play.hit("Siti", P("Y3"), 2)) == "R4 R5 W=6 B7 R8 Y3"
    with pytest.raises(RuleError, match="there is no meld 5 on the table: there are 4"):
        play.hit("Siti", P("Y3"), 5)


def test_a_run_takes_a_number_just_below_or_above_within_1_to_12():
    run = Meld(MeldKind.RUN, pieces("R10 B11 G12"))
    with pytest.raises(RuleError, match="R8 does not fit the run R10 B11 G12: it takes only 9"):
        hit(run, P("R8"))
    assert str(hit(run, P("W=9"))) == "R10 B11 G12 W=9"
    with pytest.raises(RuleError, match="says the number it adds: 9"):
        hit(run, P("W"))
    low = Meld(MeldKind.RUN, pieces("R3 B4 G5"))
    with pytest.raises(RuleError, match="takes only 2 or 6"):
        hit(low, P("Y9"))
    full = Meld(MeldKind.RUN, pieces("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12"))
    with pytest.raises(RuleError, match="it runs from 1 to 12"):
        hit(full, P("B1"))


def test_a_set_takes_its_number_a_colour_group_its_colour_a_wild_any_a_skip_none():
    sets = Meld(MeldKind.SET, pieces("R7 B7 W"))
    assert str(hit(sets, P("Y7"))) == "R7 B7 W Y7"
    assert str(hit(sets, P("W"))) == "R7 B7 W W"
    assert str(hit(sets, P("W=7"))) == "R7 B7 W W"
    with pytest.raises(RuleError, match="G8 does not fit the set of 7s"):
        hit(sets, P("G8"))
    with pytest.raises(RuleError, match="W=8 does not fit the set of 7s"):
        hit(sets, P("W=8"))
    colour = Meld(MeldKind.COLOUR_GROUP, pieces("G1 G3 G5 G7 G9 G11 G12"))
    assert len(hit(colour, P("G2")).pieces) == 8
    with pytest.raises(RuleError, match="R2 is not green, the colour of G1"):
        hit(colour, P("R2"))
    with pytest.raises(RuleError, match="a Wild in a colour group is written alone"):
        hit(colour, P("W=2"))
    with pytest.raises(RuleError, match="a Skip is never played on a meld"):
        hit(sets, P("SK"))


def test_a_skip_is_never_taken_from_the_discard_pile():
    HandPlay.take_from_discard(P("R7"))
    with pytest.raises(RuleError, match="a Skip is never taken from the discard pile"):
        HandPlay.take_from_discard(P("SK"))


def test_a_skip_names_another_player_who_loses_their_next_turn_once_at_a_time():
    play = HandPlay({"Andi": (1,), "Budi": (1,), "Siti": (1,)})
    with pytest.raises(RuleError, match="Andi is not another player"):
        play.skip("Andi", "Andi")
    with pytest.raises(RuleError, match="Dewi is not another player"):
        play.skip("Andi", "Dewi")
    play.skip("Andi", "Siti")
    with pytest.raises(RuleError, match="Siti already has a lost turn to come"):
        play.skip("Budi", "Siti")
    assert play.turn_lost("Siti") and not play.turn_lost("Siti")
    play.skip("Budi", "Siti")  # her lost turn is behind her: she may be named again


def test_a_skip_as_the_last_card_skips_nobody():
    play = HandPlay({"Budi": (1,), "Siti": (1,)}, hands={"Budi": [P("SK")], "Siti": []})
    play.skip("Budi", None)
    assert play.hands["Budi"] == [] and not play.skipped
    play = HandPlay({"Budi": (1,), "Siti": (1,)}, hands={"Budi": [P("SK"), P("R1")]})
    with pytest.raises(RuleError, match="names the player who loses a turn"):
        play.skip("Budi", None)


def test_cards_played_must_be_in_the_hand_when_it_is_known():
    play = HandPlay(
        {"Budi": (1,), "Siti": (1,)}, hands={"Budi": list(pieces("R7 B7 W G2 G2 Y2 R1"))}
    )
    with pytest.raises(RuleError, match="Budi does not hold B2"):
        play.lay_phase("Budi", melds("R7 B7 W", "G2 B2 Y2"))
    play.lay_phase("Budi", melds("R7 B7 W", "G2 G2 Y2"))
    assert play.hands["Budi"] == [P("R1")]
    with pytest.raises(RuleError, match="Budi holds no Skip to play"):
        play.skip("Budi", "Siti")


# --- a hand's final table ----------------------------------------------------------------


def start(options: Phase10Options | None = None, seats=SEATS) -> Phase10State:
    return Phase10State.start(seats, seats[0], options)


def test_the_final_table_scores_the_cards_left_and_the_out_player_0():
    result = score_hand(
        start(),
        out="Budi",
        made={"Budi": 1, "Siti": 1},
        hands={"Siti": "R10 W B3 SK", "Andi": "R1 R2 B3 B4 G5 G6 Y7 Y8 Y11 Y12"},
    )
    # Siti: 10 + 25 + 5 + 15; Andi: eight cards 1-9 at 5 and two at 10.
    assert result.scores == {"Andi": 60, "Budi": 0, "Siti": 55}
    assert result.made == {"Budi": 1, "Siti": 1}


def test_a_player_who_did_not_make_their_phase_holds_exactly_10_cards():
    with pytest.raises(RuleError, match="Andi made no phase and holds 10 cards, not 9"):
        score_hand(
            start(),
            out="Budi",
            made={"Budi": 1},
            hands={
                "Siti": "R1 R2 B3 B4 G5 G6 Y7 Y8 Y11 Y12",
                "Andi": "R1 R2 B3 B4 G5 G6 Y7 Y8 Y11",
            },
        )


def test_one_who_made_it_holds_1_to_10_minus_the_phase():
    hands: Mapping[str, str] = {"Siti": "R10 W B3 SK R5", "Andi": "R1 R2 B3 B4 G5 G6 Y7 Y8 Y11 Y12"}
    with pytest.raises(RuleError, match="Siti made phase 1 and holds from 1 to 4 cards, not 5"):
        score_hand(start(), out="Budi", made={"Budi": 1, "Siti": 1}, hands=hands)
    # With the phase as laid (7 cards) at most 3 are left.
    with pytest.raises(RuleError, match="from 1 to 3 cards, not 4"):
        score_hand(
            start(),
            out="Budi",
            made={"Budi": 1, "Siti": 1},
            hands={**hands, "Siti": "R10 W B3 SK"},
            phases={"Siti": ["G4 G4 Y4 B4", "R9 B9 W"]},
        )
    with pytest.raises(RuleError, match="from 1 to 4 cards, not 0"):
        score_hand(start(), out="Budi", made={"Budi": 1, "Siti": 1}, hands={**hands, "Siti": ""})


def test_the_player_who_went_out_made_their_phase_and_has_no_cards():
    with pytest.raises(RuleError, match="Budi went out, so Budi made a phase"):
        score_hand(start(), out="Budi", made={}, hands={})
    with pytest.raises(RuleError, match="Budi went out, so their hand is empty, not R1"):
        score_hand(
            start(), out="Budi", made={"Budi": 1}, hands={"Budi": "R1", "Andi": 10, "Siti": 10}
        )


def test_each_phase_made_is_that_players_phase_and_the_cards_laid_are_it():
    with pytest.raises(RuleError, match="Siti is on phase 1, not phase 2"):
        score_hand(start(), out="Budi", made={"Budi": 1, "Siti": 2}, hands={})
    with pytest.raises(RuleError, match="phase 1 is set of 3 \\+ set of 3: R4 R5 B6"):
        score_hand(
            start(),
            out="Budi",
            made={"Budi": 1},
            hands={"Siti": 50, "Andi": 50},
            phases={"Budi": ["R4 R5 B6", "G9 Y9 R9"]},
        )
    with pytest.raises(RuleError, match="Siti's phase is given as laid, but Siti is not among"):
        score_hand(
            start(),
            out="Budi",
            made={"Budi": 1},
            hands={"Siti": 50, "Andi": 50},
            phases={"Siti": ["R4 B4 G4", "G9 Y9 R9"]},
        )


def test_no_card_more_often_than_the_deck_holds():
    with pytest.raises(RuleError, match="R9 is there 3 times, but the deck holds only 2"):
        score_hand(
            start(),
            out="Budi",
            made={"Budi": 1},
            hands={
                "Siti": "R9 R2 B3 B4 G5 G6 Y7 Y8 Y11 Y12",
                "Andi": "R1 R2 B3 B4 G5 G6 Y7 Y8 Y11 Y12",
            },
            phases={"Budi": ["R9 R9 Y9", "G4 G4 Y4"]},
        )


def test_penalties_given_as_points_are_multiples_of_5_from_5():
    result = score_hand(start(), out="Budi", made={"Budi": 1}, hands={"Siti": 35, "Andi": 60})
    assert result.scores == {"Andi": 60, "Budi": 0, "Siti": 35}
    with pytest.raises(RuleError, match="Siti's penalty is a multiple of 5 from 5"):
        score_hand(start(), out="Budi", made={"Budi": 1}, hands={"Siti": 7, "Andi": 60})
    with pytest.raises(RuleError, match="not 0"):
        score_hand(start(), out="Budi", made={"Budi": 1}, hands={"Siti": 0, "Andi": 60})
    with pytest.raises(RuleError, match="the cards of Andi are missing"):
        score_hand(start(), out="Budi", made={"Budi": 1}, hands={"Siti": 10})


def test_two_standard_decks_score_by_the_cards():
    options = Phase10Options(deck="standard")
    result = score_hand(
        start(options),
        out="Budi",
        made={"Budi": 1},
        hands={"Siti": "AS 9H 10D JC QS KH JK 2C 3C 4C", "Andi": "AS AH 2S 2H 3S 3H 4S 4H 5S 5H"},
        phases={"Budi": ["7S 7H KD", "8C 8D 8S"]},
    )
    # Siti: A 9 2 3 4 at 5, 10 J Q at 10, the joker (Skip) 15, the king (Wild) 25.
    assert result.scores == {"Andi": 50, "Budi": 0, "Siti": 25 + 30 + 15 + 25}


# --- the phase tracker over a match --------------------------------------------------------


def test_everyone_who_made_their_phase_moves_on_not_only_the_one_who_went_out():
    state = start().after(
        HandResult({"Budi": 1, "Siti": 1}, {"Andi": 50, "Budi": 0, "Siti": 20}, "Budi")
    )
    assert [state.current_phase(n) for n in SEATS] == [1, 2, 2]
    assert state.done == {"Andi": (), "Budi": (1,), "Siti": (1,)}
    assert state.totals == {"Andi": 50, "Budi": 0, "Siti": 20}


def test_a_player_who_failed_tries_the_same_phase_again_and_cannot_skip_ahead():
    state = start().after(HandResult({"Budi": 1}, {"Andi": 50, "Budi": 0, "Siti": 20}, "Budi"))
    with pytest.raises(RuleError, match="Andi is on phase 1, not phase 2"):
        state.after(HandResult({"Andi": 2}, {"Budi": 5, "Siti": 5, "Andi": 0}, "Andi"))


def hands_to(
    state: Phase10State, winner: str, phases: int, others: Mapping[str, int] | None = None
) -> Phase10State:
    """``winner`` goes out making their phase in each of ``phases`` hands; the others make
    nothing and score ``others`` each hand (10 by default)."""
    for _ in range(phases):
        scores = {n: (others or {}).get(n, 10) for n in state.in_hand if n != winner}
        state = state.after(
            HandResult({winner: state.current_phase(winner)}, {**scores, winner: 0}, winner)
        )
    return state


def test_the_first_to_complete_phase_10_wins():
    state = hands_to(start(), "Siti", 9)
    assert state.current_phase("Siti") == 10 and not state.over
    state = hands_to(state, "Siti", 1)
    assert state.over and state.winners == ("Siti",)
    with pytest.raises(RuleError, match="the match is over"):
        state.after(HandResult({}, {"Andi": 5}, "Andi"))


def both_on_phase_10(options: Phase10Options | None = None) -> Phase10State:
    state = start(options, ("Budi", "Siti"))
    for phase in range(1, 10):
        state = state.after(
            HandResult({"Budi": phase, "Siti": phase}, {"Budi": 0, "Siti": 10}, "Budi")
        )
    return state  # Budi 0, Siti 90


def test_several_completing_phase_10_in_one_hand_the_lowest_total_wins_this_hand_included():
    state = both_on_phase_10()
    # Siti goes out (0); Budi scores 95: totals Budi 95, Siti 90: Siti wins.
    state = state.after(HandResult({"Budi": 10, "Siti": 10}, {"Budi": 95, "Siti": 0}, "Siti"))
    assert state.winners == ("Siti",)


def test_a_tie_among_them_is_replayed_by_the_tied_players_only():
    state = start(None, ("Andi", "Budi", "Siti"))
    for phase in range(1, 10):
        state = state.after(
            HandResult({"Budi": phase, "Siti": phase}, {"Andi": 5, "Budi": 0, "Siti": 10}, "Budi")
        )
    # Budi 0, Siti 90: Budi scores 90 in the hand both complete phase 10.
    state = state.after(
        HandResult({"Budi": 10, "Siti": 10}, {"Andi": 5, "Budi": 90, "Siti": 0}, "Siti")
    )
    assert not state.over and state.replay == ("Budi", "Siti")
    assert state.in_hand == ("Budi", "Siti")
    assert state.allowed_phases("Budi") == (10,)
    with pytest.raises(RuleError, match="replays the last phase between Budi, Siti only"):
        state.after(HandResult({"Budi": 10}, {"Andi": 5, "Siti": 10, "Budi": 0}, "Budi"))
    # A voided replay is replayed again.
    assert state.after(HandResult.voided()) == state
    # The first of them to go out wins; the replay's penalties are added but decide nothing.
    final = state.after(HandResult({"Budi": 10}, {"Budi": 0, "Siti": 10}, "Budi"))
    assert final.winners == ("Budi",)
    assert final.totals == {"Andi": 50, "Budi": 90, "Siti": 100}


def test_even_phases_start_at_2_and_play_2_4_6_8_10():
    state = start(Phase10Options(phases="even"))
    assert state.current_phase("Andi") == 2
    with pytest.raises(
        RuleError, match="phase 1 is not played in this match \\(phases 2, 4, 6, 8, 10\\)"
    ):
        state.after(HandResult({"Andi": 1}, {"Budi": 5, "Siti": 5, "Andi": 0}, "Andi"))
    state = hands_to(state, "Andi", 4)
    assert state.done["Andi"] == (2, 4, 6, 8) and state.current_phase("Andi") == 10
    assert hands_to(state, "Andi", 1).winners == ("Andi",)


def test_any_order_makes_any_phase_not_yet_completed_and_wins_by_completing_all():
    state = start(Phase10Options(order="any"))
    assert state.allowed_phases("Andi") == tuple(range(1, 11))
    state = state.after(HandResult({"Andi": 7}, {"Budi": 5, "Siti": 5, "Andi": 0}, "Andi"))
    with pytest.raises(RuleError, match="Andi has already completed phase 7"):
        state.after(HandResult({"Andi": 7}, {"Budi": 5, "Siti": 5, "Andi": 0}, "Andi"))
    for phase in (10, 1, 2, 3, 4, 5, 6, 8):
        state = state.after(HandResult({"Andi": phase}, {"Budi": 5, "Siti": 5, "Andi": 0}, "Andi"))
    assert not state.over  # phase 9 is still to make, though phase 10 is done
    state = state.after(HandResult({"Andi": 9}, {"Budi": 5, "Siti": 5, "Andi": 0}, "Andi"))
    assert state.winners == ("Andi",)


def test_one_hand_per_phase_everyone_tries_phase_n_in_hand_n_and_lowest_total_wins():
    state = start(Phase10Options(format="hands"), ("Budi", "Siti"))
    # Hand 1: Budi makes phase 1; in hand 2 both try phase 2 whatever they made.
    state = state.after(HandResult({"Budi": 1}, {"Budi": 0, "Siti": 50}, "Budi"))
    assert state.allowed_phases("Siti") == (2,)
    with pytest.raises(RuleError, match="hand 2 plays phase 2: Siti cannot make phase 1"):
        state.after(HandResult({"Siti": 1}, {"Budi": 10, "Siti": 0}, "Siti"))
    for hand in range(2, 11):
        state = state.after(HandResult({"Siti": hand}, {"Budi": 10, "Siti": 0}, "Siti"))
    # Budi 9 x 10 = 90, Siti 50: Siti has the lowest total after the tenth hand.
    assert state.over and state.winners == ("Siti",)


def test_one_hand_per_phase_a_tie_is_a_shared_win_and_even_phases_take_5_hands():
    state = start(Phase10Options(format="hands", phases="even"), ("Budi", "Siti"))
    # Budi loses hands 1, 3, 5 (20 each), Siti hands 2 and 4 (30 each): 60 and 60.
    for hand, phase in enumerate((2, 4, 6, 8, 10), start=1):
        out, other, points = ("Siti", "Budi", 20) if hand % 2 else ("Budi", "Siti", 30)
        assert state.allowed_phases(out) == (phase,) and not state.over
        state = state.after(HandResult({out: phase}, {out: 0, other: points}, out))
    assert state.totals == {"Budi": 60, "Siti": 60}
    assert state.over and state.winners == ("Budi", "Siti")


def test_a_void_hand_changes_nothing_and_keeps_the_dealer():
    state = hands_to(start(), "Budi", 1)
    assert state.after(HandResult.voided()) == state
    assert state.after(HandResult.voided()).dealer == "Budi"


def test_the_deal_passes_one_seat_clockwise():
    state = start()
    assert state.dealer == "Andi"
    assert hands_to(state, "Budi", 1).dealer == "Budi"
    assert hands_to(state, "Budi", 2).dealer == "Siti"
    assert hands_to(state, "Budi", 3).dealer == "Andi"


def test_a_replay_is_dealt_on_skipping_the_players_who_sit_it_out():
    state = start()
    for phase in range(1, 10):
        state = state.after(
            HandResult({"Andi": phase, "Siti": phase}, {"Andi": 0, "Budi": 5, "Siti": 10}, "Andi")
        )
    assert state.dealer == "Andi"  # the tenth hand: nine hands after Andi's first
    state = state.after(
        HandResult({"Andi": 10, "Siti": 10}, {"Andi": 90, "Budi": 5, "Siti": 0}, "Siti")
    )
    assert state.replay == ("Andi", "Siti")
    assert state.dealer == "Siti"  # Budi, next clockwise, sits the replay out


def test_a_late_player_starts_at_the_first_phase_with_the_highest_total():
    state = hands_to(start(Phase10Options(phases="even")), "Budi", 2, {"Andi": 15, "Siti": 40})
    joined = state.with_player("Dewi")
    assert joined.totals["Dewi"] == 80
    assert joined.current_phase("Dewi") == 2
    with pytest.raises(RuleError, match="Dewi already plays in this match"):
        joined.with_player("Dewi")


def test_two_to_six_players():
    with pytest.raises(RuleError, match="2 to 6 players, not 1"):
        Phase10State.start(("Andi",), "Andi")
    with pytest.raises(RuleError, match="2 to 6 players, not 7"):
        Phase10State.start(tuple("ABCDEFG"), "A")


def test_options_are_checked_and_any_order_is_refused_with_one_hand_per_phase():
    with pytest.raises(RuleError, match="order: any cannot be played with format: hands"):
        Phase10Options(order="any", format="hands")
    with pytest.raises(RuleError, match="deck is phase10 / standard, not uno"):
        Phase10Options(deck="uno")
    declared = {o.name: o for o in OPTION_TABLE}
    assert declared["deck"].choices == ("phase10", "standard")
    assert not declared["order"].applies({"format": "hands"})
    assert declared["format"].default == "phases"


def test_a_match_replayed_from_its_hands_names_the_hand_of_an_error():
    hands = [
        HandResult({"Budi": 1}, {"Andi": 50, "Budi": 0, "Siti": 20}, "Budi"),
        HandResult({"Andi": 2}, {"Budi": 5, "Siti": 5, "Andi": 0}, "Andi"),
    ]
    with pytest.raises(RuleError) as refused:
        replay_match(SEATS, "Andi", hands)
    assert refused.value.round == 2
    assert "Andi is on phase 1, not phase 2" in refused.value.message


def test_a_skip_turned_up_first_costs_the_first_player_their_first_turn():
    play = HandPlay({"Budi": (1,), "Siti": (1,)})
    play.first_upcard(P("R7"), "Siti")
    assert not play.turn_lost("Siti")
    play.first_upcard(P("SK"), "Siti")
    assert play.turn_lost("Siti")


def test_the_match_file_facts():
    state = start().after(
        HandResult({"Budi": 1, "Siti": 1}, {"Andi": 50, "Budi": 0, "Siti": 20}, "Budi")
    )
    assert state.facts() == {"phases_done": {"Andi": [], "Budi": [1], "Siti": [1]}}
    assert HandResult({"Budi": 4}, {"Budi": 0}, "Budi").facts() == {"made": {"Budi": 4}}
    assert HandResult.voided().facts() == {}


# --- random phases: every phase built by its parts is accepted; a Skip or a card short is not


def random_meld(rng, kind: MeldKind, size: int) -> list[str]:
    colours = "RBGY"
    if kind is MeldKind.SET:
        number = rng.randint(1, 12)
        cards = [f"{rng.choice(colours)}{number}" for _ in range(size)]
        wild = "W"
    elif kind is MeldKind.RUN:
        low = rng.randint(1, 13 - size)
        cards = [f"{rng.choice(colours)}{n}" for n in range(low, low + size)]
        wild = None
    else:
        colour = rng.choice(colours)
        cards = [f"{colour}{rng.randint(1, 12)}" for _ in range(size)]
        wild = "W"
    for at in rng.sample(range(size), rng.randint(0, size - 1)):
        cards[at] = wild or f"W={cards[at][1:]}"
    rng.shuffle(cards)
    return cards


def test_random_phases_built_from_their_parts_are_accepted_and_broken_ones_refused():
    rng = random.Random(10)
    for _ in range(400):
        phase = rng.randint(1, 10)
        laid = [
            random_meld(rng, part.kind, part.size + rng.choice((0, 0, 1, 2)))
            for part in PHASES[phase]
        ]
        laid = [meld for meld in laid if len(meld) <= 12]
        if len(laid) != len(PHASES[phase]):
            continue
        rng.shuffle(laid)
        assert verify_phase(phase, [pieces(" ".join(m)) for m in laid]).phase == phase, laid
        with_skip = [list(m) for m in laid]
        with_skip[0].append("SK")
        with pytest.raises(RuleError, match="a Skip is never in a meld"):
            verify_phase(phase, [pieces(" ".join(m)) for m in with_skip])
        parts = PHASES[phase]
        if phase in (9, 10):  # a set of 5 one short may still pair as the set of 2 or 3
            continue
        for index, meld in enumerate(laid):
            if len(meld) == min(part.size for part in parts):
                short = [list(m) for m in laid]
                short[index] = sorted(meld, key=lambda c: c.startswith("W"))[1:]
                with pytest.raises(RuleError):
                    verify_phase(phase, [pieces(" ".join(m)) for m in short])


# --- a hand entered turn by turn ---------------------------------------------------------

EVENING = [
    {"player": "Siti", "melds": [["R7", "B7", "W"], ["G2", "G2", "Y2"]], "discard": "R1"},
    {"player": "Andi", "discard": "SK", "skip": "Budi"},
    {"player": "Siti", "layoffs": [{"cards": ["Y7"], "onto": 1}], "discard": "B11"},
    {"player": "Andi", "melds": [["R5", "B5", "G5"], ["Y9", "Y9", "W"]], "discard": "G12"},
    {"player": "Budi", "discard": "SK", "skip": "Siti"},
    {"player": "Andi", "layoffs": [{"cards": ["R2"], "onto": 2}], "discard": "B6"},
    {
        "player": "Siti",
        "layoffs": [{"cards": ["G7", "W"], "onto": 1}],
        "discard": "SK",
        "out": True,
    },
]
LEFT = {"Andi": "R1 R3 R4", "Budi": "R10 R11 R12 B1 B2 B3 B4 G6 G8 G10"}


def with_turn(number: int, **changed) -> list[dict]:
    turns = [dict(turn) for turn in EVENING]
    turns[number - 1].update(changed)
    return turns


def test_a_hand_turn_by_turn_scores_who_made_what_and_the_cards_left():
    result = play_turns(start(), EVENING, LEFT)
    assert result.out == "Siti"
    assert result.made == {"Siti": 1, "Andi": 1}
    # Andi: three cards 1-9; Budi: R10 R11 R12 G10 at 10, six cards 1-9 at 5.
    assert result.scores == {"Andi": 15, "Budi": 70, "Siti": 0}
    state = start().after(result)
    assert [state.current_phase(n) for n in SEATS] == [2, 1, 2]


def test_turn_by_turn_a_hit_before_ones_phase_is_refused_with_its_turn():
    turns = with_turn(2, layoffs=[{"cards": ["B2"], "onto": 2}])
    with pytest.raises(
        RuleError, match="Andi cannot hit before laying down their own phase"
    ) as refused:
        play_turns(start(), turns, LEFT)
    assert refused.value.turn == 2


def test_turn_by_turn_the_phase_is_the_players_own():
    turns = with_turn(4, melds=[["R5", "B5", "G5"], ["Y9", "Y10", "Y11", "W=12"]])
    with pytest.raises(RuleError, match="phase 1 is set of 3 \\+ set of 3"):
        play_turns(start(), turns, LEFT)


def test_turn_by_turn_a_skip_is_never_taken_from_the_pile():
    with pytest.raises(RuleError, match="a Skip is never taken from the discard pile"):
        play_turns(start(), with_turn(3, took_discard=["SK"]), LEFT)


def test_turn_by_turn_a_player_with_a_lost_turn_to_come_cannot_be_named():
    # Andi skips Siti; Budi, next, cannot name her before her lost turn has passed.
    turns = with_turn(2, skip="Siti")
    turns[2:2] = [{"player": "Budi", "discard": "SK", "skip": "Siti"}]
    with pytest.raises(RuleError, match="Siti already has a lost turn to come") as refused:
        play_turns(start(), turns, LEFT)
    assert refused.value.turn == 3


def test_turn_by_turn_once_play_passed_the_skipped_seat_they_may_be_named_again():
    # Andi skips Budi (turn 2); Siti plays next, so Budi's lost turn is behind him.
    turns = with_turn(3, discard="SK", skip="Budi")
    result = play_turns(start(), turns, LEFT)
    assert result.out == "Siti"


def test_turn_by_turn_skips_name_someone_else_except_the_last_card():
    with pytest.raises(RuleError, match="names the player who loses a turn"):
        play_turns(start(), with_turn(2, skip=None), LEFT)
    with pytest.raises(RuleError, match="Andi is not another player"):
        play_turns(start(), with_turn(2, skip="Andi"), LEFT)
    with pytest.raises(RuleError, match="ends the hand and skips nobody, not Budi"):
        play_turns(start(), with_turn(7, skip="Budi"), LEFT)
    with pytest.raises(RuleError, match="only a turn that discards a Skip names a player"):
        play_turns(start(), with_turn(3, skip="Budi"), LEFT)


def test_turn_by_turn_the_hand_ends_when_a_player_goes_out():
    with pytest.raises(RuleError, match='no turn says "out": true'):
        play_turns(start(), EVENING[:-1], LEFT)
    with pytest.raises(RuleError, match="the hand ended when Siti went out"):
        play_turns(start(), [*EVENING, {"player": "Andi", "discard": "R3"}], LEFT)


def test_turn_by_turn_every_hand_left_holds_10_less_what_was_put_down():
    # Andi put down 6 (his phase) + 1 (a hit): 3 are left, not 4.
    with pytest.raises(RuleError, match="Andi holds 3 cards after the turns recorded, not 4"):
        play_turns(start(), EVENING, {**LEFT, "Andi": "R1 R3 R4 R6"})
    with pytest.raises(RuleError, match="Budi holds 10 cards after the turns recorded, not 9"):
        play_turns(start(), EVENING, {**LEFT, "Budi": "R10 R11 R12 B1 B2 B3 B4 G6 G8"})
