"""The next match of the same players: who deals its first round.

RULES.md gives each ruleset's dealer rule from round to round; a rematch
continues it as if the finished match had one more round: the rule is applied
after the last round that was not voided (rounds clockwise for ``remi``,
``rummy`` and ``manipulation``; the lowest total for ``remi-indonesia``, the
loser of the last round for ``gin``).  A match not finished yet names its next
dealer already; a match with no counted round keeps its first dealer.
"""

from __future__ import annotations

from referee.match import MatchState
from referee.rulesets import MatchProgress
from referee.scoring import RoundScore


def rematch_dealer(state: MatchState) -> str:
    """Who deals the first round of the rematch of ``state``'s match."""
    if state.next_dealer is not None:
        return state.next_dealer
    counted = [result for result in state.rounds if not result.is_void]
    if not counted:
        return state.header.first_dealer
    last = counted[-1]
    progress = MatchProgress(
        state.players,
        last.dealer,
        RoundScore(last.outcome, last.winners, last.scores),
        state.totals,
        len(counted),
        state.rounds_won,
    )
    return state.rules.next_dealer(state.rules, progress)
