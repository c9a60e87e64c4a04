"""``gin`` (seed 004): Gin Rummy for two.

A round is entered as its final hands (no turns): the knocker and both
10-card hands, optionally the knocker's own spread.  The deadwood optimiser
and the knock adjudication are in :mod:`referee.gin`; the loser of a round
deals the next, a draw keeps the dealer.
"""

from __future__ import annotations

from referee.messages import define_message, define_text
from referee.rulesets.base import (
    DRAW,
    KNOCK,
    VOID,
    Bonuses,
    MatchProgress,
    RoundForm,
    Ruleset,
    TurnStyle,
    card_values,
)
from referee.scoring import Ending, Outcome, RoundEnding, RoundScore, nobody_scores

POINTS_UNCHECKED = define_message(
    "points.unchecked.gin",
    "the deadwoods were given as points ({counted}), as the players counted them after the "
    "lay-offs: without the cards the referee could not check the melds, the lay-offs or "
    "the count, and scored the knock from these two numbers",
)
NO_ENDING = define_message(
    "round.no_ending.gin",
    'the round does not say how it ended: give "knock" with the player, or "end": "draw" or "void"',
)


def score_gin_round(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """A knock adjudicated by :func:`referee.gin.adjudicate_round`; a draw scores 0.

    The adjudication (arrangements, lay-offs, why) comes with the score.
    """
    if ending.ending is Ending.DRAW:
        return nobody_scores(ending, Outcome.DRAW)
    from referee.gin import adjudicate_round

    assert ending.ending is Ending.KNOCK and ending.player is not None
    if ending.points:
        return score_counted_knock(rules, ending)
    result = adjudicate_round(ending.player, ending.hands, ending.knocker_melds, rules=rules)
    knocker, defender = result.names
    scores = {knocker: result.knocker_points, defender: result.defender_points}
    winner = result.winner_name
    assert isinstance(winner, str)
    return RoundScore(
        result.outcome,
        (winner,),
        {player: scores.get(player, 0) for player in ending.players},
        undercut=result.outcome is Outcome.UNDERCUT,
        adjudication=result,
    )


def score_counted_knock(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """A knock scored from the deadwoods the players counted (both hands given as points):
    the knocker's 0 is gin, a defender's deadwood not higher is an undercut."""
    from referee.gin import settle

    knocker = ending.player
    assert knocker is not None
    defender = next(player for player in ending.players if player != knocker)
    deadwoods = ending.points
    outcome, side, points, why = settle(
        deadwoods[knocker], deadwoods[defender], (knocker, defender), rules
    )
    winner = knocker if side == "knocker" else defender
    scores = {player: points if player == winner else 0 for player in ending.players}
    return RoundScore(
        outcome,
        (winner,),
        scores,
        (why,),
        undercut=outcome is Outcome.UNDERCUT,
        hand_values=dict(deadwoods),
    )


def loser_deals(rules: Ruleset, progress: MatchProgress) -> str:
    """The player who did not win the round deals the next; a draw keeps the dealer."""
    losers = [player for player in progress.players if player not in progress.last.winners]
    if not progress.last.winners or not losers:
        return progress.dealer
    return losers[0]


RULESET = Ruleset(
    id="gin",
    name=define_text("ruleset.gin.name", "Gin Rummy"),
    description=define_text(
        "ruleset.gin.description", "Two players, knock at 10 or less, gin and undercut bonus 25"
    ),
    min_players=2,
    max_players=2,
    deal_sizes={2: 10},
    values=card_values(1, None, 10, 10),
    target=100,
    target_presets=(50,),
    turn_style=TurnStyle.NONE,
    round_form=RoundForm((KNOCK, DRAW, VOID), knocker_melds=True),
    knock_limit=10,
    bonuses=Bonuses(gin=25, undercut=25),
    final_hand_size=10,
    # A hand given as points is its deadwood after lay-offs; the most 10 cards can leave is
    # 98 (K K Q Q J J 10 10 9 9 in suits that make no run).
    most_deadwood=98,
    points_unchecked=POINTS_UNCHECKED,
    score_round=score_gin_round,
    next_dealer=loser_deals,
    no_ending_message=NO_ENDING,
    menu_order=5,
)
