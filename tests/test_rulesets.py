"""The rulesets as data (RULES.md), found by id.

Tests that concern every ruleset iterate the registry, so a sixth ruleset is
tested by them without editing this file.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import referee.rulesets
from referee.cards import Card
from referee.errors import RuleError
from referee.messages import CATALOGUE
from referee.rulesets import (
    OUTCOME_LABELS,
    RULESETS,
    AceOrder,
    FinalTable,
    HandSize,
    Knock,
    TurnStyle,
    find_ruleset,
)
from referee.scoring import Ending, Outcome

SHIPPED = ["remi", "rummy", "remi-indonesia", "manipulation", "gin"]


def value(rules_id: str, card: str, **options: object) -> int:
    return find_ruleset(rules_id, options).value(Card.parse(card))


def test_the_five_rulesets_of_rules_md_in_its_order() -> None:
    assert [rules_id for rules_id in RULESETS if rules_id in SHIPPED] == SHIPPED


def test_each_ruleset_module_of_the_package_is_registered() -> None:
    for info in pkgutil.iter_modules(referee.rulesets.__path__):
        if info.name in ("base", "options") or info.name.startswith("_"):  # shared machinery
            continue
        module = importlib.import_module(f"referee.rulesets.{info.name}")
        assert RULESETS[module.RULESET.id] is module.RULESET


@pytest.mark.parametrize("rules_id", list(RULESETS))
def test_every_ruleset_is_complete_data(rules_id: str) -> None:
    rules = RULESETS[rules_id]
    assert rules.name and rules.description
    assert set(rules.deal_sizes) == set(range(rules.min_players, rules.max_players + 1))
    form = rules.round_form
    assert form.endings[-1].ending is Ending.VOID  # a round may always be voided
    assert len({choice.key for choice in form.endings}) == len(form.endings)
    for choice in form.endings:
        assert choice.label and (choice.who is None) == (choice.names is None)
    assert rules.target is None or rules.target in rules.target_choices
    for outcome in Outcome:
        assert rules.outcome_key(outcome, at_once=True) in OUTCOME_LABELS


@pytest.mark.parametrize("rules_id", SHIPPED)
def test_display_texts_are_registered_for_translation(rules_id: str) -> None:
    rules = RULESETS[rules_id]
    texts = set(CATALOGUE.values())
    assert rules.name in texts and rules.description in texts
    assert all(choice.label in texts for choice in rules.round_form.endings)
    assert set(OUTCOME_LABELS.values()) <= texts


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
    with pytest.raises(RuleError, match='one of low, high-low, not "high"'):
        find_ruleset("rummy", {"ace": "high"})
    with pytest.raises(RuleError, match="true or false"):
        find_ruleset("rummy", {"must_discard": "yes"})
    with pytest.raises(RuleError, match=r"\(hands\) goes from 1 to 100, not 0"):
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
    assert indo.runs.first and indo.discard.depth == 3 and not indo.layoffs
    assert indo.closing is not None and indo.closing.dealer_leads  # play starts with the dealer
    assert find_ruleset("remi").discard.not_left_last
    assert find_ruleset("remi").hand_size == HandSize(never_grows=True)
    assert find_ruleset("rummy").hand_size == HandSize(never_grows=True)
    assert find_ruleset("manipulation").hand_size is None


# -- what a front end asks the ruleset instead of its id ----------------------------------------


@pytest.mark.parametrize(
    ("rules_id", "targets"),
    [
        ("remi", (50, 100, 200)),
        ("rummy", (100, 150, 200)),
        ("remi-indonesia", (300, 500, 1000)),
        ("manipulation", (100, 150, 200)),
        ("gin", (50, 100)),  # RULES.md: 50 (quick) or 100 (standard)
    ],
)
def test_target_choices_hold_the_default(rules_id: str, targets: tuple[int, ...]) -> None:
    assert find_ruleset(rules_id).target_choices == targets


def test_bonus_numbers_are_ruleset_data() -> None:
    # RULES.md: remi/rummy x2 all at once; remi-indonesia closer 10 x the card;
    # manipulation undercut 10, empty hand 25, +100 at the target, +25 per round won;
    # gin and undercut 25; knock at 5 or less (manipulation), 10 or less (gin)
    assert find_ruleset("remi").at_once_factor == 2
    assert find_ruleset("rummy").at_once_factor == 2
    assert find_ruleset("remi-indonesia").bonuses.closing_card_factor == 10
    manipulation = find_ruleset("manipulation").bonuses
    assert (manipulation.undercut, manipulation.empty_hand) == (10, 25)
    assert (manipulation.reaching_target, manipulation.round_won) == (100, 25)
    gin = find_ruleset("gin").bonuses
    assert (gin.gin, gin.undercut) == (25, 25)
    assert find_ruleset("manipulation").knock == Knock(5) and find_ruleset("gin").knock == Knock(10)


def test_outcome_label_keys() -> None:
    assert find_ruleset("remi").outcome_key(Outcome.OUT, at_once=True) == "at_once"
    assert find_ruleset("remi").outcome_key(Outcome.OUT) == "out"
    assert find_ruleset("remi-indonesia").outcome_key(Outcome.OUT) == "closed"
    assert find_ruleset("manipulation").outcome_key(Outcome.UNDERCUT) == "undercut"
    assert OUTCOME_LABELS["stock"] == "stock ran out"


@pytest.mark.parametrize(
    ("rules_id", "endings"),
    [
        ("remi", ["out", "blocked", "void"]),
        ("rummy", ["out", "void"]),
        ("remi-indonesia", ["closed", "stock", "void"]),
        ("manipulation", ["knock", "out", "stock", "void"]),
        ("gin", ["knock", "draw", "void"]),
    ],
)
def test_round_form_endings(rules_id: str, endings: list[str]) -> None:
    form = find_ruleset(rules_id).round_form
    assert [choice.key for choice in form.endings] == endings
    assert [c.key for c in form.live_endings] == [e for e in endings if e not in ("out", "closed")]


HANDS = {"Budi": ["10H"], "Siti": ["2C", "3C"]}


@pytest.mark.parametrize(
    ("rules_id", "answers", "entry"),
    [
        # MATCH_FORMAT.md's final-table keys, per ruleset
        (
            "remi",
            FinalTable("out", "Siti", {"Budi": ["10H"], "Siti": []}, at_once=True),
            {"out": "Siti", "at_once": True, "hands": {"Budi": ["10H"]}},
        ),
        ("remi", FinalTable("blocked"), {"end": "blocked"}),
        ("rummy", FinalTable("void", "Siti", HANDS), {"end": "void"}),
        (
            "remi-indonesia",
            FinalTable(
                "closed",
                "Siti",
                {"Budi": ["10H"], "Siti": []},
                closing_card="AS",
                melds={"Siti": [["2H", "3H", "4H"]], "Budi": []},
            ),
            {
                "closer": "Siti",
                "closing_card": "AS",
                "melds": {"Siti": [["2H", "3H", "4H"]]},
                "hands": {"Budi": ["10H"]},
            },
        ),
        (
            "remi-indonesia",
            FinalTable("stock", None, HANDS, melds={"Siti": [["2H", "3H", "4H"]]}),
            {"end": "stock", "melds": {"Siti": [["2H", "3H", "4H"]]}, "hands": HANDS},
        ),
        (
            "manipulation",
            FinalTable("out", "Siti", {"Budi": ["10H"], "Siti": []}),
            {"out": "Siti", "hands": {"Budi": ["10H"]}},
        ),
        ("manipulation", FinalTable("knock", "Siti", HANDS), {"knock": "Siti", "hands": HANDS}),
        ("manipulation", FinalTable("stock", None, HANDS), {"end": "stock", "hands": HANDS}),
        (
            "gin",
            FinalTable("knock", "Budi", HANDS, knocker_melds=[["7C", "8C", "9C"]]),
            {"knock": "Budi", "melds": {"Budi": [["7C", "8C", "9C"]]}, "hands": HANDS},
        ),
        ("gin", FinalTable("knock", "Budi", HANDS), {"knock": "Budi", "hands": HANDS}),
        ("gin", FinalTable("draw"), {"end": "draw"}),
        # hands given as points (docs/points.md); the emptied hand's 0 is left out
        (
            "remi",
            FinalTable("out", "Siti", {"Budi": 24, "Siti": 0, "Andi": ["KH"]}),
            {"out": "Siti", "at_once": False, "hands": {"Budi": 24, "Andi": ["KH"]}},
        ),
        (
            "remi-indonesia",
            FinalTable("stock", None, {"Budi": 15, "Siti": ["2C"]}, melds={"Siti": []}),
            {"end": "stock", "melds": {}, "hands": {"Budi": 15, "Siti": ["2C"]}},
        ),
        (
            "manipulation",
            FinalTable("knock", "Siti", {"Budi": 30, "Siti": 4}),
            {"knock": "Siti", "hands": {"Budi": 30, "Siti": 4}},
        ),
        (
            "gin",
            FinalTable("knock", "Budi", {"Budi": 0, "Siti": 31}),
            {"knock": "Budi", "hands": {"Budi": 0, "Siti": 31}},
        ),
    ],
)
def test_round_form_builds_the_match_file_round(
    rules_id: str, answers: FinalTable, entry: dict[str, object]
) -> None:
    form = find_ruleset(rules_id).round_form
    assert form.entry(answers) == entry
    read_back = form.answers(entry)
    assert read_back is not None
    assert form.entry(read_back) == entry


def test_round_form_refuses_what_it_does_not_offer() -> None:
    form = find_ruleset("rummy").round_form
    with pytest.raises(KeyError):
        form.entry(FinalTable("blocked"))
    with pytest.raises(ValueError, match="names a player"):
        form.entry(FinalTable("out", None, HANDS))
    assert form.answers({"end": "blocked"}) is None
    assert form.answers({"turns": [], "end": "void"}) is None


def test_only_a_game_with_a_pool_puts_players_out_and_takes_them_back() -> None:
    remi = find_ruleset("remi")
    assert remi.pool is None and remi.elimination_limit is None
    assert remi.players_dealt({"Budi": 500, "Siti": 0}, ("Budi", "Siti")) == ("Budi", "Siti")
    with pytest.raises(RuleError, match="only in a pool"):
        remi.rejoin_totals(("Budi",), {"Budi": 500}, {"Budi": 0}, ("Budi",), frozenset())
    # RULES.md, Indian pool 101: a player at 101 or more is out and is not dealt in.
    pool = find_ruleset("indian", {"format": "pool101"})
    assert pool.elimination_limit == 101 and pool.pool is not None
    assert pool.players_dealt({"Budi": 101, "Siti": 100}, ("Budi", "Siti")) == ("Siti",)
    assert pool.pool.fixed_deals(pool) is None
    deals = find_ruleset("indian", {"format": "deals", "deals": 3})
    assert deals.elimination_limit is None and deals.pool is not None
    assert deals.players_dealt({"Budi": 300, "Siti": 0}, ("Budi", "Siti")) == ("Budi", "Siti")
    assert deals.pool.fixed_deals(deals) == 3


def test_parts_are_declared_by_the_games_that_have_them() -> None:
    assert find_ruleset("contract").buys_per_deal == 3 and find_ruleset("remi").buys_per_deal == 0
    gin = find_ruleset("gin")
    assert gin.deadwood is not None and gin.deadwood.big_gin
    assert gin.most_hand_points(2) == 98  # K K Q Q J J 10 10 9 9: no run, no set of three
    assert find_ruleset("remi").deadwood is None
    assert find_ruleset("manipulation").discard.depth == 0
    assert find_ruleset("contract").changes_by_deal and not find_ruleset("remi").changes_by_deal


def test_the_ruleset_says_how_its_match_length_and_fixed_goal_read() -> None:
    # RULES.md: contract is seven deals, the lowest total wins; rummy's hands option counts
    # rounds, the highest total wins.
    contract = find_ruleset("contract")
    assert contract.match_length(7).text == "7 deals"
    assert contract.fixed_goal() is not None
    assert contract.fixed_goal().text == "The match is 7 deals; the lowest total wins."
    rummy = find_ruleset("rummy", {"hands": 10})
    assert rummy.match_length(10).text == "10 rounds"
    assert rummy.fixed_goal() is not None and rummy.fixed_goal().text == "The match is 10 rounds."
    assert find_ruleset("remi").fixed_goal() is None  # played to a target


def test_canasta_partners_sit_opposite() -> None:
    # RULES.md (canasta): four players in two partnerships, partners sitting opposite.
    sides = find_ruleset("canasta").sides
    assert sides is not None
    assert sides.team_seats(4) == ((0, 2), (1, 3))
    assert sides.team_seats() == ((0, 2), (1, 3))
    assert sides.team_seats(3) == ()  # three play alone
    seated = ("Budi", "Siti", "Andi", "Rina")
    assert sides.teams(seated, ["Merah", "Biru"]) == {
        "Merah": ["Budi", "Andi"],
        "Biru": ["Siti", "Rina"],
    }


def test_a_stopped_match_is_only_one_with_no_fixed_end() -> None:
    # RULES.md: Indian rummy's format points and Rummikub without games or target are stopped
    # by their players; a pool and Rummikub to a target are not.
    assert find_ruleset("indian", {"format": "points"}).open_ended
    assert not find_ruleset("indian").open_ended
    assert find_ruleset("rummikub").open_ended
    assert not find_ruleset("rummikub", {"target": 200}).open_ended
