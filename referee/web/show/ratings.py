"""Each player's rating per ruleset, from the table's finished matches (OpenSkill).

A rating is OpenSkill's Plackett-Luce estimate of a player's skill (``mu``, 25 to start) and
how unsure it is (``sigma``, 25/3 to start), updated after every finished match in the order
the matches were played, by the order the players finished in: the winners first (sharing
first place), then the others by their final total, highest first (equal totals share a
place), as the statistics count "ahead" (:mod:`referee.web.show.history`).  A player who joined
late or left counts with the total they finished with.

Ratings are not stored: they are worked out from the seat summaries (:class:`SeatSummary`),
which are derived from the log and verified by ``flask history check``; a summary that no
longer matches its log is reported there, and the ratings drawn from it with it.  The work
for one table and ruleset is remembered for as long as its finished matches stay the same,
and a table's ratings for as long as its statistics version (raised with every rewrite of
its summaries, :mod:`referee.web.store.aggregates`) stays the same.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from cachetools import LRUCache
from flask import current_app
from openskill.models import PlackettLuce

from referee.web.store import aggregates
from referee.web.store.extensions import db
from referee.web.store.models import Player, SeatSummary

MODEL = PlackettLuce()
# Fewer rated matches than this: the rating is marked uncertain.
UNCERTAIN_BELOW = 5


@dataclass(frozen=True)
class Finisher:
    """One player's end of one finished match."""

    player_id: int
    won: bool
    total: int


@dataclass
class Rating:
    player_id: int
    name: str
    mu: float
    sigma: float
    matches: int
    history: list[float] = field(default_factory=list)  # mu after each of their matches

    @property
    def uncertain(self) -> bool:
        return self.matches < UNCERTAIN_BELOW


@dataclass
class RulesetRatings:
    rules: str
    ratings: list[Rating]  # highest first
    steps: list[dict[int, float]]  # after each rated match of the ruleset: every rated mu so far
    # Its chart, drawn once (the ratings are kept while the table's matches stay the same).
    chart: Any = field(default=None, compare=False, repr=False)


def places(finishers: Sequence[Finisher]) -> list[int]:
    """Each player's place (1 first): winners first, then by total; equal ones share."""
    key = [(not one.won, -one.total) for one in finishers]
    return [1 + sum(other < mine for other in key) for mine in key]


@lru_cache(maxsize=64)
def rate(
    matches: tuple[tuple[Finisher, ...], ...],
) -> tuple[dict[int, Rating], list[dict[int, float]]]:
    """The ratings after these matches (in the order played), and every mu after each match.

    Names are filled in by the caller."""
    ratings: dict[int, Rating] = {}
    steps: list[dict[int, float]] = []
    for finishers in matches:
        if len(finishers) < 2:
            continue
        before = [
            MODEL.rating(mu=ratings[one.player_id].mu, sigma=ratings[one.player_id].sigma)
            if one.player_id in ratings
            else MODEL.rating()
            for one in finishers
        ]
        after = MODEL.rate(
            [[rating] for rating in before], ranks=[float(place) for place in places(finishers)]
        )
        for one, (new,) in zip(finishers, after, strict=True):
            kept = ratings.setdefault(one.player_id, Rating(one.player_id, "", 0.0, 0.0, 0))
            kept.mu, kept.sigma = new.mu, new.sigma
            kept.matches += 1
            kept.history.append(new.mu)
        steps.append({player_id: rating.mu for player_id, rating in ratings.items()})
    return ratings, steps


class _Kept:
    """The ratings last worked out, by table, ruleset, end of period and the table's
    statistics version (raised with every rewrite of its summaries): a view of a table
    whose matches have not changed since reads none of them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.found: LRUCache[tuple[object, ...], tuple[int, list[RulesetRatings]]] = LRUCache(KEPT)

    def get(self, key: tuple[object, ...], version: int) -> list[RulesetRatings] | None:
        with self.lock:
            kept = self.found.get(key)
        return kept[1] if kept is not None and kept[0] == version else None

    def put(self, key: tuple[object, ...], version: int, found: list[RulesetRatings]) -> None:
        with self.lock:  # one version a key: an older one is dropped, not kept beside it
            self.found[key] = (version, found)


KEPT = 16


def table_ratings(
    table_id: int, *, rules: str | None = None, until: date | None = None
) -> list[RulesetRatings]:
    """Every ruleset's ratings at a table (or one ruleset's), from its finished matches played
    up to ``until``: one query, none while the table's summaries stay as they were."""
    version = aggregates.version_of(db.session.connection(), table_id)
    key = (table_id, rules, until)
    kept = current_app.extensions.setdefault("kept_ratings", _Kept())
    found = kept.get(key, version)
    if found is None:
        found = _worked_out(table_id, rules, until)
        kept.put(key, version, found)
    return found


def _worked_out(table_id: int, rules: str | None, until: date | None) -> list[RulesetRatings]:
    seat = SeatSummary
    conditions = [seat.table_id == table_id, seat.counted.is_(True), seat.finished.is_(True)]
    if rules:
        conditions.append(seat.rules == rules)
    if until is not None:
        conditions.append(
            seat.last_played_at < datetime.combine(until + timedelta(days=1), time(), UTC)
        )
    rows = db.session.execute(
        sa.select(seat.rules, seat.match_id, seat.player_id, seat.won, seat.total, Player.name)
        .join(Player, Player.id == seat.player_id)
        .where(*conditions)
        .order_by(seat.rules, seat.last_played_at, seat.match_id, seat.seat)
    ).all()
    names = {row.player_id: row.name for row in rows}
    found = []
    for ruleset, of_rules in groupby(rows, key=lambda row: row.rules):
        matches = tuple(
            tuple(Finisher(row.player_id, row.won, row.total) for row in seats)
            for _, seats in groupby(of_rules, key=lambda row: row.match_id)
        )
        ratings, steps = rate(matches)
        shown = [
            Rating(r.player_id, names[r.player_id], r.mu, r.sigma, r.matches, list(r.history))
            for r in ratings.values()
        ]
        shown.sort(key=lambda r: (-r.mu, r.name))
        if shown:
            found.append(RulesetRatings(ruleset, shown, steps))
    return found
