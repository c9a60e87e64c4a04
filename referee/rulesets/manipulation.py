"""``manipulation`` (seed 003): Manipulation (Carousel) Rummy.

Jokers, the whole table may be rearranged, knock at 5 or less; the lowest
hand wins the round; at the end of the match each player at the target adds
100 and every other player 25 per round won.
"""

from __future__ import annotations

from referee.messages import define_message
from referee.rulesets.base import (
    AceOrder,
    MatchEnd,
    MatchProgress,
    Ruleset,
    TurnStyle,
    best_players,
)
from referee.scoring import Ending, lowest_hand_wins

NO_ENDING = define_message(
    "round.no_ending.manipulation",
    'the round does not say how it ended: give "knock" or "out" with the player, mark'
    ' the turn in which a hand became empty "out": true, or "end": "stock" or "void"',
)


TARGET_BONUS = 100
ROUND_WON_BONUS = 25


def target_with_bonuses(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """When one or more totals reach the target: each of them adds 100, every other
    player 25 per round won; the highest total wins, a tie is shared."""
    assert rules.target is not None
    reached = [player for player in progress.players if progress.totals[player] >= rules.target]
    if not reached:
        return MatchEnd(False)
    bonuses = {
        player: TARGET_BONUS if player in reached else ROUND_WON_BONUS * progress.rounds_won[player]
        for player in progress.players
    }
    final = {player: progress.totals[player] + bonuses[player] for player in progress.players}
    return MatchEnd(True, best_players(final, progress.players), bonuses)


RULESET = Ruleset(
    id="manipulation",
    name="Manipulation Rummy",
    min_players=2,
    max_players=5,
    deal_sizes={2: 10, 3: 10, 4: 10, 5: 10},
    joker_value=25,
    ace_order=AceOrder.LOW_OR_HIGH,
    jokers=True,
    target=150,
    description="Carousel: jokers, the whole table may be rearranged, knock at 5 or less",
    turn_style=TurnStyle.TABLE,
    endings=frozenset({Ending.OUT, Ending.KNOCK, Ending.STOCK, Ending.VOID}),
    discard_depth=0,
    knock_limit=5,
    score_round=lowest_hand_wins,
    match_end=target_with_bonuses,
    no_ending_message=NO_ENDING,
    menu_order=4,
)
