"""``remi-indonesia`` (seed 001): everyone scores their own melds minus their hand.

Runs first, closed melds, up to three discards taken at once, the
closing-card bonus (10 x its value), negative totals; the lowest total deals
next, and a tie at the top after the target plays on.
"""

from __future__ import annotations

from dataclasses import replace

from referee.messages import define_message, define_text
from referee.rulesets.base import (
    CLOSED,
    STOCK,
    VOID,
    AceOrder,
    Bonuses,
    Closing,
    DiscardPile,
    MatchEnd,
    MatchProgress,
    RoundForm,
    Ruleset,
    Runs,
    best_players,
    card_values,
)
from referee.rulesets.options import OptionType, option, target_option
from referee.scoring import own_melds_minus_hand

NO_ENDING = define_message(
    "round.no_ending.remi_indonesia",
    'the round does not say how it ended: mark the turn with the closing card "out": '
    'true, or give "closer" and "closing_card", or "end": "stock" or "void"',
)


POINTS_UNCHECKED = define_message(
    "points.unchecked.remi_indonesia",
    "{player}'s hand was given as {points} points, not as cards: the referee could not check "
    "which cards they are (a card also in a meld, in another hand or the closing card) nor "
    "that the hand holds no more than {cards} cards",
)


def lowest_total_deals(rules: Ruleset, progress: MatchProgress) -> str:
    """The lowest total deals; among ties, the first clockwise after the previous dealer."""
    players = progress.players
    lowest = min(progress.totals[player] for player in players)
    start = players.index(progress.dealer)
    for step in range(1, len(players) + 1):
        player = players[(start + step) % len(players)]
        if progress.totals[player] == lowest:
            return player
    raise AssertionError("some player has the lowest total")


def highest_total_once_target_reached(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """Over as soon as any total reaches the target; a tie at the top plays on.

    Once the target has been reached, the match ends as soon as one total is highest
    alone, even if the rounds played to break a tie took it back below the target.
    """
    assert rules.target is not None
    if not progress.target_reached(rules.target):
        return MatchEnd(False)
    best = best_players(progress.totals, progress.players)
    return MatchEnd(True, best) if len(best) == 1 else MatchEnd(False)


OPTIONS = (
    target_option("remi-indonesia", 500, 100, 10000),
    option(
        "remi-indonesia",
        "closing_multiplier",
        OptionType.NUMBER,
        10,
        minimum=1,
        maximum=20,
        label=define_text("option.remi-indonesia.closing_multiplier.label", "Closing-card bonus"),
        explanation=define_text(
            "option.remi-indonesia.closing_multiplier.explanation",
            "The closer adds this many times the value of the closing card.",
        ),
        summary=define_text(
            "option.remi-indonesia.closing_multiplier.summary", "The closing card counts ×{value}"
        ),
        usual=True,
        apply=lambda rules, value: replace(
            rules, bonuses=replace(rules.bonuses, closing_card_factor=value)
        ),
    ),
)


RULESET = Ruleset(
    id="remi-indonesia",
    name=define_text("ruleset.remi_indonesia.name", "Remi Indonesia"),
    description=define_text(
        "ruleset.remi_indonesia.description",
        "Everyone scores their own melds minus their hand; closing-card bonus x10",
    ),
    min_players=2,
    max_players=4,
    deal_sizes={2: 7, 3: 7, 4: 7},
    values=card_values(15, 5, 5, 10),
    ace_order=AceOrder.NONE,
    layoffs=False,
    target=500,
    option_table=OPTIONS,
    target_presets=(300, 1000),
    must_discard=True,
    round_form=RoundForm((CLOSED, STOCK, VOID), closing_card=True, player_melds=True),
    runs=Runs(first=True, mix_number_and_picture=False),
    discard=DiscardPile(depth=3, melded_at_once=True),
    closing=Closing(most_cards=7),
    bonuses=Bonuses(closing_card_factor=10),
    # A turn ends with at most the 7 cards dealt: taken discards are melded (3 or more
    # cards with the deepest one) before the discard.
    points_unchecked=POINTS_UNCHECKED,
    score_round=own_melds_minus_hand,
    next_dealer=lowest_total_deals,
    match_end=highest_total_once_target_reached,
    no_ending_message=NO_ENDING,
    menu_order=3,
)
