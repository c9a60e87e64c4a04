"""The five rulesets as data (RULES.md), found by id."""

from __future__ import annotations

import pkgutil

import pytest

import referee.rulesets
from referee.cards import Card
from referee.errors import RuleError
from referee.rulesets import RULESETS, AceOrder, TurnStyle, find_ruleset
from referee.scoring import Ending


def value(rules_id: str, card: str, **options: object) -> int:
    return find_ruleset(rules_id, options).value(Card.parse(card))


def test_the_five_rulesets_in_the_order_of_rules_md() -> None:
    assert list(RULESETS) == ["remi", "rummy", "remi-indonesia", "manipulation", "gin"]


def test_each_ruleset_is_one_module_of_the_package() -> None:
    modules = {info.name for info in pkgutil.iter_modules(referee.rulesets.__path__)}
    assert modules - {"base"} == {"remi", "rummy", "remi_indonesia", "manipulation", "gin"}


def test_unknown_ruleset() -> None:
    with pytest.raises(RuleError, match='"poker" is not a ruleset'):
        find_ruleset("poker")


@pytest.mark.parametrize(
    ("rules_id", "low", "high", "deals"),
    [
        ("remi", 2, 4, {2: 10, 3: 7, 4: 7}),
        ("rummy", 2, 6, {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}),
        ("remi-indonesia", 2, 4, {2: 7, 3: 7, 4: 7}),
        ("manipulation", 2, 5, {2: 10, 3: 10, 4: 10, 5: 10}),
        ("gin", 2, 2, {2: 10}),
    ],
)
def test_players_and_deal_sizes(rules_id: str, low: int, high: int, deals: dict[int, int]) -> None:
    rules = find_ruleset(rules_id)
    assert (rules.min_players, rules.max_players) == (low, high)
    assert {n: rules.deal_size(n) for n in deals} == deals


@pytest.mark.parametrize(
    ("rules_id", "target"),
    [("remi", 100), ("rummy", 150), ("remi-indonesia", 500), ("manipulation", 150), ("gin", 100)],
)
def test_default_targets(rules_id: str, target: int) -> None:
    assert find_ruleset(rules_id).target == target


def test_remi_card_values_ace_one_pictures_ten() -> None:
    assert [value("remi", c) for c in ("AS", "2S", "9S", "10S", "JS", "QS", "KS")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]


def test_rummy_ace_worth_fifteen_only_with_high_low() -> None:
    assert value("rummy", "AH") == 1
    assert value("rummy", "AH", ace="high-low") == 15
    assert find_ruleset("rummy", {"ace": "high-low"}).ace_order is AceOrder.LOW_OR_HIGH


def test_remi_indonesia_values_five_ten_fifteen() -> None:
    assert [value("remi-indonesia", c) for c in ("2S", "9S", "10S", "JS", "KS", "AS")] == [
        5,
        5,
        5,
        10,
        10,
        15,
    ]


def test_manipulation_joker_worth_25_and_deck_size_by_players() -> None:
    rules = find_ruleset("manipulation")
    assert rules.value(Card.joker()) == 25
    assert (rules.copies(2), rules.joker_count(2)) == (1, 1)
    assert (rules.copies(3), rules.joker_count(3)) == (2, 2)


def test_one_deck_without_jokers_elsewhere() -> None:
    for rules_id in ("remi", "rummy", "remi-indonesia", "gin"):
        rules = find_ruleset(rules_id)
        assert (rules.copies(4 if rules.max_players >= 4 else 2), rules.joker_count(2)) == (1, 0)


def test_gin_is_for_exactly_two() -> None:
    with pytest.raises(RuleError, match="exactly 2 players, not 3"):
        find_ruleset("gin").verify_players(3)


def test_options_only_where_the_ruleset_has_them() -> None:
    with pytest.raises(RuleError, match='remi has no option "hands"'):
        find_ruleset("remi", {"hands": 3})
    with pytest.raises(RuleError, match="must be"):
        find_ruleset("rummy", {"ace": "high"})
    with pytest.raises(RuleError, match="true or false"):
        find_ruleset("rummy", {"must_discard": "yes"})
    with pytest.raises(RuleError, match="positive whole number"):
        find_ruleset("rummy", {"hands": 0})


def test_rummy_hands_replaces_the_target_whatever_the_order() -> None:
    for options in ({"hands": 4, "target": 50}, {"target": 50, "hands": 4}):
        rules = find_ruleset("rummy", options)
        assert (rules.hands, rules.target) == (4, None)
        assert rules.describe_goal() == "4 rounds"


def test_round_endings_per_ruleset() -> None:
    assert find_ruleset("remi").endings == {Ending.OUT, Ending.BLOCKED, Ending.VOID}
    assert find_ruleset("rummy").endings == {Ending.OUT, Ending.VOID}
    assert find_ruleset("remi-indonesia").endings == {Ending.OUT, Ending.STOCK, Ending.VOID}
    assert find_ruleset("manipulation").endings == {
        Ending.OUT,
        Ending.KNOCK,
        Ending.STOCK,
        Ending.VOID,
    }
    assert find_ruleset("gin").endings == {Ending.KNOCK, Ending.DRAW, Ending.VOID}


def test_turn_styles_and_turn_rules_as_data() -> None:
    assert find_ruleset("manipulation").turn_style is TurnStyle.TABLE
    assert find_ruleset("gin").turn_style is TurnStyle.NONE
    indo = find_ruleset("remi-indonesia")
    assert indo.run_first and indo.discard_depth == 3 and not indo.layoffs
    assert indo.leader_offset == 0  # play starts with the dealer
    assert find_ruleset("remi").taken_discard_not_last
    assert find_ruleset("remi").hand_never_grows and find_ruleset("rummy").hand_never_grows
    assert not find_ruleset("manipulation").hand_never_grows
