"""The `indian` solver: the show check and a loser's least count (RULES.md, section `indian`).

Hand-worked cases pin each clause (the arithmetic is in each test); hypothesis checks the
solver against an independent brute force: every subset of the 13 cards that is a group
(each wild card tried as natural and as joker), then every packing of disjoint groups.
``INDIAN_EXAMPLES=3000`` runs a larger differential by hand.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import indian
from referee.cards import Card, Rank
from referee.errors import RuleError
from referee.indian import Group, GroupKind, check_show, least_count, read_group, wild_rank
from referee.notation import parse_cards

EXAMPLES = int(os.environ.get("INDIAN_EXAMPLES", "120"))


def texts(groups: Sequence[Group]) -> list[str]:
    return [str(group) for group in groups]


# --- an independent brute force ------------------------------------------------------

NO = 10**9
KIND_RANK = {"pure": 0, "impure": 1, "set": 2}


def brute_value(card: Card, wild: Rank | None) -> int:
    if card.is_joker or card.rank == wild:
        return 0
    assert card.rank is not None
    return 10 if card.rank in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING) else int(card.rank)


def brute_kind(cards: Sequence[Card], wild: Rank | None) -> str | None:
    """The best kind these cards make as one group, trying every reading of wild cards."""
    wilds = [i for i, c in enumerate(cards) if not c.is_joker and c.rank == wild]
    best: str | None = None
    for chosen in range(1 << len(wilds)):
        as_joker = {wilds[k] for k in range(len(wilds)) if chosen >> k & 1}
        plain = [c for i, c in enumerate(cards) if not c.is_joker and i not in as_joker]
        jokers = len(cards) - len(plain)
        if not plain:
            continue
        kinds = []
        if len({c.rank for c in plain}) == 1 and len({c.suit for c in plain}) == len(plain):
            kinds.append("set")
        if len({c.suit for c in plain}) == 1:
            size = len(cards)
            for high in (False, True):
                spots = [14 if high and c.rank == Rank.ACE else int(c.rank or 0) for c in plain]
                lowest, highest = (2, 14) if high else (1, 13)
                if len(set(spots)) == len(spots) and any(
                    lowest <= start <= min(spots) and max(spots) <= start + size - 1 <= highest
                    for start in range(1, 15)
                ):
                    kinds.append("impure" if jokers else "pure")
        for kind in kinds:
            if best is None or KIND_RANK[kind] < KIND_RANK[best]:
                best = kind
    return best


def brute(hand: Sequence[Card], wild: Rank | None) -> tuple[int, bool]:
    """(least count before the cap, whether the 13 cards make a valid show)."""
    hand = tuple(sorted(hand, key=lambda c: c.sort_key))
    size = len(hand)
    groups: list[list[tuple[int, str, int]]] = [[] for _ in range(size)]
    plain = [not (c.is_joker or c.rank == wild) for c in hand]
    for count in range(3, size + 1):
        for combo in itertools.combinations(range(size), count):
            natural = [hand[i] for i in combo if plain[i]]
            if len({c.suit for c in natural}) > 1 and len({c.rank for c in natural}) > 1:
                continue
            kind = brute_kind([hand[i] for i in combo], wild)
            if kind is None:
                continue
            mask = sum(1 << i for i in combo)
            # of identical cards, a later copy only once the earlier one is used
            earlier = sum(
                1 << (i - 1)
                for i in combo
                if i > 0 and hand[i - 1] == hand[i] and not mask >> (i - 1) & 1
            )
            groups[combo[0]].append((mask, kind, earlier))

    def after(need: tuple[int, int], kind: str) -> tuple[int, int]:
        if kind == "set":
            return need
        return max(need[0] - 1, 0), 0 if kind == "pure" else need[1]

    @cache
    def best(mask: int, need: tuple[int, int], cover: bool) -> int:
        if not mask:
            return 0 if need == (0, 0) else NO
        low = (mask & -mask).bit_length() - 1
        result = (
            NO if cover else brute_value(hand[low], wild) + best(mask - (1 << low), need, cover)
        )
        for group, kind, earlier in groups[low]:
            if group & mask == group and not mask & earlier:
                result = min(result, best(mask - group, after(need, kind), cover))
        return result

    everything = (1 << size) - 1
    least = best(everything, (2, 1), False)
    if least >= NO:
        least = sum(brute_value(card, wild) for card in hand)
    return least, best(everything, (2, 1), True) == 0


# --- hands -----------------------------------------------------------------------------


@st.composite
def deals(draw: st.DrawFn) -> tuple[tuple[Card, ...], Card, int]:
    """13 cards from one or two decks after a cut, with 0-6 jokers (printed or wild); the
    naturals often from a few ranks only, so that groups are many."""
    decks = draw(st.sampled_from((1, 2)))
    pack = list(indian.deck(decks))
    cut = draw(st.sampled_from(pack))
    pack.remove(cut)
    wild = wild_rank(cut)
    jokers = [card for card in pack if indian.is_joker(card, wild)]
    low = draw(st.integers(1, 13))
    width = draw(st.sampled_from((5, 7, 13)))
    naturals = [
        card
        for card in pack
        if not indian.is_joker(card, wild) and (int(card.rank or 0) - low) % 13 < width
    ]
    count = draw(st.integers(0, min(6, len(jokers))))
    chosen = draw(st.permutations(jokers))[:count]
    chosen += draw(st.permutations(naturals))[: 13 - count]
    return tuple(chosen), cut, decks


KIND_NAME = {GroupKind.PURE: "pure", GroupKind.IMPURE: "impure", GroupKind.SET: "set"}


def assert_arrangement(hand: Sequence[Card], cut: Card, arrangement: indian.Arrangement) -> None:
    """The arrangement holds exactly the hand's cards, each group is one (of the kind it
    claims, or better, by the brute force's reading too), and it meets the rule."""
    wild = wild_rank(cut)
    laid = [card for group in arrangement.groups for card in group.cards]
    assert sorted(map(str, laid + list(arrangement.ungrouped))) == sorted(map(str, hand))
    for group in arrangement.groups:
        read = read_group(group.cards, wild)
        assert isinstance(read, Group), (str(group), read)
        assert brute_kind(group.cards, wild) == KIND_NAME[read.kind]
        assert KIND_RANK[KIND_NAME[read.kind]] <= KIND_RANK[KIND_NAME[group.kind]]
    assert arrangement.meets_rule


@settings(max_examples=EXAMPLES)
@given(deals())
def test_solver_agrees_with_the_brute_force(deal: tuple[tuple[Card, ...], Card, int]) -> None:
    hand, cut, decks = deal
    wild = wild_rank(cut)
    expected_points, expected_valid = brute(hand, wild)
    count = least_count(hand, cut, decks=decks, full_count=200)
    assert count.points == expected_points
    assert count.count == min(expected_points, 200)
    show = check_show(hand, cut, decks=decks)
    assert show.valid == expected_valid
    if count.meets_rule:
        assert_arrangement(hand, cut, count.arrangement)
        assert sum(brute_value(c, wild) for c in count.arrangement.ungrouped) == count.points
    else:
        assert count.points == sum(brute_value(c, wild) for c in hand)
    if show.valid:
        assert not show.arrangement.ungrouped
        assert_arrangement(hand, cut, show.arrangement)
    else:
        assert show.reasons


# --- the wild rank and the deck -------------------------------------------------------


def test_the_cut_card_names_the_wild_rank() -> None:
    assert wild_rank("7D") is Rank.SEVEN
    # a printed joker cut makes the aces wild
    assert wild_rank("JK") is Rank.ACE
    # wild: false plays with the printed jokers only
    assert wild_rank(None) is None


def test_one_deck_has_53_cards_and_two_have_106() -> None:
    one, two = indian.deck(1), indian.deck(2)
    assert (len(one), sum(c.is_joker for c in one)) == (53, 1)
    assert (len(two), sum(c.is_joker for c in two)) == (106, 2)
    with pytest.raises(RuleError):
        indian.deck(3)


def test_card_values() -> None:
    wild = Rank.SEVEN
    values = [indian.card_value(c, wild) for c in parse_cards("AS KS QS JS 10S 9S 2S 7H JK")]
    # A K Q J 10 count 10, 2-9 face value, jokers (printed and wild) 0
    assert values == [10, 10, 10, 10, 10, 9, 2, 0, 0]


# --- one group ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "cut", "kind"),
    [
        ("5H 6H 7H", "7D", GroupKind.PURE),  # the wild 7H in its own place is natural
        ("5H 6H 7C", "7D", GroupKind.IMPURE),  # the 7C stands for the 7H
        ("5H JK 7H", "2C", GroupKind.IMPURE),
        ("QS KS AS", "2C", GroupKind.PURE),  # the ace high
        ("AS 2S 3S", "2C", GroupKind.PURE),  # the wild 2S natural in its own place
        ("AS 2S 3S", "JK", GroupKind.PURE),  # aces wild, the AS natural in its own place
        ("8H 8C JK", "2C", GroupKind.SET),
        ("8H 8C 8D 8S JK", "2C", GroupKind.SET),  # four naturals and a joker
        ("JK JK 7C", "7D", GroupKind.IMPURE),  # the 7C in its own place is the natural
        ("5H JK JK", "2C", GroupKind.IMPURE),  # a sequence (5-6-7) helps more than a set
    ],
)
def test_a_group_is_read_the_way_that_helps(cards: str, cut: str, kind: GroupKind) -> None:
    read = read_group(cards, wild_rank(cut))
    assert isinstance(read, Group)
    assert read.kind is kind


@pytest.mark.parametrize(
    ("cards", "cut", "words"),
    [
        ("8H 8H 8C", "2C", "two 8H in one set"),
        ("KS AS 2S", "5C", "never goes round the ace"),
        ("5H 7H 9H JK", "2C", "2 missing between 5H and 9H, and only 1 joker"),
        ("5H 6S 7D", "2C", "neither a sequence"),
        ("JK JK JK", "2C", "at least one card that is not a joker"),
        ("5H 6H", "2C", "at least 3 cards"),
        ("5H 6H 6H", "2C", "6H twice in one sequence"),
    ],
)
def test_a_group_that_is_none_says_why(cards: str, cut: str, words: str) -> None:
    read = read_group(cards, wild_rank(cut))
    assert not isinstance(read, Group)
    assert words in read.text


# --- a loser's count ------------------------------------------------------------------


def test_count_leaves_the_dearest_cards_grouped() -> None:
    # 5S 6S 7S pure, 2D 2C 2H a set; the joker makes 9H 10H JK (saves 19) or JK QD KD
    # (saves 20): the second leaves 9H 10H 8C 4H = 9 + 10 + 8 + 4 = 31.
    count = least_count("5S 6S 7S 9H 10H JK 2D 2C 2H KD QD 8C 4H", "3C")
    assert count.count == 31
    assert texts(count.arrangement.groups) == ["5S 6S 7S", "2H 2D 2C", "JK QD KD"]


def test_count_without_a_pure_sequence_is_every_card_capped_at_80() -> None:
    # no three in a row of one suit, no three of a rank: all 13 count,
    # 10+9+7 + 10+10+8 + 10+10+9 + 10+10+8 + 6 = 117, capped at 80
    count = least_count("KS 9S 7S QH 10H 8H KD JD 9D QC 10C 8C 6S", "2C")
    assert (count.points, count.count, count.meets_rule) == (117, 80, False)
    assert count.capped
    assert least_count("KS 9S 7S QH 10H 8H KD JD 9D QC 10C 8C 6S", "2C", full_count=60).count == 60


def test_one_sequence_only_counts_every_card() -> None:
    # 5S 6S 7S is the only sequence; the sets do not help: 5+6+7 + 3x10 + 3x9 + 2+4+6+8 = 95
    count = least_count("5S 6S 7S KH KD KC 9H 9D 9C 2H 4D 6C 8H", "QC")
    assert (count.points, count.count, count.meets_rule) == (95, 80, False)


def test_a_joker_makes_the_second_sequence() -> None:
    # 5S 6S 7S pure; 8H 9H JK the second sequence; KH KD KC a set;
    # left 9D 9C 4D 6C = 9 + 9 + 4 + 6 = 28
    count = least_count("5S 6S 7S KH KD KC 9H 9D 9C JK 4D 6C 8H", "QC")
    assert count.count == 28
    assert sorted(map(str, count.arrangement.ungrouped)) == ["4D", "6C", "9C", "9D"]


def test_four_wild_cards_and_two_printed_jokers_without_a_pure_sequence() -> None:
    # six jokers but no two naturals of one suit in a row: every card counts,
    # the jokers 0: 10 + 4 + 7 + 10 + 10 + 2 + 6 = 49
    count = least_count("9H 9S 9D 9H JK JK AS 4D 7C KH QS 2C 6H", "9C", decks=2)
    assert (count.count, count.meets_rule) == (49, False)


def test_four_wild_cards_and_two_printed_jokers_with_a_pure_sequence() -> None:
    # QS KS AS pure (ace high); six jokers make three groups of a natural and two jokers
    # out of 4D 7C 6H 2C: the 2C is left, count 2
    count = least_count("9H 9S 9D 9H JK JK AS 4D 7C KS QS 2C 6H", "9C", decks=2)
    assert count.count == 2
    assert [str(c) for c in count.arrangement.ungrouped] == ["2C"]


def test_two_decks_make_the_same_sequence_twice() -> None:
    # 5H 6H 7H twice, both pure; 9C 9D 9S a set; 3S 3C KD QC left: 3 + 3 + 10 + 10 = 26
    count = least_count("5H 6H 7H 5H 6H 7H 9C 9D 9S 3S 3C KD QC", "JD", decks=2)
    assert count.count == 26
    assert texts(count.arrangement.groups).count("5H 6H 7H") == 2


# --- the show -------------------------------------------------------------------------


def test_a_show_valid_as_typed() -> None:
    show = check_show(groups=["5S 6S 7S 8S", "9H 10H JH", "2D 2C 2H", "KD QD JD"], cut="4C")
    assert (show.valid, show.as_typed) == (True, True)


def test_a_show_badly_grouped_is_valid_when_another_grouping_is() -> None:
    # typed: 8H 8H 8C is no set, but 5S 6S 7S + 8S 8H 8C and 8H 9H 10H JH group everything
    show = check_show(groups=["5S 6S 7S 8S", "9H 10H JH", "8H 8H 8C", "KD QD JD"], cut="3D")
    assert (show.valid, show.as_typed) == (True, False)
    assert "two 8H in one set" in show.typed_problems[0].text
    assert not show.arrangement.ungrouped


def test_no_pure_sequence_names_the_joker_in_the_typed_sequence() -> None:
    # 7 is wild: 5S 6S 7C 8S is impure, 9H 10H 7H is not in a row, no pure sequence anywhere
    show = check_show(groups=["5S 6S 7C 8S", "9H 10H 7H", "QH QC QS", "2D 2C 2H"], cut="7D")
    assert not show.valid
    assert show.reasons[0].text == "no pure sequence: 5S 6S 7C 8S uses the 7C as a joker"


def test_no_pure_sequence_without_groups() -> None:
    show = check_show("5S 6S 7C 8S 9H 10H 7H QH QC QS 2D 2C 2H", cut="7D")
    assert show.reasons[0].text.startswith("no pure sequence")


def test_only_one_sequence() -> None:
    # 5S 6S 7S is the only sequence the cards can make
    show = check_show("5S 6S 7S KH KD KC 9H 9D 9C 2H 2D 2C 8H", cut="QC")
    assert show.reasons[0].text.startswith("only one sequence")


def test_cards_in_no_group_are_named() -> None:
    # 5S 6S 7S and 8H 9H 10H are pure, KH KD KC a set: 2H 2D 6D 4C make nothing
    show = check_show("5S 6S 7S 8H 9H 10H KH KD KC 2H 2D 4C 6D", cut="QC")
    assert show.reasons[0].text == "2H, 2D, 6D and 4C are in no group"


def test_a_wild_card_in_its_own_place_keeps_a_sequence_pure() -> None:
    # 7 is wild; 5H 6H 7H is the only pure sequence possible, with the 7H natural
    show = check_show(groups=["5H 6H 7H", "9C 10C JK", "KS KD KC", "2S 2D 2H 2C"], cut="7D")
    assert show.valid and show.as_typed
    assert show.arrangement.groups[0].kind is GroupKind.PURE


def test_aces_are_wild_after_a_printed_joker_is_cut() -> None:
    # aces wild: AH stands for 8D in 7D AH 9D; AS 2S 3S is pure with AS in its own place
    show = check_show(groups=["AS 2S 3S", "7D AH 9D", "KS KD KC", "5H 5C 5D 5S"], cut="JK")
    assert show.valid and show.as_typed
    kinds = [group.kind for group in show.arrangement.groups]
    assert kinds[:2] == [GroupKind.PURE, GroupKind.IMPURE]


def test_two_identical_cards_in_a_set_are_refused() -> None:
    # 8D 8D 8C: no set (two 8D) and no 7D 9D or 8S 8H to go elsewhere
    show = check_show(groups=["5S 6S 7S", "9H 10H JH QH", "8D 8D 8C", "KD KC KS"], cut="3C")
    assert not show.valid
    assert "two 8D in one set" in show.typed_problems[0].text
    assert show.reasons[0].text == "8D, 8D and 8C are in no group"


def test_the_hand_must_fit_the_decks() -> None:
    with pytest.raises(RuleError, match="8H is there 2 times"):
        check_show("8H 8H 8C 5S 6S 7S 9H 10H JH 2D 2C 2H KD", cut="3C", decks=1)
    with pytest.raises(RuleError, match="cut card"):
        check_show("3C 8H 8C 5S 6S 7S 9H 10H JH 2D 2C 2H KD", cut="3C", decks=1)
    with pytest.raises(RuleError, match="13 cards, not 12"):
        check_show("8H 8C 5S 6S 7S 9H 10H JH 2D 2C 2H KD", cut="3C")
    with pytest.raises(RuleError, match="JK"):
        least_count("JK=7H 8H 8C 5S 6S 7S 9H 10H JH 2D 2C 2H KD", cut="3C")
