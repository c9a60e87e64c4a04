"""Indian rummy's own statistics: valid shows, wrong shows, drops, and who went out of a pool.

The stored summaries do not hold these, so they are counted from the engine's replay of each
counted Indian match of the table (:mod:`referee.web.show.replayed`, kept by the match's
version).  The period filters choose the matches from their summaries, as for every other
figure.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import sqlalchemy as sa

from referee.match import MatchState
from referee.scoring import Outcome
from referee.web.show import replayed
from referee.web.show.history import Filters
from referee.web.store import matchlog
from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchSummary, SeatSummary
from referee.web.store.summary import BROKEN

RULES = "indian"


@dataclass
class IndianCounts:
    """One player's deal endings in Indian rummy."""

    valid_shows: int = 0  # deals won by a valid show
    wrong_shows: int = 0
    first_drops: int = 0
    middle_drops: int = 0
    eliminations: int = 0  # went out of a pool (reached its limit)
    rejoins: int = 0

    def add(self, other: IndianCounts) -> None:
        for figure in fields(self):
            setattr(self, figure.name, getattr(self, figure.name) + getattr(other, figure.name))


def match_counts(state: MatchState) -> dict[str, IndianCounts]:
    """Each player's counts in one replayed match, by name."""
    counts: dict[str, IndianCounts] = {}

    def of(player: str) -> IndianCounts:
        return counts.setdefault(player, IndianCounts())

    rules = state.rules
    counted = [result for result in state.rounds if not result.is_void]
    for result, totals_after in zip(counted, state.history, strict=False):
        record = result.record
        if result.outcome is Outcome.SHOW:
            of(result.winners[0]).valid_shows += 1
        if record is not None:
            for player in record.wrong_shows or ():
                of(player).wrong_shows += 1
            for player, when in (record.drops or {}).items():
                if when == "first":
                    of(player).first_drops += 1
                else:
                    of(player).middle_drops += 1
        dealt = tuple(result.scores)
        still_in = rules.players_dealt(totals_after, dealt)
        for player in dealt:
            if player not in still_in:
                of(player).eliminations += 1
    for rejoin in state.rejoins:
        of(rejoin.player).rejoins += 1
    return counts


# -- the counts of a table's matches ------------------------------------------------------


def _counted_matches(
    table_id: int, filters: Filters, player_id: int | None
) -> list[tuple[int, int]]:
    """(match id, version) of the table's counted Indian matches within the filters."""
    summary = MatchSummary
    query = (
        sa.select(summary.match_id, Match.version)
        .join(Match, Match.id == summary.match_id)
        .where(
            summary.table_id == table_id,
            summary.rules == RULES,
            summary.deleted.is_(False),
            summary.state != BROKEN,
            summary.rounds_played > 0,
            *filters.period(summary.last_played_at),
        )
    )
    if filters.match_ids is not None:
        query = query.where(summary.match_id.in_(sorted(filters.match_ids)))
    if player_id is not None:
        query = query.where(
            sa.exists().where(
                SeatSummary.match_id == summary.match_id,
                SeatSummary.player_id == player_id,
                SeatSummary.counted.is_(True),
            )
        )
    return [(row.match_id, row.version) for row in db.session.execute(query)]


def _count(match: Match) -> dict[int, IndianCounts]:
    seen = matchlog.outlook(match)
    if seen.state is None:
        return {}
    by_name = match_counts(seen.state)
    ids = {seat.player.name: seat.player_id for seat in match.seats}
    return {ids[name]: counts for name, counts in by_name.items() if name in ids}


def figures(
    table_id: int, filters: Filters, player_id: int | None = None
) -> dict[int, IndianCounts]:
    """Every player's Indian rummy counts at a table (or one player's) over the counted
    matches within the filters, by player id; empty when no such match was played."""
    if filters.rules and filters.rules != RULES:
        return {}
    wanted = _counted_matches(table_id, filters, player_id)
    total: dict[int, IndianCounts] = {}
    for counts in replayed.figures_by_match(RULES, table_id, wanted, _count).values():
        for found_id, found in counts.items():
            if player_id is None or found_id == player_id:
                total.setdefault(found_id, IndianCounts()).add(found)
    return total
