"""Each player's rating per ruleset, from the table's finished matches (OpenSkill).

A rating is OpenSkill's Plackett-Luce estimate of a player's skill (``mu``, 25 to start) and
how unsure it is (``sigma``, 25/3 to start), updated after every finished match in the order
the matches were played, by the order the players finished in: the engine's standings (the
winners first, sharing first place, then the game's own order: the highest total first, the
lowest where the lowest wins, a pool by elimination; equal places shared).  Where the highest
total wins, the seat summaries' totals give that order; for the other games the places kept
with them (or, kept before the places were, read from the match's kept replay).  A player who
joined late or left counts with the total they finished with.  In a match played in teams each
side is rated as a team (OpenSkill rates teams): the partners finish in their side's place.

Ratings are not stored: they are worked out from the seat summaries (:class:`SeatSummary`),
which are derived from the log and verified by ``flask history check``; a summary that no
longer matches its log is reported there, and the ratings drawn from it with it.  Each worker
keeps what it worked out for a table, extended match by match (a ruleset's, or a period's,
are the table's ratings of that ruleset after the matches played in it): a view reads the table's statistics version and ratings epoch (one row); while the version
stays the same nothing else is read; while the epoch stays the same only the matches rated
after the last one rated are read and rated (a match finished: one update); when the epoch
was raised once since, the ratings are worked out again from the order key it applies from,
otherwise from the first match (:mod:`referee.web.store.aggregates` raises it).
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from cachetools import LRUCache
from flask import current_app
from openskill.models import PlackettLuce

from referee.errors import RefereeError
from referee.match import Detail
from referee.rulesets import find_ruleset
from referee.standings import Order, order_of
from referee.web.store import aggregates, matchlog
from referee.web.store.extensions import db
from referee.web.store.models import Match, Player, SeatSummary

MODEL = PlackettLuce()
# Fewer rated matches than this: the rating is marked uncertain.
UNCERTAIN_BELOW = 5


@dataclass(frozen=True)
class Finisher:
    """One player's end of one finished match."""

    player_id: int
    won: bool
    total: int
    place: int | None = None  # the engine's, where the total alone does not say it
    side: str | None = None  # the team the player played in, in a match played in teams


@dataclass
class Rating:
    player_id: int
    name: str
    mu: float
    sigma: float
    matches: int
    history: MutableSequence[float] = field(default_factory=list)  # mu after each of their matches
    # The index of each of their matches among the ruleset's rated matches.
    at: MutableSequence[int] = field(default_factory=list)

    @property
    def uncertain(self) -> bool:
        return self.matches < UNCERTAIN_BELOW

    def mu_after(self, index: int) -> float:
        """Their mu after the ruleset's ``index``-th rated match (their first: at or before it)."""
        return self.history[bisect_right(self.at, index) - 1]


@dataclass
class RulesetRatings:
    rules: str
    ratings: list[Rating]  # highest first
    matches: int  # rated matches of the ruleset
    # Its chart, drawn once (the ratings are kept while the table's matches stay the same).
    chart: Any = field(default=None, compare=False, repr=False)

    @property
    def steps(self) -> list[dict[int, float]]:
        """After each rated match of the ruleset: every rated mu so far."""
        by_index: dict[int, list[tuple[int, float]]] = {}
        for rating in self.ratings:
            for index, mu in zip(rating.at, rating.history, strict=True):
                by_index.setdefault(index, []).append((rating.player_id, mu))
        steps: list[dict[int, float]] = []
        current: dict[int, float] = {}
        for index in range(self.matches):
            current.update(by_index.get(index, ()))
            steps.append(dict(current))
        return steps


def places(finishers: Sequence[Finisher]) -> list[int]:
    """Each player's place (1 first): the engine's where given, else the winners first,
    then by total, highest first; equal ones share."""
    if all(one.place is not None for one in finishers):
        return [int(one.place or 0) for one in finishers]
    key = [(not one.won, -one.total) for one in finishers]
    return [1 + sum(other < mine for other in key) for mine in key]


def finished_match(rules: str, match_id: int, seats: Sequence[Any]) -> list[Finisher]:
    """The finishers of one finished match from its seat rows: in a game whose order is not
    the highest total first (a pool, a lowest-wins game), with the places of the engine's
    standings (kept with the rows, or else read from the match's kept replay); in a game
    played in teams, with the team each played in."""
    finishers = [Finisher(row.player_id, row.won, row.total) for row in seats]
    if _played_in_sides(rules):
        finishers = _with_sides(match_id, finishers)
    if _ordered_by_highest_total(rules):
        return finishers
    kept: list[int] = [row.place for row in seats if getattr(row, "place", None) is not None]
    if len(kept) == len(finishers):
        return [
            replace(one, place=_place_among(kept, place))
            for one, place in zip(finishers, kept, strict=True)
        ]
    match = db.session.get(Match, match_id)
    state = matchlog.outlook(match, Detail.FACTS).state if match is not None else None
    if match is None or state is None:
        return finishers
    place_of = state.places()
    name_of = {seat.player_id: seat.player.name for seat in match.seats}
    known = [
        place_of[name_of[one.player_id]]
        for one in finishers
        if name_of.get(one.player_id) in place_of
    ]
    if len(known) != len(finishers):
        return finishers
    return [
        replace(one, place=_place_among(known, mine))
        for one, mine in zip(finishers, known, strict=True)
    ]


def _place_among(places: Sequence[int], place: int) -> int:
    """The place ``place`` is among ``places`` (1 first, equal ones share)."""
    return 1 + sum(other < place for other in places)


def _with_sides(match_id: int, finishers: list[Finisher]) -> list[Finisher]:
    """The finishers with the team each played in, where the match was played in teams."""
    match = db.session.get(Match, match_id)
    if match is None or not match.teams:
        return finishers
    side_of = {name: side for side, members in match.teams.items() for name in members}
    name_of = {seat.player_id: seat.player.name for seat in match.seats}
    return [replace(one, side=side_of.get(name_of.get(one.player_id, ""))) for one in finishers]


def _played_in_sides(rules: str) -> bool:
    try:
        return find_ruleset(rules).sides is not None
    except RefereeError:
        return False


def _ordered_by_highest_total(rules: str) -> bool:
    try:
        return order_of(find_ruleset(rules)) is Order.HIGHEST_FIRST
    except RefereeError:
        return True


def rated_match(
    finishers: Sequence[Finisher], before: Sequence[tuple[float, float] | None]
) -> list[tuple[float, float]]:
    """Each finisher's (mu, sigma) after one match, from before it (None: not rated yet); the
    partners of a side rated as one team, in their side's place."""
    ratings = [
        MODEL.rating(mu=mu_sigma[0], sigma=mu_sigma[1]) if mu_sigma is not None else MODEL.rating()
        for mu_sigma in before
    ]
    teams: dict[object, list[int]] = {}
    for index, one in enumerate(finishers):
        teams.setdefault(one.side if one.side is not None else index, []).append(index)
    order = places(finishers)
    after = MODEL.rate(
        [[ratings[index] for index in members] for members in teams.values()],
        ranks=[float(order[members[0]]) for members in teams.values()],
    )
    found: dict[int, tuple[float, float]] = {}
    for members, team in zip(teams.values(), after, strict=True):
        for index, new in zip(members, team, strict=True):
            found[index] = (new.mu, new.sigma)
    return [found[index] for index in range(len(finishers))]


def rate(
    matches: Sequence[Sequence[Finisher]],
) -> tuple[dict[int, Rating], list[dict[int, float]]]:
    """The ratings after these matches (in the order played), and every mu after each match,
    worked out from the first (the kept ratings are checked against it).

    Names are filled in by the caller."""
    ratings: dict[int, Rating] = {}
    steps: list[dict[int, float]] = []
    for finishers in matches:
        if len(finishers) < 2:
            continue
        before = [
            (ratings[one.player_id].mu, ratings[one.player_id].sigma)
            if one.player_id in ratings
            else None
            for one in finishers
        ]
        for one, (mu, sigma) in zip(finishers, rated_match(finishers, before), strict=True):
            kept = ratings.setdefault(one.player_id, Rating(one.player_id, "", 0.0, 0.0, 0))
            kept.mu, kept.sigma = mu, sigma
            kept.matches += 1
            kept.history.append(mu)
            kept.at.append(len(steps))
        steps.append({player_id: rating.mu for player_id, rating in ratings.items()})
    return ratings, steps


PERIODS_KEPT = 8
OrderKey = tuple[datetime, int]  # (last played, match id): the order matches are rated in


class _Track:
    """One player's rated matches of a ruleset: the index of each among the ruleset's rated
    matches, and their mu and sigma after it."""

    __slots__ = ("at", "mu", "sigma")

    def __init__(self) -> None:
        self.at = array("q")
        self.mu = array("d")
        self.sigma = array("d")

    def cut(self, index: int) -> None:
        """Forget the matches from the ruleset's ``index``-th on."""
        kept = bisect_left(self.at, index)
        for values in (self.at, self.mu, self.sigma):
            del values[kept:]


class _Line:
    """One ruleset's ratings as worked out so far, extended match by match."""

    def __init__(self) -> None:
        self.keys: list[OrderKey] = []  # of each rated match, in order
        self.tracks: dict[int, _Track] = {}
        # What it showed for each end of period (None: no end), each with its chart drawn,
        # for as long as no match within the period is added or cut (the latest few ends).
        self.snapshots: LRUCache[datetime | None, RulesetRatings | None] = LRUCache(PERIODS_KEPT)

    def add(self, key: OrderKey, finishers: Sequence[Finisher]) -> None:
        if len(finishers) < 2:
            return
        tracks = [self.tracks.get(one.player_id) for one in finishers]
        before = [
            (track.mu[-1], track.sigma[-1]) if track is not None and track.at else None
            for track in tracks
        ]
        index = len(self.keys)
        for one, (mu, sigma) in zip(finishers, rated_match(finishers, before), strict=True):
            track = self.tracks.get(one.player_id)
            if track is None:
                track = self.tracks[one.player_id] = _Track()
            track.at.append(index)
            track.mu.append(mu)
            track.sigma.append(sigma)
        self.keys.append(key)
        self._changed_from(key)

    def cut(self, applies_from: OrderKey) -> None:
        """Forget the matches from the order key ``applies_from`` on."""
        index = bisect_left(self.keys, applies_from)
        if index == len(self.keys):
            return
        self._changed_from(self.keys[index])
        del self.keys[index:]
        for player_id, track in list(self.tracks.items()):
            track.cut(index)
            if not track.at:
                del self.tracks[player_id]

    def _changed_from(self, key: OrderKey) -> None:
        """Forget what was shown for the periods that hold the match of ``key``."""
        for end in list(self.snapshots):
            if end is None or key < (end,):
                del self.snapshots[end]

    def shown(
        self, rules: str, names: Mapping[int, str], end: datetime | None
    ) -> RulesetRatings | None:
        """The ratings after the matches played before ``end`` (None: all of them)."""
        if end not in self.snapshots:
            self.snapshots[end] = self._shown(rules, names, end)
        return self.snapshots[end]

    def _shown(
        self, rules: str, names: Mapping[int, str], end: datetime | None
    ) -> RulesetRatings | None:
        count = len(self.keys) if end is None else bisect_left(self.keys, (end,))
        if not count:
            return None
        ratings = []
        for player_id, track in self.tracks.items():
            theirs = bisect_left(track.at, count)  # their matches among the first ``count``
            if theirs:
                ratings.append(
                    Rating(
                        player_id,
                        names.get(player_id, ""),
                        track.mu[theirs - 1],
                        track.sigma[theirs - 1],
                        theirs,
                        track.mu[:theirs],
                        at=track.at[:theirs],
                    )
                )
        ratings.sort(key=lambda r: (-r.mu, r.name))
        return RulesetRatings(rules, ratings, count)


class _Worked:
    """What one worker worked out for a table: every ruleset's line, the last order key
    read, the players' names, and the version and epoch of the table they are at."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.epoch: int | None = None
        self.version = -1
        self.read_to: OrderKey | None = None
        self.lines: dict[str, _Line] = {}
        self.names: dict[int, str] = {}

    def restart(self, applies_from: OrderKey | None) -> None:
        if applies_from is None or self.read_to is None:
            self.read_to, self.lines = None, {}
        elif applies_from <= self.read_to:
            for line in self.lines.values():
                line.cut(applies_from)
            # Read again from the key on (the key itself included: just before it).
            played, match_id = applies_from
            self.read_to = (played, match_id - 1)


class _Kept:
    """The ratings worked out, by table (the most recent few)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.found: LRUCache[int, _Worked] = LRUCache(KEPT)

    def of(self, table_id: int) -> _Worked:
        with self.lock:
            worked = self.found.get(table_id)
            if worked is None:
                worked = self.found[table_id] = _Worked()
            return worked


KEPT = 16


def table_ratings(
    table_id: int, *, rules: str | None = None, until: date | None = None
) -> list[RulesetRatings]:
    """Every ruleset's ratings at a table (or one ruleset's), from its finished matches played
    up to ``until``: one statement while the table's summaries stay as they were, three when
    they changed (the matches rated since, the players' names).  A period's ratings are the
    first matches' of the table's (the matches rated in order); a ruleset and period none of
    whose matches was rated or rated again since is shown as it was, its chart as drawn."""
    connection = db.session.connection()
    now_ = aggregates.ratings_epoch_of(connection, table_id)
    kept = current_app.extensions.setdefault("kept_ratings", _Kept())
    worked = kept.of(table_id)
    end = None if until is None else datetime.combine(until + timedelta(days=1), time(), UTC)
    with worked.lock:
        if worked.epoch != now_.epoch or worked.version != now_.version:
            _brought_up_to(worked, now_, table_id)
        return [
            shown
            for ruleset, line in sorted(worked.lines.items())
            if rules in (None, "", ruleset)
            and (shown := line.shown(ruleset, worked.names, end)) is not None
        ]


def _brought_up_to(worked: _Worked, now_: aggregates.RatingsEpoch, table_id: int) -> None:
    if worked.epoch is not None and now_.epoch == worked.epoch + 1:
        worked.restart(now_.applies_from)  # one change since: from where it applies
    elif now_.epoch != worked.epoch:
        worked.restart(None)  # never worked out, or more than one change since
    _read_on(worked, table_id)
    names = dict(
        db.session.execute(
            sa.select(Player.id, Player.name).where(Player.table_id == table_id)
        ).all()
    )
    if names != worked.names:  # a player renamed: every ruleset shown again
        worked.names = names
        for line in worked.lines.values():
            line.snapshots.clear()
    worked.epoch, worked.version = now_.epoch, now_.version


def _read_on(worked: _Worked, table_id: int) -> None:
    """Rate the finished matches after the last one read, in order."""
    seat = SeatSummary
    conditions = [seat.table_id == table_id, seat.counted.is_(True), seat.finished.is_(True)]
    if worked.read_to is not None:
        played, match_id = worked.read_to
        conditions += [
            seat.last_played_at >= played,
            sa.or_(seat.last_played_at > played, seat.match_id > match_id),
        ]
    rows = db.session.execute(
        sa.select(
            seat.rules,
            seat.match_id,
            seat.player_id,
            seat.won,
            seat.total,
            seat.place,
            seat.last_played_at,
        )
        .where(*conditions)
        .order_by(seat.last_played_at, seat.match_id, seat.seat)
    ).all()
    for match_id, seats in groupby(rows, key=lambda row: row.match_id):
        seated = list(seats)
        key = (max(aggregates.as_utc(row.last_played_at) for row in seated), match_id)
        line = worked.lines.get(seated[0].rules)
        if line is None:
            line = worked.lines[seated[0].rules] = _Line()
        line.add(key, finished_match(seated[0].rules, match_id, seated))
        worked.read_to = key


def worked_out(table_id: int, rules: str | None, until: date | None) -> list[RulesetRatings]:
    """The ratings worked out from the first match, every time (what the kept ones must be)."""
    seat = SeatSummary
    conditions = [seat.table_id == table_id, seat.counted.is_(True), seat.finished.is_(True)]
    if rules:
        conditions.append(seat.rules == rules)
    if until is not None:
        conditions.append(
            seat.last_played_at < datetime.combine(until + timedelta(days=1), time(), UTC)
        )
    rows = db.session.execute(
        sa.select(
            seat.rules, seat.match_id, seat.player_id, seat.won, seat.total, seat.place, Player.name
        )
        .join(Player, Player.id == seat.player_id)
        .where(*conditions)
        .order_by(seat.rules, seat.last_played_at, seat.match_id, seat.seat)
    ).all()
    names = {row.player_id: row.name for row in rows}
    found = []
    for ruleset, of_rules in groupby(rows, key=lambda row: row.rules):
        matches = tuple(
            tuple(finished_match(ruleset, match_id, list(seats)))
            for match_id, seats in groupby(of_rules, key=lambda row: row.match_id)
        )
        ratings, steps = rate(matches)
        shown = [
            Rating(
                r.player_id,
                names[r.player_id],
                r.mu,
                r.sigma,
                r.matches,
                array("d", r.history),
                at=array("q", r.at),
            )
            for r in ratings.values()
        ]
        shown.sort(key=lambda r: (-r.mu, r.name))
        if shown:
            found.append(RulesetRatings(ruleset, shown, len(steps)))
    return found
