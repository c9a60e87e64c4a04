"""Where a pool stands before a deal (Indian rummy): who is in, who is out, who may rejoin.

Every answer comes from the engine's replay (the totals, the players dealt in, and the
engine's own rejoin check tried for each player out); nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.errors import RefereeError
from referee.match import Detail, MatchState
from referee.rulesets import find_ruleset
from referee.web.store import matchlog
from referee.web.store.models import Match


@dataclass(frozen=True)
class Pool:
    """Before deal ``number``: the limit, each seated player's total, who is dealt in, and
    the total each player out would come back with (only those the engine lets rejoin)."""

    number: int
    limit: int | None
    totals: dict[str, int]
    dealt: tuple[str, ...]
    out: tuple[str, ...]
    rejoin_at: dict[str, int] = field(default_factory=dict)
    deals: int | None = None  # the fixed number of deals (format deals), else None
    open_ended: bool = False  # the engine lets the players end the match (format points)


def state_before(match: Match, number: int) -> MatchState | None:
    """The match replayed up to deal ``number`` (None when it cannot be); before the next
    deal, the state kept with the match serves (the totals and seats are all it needs)."""
    stored = [(r.number, r.entry) for r in match.complete_rounds if r.number < number]
    if len(stored) == len(match.complete_rounds):
        return matchlog.outlook(match, Detail.FACTS).state
    return matchlog.stored_outlook(matchlog.header(match), stored).state


def pool_before(match: Match, number: int) -> Pool | None:
    """Where an Indian rummy match stands before deal ``number`` (None for other rulesets
    or a match that does not replay)."""
    if find_ruleset(match.rules).pool is None:
        return None
    state = state_before(match, number)
    if state is None or state.finished:
        return None
    rules = state.rules
    seated = state.players
    dealt = rules.players_dealt(state.totals, seated)
    out = tuple(name for name in seated if name not in dealt)
    rejoin_at: dict[str, int] = {}
    for name in out:
        try:
            back = state.rejoin((name,), number)
        except RefereeError:
            continue
        rejoin_at[name] = back.totals[name]
    assert rules.pool is not None
    return Pool(
        number,
        rules.elimination_limit,
        {name: state.totals.get(name, 0) for name in seated},
        dealt,
        out,
        rejoin_at,
        rules.pool.fixed_deals(rules),
        state.may_be_stopped,
    )
