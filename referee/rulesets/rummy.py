"""``rummy`` (seed 002): Basic Rummy for 2-6 players.

Options: ``target`` (default 150) or ``hands`` = N rounds; ``ace`` = ``low``
or ``high-low`` (every ace then worth 15); ``must_discard``.  The winner takes
the other hands, doubled for going rummy; no blocked rounds.
"""

from __future__ import annotations

from dataclasses import replace

from referee.messages import define_message, define_text
from referee.rulesets.base import (
    OUT,
    RUMMY_ASKED,
    VOID,
    WENT_RUMMY_FIGURE,
    AceOrder,
    AtOnce,
    HandSize,
    RoundForm,
    Ruleset,
)
from referee.rulesets.options import OptionType, option, target_option
from referee.scoring import winner_takes_hands

NO_ENDING = define_message(
    "round.no_ending.rummy",
    "the round does not say how it ended: mark the turn in which a hand became empty "
    '"out": true, or give "out" with the winner, or "end": "void"',
)

HIGH_ACE = 15  # what every ace is worth once it may also be high


def _hands(rules: Ruleset, value: int | None) -> Ruleset:
    """With ``hands`` the match ends after that many rounds, whatever ``target`` says."""
    return replace(rules, hands=value, target=None if value is not None else rules.target)


GOING_RUMMY = AtOnce(factor=2, outcome="rummy", asked=RUMMY_ASKED, figure=WENT_RUMMY_FIGURE)

OPTIONS = (
    target_option("rummy", 150, 50, 10000),
    option(
        "rummy",
        "hands",
        OptionType.NUMBER,
        None,
        minimum=1,
        maximum=100,
        label=define_text("option.rummy.hands.label", "Number of rounds"),
        explanation=define_text(
            "option.rummy.hands.explanation",
            "The most points after this many rounds wins; the target is then ignored.",
        ),
        summary=define_text(
            "option.rummy.hands.summary", "The match is {value} rounds, the most points wins"
        ),
        usual=True,
        apply=_hands,
    ),
    option(
        "rummy",
        "ace",
        OptionType.CHOICE,
        "low",
        choices=("low", "high-low"),
        label=define_text("option.rummy.ace.label", "Aces"),
        explanation=define_text(
            "option.rummy.ace.explanation",
            "high-low: A-2-3 and Q-K-A are both runs (never K-A-2); every ace is then worth 15.",
        ),
        summary=define_text(
            "option.rummy.ace.summary", "Aces are high or low (Q-K-A is a run) and worth 15"
        ),
        usual=True,
        apply=lambda rules, value: replace(
            rules,
            ace_order=AceOrder(value),
            values=(HIGH_ACE if value == "high-low" else 1, *rules.values[1:]),
        ),
    ),
    option(
        "rummy",
        "must_discard",
        OptionType.SWITCH,
        False,
        label=define_text("option.rummy.must_discard.label", "Must discard to go out"),
        explanation=define_text(
            "option.rummy.must_discard.explanation",
            "true: the last card must be discarded, so a turn that melds or lays "
            "off the whole hand is illegal.",
        ),
        summary=define_text(
            "option.rummy.must_discard.summary", "The last card must be discarded to go out"
        ),
        apply=lambda rules, value: replace(rules, must_discard=value),
    ),
    option(
        "rummy",
        "going_rummy",
        OptionType.CHOICE,
        2,
        choices=(2, 1),
        label=define_text("option.rummy.going_rummy.label", "Going rummy"),
        explanation=define_text(
            "option.rummy.going_rummy.explanation", "The multiplier for going rummy (1: no bonus)."
        ),
        summary=define_text("option.rummy.going_rummy.summary", "Going rummy counts ×{value}"),
        apply=lambda rules, value: replace(rules, at_once=replace(GOING_RUMMY, factor=value)),
    ),
    option(
        "rummy",
        "lay_off_after_meld",
        OptionType.SWITCH,
        False,
        label=define_text("option.rummy.lay_off_after_meld.label", "Lay off after an own meld"),
        explanation=define_text(
            "option.rummy.lay_off_after_meld.explanation",
            "true: a player may lay off only after having laid a meld of their own "
            "in an earlier turn of the round.",
        ),
        summary=define_text(
            "option.rummy.lay_off_after_meld.summary",
            "A player lays off only after an own meld laid in an earlier turn",
        ),
        apply=lambda rules, value: replace(
            rules, melding=replace(rules.melding, layoff_after_own_meld=value)
        ),
    ),
)


RULESET = Ruleset(
    id="rummy",
    name=define_text("ruleset.rummy.name", "Rummy"),
    description=define_text(
        "ruleset.rummy.description",
        "Basic Rummy for 2-6 players, with the ace-high and must-discard variants",
    ),
    min_players=2,
    max_players=6,
    deal_sizes={2: 10, 3: 7, 4: 7, 5: 6, 6: 6},
    target=150,
    target_presets=(100, 200),
    option_table=OPTIONS,
    round_form=RoundForm((OUT, VOID), at_once=True),
    hand_size=HandSize(never_grows=True),
    at_once=GOING_RUMMY,
    score_round=winner_takes_hands,
    no_ending_message=NO_ENDING,
    menu_order=2,
)
