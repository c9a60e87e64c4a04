"""A table's history from the stored summaries: the match list, statistics and head-to-head.

Nothing here replays a match: the statistics read the aggregates kept by month
(:mod:`referee.web.store.aggregates`) for the whole months of a period and the
summaries that :mod:`referee.web.store.summary` keeps with each match for the days at
its ends, in a few queries whatever the table's size (``scanned=True`` sums the
summaries of the whole period instead: the tests' oracle).  The match list is paged by a cursor (the last match shown),
newest first, so a page costs the same with 100 matches or 10,000.

Definitions (shown on the pages too):

- a match *counts* for a player once it can be replayed and has a round that
  is not void; *rounds* are rounds that are not void (blocked rounds and draws
  are rounds played);
- *win rate*: matches won out of finished matches;
- *points per round won*: the round scores of the rounds won, divided by them;
- *longest winning streak*: finished matches won one after the other, in the
  order they were last played;
- a match belongs to the day its latest round was played (the period filters,
  the list's dates and its order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from referee.errors import RefereeError
from referee.rulesets import RULESETS, find_ruleset
from referee.standings import lowest_leads
from referee.web.store import aggregates
from referee.web.store.extensions import db
from referee.web.store.models import (
    EVERY_RULESET,
    ROUND_FIGURES,
    SUMMED_FIGURES,
    MatchSummary,
    PairMonth,
    Player,
    PlayerMonth,
    SeatSummary,
    TableMonth,
    round_of_rank,
)
from referee.web.store.summary import BROKEN, FINISHED, as_utc, total_columns

PAGE_SIZE = 20
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
RECENT_TOGETHER = 10


@dataclass(frozen=True)
class Filters:
    """What a page is narrowed to; every part is optional."""

    player_id: int | None = None
    rules: str | None = None
    state: str | None = None
    since: date | None = None
    until: date | None = None
    archived: bool = False  # the list: the archived matches instead of the others
    # The statistics: only these matches (those played by some house rules), None: all.
    match_ids: frozenset[int] | None = None

    def period(self, column: Any) -> list[Any]:
        """Conditions keeping ``column`` (a played-at time) within the period."""
        conditions = []
        if self.since is not None:
            conditions.append(column >= datetime.combine(self.since, time(), UTC))
        if self.until is not None:
            conditions.append(
                column < datetime.combine(self.until + timedelta(days=1), time(), UTC)
            )
        return conditions


def menu_place(rules: str | None) -> tuple[int, str]:
    """Where a ruleset comes in lists (unknown ones last)."""
    found = RULESETS.get(rules or "")
    return (found.menu_order if found is not None else 1000, rules or "")


# -- the match list ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Cursor:
    """A place in the list: the last match shown (its played-at time and id)."""

    played_at: datetime
    match_id: int

    def __str__(self) -> str:
        micros = (as_utc(self.played_at) - EPOCH) // timedelta(microseconds=1)
        return f"{micros}.{self.match_id}"

    @classmethod
    def parse(cls, text: str | None) -> Cursor | None:
        """The cursor written by ``str``; None for anything else."""
        micros, _, match_id = (text or "").partition(".")
        digits = micros + match_id
        if not (micros and match_id and digits.isascii() and digits.isdigit()) or len(digits) > 30:
            return None
        try:
            return cls(EPOCH + timedelta(microseconds=int(micros)), int(match_id))
        except OverflowError:
            return None


@dataclass
class ListedSeat:
    name: str
    total: int
    won: bool


@dataclass
class ListedMatch:
    id: int
    rules: str
    state: str
    rounds: int
    rounds_played: int
    played_at: datetime
    seats: list[ListedSeat] = field(default_factory=list)
    house_rules: bool = False  # played with options that differ from the standard rules

    @property
    def finished(self) -> bool:
        return self.state == FINISHED

    @property
    def broken(self) -> bool:
        return self.state == BROKEN

    @property
    def winners(self) -> list[str]:
        return [seat.name for seat in self.seats if seat.won]


@dataclass
class MatchPage:
    matches: list[ListedMatch]
    older: Cursor | None  # the cursor of the next page down, if there is one
    newer: Cursor | None  # the cursor of the page above, if this is not the first


def match_page(
    table_id: int,
    filters: Filters = Filters(),
    *,
    before: Cursor | None = None,
    after: Cursor | None = None,
    size: int = PAGE_SIZE,
) -> MatchPage:
    """One page of the table's matches, newest first: two queries.

    Deleted matches are left out; archived ones are listed only with ``archived``.
    """
    summary = MatchSummary
    query = sa.select(summary).where(
        summary.table_id == table_id,
        summary.deleted.is_(False),
        summary.archived.is_(filters.archived),
    )
    if filters.rules:
        query = query.where(summary.rules == filters.rules)
    if filters.state:
        query = query.where(summary.state == filters.state)
    query = query.where(*filters.period(summary.last_played_at))
    if filters.player_id is not None:
        query = query.where(
            sa.exists().where(
                SeatSummary.match_id == summary.match_id,
                SeatSummary.player_id == filters.player_id,
            )
        )
    key = sa.tuple_(summary.last_played_at, summary.match_id)
    newest_first = after is None
    if before is not None:
        query = query.where(key < sa.tuple_(before.played_at, before.match_id))
    if after is not None:
        query = query.where(key > sa.tuple_(after.played_at, after.match_id))
    order = (summary.last_played_at, summary.match_id)
    query = query.order_by(*(column.desc() for column in order) if newest_first else order)
    rows = list(db.session.scalars(query.limit(size + 1)))
    more = len(rows) > size
    rows = rows[:size]
    if not newest_first:
        rows.reverse()
    matches = [
        ListedMatch(
            row.match_id,
            row.rules,
            row.state,
            row.rounds,
            row.rounds_played,
            row.last_played_at,
        )
        for row in rows
    ]
    _add_seats(matches)
    _mark_house_rules(matches)
    cursors = [Cursor(m.played_at, m.id) for m in matches]
    if newest_first:
        older = cursors[-1] if more else None
        newer = cursors[0] if before is not None and cursors else None
    else:
        older = cursors[-1] if cursors else None
        newer = cursors[0] if more else None
    return MatchPage(matches, older, newer)


def archived_count(table_id: int) -> int:
    """How many of the table's matches are archived (and not deleted)."""
    summary = MatchSummary
    return int(
        db.session.scalar(
            sa.select(sa.func.count()).where(
                summary.table_id == table_id,
                summary.archived.is_(True),
                summary.deleted.is_(False),
            )
        )
        or 0
    )


def _mark_house_rules(matches: list[ListedMatch]) -> None:
    from referee.web.show.houserules import with_house_rules

    marked = with_house_rules(match.id for match in matches)
    for match in matches:
        match.house_rules = match.id in marked


def _add_seats(matches: list[ListedMatch]) -> None:
    by_id = {match.id: match for match in matches}
    if not by_id:
        return
    rows = db.session.execute(
        sa.select(SeatSummary.match_id, Player.name, SeatSummary.total, SeatSummary.won)
        .join(Player, Player.id == SeatSummary.player_id)
        .where(SeatSummary.match_id.in_(by_id))
        .order_by(SeatSummary.match_id, SeatSummary.seat)
    )
    for row in rows:
        by_id[row.match_id].seats.append(ListedSeat(row.name, row.total, row.won))


# -- statistics --------------------------------------------------------------------------------

SUMMED = SUMMED_FIGURES


@dataclass
class Figures:
    """A player's figures over some matches of one ruleset (or of all, ``rules`` None)."""

    rules: str | None
    player_id: int
    name: str
    matches: int = 0
    finished: int = 0
    won: int = 0
    rounds: int = 0
    rounds_won: int = 0
    points: int = 0
    points_won: int = 0
    at_once: int = 0
    knocks: int = 0
    gins: int = 0
    gins_against: int = 0
    undercuts: int = 0
    undercuts_against: int = 0
    went_out: int = 0
    buys: int = 0
    contracts: int = 0
    best_round: int | None = None
    best_at: tuple[int, int] | None = None  # match id, round number
    longest_streak: int = 0
    last_played: datetime | None = None

    @property
    def win_rate(self) -> float | None:
        """Matches won out of finished matches, 0 to 1 (None before any finished)."""
        return self.won / self.finished if self.finished else None

    @property
    def penalty_points(self) -> bool:
        """The figures of a game whose lowest total leads (the engine's answer): a round's
        winner scores nothing there, and the highest round score is the worst."""
        return self.rules is not None and _lowest_leads(self.rules)

    @property
    def points_per_round_won(self) -> float | None:
        """The points a round won brings, on average; none where the lowest total leads (a
        round's winner scores nothing there: the figure would say nothing)."""
        if self.penalty_points or not self.rounds_won:
            return None
        return self.points_won / self.rounds_won

    @property
    def best_round_shown(self) -> int | None:
        """The best round's score: the highest, or where the lowest total leads the lowest
        penalty (kept negated, :func:`ranked_round`).  Over every ruleset at once a penalty
        game's best round is no score to compare: only a game's where the highest wins."""
        if self.rules is None:
            return self.best_round if self.best_round is None or self.best_round >= 0 else None
        return round_of_rank(self.best_round, self.penalty_points)


@lru_cache(maxsize=64)
def _lowest_leads(rules: str) -> bool:
    try:
        return lowest_leads(find_ruleset(rules))
    except RefereeError:
        return False


def _counted(table_id: int, filters: Filters) -> list[Any]:
    conditions = [
        SeatSummary.table_id == table_id,
        SeatSummary.counted.is_(True),
        *filters.period(SeatSummary.last_played_at),
    ]
    if filters.rules:
        conditions.append(SeatSummary.rules == filters.rules)
    if filters.player_id is not None:
        conditions.append(SeatSummary.player_id == filters.player_id)
    if filters.match_ids is not None:
        conditions.append(SeatSummary.match_id.in_(sorted(filters.match_ids)))
    return conditions


def _fill(figures: Figures, row: Any) -> Figures:
    figures.matches = row.matches
    figures.finished = int(row.finished or 0)
    figures.won = int(row.won or 0)
    for name in SUMMED:
        setattr(figures, name, int(getattr(row, name) or 0))
    figures.best_round = row.best_round
    figures.last_played = row.last_played_at
    return figures


def _add_row(found: dict[Any, Figures], key: Any, row: Any, name: str) -> Figures:
    """Add a row of summed figures (one part of a period) to the figures of ``key``."""
    figures = found.get(key)
    if figures is None:
        figures = found[key] = Figures(key[0], key[1], name)
    figures.matches += int(row.matches or 0)
    figures.finished += int(row.finished or 0)
    figures.won += int(row.won or 0)
    for name_ in (*SUMMED, *ROUND_FIGURES):
        setattr(figures, name_, getattr(figures, name_) + int(getattr(row, name_) or 0))
    if row.best_round is not None and (
        figures.best_round is None or row.best_round > figures.best_round
    ):
        figures.best_round = row.best_round
    if row.last_played_at is not None and (
        figures.last_played is None or as_utc(row.last_played_at) > as_utc(figures.last_played)
    ):
        figures.last_played = row.last_played_at
    return figures


def _seat_sums() -> list[Any]:
    """A player's figures summed over seat rows (the three replayed figures too)."""
    seat = SeatSummary
    return [*total_columns(), *(sa.func.sum(getattr(seat, n)).label(n) for n in ROUND_FIGURES)]


def _month_sums() -> list[Any]:
    """A player's figures summed over their months."""
    month = PlayerMonth
    added = ("matches", "finished", "won", *SUMMED, *ROUND_FIGURES)
    return [
        *(sa.func.sum(getattr(month, name)).label(name) for name in added),
        sa.func.max(month.best_round).label("best_round"),
        sa.func.max(month.last_played_at).label("last_played_at"),
    ]


@dataclass(frozen=True)
class Span:
    """A period as read: the whole months in it, from the aggregates (``months``: the first
    and last, None for no bound; None for no whole month), and the days at its ends outside
    them, each from the summaries of those days (``edges``, at most a month each)."""

    months: tuple[str | None, str | None] | None
    edges: tuple[Filters, ...]
    # Which edge comes before the months (for the order of the streaks).
    before: Filters | None = None


def _span(filters: Filters) -> Span:
    since, until = filters.since, filters.until
    first = last = None
    before = after = None
    if since is not None:
        if since.day == 1:
            first = f"{since:%Y-%m}"
        else:
            first = aggregates.next_month(f"{since:%Y-%m}")
            before = replace(filters, until=aggregates.month_start(first).date() - timedelta(1))
    if until is not None:
        following = until + timedelta(days=1)
        if following.day == 1:
            last = f"{until:%Y-%m}"
        else:
            start = date(until.year, until.month, 1)
            last = f"{start - timedelta(days=1):%Y-%m}"
            after = replace(filters, since=start)
    if first is not None and last is not None and first > last:
        return Span(None, (filters,), filters)
    return Span((first, last), tuple(e for e in (before, after) if e is not None), before)


def _in_months(column: Any, months: tuple[str | None, str | None]) -> list[Any]:
    first, last = months
    return [
        *([column >= first] if first is not None else []),
        *([column <= last] if last is not None else []),
    ]


def _best_rounds(table_id: int, filters: Filters, best: Iterable[Figures]) -> None:
    """Where each player's highest round of each ruleset was scored (the first time).

    One statement: for each player and ruleset, the first row holding that best
    score, found through the statistics index (a lookup each, not a scan).
    """
    best = [figures for figures in best if figures.best_round is not None]
    if not best:
        return
    statement = _best_round_statement(
        len(best), filters.since is not None, filters.until is not None
    )
    values: dict[str, Any] = {"table_id": table_id}
    if filters.since is not None:
        values["since"] = datetime.combine(filters.since, time(), UTC)
    if filters.until is not None:
        values["until"] = datetime.combine(filters.until + timedelta(days=1), time(), UTC)
    for index, figures in enumerate(best):
        values |= {
            f"p{index}": figures.player_id,
            f"r{index}": figures.rules,
            f"b{index}": figures.best_round,
        }
    found = {
        (row.player_id, row.rules): (row.match_id, row.best_round_number)
        for row in db.session.execute(statement, values)
    }
    for figures in best:
        figures.best_at = found.get((figures.player_id, str(figures.rules)))


@lru_cache(maxsize=64)
def _best_round_statement(
    count: int, since: bool, until: bool
) -> sa.CompoundSelect[*tuple[Any, ...]]:
    """The lookups of ``_best_rounds`` for ``count`` players and rulesets, built once."""
    summary = SeatSummary
    parts = []
    for index in range(count):
        part = sa.select(
            summary.player_id, summary.rules, summary.match_id, summary.best_round_number
        ).where(
            summary.table_id == sa.bindparam("table_id"),
            summary.player_id == sa.bindparam(f"p{index}"),
            summary.rules == sa.bindparam(f"r{index}"),
            summary.best_round == sa.bindparam(f"b{index}"),
            summary.counted.is_(True),
        )
        if since:
            part = part.where(summary.last_played_at >= sa.bindparam("since"))
        if until:
            part = part.where(summary.last_played_at < sa.bindparam("until"))
        subquery = part.order_by(summary.last_played_at, summary.match_id).limit(1).subquery()
        parts.append(sa.select(subquery))
    return sa.union_all(*parts)


@dataclass
class RulesetGroup:
    """One ruleset's matches at the table and its players' figures."""

    rules: str
    matches: int = 0
    finished: int = 0
    players: list[Figures] = field(default_factory=list)

    def shows(self, figure: str) -> bool:
        """Whether a figure is worth a column: somebody at the table has one."""
        return any(getattr(player, figure) for player in self.players)


@dataclass
class TableStatistics:
    groups: list[RulesetGroup]
    broken: int

    @property
    def matches(self) -> int:
        return sum(group.matches for group in self.groups)

    @property
    def finished(self) -> int:
        return sum(group.finished for group in self.groups)


def table_statistics(
    table_id: int, filters: Filters = Filters(), *, scanned: bool = False
) -> TableStatistics:
    """Every player's figures per ruleset at a table: the whole months of the period from
    the aggregates kept by month, the days at its ends (and a chosen set of matches, or
    everything when ``scanned``: the check of the aggregates) from the summaries."""
    if scanned or filters.match_ids is not None:
        span = Span(None, (filters,))
    else:
        span = _span(filters)
    counts: dict[str, list[int]] = {}  # ruleset: [matches, finished]
    found: dict[Any, Figures] = {}
    broken = 0
    if span.months is not None:
        broken += _table_months(table_id, filters, span.months, counts)
        month = PlayerMonth
        rows = db.session.execute(
            sa.select(month.rules, month.player_id, Player.name, *_month_sums())
            .join(Player, Player.id == month.player_id)
            .where(
                month.table_id == table_id,
                month.rules == filters.rules if filters.rules else month.rules != EVERY_RULESET,
                *_in_months(month.month, span.months),
            )
            .group_by(month.rules, month.player_id, Player.name)
        )
        for row in rows:
            _add_row(found, (row.rules, row.player_id), row, row.name)
    for edge in span.edges:
        broken += _table_matches(table_id, edge, counts)
        rows = db.session.execute(
            sa.select(SeatSummary.rules, SeatSummary.player_id, Player.name, *_seat_sums())
            .join(Player, Player.id == SeatSummary.player_id)
            .where(*_counted(table_id, edge))
            .group_by(SeatSummary.rules, SeatSummary.player_id, Player.name)
        )
        for row in rows:
            _add_row(found, (row.rules, row.player_id), row, row.name)
    groups: dict[str, RulesetGroup] = {
        rules: RulesetGroup(rules, matches, finished)
        for rules, (matches, finished) in counts.items()
        if matches
    }
    every = list(found.values())
    for figures in every:
        groups.setdefault(str(figures.rules), RulesetGroup(str(figures.rules))).players.append(
            figures
        )
    _best_rounds(table_id, filters, every)
    for group in groups.values():
        group.players.sort(key=lambda p: (-p.won, -p.rounds_won, p.name))
    ordered = sorted(groups.values(), key=lambda group: (-group.matches, menu_place(group.rules)))
    return TableStatistics(ordered, broken)


def _table_months(
    table_id: int,
    filters: Filters,
    months: tuple[str | None, str | None],
    counts: dict[str, list[int]],
) -> int:
    """Add the matches of whole months to ``counts``; the broken ones among them."""
    month = TableMonth
    conditions = [month.table_id == table_id, *_in_months(month.month, months)]
    if filters.rules:
        conditions.append(month.rules == filters.rules)
    broken = 0
    for row in db.session.execute(
        sa.select(
            month.rules,
            sa.func.sum(month.matches).label("matches"),
            sa.func.sum(month.finished).label("finished"),
            sa.func.sum(month.broken).label("broken"),
        )
        .where(*conditions)
        .group_by(month.rules)
    ):
        found = counts.setdefault(row.rules, [0, 0])
        found[0] += int(row.matches or 0)
        found[1] += int(row.finished or 0)
        broken += int(row.broken or 0)
    return broken


def _table_matches(table_id: int, filters: Filters, counts: dict[str, list[int]]) -> int:
    """Add the matches of a part of the period (or a set of matches) to ``counts``, from
    their summaries; the broken ones among them."""
    summary = MatchSummary
    conditions = [
        summary.table_id == table_id,
        summary.deleted.is_(False),
        *filters.period(summary.last_played_at),
    ]
    if filters.rules:
        conditions.append(summary.rules == filters.rules)
    if filters.match_ids is not None:
        conditions.append(summary.match_id.in_(sorted(filters.match_ids)))
    rows = db.session.execute(
        sa.select(summary.rules, summary.state, sa.func.count().label("matches"))
        .where(*conditions, sa.or_(summary.rounds_played > 0, summary.state == BROKEN))
        .group_by(summary.rules, summary.state)
    )
    broken = 0
    for row in rows:
        if row.state == BROKEN:
            broken += row.matches
            continue
        found = counts.setdefault(row.rules, [0, 0])
        found[0] += row.matches
        if row.state == FINISHED:
            found[1] += row.matches
    return broken


@dataclass
class Period:
    """A stretch of time on the results chart: matches played and won in it."""

    start: date
    label: str
    played: int = 0
    won: int = 0


@dataclass
class PlayerStatistics:
    player: Player
    overall: Figures
    by_rules: list[Figures]
    periods: list[Period]
    step: str  # "month", "quarter" or "year": the length of each period


def player_statistics(
    table_id: int, player: Player, filters: Filters = Filters(), *, scanned: bool = False
) -> PlayerStatistics:
    """One player's figures per ruleset and overall, and their results over time: whole
    months from the aggregates, the days at the period's ends (everything when
    ``scanned``) from the summaries."""
    filters = Filters(player.id, filters.rules, None, filters.since, filters.until)
    span = Span(None, (filters,), filters) if scanned else _span(filters)
    found: dict[Any, Figures] = {}
    by_month: dict[str, list[int]] = {}  # "YYYY-MM": [played, won]
    # The streak pieces in the order played, per ruleset and (None) across them.
    pieces: dict[str | None, list[tuple[int, aggregates.Streak]]] = {}
    if span.before is not None:
        _edge_figures(table_id, span.before, found, by_month, pieces, 0)
    if span.months is not None:
        _month_figures(table_id, player, filters, span.months, found, by_month, pieces)
    for edge in span.edges:
        if edge is not span.before:
            _edge_figures(table_id, edge, found, by_month, pieces, 2)
    by_rules = list(found.values())
    for figures in by_rules:
        figures.name = player.name
    by_rules.sort(key=lambda figures: (-figures.matches, menu_place(figures.rules)))
    _best_rounds(table_id, filters, by_rules)
    streaks = {rules: _joined(parts).longest for rules, parts in pieces.items()}
    for figures in by_rules:
        figures.longest_streak = streaks.get(figures.rules, 0)
    overall = _overall(player, by_rules)
    overall.longest_streak = streaks.get(None, 0)
    months = [(month, by_month[month][0], by_month[month][1]) for month in sorted(by_month)]
    periods, step = _periods([month for month in months if month[1]])
    return PlayerStatistics(player, overall, by_rules, periods, step)


def _joined(parts: list[tuple[int, aggregates.Streak]]) -> aggregates.Streak:
    joined = aggregates.Streak()
    for _place, piece in sorted(parts, key=lambda part: part[0]):
        joined = joined.then(piece)
    return joined


def _month_figures(
    table_id: int,
    player: Player,
    filters: Filters,
    months: tuple[str | None, str | None],
    found: dict[Any, Figures],
    by_month: dict[str, list[int]],
    pieces: dict[str | None, list[tuple[int, aggregates.Streak]]],
) -> None:
    """A player's whole months, from the aggregates: their figures per ruleset, each
    month's matches played and won, and the streak pieces."""
    month = PlayerMonth
    chosen = month.rules == filters.rules if filters.rules else month.rules != EVERY_RULESET
    where = [month.table_id == table_id, month.player_id == player.id]
    where += _in_months(month.month, months)
    for row in db.session.execute(
        sa.select(month.rules, *_month_sums()).where(*where, chosen).group_by(month.rules)
    ):
        _add_row(found, (row.rules, player.id), row, player.name)
    overall = filters.rules or EVERY_RULESET
    rows = db.session.execute(
        sa.select(
            month.rules,
            month.month,
            month.matches,
            month.won,
            month.streak_matches,
            month.streak_first,
            month.streak_last,
            month.streak_longest,
        )
        .where(*where, sa.or_(chosen, month.rules == overall))
        .order_by(month.month)
    )
    for row in rows:
        piece = aggregates.Streak.of_row(row)
        if row.rules == overall:
            counted = by_month.setdefault(row.month, [0, 0])
            counted[0] += row.matches
            counted[1] += row.won
            pieces.setdefault(None, []).append((1, piece))
        if row.rules != EVERY_RULESET and piece.matches:
            pieces.setdefault(row.rules, []).append((1, piece))


# What of a player's seat rows at an end of a period their figures there are made of.
EDGE_COLUMNS = ("rules", *aggregates.SEAT_SUMS, "best_round", "last_played_at")


def _edge_figures(
    table_id: int,
    edge: Filters,
    found: dict[Any, Figures],
    by_month: dict[str, list[int]],
    pieces: dict[str | None, list[tuple[int, aggregates.Streak]]],
    place: int,
) -> None:
    """A player's days at an end of the period (or all of it), from the summaries: their
    seat rows there read once, in the order played (an end is at most a month's days), for
    their figures per ruleset, their matches by month and their streak pieces."""
    seat = SeatSummary
    rows = db.session.execute(
        sa.select(*(getattr(seat, name) for name in EDGE_COLUMNS))
        .where(*_counted(table_id, edge))
        .order_by(seat.last_played_at, seat.match_id)
    ).all()
    sums: dict[str, dict[str, Any]] = {}
    won_in_order: dict[str | None, list[bool]] = {None: []}
    for row in rows:
        aggregates.add_seat(sums.setdefault(row.rules, aggregates.new_figures()), row)
        counted = by_month.setdefault(aggregates.month_of(row.last_played_at), [0, 0])
        counted[0] += 1
        counted[1] += bool(row.won)
        if row.finished:
            won_in_order[None].append(bool(row.won))
            won_in_order.setdefault(row.rules, []).append(bool(row.won))
    for ruleset, figures in sums.items():
        _add_row(found, (ruleset, edge.player_id), SimpleNamespace(**figures), "")
    for streak_of, flags in won_in_order.items():
        pieces.setdefault(streak_of, []).append((place, aggregates.Streak.of(flags)))


def _overall(player: Player, by_rules: list[Figures]) -> Figures:
    """The counts over every ruleset (points are on each ruleset's own scale: not added up)."""
    overall = Figures(None, player.id, player.name)
    for figures in by_rules:
        for name in ("matches", "finished", "won", "rounds", "rounds_won"):
            setattr(overall, name, getattr(overall, name) + getattr(figures, name))
        if figures.last_played is not None and (
            overall.last_played is None or figures.last_played > overall.last_played
        ):
            overall.last_played = figures.last_played
    return overall


PERIODS_SHOWN = 18


def _periods(months: Sequence[tuple[str, int, int]]) -> tuple[list[Period], str]:
    """Matches played and won per month (per quarter or year over a longer time).

    ``months``: ("YYYY-MM", played, won), in order.
    """
    if not months:
        return [], "month"
    first, last = _month(months[0][0]), _month(months[-1][0])
    count = (last.year - first.year) * 12 + last.month - first.month + 1
    step, length = "month", 1
    if count > PERIODS_SHOWN:
        step, length = "quarter", 3
    if count > PERIODS_SHOWN * 3:
        step, length = "year", 12
    periods: dict[date, Period] = {}
    for text, played, won in months:
        day = _month(text)
        start = date(day.year, (day.month - 1) // length * length + 1, 1)
        if start not in periods:
            periods[start] = Period(start, _period_label(start, step))
        periods[start].played += played
        periods[start].won += won
    return list(periods.values()), step


def _month(text: str) -> date:
    return date(int(text[:4]), int(text[5:7]), 1)


def _period_label(start: date, step: str) -> str:
    if step == "year":
        return str(start.year)
    if step == "quarter":
        return f"{start.year} Q{(start.month - 1) // 3 + 1}"
    return f"{start.year}-{start.month:02d}"


# -- head-to-head ------------------------------------------------------------------------------


@dataclass
class Rivalry:
    """Two players over the matches they both sat in (one ruleset, or all with ``rules`` None)."""

    rules: str | None
    matches: int = 0
    finished: int = 0
    won: tuple[int, int] = (0, 0)
    ahead: tuple[int, int] = (0, 0)  # finished in the better place of the two
    rounds_won: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)


@dataclass
class SharedMatch:
    match_id: int
    rules: str
    played_at: datetime
    finished: bool
    totals: tuple[int, int]
    won: tuple[bool, bool]


@dataclass
class HeadToHead:
    first: Player
    second: Player
    overall: Rivalry
    by_rules: list[Rivalry]
    recent: list[SharedMatch]


# The two seats of a pair, aliased once: an alias made anew costs its columns' adaptation
# again in every statement (some milliseconds each, for every pair of every page).
_MINE = aliased(SeatSummary, name="mine")
_THEIRS = aliased(SeatSummary, name="theirs")


def head_to_head(
    table_id: int,
    first: Player,
    second: Player,
    filters: Filters = Filters(),
    *,
    scanned: bool = False,
) -> HeadToHead:
    """Two players over the matches they both played: whole months from the aggregates,
    the days at the period's ends (everything when ``scanned``) from the summaries."""
    mine, theirs = _MINE, _THEIRS
    joined = sa.and_(theirs.match_id == mine.match_id, theirs.player_id == second.id)
    span = Span(None, (filters,)) if scanned else _span(filters)
    found: dict[str, Rivalry] = {}
    if span.months is not None:
        pair = PairMonth
        conditions = [
            pair.table_id == table_id,
            pair.player_id == first.id,
            pair.other_id == second.id,
            *_in_months(pair.month, span.months),
        ]
        if filters.rules:
            conditions.append(pair.rules == filters.rules)
        summed = (
            ("matches", pair.matches),
            ("finished", pair.finished),
            ("won_first", pair.won),
            ("won_second", pair.other_won),
            ("ahead_first", pair.ahead),
            ("ahead_second", pair.other_ahead),
            ("rounds_first", pair.rounds_won),
            ("rounds_second", pair.other_rounds_won),
            ("points_first", pair.points),
            ("points_second", pair.other_points),
        )
        rows = db.session.execute(
            sa.select(pair.rules, *(sa.func.sum(column).label(n) for n, column in summed))
            .where(*conditions)
            .group_by(pair.rules)
        )
        for row in rows:
            _add_rivalry(found, row)
    for edge in span.edges:
        for row in _shared_figures(table_id, first, edge, mine, theirs, joined):
            _add_rivalry(found, row)
    by_rules = [rivalry for rivalry in found.values() if rivalry.matches]
    by_rules.sort(key=lambda rivalry: (-rivalry.matches, menu_place(rivalry.rules)))
    overall = Rivalry(None)
    for rivalry in by_rules:
        overall.matches += rivalry.matches
        overall.finished += rivalry.finished
        overall.won = _add(overall.won, rivalry.won)
        overall.ahead = _add(overall.ahead, rivalry.ahead)
        overall.rounds_won = _add(overall.rounds_won, rivalry.rounds_won)
    conditions = _shared(table_id, first, filters, mine)
    recent = [
        SharedMatch(
            row.match_id,
            row.rules,
            row.last_played_at,
            row.finished,
            (row.total_first, row.total_second),
            (row.won_first, row.won_second),
        )
        for row in db.session.execute(
            sa.select(
                mine.match_id,
                mine.rules,
                mine.last_played_at,
                mine.finished,
                mine.total.label("total_first"),
                theirs.total.label("total_second"),
                mine.won.label("won_first"),
                theirs.won.label("won_second"),
            )
            .join(theirs, joined)
            .where(*conditions)
            .order_by(mine.last_played_at.desc(), mine.match_id.desc())
            .limit(RECENT_TOGETHER)
        )
    ]
    return HeadToHead(first, second, overall, by_rules, recent)


def _shared(table_id: int, first: Player, filters: Filters, mine: Any) -> list[Any]:
    conditions = [
        mine.table_id == table_id,
        mine.player_id == first.id,
        mine.counted.is_(True),
        *filters.period(mine.last_played_at),
    ]
    if filters.rules:
        conditions.append(mine.rules == filters.rules)
    return conditions


def _shared_figures(
    table_id: int, first: Player, filters: Filters, mine: Any, theirs: Any, joined: Any
) -> Any:
    """The pair's figures per ruleset over a part of the period, from the summaries."""
    as_int = sa.Integer
    finished = mine.finished.is_(True)
    return db.session.execute(
        sa.select(
            mine.rules,
            sa.func.count().label("matches"),
            sa.func.sum(sa.cast(mine.finished, as_int)).label("finished"),
            sa.func.sum(sa.cast(mine.won, as_int)).label("won_first"),
            sa.func.sum(sa.cast(theirs.won, as_int)).label("won_second"),
            sa.func.sum(sa.case((sa.and_(finished, mine.place < theirs.place), 1), else_=0)).label(
                "ahead_first"
            ),
            sa.func.sum(sa.case((sa.and_(finished, theirs.place < mine.place), 1), else_=0)).label(
                "ahead_second"
            ),
            sa.func.sum(mine.rounds_won).label("rounds_first"),
            sa.func.sum(theirs.rounds_won).label("rounds_second"),
            sa.func.sum(mine.points).label("points_first"),
            sa.func.sum(theirs.points).label("points_second"),
        )
        .join(theirs, joined)
        .where(*_shared(table_id, first, filters, mine))
        .group_by(mine.rules)
    )


def _add_rivalry(found: dict[str, Rivalry], row: Any) -> None:
    rivalry = found.setdefault(row.rules, Rivalry(row.rules))
    rivalry.matches += int(row.matches or 0)
    rivalry.finished += int(row.finished or 0)
    rivalry.won = _add(rivalry.won, (int(row.won_first or 0), int(row.won_second or 0)))
    rivalry.ahead = _add(rivalry.ahead, (int(row.ahead_first or 0), int(row.ahead_second or 0)))
    rivalry.rounds_won = _add(
        rivalry.rounds_won, (int(row.rounds_first or 0), int(row.rounds_second or 0))
    )
    rivalry.points = _add(rivalry.points, (int(row.points_first or 0), int(row.points_second or 0)))


def _add(left: tuple[int, int], right: tuple[int, int]) -> tuple[int, int]:
    return (left[0] + right[0], left[1] + right[1])
