"""The `gin` ruleset: deadwood optimiser and knock adjudication (RULES.md, section `gin`).

Hand-written cases pin each clause; hypothesis and an independent brute force check the
solver's claims (legal disjoint melds from the hand, deadwood = value of the deadwood
cards, nothing better exists, lay-offs legal and optimal).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee import gin
from referee.cards import Card, Rank, standard_deck
from referee.errors import RefereeError, RuleError
from referee.notation import format_cards, parse_cards
from referee.rulesets import find_ruleset

RULES = find_ruleset("gin")
DECK = tuple(standard_deck())
RICH_DECK = tuple(c for c in DECK if c.rank is not None and 4 <= c.rank <= 9)  # 24 cards
LOW_DECK = tuple(c for c in DECK if c.rank is not None and c.rank <= 7)  # 28 cards


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def codes(melds: Iterable[Sequence[Card]]) -> list[str]:
    return [format_cards(meld) for meld in melds]


def value(hand: Iterable[Card]) -> int:
    return sum(RULES.value(c) for c in hand)


# --- an independent brute force -----------------------------------------------------


def is_set(meld: Sequence[Card]) -> bool:
    return 3 <= len(meld) <= 4 and len({c.rank for c in meld}) == 1 and len(set(meld)) == len(meld)


def is_run(meld: Sequence[Card]) -> bool:
    if len(meld) < 3 or len({c.suit for c in meld}) != 1:
        return False
    ranks = sorted(int(c.rank) for c in meld if c.rank is not None)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(meld: Sequence[Card]) -> bool:
    return is_set(meld) or is_run(meld)


def all_melds(hand: Sequence[Card]) -> list[frozenset[Card]]:
    """Every legal meld inside the hand, by trying every subset of 3 to 5+ cards."""
    held = set(hand)
    out: list[frozenset[Card]] = []
    for size in (3, 4):
        out += [frozenset(m) for m in itertools.combinations(hand, size) if is_set(m)]
    for card in hand:
        assert card.rank is not None
        run = [card]
        for rank in range(int(card.rank) + 1, 14):
            nxt = Card(Rank(rank), card.suit)
            if nxt not in held:
                break
            run.append(nxt)
            if len(run) >= 3:
                out.append(frozenset(run))
    return out


def packings(hand: Sequence[Card]) -> list[list[frozenset[Card]]]:
    """Every set of disjoint melds of the hand (the empty one included)."""
    melds = all_melds(hand)
    out: list[list[frozenset[Card]]] = []

    def walk(start: int, used: frozenset[Card], chosen: list[frozenset[Card]]) -> None:
        out.append(list(chosen))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], [*chosen, melds[i]])

    walk(0, frozenset(), [])
    return out


def brute_deadwood(hand: Sequence[Card]) -> int:
    return min(value(set(hand) - set().union(*p)) for p in packings(hand))


def brute_discard(hand: Sequence[Card]) -> int:
    return min(brute_deadwood([c for c in hand if c != d]) for d in hand)


def fits(card: Card, meld: list[Card]) -> bool:
    return is_meld([*meld, card])


def brute_defence(defender: Sequence[Card], spread: Sequence[Sequence[Card]], gin_: bool) -> int:
    """Least defender deadwood: every own-meld packing, then every sequence of lay-offs.

    Lay-offs are searched exhaustively (which card, onto which meld, in which order): a
    greedy closure is not enough, since a card that fits both a set and a run is worth
    more on the run when the next card chains after it.
    """
    best = 10**9
    for packing in packings(defender):
        left = frozenset(defender) - frozenset().union(*packing)
        if gin_:
            best = min(best, value(left))
        else:
            table = tuple(frozenset(meld) for meld in spread)
            best = min(best, _lay_off(left, table, {}))
    return best


def _lay_off(
    left: frozenset[Card],
    table: tuple[frozenset[Card], ...],
    seen: dict[tuple[frozenset[Card], tuple[frozenset[Card], ...]], int],
) -> int:
    key = (left, table)
    if key not in seen:
        best = value(left)
        for card in left:
            for index, meld in enumerate(table):
                if fits(card, list(meld)):
                    grown = (*table[:index], meld | {card}, *table[index + 1 :])
                    best = min(best, _lay_off(left - {card}, grown, seen))
        seen[key] = best
    return seen[key]


def brute_adjudication(knocker: Sequence[Card], defender: Sequence[Card]) -> tuple[int, int]:
    """(knocker deadwood, defender deadwood) with the knocker's spread chosen as the rules say."""
    options = [(value(set(knocker) - set().union(*p)), p) for p in packings(knocker)]
    least = min(dw for dw, _ in options)
    spreads = [p for dw, p in options if dw == least]
    return least, max(brute_defence(defender, [list(m) for m in p], least == 0) for p in spreads)


# --- checking a reported arrangement --------------------------------------------------


def check_arrangement(hand: Sequence[Card], arrangement: gin.Arrangement) -> None:
    melded = [c for meld in arrangement.melds for c in meld]
    assert all(is_meld(meld) for meld in arrangement.melds), arrangement.melds
    assert len(melded) == len(set(melded)), "melds overlap"
    everything = melded + list(arrangement.deadwood_cards)
    if arrangement.discard is not None:
        everything.append(arrangement.discard)
    assert sorted(everything, key=lambda c: c.sort_key) == sorted(hand, key=lambda c: c.sort_key)
    assert arrangement.deadwood == value(arrangement.deadwood_cards)
    assert arrangement.is_gin == (arrangement.deadwood == 0)
    assert arrangement.can_knock == (arrangement.deadwood <= 10)
    if len(hand) == 11:
        assert arrangement.big_gin == (arrangement.discard is None)
        if arrangement.discard is not None:
            assert all(
                RULES.value(c) <= RULES.value(arrangement.discard)
                for c in arrangement.deadwood_cards
            )


def check_adjudication(
    knocker: Sequence[Card], defender: Sequence[Card], r: gin.Adjudication
) -> None:
    check_arrangement(knocker, r.knocker)
    assert r.knocker_deadwood == r.knocker.deadwood <= 10
    # The defender's own melds are legal and from the hand; lay-offs are legal in order.
    table = [list(meld) for meld in r.knocker.melds]
    laid: list[Card] = []
    for layoff in r.layoffs:
        assert list(layoff.meld) == list(r.knocker.melds[layoff.onto])
        for card in layoff.cards:
            assert fits(card, table[layoff.onto]), (card, table[layoff.onto])
            table[layoff.onto].append(card)
            laid.append(card)
    if r.knocker_deadwood == 0:
        assert not r.layoffs
    own = [c for meld in r.defender.melds for c in meld]
    assert all(is_meld(meld) for meld in r.defender.melds)
    parts = own + laid + list(r.defender.deadwood_cards)
    assert sorted(parts, key=lambda c: c.sort_key) == sorted(defender, key=lambda c: c.sort_key)
    assert r.defender_deadwood == r.defender.deadwood == value(r.defender.deadwood_cards)
    assert r.defender_deadwood_before_layoffs == brute_deadwood(defender)
    # The score follows RULES.md.
    k, d = r.knocker_deadwood, r.defender_deadwood
    if k == 0:
        assert (r.outcome, r.winner, r.points) == ("gin", "knocker", d + 25)
    elif d > k:
        assert (r.outcome, r.winner, r.points) == ("knock", "knocker", d - k)
    else:
        assert (r.outcome, r.winner, r.points) == ("undercut", "defender", k - d + 25)


# --- deadwood and the best arrangement ------------------------------------------------


def test_gin_card_values_ace_one_pictures_and_ten_ten() -> None:
    a = gin.best_arrangement("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H")
    assert a.melds == ()
    assert a.deadwood == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10
    b = gin.best_arrangement("JS QH KD 10C AS AH 2D 3C 5S 7H")
    assert b.deadwood == 40 + 1 + 1 + 2 + 3 + 5 + 7


def test_gin_seed_example_keeps_the_run_not_the_sevens() -> None:
    # 7 8 9 of spades plus the 7 of hearts and the 7 of diamonds: keep the run, 14.
    a = gin.best_arrangement("7S 8S 9S 7H 7D 2C 3C 4C 5C 6C")
    assert codes(a.melds) == ["2C 3C 4C 5C 6C", "7S 8S 9S"]
    assert set(a.deadwood_cards) == set(cards("7H 7D"))
    assert a.deadwood == 14


def test_gin_set_of_four_and_run_share_a_card_best_split() -> None:
    # Four 7s and 8C 9C: the 7C goes to the run, three 7s stay a set: gin.
    a = gin.best_arrangement("7S 7H 7D 7C 8C 9C 2D 3D 4D KH")
    assert a.deadwood == 10
    assert set(codes(a.melds)) == {"7S 7H 7D", "7C 8C 9C", "2D 3D 4D"}


def test_gin_ace_is_low_qka_and_kam2_are_not_runs() -> None:
    assert gin.best_arrangement("QS KS AS 5H 6H 7H 9D 9C 9H 2C").deadwood == 10 + 10 + 1 + 2
    assert gin.best_arrangement("KS AS 2S 5H 6H 7H 9D 9C 9H 4C").deadwood == 10 + 1 + 2 + 4
    a = gin.best_arrangement("AS 2S 3S 5H 6H 7H 9D 9C 9H 4C")
    assert a.deadwood == 4 and "AS 2S 3S" in codes(a.melds)


def test_gin_long_run_and_set_of_four_are_melds() -> None:
    a = gin.best_arrangement("3H 4H 5H 6H 7H 8H KS KH KD KC")
    assert a.deadwood == 0 and a.is_gin and a.can_knock
    assert codes(a.melds) == ["3H 4H 5H 6H 7H 8H", "KS KH KD KC"]


def test_gin_knock_at_ten_or_less_only() -> None:
    assert gin.best_arrangement("2S 3S 4S 5H 6H 7H 9D 9C 9H 10C").can_knock
    eleven = gin.best_arrangement("2S 3S 4S 5H 6H 7H 9D 9C 9H AC 10C")
    assert eleven.deadwood == 1 and eleven.discard == Card.parse("10C")
    over = gin.best_arrangement("2S 3S 4S 5H 6H 7H 9D 9C AC 10C")
    assert over.deadwood == 9 + 9 + 1 + 10 and not over.can_knock


def test_gin_eleven_cards_best_discard_is_exact() -> None:
    # OpenSpiel's own 11-card shortcut says 22 for this hand; the best discard leaves 21.
    a = gin.best_arrangement("6S 8C 9H 4S 9C 9S 7C 8H 7S 7H 4H")
    assert a.deadwood == 21 == brute_discard(cards("6S 8C 9H 4S 9C 9S 7C 8H 7S 7H 4H"))
    check_arrangement(cards("6S 8C 9H 4S 9C 9S 7C 8H 7S 7H 4H"), a)


def test_gin_eleven_cards_discard_may_break_a_meld() -> None:
    # 7S..10S and three 10s: set aside 10S for the set; discard KD.
    hand = cards("7S 8S 9S 10S 10H 10D 2C 3C 4C 5C KD")
    a = gin.best_arrangement(hand)
    assert a.discard == Card.parse("KD") and a.deadwood == 0 and a.is_gin and not a.big_gin


def test_gin_big_gin_counts_as_gin_with_no_discard() -> None:
    hand = cards("2S 3S 4S 5S 9H 9D 9C JC QC KC 10C")
    a = gin.best_arrangement(hand)
    assert a.is_gin and a.big_gin and a.discard is None and a.deadwood == 0
    assert sum(len(m) for m in a.melds) == 11
    assert gin.best_discard_of_mask(gin.mask_of(hand))[0] == 0


def test_gin_best_arrangement_refuses_wrong_sizes_and_repeats() -> None:
    with pytest.raises(RuleError, match="10 cards, or 11 after the draw; 9 cards"):
        gin.best_arrangement("2S 3S 4S 5H 6H 7H 9D 9C 9H")
    with pytest.raises(RuleError, match="7S is given twice"):
        gin.best_arrangement("7S 7S 4S 5H 6H 7H 9D 9C 9H 2C")
    with pytest.raises(RuleError, match="without jokers"):
        gin.best_arrangement("JK 3S 4S 5H 6H 7H 9D 9C 9H 2C")
    with pytest.raises(RefereeError, match='"1X" is not a card'):
        gin.best_arrangement("1X 3S 4S 5H 6H 7H 9D 9C 9H 2C")


def test_gin_accepts_card_objects_and_strings() -> None:
    hand = cards("7S 8S 9S 7H 7D 2C 3C 4C 5C 6C")
    assert gin.best_arrangement(list(hand)) == gin.best_arrangement(" ".join(map(str, hand)))
    assert gin.best_arrangement([str(c) for c in hand]).deadwood == 14
    assert gin.least_deadwood(hand) == 14


# --- knock adjudication ---------------------------------------------------------------

KNOCKER = "7C 8C 9C 2S 2H 2D 5H 6H 7H AS"


def test_gin_seed_layoff_example_twenty_down_to_four() -> None:
    # Knocker spreads 7 8 9 of clubs; the defender's 6 and 10 of clubs both lay off.
    r = gin.adjudicate_knock(KNOCKER, "6C 10C 4D 10S JS QS KS 9H 9D 9S")
    assert r.defender_deadwood_before_layoffs == 20
    assert r.defender_deadwood == 4 and r.defender.deadwood_cards == cards("4D")
    assert sorted(codes(lay.cards for lay in r.layoffs)) == ["10C", "6C"]
    assert all(codes([lay.meld]) == ["7C 8C 9C"] for lay in r.layoffs)
    assert (r.outcome, r.winner, r.points) == ("knock", "knocker", 4 - 1)
    check_adjudication(cards(KNOCKER), cards("6C 10C 4D 10S JS QS KS 9H 9D 9S"), r)


def test_gin_layoffs_chain_along_a_run() -> None:
    defender = cards("5C 6C 10C JC 4D 4S KD KS 3H 3C")
    r = gin.adjudicate_knock(KNOCKER, defender)
    by_cards = {format_cards(lay.cards): format_cards(lay.meld) for lay in r.layoffs}
    assert by_cards == {"6C 5C": "7C 8C 9C", "10C JC": "7C 8C 9C"}
    assert r.defender_deadwood == 4 + 4 + 10 + 10 + 3 + 3
    check_adjudication(cards(KNOCKER), defender, r)


def test_gin_set_takes_its_fourth_card_only() -> None:
    r = gin.adjudicate_knock(KNOCKER, "2C 3D 4D 5D KH KS KD 9S 10S QC")
    assert codes(lay.cards for lay in r.layoffs) == ["2C"]
    assert codes([r.layoffs[0].meld]) == ["2S 2H 2D"]
    assert r.defender_deadwood == 9 + 10 + 10
    four = gin.adjudicate_knock("2S 2H 2D 2C 5H 6H 7H AS 3D 4C", "KH KS KD 9S 10S QC 3S 8H 9H JD")
    assert not any(lay.onto == 0 for lay in four.layoffs)


def test_gin_layoff_beats_the_defenders_own_meld() -> None:
    # Four 8s as a set leave 7C dead (7); instead 8C and 7C chain onto the knocker's
    # 9C 10C JC and 8S 8H 8D stay a set: deadwood 0 for those cards.
    knocker = "9C 10C JC 2S 2H 2D 5H 6H 7H AS"
    defender = "8S 8H 8D 8C 7C KS KD QH 3D 4S"
    alone = gin.best_arrangement(defender)
    assert "8S 8H 8D 8C" in codes(alone.melds)
    r = gin.adjudicate_knock(knocker, defender)
    assert codes(r.defender.melds) == ["8S 8H 8D"]
    assert codes(lay.cards for lay in r.layoffs) == ["8C 7C"]
    assert r.defender_deadwood == 10 + 10 + 10 + 3 + 4 == r.defender_deadwood_before_layoffs - 7
    check_adjudication(cards(knocker), cards(defender), r)


def test_gin_card_fitting_a_set_and_a_run_goes_where_the_chain_continues() -> None:
    # 3D fits the knocker's set of 3s and the low end of 4D 5D 6D; on the run, 2D can
    # follow it. (Found by hypothesis against a brute force that laid off greedily.)
    knocker = "3C 2S AD 4S 4D 5D 3S 6D 2H 3H"
    defender = "4H 5H 6H 7H 7S 2D 3D 5S 6S AH"
    r = gin.adjudicate_knock(knocker, defender, "3C 3S 3H | 4D 5D 6D")
    assert r.knocker_deadwood == 2 + 4 + 1 + 2
    assert codes(lay.cards for lay in r.layoffs) == ["3D 2D"]
    assert codes([r.layoffs[0].meld]) == ["4D 5D 6D"]
    assert r.defender_deadwood == 1
    check_adjudication(cards(knocker), cards(defender), r)
    assert brute_defence(cards(defender), [cards("3C 3S 3H"), cards("4D 5D 6D")], False) == 1


def test_gin_undercut_on_a_tie() -> None:
    # The knocker knocks with 5 (5D); the defender lays off 6C and 10C and lands on
    # exactly 5 (AD 4C): a tie is an undercut.
    tie = gin.adjudicate_knock("7C 8C 9C 2S 2H 2D 5H 6H 7H 5D", "6C AD 4C KS KH KD QS QH QD 10C")
    assert tie.knocker_deadwood == 5 and tie.defender_deadwood == 5
    assert (tie.outcome, tie.winner, tie.points) == ("undercut", "defender", 25)
    assert "undercut" in tie.explanation and "not higher" in tie.explanation


def test_gin_undercut_scores_difference_plus_25() -> None:
    r = gin.adjudicate_knock("7C 8C 9C 2S 2H 2D 5H 6H 7H 9D", "AD 3D KS KH KD KC QS QH QD QC")
    assert (r.knocker_deadwood, r.defender_deadwood) == (9, 4)
    assert (r.outcome, r.winner, r.points) == ("undercut", "defender", 9 - 4 + 25)
    assert (r.knocker_points, r.defender_points) == (0, 30)


def test_gin_knocker_spreads_the_twin_suit_that_blocks_a_layoff() -> None:
    # Spades and diamonds both hold 2-3-4: the knocker keeps 4 deadwood either by running
    # 2S-3S-4S (4D dead) or 2D-3D-4D (4S dead). Only the spade run takes the defender's AS,
    # so the knocker spreads the diamond run; the defender keeps AS: 1 <= 4 is an undercut
    # worth 4 - 1 + 25 = 28.
    r = gin.adjudicate_knock("2S 3S 4S 2H 3H 2C 3C 2D 3D 4D", "5S 5H 5D 6S 6H 6C 7S 7H 7D AS")
    assert (r.knocker_deadwood, r.defender_deadwood) == (4, 1)
    assert r.knocker.deadwood_cards == cards("4S") and not r.layoffs
    assert (r.outcome, r.winner, r.points) == ("undercut", "defender", 28)


def test_gin_no_layoffs_on_gin() -> None:
    knocker = "7C 8C 9C 2S 2H 2D 5H 6H 7H 8H"
    defender = "6C 10C 2C 9H 4H KS KH KD QS AD"
    r = gin.adjudicate_knock(knocker, defender)
    assert r.knocker_deadwood == 0 and r.layoffs == ()
    assert r.defender_deadwood == 6 + 10 + 2 + 9 + 4 + 10 + 1
    assert (r.outcome, r.winner, r.points) == ("gin", "knocker", r.defender_deadwood + 25)


def test_gin_knock_wins_the_difference() -> None:
    r = gin.adjudicate_knock(KNOCKER, "KS KH QD JC 9D 8D 3S 4S 5C 6D")
    assert r.outcome == "knock" and r.winner == "knocker"
    assert r.points == r.defender_deadwood - 1


def test_gin_knocker_chooses_the_spread_that_hurts_the_defender() -> None:
    # 2S 3S 4S run or 3S 3H 3D set: both leave 6. With the run the defender lays off 5S;
    # with the set, 3C. The knocker spreads the set, leaving the 5S dead.
    knocker = "2S 3S 4S 3H 3D 9C 10C JC QC KC"
    defender = "5S 3C 5H 6H 7H 8H JD JS JH 6D"
    r = gin.adjudicate_knock(knocker, defender)
    assert "3S 3H 3D" in codes(r.knocker.melds)
    assert r.defender_deadwood == 5 + 6 and r.points == 5
    check_adjudication(cards(knocker), cards(defender), r)
    # With the run spread explicitly, the 5S lays off instead.
    given_run = gin.adjudicate_knock(knocker, defender, "2S 3S 4S | 9C 10C JC QC KC")
    assert given_run.defender_deadwood == 3 + 6 and given_run.points == 3


def test_gin_given_spread_is_used_and_checked() -> None:
    r = gin.adjudicate_knock(
        KNOCKER, "6C 10C 4D 10S JS QS KS 9H 9D 9S", [["7C", "8C", "9C"], "2S 2H 2D", "5H 6H 7H"]
    )
    assert r.knocker_melds_given and r.knocker_deadwood == 1
    # A legal but poorer spread: 5H 6H 7H left out leaves 19 -> refused.
    with pytest.raises(RuleError, match="leaves 19 deadwood .*10 or less"):
        gin.adjudicate_knock(KNOCKER, "6C 10C 4D 10S JS QS KS 9H 9D 9S", "7C 8C 9C | 2S 2H 2D")


@pytest.mark.parametrize(
    ("melds", "reason"),
    [
        (
            "7C 8C | 2S 2H 2D | 5H 6H 7H",
            "meld 1 \\(7C 8C\\) is not legal: a meld needs at least 3 cards; 7C 8C is only 2",
        ),
        (
            "7C 8C 10C | 2S 2H 2D",
            "meld 1 \\(7C 8C 10C\\) is not legal: 9C is missing between 8C and 10C",
        ),
        ("7C 8C 9H | 2S 2H 2D", "meld 1 \\(7C 8C 9H\\) is not legal: a run is all one suit"),
        ("7C 8C 9C | 2S 2H 2D | 5H 6H 7H 8H", "8H in meld 3 is not in the knocker's hand"),
        ("7C 8C 9C | 2S 2H 2D | 7C 7H 7D", "7C is in meld 1 and in meld 3"),
        (
            "7C 8C 9C 9C | 2S 2H 2D",
            "meld 1 \\(7C 8C 9C 9C\\) is not legal: 9C is there twice, but the deck has only one",
        ),
        # gin's spreads are checked by the meld rules of referee.melds, gin's ace low
        ("QS KS AS | 2H 2D 2C", "meld 1 \\(QS KS AS\\) is not legal: the ace is low in Gin"),
        ("9C 8C 7C | 2S 2H 2D | 5H 6H 7H", None),
    ],
)
def test_gin_illegal_spread_refused_with_reason(melds: str, reason: str | None) -> None:
    if reason is None:  # a run written in any order is a run
        spread = gin.adjudicate_knock(KNOCKER, "6C 10C 4D 10S JS QS KS 9H 9D 9S", melds)
        assert [str(c) for c in spread.knocker.melds[0]] == ["7C", "8C", "9C"]
        return
    with pytest.raises(RuleError, match=reason):
        gin.adjudicate_knock(KNOCKER, "6C 10C 4D 10S JS QS KS 9H 9D 9S", melds)


def test_gin_ace_high_spread_refused() -> None:
    with pytest.raises(RuleError, match="ace is low"):
        gin.adjudicate_knock(
            "QS KS AS 2H 2D 2C 5H 6H 7H 3C",
            "6C 10C 4D 10S JS QD KD 9H 9D 9S",
            "QS KS AS | 2H 2D 2C | 5H 6H 7H",
        )


def test_gin_knock_above_ten_refused() -> None:
    with pytest.raises(RuleError, match="least deadwood of that hand is 18 .*10 or less"):
        gin.adjudicate_knock("7C 8C 9C 2S 2H 2D AS 3H 4D KS", "6C 10C 4H 5S JS QS KD 9H 9D 9S")


def test_gin_hands_must_be_ten_distinct_cards() -> None:
    # RULES.md Decision: 11 cards at the knock are big gin, every card melded, or nothing.
    with pytest.raises(RuleError, match="the knocker holds 11 cards, which is only a knock as big"):
        gin.adjudicate_knock(KNOCKER + " KD", "6C 10C 4D 10S JS QS KS 9H 9D 9S")
    with pytest.raises(RuleError, match="the knocker must hold 10 cards .* not 12"):
        gin.adjudicate_knock(KNOCKER + " KD QD", "6C 10C 4D 10S JS QS KS 9H 9D 9S")
    with pytest.raises(RuleError, match="the defender must hold 10 cards .* not 9"):
        gin.adjudicate_knock(KNOCKER, "6C 10C 4D 10S JS QS KS 9H 9D")
    with pytest.raises(RuleError, match="7C is in both hands"):
        gin.adjudicate_knock(KNOCKER, "7C 10C 4D 10S JS QS KS 9H 9D 9S")
    with pytest.raises(RuleError, match="9S is given twice in the defender's hand"):
        gin.adjudicate_knock(KNOCKER, "9S 10C 4D 10S JS QS KS 9H 9D 9S")


def test_gin_score_knock_round_by_name() -> None:
    hands = {"Budi": cards(KNOCKER), "Siti": cards("6C 10C 4D 10S JS QS KS 9H 9D 9S")}
    assert gin.score_knock_round("Budi", hands, None) == ("knock", "Budi", {"Budi": 3, "Siti": 0})
    undercut = {
        "Budi": cards("7C 8C 9C 2S 2H 2D 5H 6H 7H 9D"),
        "Siti": cards("AD 3D KS KH KD KC QS QH QD QC"),
    }
    assert gin.score_knock_round("Budi", undercut, None) == (
        "undercut",
        "Siti",
        {"Budi": 0, "Siti": 30},
    )
    gin_hands = {
        "Andi": cards("7C 8C 9C 2S 2H 2D 5H 6H 7H 8H"),
        "Siti": cards("6C 10C 2C 9H 4H KS KH KD QS AD"),
    }
    assert gin.score_knock_round("Andi", gin_hands, None) == (
        "gin",
        "Andi",
        {"Andi": 67, "Siti": 0},
    )
    spread = [list(cards("7C 8C 9C")), list(cards("2S 2H 2D")), list(cards("5H 6H 7H"))]
    assert gin.score_knock_round("Budi", hands, spread)[0] == "knock"


def test_gin_score_knock_round_refuses_bad_rounds() -> None:
    with pytest.raises(RuleError, match="Budi must hold 10 cards"):
        gin.score_knock_round(
            "Budi",
            {"Budi": cards("7C 8C 9C"), "Siti": cards("6C 10C 4D 10S JS QS KS 9H 9D 9S")},
            None,
        )
    with pytest.raises(RuleError, match="Andi knocked but has no hand"):
        gin.score_knock_round(
            "Andi", {"Budi": cards(KNOCKER), "Siti": cards("6C 10C 4D 10S JS QS KS 9H 9D 9S")}, None
        )
    with pytest.raises(RuleError, match="two players; 1 hands"):
        gin.score_knock_round("Budi", {"Budi": cards(KNOCKER)}, None)
    with pytest.raises(RuleError, match="Siti's hand"):
        gin.score_knock_round(
            "Budi", {"Budi": cards(KNOCKER), "Siti": cards("9S 10C 4D 10S JS QS KS 9H 9D 9S")}, None
        )


def test_gin_adjudication_json_is_complete() -> None:
    r = gin.adjudicate_knock(KNOCKER, "6C 10C 4D 10S JS QS KS 9H 9D 9S")
    doc = r.to_json()
    assert doc["outcome"] == "knock" and doc["scores"] == {"knocker": 3, "defender": 0}
    assert doc["defender"]["deadwood_before_layoffs"] == 20
    assert {tuple(x["cards"]) for x in doc["layoffs"]} == {("6C",), ("10C",)}


# --- properties -----------------------------------------------------------------------

hands10 = st.permutations(DECK).map(lambda p: p[:10])
rich10 = st.permutations(RICH_DECK).map(lambda p: p[:10])
rich11 = st.permutations(RICH_DECK).map(lambda p: p[:11])
hands11 = st.permutations(DECK).map(lambda p: p[:11])


@given(st.one_of(hands10, rich10, hands11, rich11))
def test_gin_reported_arrangement_is_consistent_and_legal(hand: tuple[Card, ...]) -> None:
    check_arrangement(hand, gin.best_arrangement(hand))


@settings(max_examples=150)
@given(st.one_of(rich10, hands10))
def test_gin_brute_force_never_beats_ten_cards(hand: tuple[Card, ...]) -> None:
    assert gin.best_arrangement(hand).deadwood == brute_deadwood(hand)
    assert gin.deadwood_of_mask(gin.mask_of(hand)) == brute_deadwood(hand)


@settings(max_examples=60)
@given(st.one_of(rich11, hands11))
def test_gin_brute_force_never_beats_the_best_discard(hand: tuple[Card, ...]) -> None:
    expected = brute_discard(hand)
    assert gin.best_arrangement(hand).deadwood == expected
    assert gin.best_discard_of_mask(gin.mask_of(hand))[0] == expected


@settings(max_examples=60, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.permutations(LOW_DECK))
def test_gin_adjudication_matches_brute_force(deal: tuple[Card, ...]) -> None:
    # The knocker's cards come from A-5 (knockable 40% of the time), the defender's from
    # what is left of A-7.
    knocker = tuple(c for c in deal if c.rank is not None and c.rank <= 5)[:10]
    defender = tuple(c for c in deal if c not in knocker)[:10]
    assume(brute_deadwood(knocker) <= 10)
    r = gin.adjudicate_knock(knocker, defender)
    check_adjudication(knocker, defender, r)
    assert (r.knocker_deadwood, r.defender_deadwood) == brute_adjudication(knocker, defender)


def test_gin_seeded_knocks_match_brute_force() -> None:
    rng = random.Random(2024)
    checked = 0
    while checked < 150:
        deal = rng.sample(LOW_DECK if checked % 2 else RICH_DECK, 20)
        knocker, defender = deal[:10], deal[10:]
        if brute_deadwood(knocker) > 10:
            with pytest.raises(RuleError, match="cannot knock"):
                gin.adjudicate_knock(knocker, defender)
            continue
        r = gin.adjudicate_knock(knocker, defender)
        check_adjudication(knocker, defender, r)
        assert (r.knocker_deadwood, r.defender_deadwood) == brute_adjudication(knocker, defender)
        checked += 1


def test_gin_seeded_given_spreads_match_brute_force() -> None:
    # Any legal spread leaving 10 or less, split runs and poorer choices included.
    rng = random.Random(5)
    checked = 0
    while checked < 150:
        deal = rng.sample(LOW_DECK, 28)
        knocker = [c for c in deal if c.rank is not None and c.rank <= 5][:10]
        defender = [c for c in deal if c not in knocker][:10]
        spreads = [p for p in packings(knocker) if value(set(knocker) - set().union(*p)) <= 10]
        if not spreads:
            continue
        spread = [sorted(meld, key=lambda c: c.sort_key) for meld in rng.choice(spreads)]
        r = gin.adjudicate_knock(knocker, defender, spread)
        check_adjudication(knocker, defender, r)
        knocked = value(set(knocker) - {c for meld in spread for c in meld})
        assert r.knocker_deadwood == knocked
        assert r.defender_deadwood == brute_defence(defender, spread, knocked == 0)
        checked += 1


def test_gin_seeded_hands_match_brute_force() -> None:
    rng = random.Random(7)
    for n in range(400):
        deck = RICH_DECK if n % 2 else DECK
        hand = rng.sample(deck, 10)
        assert gin.deadwood_of_mask(gin.mask_of(hand)) == brute_deadwood(hand)
        hand11 = rng.sample(deck, 11)
        assert gin.best_discard_of_mask(gin.mask_of(hand11))[0] == brute_discard(hand11)


def test_gin_worst_case_hands_are_exact() -> None:
    # The hands with the most set choices to try (three conflicting ranks).
    for text in ("7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D", "6S 7S 8S 6H 7H 8H 6D 7D 8D 6C 7C"):
        hand = cards(text)
        assert gin.best_arrangement(hand).deadwood == brute_discard(hand)
        assert gin.best_arrangement(hand[:10]).deadwood == brute_deadwood(hand[:10])
