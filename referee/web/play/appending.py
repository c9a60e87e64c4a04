"""The next round of a match appended with a handful of prebuilt statements.

Saving the next round is the write a table makes most, four phones at a time.
Through the ORM it costs a dozen statements and more Python than anything
else in the app: loading the match into objects, tracking their changes,
flushing them.  This path reads the match as rows (two queries) and has the
engine play the round on the cached replay of the match; the unit of work's
fast strategy (:func:`referee.web.store.work.append_round`) then, in the
table's turn, raises the match's version (the statement that locks the table's
row and checks that the version is still the one read), writes the round with its
facts in the state after it, the summary counted on by the new round alone and the
state's own facts, and commits.  Nothing it writes grows with the match's length;
what it reads does by the rows of the score sheet the answer shows (each round's
number, version and whether it is void) and the kept facts of the rounds (read with
them, made into a state only when the worker has not cached the match).

It takes only the plain case: the match found through an edit key, not
deleted, no live round, no deleted round in the way, the version named still
the match's, its summary and a state kept at that version (so the key of its log
comes from the kept state: no round's entry is read, nor the match replayed), no
one-time token, and a round the engine accepts.  Anything
else, and a version that changed while the round was checked, is handed back
(None) to the ORM path, which answers it as always: same rules, same errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from referee.errors import MatchFileError, RefereeError
from referee.web.show.scoresheet import Sheet, StoredRound, sheet_of
from referee.web.store import door, matchlog, summary, versions, work, writes
from referee.web.store.extensions import db
from referee.web.store.models import CardTable

if TYPE_CHECKING:
    from referee.match import MatchState

MATCHES, SEATS = summary.MATCHES, summary.SEATS
ROUNDS, TABLES = summary.ROUNDS, cast(sa.Table, CardTable.__table__)
SUMMARY_SEATS = summary.SEAT_SUMMARIES
SUMMARY, KEPT = summary.MATCH_SUMMARIES, summary.MATCH_REPLAYS
SEAT_READ = [column.name for column in SUMMARY_SEATS.columns]
MATCH_READ = ("state", "rounds", "rounds_played", "last_played_at")

MATCH_BY_EDIT_KEY = (
    sa.select(
        *summary.log_columns(),
        MATCHES.c.version,
        # The state kept with the match: its key, the version it was kept at, and its own
        # facts (its rounds' are kept with them).
        KEPT.c.replay_key.label("kept_key"),
        KEPT.c.match_version.label("kept_version"),
        KEPT.c.facts.label("kept_facts"),
        # The match's summary and the seat's (what the next round is counted on, and what
        # its player's totals are made of), read with the match: they change only with the
        # match, whose version is checked under the table's lock.
        *(SUMMARY.c[name].label(f"match_{name}") for name in MATCH_READ),
        *(SUMMARY_SEATS.c[name].label(f"summary_{name}") for name in SEAT_READ),
    )
    .select_from(
        summary.MATCH_SEATS.join(TABLES, TABLES.c.id == MATCHES.c.table_id)
        .outerjoin(KEPT, KEPT.c.match_id == MATCHES.c.id)
        .outerjoin(SUMMARY, SUMMARY.c.match_id == MATCHES.c.id)
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
# The stored rounds without their entries: what the plain case and the score sheet need, and
# their facts in the state kept with the match.
ROUNDS_OF_MATCH = (
    sa.select(
        ROUNDS.c.number, ROUNDS.c.version, ROUNDS.c.complete, ROUNDS.c.deleted_at, ROUNDS.c.facts
    )
    .where(ROUNDS.c.match_id == sa.bindparam("match_id"))
    .order_by(ROUNDS.c.number)
)


@dataclass
class StoredMatch:
    """A match as its rows say, for appending a round."""

    match_id: int
    version: int
    log: summary.MatchLog  # its header and seats (its rounds are not read)
    edit_key: str  # the key the write came with: it must still be the table's at the turn
    rows: list[Any] = field(default_factory=list)  # every stored round, by number
    before: summary.Derived | None = None  # its summary as stored
    kept_key: str | None = None  # the key of its log, from the state kept at this version
    kept_facts: str | None = None  # the kept state's own facts (its rounds' are in ``rows``)

    @property
    def plain(self) -> bool:
        """No live round, no deleted round, nothing but complete rounds one after another;
        a summary, and a state kept at the match's version a round at a time (each round with
        its facts: a save adds its own round's and rewrites only the state's)."""
        return (
            self.kept_key is not None
            and self.before is not None
            and self.before.match["rounds"] == len(self.rows)
            and all(
                row.complete and row.deleted_at is None and row.facts is not None
                for row in self.rows
            )
            and matchlog.is_split(self.kept_facts)
        )

    def kept(self) -> matchlog.KeptReplay | None:
        """The state kept at the match's version, as its rows hold it (no statement)."""
        if self.kept_key is None or self.kept_facts is None:
            return None
        rounds = tuple(row.facts for row in self.rows)
        return matchlog.KeptReplay(self.kept_key, self.kept_facts, self.version, rounds)

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1

    def opened_as_is(self, seen: door.Seen, for_round: Any) -> bool:
        """Whether a form was opened for this match's next round (``for_round``) at its
        version now (``seen``): else the rows' way is not the one to take (the objects' way
        says what changed)."""
        return writes.version_of(for_round) == self.next_number and not work.changed_since(
            self, seen.match_version
        )


def read(connection: Connection, edit_key: str, match_id: int) -> StoredMatch | None:
    """The match of the table of this edit key, not deleted (None otherwise), with its
    summary and the key of the state kept with it: two queries, no round's entry read."""
    # The version is checked again under the lock: the reads need no transaction.
    writes.read_statement_by_statement(connection)
    rows = connection.execute(MATCH_BY_EDIT_KEY, {"match_id": match_id, "key": edit_key}).all()
    if not rows or rows[0].deleted_at is not None:
        return None
    first = rows[0]
    log = summary.MatchLog.from_rows(match_id, rows)
    stored = StoredMatch(match_id, first.version, log, edit_key)
    stored.rows = list(connection.execute(ROUNDS_OF_MATCH, {"match_id": match_id}))
    if first.kept_version == first.version:
        stored.kept_key, stored.kept_facts = first.kept_key, first.kept_facts
    seats = [
        {name: row._mapping[f"summary_{name}"] for name in SEAT_READ}
        for row in rows
        if row.summary_player_id is not None
    ]
    if first.match_state is not None:
        match = {name: first._mapping[f"match_{name}"] for name in MATCH_READ}
        stored.before = summary.Derived(match, seats)
    return stored


def played_so_far(stored: StoredMatch, connection: Connection) -> matchlog.Outlook:
    """The match as far as it has gone, to play its next round on: from the worker's cache,
    else from the state kept at its version (never replayed: its rounds were not read)."""
    assert stored.kept_key is not None
    try:
        head = stored.log.header()
    except (TypeError, ValueError):
        return matchlog.Outlook(None, MatchFileError(matchlog.STORED_UNREADABLE))
    return matchlog.resumed(head, stored.kept_key, stored.kept)


def checked_round(
    stored: StoredMatch, asked: dict[str, Any], connection: Connection
) -> tuple[dict[str, Any], Any] | None:
    """The round in canonical form and the match after it: played on the match's cached
    replay, or on the one kept with its summary (no whole replay); None when neither is
    there.  The engine's refusal is raised: it is the answer, the round is not played
    again another way."""
    seen = played_so_far(stored, connection)
    if seen.state is None:
        return None
    head = stored.log.header()
    match_header = matchlog.stored_header(head)
    record, entry = matchlog.read_canonical(asked, match_header, stored.next_number)
    return entry, matchlog.call_engine(seen.state.play, record)


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
    assert stored.before is not None and stored.kept_key is not None
    number = stored.next_number
    when = work.append_round(
        connection,
        stored.log,
        edit_key=stored.edit_key,
        version=stored.version,
        number=number,
        before=stored.before,
        key=stored.kept_key,
        entry=entry,
        state=state,
        once=once,
        location=location,
    )
    if when is None:
        return False
    stored.version += 1
    stored.rows.append(RoundRow(number, 1, True, None, None))
    stored.kept_key = stored.kept_facts = None  # what this save kept is not read back
    return True


class RoundRow(NamedTuple):
    """A stored round as :data:`ROUNDS_OF_MATCH` reads it (the round a save adds)."""

    number: int
    version: int
    complete: bool
    deleted_at: datetime | None
    facts: str | None  # in the state kept with the match (not read back for a round saved)


class SheetRound(NamedTuple):
    """A stored round as the API's score sheet shows it: its number, its version and whether
    it is void (a round stored as ``{"end": "void"}`` is the one the engine scores as void:
    the state says so without the entry being read)."""

    number: int
    version: int
    voided: bool


def sheet(stored: StoredMatch, state: MatchState) -> Sheet:
    """The score sheet of the match as this save left it."""
    voided = {result.number: result.is_void for result in state.rounds}
    rows = {
        row.number: SheetRound(row.number, row.version, voided.get(row.number, False))
        for row in stored.rows
    }
    return sheet_of(state, state.rules, cast("dict[int, StoredRound]", rows))


def append_sent(
    edit_key: str, match_id: int, asked: dict[str, Any], named: Any
) -> tuple[StoredMatch, Any] | None:
    """The API's plain save of the next round sent as a round object, when the If-Match
    ``named`` (an ETags set) names the version read: the match as its rows stand after it
    and the engine's state, or None (nothing written: the ORM path answers).  The engine's
    refusal is raised (RefereeError)."""
    with db.engine.connect() as connection:
        stored = read(connection, edit_key, match_id)
        if stored is None or not stored.plain:
            return None
        if not named.contains(versions.etag(match_id, stored.version)):
            return None
        checked = checked_round(stored, asked, connection)
        if checked is None or not append(connection, stored, *checked):
            work.read_first()
            return None
    return stored, checked[1]


def sent_on_rows(
    edit_key: str, match_id: int, asked: dict[str, Any], named: Any, path: str
) -> door.Saved | door.Refused | None:
    """The fast strategy of the API's next round (:func:`append_sent`), as the door takes it
    from the write (``SaveRound.rows``): saved, with the match as its rows stand after it
    (``result``) and the engine's state; the engine's refusal; or None (declined, nothing
    written).  ``path``: the match's API path, which the new round's is made from."""
    try:
        appended = append_sent(edit_key, match_id, asked, named)
    except RefereeError as error:
        return door.Refused(error)
    if appended is None:
        return None
    stored, state = appended
    return door.Saved(f"{path}/rounds/{stored.next_number - 1}", door.Verdict(state), result=stored)


def append_apart(
    stored: StoredMatch, entry: dict[str, Any], state: Any, *, once: str | None, location: str
) -> bool:
    """:func:`append` on a connection of its own, once the rows were read and the round
    played (the round form's plain save): False, nothing written, if the match changed
    meanwhile or the one-time token's receipt is there."""
    with db.engine.connect() as connection:
        try:
            return append(connection, stored, entry, state, once=once, location=location)
        except IntegrityError:
            return False


@contextmanager
def rows_of(edit_key: str, match_id: int) -> Iterator[tuple[Connection, StoredMatch | None]]:
    """A connection of its own and the match read as rows on it (None: not found), for a
    plain save made elsewhere (the round form's)."""
    with db.engine.connect() as connection:
        yield connection, read(connection, edit_key, match_id)
