"""The next round of a match appended with a handful of prebuilt statements.

Saving the next round is the write a table makes most, four phones at a time.
Through the ORM it costs a dozen statements and more Python than anything
else in the app: loading the match into objects, tracking their changes,
flushing them.  This path reads the match as rows (two queries), has the
engine play the round on the cached replay of the match, waits for the
table's turn (:func:`writes.take_turn`), writes the round, the match's new
version and its summary, and commits.

It takes only the plain case: the match found through an edit key, not
deleted, no live round, no deleted round in the way, the version named still
the match's, no one-time token, and a round the engine accepts.  Anything
else, and a version that changed while the round was checked, is handed back
(None) to the ORM path, which answers it as always: same rules, same errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from referee.errors import RefereeError
from referee.matchfile import dump_round, read_header, read_round
from referee.web import matchlog, summary, writes
from referee.web.models import CardTable, now
from referee.web.scoresheet import Sheet, sheet_of

if TYPE_CHECKING:
    from referee.match import MatchState

MATCHES, SEATS, PLAYERS = summary.MATCHES, summary.SEATS, summary.PLAYERS
ROUNDS, TABLES = summary.ROUNDS, cast(sa.Table, CardTable.__table__)
SUMMARY_SEATS = summary.SEAT_SUMMARIES

MATCH_BY_EDIT_KEY = (
    sa.select(
        MATCHES.c.table_id,
        MATCHES.c.rules,
        MATCHES.c.options,
        MATCHES.c.first_dealer,
        MATCHES.c.created_at,
        MATCHES.c.archived_at,
        MATCHES.c.deleted_at,
        MATCHES.c.seating_changes,
        MATCHES.c.version,
        SEATS.c.seat,
        SEATS.c.player_id,
        SEATS.c.joined_round,
        PLAYERS.c.name,
        # The seat's summary row (what its player's totals are made of), read with the match:
        # it changes only with the match, whose version is checked under the table's lock.
        *(SUMMARY_SEATS.c[name].label(f"summary_{name}") for name in summary.SEAT_TOTALLED),
    )
    .select_from(
        MATCHES.join(TABLES, TABLES.c.id == MATCHES.c.table_id)
        .outerjoin(SEATS, SEATS.c.match_id == MATCHES.c.id)
        .outerjoin(PLAYERS, PLAYERS.c.id == SEATS.c.player_id)
        .outerjoin(
            SUMMARY_SEATS,
            sa.and_(
                SUMMARY_SEATS.c.match_id == MATCHES.c.id,
                SUMMARY_SEATS.c.player_id == SEATS.c.player_id,
            ),
        )
    )
    .where(MATCHES.c.id == sa.bindparam("match_id"), TABLES.c.edit_key == sa.bindparam("key"))
    .order_by(SEATS.c.seat)
)
ROUNDS_OF_MATCH = (
    sa.select(
        ROUNDS.c.id,
        ROUNDS.c.number,
        ROUNDS.c.entry,
        ROUNDS.c.complete,
        ROUNDS.c.deleted_at,
        ROUNDS.c.created_at,
        ROUNDS.c.version,
    )
    .where(ROUNDS.c.match_id == sa.bindparam("match_id"))
    .order_by(ROUNDS.c.number)
)
# The table's row locked (as every writer locks it first; PostgreSQL takes the lock before
# it reads the match), then the version raised if it is still the one read: no row, and
# the match changed meanwhile.  On SQLite the IMMEDIATE transaction is the table's lock.
NEW_VERSION = (
    sa.update(MATCHES)
    .where(
        MATCHES.c.id == sa.bindparam("match_id"),
        MATCHES.c.version == sa.bindparam("old"),
        MATCHES.c.table_id
        == sa.select(TABLES.c.id)
        .where(TABLES.c.id == sa.bindparam("the_table"))
        .with_for_update()
        .scalar_subquery(),
    )
    .values(version=sa.bindparam("new"), updated_at=sa.bindparam("when"))
)
NEW_ROUND = sa.insert(ROUNDS)


@dataclass
class StoredMatch:
    """A match as its rows say, for appending a round."""

    match_id: int
    version: int
    log: summary.MatchLog
    rows: list[Any] = field(default_factory=list)  # every stored round, by number
    summary_seats: list[Any] = field(default_factory=list)  # its seat summary rows

    @property
    def plain(self) -> bool:
        """No live round, no deleted round, nothing but complete rounds one after another."""
        return all(row.complete and row.deleted_at is None for row in self.rows)

    @property
    def next_number(self) -> int:
        return len(self.log.rounds) + 1

    def header(self) -> dict[str, Any]:
        """The match file's header, as :func:`matchlog.header` makes it from the objects."""
        log = self.log
        head: dict[str, Any] = {
            "format": matchlog.FORMAT,
            "rules": log.rules,
            "options": dict(log.options or {}),
            "players": log.names,
            "first_dealer": log.first_dealer,
        }
        if log.seating_changes:
            head["seating_changes"] = [dict(change) for change in log.seating_changes]
        return head


def read(connection: Connection, edit_key: str, match_id: int) -> StoredMatch | None:
    """The match of the table of this edit key, not deleted (None otherwise), with its
    summary's seat rows: two queries."""
    if connection.dialect.name == "postgresql":  # each statement reads as of its start anyway
        connection.execution_options(isolation_level="AUTOCOMMIT")
    rows = connection.execute(MATCH_BY_EDIT_KEY, {"match_id": match_id, "key": edit_key}).all()
    if not rows or rows[0].deleted_at is not None:
        return None
    first = rows[0]
    log = summary.MatchLog(
        match_id,
        first.table_id,
        first.rules,
        first.options,
        first.first_dealer,
        first.created_at,
        archived=first.archived_at is not None,
        seats=[(row.seat, row.player_id, row.name) for row in rows if row.seat is not None],
        seating_changes=first.seating_changes,
        joined={row.seat for row in rows if row.joined_round is not None},
    )
    stored = StoredMatch(match_id, first.version, log)
    stored.rows = list(connection.execute(ROUNDS_OF_MATCH, {"match_id": match_id}))
    log.rounds = [(row.number, row.entry, row.created_at) for row in stored.rows if row.complete]
    stored.summary_seats = [
        {name: row._mapping[f"summary_{name}"] for name in summary.SEAT_TOTALLED}
        for row in rows
        if row.summary_player_id is not None
    ]
    return stored


def checked_round(stored: StoredMatch, asked: dict[str, Any]) -> tuple[dict[str, Any], Any] | None:
    """The round in canonical form and the match after it, if the engine takes it."""
    head = stored.header()
    seen = summary.replay(stored.log)
    if seen.state is None:
        return None
    number = stored.next_number
    try:
        match_header = matchlog.call_engine(read_header, head)
        record = matchlog.call_engine(read_round, asked, match_header, number)
        entry = matchlog.call_engine(dump_round, record, match_header.players)
        return entry, matchlog.call_engine(seen.state.play, record)
    except RefereeError:
        return None


def append(connection: Connection, stored: StoredMatch, entry: dict[str, Any], state: Any) -> bool:
    """Write the round once it is the table's turn; False (nothing written) if the match
    changed meanwhile."""
    connection.rollback()  # the reading is over
    if connection.dialect.name == "postgresql":
        connection.execution_options(isolation_level=connection.default_isolation_level)
    writes.start_writing()
    when = now()
    number = stored.next_number
    raised = connection.execute(
        NEW_VERSION,
        {
            "the_table": stored.log.table_id,
            "match_id": stored.match_id,
            "old": stored.version,
            "new": stored.version + 1,
            "when": when,
        },
    )
    if raised.rowcount != 1:  # the match is no longer at the version it was read at
        connection.rollback()
        return False
    connection.execute(
        NEW_ROUND,
        {
            "match_id": stored.match_id,
            "number": number,
            "entry": entry,
            "complete": True,
            "created_at": when,
            "updated_at": when,
            "version": 1,
        },
    )
    stored.version += 1
    stored.log.rounds.append((number, entry, when))
    seen = matchlog.Outlook(state, None)
    derived = summary.derive(stored.log, seen)
    summary.rewrite(connection, stored.match_id, stored.summary_seats, derived)
    connection.commit()
    writes.written()
    matchlog.keep_replay(stored.header(), [e for _n, e, _w in stored.log.rounds], seen)
    stored.rows.append(RoundRow(number, 1, when, entry))
    return True


@dataclass(frozen=True)
class RoundRow:
    """A complete round as stored, as the score sheet shows it."""

    number: int
    version: int
    created_at: datetime
    entry: Any

    @property
    def voided(self) -> bool:
        return isinstance(self.entry, dict) and self.entry.get("end") == "void"


def sheet(stored: StoredMatch, state: MatchState) -> Sheet:
    """The score sheet of the match as this save left it."""
    rows = {
        row.number: RoundRow(row.number, row.version, row.created_at, row.entry)
        for row in stored.rows
    }
    return sheet_of(state, state.rules, rows)
