"""Meld and lay-off legality, pinned to the clauses of RULES.md."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import Card, Rank, Suit
from referee.errors import NotationError, RuleError
from referee.melds import MeldKind, check_layoff, check_meld, verify_layoff, verify_meld
from referee.rulesets import find_ruleset

REMI = find_ruleset("remi")
RUMMY_HIGH = find_ruleset("rummy", {"ace": "high-low"})
INDO = find_ruleset("remi-indonesia")
MANIP = find_ruleset("manipulation")


def reason(cards: str, rules: object = REMI) -> str:
    verdict = check_meld(cards, rules)  # type: ignore[arg-type]
    assert not verdict.legal
    assert verdict.reason is not None
    return verdict.reason.text


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("7S 8S 9S", MeldKind.RUN),
        ("9S 7S 8S", MeldKind.RUN),
        ("AS 2S 3S", MeldKind.RUN),
        ("JH QH KH", MeldKind.RUN),
        ("4H 4D 4C", MeldKind.SET),
        ("KS KH KD KC", MeldKind.SET),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", MeldKind.RUN),
    ],
)
def test_remi_legal_melds(cards: str, kind: MeldKind) -> None:
    verdict = check_meld(cards, REMI)
    assert verdict.legal and verdict.kind is kind and verdict.reason is None


def test_run_is_reported_lowest_first() -> None:
    assert [str(c) for c in verify_meld("9S 7S 8S", REMI).cards] == ["7S", "8S", "9S"]


def test_too_few_cards() -> None:
    assert "at least 3 cards" in reason("7S 8S")


def test_mixed_suits_named() -> None:
    text = reason("7S 8H 9S")
    assert "spades" in text and "hearts" in text


def test_gap_names_the_missing_card() -> None:
    assert reason("7S 9S 10S") == "8S is missing between 7S and 9S"


def test_gap_of_several_cards_names_them_all() -> None:
    assert reason("3S 6S 7S") == "4S, 5S are missing between 3S and 6S"


def test_duplicate_card_in_one_deck() -> None:
    assert "7S is there twice" in reason("7S 7S 7H")


def test_set_of_five_refused_where_two_decks_exist() -> None:
    assert "at most 4 cards" in reason("7S 7H 7D 7C 7S", MANIP)


def test_remi_ace_is_low_qka_refused() -> None:
    assert "ace is low" in reason("QS KS AS")


def test_wrap_kak2_refused_everywhere() -> None:
    for rules in (REMI, RUMMY_HIGH, MANIP):
        assert "K-A-2" in reason("KS AS 2S", rules)


def test_rummy_high_low_allows_qka() -> None:
    meld = verify_meld("AS QS KS", RUMMY_HIGH)
    assert [str(c) for c in meld.cards] == ["QS", "KS", "AS"]


def test_remi_indonesia_run_never_mixes_number_and_picture() -> None:
    assert "never both" in reason("10H JH QH", INDO)


def test_remi_indonesia_ace_never_in_a_run() -> None:
    assert "ace is never in a run" in reason("AH 2H 3H", INDO)


def test_remi_indonesia_picture_run_and_ace_set_are_legal() -> None:
    assert check_meld("JH QH KH", INDO).legal
    assert check_meld("AH AS AD", INDO).legal


def test_no_jokers_outside_manipulation() -> None:
    assert "no jokers" in reason("7S 8S JK=9S")


def test_manipulation_joker_must_name_its_card() -> None:
    assert "JK=7H" in reason("7S 8S JK", MANIP)


def test_manipulation_joker_that_does_not_fit_says_what_would() -> None:
    text = reason("7S 8S JK=7H", MANIP)
    assert text.startswith("JK=7H stands for 7H")
    assert "6S" in text and "9S" in text


def test_manipulation_named_joker_completes_run_and_set() -> None:
    assert check_meld("7S 8S JK=9S", MANIP).kind is MeldKind.RUN
    assert check_meld("QS KS JK=AS", MANIP).kind is MeldKind.RUN
    assert check_meld("7S 7H JK=7D", MANIP).kind is MeldKind.SET


def test_manipulation_two_identical_cards_in_a_set() -> None:
    assert "two identical cards" in reason("7H 7H 7S", MANIP)
    text = reason("7H JK=7H 7S", MANIP)
    assert text.startswith("JK=7H stands for 7H") and "7D" in text


def test_verify_meld_raises_rule_error_with_reason() -> None:
    with pytest.raises(RuleError, match="8S is missing between 7S and 9S"):
        verify_meld("7S 9S 10S", REMI)


def test_bad_card_is_a_notation_error_naming_it() -> None:
    with pytest.raises(NotationError, match='"1X" is not a card'):
        check_meld("1X 2S 3S", REMI)


def test_layoff_runs_extend_at_both_ends_with_chaining() -> None:
    meld = verify_layoff("7S 8S 9S", "6S 10S JS", REMI)
    assert [str(c) for c in meld.cards] == ["6S", "7S", "8S", "9S", "10S", "JS"]


def test_layoff_set_takes_its_fourth_card_only() -> None:
    assert check_layoff("7S 7H 7D", "7C", REMI).legal
    assert "already has 4 cards" in str(check_layoff("7S 7H 7D 7C", "7C", MANIP).reason)


def test_layoff_ace_only_below_two_nothing_above_king() -> None:
    assert check_layoff("2S 3S 4S", "AS", REMI).legal
    assert "nothing goes above K" in str(check_layoff("JS QS KS", "AS", REMI).reason)


def test_layoff_gap_names_missing_card() -> None:
    text = str(check_layoff("7S 8S 9S", "JS", REMI).reason)
    assert text == "JS cannot be laid off on 7S 8S 9S: 10S is missing between 9S and JS"


def test_layoff_wrong_rank_and_wrong_suit() -> None:
    assert "is not a 7" in str(check_layoff("7S 7H 7D", "8C", REMI).reason)
    assert "spades" in str(check_layoff("7S 8S 9S", "10H", REMI).reason)


def test_remi_indonesia_refuses_every_layoff() -> None:
    verdict = check_layoff("7S 8S 9S", "10S", INDO)
    assert not verdict.legal
    assert "closed in Remi Indonesia" in str(verdict.reason)


def test_layoff_onto_an_illegal_meld_says_so() -> None:
    assert "is not legal" in str(check_layoff("7S 8S 10S", "9S", REMI).reason)


def test_verdict_json_shape() -> None:
    assert check_meld("7S 8S 9S", REMI).to_json() == {"legal": True, "kind": "run", "reason": None}
    assert check_meld("7S 8S", REMI).to_json()["legal"] is False


NATURALS = [Card(rank, suit) for suit in Suit for rank in Rank]
legal_runs = st.tuples(st.sampled_from(list(Suit)), st.integers(1, 11)).flatmap(
    lambda start: st.builds(
        lambda length: [Card(Rank(r), start[0]) for r in range(start[1], start[1] + length)],
        st.integers(3, 14 - start[1]),
    )
)
legal_sets = st.builds(
    lambda rank, suits: [Card(rank, suit) for suit in suits],
    st.sampled_from(list(Rank)),
    st.lists(st.sampled_from(list(Suit)), min_size=3, max_size=4, unique=True),
)


@given(st.one_of(legal_runs, legal_sets).flatmap(st.permutations))
def test_any_permutation_of_a_legal_meld_is_legal(cards: list[Card]) -> None:
    assert check_meld(cards, REMI).legal


@given(st.lists(st.sampled_from(NATURALS), min_size=0, max_size=8))
def test_any_cards_get_a_verdict_and_illegal_ones_a_reason(cards: list[Card]) -> None:
    for rules in (REMI, RUMMY_HIGH, INDO, MANIP):
        verdict = check_meld(cards, rules)
        assert verdict.legal == (verdict.reason is None)
        assert verdict.legal == (verdict.meld is not None)
