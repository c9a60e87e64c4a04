"""A table's history from the stored summaries: the match list, statistics and head-to-head.

Nothing here replays a match: every figure is read from the summaries that
:mod:`referee.web.store.summary` keeps with each match, in a few queries whatever
the table's size.  The match list is paged by a cursor (the last match shown),
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
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.functions import FunctionElement

from referee.rulesets import RULESETS
from referee.web.show import replayed
from referee.web.store import matchlog
from referee.web.store.extensions import db
from referee.web.store.models import (
    SUMMED_FIGURES,
    Match,
    MatchSummary,
    Player,
    PlayerTotal,
    SeatSummary,
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


class utc_month(FunctionElement[str]):
    """The month of a stored time, "YYYY-MM", in UTC, computed by the database."""

    type = sa.String()
    inherit_cache = True


@compiles(utc_month)
def _utc_month_sqlite(element: utc_month, compiler: Any, **kw: Any) -> str:
    # SQLite keeps times as UTC text, "YYYY-MM-DD HH:MM:SS.ffffff".
    return f"substr({compiler.process(element.clauses, **kw)}, 1, 7)"


@compiles(utc_month, "postgresql")
def _utc_month_postgresql(element: utc_month, compiler: Any, **kw: Any) -> str:
    return f"to_char(({compiler.process(element.clauses, **kw)}) AT TIME ZONE 'UTC', 'YYYY-MM')"


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
    def points_per_round_won(self) -> float | None:
        return self.points_won / self.rounds_won if self.rounds_won else None


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


ROUND_FIGURES = ("went_out", "buys", "contracts")


def _round_figures(table_id: int, filters: Filters, rules: str, players: list[Figures]) -> None:
    """rummy500 and contract: who went out, bought discards and made the deal's contract, from
    the counted matches replayed (kept by version); the other rulesets have none of these."""
    ruleset = RULESETS.get(rules)
    if not players or ruleset is None or not ruleset.round_form.table:
        return
    conditions = [*_counted(table_id, filters), SeatSummary.rules == rules]
    wanted = db.session.execute(
        sa.select(SeatSummary.match_id, Match.version)
        .join(Match, Match.id == SeatSummary.match_id)
        .where(*conditions)
        .distinct()
    ).all()
    by_name = {figures.name: figures for figures in players}
    counted = replayed.figures_by_match("rounds", table_id, wanted, _match_round_figures)
    for by_player in counted.values():
        for name, found in by_player.items():
            figures = by_name.get(name)
            if figures is not None:
                for figure, value in zip(ROUND_FIGURES, found, strict=True):
                    setattr(figures, figure, getattr(figures, figure) + value)


def _match_round_figures(match: Match) -> dict[str, tuple[int, int, int]]:
    """Each player's rounds gone out, discards bought and contracts made in one match, by name,
    in the order of ``ROUND_FIGURES``."""
    state = matchlog.outlook(match).state
    if state is None:
        return {}
    found: dict[str, tuple[int, int, int]] = {}
    for result in state.rounds:
        if result.is_void:
            continue
        for name in result.scores:
            went_out, buys, contracts = found.get(name, (0, 0, 0))
            found[name] = (
                went_out + (result.went_out == name),
                buys + _buys(result, name),
                contracts + _made_contract(state.rules, result, name),
            )
    return found


def _buys(result: Any, name: str) -> int:
    """How many discards ``name`` bought in a round entered turn by turn (contract)."""
    turns = result.record.turns if result.record is not None else None
    return sum(1 for turn in turns or () if turn.buy is not None and turn.buy.player == name)


def _made_contract(rules: Any, result: Any, name: str) -> bool:
    """Whether ``name`` went down with the deal's contract (contract): a meld of theirs on the
    table, or going out (a final table given without its melds)."""
    if rules.contract is None:
        return False
    return result.went_out == name or any(meld.player == name for meld in result.table)


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


def table_statistics(table_id: int, filters: Filters = Filters()) -> TableStatistics:
    """Every player's figures per ruleset at a table: three queries."""
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
    counts = db.session.execute(
        sa.select(
            summary.rules,
            summary.state,
            sa.func.count().label("matches"),
        )
        .where(*conditions, sa.or_(summary.rounds_played > 0, summary.state == BROKEN))
        .group_by(summary.rules, summary.state)
    )
    groups: dict[str, RulesetGroup] = {}
    broken = 0
    for row in counts:
        if row.state == BROKEN:
            broken += row.matches
            continue
        group = groups.setdefault(row.rules, RulesetGroup(row.rules))
        group.matches += row.matches
        if row.state == FINISHED:
            group.finished += row.matches
    if filters.since is None and filters.until is None and filters.match_ids is None:
        # all time, every match: the totals kept
        kept = sa.select(PlayerTotal).where(PlayerTotal.table_id == table_id)
        if filters.rules:
            kept = kept.where(PlayerTotal.rules == filters.rules)
        grouped = kept.subquery()
    else:  # a period or some matches: added up from each match's row (the figures index)
        grouped = (
            sa.select(SeatSummary.rules, SeatSummary.player_id, *total_columns())
            .where(*_counted(table_id, filters))
            .group_by(SeatSummary.rules, SeatSummary.player_id)
            .subquery()
        )
    rows = db.session.execute(
        sa.select(grouped, Player.name).join(Player, Player.id == grouped.c.player_id)
    )
    every: list[Figures] = []
    for row in rows:
        figures = _fill(Figures(row.rules, row.player_id, row.name), row)
        every.append(figures)
        groups.setdefault(row.rules, RulesetGroup(row.rules)).players.append(figures)
    _best_rounds(table_id, filters, every)
    for group in groups.values():
        _round_figures(table_id, filters, group.rules, group.players)
        group.players.sort(key=lambda p: (-p.won, -p.rounds_won, p.name))
    ordered = sorted(groups.values(), key=lambda group: (-group.matches, menu_place(group.rules)))
    return TableStatistics(ordered, broken)


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
    table_id: int, player: Player, filters: Filters = Filters()
) -> PlayerStatistics:
    """One player's figures per ruleset and overall, and their results over time: three queries."""
    filters = Filters(player.id, filters.rules, None, filters.since, filters.until)
    where = _counted(table_id, filters)
    by_rules = [
        _fill(Figures(row.rules, player.id, player.name), row)
        for row in db.session.execute(
            sa.select(SeatSummary.rules, *total_columns()).where(*where).group_by(SeatSummary.rules)
        )
    ]
    by_rules.sort(key=lambda figures: (-figures.matches, menu_place(figures.rules)))
    _best_rounds(table_id, filters, by_rules)
    for figures in by_rules:
        _round_figures(table_id, filters, str(figures.rules), [figures])
    month = utc_month(SeatSummary.last_played_at)
    months = db.session.execute(
        sa.select(
            month.label("month"),
            sa.func.count().label("played"),
            sa.func.sum(sa.cast(SeatSummary.won, sa.Integer)).label("won"),
        )
        .where(*where)
        .group_by(month)
        .order_by(month)
    ).all()
    streaks = _longest_streaks(where)
    for figures in by_rules:
        figures.longest_streak = streaks.get(figures.rules, 0)
    overall = _overall(player, by_rules)
    overall.longest_streak = streaks.get(None, 0)
    periods, step = _periods([(row.month, row.played, int(row.won or 0)) for row in months])
    return PlayerStatistics(player, overall, by_rules, periods, step)


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


def _longest_streaks(where: Sequence[Any]) -> dict[str | None, int]:
    """The longest run of finished matches won, per ruleset and (key None) across them all.

    Reads two small columns of the player's finished matches, in the order played
    (from the figures index); the runs are counted here, faster than by window
    functions in SQLite.
    """
    rows = db.session.execute(
        sa.select(SeatSummary.rules, SeatSummary.won)
        .where(*where, SeatSummary.finished.is_(True))
        .order_by(SeatSummary.last_played_at, SeatSummary.match_id)
    ).all()
    by_rules: dict[str | None, list[bool]] = {None: [won for _rules, won in rows]}
    for rules, won in rows:
        by_rules.setdefault(rules, []).append(won)
    return {
        rules: max((len(list(run)) for won, run in groupby(flags) if won), default=0)
        for rules, flags in by_rules.items()
    }


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
    ahead: tuple[int, int] = (0, 0)  # finished with the higher total of the two
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


def head_to_head(
    table_id: int, first: Player, second: Player, filters: Filters = Filters()
) -> HeadToHead:
    """Two players over the matches they both played: two queries."""
    mine = aliased(SeatSummary)
    theirs = aliased(SeatSummary)
    conditions = [
        mine.table_id == table_id,
        mine.player_id == first.id,
        mine.counted.is_(True),
        *filters.period(mine.last_played_at),
    ]
    if filters.rules:
        conditions.append(mine.rules == filters.rules)
    joined = sa.and_(theirs.match_id == mine.match_id, theirs.player_id == second.id)
    as_int = sa.Integer
    finished = mine.finished.is_(True)
    rows = db.session.execute(
        sa.select(
            mine.rules,
            sa.func.count().label("matches"),
            sa.func.sum(sa.cast(mine.finished, as_int)).label("finished"),
            sa.func.sum(sa.cast(mine.won, as_int)).label("won_first"),
            sa.func.sum(sa.cast(theirs.won, as_int)).label("won_second"),
            sa.func.sum(sa.case((sa.and_(finished, mine.total > theirs.total), 1), else_=0)).label(
                "ahead_first"
            ),
            sa.func.sum(sa.case((sa.and_(finished, theirs.total > mine.total), 1), else_=0)).label(
                "ahead_second"
            ),
            sa.func.sum(mine.rounds_won).label("rounds_first"),
            sa.func.sum(theirs.rounds_won).label("rounds_second"),
            sa.func.sum(mine.points).label("points_first"),
            sa.func.sum(theirs.points).label("points_second"),
        )
        .join(theirs, joined)
        .where(*conditions)
        .group_by(mine.rules)
    )
    by_rules = [
        Rivalry(
            row.rules,
            row.matches,
            int(row.finished or 0),
            (int(row.won_first or 0), int(row.won_second or 0)),
            (int(row.ahead_first or 0), int(row.ahead_second or 0)),
            (int(row.rounds_first or 0), int(row.rounds_second or 0)),
            (int(row.points_first or 0), int(row.points_second or 0)),
        )
        for row in rows
    ]
    by_rules.sort(key=lambda rivalry: (-rivalry.matches, menu_place(rivalry.rules)))
    overall = Rivalry(None)
    for rivalry in by_rules:
        overall.matches += rivalry.matches
        overall.finished += rivalry.finished
        overall.won = _add(overall.won, rivalry.won)
        overall.ahead = _add(overall.ahead, rivalry.ahead)
        overall.rounds_won = _add(overall.rounds_won, rivalry.rounds_won)
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


def _add(left: tuple[int, int], right: tuple[int, int]) -> tuple[int, int]:
    return (left[0] + right[0], left[1] + right[1])
