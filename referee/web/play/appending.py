"""The next round of a match appended with a handful of prebuilt statements.

Saving the next round is the write a table makes most, four phones at a time.
Through the ORM it costs a dozen statements and more Python than anything
else in the app: loading the match into objects, tracking their changes,
flushing them.  This path reads the match as rows (two queries) and has the
engine play the round on the cached replay of the match; the unit of work's
fast strategy (:func:`referee.web.store.work.append_round`) then, in the
table's turn, raises the match's version (the statement that locks the table's
row and checks that the version is still the one read), writes the round and
the summary, and commits.

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
from referee.web.show.scoresheet import Sheet, sheet_of
from referee.web.store import matchlog, summary, work, writes
from referee.web.store.models import CardTable, is_void

if TYPE_CHECKING:
    from referee.match import MatchState

MATCHES, SEATS = summary.MATCHES, summary.SEATS
ROUNDS, TABLES = summary.ROUNDS, cast(sa.Table, CardTable.__table__)
SUMMARY_SEATS = summary.SEAT_SUMMARIES

MATCH_BY_EDIT_KEY = (
    sa.select(
        *summary.log_columns(),
        MATCHES.c.version,
        # The seat's summary row (what its player's totals are made of), read with the match:
        # it changes only with the match, whose version is checked under the table's lock.
        *(SUMMARY_SEATS.c[name].label(f"summary_{name}") for name in summary.SEAT_TOTALLED),
    )
    .select_from(
        summary.MATCH_SEATS.join(TABLES, TABLES.c.id == MATCHES.c.table_id).outerjoin(
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


@dataclass
class StoredMatch:
    """A match as its rows say, for appending a round."""

    match_id: int
    version: int
    log: summary.MatchLog
    edit_key: str  # the key the write came with: it must still be the table's at the turn
    rows: list[Any] = field(default_factory=list)  # every stored round, by number
    summary_seats: list[Any] = field(default_factory=list)  # its seat summary rows

    @property
    def plain(self) -> bool:
        """No live round, no deleted round, nothing but complete rounds one after another."""
        return all(row.complete and row.deleted_at is None for row in self.rows)

    @property
    def next_number(self) -> int:
        return len(self.log.rounds) + 1


def read(connection: Connection, edit_key: str, match_id: int) -> StoredMatch | None:
    """The match of the table of this edit key, not deleted (None otherwise), with its
    summary's seat rows: two queries."""
    # The version is checked again under the lock: the reads need no transaction.
    writes.read_statement_by_statement(connection)
    rows = connection.execute(MATCH_BY_EDIT_KEY, {"match_id": match_id, "key": edit_key}).all()
    if not rows or rows[0].deleted_at is not None:
        return None
    log = summary.MatchLog.from_rows(match_id, rows)
    stored = StoredMatch(match_id, rows[0].version, log, edit_key)
    stored.rows = list(connection.execute(ROUNDS_OF_MATCH, {"match_id": match_id}))
    log.rounds = [(row.number, row.entry, row.created_at) for row in stored.rows if row.complete]
    stored.summary_seats = [
        {name: row._mapping[f"summary_{name}"] for name in summary.SEAT_TOTALLED}
        for row in rows
        if row.summary_player_id is not None
    ]
    return stored


def checked_round(
    stored: StoredMatch, asked: dict[str, Any], connection: Connection
) -> tuple[dict[str, Any], Any] | None:
    """The round in canonical form and the match after it, if the engine takes it: played
    on the match's cached replay, or on the one kept with its summary (no whole replay)."""
    seen = summary.replay(stored.log, connection)
    if seen.state is None:
        return None
    try:
        match_header = matchlog.stored_header(stored.log.header())
        record, entry = matchlog.read_canonical(asked, match_header, stored.next_number)
        return entry, matchlog.call_engine(seen.state.play, record)
    except RefereeError:
        return None


def append(
    connection: Connection,
    stored: StoredMatch,
    entry: dict[str, Any],
    state: Any,
    *,
    once: str | None = None,
    location: str = "",
) -> bool:
    """Write the round once it is the table's turn (the unit of work's fast strategy), with
    the receipt of a form's one-time token ``once``; False (nothing written) if the match
    changed meanwhile."""
    number = stored.next_number
    when = work.append_round(
        connection,
        stored.log,
        edit_key=stored.edit_key,
        version=stored.version,
        summary_seats=stored.summary_seats,
        entry=entry,
        state=state,
        once=once,
        location=location,
    )
    if when is None:
        return False
    stored.version += 1
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
        return is_void(self.entry)


def sheet(stored: StoredMatch, state: MatchState) -> Sheet:
    """The score sheet of the match as this save left it."""
    rows = {
        row.number: RoundRow(row.number, row.version, row.created_at, row.entry)
        for row in stored.rows
    }
    return sheet_of(state, state.rules, rows)
