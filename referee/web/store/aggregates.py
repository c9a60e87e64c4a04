"""Aggregates kept with the summaries: a table's figures by calendar month, so that the
statistics, a player's page and head-to-head read a few rows per month, however many
matches the table has played.

Three kinds, all recounted from the summary rows (:mod:`referee.web.store.summary`) in
the same transaction as every rewrite of them:

- :class:`PlayerMonth`: a player's counted matches of a ruleset in a month (and of every
  ruleset, ``rules`` :data:`EVERY_RULESET`): the sums of their seat rows and the month's
  piece of their winning streaks (:class:`Streak`);
- :class:`PairMonth`: two players over the month's matches they both sat in;
- :class:`TableMonth`: the table's matches of a ruleset in the month, played, finished and
  broken.

A rewrite of a match's summary recounts only the months it touches (the month the match
was last played in before and after), for the match's players, from those months' seat
rows (:func:`moved`): the cost is a month's matches of a few players, not the history.
Every writer holds its table's lock (:mod:`referee.web.store.writes`) before it rewrites
a summary, and a table's aggregates are only its own: two writes of one table's months
follow one another, each counting what the other committed.  A table imported is counted
in one pass (:func:`recount_table`); ``history check`` counts every table again and
compares (:func:`compare`), and ``--fix`` rebuilds them (:func:`rebuild`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import permutations
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from referee.web.store.manyrows import ManyRows
from referee.web.store.models import (
    EVERY_RULESET,
    ROUND_FIGURES,
    SUMMED_FIGURES,
    MatchSummary,
    PairMonth,
    PlayerMonth,
    SeatSummary,
    StatisticsVersion,
    TableMonth,
)

PLAYER_MONTHS = cast(sa.Table, PlayerMonth.__table__)
PAIR_MONTHS = cast(sa.Table, PairMonth.__table__)
TABLE_MONTHS = cast(sa.Table, TableMonth.__table__)
VERSIONS = cast(sa.Table, StatisticsVersion.__table__)
SEATS = cast(sa.Table, SeatSummary.__table__)
MATCH_SUMMARIES = cast(sa.Table, MatchSummary.__table__)

ADDED = (*SUMMED_FIGURES, *ROUND_FIGURES)
SEAT_READ = (
    *("match_id", "player_id", "rules", "counted", "finished", "won", "total"),
    *ADDED,
    *("best_round", "last_played_at", "place"),
)
PLAYER_KEY = ("table_id", "player_id", "rules", "month")
# Set on a connection while it migrates the database (``migrations/env.py``): the schema may be
# older than the models.
MIGRATING = "referee_migrating"
PAIR_KEY = ("table_id", "player_id", "other_id", "rules", "month")
TABLE_KEY = ("table_id", "rules", "month")
PLAYER_FIGURES = tuple(c.name for c in PLAYER_MONTHS.columns if c.name not in PLAYER_KEY)
PAIR_FIGURES = tuple(c.name for c in PAIR_MONTHS.columns if c.name not in PAIR_KEY)
TABLE_FIGURES = tuple(c.name for c in TABLE_MONTHS.columns if c.name not in TABLE_KEY)


def as_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def month_of(moment: datetime) -> str:
    """The calendar month (UTC) of a time, "YYYY-MM"."""
    return as_utc(moment).strftime("%Y-%m")


def month_start(month: str) -> datetime:
    return datetime(int(month[:4]), int(month[5:7]), 1, tzinfo=UTC)


def next_month(month: str) -> str:
    year, number = int(month[:4]), int(month[5:7])
    return f"{year + number // 12:04d}-{number % 12 + 1:02d}"


# -- winning streaks by pieces -------------------------------------------------------------------


@dataclass(frozen=True)
class Streak:
    """A stretch of finished matches in the order played, as much as its longest run of
    wins needs when stretches are joined: how many, the wins it starts and ends with, and
    its longest run (``then`` joins a later stretch; joining is associative)."""

    matches: int = 0
    first: int = 0
    last: int = 0
    longest: int = 0

    @classmethod
    def of(cls, won: Iterable[bool]) -> Streak:
        joined = cls()
        for flag in won:
            joined = joined.then(cls(1, 1, 1, 1) if flag else cls(1, 0, 0, 0))
        return joined

    def then(self, later: Streak) -> Streak:
        every_won = self.first == self.matches
        return Streak(
            self.matches + later.matches,
            self.matches + later.first if every_won else self.first,
            later.matches + self.last if later.first == later.matches else later.last,
            max(self.longest, later.longest, self.last + later.first),
        )

    @classmethod
    def of_row(cls, row: Any) -> Streak:
        return cls(row.streak_matches, row.streak_first, row.streak_last, row.streak_longest)


# -- counting from seat rows -----------------------------------------------------------------------


# What of a seat row is summed into a player's figures (beside the matches counted, the
# highest round and the last time played).
SEAT_SUMS = ("finished", "won", *ADDED)


def new_figures() -> dict[str, Any]:
    """A player's figures over no seat row yet (:func:`add_seat`)."""
    return dict.fromkeys(("matches", *SEAT_SUMS), 0) | {"best_round": None, "last_played_at": None}


def add_seat(figures: dict[str, Any], row: Any) -> None:
    """Count one seat row into a player's figures: its sums, the highest round, the last
    time played."""
    figures["matches"] += 1
    for name in SEAT_SUMS:
        figures[name] += int(getattr(row, name) or 0)
    if row.best_round is not None and (
        figures["best_round"] is None or row.best_round > figures["best_round"]
    ):
        figures["best_round"] = row.best_round
    if figures["last_played_at"] is None or as_utc(row.last_played_at) > as_utc(
        figures["last_played_at"]
    ):
        figures["last_played_at"] = row.last_played_at


def _new_player_month(key: tuple[Any, ...]) -> dict[str, Any]:
    figures: dict[str, Any] = dict(zip(PLAYER_KEY, key, strict=True))
    return figures | new_figures() | {"won_in_order": []}


def count(
    table_id: int, rows: Sequence[Any]
) -> tuple[dict[tuple[Any, ...], dict[str, Any]], dict[tuple[Any, ...], dict[str, Any]]]:
    """The player months and pair months of seat rows (:data:`SEAT_READ`, in the order
    played: by time last played, then match), by key.  Every row of a player's month must
    be given for that month to be right; a pair's, every row of both players."""
    players: dict[tuple[Any, ...], dict[str, Any]] = {}
    by_match: dict[int, list[Any]] = {}
    for row in rows:
        by_match.setdefault(row.match_id, []).append(row)
        if not row.counted:
            continue
        month = month_of(row.last_played_at)
        for rules in (row.rules, EVERY_RULESET):
            key: tuple[Any, ...] = (table_id, row.player_id, rules, month)
            figures = players.get(key)
            if figures is None:
                figures = players[key] = _new_player_month(key)
            add_seat(figures, row)
            if row.finished:
                figures["won_in_order"].append(bool(row.won))
    for figures in players.values():
        streak = Streak.of(figures.pop("won_in_order"))
        figures |= {
            "streak_matches": streak.matches,
            "streak_first": streak.first,
            "streak_last": streak.last,
            "streak_longest": streak.longest,
        }
    pairs: dict[tuple[Any, ...], dict[str, Any]] = {}
    for seated in by_match.values():
        for mine, theirs in permutations(seated, 2):
            if not mine.counted:
                continue
            month = month_of(mine.last_played_at)
            key = (table_id, mine.player_id, theirs.player_id, mine.rules, month)
            pair = pairs.get(key)
            if pair is None:
                pair = pairs[key] = dict(zip(PAIR_KEY, key, strict=True))
                pair |= dict.fromkeys(PAIR_FIGURES, 0)
            finished = bool(mine.finished)
            pair["matches"] += 1
            pair["finished"] += finished
            pair["won"] += bool(mine.won)
            pair["other_won"] += bool(theirs.won)
            pair["ahead"] += finished and ahead(mine, theirs)
            pair["other_ahead"] += finished and ahead(theirs, mine)
            pair["rounds_won"] += mine.rounds_won
            pair["other_rounds_won"] += theirs.rounds_won
            pair["points"] += mine.points
            pair["other_points"] += theirs.points
    return players, pairs


def ahead(mine: Any, theirs: Any) -> bool:
    """Whether seat row ``mine`` finished its match ahead of ``theirs``: a better place in the
    engine's standings (the lowest total first where it wins; partners share a place)."""
    mine_place, their_place = getattr(mine, "place", None), getattr(theirs, "place", None)
    if mine_place is None or their_place is None:  # a database being migrated to the places
        return bool(mine.total > theirs.total)
    return bool(mine_place < their_place)


def count_matches(table_id: int, rows: Iterable[Any]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The table months of match summary rows (rules, state, rounds_played, last_played_at;
    deleted ones left out by the caller)."""
    months: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        key = (table_id, row.rules, month_of(row.last_played_at))
        figures = months.get(key)
        if figures is None:
            figures = months[key] = dict(zip(TABLE_KEY, key, strict=True))
            figures |= dict.fromkeys(TABLE_FIGURES, 0)
        if row.state == "broken":
            figures["broken"] += 1
        elif row.rounds_played > 0:
            figures["matches"] += 1
            figures["finished"] += row.state == "finished"
    return {
        key: figures for key, figures in months.items() if any(figures[n] for n in TABLE_FIGURES)
    }


SEAT_ORDER = (SEATS.c.last_played_at, SEATS.c.match_id, SEATS.c.seat)
MONTH_SEATS = (
    sa.select(*(SEATS.c[name] for name in SEAT_READ))
    .where(
        SEATS.c.table_id == sa.bindparam("the_table"),
        SEATS.c.player_id.in_(sa.bindparam("the_players", expanding=True)),
        SEATS.c.last_played_at >= sa.bindparam("the_start"),
        SEATS.c.last_played_at < sa.bindparam("the_end"),
    )
    .order_by(*SEAT_ORDER)
)
MATCH_COUNTED = (
    MATCH_SUMMARIES.c.rules,
    MATCH_SUMMARIES.c.state,
    MATCH_SUMMARIES.c.rounds_played,
    MATCH_SUMMARIES.c.last_played_at,
)
MONTH_MATCHES = sa.select(*MATCH_COUNTED).where(
    MATCH_SUMMARIES.c.table_id == sa.bindparam("the_table"),
    MATCH_SUMMARIES.c.deleted.is_(False),
    MATCH_SUMMARIES.c.last_played_at >= sa.bindparam("the_start"),
    MATCH_SUMMARIES.c.last_played_at < sa.bindparam("the_end"),
)
PLAYER_MONTHS_REMOVED = sa.delete(PLAYER_MONTHS).where(
    PLAYER_MONTHS.c.table_id == sa.bindparam("the_table"),
    PLAYER_MONTHS.c.month == sa.bindparam("the_month"),
    PLAYER_MONTHS.c.player_id.in_(sa.bindparam("the_players", expanding=True)),
)
PAIR_MONTHS_REMOVED = sa.delete(PAIR_MONTHS).where(
    PAIR_MONTHS.c.table_id == sa.bindparam("the_table"),
    PAIR_MONTHS.c.month == sa.bindparam("the_month"),
    PAIR_MONTHS.c.player_id.in_(sa.bindparam("the_players", expanding=True)),
    PAIR_MONTHS.c.other_id.in_(sa.bindparam("the_others", expanding=True)),
)
TABLE_MONTH_REMOVED = sa.delete(TABLE_MONTHS).where(
    TABLE_MONTHS.c.table_id == sa.bindparam("the_table"),
    TABLE_MONTHS.c.month == sa.bindparam("the_month"),
)


def moved(
    connection: Connection, before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> None:
    """Move the aggregates of a match's seat rows from ``before`` to ``after`` (already
    written): by the difference, in place, when that is all that changed (a round more in a
    match not finished, the same month, no figure lower that a month keeps the highest of);
    else the months touched are recounted for its players, each from its own seat rows."""
    raise_version(connection, {row["table_id"] for row in (*before, *after)})
    ratings_moved(connection, before, after)
    if in_place(before, after) and _moved_in_place(connection, before, after):
        return
    recount_touched(connection, before, after)


VERSION_RAISED = (
    sa.update(VERSIONS)
    .where(VERSIONS.c.table_id == sa.bindparam("the_table"))
    .values(version=VERSIONS.c.version + 1)
)
VERSION_OF = sa.select(VERSIONS.c.version).where(VERSIONS.c.table_id == sa.bindparam("the_table"))


def raise_version(connection: Connection, tables: Iterable[int]) -> None:
    """Raise the statistics version of these tables (its row made at the first)."""
    for table_id in sorted(tables):
        if connection.execute(VERSION_RAISED, {"the_table": table_id}).rowcount == 0:
            connection.execute(sa.insert(VERSIONS), {"table_id": table_id, "version": 1})


def version_of(connection: Connection, table_id: int) -> int:
    """The statistics version of a table (0 before its first summary)."""
    return int(connection.execute(VERSION_OF, {"the_table": table_id}).scalar() or 0)


# -- what the ratings must work out again ------------------------------------------------------
#
# The ratings (:mod:`referee.web.show.ratings`) rate a table's finished, counted matches in
# the order of their order key, (last played, match id), and keep what they worked out by
# the table's ratings epoch.  A match that becomes rated after every other rated match of
# the table is read after the last one rated (no epoch raised); any other change of a rated
# match raises the epoch with the order key it applies from, the lower of the match's key
# before and after: what was rated before that key stays as it was.

RATINGS_RESTARTED = (
    sa.update(VERSIONS)
    .where(VERSIONS.c.table_id == sa.bindparam("the_table"))
    .values(
        ratings_epoch=VERSIONS.c.ratings_epoch + 1,
        ratings_from_played_at=sa.bindparam("the_played"),
        ratings_from_match=sa.bindparam("the_match"),
    )
)
# A rated match of the table after the order key given (another match than its own).
RATED_LATER = (
    sa.select(SEATS.c.match_id)
    .where(
        SEATS.c.table_id == sa.bindparam("the_table"),
        SEATS.c.last_played_at >= sa.bindparam("the_played"),
        sa.or_(
            SEATS.c.last_played_at > sa.bindparam("the_played"),
            SEATS.c.match_id > sa.bindparam("the_match"),
        ),
        SEATS.c.match_id != sa.bindparam("the_match"),
        SEATS.c.counted.is_(True),
        SEATS.c.finished.is_(True),
    )
    .limit(1)
)
RATINGS_OF = sa.select(
    VERSIONS.c.version,
    VERSIONS.c.ratings_epoch,
    VERSIONS.c.ratings_from_played_at,
    VERSIONS.c.ratings_from_match,
).where(VERSIONS.c.table_id == sa.bindparam("the_table"))


@dataclass(frozen=True)
class RatingsEpoch:
    """A table's statistics version, its ratings epoch and the order key the last raise of
    the epoch applies from (None: from the first match)."""

    version: int = 0
    epoch: int = 0
    applies_from: tuple[datetime, int] | None = None


def ratings_epoch_of(connection: Connection, table_id: int) -> RatingsEpoch:
    row = connection.execute(RATINGS_OF, {"the_table": table_id}).first()
    if row is None:
        return RatingsEpoch()
    applies_from = None
    if row.ratings_from_played_at is not None and row.ratings_from_match is not None:
        applies_from = (as_utc(row.ratings_from_played_at), int(row.ratings_from_match))
    return RatingsEpoch(int(row.version), int(row.ratings_epoch), applies_from)


def order_key(rows: Sequence[Mapping[str, Any]]) -> tuple[datetime, int]:
    """The order key a match is rated by, from its seat rows."""
    return max(as_utc(row["last_played_at"]) for row in rows), int(rows[0]["match_id"])


def _rated(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [row for row in rows if row["counted"] and row["finished"]]


def _as_rated(rows: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """What of a match's rated seat rows its ratings are made of."""
    return sorted(
        (
            row["table_id"],
            row["rules"],
            row["player_id"],
            row.get("seat"),
            bool(row["won"]),
            int(row["total"]),
            as_utc(row["last_played_at"]),
        )
        for row in rows
    )


def ratings_moved(
    connection: Connection, before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> None:
    """Raise the ratings epoch of the match's table when its rows ``before`` and ``after``
    (already written) change what is rated other than by a match rated after every other."""
    was, now_ = _rated(before), _rated(after)
    if not was and not now_:  # a match not finished, or not counted: nothing rated changes
        return
    if was and now_ and _as_rated(was) == _as_rated(now_):  # a rename, an archive
        return
    keys = [order_key(rows) for rows in (was, now_) if rows]
    if not was:
        played, match_id = keys[0]
        later = connection.execute(
            RATED_LATER,
            {"the_table": now_[0]["table_id"], "the_played": played, "the_match": match_id},
        ).first()
        if later is None:  # the usual end of a match: rated after all the others
            return
    played, match_id = min(keys)
    for table_id in sorted({row["table_id"] for row in (*was, *now_)}):
        restart_ratings(connection, table_id, (played, match_id))


def restart_ratings(
    connection: Connection, table_id: int, applies_from: tuple[datetime, int] | None
) -> None:
    """Raise a table's ratings epoch: what was rated from ``applies_from`` on (None: all of
    it) is rated again at the next view."""
    played, match_id = applies_from if applies_from is not None else (None, None)
    connection.execute(
        RATINGS_RESTARTED, {"the_table": table_id, "the_played": played, "the_match": match_id}
    )


def in_place(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the match's rows move only by sums: the same players, counted and not finished
    before and after (no streak, win or table count changes), in the same month, and the
    highest round and the last time played not lower."""
    old = {row["player_id"]: row for row in before}
    if not old or old.keys() != {row["player_id"] for row in after}:
        return False
    for new in after:
        was = old[new["player_id"]]
        if not (was["counted"] and new["counted"]) or was["finished"] or new["finished"]:
            return False
        if any(was[name] != new[name] for name in ("table_id", "rules")):
            return False
        if month_of(was["last_played_at"]) != month_of(new["last_played_at"]):
            return False
        if as_utc(new["last_played_at"]) < as_utc(was["last_played_at"]):
            return False
        if was["best_round"] is not None and (
            new["best_round"] is None or new["best_round"] < was["best_round"]
        ):
            return False
        if any(name not in was for name in ADDED):
            return False
    return True


_PLAYER = PLAYER_MONTHS.c


def _player_month_moved(value: Callable[[str], Any]) -> sa.Update:
    new_best, new_last = value("new_best"), value("new_last")
    return (
        sa.update(PLAYER_MONTHS)
        .where(*(_PLAYER[name] == value(f"the_{name}") for name in PLAYER_KEY))
        .values(
            {name: _PLAYER[name] + value(f"more_{name}") for name in ADDED}
            | {
                "best_round": sa.case(
                    (sa.or_(_PLAYER.best_round.is_(None), _PLAYER.best_round < new_best), new_best),
                    else_=_PLAYER.best_round,
                ),
                "last_played_at": sa.case(
                    (_PLAYER.last_played_at < new_last, new_last), else_=_PLAYER.last_played_at
                ),
            }
        )
    )


PLAYER_MONTH_MOVED = ManyRows(
    {f"the_{name}": _PLAYER[name].type for name in PLAYER_KEY}
    | {f"more_{name}": _PLAYER[name].type for name in ADDED}
    | {"new_best": _PLAYER.best_round.type, "new_last": _PLAYER.last_played_at.type},
    _player_month_moved,
    name="player_moves",
)
_PAIR = PAIR_MONTHS.c
PAIR_MOVED_FIGURES = ("rounds_won", "other_rounds_won", "points", "other_points")
PAIR_MONTH_MOVED = ManyRows(
    {f"the_{name}": _PAIR[name].type for name in PAIR_KEY}
    | {f"more_{name}": _PAIR[name].type for name in PAIR_MOVED_FIGURES},
    lambda value: (
        sa.update(PAIR_MONTHS)
        .where(*(_PAIR[name] == value(f"the_{name}") for name in PAIR_KEY))
        .values({name: _PAIR[name] + value(f"more_{name}") for name in PAIR_MOVED_FIGURES})
    ),
    name="pair_moves",
)


def _moved_in_place(
    connection: Connection, before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> bool:
    """The player months and pair months moved by the difference of each row (False, and
    nothing changed for good, when a month to move is missing: the caller recounts)."""
    players, pairs = moves_in_place(before, after)
    sane = ManyRows.counts_rows(connection)
    moved = PLAYER_MONTH_MOVED.execute(connection, players)
    if sane and moved.rowcount != len(players):
        return False
    if pairs:
        moved = PAIR_MONTH_MOVED.execute(connection, pairs)
        if sane and moved.rowcount != len(pairs):
            return False
    return True


def moves_in_place(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of :data:`PLAYER_MONTH_MOVED` and :data:`PAIR_MONTH_MOVED` that move a
    match's months from its seat rows ``before`` to ``after`` (:func:`in_place`)."""
    old = {row["player_id"]: row for row in before}
    players, pairs = [], []
    for new in after:
        was = old[new["player_id"]]
        more = {f"more_{name}": int(new[name] or 0) - int(was[name] or 0) for name in ADDED}
        month = month_of(new["last_played_at"])
        for rules in (new["rules"], EVERY_RULESET):
            player_key = (new["table_id"], new["player_id"], rules, month)
            players.append(
                {f"the_{name}": value for name, value in zip(PLAYER_KEY, player_key, strict=True)}
                | more
                | {"new_best": new["best_round"], "new_last": new["last_played_at"]}
            )
    by_player = {row["player_id"]: row for row in after}
    for mine, theirs in permutations(sorted(by_player), 2):
        new_mine, new_theirs = by_player[mine], by_player[theirs]
        was_mine, was_theirs = old[mine], old[theirs]
        month = month_of(new_mine["last_played_at"])
        key = (new_mine["table_id"], mine, theirs, new_mine["rules"], month)
        pairs.append(
            {f"the_{name}": value for name, value in zip(PAIR_KEY, key, strict=True)}
            | {
                "more_rounds_won": new_mine["rounds_won"] - was_mine["rounds_won"],
                "more_other_rounds_won": new_theirs["rounds_won"] - was_theirs["rounds_won"],
                "more_points": new_mine["points"] - was_mine["points"],
                "more_other_points": new_theirs["points"] - was_theirs["points"],
            }
        )
    return players, pairs


def recount_touched(
    connection: Connection, before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> None:
    """Count again every month a match's seat rows ``before`` and ``after`` are in, for
    its players."""
    touched: dict[tuple[int, str], set[int]] = {}
    for row in (*before, *after):
        key = (row["table_id"], month_of(row["last_played_at"]))
        touched.setdefault(key, set()).add(row["player_id"])
    for (table_id, month), players in sorted(touched.items()):
        recount_month(connection, table_id, month, sorted(players))


def recount_month(connection: Connection, table_id: int, month: str, players: list[int]) -> None:
    """Count again one month of a table for ``players`` (and every pair of them), and the
    table's matches of that month."""
    span = {"the_table": table_id, "the_start": month_start(month)}
    span["the_end"] = month_start(next_month(month))
    rows = connection.execute(MONTH_SEATS, span | {"the_players": players}).all()
    player_months, pair_months = count(table_id, rows)
    named = {"the_table": table_id, "the_month": month, "the_players": players}
    connection.execute(PLAYER_MONTHS_REMOVED, named)
    if len(players) > 1:
        connection.execute(PAIR_MONTHS_REMOVED, named | {"the_others": players})
    if player_months:
        connection.execute(sa.insert(PLAYER_MONTHS), list(player_months.values()))
    if pair_months:
        connection.execute(sa.insert(PAIR_MONTHS), list(pair_months.values()))
    matches = count_matches(table_id, connection.execute(MONTH_MATCHES, span))
    connection.execute(TABLE_MONTH_REMOVED, {"the_table": table_id, "the_month": month})
    if matches:
        connection.execute(sa.insert(TABLE_MONTHS), list(matches.values()))


# -- a whole table -----------------------------------------------------------------------------


def counted_table(connection: Connection, table_id: int) -> tuple[dict[Any, Any], ...]:
    """Every aggregate of a table counted from its summary rows: player months, pair months,
    table months (one pass over each)."""
    read: tuple[str, ...] = SEAT_READ
    if connection.info.get(MIGRATING) and "place" not in {
        column["name"] for column in sa.inspect(connection).get_columns(SEATS.name)
    }:
        read = tuple(name for name in SEAT_READ if name != "place")
    rows = connection.execute(
        sa.select(*(SEATS.c[name] for name in read))
        .where(SEATS.c.table_id == table_id)
        .order_by(*SEAT_ORDER)
    ).all()
    player_months, pair_months = count(table_id, rows)
    matches = connection.execute(
        sa.select(*MATCH_COUNTED).where(
            MATCH_SUMMARIES.c.table_id == table_id, MATCH_SUMMARIES.c.deleted.is_(False)
        )
    )
    return player_months, pair_months, count_matches(table_id, matches)


def recount_table(connection: Connection, table_id: int, *, ratings: bool = True) -> None:
    """Count every aggregate of one table again (a table imported: one pass, linear), and
    rate its matches again (unless ``ratings`` is false: a database older than the ratings
    epoch)."""
    raise_version(connection, [table_id])
    if ratings:
        restart_ratings(connection, table_id, None)
    for table in (PLAYER_MONTHS, PAIR_MONTHS, TABLE_MONTHS):
        connection.execute(sa.delete(table).where(table.c.table_id == table_id))
    for table, counted in zip(
        (PLAYER_MONTHS, PAIR_MONTHS, TABLE_MONTHS), counted_table(connection, table_id), strict=True
    ):
        if counted:
            connection.execute(sa.insert(table), list(counted.values()))


def _tables(connection: Connection) -> list[int]:
    found = connection.execute(sa.select(SEATS.c.table_id).distinct()).scalars()
    matched = connection.execute(sa.select(MATCH_SUMMARIES.c.table_id).distinct()).scalars()
    return sorted({*found, *matched})


def rebuild(connection: Connection) -> None:
    """Count every aggregate of every table again."""
    for table in (PLAYER_MONTHS, PAIR_MONTHS, TABLE_MONTHS):
        connection.execute(sa.delete(table))
    # The revision that made the aggregates rebuilds them before the ratings epoch exists.
    columns = {column["name"] for column in sa.inspect(connection).get_columns(VERSIONS.name)}
    for table_id in _tables(connection):
        recount_table(connection, table_id, ratings="ratings_epoch" in columns)


def compare(connection: Connection) -> list[tuple[str, str, Any, Any]]:
    """Every stored aggregate against a count from the summaries: (where, figure, stored,
    counted) for each difference."""
    found: list[tuple[str, str, Any, Any]] = []
    expected: list[dict[Any, Any]] = [{}, {}, {}]
    for table_id in _tables(connection):
        for whole, counted in zip(expected, counted_table(connection, table_id), strict=True):
            whole |= counted
    for table, keys, figures, wanted in zip(
        (PLAYER_MONTHS, PAIR_MONTHS, TABLE_MONTHS),
        (PLAYER_KEY, PAIR_KEY, TABLE_KEY),
        (PLAYER_FIGURES, PAIR_FIGURES, TABLE_FIGURES),
        expected,
        strict=True,
    ):
        stored = {
            tuple(row._mapping[name] for name in keys): row._mapping
            for row in connection.execute(sa.select(table))
        }
        for key in sorted(stored.keys() | wanted.keys(), key=repr):
            where = f"{table.name} " + ", ".join(map(str, key))
            if key not in wanted:
                found.append((where, "row", "present", "nothing counted"))
            elif key not in stored:
                found.append((where, "row", "missing", "present"))
            else:
                found.extend(
                    (where, name, stored[key][name], wanted[key][name])
                    for name in figures
                    if _plain(stored[key][name]) != _plain(wanted[key][name])
                )
    return found


def _plain(value: Any) -> Any:
    return as_utc(value) if isinstance(value, datetime) else value
