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
    score_round=score_gin_round,
    next_dealer=loser_deals,
    no_ending_message=NO_ENDING,
    menu_order=5,
)
