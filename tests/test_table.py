"""Manipulation turns: the turn check, pinned to RULES.md, and the solver, checked for exactness."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import SUITS, Card, Rank
from referee.errors import RuleError
from referee.melds import check_meld
from referee.notation import parse_cards
from referee.rulesets import find_ruleset
from referee.table import (
    arrange,
    best_play,
    check_turn,
    parse_table,
    playable_cards,
    take_back,
    verify_turn,
)

DECK = [Card(rank, suit) for suit in SUITS for rank in Rank]


def face(card: Card) -> Card:
    """The card a card plays as (itself, or the card a joker stands for)."""
    assert card.stands_for is not None
    return card.stands_for


def rank_of(card: Card) -> int:
    assert card.rank is not None
    return int(card.rank)


def reasons(before: object, played: str, after: object, players: int = 3, **kw: object) -> str:
    verdict = check_turn(before, played, after, players, **kw)  # type: ignore[arg-type]
    assert not verdict.legal
    return " | ".join(reason.text for reason in verdict.reasons)


def legal(before: object, played: str, after: object, players: int = 3, **kw: object) -> bool:
    return check_turn(before, played, after, players, **kw).legal  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# The turn check, one rule at a time


def test_lay_off_and_new_meld_is_legal() -> None:
    assert legal(["7S 8S 9S"], "10S 4H 4D 4C", ["7S 8S 9S 10S", "4H 4D 4C"])


def test_first_meld_on_an_empty_table_is_a_full_meld_from_hand() -> None:
    assert legal([], "QH QS QD", ["QH QS QD"])
    assert "not legal" in reasons([], "QH QS", ["QH QS"])


def test_a_turn_that_only_draws_is_legal() -> None:
    # RULES.md Decision: a turn that puts nothing down is legal, played: [] and the table
    # unchanged; melds and their cards may be listed in any order
    assert legal(["7S 8S 9S", "4H 4D 4C 4S"], "", ["4S 4H 4D 4C", "9S 8S 7S"])
    assert legal([], "", [])
    assert legal(["7S 8S 9S"], "", ["7S 8S 9S"], draws=3)  # no melding after the third draw


def test_rearranging_needs_a_card_from_hand() -> None:
    # "the player must add at least one card from hand": splitting a run without playing
    text = reasons(["4S 5S 6S 7S 8S 9S"], "", ["4S 5S 6S", "7S 8S 9S"])
    assert text == "a turn that melds must put at least one card from the hand on the table"
    # nor may a joker be renamed by a turn that plays nothing
    text = reasons(["5H 6H 7H JK=8H"], "", ["JK=4H 5H 6H 7H"])
    assert "at least one card from the hand" in text


def test_no_melding_after_the_third_draw() -> None:
    assert "third draw" in reasons(["7S 8S 9S"], "10S", ["7S 8S 9S 10S"], draws=3)
    assert legal(["7S 8S 9S"], "10S", ["7S 8S 9S 10S"], draws=2)
    assert "draws must be 1, 2 or 3" in reasons(["7S 8S 9S"], "10S", ["7S 8S 9S 10S"], draws=4)


def test_no_card_may_leave_the_table() -> None:
    text = reasons(["7S 8S 9S 10S"], "JS", ["8S 9S 10S JS"])
    assert text == "7S left the table: no card may leave the table during a turn"


def test_a_card_played_must_reach_the_table() -> None:
    # QD was played from the hand: it never was on the table, so it did not "leave" it
    text = reasons(["7S 8S 9S"], "10S QD", ["7S 8S 9S 10S"])
    assert text == "QD was played from the hand but is not on the table after the turn"
    # with two decks a copy on the table and a copy played: the one played is missing
    text = reasons(["7H 8H 9H"], "7H 7S 7D", ["7H 8H 9H", "7S 7D 7C"])
    assert "7H was played from the hand but is not on the table after the turn" in text


def test_cards_may_not_appear_from_nowhere() -> None:
    text = reasons(["7S 8S 9S"], "10S", ["7S 8S 9S 10S JS"])
    assert "JS is on the table after the turn but was neither on it before nor played" in text


def test_every_meld_after_the_turn_is_legal() -> None:
    text = reasons(["7S 8S 9S"], "JS", ["7S 8S 9S JS"])
    assert "meld 1 (7S 8S 9S JS) is not legal: 10S is missing between 9S and JS" in text


def test_ace_high_or_low_but_never_round_the_corner() -> None:
    assert legal(["2H 3H 4H"], "AH", ["AH 2H 3H 4H"])
    assert legal(["JH QH KH"], "AH", ["JH QH KH AH"])
    assert "K-A-2" in reasons(["KH QH JH", "2H 3H 4H"], "AH", ["JH QH KH AH 2H 3H 4H"])


def test_two_identical_cards_never_in_one_set() -> None:
    text = reasons(["7H 7S 7D"], "7H", ["7H 7S 7D 7H"])
    assert "two identical cards in a set: 7H" in text
    assert "here it could stand for 7C" in reasons(["7H 7S 7D"], "JK", ["7H 7S 7D JK=7H"])


def test_joker_may_not_change_its_card() -> None:
    # no real 7H on the table after the turn: the joker must still stand for 7H
    text = reasons(["5H 6H JK=7H"], "4H", ["JK=3H 4H 5H 6H"])
    assert text == (
        "a joker stood for 7H before the turn and no longer does, but no real 7H is on the "
        "table after it: a joker keeps its card until a real 7H replaces it"
    )
    # moved to another meld, it keeps its card
    assert legal(["5H 6H JK=7H", "8H 9H 10H"], "4H", ["4H 5H 6H", "JK=7H 8H 9H 10H"])


def test_joker_freed_by_the_real_card_from_hand_must_be_used_again() -> None:
    before = ["5H 6H JK=7H", "9C 10C JC"]
    assert legal(before, "7H", ["5H 6H 7H", "9C 10C JC JK=QC"])
    assert legal(before, "7H", ["5H 6H 7H JK=8H", "9C 10C JC"])
    # left off the table, the freed joker "left the table"
    assert "JK left the table" in reasons(before, "7H", ["5H 6H 7H", "9C 10C JC"])


def test_a_real_card_taken_from_another_meld_frees_a_joker() -> None:
    # RULES.md: the real card may come from another meld.  The 7H leaves the set for the
    # run, replacing the joker, which takes the set's free seat as 7C.
    before = ["5H 6H JK=7H", "7H 7S 7D"]
    assert legal(before, "4H", ["4H 5H 6H 7H", "7S 7D JK=7C"])
    # Formal check: fewer jokers stand for 7H (1 -> 0) and a real 7H is on the table after.


def test_one_real_card_frees_every_joker_standing_for_it() -> None:
    # a real card may replace a joker, move on and replace another within the turn
    before = ["6H JK=7H 8H", "JK=7H 7S 7D"]
    assert legal(before, "7H", ["6H 7H 8H JK=9H", "JK=7C 7S 7D"])
    # jokers for 7H: 2 -> 0, real 7H after: yes.  Without the real 7H it is refused:
    text = reasons(before, "9H", ["6H JK=7H 8H 9H", "JK=7C 7S 7D"])
    assert "a joker stood for 7H before the turn and no longer does" in text


def test_a_joker_may_name_a_card_whose_real_copies_are_on_the_table() -> None:
    # two players, one deck: the only 7H is in the run, yet a joker may stand for 7H
    assert legal(["7H 8H 9H"], "JK 7S 7D", ["7H 8H 9H", "JK=7H 7S 7D"], players=2)
    assert arrange(["7H 8H 9H", "7S 7D JK=7H"], "10H", 2) is not None


def test_deck_limits_depend_on_the_players() -> None:
    # counted by referee.integrity, naming every place of the card
    assert "7H is in meld 1 and in meld 2" in reasons(
        ["7H 8H 9H"], "7H 7S 7D", ["7H 8H 9H", "7H 7S 7D"], players=2
    )
    assert legal(["7H 8H 9H"], "7H 7S 7D", ["7H 8H 9H", "7H 7S 7D"], players=3)
    text = reasons(["7H 8H JK=9H"], "JK", ["7H 8H JK=9H JK=10H"], players=2)
    assert "a joker is twice in meld 1, but the deck has only 1 joker(s)" in text
    text = reasons(["7H 8H 9H", "7C 7S 7D"], "7H 7H", ["7H 8H 9H", "7C 7S 7D 7H", "5H 6H 7H"])
    assert "7H is in meld 1, in meld 2 and in meld 3, but the two decks hold only 2 of it" in text
    with pytest.raises(RuleError):
        check_turn([], "7H 8H 9H", ["7H 8H 9H"], players=6)


def test_verify_turn_raises_the_first_reason() -> None:
    verify_turn(["7S 8S 9S"], "10S", ["7S 8S 9S 10S"], 2)
    with pytest.raises(RuleError, match="left the table"):
        verify_turn(["7S 8S 9S"], "10S", ["8S 9S 10S"], 2)


def test_tables_read_as_text_or_lists() -> None:
    assert parse_table("7S 8S 9S\n# comment\n\nJK=4H 4D 4C") == parse_table(
        [["7S", "8S", "9S"], ["JK=4H", "4D", "4C"]]
    )


# ---------------------------------------------------------------------------
# The solver, by hand


def test_arrange_it_for_us() -> None:
    found = arrange(["7S 8S 9S", "7H 7D 7C"], "6S 5S", 3)
    assert found is not None
    assert legal(["7S 8S 9S", "7H 7D 7C"], "6S 5S", found.to_json())


def test_arrangement_needs_the_whole_table_rearranged() -> None:
    before = ["5H 6H 7H", "9H 10H JH", "8C 8D 8S"]
    found = arrange(before, "8H", 3)
    assert found is not None
    assert legal(before, "8H", found.to_json())


def test_no_arrangement_take_it_back() -> None:
    assert arrange(["7S 8S 9S"], "QD", 2) is None
    assert take_back(["7S 8S 9S"], "10S QD", 2) == (Card.parse("QD"),)
    assert take_back(["7S 8S 9S"], "10S", 2) == ()


def test_a_bound_joker_keeps_its_card() -> None:
    # JK=7H cannot become 8H: 9H has nowhere to go
    assert arrange(["5H 6H JK=7H"], "9H", 3) is None
    found = arrange(["5H 6H JK=7H"], "8H", 3)
    assert found is not None
    assert any(str(card) == "JK=7H" for card in found.cards)


def test_a_freed_joker_is_reused_anywhere() -> None:
    found = arrange(["5H 6H JK=7H", "KS KD KC"], "7H", 3)
    assert found is not None
    assert legal(["5H 6H JK=7H", "KS KD KC"], "7H", found.to_json())
    # freed, it may fill the gap a bound joker never could
    assert arrange(["5H 6H JK=7H", "9H 10H JH"], "7H", 3) is not None


def test_ace_both_ways_splits_the_run() -> None:
    before = ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"]
    found = arrange(before, "AH", 3)
    assert found is not None
    assert legal(before, "AH", found.to_json())
    assert arrange(["QH KH AH"], "2H", 3) is None  # K-A-2 never


def test_two_identical_cards_go_to_different_melds() -> None:
    before = ["7H 7S 7D", "5H 6H 7H"]
    found = arrange(before, "7C 8H", 3)
    assert found is not None
    for meld in found.melds:
        faces = [card.stands_for for card in meld.cards]
        assert len(set(faces)) == len(faces)
    assert arrange(["7H 7S 7D"], "7H", 3) is None


def test_arrange_refuses_a_deck_it_cannot_have() -> None:
    with pytest.raises(RuleError, match="7H is in meld 1 and among the cards played"):
        arrange(["7H 8H 9H"], "7H 7S 7D", 2)
    with pytest.raises(RuleError, match="7H is in meld 1 and in the hand"):
        best_play("7H 7S 7D", ["7H 8H 9H"], 2)
    with pytest.raises(RuleError, match="name the card"):
        arrange(["7H 8H JK"], "10H", 3)


def test_whole_deck_arranges_fast() -> None:
    everything = " ".join(str(card) for card in DECK * 2) + " JK JK"
    found = arrange([], everything, 3)
    assert found is not None
    assert len(found.cards) == 106
    assert legal([], everything, found.to_json())


def test_hint_what_can_i_play() -> None:
    assert playable_cards("10S QD 6S", ["7S 8S 9S"], 2) == parse_cards("6S 10S")
    play = best_play("QD KD", ["7S 8S 9S"], 2)
    assert play.cards == () and play.arrangement is None
    play = best_play("QD KD JK", ["7S 8S 9S"], 3)
    assert sorted(map(str, play.cards)) == ["JK", "KD", "QD"]
    assert play.arrangement is not None
    assert legal(["7S 8S 9S"], "QD KD JK", play.arrangement.to_json())


def test_hint_frees_a_joker_with_the_real_card() -> None:
    # 7H frees JK=7H, which then lets 10H and JH join 8H 9H
    table = ["5H 6H JK=7H", "8H 9H 10H"]
    play = best_play("7H JH QH", table, 3)
    assert set(map(str, play.cards)) == {"7H", "JH", "QH"}


def test_a_real_copy_on_the_table_frees_the_joker_for_the_arranger() -> None:
    # 2C 3C need a third card: only the joker, free because the real 7H is on the table;
    # the 7H moves from the set (7S 7D 7C stays a set) into the run in the joker's place
    before = ["5H 6H JK=7H", "7H 7S 7D 7C"]
    found = arrange(before, "2C 3C", 3)
    assert found is not None
    assert legal(before, "2C 3C", found.to_json())
    assert sorted(map(str, best_play("2C 3C", before, 3).cards)) == ["2C", "3C"]
    # without a real 7H on the table the joker stays 7H and 2C 3C cannot go down
    assert arrange(["5H 6H JK=7H", "7S 7D 7C"], "2C 3C", 3) is None


def test_one_real_copy_frees_both_jokers_for_the_arranger() -> None:
    # both jokers stood for 7H; the real 7H frees both: 2C 3C JK=4C and 10D JD JK=QD
    table = ["6H JK=7H 8H", "JK=7H 7S 7D 7C"]
    found = arrange(table, "7H 2C 3C 10D JD", 3)
    assert found is not None
    assert legal(table, "7H 2C 3C 10D JD", found.to_json())
    assert not any(str(card) == "JK=7H" for card in found.cards)
    play = best_play("7H 2C 3C 10D JD", table, 3)
    assert sorted(map(str, play.cards)) == ["10D", "2C", "3C", "7H", "JD"]
    # a joker freed by its real card may go on the end of the run it leaves: 2H 3H 4H JK=5H
    assert arrange(["JK=2H 3H 4H"], "2H", 3) is not None
    play = best_play("7H 7C", ["6H JK=7H 8H", "JK=7H 7S 7D"], 3)
    assert sorted(map(str, play.cards)) == ["7C", "7H"]


# Unsolvable 60-card tables with two free jokers from the benchmark (seed 2026): each
# needs a third joker, so every way of placing two has to be ruled out.
HARD_TABLES = [
    "JD 8H QS 8C AH 9H 7C KS 6D JC 3C 6S 7S KS 2S 10D AS 7H QH 10S 9C 8S KH 10C JH 7S AC 6H "
    "7H 7C QS JS 5C 7D 10H KC KC 10C 4C 5C QC 9H AH 6S 6C KD 3S KH 10S QC 6C 3S 8D 4S JS 8C "
    "4C 9S JK JK",
    "7H 9C 8D 4D 3S QC 9S AS 5C 9C 2C KS 6C JC 4S 10S 5S 5D AS 8C 8D AH 10C 7S 2C 2H 2D QH "
    "KS 7D 10S 7C 6D 5H AH QD 8C 9D QS AD 9H 6S JS KD 3H QH 6D 6S QS JD 2S 7D 8H JS 8S 5S 2H "
    "6H JK JK",
    "AC 4S 9D AD 9S 4C 2S AS 6C KD 6H JD JH 4D 3C 6D 4D 10H 10D 8S JS 9C AS 6S KS 10C 2D 3S "
    "4H 5S KC 3D 10C 5D 3H 5S 7S 5C AC 2H 6D 7S 2C 6S JH 9H QC 10S 2S 5D 10H KS 4S 3S 9S 10D "
    "JD AH JK JK",
]


@pytest.mark.parametrize(("table", "fits"), list(zip(HARD_TABLES, ["3H", "QD", "KH"], strict=True)))
def test_hard_tables_without_an_arrangement(table: str, fits: str) -> None:
    assert arrange([], table, 3) is None
    # yet one card more (a card that a third joker would have stood for) makes them fit
    found = arrange([], f"{table} {fits}", 3)
    assert found is not None
    assert legal([], f"{table} {fits}", found.to_json())


def test_a_solvable_table_that_needs_both_jokers() -> None:
    table = (
        "6D 8H JD 7H 9S 5D 2D 3D KD AD AH 7S 4D KC 6S 5H 6H 6S 9D 6D 6H 3S 8S KS KC QD 4H 9C "
        "6C KH 9S 3H 10D 4H AS 5S AC 4S JK JK"
    )
    found = arrange([], table, 3)
    assert found is not None
    assert legal([], table, found.to_json())


def test_a_dense_table_whose_first_ace_split_fails() -> None:
    # 91 cards: forwards, the search first commits to a way of keeping aces for Q-K-A that
    # fails and has to rule it out everywhere (this took a quarter of a second); backwards
    # an arrangement comes at once
    table = [
        "JH JD JC JS", "3H 3C 3D 3S", "AD AH AS", "JH JD JC", "7D 7C 7S 7H", "5D 6D 7D 8D 9D",
        "10S JS QS KS", "5D 5S 5H JK=5C", "5H 6H 7H", "8S 8D 8C 8H", "8H 9H 10H",
        "2S 3S 4S 5S 6S 7S 8S", "QS KS AS", "3C 3D 3H", "10C 10D 10S 10H", "9H 9C 9D 9S",
        "2C 2D 2H 2S", "QH QD QC", "6H 6D 6S 6C", "7C 8C 9C 10C", "4D 4S 4H",
    ]  # fmt: skip
    hand = "AC KH 4C 4D 5C 6C AC 4H QH KH 2D"
    found = arrange(table, hand, 3)
    assert found is not None
    assert legal(table, hand, found.to_json())
    play = best_play(hand, table, 3)
    assert len(play.cards) == 11


def test_hint_on_a_big_table_plays_the_whole_hand() -> None:
    # 88 cards on the table, two jokers among them: the hint used to take seconds here
    rng = random.Random(7)
    melds = with_jokers(rng, deal_melds(rng, 26), 2)
    table = [[str(card) for card in meld] for meld in melds]
    pool = Counter({card: 2 for card in DECK})
    pool.subtract(face(card) for meld in melds for card in meld if not card.is_joker)
    hand = [str(card) for card in rng.sample(sorted(pool.elements(), key=str), 12)]
    assert arrange(table, hand, 3) is not None
    play = best_play(hand, table, 3)
    assert len(play.cards) == len(hand)
    assert play.arrangement is not None
    assert legal(table, " ".join(map(str, play.cards)), play.arrangement.to_json())


# ---------------------------------------------------------------------------
# Exactness: an independent brute force on small tables


def brute_force(cards: Counter[tuple[int, int]], wild: int) -> bool:
    """Whether ``cards`` (suit, rank) plus ``wild`` free jokers split into legal melds."""
    keys = sorted(cards)
    where = {key: i for i, key in enumerate(keys)}

    @cache
    def solve(left: tuple[int, ...], jokers: int) -> bool:
        first = next((i for i, n in enumerate(left) if n), None)
        if first is None:
            return jokers == 0
        s, r = keys[first]
        rest = list(left)
        rest[first] -= 1
        for size in (3, 4):  # sets with this card
            for others in range(size):
                needed = size - 1 - others
                if needed > jokers:
                    continue
                for suits in itertools.combinations([o for o in range(4) if o != s], others):
                    if all(rest[where[(o, r)]] if (o, r) in where else 0 for o in suits):
                        after = list(rest)
                        for o in suits:
                            after[where[(o, r)]] -= 1
                        if solve(tuple(after), jokers - needed):
                            return True
        for p in [1, 14] if r == 1 else [r]:  # runs with this card at position p
            for low in range(max(1, p - 12), p + 1):
                for high in range(max(p, low + 2), min(14, low + 12) + 1):
                    if (low, high) == (1, 14):
                        continue
                    if fill(rest, [q for q in range(low, high + 1) if q != p], s, jokers):
                        return True
        return False

    def fill(left: list[int], positions: list[int], s: int, jokers: int) -> bool:
        if not positions:
            return solve(tuple(left), jokers)
        key = (s, 1 if positions[0] == 14 else positions[0])
        if key in where and left[where[key]]:
            left[where[key]] -= 1
            ok = fill(left, positions[1:], s, jokers)
            left[where[key]] += 1
            if ok:
                return True
        return jokers > 0 and fill(left, positions[1:], s, jokers - 1)

    return solve(tuple(cards[key] for key in keys), wild)


def cell(card: Card) -> tuple[int, int]:
    assert card.suit is not None and card.rank is not None
    return SUITS.index(card.suit), int(card.rank)


near_cards = st.integers(1, 10).flatmap(
    lambda low: st.lists(
        st.sampled_from([c for c in DECK if low <= rank_of(c) <= low + 3 or c.rank is Rank.ACE]),
        min_size=3,
        max_size=9,
    )
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_cards, st.integers(0, 2))
def test_solver_agrees_with_brute_force(cards: list[Card], jokers: int) -> None:
    if max(Counter(cards).values()) > 2:
        return
    played = [str(card) for card in cards] + ["JK"] * jokers
    found = arrange([], played, 3)
    assert (found is not None) == brute_force(Counter(map(cell, cards)), jokers)
    if found is not None:  # any arrangement the solver returns passes the turn check
        assert legal([], " ".join(played), found.to_json())


def deal_melds(rng: random.Random, count: int, copies: int = 2) -> list[list[Card]]:
    """Legal melds dealt from ``copies`` decks: runs (ace low or high) and sets."""
    pool = Counter({card: copies for card in DECK})
    melds: list[list[Card]] = []
    for _ in range(400):
        if len(melds) == count:
            break
        if rng.random() < 0.5:
            length, suit = rng.choice([3, 3, 3, 4, 5]), rng.choice(SUITS)
            start = rng.randint(1, 15 - length)
            cards = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)]
        else:
            rank = rng.choice(list(Rank))
            cards = [Card(rank, suit) for suit in rng.sample(SUITS, rng.choice([3, 3, 4]))]
        if all(pool[card] for card in cards):
            pool.subtract(cards)
            melds.append(cards)
    return melds


def with_jokers(rng: random.Random, melds: list[list[Card]], jokers: int) -> list[list[Card]]:
    """The same melds with up to ``jokers`` cards replaced by jokers naming them."""
    melds = [list(meld) for meld in melds]
    for _ in range(jokers):
        meld = rng.choice(melds)
        i = rng.randrange(len(meld))
        if not meld[i].is_joker:
            meld[i] = Card.joker(meld[i])
    return melds


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 30), st.integers(0, 2))
def test_constructed_tables_are_always_solved(rng: random.Random, count: int, jokers: int) -> None:
    melds = with_jokers(rng, deal_melds(rng, count), jokers)
    cards = [card.in_hand for meld in melds for card in meld]
    rng.shuffle(cards)
    found = arrange([], cards, 3)
    assert found is not None
    assert legal([], cards, found.to_json())  # type: ignore[arg-type]
    # the same table with its jokers bound to their cards: they keep them, unless a real
    # copy of their card is on the table (then they may stand for anything)
    before = [[str(card) for card in meld] for meld in melds]
    again = arrange(before, [], 3)
    assert again is not None
    real = {name for meld in before for name in meld if not name.startswith("JK")}
    bound = [name for meld in before for name in meld if name.startswith("JK=")]
    kept = Counter(name for meld in before for name in meld if name not in bound)
    kept.update(name for name in bound if name[3:] not in real)
    assert not kept - Counter(map(str, again.cards))
    assert Counter(c.in_hand for c in again.cards) == Counter(c.in_hand for c in cards)
    assert all(check_meld(meld.cards, find_ruleset("manipulation")).legal for meld in again.melds)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 4))
def test_one_card_removed_from_a_tight_table_is_judged_right(
    rng: random.Random, count: int
) -> None:
    melds = deal_melds(rng, count)
    cards = [card for meld in melds for card in meld]
    cards.pop(rng.randrange(len(cards)))
    found = arrange([], cards, 3)
    assert (found is not None) == brute_force(Counter(map(cell, cards)), 0)
    if found is not None:
        assert legal([], cards, found.to_json())  # type: ignore[arg-type]


@settings(max_examples=120, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 3), st.integers(1, 4))
def test_hint_is_the_largest_playable_part_of_the_hand(
    rng: random.Random, count: int, size: int
) -> None:
    melds = with_jokers(rng, deal_melds(rng, count), rng.choice([0, 0, 1]))
    table = [[str(card) for card in meld] for meld in melds]
    pool = Counter({card: 2 for card in DECK})
    pool.subtract(face(card) for meld in melds for card in meld if not card.is_joker)
    low = rank_of(face(melds[0][0]))
    nearby = [c for c in pool.elements() if abs(rank_of(c) - low) <= 3 or c.rank is Rank.ACE]
    hand = [str(card) for card in rng.sample(nearby, min(size, len(nearby)))]
    if rng.random() < 0.25 and not any(card.is_joker for meld in melds for card in meld):
        hand.append("JK")
    best = next(
        (
            k
            for k in range(len(hand), 0, -1)
            if any(arrange(table, list(part), 3) for part in itertools.combinations(hand, k))
        ),
        0,
    )
    play = best_play(hand, table, 3)
    assert len(play.cards) == best
    if play.arrangement is not None:
        assert legal(table, " ".join(map(str, play.cards)), play.arrangement.to_json())


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 3), st.integers(0, 3))
def test_hint_with_copies_of_the_cards_jokers_stand_for(
    rng: random.Random, count: int, size: int
) -> None:
    melds = with_jokers(rng, deal_melds(rng, count), rng.choice([1, 2]))
    table = [[str(card) for card in meld] for meld in melds]
    pool = Counter({card: 2 for card in DECK})
    pool.subtract(face(card) for meld in melds for card in meld if not card.is_joker)
    named = [face(card) for meld in melds for card in meld if card.is_joker]
    hand = []
    for card in named:  # a copy of each card a joker stands for, when the deck has one
        if pool[card] > 0:
            pool[card] -= 1
            hand.append(str(card))
    low = rank_of(face(melds[0][0]))
    nearby = [c for c in pool.elements() if abs(rank_of(c) - low) <= 3 or c.rank is Rank.ACE]
    hand += [str(card) for card in rng.sample(nearby, min(size, len(nearby)))]
    if not hand:
        return
    best = next(
        (
            k
            for k in range(len(hand), 0, -1)
            if any(arrange(table, list(part), 3) for part in itertools.combinations(hand, k))
        ),
        0,
    )
    play = best_play(hand, table, 3)
    assert len(play.cards) == best
    if play.arrangement is not None:
        assert legal(table, " ".join(map(str, play.cards)), play.arrangement.to_json())


def test_meld_checker_agrees_with_the_arrangements() -> None:
    found = arrange([], "AS 2S 3S QD KD AD 5C 5H 5S JK", 3)
    assert found is not None
    assert all(check_meld(meld.cards, find_ruleset("manipulation")).legal for meld in found.melds)
