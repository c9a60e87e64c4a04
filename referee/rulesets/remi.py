"""``remi`` (seed 000): Indonesian house Remi.

Lay off onto anyone's melds; the winner takes the cards left in the other
hands, doubled for going out all at once (*habis sekaligus*); a round can be
blocked; the deal moves clockwise, blocked rounds too.
"""

from __future__ import annotations

from dataclasses import replace

from referee.messages import define_message, define_text
from referee.rulesets.base import (
    BLOCKED,
    FACE_VALUES,
    OUT,
    VOID,
    AtOnce,
    DiscardPile,
    HandSize,
    RoundForm,
    Ruleset,
    card_values,
)
from referee.rulesets.options import OptionType, option, preset, target_option
from referee.scoring import winner_takes_hands

NO_ENDING = define_message(
    "round.no_ending.remi",
    "the round does not say how it ended: mark the turn in which a hand became empty "
    '"out": true, or give "out" with the winner, or "end": "blocked" or "void"',
)

DEALT_BY_PLAYERS = {2: 10, 3: 7, 4: 7}
FIVE_TEN_FIFTEEN = card_values(15, 5, 5, 10)

OPTIONS = (
    target_option("remi", 100, 50, 10000),
    option(
        "remi",
        "at_once",
        OptionType.CHOICE,
        2,
        choices=(2, 1, 3),
        label=define_text("option.remi.at_once.label", "Going out all at once"),
        explanation=define_text(
            "option.remi.at_once.explanation",
            "The multiplier for going out all at once (1: no bonus).",
        ),
        summary=define_text("option.remi.at_once.summary", "Going out all at once counts ×{value}"),
        usual=True,
        apply=lambda rules, value: replace(rules, at_once=AtOnce(factor=value)),
    ),
    option(
        "remi",
        "lay_off",
        OptionType.CHOICE,
        "anyone",
        choices=("anyone", "none"),
        label=define_text("option.remi.lay_off.label", "Lay-offs"),
        explanation=define_text(
            "option.remi.lay_off.explanation",
            "Without lay-offs every card goes out in melds of one's own.",
        ),
        summary=define_text(
            "option.remi.lay_off.summary", "No lay-offs: every card goes out in melds of one's own"
        ),
        usual=True,
        apply=lambda rules, value: replace(rules, layoffs=value == "anyone"),
    ),
    option(
        "remi",
        "hand_size",
        OptionType.CHOICE,
        None,
        choices=(None, 7, 10),
        label=define_text("option.remi.hand_size.label", "Cards dealt"),
        explanation=define_text(
            "option.remi.hand_size.explanation",
            "Cards dealt to each player (as the rules say: 10 with 2 players, 7 with 3-4).",
        ),
        summary=define_text("option.remi.hand_size.summary", "{value} cards dealt to each player"),
        apply=lambda rules, value: replace(
            rules,
            deal_sizes=DEALT_BY_PLAYERS
            if value is None
            else dict.fromkeys(DEALT_BY_PLAYERS, value),
        ),
    ),
    option(
        "remi",
        "values",
        OptionType.CHOICE,
        "standard",
        choices=("standard", "5-10-15"),
        label=define_text("option.remi.values.label", "Card values"),
        explanation=define_text(
            "option.remi.values.explanation", "5-10-15: 2-10 = 5, J Q K = 10, A = 15."
        ),
        summary=define_text(
            "option.remi.values.summary", "Cards count 5-10-15: 2-10 = 5, J Q K = 10, A = 15"
        ),
        apply=lambda rules, value: replace(
            rules, values=FIVE_TEN_FIFTEEN if value == "5-10-15" else FACE_VALUES
        ),
    ),
)

PRESETS = (
    preset("remi", "standard", define_text("preset.remi.standard", "Standard rules"), {}),
    preset(
        "remi",
        "no_lay_offs",
        define_text("preset.remi.no_lay_offs", "No lay-offs"),
        {"lay_off": "none"},
    ),
    preset(
        "remi",
        "five_ten_fifteen",
        define_text("preset.remi.five_ten_fifteen", "5-10-15 values"),
        {"values": "5-10-15"},
    ),
)


RULESET = Ruleset(
    id="remi",
    name=define_text("ruleset.remi.name", "Remi"),
    description=define_text(
        "ruleset.remi.description",
        "Indonesian house Remi: lay off onto anyone's melds, the winner takes the "
        "losers' hands, x2 for going out all at once",
    ),
    min_players=2,
    max_players=4,
    deal_sizes=DEALT_BY_PLAYERS,
    target=100,
    option_table=OPTIONS,
    presets=PRESETS,
    target_presets=(50, 200),
    round_form=RoundForm((OUT, BLOCKED, VOID), at_once=True),
    hand_size=HandSize(never_grows=True),
    discard=DiscardPile(not_left_last=True),
    at_once=AtOnce(factor=2),
    score_round=winner_takes_hands,
    no_ending_message=NO_ENDING,
    menu_order=1,
)
