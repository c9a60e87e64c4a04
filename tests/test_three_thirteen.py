"""Three Thirteen: deals, wild ranks, the least count (against a brute force), the final
table's checks and scores, the one more turn, the match's end.

Every scenario's expectation is worked out by hand from RULES.md (``three-thirteen``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

import pytest

from referee.cards import RANKS, SUITS, Card, Rank
from referee.errors import RuleError
from referee.notation import parse_cards
from referee.three_thirteen import (
    ANY,
    ONE_NATURAL,
    ONE_WILD,
    OPTION_TABLE,
    ThreeThirteenOptions,
    deal_rules,
    final_turns,
    least_count,
    score_deal,
    standings,
)

PLAYERS = ("Andi", "Budi", "Siti")


# --- deals and wild ranks ----------------------------------------------------------------


def test_deal_n_gives_n_plus_2_cards_and_that_rank_is_wild():
    assert [deal_rules(n).cards for n in range(1, 12)] == list(range(3, 14))
    assert deal_rules(1).wild is Rank.THREE
    assert deal_rules(8).wild is Rank.TEN
    assert deal_rules(9).wild is Rank.JACK
    assert deal_rules(10).wild is Rank.QUEEN
    assert deal_rules(11).wild is Rank.KING


@pytest.mark.parametrize("number", [0, 12, -1])
def test_there_are_eleven_deals(number):
    with pytest.raises(RuleError, match=f"deals 1 to 11, not {number}"):
        deal_rules(number)


# --- the least count, by hand ------------------------------------------------------------


def count(cards: str, deal: int, **options) -> int:
    return least_count(cards, deal_rules(deal), ThreeThirteenOptions(**options)).value


def test_aces_are_low_and_count_one():
    # Deal 1 (threes wild): A-2 of spades with no wild: nothing melds, A 1 + 2 + K 10.
    assert count("AS 2S KS", 1) == 13
    # A 2 3 of spades is a run (the 3 is wild, standing in its own place or not).
    assert count("AS 2S 3S", 1) == 0


def test_q_k_a_is_no_run():
    # Deal 2 (fours wild): Q K A of hearts and a 5: no run wraps round the ace.
    assert count("QH KH AH 5C", 2) == 10 + 10 + 1 + 5


def test_a_set_of_three_or_more_of_one_rank_suits_may_repeat_with_two_decks():
    # Deal 2 (fours wild), two decks: 7H 7H 7C is a set; the 9D counts.
    assert count("7H 7H 7C 9D", 2, decks=2) == 9


def test_a_run_holds_each_rank_once():
    # Deal 2: 5S 5S 6S 2C: two fives of spades do not make a run with the six.
    assert count("5S 5S 6S 2C", 2, decks=2) == 5 + 5 + 6 + 2


def test_a_wild_card_fills_a_gap_and_a_set():
    # Deal 4 (sixes wild): 6D fills 7S _ 9S; 6C completes the kings.
    assert count("7S 9S 6D KH KC 6C", 4) == 0
    # The count helper counts any hand: with a 2H more, the 2 is left.
    assert count("7S 9S 6D KH KC 6C 2H", 4) == 2


def test_a_wild_card_left_out_counts_its_face_value():
    # Deal 5 (sevens wild): 7H alone with 2C 9D: nothing melds; the 7 counts 7.
    assert count("7H 2C 9D", 5) == 7 + 2 + 9


def test_jokers_are_wild_and_count_their_value_when_left_out():
    # Deal 1 (threes wild), 2 jokers: JK JK KS is a set (of kings); the count is 0.
    assert count("JK JK KS", 1, jokers=2) == 0
    # Deal 2 (fours wild): JK 2C 9D: one wild is not enough; the joker counts 20.
    assert count("JK 2C 9D 10S", 2, jokers=2) == 20 + 2 + 9 + 10
    assert count("JK 2C 9D 10S", 2, jokers=2, joker_value=50) == 50 + 2 + 9 + 10


def test_the_arrangement_with_the_lowest_count_is_taken():
    # Deal 3 (fives wild): 8H 9H 10H 10S 10C: the run 8-9-10 leaves 10S 10C (20); the set
    # of tens leaves 8H 9H (17): the set is taken.
    assert count("8H 9H 10H 10S 10C", 3) == 17


def test_the_least_count_uses_wild_cards_where_they_save_most():
    # Deal 4 (sixes wild): KS KH 2C 3C 6D 9H: the six joins the kings (saves 20) rather
    # than 2C 3C (saves 5): 2 + 3 + 9 left.
    assert count("KS KH 2C 3C 6D 9H", 4) == 14


def test_melds_of_wild_cards_only_are_allowed_by_default():
    # Deal 1 (threes wild), four jokers: a hand of three jokers is a meld.
    assert count("JK JK JK", 1, jokers=4) == 0
    # Deal 3 (fives wild): JK JK 5C 8D 2S: the three wild cards join the 8 (a set of
    # eights): only the 2 is left.
    assert count("JK JK 5C 8D 2S", 3, jokers=2) == 2


def test_one_natural_and_one_wild_refuse_melds_of_wild_cards_only():
    assert count("JK JK JK", 1, jokers=4, wilds_in_meld=ONE_NATURAL) == 60
    assert count("JK JK JK", 1, jokers=4, wilds_in_meld=ONE_WILD) == 60
    # Deal 3 (fives wild): JK 5H QS 9C 9D: the 5H is natural only in its own place and
    # has no neighbour there; both wild cards join the nines, the queen is left.
    assert count("JK 5H QS 9C 9D", 3, jokers=2, wilds_in_meld=ONE_NATURAL) == 10


def test_a_wild_rank_card_in_its_own_place_is_natural():
    # Deal 1 (threes wild): 3S 3H 3D are a set of threes, each natural in its own place.
    assert count("3S 3H 3D", 1, wilds_in_meld=ONE_NATURAL) == 0
    assert count("3S 3H 3D", 1, wilds_in_meld=ONE_WILD) == 0
    # Deal 4 (sixes wild): 5H 6H 7H is a run with the 6H natural in its place.
    assert count("5H 6H 7H 2C 2D 2S", 4, wilds_in_meld=ONE_WILD) == 0


def test_one_wild_allows_at_most_one_wild_card_in_a_meld():
    # Deal 4 (sixes wild): KS 6C 6D 2H 2S 9D: with any, KS 6C 6D is a set of kings.
    assert count("KS 6C 6D 2H 2S 9D", 4) == 2 + 2 + 9
    # With one-wild the kings cannot take both sixes; 2H 2S 6D is a set of twos with one
    # wild, and the KS, the other 6 and the 9 are left: 10 + 6 + 9.
    assert count("KS 6C 6D 2H 2S 9D", 4, wilds_in_meld=ONE_WILD) == 25


def test_one_deck_caps_a_set_at_four_cards():
    # Deal 4 (sixes wild), one deck: 7S 7H 7D 7C and 6S, 2H: the six cannot be a fifth
    # seven, and 6S 7S needs a third card: the 6S and 2H are left, 6 + 2.
    assert count("7S 7H 7D 7C 6S 2H", 4, decks=1) == 8
    # Two decks: the six joins the sevens as a fifth; only the 2H is left.
    assert count("7S 7H 7D 7C 6S 2H", 4, decks=2) == 2


def test_the_arrangement_returned_is_the_hand_in_melds_and_cards_left():
    counted = least_count("8H 9H 10H 10S 10C", deal_rules(3))
    assert sorted(map(str, counted.unmelded)) == ["8H", "9H"]
    assert [sorted(map(str, meld)) for meld in counted.melds] == [["10C", "10H", "10S"]]


# --- an independent brute force ----------------------------------------------------------


def card_value(card: Card, joker_value: int) -> int:
    if card.is_joker:
        return joker_value
    assert card.rank is not None
    return 10 if card.rank >= 10 else int(card.rank)


def allowed(naturals: int, wilds: int, mode: str) -> bool:
    if mode == ONE_NATURAL:
        return naturals >= 1
    if mode == ONE_WILD:
        return wilds <= 1
    return True


def is_meld(group: Sequence[Card], wild: int, decks: int, mode: str) -> bool:
    """Every reading of the group as a set or a run, tried one by one."""
    size = len(group)
    if size < 3:
        return False
    for rank in range(1, 14):
        naturals = [c for c in group if not c.is_joker and c.rank == rank]
        wilds = [c for c in group if c.is_joker or (c.rank == wild and rank != wild)]
        if len(naturals) + len(wilds) == size and size <= 4 * decks:
            if allowed(len(naturals), len(wilds), mode):
                return True
    for suit in SUITS:
        for low in range(1, 15 - size):
            places = set(range(low, low + size))
            taken: set[int] = set()
            naturals_n = 0
            fits = True
            wild_own_place = False
            for card in group:
                if card.is_joker:
                    continue
                if card.rank == wild:
                    if card.suit == suit and wild in places:
                        wild_own_place = True
                    continue
                if card.suit != suit or card.rank not in places or card.rank in taken:
                    fits = False
                    break
                taken.add(card.rank)
                naturals_n += 1
            if not fits:
                continue
            if wild_own_place:
                naturals_n += 1
            if allowed(naturals_n, size - naturals_n, mode):
                return True
    return False


def brute_count(hand: Sequence[Card], wild: int, decks: int, mode: str, jv: int):
    """(least value, fewest cards left out at that value) over every partition."""
    n = len(hand)
    melds = [
        mask
        for mask in range(1, 1 << n)
        if bin(mask).count("1") >= 3
        and is_meld([hand[i] for i in range(n) if mask >> i & 1], wild, decks, mode)
    ]

    @cache
    def best(mask: int) -> tuple[int, int]:
        if not mask:
            return (0, 0)
        low = mask & -mask
        i = low.bit_length() - 1
        rest = best(mask & ~low)
        options = [(rest[0] + card_value(hand[i], jv), rest[1] + 1)]
        for meld in melds:
            if meld & low and meld & mask == meld:
                options.append(best(mask & ~meld))
        return min(options)

    return best((1 << n) - 1)


def random_hand(rng: random.Random, size: int, decks: int, jokers: int) -> list[Card]:
    """A hand drawn from a few ranks and suits, so that it holds melds more often than not."""
    low = rng.randint(1, 9)
    ranks = [r for r in RANKS if low <= r < low + rng.randint(4, 6)]
    suits = rng.sample(SUITS, rng.randint(1, 3))
    pool = [Card(r, s) for r in ranks for s in suits] * decks + [Card.joker()] * jokers
    pool += rng.sample([Card(r, s) for r in RANKS for s in SUITS], max(6, size))
    while True:
        hand = rng.sample(pool, size)
        if all(hand.count(c) <= decks for c in hand if not c.is_joker):
            return hand


def check_against_brute_force(rng: random.Random, deal: int) -> None:
    decks = rng.choice((1, 2))
    jokers = rng.choice((0, 0, 2, 4))
    mode = rng.choice((ANY, ANY, ONE_NATURAL, ONE_WILD))
    jv = rng.choice((20, 0, 5))
    options = ThreeThirteenOptions(decks=decks, jokers=jokers, wilds_in_meld=mode, joker_value=jv)
    rules = deal_rules(deal)
    hand = random_hand(rng, rules.cards, decks, jokers)
    counted = least_count(hand, rules, options)
    expected = brute_count(hand, int(rules.wild), decks, mode, jv)
    described = f"{' '.join(map(str, hand))} deal {deal} {options}"
    assert (counted.value, len(counted.unmelded)) == expected, described
    # The arrangement given is a real one: every card once, each meld legal.
    assert sorted(map(str, [*counted.unmelded, *(c for m in counted.melds for c in m)])) == sorted(
        map(str, hand)
    ), described
    for meld in counted.melds:
        assert is_meld(meld, int(rules.wild), decks, mode), described
    assert counted.value == sum(card_value(c, jv) for c in counted.unmelded)


def test_least_count_equals_the_brute_force_on_many_random_hands():
    rng = random.Random(3_13)
    for _ in range(400):
        check_against_brute_force(rng, rng.randint(1, 7))


def test_least_count_equals_the_brute_force_on_long_hands():
    rng = random.Random(13_3)
    for _ in range(16):
        check_against_brute_force(rng, rng.randint(8, 11))


def test_the_brute_force_meld_check_itself():
    cards = parse_cards
    assert is_meld(cards("5S 6S 7S"), 3, 1, ANY)
    assert not is_meld(cards("QS KS AS"), 3, 1, ANY)
    assert is_meld(cards("3H 3D 3C"), 3, 1, ONE_NATURAL)
    assert not is_meld(cards("JK JK JK"), 4, 1, ONE_NATURAL)
    assert is_meld(cards("JK JK 4C"), 4, 1, ONE_NATURAL)  # the 4C is natural in a set of 4s
    assert not is_meld(cards("7S JK 4C"), 4, 1, ONE_WILD)


# --- the final table ---------------------------------------------------------------------


def test_the_player_who_went_out_scores_0_the_others_their_least_count():
    # Deal 2 (fours wild), three players, two decks: Andi went out with a set and a wild.
    scored = score_deal(
        2,
        PLAYERS,
        "Andi",
        {"Andi": "9S 9H 9D 4C", "Budi": "5S 6S 4H KD", "Siti": "2C 2D JH QH"},
    )
    # Budi: 5S 6S with the 4H as 7S (or 4S) melds; the KD counts 10.
    # Siti: no wild, no meld: 2 + 2 + 10 + 10.
    assert scored.scores == {"Andi": 0, "Budi": 10, "Siti": 24}


def test_a_hand_that_melds_entirely_scores_0_even_if_not_out():
    scored = score_deal(
        1, PLAYERS, "Andi", {"Andi": "5S 6S 7S", "Budi": "9H 9D 9C", "Siti": "KS QS 2D"}
    )
    assert scored.scores == {"Andi": 0, "Budi": 0, "Siti": 22}


def test_going_out_needs_every_card_in_a_meld_and_the_refusal_names_the_wild_rank():
    with pytest.raises(
        RuleError, match="deal 4: sixes are wild; Andi cannot go out: KC 2D fit in no meld"
    ):
        score_deal(
            4,
            PLAYERS,
            "Andi",
            {
                "Andi": "9S 9H 9D 6C KC 2D",
                "Budi": "5S 5H AC AD 10S JC",
                "Siti": "3C 4C 8H 8D QH QD",
            },
        )


def test_the_hand_of_the_player_who_went_out_may_be_left_out():
    scored = score_deal(1, PLAYERS, "Andi", {"Budi": "9H 9D 2C", "Siti": "KS QS 2D"})
    assert scored.scores == {"Andi": 0, "Budi": 20, "Siti": 22}
    scored = score_deal(1, PLAYERS, "Andi", {"Andi": [], "Budi": "9H 9D 2C", "Siti": "KS QS 2D"})
    assert scored.scores == {"Andi": 0, "Budi": 20, "Siti": 22}


def test_every_other_hand_must_hold_the_deals_cards():
    with pytest.raises(
        RuleError, match="deal 3: Budi must hold 5 cards after their last turn, not 4"
    ):
        score_deal(3, PLAYERS, "Andi", {"Budi": "9H 9D 2C 3C", "Siti": "2S 3S 4S 5S 6S"})


def test_no_card_more_often_than_the_decks_hold():
    with pytest.raises(RuleError, match="9H is there 2 times, but one deck hold only 1"):
        score_deal(1, ("Andi", "Budi"), "Andi", {"Andi": "9H 9S 9C", "Budi": "9H 2C 3D"})
    with pytest.raises(RuleError, match="there are 3 jokers, but the match plays with 2"):
        score_deal(
            1,
            ("Andi", "Budi"),
            "Andi",
            {"Andi": "JK JK 9C", "Budi": "JK 2C 3D"},
            ThreeThirteenOptions(jokers=2),
        )


def test_counts_given_as_points_are_taken_and_said_to_be_unchecked():
    scored = score_deal(5, PLAYERS, "Budi", {"Andi": 17, "Siti": 0})
    assert scored.scores == {"Andi": 17, "Budi": 0, "Siti": 0}
    assert scored.unchecked == ("Andi", "Siti")
    assert "could not check" in scored.notes[0].text


def test_bad_final_tables_are_refused_in_words():
    with pytest.raises(RuleError, match="Dewi does not play in this match"):
        score_deal(1, PLAYERS, "Dewi", {})
    with pytest.raises(RuleError, match="the hand of Siti is missing"):
        score_deal(1, PLAYERS, "Andi", {"Budi": 4})
    with pytest.raises(RuleError, match="Budi's count is 0 or more, not -3"):
        score_deal(1, PLAYERS, "Andi", {"Budi": -3, "Siti": 4})
    with pytest.raises(RuleError, match="Andi went out and counts 0, not 5"):
        score_deal(1, PLAYERS, "Andi", {"Andi": 5, "Budi": 4, "Siti": 4})


# --- players, decks and options ----------------------------------------------------------


def test_two_to_seven_players():
    with pytest.raises(RuleError, match="2 to 7 players, not 8"):
        ThreeThirteenOptions().check_players(8)
    with pytest.raises(RuleError, match="2 to 7 players, not 1"):
        ThreeThirteenOptions().check_players(1)
    ThreeThirteenOptions().check_players(7)


def test_one_deck_for_two_two_for_three_to_seven_and_one_only_with_two_or_three():
    assert ThreeThirteenOptions().decks_for(2) == 1
    assert ThreeThirteenOptions().decks_for(3) == 2
    assert ThreeThirteenOptions(decks=1).decks_for(3) == 1
    with pytest.raises(RuleError, match="with 4, play with two"):
        ThreeThirteenOptions(decks=1).check_players(4)


def test_options_out_of_range_are_refused():
    with pytest.raises(RuleError, match="jokers is 0, 2 or 4, not 3"):
        ThreeThirteenOptions(jokers=3)
    with pytest.raises(RuleError, match="from 0 to 50, not 51"):
        ThreeThirteenOptions(joker_value=51)
    with pytest.raises(RuleError, match="not two-wild"):
        ThreeThirteenOptions(wilds_in_meld="two-wild")
    with pytest.raises(RuleError, match="decks is 1 or 2, not 3"):
        ThreeThirteenOptions(decks=3)


def test_the_declared_options_match_the_rules():
    declared = {o.name: o for o in OPTION_TABLE}
    assert declared["jokers"].choices == (0, 2, 4)
    assert declared["joker_value"].default == 20
    assert not declared["joker_value"].applies({"jokers": 0})
    assert declared["joker_value"].applies({"jokers": 2})
    assert declared["wilds_in_meld"].choices == ("any", "one-natural", "one-wild")


# --- one more turn, the match ------------------------------------------------------------


def test_every_other_player_has_exactly_one_more_turn_in_order():
    assert final_turns(("Andi", "Budi", "Siti"), "Andi") == ("Budi", "Siti")
    assert final_turns(("Andi", "Budi", "Siti"), "Budi") == ("Siti", "Andi")


def test_eleven_deals_make_the_match_and_the_lowest_total_wins():
    deals = [
        score_deal(n, ("Andi", "Budi"), "Andi", {"Budi": n})
        if n % 2
        else score_deal(n, ("Andi", "Budi"), "Budi", {"Andi": n})
        for n in range(1, 12)
    ]
    table = standings(("Andi", "Budi"), "Andi", deals[:10])
    assert not table.over and table.winners == ()
    assert table.next_deal == deal_rules(11)
    table = standings(("Andi", "Budi"), "Andi", deals)
    # Andi went out in the odd deals (scoring the even ones: 2+4+...+10 = 30); Budi in the
    # even ones (scoring the odd ones: 1+3+...+11 = 36).
    assert table.totals == {"Andi": 30, "Budi": 36}
    assert table.over and table.winners == ("Andi",)
    assert table.next_deal is None


def test_a_tie_for_the_lowest_total_is_a_shared_win():
    deals = [
        score_deal(n, ("Andi", "Budi"), "Andi", {"Budi": 10})
        if n <= 5
        else score_deal(n, ("Andi", "Budi"), "Budi", {"Andi": 10})
        for n in range(1, 11)
    ]
    deals.append(score_deal(11, ("Andi", "Budi"), "Andi", {"Budi": 0}))
    table = standings(("Andi", "Budi"), "Andi", deals)
    assert table.totals == {"Andi": 50, "Budi": 50}
    assert table.winners == ("Andi", "Budi")


def test_a_void_round_is_no_deal_and_keeps_the_dealer():
    first = score_deal(1, PLAYERS, "Andi", {"Budi": 5, "Siti": 6})
    table = standings(PLAYERS, "Andi", [None])
    assert table.deals_played == 0 and table.dealer == "Andi"
    assert table.next_deal == deal_rules(1)
    table = standings(PLAYERS, "Andi", [first, None])
    assert table.deals_played == 1 and table.dealer == "Budi"
    assert table.next_deal == deal_rules(2)


def test_the_deal_moves_one_seat_clockwise():
    deals = [score_deal(n, PLAYERS, "Andi", {"Budi": 1, "Siti": 1}) for n in range(1, 5)]
    assert standings(PLAYERS, "Budi", deals).dealer == "Siti"


def test_a_deal_out_of_order_is_refused():
    second = score_deal(2, PLAYERS, "Andi", {"Budi": 5, "Siti": 6})
    with pytest.raises(RuleError, match="not 2"):
        standings(PLAYERS, "Andi", [second])


def test_a_late_player_starts_with_the_highest_total_seated():
    first = score_deal(1, PLAYERS, "Andi", {"Budi": 5, "Siti": 16})
    assert standings(PLAYERS, "Andi", [first]).late_start() == 16


def test_the_deal_as_the_match_file_writes_it():
    assert deal_rules(5).facts() == {"deal": 5, "cards": 7, "wild": "7"}
    assert deal_rules(9).facts() == {"deal": 9, "cards": 11, "wild": "J"}


def test_true_or_false_is_no_number_of_decks_jokers_or_points():
    with pytest.raises(RuleError, match="decks is 1 or 2, not True"):
        ThreeThirteenOptions(decks=True)
    with pytest.raises(RuleError, match="a joker counts from 0 to 50, not True"):
        ThreeThirteenOptions(joker_value=True)


def test_a_deal_of_a_player_not_seated_is_refused():
    deal = score_deal(1, ("Andi", "Dewi"), "Andi", {"Dewi": 5})
    with pytest.raises(RuleError, match="Dewi does not play in this match"):
        standings(("Andi", "Budi"), "Andi", [deal])


def test_the_registered_ruleset_refuses_one_deck_for_four_players_at_setup() -> None:
    # RULES.md three-thirteen: option decks, 1 only with 2 or 3 players.
    from referee.errors import RefereeError
    from referee.rulesets import find_ruleset

    rules = find_ruleset("three-thirteen", {"decks": 1})
    rules.verify_players(3)
    with pytest.raises(RefereeError):
        rules.verify_players(4)
    assert find_ruleset("three-thirteen", {"decks": 2}).decks[4] == 2
    assert find_ruleset("three-thirteen").decks[2] == 1
