"""Canasta scenarios, each expectation worked out by hand from RULES.md (``canasta``).

Values: joker 50; 2 and A 20; K Q J 10 9 8 10; 7 6 5 4 5; black 3 5.  Natural canasta
500, mixed 300; red 3 100 each, 800 for all four (minus when the side melded nothing);
going out 100, concealed 200; the cards left in hand count against the side.
"""

from __future__ import annotations

import pytest

from referee.canasta import (
    PRESETS,
    CanastaHand,
    CanastaOptions,
    MeldCounts,
    Side,
    SideScore,
    TierCounts,
    card_value,
    check_meld,
    first_meld_minimum,
    next_minimums,
    read_hand,
    referee_hand,
    running_totals,
    sides_of,
    winners,
)
from referee.cards import Card
from referee.errors import RuleError

KINGS = "KS KS KH KH KD KD KC"  # natural canasta: 7 x 10 = 70
EIGHTS = "8S 8H 8D 8C 8S 2C JK"  # mixed canasta: 5 x 10 + 20 + 50 = 120
ACES = "AS AH 2D"  # 20 + 20 + 20 = 60


def kita(**changes: object) -> Side:
    values: dict[str, object] = {
        "name": "Kita",
        "players": ("Budi", "Andi"),
        "melds": (KINGS, EIGHTS, ACES),
        "red_threes": 1,
        "hands": {"Budi": [], "Andi": "5S 9D"},  # 5 + 10 = 15
    }
    values.update(changes)
    return Side(**values)  # type: ignore[arg-type]


def mereka(**changes: object) -> Side:
    values: dict[str, object] = {
        "name": "Mereka",
        "players": ("Siti", "Dewi"),
        "melds": ("7S 7H 7D",),  # 15
        "red_threes": 0,
        "hands": {"Siti": "JK QS 4H", "Dewi": "3S AD"},  # 50 + 10 + 5 = 65; 5 + 20 = 25
    }
    values.update(changes)
    return Side(**values)  # type: ignore[arg-type]


def hand(*sides: Side, out: str | None = "Budi", concealed: bool = False) -> CanastaHand:
    return CanastaHand(sides or (kita(), mereka()), out=out, concealed=concealed)


def refusal(game: CanastaHand, options: CanastaOptions | None = None) -> str:
    with pytest.raises(RuleError) as error:
        referee_hand(game, options)
    return str(error.value)


# -- values and minimums ---------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "value"),
    [
        ("JK", 50),
        ("2C", 20),
        ("AH", 20),
        ("KS", 10),
        ("10D", 10),
        ("8C", 10),
        ("7H", 5),
        ("4S", 5),
        ("3S", 5),
        ("3C", 5),
    ],
)
def test_card_values(card: str, value: int) -> None:
    assert card_value(Card.parse(card)) == value


@pytest.mark.parametrize(
    ("total", "minimum"),
    [
        (-2000, 15),
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (9000, 120),
    ],
)
def test_first_meld_minimum_by_total(total: int, minimum: int) -> None:
    assert first_meld_minimum(total) == minimum


# -- scoring ---------------------------------------------------------------------


def test_a_side_that_went_out_scores_every_part() -> None:
    result = referee_hand(hand())
    assert result.scores["Kita"] == SideScore(
        meld_points=250,  # 70 + 120 + 60
        natural_canastas=1,
        mixed_canastas=1,
        canasta_bonus=800,  # 500 + 300
        red_threes=1,
        red_three_points=100,
        going_out_bonus=100,
        hand_points=15,
    )
    assert result.totals["Kita"] == 250 + 800 + 100 + 100 - 15
    # Mereka: 15 melded, minus 65 and 25 left in hand, no red 3, no canasta.
    assert result.totals["Mereka"] == 15 - 90
    assert result.not_checked == ()


def test_going_out_concealed_takes_its_bonus_instead() -> None:
    result = referee_hand(hand(concealed=True))
    assert result.scores["Kita"].going_out_bonus == 200
    assert result.totals["Kita"] == 250 + 800 + 100 + 200 - 15
    assert "Budi went out concealed" in str(result.not_checked[0])


def test_bonuses_follow_the_options() -> None:
    options = CanastaOptions(going_out_bonus=50, concealed_bonus=50)
    assert referee_hand(hand(), options).scores["Kita"].going_out_bonus == 50
    assert referee_hand(hand(concealed=True), options).scores["Kita"].going_out_bonus == 50


def test_red_threes_count_against_a_side_that_melded_nothing() -> None:
    nothing = mereka(melds=(), red_threes=2, hands={"Siti": "9S 9H", "Dewi": "AC"})
    result = referee_hand(hand(kita(), nothing))
    assert result.scores["Mereka"].red_three_points == -200
    assert result.totals["Mereka"] == -200 - 20 - 20


def test_all_four_red_threes_are_worth_800() -> None:
    result = referee_hand(hand(kita(red_threes=4), mereka()))
    assert result.scores["Kita"].red_three_points == 800
    nothing = mereka(melds=(), red_threes=4, hands={"Siti": "9S", "Dewi": "4C"})
    result = referee_hand(hand(kita(red_threes=0), nothing))
    assert result.totals["Mereka"] == -800 - 10 - 5


def test_a_wild_card_makes_a_canasta_mixed_and_six_cards_are_no_canasta() -> None:
    mixed_kings = "KS KS KH KH KD KD JK"  # 6 x 10 + 50 = 110, mixed
    six_jacks = "JS JS JH JH JD JD"  # 60, no canasta
    side = kita(melds=(mixed_kings, six_jacks), red_threes=0)
    score = referee_hand(hand(side, mereka())).scores["Kita"]
    assert (score.natural_canastas, score.mixed_canastas) == (0, 1)
    assert score.canasta_bonus == 300
    assert score.meld_points == 170


def test_stock_run_out_gives_nobody_a_going_out_bonus() -> None:
    result = referee_hand(hand(kita(hands={"Budi": "4D", "Andi": "5S 9D"}), mereka(), out=None))
    assert result.scores["Kita"].going_out_bonus == 0
    assert result.totals["Kita"] == 250 + 800 + 100 - 5 - 15


def test_black_threes_melded_by_the_side_going_out() -> None:
    side = kita(melds=(KINGS, "3S 3C 3C"))  # 70 + 15; Dewi holds the other 3S
    assert referee_hand(hand(side, mereka())).scores["Kita"].meld_points == 85


def test_a_named_joker_of_the_meld_rank_is_read() -> None:
    side = kita(melds=(KINGS, "9S 9H JK=9D"))  # 70 + 20 + 50
    assert referee_hand(hand(side, mereka())).scores["Kita"].meld_points == 140


def test_hands_given_as_points_are_subtracted_and_said_unchecked() -> None:
    result = referee_hand(hand(kita(), mereka(hands={"Siti": 65, "Dewi": "3S AD"})))
    assert result.totals["Mereka"] == 15 - 65 - 25
    assert [str(note) for note in result.not_checked] == [
        "Siti's hand was given as 65 points: its cards were not checked"
    ]


def test_players_alone_two_canastas_to_go_out() -> None:
    budi = Side("Budi", ("Budi",), (KINGS, EIGHTS), 0, {"Budi": []})
    siti = Side("Siti", ("Siti",), (), 0, {"Siti": "4S"})
    result = referee_hand(CanastaHand((budi, siti), out="Budi"))
    assert result.totals == {"Budi": 70 + 120 + 800 + 100, "Siti": -5}
    one = Side("Budi", ("Budi",), (KINGS,), 0, {"Budi": []})
    assert "going out needs 2" in refusal(CanastaHand((one, siti), out="Budi"))
    allowed = CanastaOptions(canastas_to_go_out=1)
    assert referee_hand(CanastaHand((one, siti), out="Budi"), allowed).totals["Budi"] == 670


# -- clubs count -----------------------------------------------------------------


def test_melds_as_counts_are_scored_and_said_unchecked() -> None:
    side = kita(melds=MeldCounts(natural=1, mixed=2, points=340), red_threes=0)
    result = referee_hand(hand(side, mereka()))
    assert result.totals["Kita"] == 340 + 500 + 600 + 100 - 15
    assert "Kita's melds were given as counts" in str(result.not_checked[0])


def test_melds_as_tiers_count_their_points() -> None:
    # 2 jokers 100, 5 aces and twos 100, 10 of 8-K 100, 4 of 4-7 20: 320 in 21 cards.
    tiers = TierCounts(jokers=2, aces_and_twos=5, eights_to_kings=10, fours_to_sevens=4)
    side = kita(melds=MeldCounts.from_tiers(1, 2, tiers), red_threes=0)
    result = referee_hand(hand(side, mereka()))
    assert result.scores["Kita"].meld_points == 320
    assert result.totals["Kita"] == 320 + 1100 + 100 - 15


def test_counts_refusals() -> None:
    assert "multiple of 5" in refusal(hand(kita(melds=MeldCounts(1, 0, 343)), mereka()))
    assert "has 0 canasta(s)" in refusal(hand(kita(melds=MeldCounts(0, 0, 100)), mereka()))
    mismatch = MeldCounts(1, 0, 100, TierCounts(eights_to_kings=7))
    assert "worth 70, but its melds are given as worth 100" in refusal(
        hand(kita(melds=mismatch), mereka())
    )
    few = MeldCounts.from_tiers(2, 0, TierCounts(eights_to_kings=13))
    assert "only 13 melded cards" in refusal(hand(kita(melds=few), mereka()))
    threes = MeldCounts.from_tiers(0, 0, TierCounts(black_threes=3, fours_to_sevens=3))
    assert "without going out" in refusal(hand(kita(), mereka(melds=threes)))
    jokers = MeldCounts.from_tiers(1, 0, TierCounts(jokers=4, eights_to_kings=7))
    # Kita's melds hold 4 jokers and Mereka's Siti one more.
    assert "5 jokers" in refusal(hand(kita(melds=jokers), mereka()))
    assert "Kita's mixed canastas must be a whole number of 0 or more, not -1" in refusal(
        hand(kita(melds=MeldCounts(1, -1, 100)), mereka())
    )
    bad_tier = MeldCounts.from_tiers(1, 0, TierCounts(eights_to_kings=7, jokers=-1))
    assert "Kita's melded jokers must be a whole number" in refusal(
        hand(kita(melds=bad_tier), mereka())
    )
    assert "Mereka's red 3s must be a whole number" in refusal(hand(kita(), mereka(red_threes=-1)))
    assert "Siti's hand must be a whole number of 0 or more, not -5" in refusal(
        hand(kita(), mereka(hands={"Siti": -5, "Dewi": "AD"}))
    )
    assert "Siti's hand must be a whole number of 0 or more, not True" in refusal(
        hand(kita(), mereka(hands={"Siti": True, "Dewi": "AD"}))
    )
    assert "give Kita's melds as a list of melds" in refusal(hand(kita(melds="KS KH KD"), mereka()))


# -- refusals --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "words"),
    [
        ("9S 9H", "has 2 cards: a meld has at least 3"),
        ("3H 3D 3H", "holds a red 3"),
        ("2C 2D JK", "wild cards (jokers and 2s) never meld alone"),
        ("9S 9H 10D", "mixes ranks (9, 10)"),
        ("9S JK 2C", "has 1 natural card: a meld needs at least 2"),
        ("9S 9H 9D JK 2C 2D JK", "has 4 wild cards: a meld holds at most 3"),
        ("9S 9H JK=10D", "may only be named as a 9"),
    ],
)
def test_each_meld_refusal_says_why(meld: str, words: str) -> None:
    assert words in refusal(hand(kita(melds=(KINGS, meld)), mereka()))


def test_more_wild_than_natural_only_with_that_house_rule() -> None:
    meld = "9S 9H JK 2C 2D"
    options = CanastaOptions(wild_cards="at-most-naturals")
    assert "more wild cards (3) than natural ones (2)" in refusal(
        hand(kita(melds=(KINGS, meld)), mereka()), options
    )
    assert referee_hand(hand(kita(melds=(KINGS, meld)), mereka())).scores["Kita"].meld_points == (
        70 + 10 + 10 + 50 + 20 + 20
    )


def test_black_threes_only_when_going_out_and_never_with_wild_cards() -> None:
    assert "only a player going out may meld black 3s" in refusal(
        hand(kita(), mereka(melds=("3S 3C 3S",)))
    )
    assert "black 3s meld only with each other" in refusal(
        hand(kita(melds=(KINGS, "3S 3C 2D")), mereka())
    )


def test_one_meld_of_a_rank_per_side() -> None:
    assert "two melds of Ks" in refusal(hand(kita(melds=(KINGS, "KS KH JK")), mereka()))


def test_a_canasta_is_needed_to_go_out() -> None:
    side = kita(melds=(ACES, "QS QH QD QC"))
    assert "Kita has 0 canasta(s): going out needs 1" in refusal(hand(side, mereka()))


def test_deck_limits() -> None:
    assert "KS is on the table and in the hands 3 times" in refusal(
        hand(kita(), mereka(hands={"Siti": "KS", "Dewi": "AD"}))
    )
    assert "5 jokers" in refusal(hand(kita(), mereka(hands={"Siti": "JK JK JK JK", "Dewi": "AD"})))
    # Four black 3s melded by the side going out, and Dewi holds a fifth.
    threes = MeldCounts.from_tiers(1, 0, TierCounts(black_threes=4, eights_to_kings=7))
    assert "5 black 3s" in refusal(hand(kita(melds=threes), mereka()))
    assert "5 red 3s between them" in refusal(hand(kita(red_threes=3), mereka(red_threes=2)))


def test_hands_are_checked() -> None:
    assert "red 3s never stay in a hand" in refusal(
        hand(kita(), mereka(hands={"Siti": "3D 9C", "Dewi": "AD"}))
    )
    assert "Budi went out, so their hand is empty, but it holds 4D" in refusal(
        hand(kita(hands={"Budi": "4D", "Andi": "5S"}), mereka())
    )
    assert "Dewi's hand is empty" in refusal(hand(kita(), mereka(hands={"Siti": "4D", "Dewi": []})))
    assert "Dewi's hand is empty" in refusal(hand(kita(), mereka(hands={"Siti": "4D", "Dewi": 0})))
    assert "Budi went out, so their hand is worth 0, not 15" in refusal(
        hand(kita(hands={"Budi": 15, "Andi": "5S"}), mereka())
    )
    assert "Siti's hand is worth 12: every card is worth a multiple of 5" in refusal(
        hand(kita(), mereka(hands={"Siti": 12, "Dewi": "4D"}))
    )
    assert "give Dewi's hand" in refusal(hand(kita(), mereka(hands={"Siti": "4D"})))
    assert "Budi is not a player of Mereka" in refusal(
        hand(kita(), mereka(hands={"Siti": "4D", "Dewi": "5D", "Budi": "6D"}))
    )


def test_the_hand_as_a_whole_is_checked() -> None:
    assert "Rudi went out but plays in no side" in refusal(hand(out="Rudi"))
    assert "nobody went out" in refusal(
        hand(kita(hands={"Budi": "4D", "Andi": "5S"}), mereka(), out=None, concealed=True)
    )
    trio = Side("Kita", ("Budi", "Andi", "Rudi"), (KINGS,), 0, {})
    assert "not by 3 + 2" in refusal(hand(trio, mereka()))
    assert "two sides are named Kita" in refusal(hand(kita(), mereka(name="Kita")))
    twice = mereka(players=("Siti", "Budi"))
    assert "Budi is named in more than one side" in refusal(hand(kita(), twice))


def test_check_meld_returns_the_meld() -> None:
    meld = check_meld("QS QH JK=QD 2C", "Kita", CanastaOptions(), went_out=False)
    assert (meld.natural, meld.wild, meld.points, meld.is_canasta) == (2, 2, 90, False)


# -- options and the match -------------------------------------------------------


def test_options_defaults_ranges_and_presets() -> None:
    options = CanastaOptions()
    assert (options.target, options.going_out_bonus, options.concealed_bonus) == (5000, 100, 200)
    assert (options.canastas_needed(2), options.canastas_needed(3), options.canastas_needed(4)) == (
        2,
        1,
        1,
    )
    assert CanastaOptions(canastas_to_go_out=2).canastas_needed(4) == 2
    assert {preset.key: dict(preset.options) for preset in PRESETS} == {
        "concealed-300": {"concealed_bonus": 300},
        "short": {"target": 2500},
    }
    assert CanastaOptions.of({"target": 3000}).target == 3000


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"target": 500}, "Target (target) goes from 1000 to 20000, not 500"),
        ({"going_out_bonus": 600}, "(going_out_bonus) goes from 0 to 500"),
        ({"concealed_bonus": 1001}, "(concealed_bonus) goes from 0 to 1000"),
        ({"canastas_to_go_out": 3}, "(canastas_to_go_out) goes from 1 to 2"),
        ({"target": "5000"}, 'not "5000"'),
        ({"target": True}, "(target) is a whole number from 1000 to 20000"),
        ({"wild_cards": "any"}, "(wild_cards) is one of at-most-3, at-most-naturals"),
        (
            {"concealed_bonus": 50},
            "(going_out_bonus: 100) is at most Concealed bonus (concealed_bonus: 50)",
        ),
        ({"decks": 3}, "Canasta has no option decks"),
    ],
)
def test_options_refused(values: dict[str, object], words: str) -> None:
    with pytest.raises(RuleError) as error:
        CanastaOptions.of(values)
    assert words in str(error.value)


def test_the_match_ends_with_a_side_highest_alone_past_the_target() -> None:
    options = CanastaOptions()
    history = running_totals([{"Kita": 2500, "Mereka": 2000}, {"Kita": 2400, "Mereka": 2900}])
    assert history[-1] == {"Kita": 4900, "Mereka": 4900}
    assert winners(history, options) == ()
    history = running_totals(
        [
            {"Kita": 2500, "Mereka": 2000},
            {"Kita": 2400, "Mereka": 2900},
            {"Kita": 200, "Mereka": 300},
        ]
    )
    assert winners(history, options) == ("Mereka",)


def test_a_tie_at_the_top_plays_on_even_below_the_target() -> None:
    options = CanastaOptions()
    scores = [{"Kita": 5100, "Mereka": 5100}]
    assert winners(running_totals(scores), options) == ()
    # The tie-break hand takes both back below 5000: the match still ends.
    scores.append({"Kita": -300, "Mereka": -200})
    assert winners(running_totals(scores), options) == ("Mereka",)


def test_a_side_past_the_target_but_behind_loses() -> None:
    scores = [{"Kita": 5200, "Mereka": 5600}]
    assert winners(running_totals(scores), CanastaOptions()) == ("Mereka",)
    assert winners(running_totals(scores), CanastaOptions(target=6000)) == ()


# -- a hand from a match file's round ----------------------------------------------

TEAMS = {"Kita": ("Budi", "Andi"), "Mereka": ("Siti", "Dewi")}


def test_a_round_of_the_match_file_is_read_and_scored() -> None:
    facts = {
        "melds": {"Kita": [KINGS.split(), EIGHTS.split(), ACES.split()], "Mereka": []},
        "red_threes": {"Kita": 1, "Mereka": 2},
        "out": "Budi",
        "concealed": True,
        "hands": {"Andi": ["5S", "9D"], "Siti": 40, "Dewi": "4C"},
    }
    result = referee_hand(read_hand(facts, TEAMS))
    assert result.totals == {
        "Kita": 250 + 800 + 100 + 200 - 15,
        "Mereka": -200 - 40 - 5,  # nothing melded: its two red 3s count against it
    }


def test_a_round_with_counts_and_the_stock_run_out() -> None:
    facts = {
        "melds": {
            "Kita": {"natural": 1, "mixed": 2, "points": 340},
            "Mereka": [["7S", "7H", "7D"]],
        },
        "end": "stock",
        "hands": {"Budi": "4D", "Andi": "5S 9D", "Siti": "QS", "Dewi": "AD"},
    }
    result = referee_hand(read_hand(facts, TEAMS))
    assert result.totals == {"Kita": 340 + 1100 - 5 - 15, "Mereka": 15 - 10 - 20}


@pytest.mark.parametrize(
    ("facts", "words"),
    [
        ([], "a Canasta hand is an object"),
        ({"melds": [], "out": "Budi"}, '"melds" must be an object keyed by side'),
        ({"melds": {"Kita": [], "Mereka": [], "Lain": []}, "out": "Budi"}, "names Lain, which"),
        ({"melds": {"Kita": []}, "out": "Budi"}, "Mereka is missing"),
        ({"melds": {"Kita": [], "Mereka": []}}, "say how the hand ended"),
        ({"melds": {"Kita": [], "Mereka": []}, "out": "Budi", "end": "stock"}, "not both"),
        ({"melds": {"Kita": [], "Mereka": []}, "end": "draw"}, "is \"stock\", not 'draw'"),
        ({"melds": {"Kita": [], "Mereka": []}, "out": "Rudi"}, "Rudi went out but plays in no"),
        ({"melds": {"Kita": [], "Mereka": []}, "out": "Budi", "concealed": "yes"}, "true or false"),
        ({"melds": {"Kita": [], "Mereka": []}, "out": "Budi", "hands": {"Rudi": []}}, "Rudi, who"),
        ({"melds": {"Kita": {"canastas": 2}, "Mereka": []}, "out": "Budi"}, "not canastas"),
        ({"melds": {"Kita": "KS KH KD", "Mereka": []}, "out": "Budi"}, "give Kita's melds as"),
    ],
)
def test_a_round_refused_says_why(facts: object, words: str) -> None:
    with pytest.raises(RuleError) as error:
        read_hand(facts, TEAMS)
    assert words in str(error.value)


# -- the sides of a match ----------------------------------------------------------

PLAYERS4 = ["Budi", "Siti", "Andi", "Dewi"]


def test_the_sides_of_a_match() -> None:
    assert sides_of(PLAYERS4, {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]}) == {
        "Kita": ("Budi", "Andi"),
        "Mereka": ("Siti", "Dewi"),
    }
    assert sides_of(["Budi", "Siti", "Andi"]) == {
        "Budi": ("Budi",),
        "Siti": ("Siti",),
        "Andi": ("Andi",),
    }


@pytest.mark.parametrize(
    ("players", "teams", "words"),
    [
        (["Budi"], None, "2, 3 or 4 players, not 1"),
        (PLAYERS4, ["Kita", "Mereka"], "name them, like"),
        (PLAYERS4, None, 'name them, like {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]}'),
        (["Budi", "Siti"], {"Kita": ["Budi", "Siti"]}, "with 2 players each plays alone"),
        (PLAYERS4, {"Kita": ["Budi", "Andi"]}, "name exactly two teams, not 1"),
        (PLAYERS4, {"Budi": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]}, "no player's name"),
        (PLAYERS4, {"": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]}, "non-empty"),
        (PLAYERS4, {"Kita": ["Budi", "Rudi"], "Mereka": ["Siti", "Dewi"]}, "team Kita must be"),
        (PLAYERS4, {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Andi"]}, "Andi is named in"),
        (
            PLAYERS4,
            {"Kita": ["Budi", "Siti"], "Mereka": ["Andi", "Dewi"]},
            "partners sit opposite: Budi and Andi are one team, Siti and Dewi the other",
        ),
    ],
)
def test_sides_refused(players: list[str], teams: dict[str, list[str]] | None, words: str) -> None:
    with pytest.raises(RuleError) as error:
        sides_of(players, teams)
    assert words in str(error.value)


def test_minimums_shown_for_each_side() -> None:
    assert next_minimums({"Kita": 1520, "Mereka": -40}) == {"Kita": 90, "Mereka": 15}


def test_an_evening_the_minimum_rises_with_the_total() -> None:
    first = referee_hand(hand()).totals  # Kita 1235, Mereka -75 (worked out above)
    second = referee_hand(hand(kita(), mereka(), concealed=True)).totals  # Kita 1335
    history = running_totals([first, second])
    assert history[0] == {"Kita": 1235, "Mereka": -75}
    assert next_minimums(history[0]) == {"Kita": 50, "Mereka": 15}
    assert history[1] == {"Kita": 2570, "Mereka": -150}
    assert next_minimums(history[1]) == {"Kita": 90, "Mereka": 15}
    assert winners(history, CanastaOptions()) == ()
    assert winners(history, CanastaOptions(target=2500)) == ("Kita",)
