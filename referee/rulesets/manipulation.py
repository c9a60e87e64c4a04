"""``manipulation`` (seed 003): Manipulation (Carousel) Rummy.

Jokers, the whole table may be rearranged, knock at 5 or less; the lowest
hand wins the round; at the end of the match each player at the target adds
100 and every other player 25 per round won.
"""

from __future__ import annotations

from dataclasses import replace

from referee.messages import define_message, define_text
from referee.rulesets.base import (
    KNOCK,
    OUT,
    STOCK,
    VOID,
    AceOrder,
    Bonuses,
    DiscardPile,
    Knock,
    MatchEnd,
    MatchProgress,
    RoundForm,
    Ruleset,
    TurnStyle,
    best_players,
)
from referee.rulesets.options import OptionType, bonus_option, option, target_option
from referee.scoring import lowest_hand_wins

NO_ENDING = define_message(
    "round.no_ending.manipulation",
    'the round does not say how it ended: give "knock" or "out" with the player, mark'
    ' the turn in which a hand became empty "out": true, or "end": "stock" or "void"',
)


POINTS_UNCHECKED = define_message(
    "points.unchecked.manipulation",
    "{player}'s hand was given as {points} points, not as cards: the referee could not check "
    "which cards they are (no card more often than the deck holds it, jokers included) nor "
    "how many there are",
)


def target_with_bonuses(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """When one or more totals reach the target: each of them adds the target bonus (100),
    every other player the bonus per round won (25) for each round won; the highest total
    wins, a tie is shared."""
    assert rules.target is not None
    reached = [player for player in progress.players if progress.totals[player] >= rules.target]
    if not reached:
        return MatchEnd(False)
    per_round = rules.bonuses.round_won
    bonuses = {
        player: rules.bonuses.reaching_target
        if player in reached
        else per_round * progress.rounds_won[player]
        for player in progress.players
    }
    final = {player: progress.totals[player] + bonuses[player] for player in progress.players}
    return MatchEnd(True, best_players(final, progress.players), bonuses)


OPTIONS = (
    target_option("manipulation", 150, 50, 10000),
    option(
        "manipulation",
        "knock_limit",
        OptionType.NUMBER,
        5,
        minimum=0,
        maximum=10,
        label=define_text("option.manipulation.knock_limit.label", "Knock limit"),
        explanation=define_text(
            "option.manipulation.knock_limit.explanation",
            "A player whose hand is worth this much or less may knock.",
        ),
        summary=define_text("option.manipulation.knock_limit.summary", "Knock at {value} or less"),
        usual=True,
        apply=lambda rules, value: replace(rules, knock=Knock(value)),
    ),
    bonus_option(
        "manipulation",
        "undercut_bonus",
        "undercut",
        10,
        100,
        label=define_text("option.manipulation.undercut_bonus.label", "Undercut bonus"),
        explanation=define_text(
            "option.manipulation.undercut_bonus.explanation",
            "A round winner who did not knock adds this.",
        ),
        summary=define_text(
            "option.manipulation.undercut_bonus.summary", "The undercut bonus is {value}"
        ),
    ),
    bonus_option(
        "manipulation",
        "empty_hand_bonus",
        "empty_hand",
        25,
        100,
        label=define_text("option.manipulation.empty_hand_bonus.label", "Empty hand bonus"),
        explanation=define_text(
            "option.manipulation.empty_hand_bonus.explanation",
            "A round winner with an empty hand adds this.",
        ),
        summary=define_text(
            "option.manipulation.empty_hand_bonus.summary", "An empty hand adds {value}"
        ),
    ),
    bonus_option(
        "manipulation",
        "game_bonus",
        "reaching_target",
        100,
        500,
        label=define_text("option.manipulation.game_bonus.label", "Target bonus"),
        explanation=define_text(
            "option.manipulation.game_bonus.explanation",
            "At the end of the match, each player who reached the target adds this.",
        ),
        summary=define_text(
            "option.manipulation.game_bonus.summary", "Reaching the target adds {value}"
        ),
    ),
    bonus_option(
        "manipulation",
        "round_bonus",
        "round_won",
        25,
        100,
        label=define_text("option.manipulation.round_bonus.label", "Bonus per round won"),
        explanation=define_text(
            "option.manipulation.round_bonus.explanation",
            "At the end of the match, every other player adds this for each round they won.",
        ),
        summary=define_text(
            "option.manipulation.round_bonus.summary", "The others add {value} per round won"
        ),
    ),
)


RULESET = Ruleset(
    id="manipulation",
    name=define_text("ruleset.manipulation.name", "Manipulation Rummy"),
    description=define_text(
        "ruleset.manipulation.description",
        "Carousel: jokers, the whole table may be rearranged, knock at 5 or less",
    ),
    min_players=2,
    max_players=5,
    deal_sizes={2: 10, 3: 10, 4: 10, 5: 10},
    decks={2: 1, 3: 2, 4: 2, 5: 2},
    jokers_per_deck=1,
    joker_value=25,
    ace_order=AceOrder.LOW_OR_HIGH,
    target=150,
    option_table=OPTIONS,
    target_presets=(100, 200),
    turn_style=TurnStyle.TABLE,
    round_form=RoundForm((KNOCK, OUT, STOCK, VOID)),
    discard=DiscardPile(depth=0),
    knock=Knock(limit=5),
    bonuses=Bonuses(undercut=10, empty_hand=25, reaching_target=100, round_won=25),
    points_unchecked=POINTS_UNCHECKED,
    score_round=lowest_hand_wins,
    match_end=target_with_bonuses,
    no_ending_message=NO_ENDING,
    menu_order=4,
)
