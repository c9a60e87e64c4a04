"""Which figures a game's statistics have: the engine says, the statistics pages show only
those.

Every game counts matches, wins, rounds, rounds won and its best round (where the lowest
total leads, the lowest round score: see :func:`referee.standings.lowest_leads`).  The
points a round won brings on average mean something only where the winner of a round
scores: not where the lowest total leads (a round's winner scores 0 there).  The other
figures come from the parts a game declares.
"""

from __future__ import annotations

from referee.rulesets.base import DEAL_END, Ruleset
from referee.scoring import Ending
from referee.standings import lowest_leads

POINTS_PER_ROUND_WON = "points_per_round_won"
BEST_ROUND = "best_round"
AT_ONCE = "at_once"
KNOCKS = "knocks"
UNDERCUTS = "undercuts"
GINS = "gins"
WENT_OUT = "went_out"
BUYS = "buys"
CONTRACTS = "contracts"
DEAL_ENDINGS = "deal_endings"  # valid and wrong shows, drops (a deal ended by a show)


def statistics_figures(rules: Ruleset) -> frozenset[str]:
    """The figures of ``rules``'s statistics beyond matches, wins, rounds and rounds won.

    >>> from referee.rulesets import find_ruleset
    >>> sorted(statistics_figures(find_ruleset('gin')))
    ['best_round', 'gins', 'knocks', 'points_per_round_won', 'undercuts']
    >>> sorted(statistics_figures(find_ruleset('contract')))
    ['best_round', 'buys', 'contracts', 'went_out']
    """
    figures = {BEST_ROUND}
    if not lowest_leads(rules):
        figures.add(POINTS_PER_ROUND_WON)
    if rules.counts_at_once:
        figures.add(AT_ONCE)
    if Ending.KNOCK in rules.endings:
        figures |= {KNOCKS, UNDERCUTS}
    if rules.bonuses.gin:
        figures.add(GINS)
    if rules.round_form.table:  # rummy500, contract: who emptied the hand
        figures.add(WENT_OUT)
    if rules.buys_per_deal:
        figures.add(BUYS)
    if rules.contract is not None:
        figures.add(CONTRACTS)
    if rules.round_form.kind == DEAL_END:
        figures.add(DEAL_ENDINGS)
    return frozenset(figures)
