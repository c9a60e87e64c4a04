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
        "scoring": (OptionType.CHOICE, "standard", ("standard", "hollywood")),
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


def test_hollywood_scoring_changes_the_bonus_defaults_not_the_target() -> None:
    # RULES.md: with hollywood, game_bonus, box_bonus and shutout default to 100, 20, true;
    # the column target stays target (100, 150 with oklahoma).
    gin = find_ruleset("gin")
    hollywood = gin.options_in_force({"scoring": "hollywood"})
    assert (hollywood["game_bonus"], hollywood["box_bonus"], hollywood["shutout"]) == (
        100,
        20,
        True,
    )
    assert hollywood["target"] == 100
    assert gin.options_in_force({"scoring": "hollywood", "oklahoma": True})["target"] == 150
    plain = gin.options_in_force({})
    assert (plain["game_bonus"], plain["box_bonus"], plain["shutout"]) == (0, 0, False)


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
        "hollywood": {"scoring": "hollywood"},
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


# -- remi ----------------------------------------------------------------------------------------

TWO = ["Budi", "Siti"]
THREE = ["Budi", "Siti", "Andi"]


@pytest.mark.parametrize(("factor", "points"), [(2, 52), (1, 26), (3, 78)])
def test_remi_at_once_multiplier(factor: int, points: int) -> None:
    # Siti holds KH 2C 9D 5H = 10 + 2 + 9 + 5 = 26; Budi out all at once: 26 x factor.
    round_ = {"out": "Budi", "at_once": True, "hands": {"Siti": ["KH", "2C", "9D", "5H"]}}
    state = match("remi", TWO, [round_], at_once=factor)
    assert state.rounds[0].scores == {"Budi": points, "Siti": 0}
    rules = state.rules
    assert rules.outcome_key(state.rounds[0].outcome, True) == ("out" if factor == 1 else "at_once")


def test_remi_values_5_10_15() -> None:
    # 5-10-15: KH 10 + 2C 5 + AD 15 + 9S 5 = 35 (standard: 10 + 2 + 1 + 9 = 22).
    round_ = {"out": "Budi", "hands": {"Siti": ["KH", "2C", "AD", "9S"]}}
    assert match("remi", TWO, [round_]).totals == {"Budi": 22, "Siti": 0}
    assert match("remi", TWO, [round_], values="5-10-15").totals == {"Budi": 35, "Siti": 0}


def test_remi_lay_off_none_refuses_every_lay_off() -> None:
    turns = [
        {"player": "Siti", "melds": [["7S", "8S", "9S"]], "discard": "2C"},
        {"player": "Budi", "layoffs": [{"cards": ["10S"], "onto": 1}], "discard": "3D"},
    ]
    from referee.match import live_round

    doc = {"rules": "remi", "players": TWO, "rounds": []}
    assert live_round(doc, turns).table[0].cards[-1].rank == 10  # standard: laid off
    doc["options"] = {"lay_off": "none"}
    with pytest.raises(RuleError) as refused:
        live_round(doc, turns)
    assert (refused.value.round, refused.value.turn) == (1, 2)
    assert "no lay-offs" in refused.value.message
    assert live_round(doc, turns[:1]).melds_accepting("10S") == []


def test_remi_hand_size() -> None:
    # 3 players are dealt 7 (a hand of 8 is refused); with hand_size 10, 8 cards are fine.
    eight = ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H"]  # 10+10+10+10+9+8+7+6 = 70
    round_ = {"out": "Budi", "hands": {"Siti": eight, "Andi": ["2C"]}}
    assert "never holds more than 7" in refusal("remi", THREE, [round_]).message
    assert match("remi", THREE, [round_], hand_size=10).totals["Budi"] == 72
    # 2 players are dealt 10; with hand_size 7, 8 cards are too many.
    two = {"out": "Budi", "hands": {"Siti": eight}}
    assert match("remi", TWO, [two]).totals["Budi"] == 70
    assert "never holds more than 7" in refusal("remi", TWO, [two], hand_size=7).message


def test_remi_target() -> None:
    # Siti's KH QH JH 10H 9H 2C = 10 + 10 + 10 + 10 + 9 + 2 = 51 for Budi: past 50.
    round_ = {"out": "Budi", "hands": {"Siti": ["KH", "QH", "JH", "10H", "9H", "2C"]}}
    assert not match("remi", TWO, [round_]).finished  # target 100
    state = match("remi", TWO, [round_], target=50)
    assert state.finished and state.winners == ("Budi",)


# -- rummy ---------------------------------------------------------------------------------------


def test_rummy_going_rummy_multiplier() -> None:
    # Siti holds KS = 10: going rummy doubles it (20); with going_rummy 1 it stays 10.
    round_ = {"out": "Budi", "at_once": True, "hands": {"Siti": ["KS"]}}
    assert match("rummy", TWO, [round_]).totals["Budi"] == 20
    assert match("rummy", TWO, [round_], going_rummy=1).totals["Budi"] == 10


def test_rummy_lay_off_only_after_an_own_meld_in_an_earlier_turn() -> None:
    from referee.match import live_round

    doc = {"rules": "rummy", "players": TWO, "rounds": [], "options": {"lay_off_after_meld": True}}
    siti_melds = {"player": "Siti", "melds": [["7S", "8S", "9S"]], "discard": "2C"}
    budi_lays_off = {"player": "Budi", "layoffs": [{"cards": ["10S"], "onto": 1}], "discard": "3D"}
    # Budi has laid no meld: refused (allowed by the standard rules).
    live_round({**doc, "options": {}}, [siti_melds, budi_lays_off])
    with pytest.raises(RuleError) as refused:
        live_round(doc, [siti_melds, budi_lays_off])
    assert (refused.value.round, refused.value.turn) == (1, 2)
    assert "Budi may not lay off yet" in refused.value.message
    # A meld in the same turn is not enough: it must be an earlier turn.
    same_turn = {**budi_lays_off, "melds": [["4H", "4D", "4C"]]}
    with pytest.raises(RuleError, match="Budi may not lay off yet"):
        live_round(doc, [siti_melds, same_turn])
    # Budi melds in turn 2 and lays off in turn 4: legal.
    budi_melds = {"player": "Budi", "melds": [["4H", "4D", "4C"]], "discard": "3D"}
    siti_passes = {"player": "Siti", "discard": "5C"}
    later = {"player": "Budi", "layoffs": [{"cards": ["10S"], "onto": 1}], "discard": "6D"}
    live = live_round(doc, [siti_melds, budi_melds, siti_passes, later])
    assert [card.rank for card in live.table[0].cards][-1] == 10


# -- manipulation --------------------------------------------------------------------------------


def test_manipulation_knock_limit() -> None:
    # Budi knocks holding 4C (4) against Siti's KS (10): 10 - 4 = 6 at the standard limit 5.
    round_ = {"knock": "Budi", "hands": {"Budi": ["4C"], "Siti": ["KS"]}}
    assert match("manipulation", TWO, [round_]).totals == {"Budi": 6, "Siti": 0}
    refused = refusal("manipulation", TWO, [round_], knock_limit=3)
    assert "a knock in Manipulation Rummy needs 3 or less" in refused.message
    # 7 is refused at 5 and accepted at 8: 10 - 7 = 3.
    seven = {"knock": "Budi", "hands": {"Budi": ["7C"], "Siti": ["KS"]}}
    assert "needs 5 or less" in refusal("manipulation", TWO, [seven]).message
    assert match("manipulation", TWO, [seven], knock_limit=8).totals["Budi"] == 3


def test_manipulation_round_bonuses() -> None:
    # Undercut: Budi knocks with 4, Siti holds 2: Siti scores 4 - 2 = 2 + the bonus.
    undercut = {"knock": "Budi", "hands": {"Budi": ["4C"], "Siti": ["2H"]}}
    assert match("manipulation", TWO, [undercut]).totals["Siti"] == 12  # + 10
    assert match("manipulation", TWO, [undercut], undercut_bonus=20).totals["Siti"] == 22
    # Siti plays out her hand, Budi holds KS: 10 - 0 = 10 + the empty-hand bonus.
    out = {"out": "Siti", "hands": {"Siti": [], "Budi": ["KS"]}}
    assert match("manipulation", TWO, [out]).totals["Siti"] == 35  # + 25
    assert match("manipulation", TWO, [out], empty_hand_bonus=50).totals["Siti"] == 60
    assert match("manipulation", TWO, [out], empty_hand_bonus=0).totals["Siti"] == 10


def test_manipulation_target_and_match_end_bonuses() -> None:
    rounds = [
        # Siti knocks with 3C against KS: 10 - 3 = 7.
        {"knock": "Siti", "hands": {"Siti": ["3C"], "Budi": ["KS"]}},
        # Budi knocks with 2C against K Q J 10 9 8 of spades = 57: 55, past the target 50.
        {"knock": "Budi", "hands": {"Budi": ["2C"], "Siti": ["KS", "QS", "JS", "10S", "9S", "8S"]}},
    ]
    state = match("manipulation", TWO, rounds, target=50, game_bonus=200, round_bonus=10)
    # Budi reached the target: 55 + 200 = 255; Siti won one round: 7 + 10 = 17.
    assert state.finished and state.winners == ("Budi",)
    assert state.totals == {"Budi": 255, "Siti": 17}
    # The standard bonuses (100, 25) at the same target: 155 and 32.
    assert match("manipulation", TWO, rounds, target=50).totals == {"Budi": 155, "Siti": 32}
    # The standard target 150 is not reached.
    assert not match("manipulation", TWO, rounds).finished


# -- remi-indonesia ------------------------------------------------------------------------------


def test_remi_indonesia_closing_multiplier() -> None:
    # Budi melded 5H 6H 7H (15) and closed with AS (15); Siti holds KD (10).
    round_ = {
        "melds": {"Budi": [["5H", "6H", "7H"]]},
        "closer": "Budi",
        "closing_card": "AS",
        "hands": {"Siti": ["KD"]},
    }
    # Standard: 15 + 10 x 15 = 165; closing_multiplier 5: 15 + 5 x 15 = 90.  Siti -10.
    assert match("remi-indonesia", TWO, [round_]).totals == {"Budi": 165, "Siti": -10}
    five = match("remi-indonesia", TWO, [round_], closing_multiplier=5)
    assert five.totals == {"Budi": 90, "Siti": -10}


def test_remi_indonesia_target() -> None:
    round_ = {
        "melds": {"Budi": [["5H", "6H", "7H"]]},
        "closer": "Budi",
        "closing_card": "AS",
        "hands": {"Siti": ["KD"]},
    }
    assert not match("remi-indonesia", TWO, [round_]).finished  # 165 < 500
    assert match("remi-indonesia", TWO, [round_], target=150).winners == ("Budi",)


# -- gin -----------------------------------------------------------------------------------------

# The knocker's melds 7C 8C 9C, 2S 2H 2D, 5H 6H 7H and one more card; the defender melds
# 10S JS QS KS and 9H 9D 9S, lays off 6C and 10C on the clubs and keeps 4D: deadwood 4.
MELDED = "7C 8C 9C 2S 2H 2D 5H 6H 7H"
DEFENDER = "6C 10C 4D 10S JS QS KS 9H 9D 9S"


def gin_round(extra: str, defender: str = DEFENDER, **more: Any) -> dict[str, Any]:
    return {"knock": "Budi", "hands": {"Budi": f"{MELDED} {extra}", "Siti": defender}, **more}


def test_gin_knock_limit() -> None:
    # Deadwood 8 (8S): knock at the standard 10; the defender's 4 is lower: undercut,
    # 8 - 4 + 25 = 29 for Siti.  With knock_limit 7 the knock is refused.
    assert match("gin", TWO, [gin_round("8S")]).totals == {"Budi": 0, "Siti": 29}
    refused = refusal("gin", TWO, [gin_round("8S")], knock_limit=7)
    assert "least deadwood of that hand is 8 (8S), and a knock needs 7 or less" in refused.message


def test_gin_gin_and_undercut_bonuses() -> None:
    # Gin (8H extends 5H 6H 7H): nothing laid off, Siti keeps 6C 10C 4D = 20: 20 + bonus.
    assert match("gin", TWO, [gin_round("8H")]).totals["Budi"] == 45
    assert match("gin", TWO, [gin_round("8H")], gin_bonus=20).totals["Budi"] == 40
    # The undercut above: 8 - 4 + bonus.
    assert match("gin", TWO, [gin_round("8S")], undercut_bonus=10).totals["Siti"] == 14


def test_gin_big_gin_bonus() -> None:
    # Budi knocks with 11 cards, all melded (5H-9H): big gin.  Siti melds 9S 10S JS QS KS and
    # keeps 6C 10C 4D 9D 3C = 6 + 10 + 4 + 9 + 3 = 32 (nothing is laid off on gin).
    siti = "6C 10C 4D 10S JS QS KS 9S 9D 3C"
    round_ = gin_round("8H 9H", siti)
    state = match("gin", TWO, [round_])
    assert state.rounds[0].outcome == "gin" and state.totals["Budi"] == 32 + 25
    assert state.rounds[0].adjudication is not None and state.rounds[0].adjudication.big_gin
    assert match("gin", TWO, [round_], big_gin_bonus=15).totals["Budi"] == 32 + 25 + 15
    # 11 cards with one unmelded are no knock.
    refused = refusal("gin", TWO, [gin_round("8H KD", siti)])
    assert "holds 11 cards, which is only a knock as big gin" in refused.message


GIN_45 = gin_round("8H")  # Budi's gin: 20 + 25 = 45
UNDERCUT_29 = gin_round("8S")  # Siti undercuts: 29


def test_gin_box_game_and_shutout_at_match_end() -> None:
    options = {"target": 50, "box_bonus": 25, "game_bonus": 100, "shutout": True}
    # Two gins: 45, 90 >= 50.  Budi won 2 rounds, Siti none: 90 + 2 x 25 + 100 = 240,
    # doubled by the shutout: 480.  The round scores stay 45 and 45.
    state = match("gin", TWO, [GIN_45, GIN_45], **options)
    assert state.finished and state.winners == ("Budi",)
    assert state.totals == {"Budi": 480, "Siti": 0}
    assert [r.scores["Budi"] for r in state.rounds] == [45, 45]
    # Siti undercuts first (29, one box): no shutout.  Budi 90 + 50 + 100 = 240; Siti 29 + 25.
    state = match("gin", TWO, [UNDERCUT_29, GIN_45, GIN_45], **options)
    assert state.totals == {"Budi": 240, "Siti": 54}
    # The standard rules add nothing.
    assert match("gin", TWO, [GIN_45, GIN_45], target=50).totals == {"Budi": 90, "Siti": 0}


# -- gin, Oklahoma -------------------------------------------------------------------------------


def test_oklahoma_upcard_sets_the_knock_limit() -> None:
    # Deadwood 1 (AS): the defender ends with 4 (4D): 4 - 1 = 3.  A 4H upcard allows it.
    state = match("gin", TWO, [gin_round("AS", upcard="4H")], oklahoma=True)
    assert state.totals == {"Budi": 3, "Siti": 0}
    # Deadwood 8 with a 4H upcard: refused (the standard limit would allow it).
    refused = refusal("gin", TWO, [gin_round("8S", upcard="4H")], oklahoma=True)
    assert (refused.round, refused.turn) == (1, None)
    assert "a knock needs 4 or less" in refused.message
    # A king upcard: limit 10; 8 is fine (undercut 29).
    state = match("gin", TWO, [gin_round("8S", upcard="KD")], oklahoma=True)
    assert state.totals == {"Budi": 0, "Siti": 29}


def test_oklahoma_ace_upcard_only_gin() -> None:
    refused = refusal("gin", TWO, [gin_round("AS", upcard="AH")], oklahoma=True)
    assert "with an ace upcard only gin ends the round" in refused.message
    assert match("gin", TWO, [gin_round("8H", upcard="AH")], oklahoma=True).totals["Budi"] == 45


def test_oklahoma_spade_upcard_doubles_the_round_bonuses_included() -> None:
    # Knock 3 doubled: 6; gin 20 + 25 = 45 doubled: 90; undercut 29 doubled: 58.
    assert match("gin", TWO, [gin_round("AS", upcard="4S")], oklahoma=True).totals["Budi"] == 6
    gin_spade = gin_round("8H", upcard="AS")
    state = match("gin", TWO, [gin_spade], oklahoma=True)
    assert state.rounds[0].scores == {"Budi": 90, "Siti": 0}
    assert "counts double, 90" in state.rounds[0].notes[-1].text
    assert match("gin", TWO, [gin_round("8S", upcard="10S")], oklahoma=True).totals["Siti"] == 58
    # spades_double off: no doubling.
    off = match("gin", TWO, [gin_spade], oklahoma=True, spades_double=False)
    assert off.totals["Budi"] == 45


def test_oklahoma_target_150_and_match_end_bonuses_not_doubled() -> None:
    # A spade gin (90) and a heart gin (45): 135, short of Oklahoma's 150 (past 100).
    rounds = [gin_round("8H", upcard="AS"), gin_round("8H", upcard="5H")]
    assert not match("gin", TWO, rounds, oklahoma=True).finished
    assert match("gin", TWO, rounds, oklahoma=True, target=100).finished
    # Target 50, game bonus 100: the spade gin's 90 ends it; the bonus stays 100, one box 25.
    state = match("gin", TWO, rounds[:1], oklahoma=True, target=50, game_bonus=100, box_bonus=25)
    assert state.totals == {"Budi": 90 + 100 + 25, "Siti": 0}


def test_oklahoma_upcard_is_required_except_for_draws_and_voids() -> None:
    refused = refusal("gin", TWO, [gin_round("AS")], oklahoma=True)
    assert refused.round == 1 and 'give "upcard" for this round' in refused.message
    draws = [{"end": "draw"}, {"end": "void"}, gin_round("AS", upcard="4H")]
    assert match("gin", TWO, draws, oklahoma=True).totals["Budi"] == 3
    # An upcard in a match without Oklahoma is refused, not ignored.
    refused = refusal("gin", TWO, [gin_round("AS", upcard="4H")])
    assert '"upcard" is not recorded in this match' in refused.message
    assert "JK" in refusal("gin", TWO, [gin_round("AS", upcard="JK")], oklahoma=True).message


def test_oklahoma_points_rounds_take_the_upcard_limit() -> None:
    counted = {"knock": "Budi", "hands": {"Budi": 5, "Siti": 20}, "upcard": "3H"}
    assert "needs 3 or less" in refusal("gin", TWO, [counted], oklahoma=True).message
    counted["upcard"] = "6S"  # limit 6, spade: (20 - 5) x 2 = 30
    assert match("gin", TWO, [counted], oklahoma=True).totals["Budi"] == 30


def test_oklahoma_upcard_round_trips_through_the_match_file() -> None:
    from referee.matchfile import dump_match, read_match

    doc = {
        "rules": "gin",
        "options": {"oklahoma": True},
        "players": TWO,
        "rounds": [gin_round("AS", upcard="4h"), {"end": "draw"}],
    }
    match_ = read_match(doc)
    assert str(match_.rounds[0].inputs["upcard"]) == "4H"
    dumped = dump_match(match_)
    assert dumped["rounds"][0]["upcard"] == "4H" and "upcard" not in dumped["rounds"][1]
    assert read_match(dumped) == match_


def test_oklahoma_round_form_entry_carries_the_upcard() -> None:
    from referee.rulesets import FinalTable

    form = find_ruleset("gin").round_form
    answers = FinalTable(
        "knock",
        "Budi",
        {"Budi": MELDED.split() + ["AS"], "Siti": DEFENDER.split()},
        inputs={"upcard": "4H"},
    )
    entry = form.entry(answers)
    assert entry["upcard"] == "4H"
    assert form.answers(entry, ["upcard"]) == answers
    assert match("gin", TWO, [entry], oklahoma=True).totals["Budi"] == 3


def test_gin_analyser_takes_the_knock_limit() -> None:
    from referee import gin

    hand = f"{MELDED} 8S"  # deadwood 8
    assert gin.best_arrangement(hand).can_knock
    assert not gin.best_arrangement(hand, knock_limit=7).can_knock
    oklahoma = find_ruleset("gin", {"oklahoma": True})
    from referee.cards import Card

    assert not gin.best_arrangement(
        hand, oklahoma.for_round({"upcard": Card.parse("4H")})
    ).can_knock
    assert gin.best_arrangement(hand, oklahoma.for_round({"upcard": Card.parse("9H")})).can_knock
    with pytest.raises(RuleError, match="a knock needs 7 or less"):
        gin.adjudicate_knock(hand, DEFENDER, knock_limit=7)
    with pytest.raises(RuleError, match="only gin ends the round"):
        gin.adjudicate_knock(f"{MELDED} AS", DEFENDER, knock_limit=0)


# -- the docs' table (docs/house-rules.md) ------------------------------------------------------


def test_docs_house_rules_table_is_the_generated_one() -> None:
    from pathlib import Path

    from referee.rulesets.options import markdown_table

    page = Path(__file__).resolve().parents[1] / "docs" / "house-rules.md"
    text = page.read_text(encoding="utf-8")
    begin, end = "<!-- house-rules:begin -->\n", "<!-- house-rules:end -->"
    assert begin in text and end in text
    shown = text.split(begin, 1)[1].split(end, 1)[0]
    assert shown == markdown_table(list(RULESETS.values()))
    # every declared option of every ruleset is in it
    for rules in RULESETS.values():
        for name in rules.options:
            assert f"| `{rules.id}` | `{name}` |" in shown


def test_markdown_table_command(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.rulesets.__main__ import main
    from referee.rulesets.options import markdown_table

    assert main(["markdown"]) == 0
    assert capsys.readouterr().out == markdown_table(list(RULESETS.values()))
    assert main([]) == 2
