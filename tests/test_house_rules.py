"""House rules (RULES.md, "House rules"): every option declared as data, validated against
its declaration, and changing verdicts and scores exactly as the table states.

Expectations are worked out by hand from RULES.md; the arithmetic is in the comments.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import RefereeError, RuleError
from referee.match import replay
from referee.rulesets import RULESETS, Ruleset, find_ruleset, registered_ruleset
from referee.rulesets.options import Option, OptionType, Preset, RoundInput

# -- the declaration ---------------------------------------------------------------------------

# RULES.md's House rules table (and the options named in the ruleset sections): per ruleset,
# option -> (type, default, range or choices).
DECLARED: dict[str, dict[str, tuple[OptionType, Any, Any]]] = {
    "remi": {
        "target": (OptionType.NUMBER, 100, (50, 10000)),
        "at_once": (OptionType.CHOICE, 2, (2, 1, 3)),
        "lay_off": (OptionType.CHOICE, "anyone", ("anyone", "none")),
        "hand_size": (OptionType.CHOICE, None, (None, 7, 10)),
        "values": (OptionType.CHOICE, "standard", ("standard", "5-10-15")),
    },
    "rummy": {
        "target": (OptionType.NUMBER, 150, (50, 10000)),
        "hands": (OptionType.NUMBER, None, (1, 100)),
        "ace": (OptionType.CHOICE, "low", ("low", "high-low")),
        "must_discard": (OptionType.SWITCH, False, None),
        "going_rummy": (OptionType.CHOICE, 2, (2, 1)),
        "lay_off_after_meld": (OptionType.SWITCH, False, None),
    },
    "remi-indonesia": {
        "target": (OptionType.NUMBER, 500, (100, 10000)),
        "closing_multiplier": (OptionType.NUMBER, 10, (1, 20)),
    },
    "manipulation": {
        "target": (OptionType.NUMBER, 150, (50, 10000)),
        "knock_limit": (OptionType.NUMBER, 5, (0, 10)),
        "undercut_bonus": (OptionType.NUMBER, 10, (0, 100)),
        "empty_hand_bonus": (OptionType.NUMBER, 25, (0, 100)),
        "game_bonus": (OptionType.NUMBER, 100, (0, 500)),
        "round_bonus": (OptionType.NUMBER, 25, (0, 100)),
    },
    "gin": {
        "target": (OptionType.NUMBER, 100, (50, 1000)),
        "oklahoma": (OptionType.SWITCH, False, None),
        "spades_double": (OptionType.SWITCH, True, None),
        "knock_limit": (OptionType.NUMBER, 10, (1, 10)),
        "gin_bonus": (OptionType.NUMBER, 25, (0, 100)),
        "undercut_bonus": (OptionType.NUMBER, 25, (0, 100)),
        "big_gin_bonus": (OptionType.NUMBER, 0, (0, 100)),
        "box_bonus": (OptionType.NUMBER, 0, (0, 100)),
        "game_bonus": (OptionType.NUMBER, 0, (0, 500)),
        "shutout": (OptionType.SWITCH, False, None),
    },
}


@pytest.mark.parametrize("rules_id", list(DECLARED))
def test_every_option_of_rules_md_is_declared_with_its_type_default_and_range(
    rules_id: str,
) -> None:
    rules = find_ruleset(rules_id)
    assert set(rules.options) == set(DECLARED[rules_id])
    for name, (kind, default, bounds) in DECLARED[rules_id].items():
        declared = rules.declared(name)
        assert isinstance(declared, Option)
        assert (declared.type, declared.default) == (kind, default), name
        if kind is OptionType.NUMBER:
            assert (declared.minimum, declared.maximum) == bounds, name
        if kind is OptionType.CHOICE:
            assert declared.choices == bounds, name  # the default first
        assert declared.label and declared.explanation, name


def test_options_property_keeps_the_names_in_declaration_order() -> None:
    assert find_ruleset("rummy").options[:4] == ("target", "hands", "ace", "must_discard")


def test_dependent_default_gin_target_is_150_with_oklahoma() -> None:
    target = find_ruleset("gin").declared("target")
    assert target.default_for({}) == 100
    assert target.default_for({"oklahoma": True}) == 150
    assert find_ruleset("gin", {"oklahoma": True}).target == 150
    assert find_ruleset("gin", {"oklahoma": True, "target": 200}).target == 200


def test_options_in_force_fill_defaults_and_leave_out_what_does_not_apply() -> None:
    gin = find_ruleset("gin")
    plain = gin.options_in_force({})
    assert plain["target"] == 100 and plain["knock_limit"] == 10
    assert "spades_double" not in plain  # only with oklahoma
    oklahoma = gin.options_in_force({"oklahoma": True})
    assert oklahoma["target"] == 150 and oklahoma["spades_double"] is True
    assert "knock_limit" not in oklahoma  # the upcard sets it
    # what is in force is itself a valid set of options
    assert gin.check_options(oklahoma) == oklahoma


def test_house_rules_list_only_what_differs_from_the_standard_rules() -> None:
    gin = find_ruleset("gin")
    assert gin.house_rules({}) == ()
    assert gin.house_rules({"target": 100, "gin_bonus": 25}) == ()  # the defaults, given
    differing = gin.house_rules({"undercut_bonus": 10, "gin_bonus": 20})
    # in declaration order: gin_bonus before undercut_bonus
    assert [(option.name, value) for option, value in differing] == [
        ("gin_bonus", 20),
        ("undercut_bonus", 10),
    ]
    assert differing[0][0].describe(20) == "Gin pays 20"
    # Oklahoma's own default target (150) is no further difference; 200 is.
    assert [o.name for o, _ in gin.house_rules({"oklahoma": True})] == ["oklahoma"]
    assert [o.name for o, _ in gin.house_rules({"oklahoma": True, "target": 200})] == [
        "target",
        "oklahoma",
    ]


def test_presets_start_with_the_standard_rules_and_are_valid() -> None:
    for rules in RULESETS.values():
        assert rules.presets[0].key == "standard" and dict(rules.presets[0].options) == {}
        for preset in rules.presets:
            assert isinstance(preset, Preset) and preset.label
            rules.check_options(preset.options)
    gin = {p.key: dict(p.options) for p in find_ruleset("gin").presets}
    assert gin == {
        "standard": {},
        "oklahoma": {"oklahoma": True},
        "box_and_game": {"box_bonus": 25, "game_bonus": 100, "shutout": True},
    }
    remi = {p.key: dict(p.options) for p in find_ruleset("remi").presets}
    assert remi == {
        "standard": {},
        "no_lay_offs": {"lay_off": "none"},
        "five_ten_fifteen": {"values": "5-10-15"},
    }


def test_round_inputs_are_asked_when_their_options_hold() -> None:
    gin = find_ruleset("gin")
    (upcard,) = gin.round_inputs
    assert isinstance(upcard, RoundInput)
    assert (upcard.name, upcard.type) == ("upcard", "card")
    assert gin.round_inputs_for({}) == ()
    assert gin.round_inputs_for({"oklahoma": True}) == (upcard,)
    assert find_ruleset("remi").round_inputs_for({}) == ()


# -- refusals: each names the option and what it takes, in a player's words --------------------


@pytest.mark.parametrize(
    ("rules_id", "options", "key", "words"),
    [
        ("remi", {"hands": 3}, "rules.unknown_option", 'remi has no option "hands"'),
        (
            "remi",
            {"target": "lots"},
            "rules.option_not_number",
            'Target (target) is a whole number from 50 to 10000, not "lots"',
        ),
        (
            "gin",
            {"gin_bonus": True},  # true is not a number
            "rules.option_not_number",
            "Gin bonus (gin_bonus) is a whole number from 0 to 100",
        ),
        (
            "gin",
            {"gin_bonus": 20.5},
            "rules.option_not_number",
            "Gin bonus (gin_bonus) is a whole number from 0 to 100",
        ),
        (
            "remi",
            {"target": 49},
            "rules.option_out_of_range",
            "Target (target) goes from 50 to 10000, not 49",
        ),
        (
            "gin",
            {"target": 1001},
            "rules.option_out_of_range",
            "Target (target) goes from 50 to 1000, not 1001",
        ),
        (
            "manipulation",
            {"knock_limit": 11},
            "rules.option_out_of_range",
            "Knock limit (knock_limit) goes from 0 to 10, not 11",
        ),
        (
            "remi-indonesia",
            {"closing_multiplier": 0},
            "rules.option_out_of_range",
            "(closing_multiplier) goes from 1 to 20, not 0",
        ),
        (
            "gin",
            {"shutout": "yes"},
            "rules.option_not_switch",
            'Shutout (shutout) is true or false, not "yes"',
        ),
        (
            "remi",
            {"at_once": 4},
            "rules.option_not_a_choice",
            'at_once) is one of 2, 1, 3, not "4"',
        ),
        (
            "remi",
            {"at_once": True},  # True == 1 in Python, but it is no multiplier
            "rules.option_not_a_choice",
            'at_once) is one of 2, 1, 3, not "true"',
        ),
        (
            "remi",
            {"values": "5-10-20"},
            "rules.option_not_a_choice",
            'Card values (values) is one of standard, 5-10-15, not "5-10-20"',
        ),
        (
            "gin",
            {"spades_double": False},
            "rules.option_not_applicable",
            "Spades double (spades_double) only applies with Oklahoma (oklahoma: true)",
        ),
        (
            "gin",
            {"oklahoma": True, "knock_limit": 7},
            "rules.option_excluded",
            "Knock limit (knock_limit) cannot be used with Oklahoma (oklahoma: true)",
        ),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(
    rules_id: str, options: dict[str, Any], key: str, words: str
) -> None:
    with pytest.raises(RuleError) as refused:
        find_ruleset(rules_id).check_options(options)
    assert refused.value.reason.key == key
    assert words in refused.value.message
    with pytest.raises(RuleError):  # the same through with_options / find_ruleset
        find_ruleset(rules_id, options)


def test_null_is_accepted_only_where_the_default_is_absent() -> None:
    assert find_ruleset("remi").check_options({"hand_size": None}) == {"hand_size": None}
    assert find_ruleset("rummy", {"hands": None}).hands is None
    with pytest.raises(RuleError, match="whole number"):
        find_ruleset("remi", {"target": None})


def test_a_ruleset_without_a_declaration_takes_its_target_only() -> None:
    toy = Ruleset(id="toy-options", name="Toy", min_players=2, max_players=2, deal_sizes={2: 5})
    assert toy.options == ("target",) and toy.declared("target").default == 100
    assert toy.presets[0].key == "standard"
    with registered_ruleset(toy):
        assert find_ruleset("toy-options", {"target": 30}).target == 30
        with pytest.raises(RefereeError, match='toy-options has no option "ace"'):
            find_ruleset("toy-options", {"ace": "low"})


def test_the_ruleset_list_is_read_when_needed() -> None:
    toy = Ruleset(id="toy-late", name="Late", min_players=2, max_players=2, deal_sizes={2: 5})
    with registered_ruleset(toy):
        assert find_ruleset("toy-late").id == "toy-late"
        assert "toy-late" in RULESETS


# -- helpers for the replays below -------------------------------------------------------------


def match(rules: str, players: list[str], rounds: list[dict[str, Any]], **options: Any) -> Any:
    return replay({"rules": rules, "options": options, "players": players, "rounds": rounds})


def refusal(rules: str, players: list[str], rounds: list[dict[str, Any]], **options: Any) -> Any:
    with pytest.raises(RefereeError) as refused:
        match(rules, players, rounds, **options)
    return refused.value
