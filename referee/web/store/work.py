"""One unit of work for every write: the only place that commits.

Pages and the API reach it through the door (:mod:`referee.web.store.door`), which hands
it each write as a value; the steps below are the door's.

A write (a page's form, an API operation, an import) says two things and nothing more:
what the phone saw when it made the write (the match's version, a round's version,
the number of turns) and what it changed (the objects it added or
modified, then :func:`commit` naming the matches whose log changed).  The rest is here:

1. **The table's turn** (:mod:`referee.web.store.writes`): a writing request locks its
   table's row first (PostgreSQL: ``SELECT ... FOR UPDATE``; SQLite: the writers' queue,
   then ``BEGIN IMMEDIATE``), or reads first and takes its turn later (:func:`take_turn`,
   the API's round saves: the phones of a table check in parallel).
2. **What was seen still holds** (:func:`stale`, which the door alone calls): one
   comparison for every version a form or an If-Match names; a write made from something
   else is the door's conflict saying what changed, and nothing is saved.
3. **The one-time receipt** of a form or an Idempotency-Key, kept in the same transaction.
4. **The summaries recounted** for each match the write names (:func:`recount`), from the
   objects in the session and the engine's replay the write already made, on the same
   connection: they commit or roll back with the change.
5. **The commit.**  ``version_id_col`` and the unique constraints give the database the
   last word: a stale UPDATE or a second copy becomes the same conflict (never a 500).

The plain save of the next round (:func:`append_round`) is the fast strategy of the same
steps on rows instead of objects: the version check is the row count of the UPDATE that
raises it, the summary is counted on from the summary before by the new round alone
(:func:`summary.derive_next`), and the state kept with it, made by playing the round on the
state kept at the version read, is written at the version the UPDATE raised.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from referee.web.store import matchlog, summary, writes
from referee.web.store.extensions import db
from referee.web.store.models import Match, Round, now
from referee.web.store.writes import (
    keep_receipt,
    read_first,
    receipt,
    take_turn,
    version_of,
)

if TYPE_CHECKING:
    from referee.match import MatchState

__all__ = [
    "ANY",
    "MATCH",
    "ROUND",
    "TURNS",
    "append_round",
    "changed_once",
    "changed_since",
    "commit",
    "read_first",
    "receipt",
    "recount",
    "stale",
    "take_turn",
]

# -- what the phone saw ------------------------------------------------------------------------


class _Any:
    """A part of the match that the write does not name (any value holds)."""

    def __repr__(self) -> str:
        return "ANY"


ANY: Any = _Any()
MATCH, ROUND, TURNS = "match", "round", "turns"


def changed_since(versioned: Any, seen: Any) -> bool:
    """Whether ``versioned`` (a match, a round, a set of house rules: anything with a
    ``version``) is no longer at the version ``seen`` names."""
    return versioned is None or version_of(seen) != versioned.version


def changed_once(versioned: Any, seen: Any) -> bool:
    """Whether ``versioned`` changed exactly once since the version ``seen`` names (a
    request sent twice finds what its first sending did)."""
    seen_version = version_of(seen)
    return seen_version is not None and versioned.version == seen_version + 1


def stale(
    match: Match,
    *,
    match_version: Any = ANY,
    stored: Round | None = None,
    round_version: Any = ANY,
    turns: Any = ANY,
    turns_now: int | None = None,
) -> frozenset[str]:
    """What no longer is as the phone saw it: :data:`MATCH` (the match's version),
    :data:`ROUND` (``stored``'s version), :data:`TURNS` (the number of turns, against
    ``turns_now``); empty when everything named still holds.

    The values are as the phone sent them (a form field, a header's number, text or a
    whole number); a value missing or not a number holds nothing.  :data:`ANY` names
    nothing.
    """
    changed = set()
    if match_version is not ANY and changed_since(match, match_version):
        changed.add(MATCH)
    if round_version is not ANY and changed_since(stored, round_version):
        changed.add(ROUND)
    if turns is not ANY and version_of(turns) != turns_now:
        changed.add(TURNS)
    return frozenset(changed)


# -- the commit --------------------------------------------------------------------------------


def commit(
    *matches: Match | int,
    state: MatchState | None = None,
    once: str | None = None,
    location: str = "",
) -> None:
    """Keep the receipt of ``once`` (leading to ``location``; by default the one-time
    token of the form this request posted), recount the summaries of
    ``matches`` (the matches whose log, seats or header this write changed; a match
    deleted for good has its summary removed) and commit.

    ``state``: the engine's replay of the (single) match as it is now stored, made by the
    write's own check; the summary is derived from it instead of replaying again.
    """
    session = db.session()
    # The logs are taken from the objects while a flush still knows which are new (after
    # it, the columns the database fills are unloaded and the log would be read back).
    logs: dict[int, summary.MatchLog | None] = {}

    def as_flushed(flushed: Session, _context: Any) -> None:
        for match in matches:
            match_id = match if isinstance(match, int) else match.id
            if match_id is not None:
                logs[match_id] = summary.log_in_session(flushed, match_id)

    event.listen(session, "after_flush", as_flushed)
    try:
        # Every write a form carries out keeps its one-time token (a correction too: the
        # phone's drafts ask for it), once per request.
        keep_receipt(writes.once_of_request(once), location)  # its DELETE flushes the write
        ids = list(dict.fromkeys(i for m in matches if (i := _id_of(m)) is not None))
        if state is not None and matches and isinstance(matches[0], Match):
            matchlog.remember(matches[0], state)  # flushes
        session.flush()
    finally:
        event.remove(session, "after_flush", as_flushed)
    seen = matchlog.Outlook.of(state) if state is not None and len(ids) == 1 else None
    for match_id in ids:
        recount(match_id, seen, logs.get(match_id))
    session.commit()


def _id_of(match: Match | int) -> int | None:
    if isinstance(match, int):
        return match
    if match.id is None:
        db.session.flush()
    return match.id


def recount(
    match_id: int, seen: matchlog.Outlook | None = None, log: summary.MatchLog | None = None
) -> None:
    """Rewrite one match's summary (and its players' totals) from its log as this
    transaction leaves it (``log``, when taken at the flush), on the transaction's own
    connection."""
    session = db.session()
    connection = session.connection()
    log = log or summary.log_in_session(session, match_id)
    if log is None:
        summary.refresh(connection, match_id)
    else:
        summary.write(
            connection, match_id, summary.derive(log, seen or summary.replay(log, connection))
        )


def abandon() -> None:
    """Nothing of this request's write is kept."""
    db.session.rollback()


# -- the fast strategy: the next round on rows ---------------------------------------------------

MATCHES = summary.MATCHES
ROUNDS = summary.ROUNDS
# The table's row locked (as every writer locks it first; PostgreSQL takes the lock before
# it reads the match) while its edit key is still the one the write came with, then the
# version raised if it is still the one read: no row, and the match changed meanwhile
# or the key was replaced.  On SQLite the IMMEDIATE transaction is the table's lock.
NEW_VERSION = (
    sa.update(MATCHES)
    .where(
        MATCHES.c.id == sa.bindparam("the_match"),
        MATCHES.c.version == sa.bindparam("old"),
        MATCHES.c.table_id == writes.TABLE_LOCKED.scalar_subquery(),
    )
    .values(version=sa.bindparam("new"), updated_at=sa.bindparam("when"))
)
NEW_ROUND = sa.insert(ROUNDS)
ROUND_COLUMNS = (
    *("match_id", "number", "entry", "complete", "created_at", "updated_at", "version"),
    "facts",  # the round's facts in the state kept with the match (the state's own: its summary)
)
# PostgreSQL: the round added only if the version was raised (in the save's statement).
_RAISED = NEW_VERSION.returning(MATCHES.c.id).cte("raised")
ROUND_IF_RAISED = sa.select(
    _RAISED.c.id,
    # Named apart from the columns: parameters named as columns would be taken as values
    # for them.
    *(sa.bindparam(f"round_{name}", type_=ROUNDS.c[name].type) for name in ROUND_COLUMNS[1:]),
)


# PostgreSQL: the form's receipt kept only if the round was added (``added``), so that a
# save committed by its own statement keeps none for a round it did not add.
def _receipt_if_added(added: sa.CTE) -> sa.CTE:
    receipts = writes.RECEIPTS
    columns = writes.RECEIPT_PARAMETERS
    values = sa.select(
        *(
            sa.bindparam(parameter, type_=receipts.c[column].type)
            for column, parameter in columns.items()
        )
    ).where(sa.exists(sa.select(added.c[0])))
    kept = sa.insert(receipts).from_select(list(columns), values)
    return kept.returning(sa.literal_column("1").label("kept")).cte("receipt_kept")


@functools.cache
def _save_statement(receipt: bool, moves: bool, alone: bool = False) -> sa.Select[Any]:
    """The PostgreSQL statement of a plain save (one round trip while the table is locked):
    the version raised (the table's row locked first), the round added only if it was, the
    form's receipt, and in the common case (:func:`summary.moves_in_place`) the kept replay
    and every figure moved once the round is there (so after the table's lock); it answers
    how many rows each part wrote."""
    added = (
        sa.insert(ROUNDS)
        .from_select(ROUND_COLUMNS, ROUND_IF_RAISED)
        .returning(sa.literal_column("1").label("added"))
        .cte("round_added")
    )
    parts = [added]
    if receipt:
        parts.append(_receipt_if_added(added))
    moved = [summary.replay_kept_in_save(added), *summary.moved_parts(added)] if moves else []
    columns = summary.counted([*parts, *moved])
    if alone:
        columns.append(summary.all_moved(added, moved))
    return sa.select(*columns)


def _saved_at_once(
    connection: Connection,
    log: summary.MatchLog,
    before: summary.Derived,
    derived: summary.Derived,
    raise_version: dict[str, Any],
    new_round: dict[str, Any],
    once: str | None,
    location: str,
) -> bool:
    """:func:`append_round`'s writes on PostgreSQL; False (to be rolled back) when the match
    moved on from the version read, or the key was replaced.

    In the common case (:func:`summary.moves_in_place`) the save is one statement committed
    by itself: the table's row is locked only while PostgreSQL runs it, not until a COMMIT
    sent after its answer.  Should a figure it moves be missing, the statement undoes itself
    and the round is saved again in a transaction that counts what was missing."""
    receipt = writes.receipt_of(once, location)
    kept = derived.kept
    assert kept is not None  # append_round writes only a state kept a round at a time
    moves = summary.moves_in_place(log.match_id, before.seats, derived)
    parameters = raise_version | {f"round_{name}": value for name, value in new_round.items()}
    parameters |= receipt or {}
    if moves is not None:
        parameters |= summary.replay_values(log.match_id, kept) | moves.parameters
        alone = _committed_alone(
            connection, _save_statement(receipt is not None, True, True), parameters
        )
        if alone is not None:
            if alone.round_added == 1 and receipt is not None:
                writes.sweep_receipts(connection)
            return alone.round_added == 1
    writes.transactions_again(connection)
    written = connection.execute(
        _save_statement(receipt is not None, moves is not None), parameters
    ).one()
    if written.round_added != 1:
        return False
    if receipt is not None:
        writes.sweep_receipts(connection)
    if moves is None:
        summary.rewrite(connection, log.match_id, before.seats, derived)
        return True
    if written.replay_kept == 0:  # no state kept with the match yet (its round's facts: above)
        summary.keep_state(connection, log.match_id, kept)
    moves.settle(connection, written)
    return True


def _committed_alone(
    connection: Connection, statement: sa.Select[Any], parameters: dict[str, Any]
) -> Any:
    """The counts of a save's statement run as a transaction of its own; None when it
    undid itself for a figure missing (:data:`summary.MOVES_MISSING`): nothing written."""
    connection.execution_options(isolation_level="AUTOCOMMIT")
    try:
        return connection.execute(statement, parameters).one()
    except sa.exc.DBAPIError as error:
        if getattr(error.orig, "sqlstate", None) != summary.MOVES_MISSING:
            raise
        connection.rollback()
        return None


def append_round(
    connection: Connection,
    log: summary.MatchLog,
    *,
    edit_key: str,
    version: int,
    number: int,
    before: summary.Derived,
    key: str,
    entry: dict[str, Any],
    state: MatchState,
    once: str | None = None,
    location: str = "",
) -> Any:
    """Round ``number``, the next round of a match read as rows (``log``, its header and
    seats, at ``version``, read without the table's lock; ``before``, its summary as stored,
    and ``key``, the key of its log, both of that version), written once it is the table's
    turn: the version raised if it still is ``version`` and the edit key still the table's,
    the round inserted, the receipt of ``once`` kept (a form's one-time token, leading to
    ``location``), the summary counted on by the round alone and the state ``state`` (the
    engine's play of the round) kept with it, committed.  Returns the time the round was
    stored, or None (nothing written) when the match changed meanwhile or its summary
    cannot be counted on."""
    connection.rollback()  # the reading is over
    when = now()
    seen = matchlog.Outlook.of(state)
    new_key = matchlog.next_replay_key(key, entry)
    derived = summary.derive_next(log, before, seen, new_key, when)
    if derived is None or derived.kept is None or derived.kept.first != number:
        return None
    writes.start_writing()
    raise_version = {
        "the_table": log.table_id,
        "the_key": edit_key,
        "the_match": log.match_id,
        "old": version,
        "new": version + 1,
        "when": when,
    }
    new_round = {
        "match_id": log.match_id,
        "number": number,
        "entry": entry,
        "complete": True,
        "created_at": when,
        "updated_at": when,
        "version": 1,
        "facts": derived.kept.rounds[0],
    }
    if connection.dialect.name == "postgresql":
        if not _saved_at_once(
            connection, log, before, derived, raise_version, new_round, once, location
        ):
            connection.rollback()
            return None
    else:
        writes.transactions_again(connection)
        raised = connection.execute(NEW_VERSION, raise_version)
        if raised.rowcount != 1:  # the match moved on from the version read, or the key changed
            connection.rollback()
            return None
        connection.execute(NEW_ROUND, new_round)
        writes.keep_receipt_on(connection, once, location)
        summary.rewrite(connection, log.match_id, before.seats, derived)
    connection.commit()
    writes.written()
    matchlog.REPLAYS.put(new_key, seen)
    return when
