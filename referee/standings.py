"""What a replayed match answers about its players: the standings and the score sheet's rows.

Every page, export and rating takes these answers as they are; none orders, ranks or adds up
the players by itself.

Standings, in the game's own order
    The winners first (sharing first place).  Then, where the game tracks how far each player
    has come (Phase 10's phases completed), the furthest first; then, where the highest total wins, the highest
    total first; where the lowest wins (``contract``), the lowest first; in a pool (Indian
    rummy 101 or 201), the players still in, lowest total first, then the players out of
    the pool in reverse order of going out (the last one out first; of several out after
    the same deal, the lower total first; a player who left the table went out then).
    Equal places are shared.

Sides
    A match played in teams (Canasta's partnerships) ranks its sides: each standing is a
    team's, named by the team, with its partners as ``members``, and the partners share
    the team's place.  Where each player plays alone, a standing is a side of one.

The rows of the score sheet
    A round (its scores and the running totals after it), a seating change (who joins at
    what total, who comes back, who leaves), a rejoin (who comes back into a pool and at
    what total), the match-end bonuses: in the order they happened, each with the running
    totals after it, which end at the match's totals.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.rulesets import Ruleset
from referee.rulesets.base import Ranking

if TYPE_CHECKING:
    from referee.match import MatchState, Reseating, RoundResult


class Order(enum.Enum):
    """How a game ranks its players."""

    HIGHEST_FIRST = "highest_first"
    LOWEST_FIRST = "lowest_first"  # penalty points: the lowest total wins
    POOL = "pool"  # penalty points that put a player out: the last one left wins


def elimination_limit(rules: Ruleset) -> int | None:
    """The total that puts a player out of the match (an Indian pool's 101 or 201), if any."""
    return rules.elimination_limit


def order_of(rules: Ruleset) -> Order:
    if elimination_limit(rules) is not None:
        return Order.POOL
    return Order.LOWEST_FIRST if rules.ranking is Ranking.LOWEST_TOTAL else Order.HIGHEST_FIRST


def lowest_leads(rules: Ruleset) -> bool:
    """Whether the lowest total is the best (penalty points: a pool, ``contract``)."""
    return order_of(rules) is not Order.HIGHEST_FIRST


@dataclass(frozen=True)
class Standing:
    """One side's place: ``player`` names the side (a team, or the player alone), whose
    players are ``members``.  ``out_after``: out of the pool after that round (the last one
    they were dealt in); ``left_before``: left the table before that round."""

    place: int
    player: str
    total: int
    winner: bool = False
    out_after: int | None = None
    left_before: int | None = None
    members: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.members:
            object.__setattr__(self, "members", (self.player,))

    @property
    def is_team(self) -> bool:
        """Whether the side is a team of partners (not a player alone)."""
        return self.members != (self.player,)

    def to_json(self) -> dict[str, Any]:
        """The standing as ``referee replay --json`` gives it (``out_after`` and
        ``left_before`` only when they say something, ``members`` for a team)."""
        out: dict[str, Any] = {
            "place": self.place,
            "player": self.player,
            "total": self.total,
            "winner": self.winner,
        }
        if self.is_team:
            out["members"] = list(self.members)
        if self.out_after is not None:
            out["out_after"] = self.out_after
        if self.left_before is not None:
            out["left_before"] = self.left_before
        return out

    @property
    def still_in(self) -> bool:
        """Still playing for the win: seated, and not out of a pool."""
        return self.out_after is None and self.left_before is None


def current_totals(state: MatchState) -> dict[str, int]:
    """Everyone's total now: the match's, or where the game keeps columns (Hollywood gin)
    the sums of the column totals, which the match's totals become at its end."""
    columns = state.columns
    if columns is None or state.finished:
        return dict(state.totals)
    return {**state.totals, **columns.totals}


def standings(state: MatchState) -> tuple[Standing, ...]:
    """Everyone who has sat at the table, in the game's order (see the module's text)."""
    rules, totals = state.rules, current_totals(state)
    order = order_of(rules)
    left = departures(state)
    out = eliminations(state)
    winners = set(state.winners)
    tracker = rules.tracker
    carried = state.carried if tracker is not None else None
    come = {p: tracker.progress(carried, p) for p in state.everyone} if tracker else {}

    def key(player: str) -> tuple[float, ...]:
        total = totals[player]
        come_so_far = 0 if player in winners else -come.get(player, 0)
        if order is Order.HIGHEST_FIRST:
            return (player not in winners, come_so_far, -total)
        if order is Order.LOWEST_FIRST:
            return (player not in winners, come_so_far, total)
        if player in winners:
            return (0, 0, total)
        if player in out or player in left:
            gone = out[player] if player in out else left[player] - 0.5
            return (2, -gone, total)
        return (1, 0, total)

    ordered = sorted(state.everyone, key=key)
    found: list[Standing] = []
    for index, player in enumerate(ordered):
        shares = found and key(ordered[index - 1]) == key(player)
        found.append(
            Standing(
                found[-1].place if shares else index + 1,
                player,
                totals[player],
                player in winners,
                out.get(player),
                left.get(player),
                state.header.members(player),
            )
        )
    return tuple(found)


def leaders(state: MatchState) -> tuple[str, ...]:
    """Who leads: of the players still in, those with the best total (the winners once the
    match is over); none before the first round."""
    if state.finished:
        return state.winners
    if not state.rounds:
        return ()
    ranked = [standing for standing in standings(state) if standing.still_in]
    if not ranked:
        return ()
    best = ranked[0].place
    return tuple(s.player for s in ranked if s.place == best)


def departures(state: MatchState) -> dict[str, int]:
    """Who has left the table (and not come back): the round they left before."""
    left: dict[str, int] = {}
    for reseating in state.reseatings:
        for player in reseating.joined:
            left.pop(player, None)
        for player in reseating.left:
            left[player] = reseating.before_round
    return left


def eliminations(state: MatchState) -> dict[str, int]:
    """Who is out of a pool (seated or gone since): the last round they were dealt in."""
    limit = elimination_limit(state.rules)
    if limit is None:
        return {}
    last_dealt: dict[str, int] = {}
    for result in state.rounds:
        if not result.is_void:
            for player in result.scores:
                last_dealt[player] = result.number
    return {
        player: last_dealt.get(player, 0)
        for player in state.everyone
        if state.totals[player] >= limit
    }


# -- the rows of the score sheet ----------------------------------------------------------------


@dataclass(frozen=True)
class RoundRow:
    """A round: its result, and the running totals of the players in it after it."""

    result: RoundResult
    running: Mapping[str, int]
    kind: str = field(default="round", init=False)


@dataclass(frozen=True)
class SeatingRow:
    """A seating change before round ``change.before_round``; ``running``: the totals the
    players who join start with (a player who comes back keeps their own)."""

    change: Reseating
    running: Mapping[str, int]
    kind: str = field(default="seating", init=False)


@dataclass(frozen=True)
class RejoinRow:
    """Players back in a pool before round ``before_round``, each with the total they come
    back with (``running``)."""

    before_round: int
    running: Mapping[str, int]
    kind: str = field(default="rejoin", init=False)


@dataclass(frozen=True)
class BonusRow:
    """The match-end bonuses; ``running``: the totals after them (the match's)."""

    bonuses: Mapping[str, int]
    running: Mapping[str, int]
    kind: str = field(default="bonus", init=False)


SheetRow = RoundRow | SeatingRow | RejoinRow | BonusRow


def sheet_rows(state: MatchState) -> tuple[SheetRow, ...]:
    """The score sheet's rows in the order things happened, the seating change before the
    next round last (see the module's text)."""
    running = dict.fromkeys(state.header.sides_of(state.header.players), 0)
    changes = {reseating.before_round: reseating for reseating in state.reseatings}
    rejoined: dict[int, dict[str, int]] = {}
    for rejoin in state.rejoins:
        rejoined.setdefault(rejoin.before_round, {})[rejoin.player] = rejoin.total
    rows: list[SheetRow] = []
    for number in range(1, state.next_round + 1):
        change = changes.get(number)
        if change is not None:
            running.update(change.starting_totals)
            rows.append(SeatingRow(change, dict(change.starting_totals)))
        if number in rejoined:
            running.update(rejoined[number])
            rows.append(RejoinRow(number, dict(rejoined[number])))
        if number == state.next_round:
            break
        result = state.rounds[number - 1]
        for player, score in result.scores.items():
            running[player] += score
        rows.append(RoundRow(result, {player: running[player] for player in result.scores}))
    if state.finished and any(state.bonuses.values()):
        bonuses = {p: bonus for p, bonus in state.bonuses.items() if bonus}
        for player, bonus in bonuses.items():
            running[player] += bonus
        rows.append(BonusRow(bonuses, {player: running[player] for player in bonuses}))
    return tuple(rows)


__all__ = [
    "BonusRow",
    "Order",
    "RejoinRow",
    "RoundRow",
    "SeatingRow",
    "SheetRow",
    "Standing",
    "elimination_limit",
    "eliminations",
    "current_totals",
    "departures",
    "leaders",
    "lowest_leads",
    "order_of",
    "sheet_rows",
    "standings",
]
