"""Writes that the phones around a table make at the same moment: none lost, none applied twice.

The parts of a write's safety; :mod:`referee.web.store.work` (the unit of work) puts them
together for every write, and is the only place that commits.

How a write is kept safe, from the outside in:

1. **One writer per table at a time.**  A request that writes locks its card
   table's row first (``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite every
   writing request opens its transaction with ``BEGIN IMMEDIATE``).  Everything
   a write reads after that is the latest committed state, on one worker
   process or many.  SQLite writers first queue in the kernel
   (:class:`WriterQueue`, a lock on a file beside the database), so the next
   one starts as soon as the one before it ends; the busy timeout stays the
   fallback for writers outside the queue (the command line, another program).
   A write may instead *read first* (:func:`read_first`, the API's round
   writes): it reads and checks without the lock, so the phones of a table
   check their rounds in parallel, then takes its turn (:func:`take_turn`) and
   reads the match's version again under the lock; a version changed meanwhile
   is a conflict, as in 2.
2. **A form names what it was made from.**  The match's version, the round's
   version and id, the number of turns: when that is no longer true the write
   is refused with a conflict (HTTP 409) that says what changed meanwhile and
   keeps what the player typed, ready to be applied again in one tap.
3. **Forms that create something carry a one-time token** (:class:`WriteReceipt`):
   the same form sent twice (a double tap, a retry after a lost answer) is
   answered with what the first request made.
4. **The database has the last word.**  ``version_id_col`` turns an UPDATE made
   from a stale row into :class:`~sqlalchemy.orm.exc.StaleDataError`, unique
   constraints refuse a second copy; both, and a SQLite lock that outlasts the
   busy timeout, become the same clean conflict page (never a 500).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from datetime import timedelta
from typing import Any, cast

from flask import Flask, g, has_request_context, request
from sqlalchemy import Table, bindparam, delete, event, inspect, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import InstanceState

from referee.web.serving.settings import SettingError
from referee.web.store.extensions import db
from referee.web.store.filelock import locked_file
from referee.web.store.models import (
    KEY_FORMAT,
    CardTable,
    Match,
    MatchPlayer,
    MatchReplay,
    Player,
    Round,
    RoundChange,
    WriteReceipt,
    now,
)

log = logging.getLogger(__name__)

# How long a SQLite writer waits for the one before it (milliseconds).
SQLITE_BUSY_TIMEOUT_MS = 15_000
# Receipts are only needed while a form may still be sent again.
RECEIPT_LIFETIME = timedelta(days=2)
READ_ONLY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def new_token() -> str:
    return secrets.token_urlsafe(18)


def writing_request() -> bool:
    """Whether this request's transactions write (and so take the table's turn)."""
    return (
        has_request_context()
        and request.method not in READ_ONLY_METHODS
        and not g.get("referee_reading_first")
    )


def read_first() -> None:
    """This write reads and checks everything before it takes its turn (:func:`take_turn`):
    its reads lock nothing, so the writers of one table check in parallel and queue only
    for their writes."""
    g.referee_reading_first = True


def take_turn(table_id: int, match_id: int, version: int, edit_key: str) -> bool:
    """The turn of a write that read first: the reading transaction ends (what it loaded
    stays in memory), the table's writers queue as in step 1 above, and the match's
    version is read again.  False: the match is no longer at ``version``, or the table's
    edit key is no longer ``edit_key`` (its owner replaced it meanwhile); nothing is saved.

    Everything a write depends on raises the match's version when it changes, so a
    version unchanged means that what was read and checked still holds.
    """
    session = db.session()
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("a write that reads first changes nothing before its turn")
    session.expire_on_commit = False
    session.commit()
    start_writing()
    return version_holds(session.connection(), table_id, match_id, version, edit_key)


def start_writing() -> None:
    """The reading is over: this request's next transaction takes the table's turn."""
    g.referee_reading_first = False
    g.referee_write_committed = False


def version_holds(
    connection: Connection, table_id: int, match_id: int, version: int, edit_key: str
) -> bool:
    """Whether the table's edit key is still ``edit_key`` and the match still at
    ``version``, read once the table is locked."""
    # The table's row first, as every writer locks it; then the version, read after the
    # wait (PostgreSQL reads each statement as of its start, and a row locked meanwhile
    # is read again as the other writer committed it: a key replaced finds no row).
    # On SQLite the transaction that the first statement opens is the lock (BEGIN IMMEDIATE,
    # after the writers' queue).
    locked = connection.execute(TABLE_LOCKED, {"the_table": table_id, "the_key": edit_key})
    if locked.scalar() is None:
        return False
    current = connection.execute(VERSION_OF, {"match_id": match_id}).scalar()
    return current == version


# The table's row, locked, while the edit key the write came with is still the table's
# (a key replaced meanwhile finds no row).  Its parameters are named apart from the
# columns: a statement updating a match (appending.NEW_VERSION) takes the lock as a subquery.
TABLE_LOCKED = (
    select(CardTable.__table__.c.id)
    .where(
        CardTable.__table__.c.id == bindparam("the_table"),
        CardTable.__table__.c.edit_key == bindparam("the_key"),
    )
    .with_for_update()
)
VERSION_OF = select(Match.__table__.c.version).where(Match.__table__.c.id == bindparam("match_id"))


def _note_commit(_session: Any) -> None:
    if has_request_context():
        g.referee_write_committed = True


def written() -> None:
    """This request's write is committed (made on a connection of its own, not the session's)."""
    g.referee_write_committed = True


def write_committed() -> bool:
    """Whether this request's write is committed: what it reads after is for its answer."""
    return has_request_context() and bool(g.get("referee_write_committed"))


# How SQLite in WAL mode syncs its log: FULL at every commit (an answered save survives a
# power cut), NORMAL only at checkpoints (it survives a killed process, not the machine
# going off: the last commits can be lost), EXTRA as FULL and the directory too.
SQLITE_SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA")


def sqlite_synchronous(value: object) -> str:
    """``SQLITE_SYNCHRONOUS`` checked (FULL when not given)."""
    chosen = str(value or "FULL").strip().upper()
    if chosen not in SQLITE_SYNCHRONOUS:
        raise SettingError(f"SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA; got {value!r}")
    return chosen


def install(app: Flask) -> None:
    """SQLite: WAL, synced at every commit, foreign keys, a busy timeout, and BEGIN
    IMMEDIATE for writing requests."""
    synchronous = sqlite_synchronous(app.config.get("SQLITE_SYNCHRONOUS"))
    app.config["SQLITE_SYNCHRONOUS"] = synchronous
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, synchronous)
    if engine.dialect.driver == "psycopg":
        _keep_long_statements_converted()
    if not event.contains(db.session, "after_commit", _note_commit):
        event.listen(db.session, "after_commit", _note_commit)
    for name, listener in LOG_LISTENERS:
        if not event.contains(db.session, name, listener):
            event.listen(db.session, name, listener)


class WriterQueue:
    """The writing requests to one SQLite file, one after the other, in every process.

    SQLite lets one writer in at a time; the others wait in its busy handler,
    which sleeps and retries in growing steps (up to 100 ms), so a writer can
    sleep through several turns while newcomers get in: a few writers at once
    make some wait a second.  Instead, a writer takes an exclusive ``flock`` on
    a file beside the database before its ``BEGIN IMMEDIATE`` and keeps it
    until its connection goes back to the pool (after the COMMIT or ROLLBACK):
    the waiting ones sleep in the kernel, which wakes them the moment it is
    free.  A lock dies with its process.  Each transaction opens the file
    itself, so the threads of one process queue like the processes do; a
    thread already holding it (a second connection in the same request) does
    not wait for itself but falls back to the busy timeout.
    """

    INFO_KEY = "referee_writer_queue"

    def __init__(self, database: str) -> None:
        self.path = database + "-writers"
        self.holders: dict[int, int] = {}  # thread id: the descriptor it holds the lock with
        self.guard = threading.Lock()

    def enter(self, info: dict[str, Any]) -> None:
        """Wait for the turn of the connection whose ``info`` this is (the lock is kept there)."""
        thread = threading.get_ident()
        with self.guard:
            if self.INFO_KEY in info or thread in self.holders:
                return
        descriptor = locked_file(self.path)  # sleeps in the kernel's queue
        assert descriptor is not None  # it waits for its turn
        with self.guard:
            info[self.INFO_KEY] = descriptor
            self.holders[thread] = descriptor

    def leave(self, info: dict[str, Any]) -> None:
        """The connection's transaction is over: the next writer's turn."""
        with self.guard:
            descriptor = info.pop(self.INFO_KEY, None)
            if descriptor is None:
                return
            for thread, held in list(self.holders.items()):
                if held == descriptor:
                    del self.holders[thread]
        os.close(descriptor)  # closing the file releases its lock


NO_TRANSACTION = "referee_no_transaction"


def read_statement_by_statement(connection: Connection) -> None:
    """The next transaction of ``connection`` only reads, and each of its statements may
    see the database as of its own start (a reader that checks a version under the lock
    after): PostgreSQL in autocommit, SQLite without BEGIN.  End it with ``rollback()``."""
    if connection.dialect.name == "sqlite":
        connection.info[NO_TRANSACTION] = True
    else:
        connection.execution_options(isolation_level="AUTOCOMMIT")


def transactions_again(connection: Connection) -> None:
    """After :func:`read_statement_by_statement` (and its ``rollback()``)."""
    connection.info.pop(NO_TRANSACTION, None)
    if connection.dialect.name != "sqlite":
        connection.execution_options(isolation_level=connection.default_isolation_level)


# The statement of a plain save on PostgreSQL (store/work.py: the round, the kept state and
# every figure in one round trip) is about 9,000 characters: psycopg converts a statement's
# placeholders once and keeps the result for statements of up to 4,096 characters only, and
# converting it again took a twentieth of the save's CPU.  The few statements the app runs
# are kept whatever their length (psycopg keeps at most 128 of them).
LONGEST_KEPT_STATEMENT = 16_384


def _keep_long_statements_converted() -> None:
    from psycopg import _queries

    if getattr(_queries, "MAX_CACHED_STATEMENT_LENGTH", LONGEST_KEPT_STATEMENT) < (
        LONGEST_KEPT_STATEMENT
    ):
        _queries.MAX_CACHED_STATEMENT_LENGTH = LONGEST_KEPT_STATEMENT


def _configure_sqlite(engine: Engine, synchronous: str) -> None:
    database = engine.url.database
    queue = WriterQueue(database) if database not in (None, "", ":memory:") else None

    @event.listens_for(engine, "connect")
    def on_connect(connection: Any, _record: Any) -> None:
        if not isinstance(connection, sqlite3.Connection):
            return
        # The driver's own transaction handling would start transactions too late
        # (at the first write); the "begin" listener below opens them instead.
        connection.isolation_level = None
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if engine.url.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute(f"PRAGMA synchronous = {synchronous}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        # The statement goes to the driver's connection: a BEGIN needs none of what
        # SQLAlchemy's execution adds (results, events, the statement cache).
        driver = connection.connection.driver_connection
        if connection.info.pop(NO_TRANSACTION, False):
            return
        # A request reads what its write made to answer with it (an API write answers with
        # the scoreboard): no need to wait for another turn for that.
        if not writing_request() or write_committed():
            driver.execute("BEGIN")
            return
        if queue is not None:
            queue.enter(connection.info)
        driver.execute("BEGIN IMMEDIATE")

    if queue is None:
        return

    # Back in the pool (after the COMMIT or ROLLBACK), or gone: the turn is over.
    def leave(_dbapi_connection: Any, record: Any) -> None:
        if record is not None:
            queue.leave(record.info)

    def leave_invalid(dbapi_connection: Any, record: Any, _exception: Any) -> None:
        leave(dbapi_connection, record)

    for name in ("checkin", "close", "detach"):
        event.listen(engine, name, leave)
    for name in ("invalidate", "soft_invalidate"):
        event.listen(engine, name, leave_invalid)


def version_of(field: Any) -> int | None:
    """The version a hidden form field names (None if missing or not a number)."""
    value = (field.data if hasattr(field, "data") else field) or ""
    value = str(value).strip()
    return int(value) if value.isdecimal() and len(value) < 10 else None  # not "²"


# -- receipts -----------------------------------------------------------------------------


class KeyUsed(Exception):
    """A one-time key (a form's token, an Idempotency-Key) that already carried out another
    write: another operation, another target or another body.  Nothing is done: the key
    belongs to the write that used it first."""


# The fields of a form that are not what it asks for (a new page has a new CSRF token).
NOT_THE_WRITE = frozenset({"csrf_token"})


def request_fingerprint() -> dict[str, str]:
    """What this request's write is: its operation (method and endpoint: a key in the
    path and one in a Bearer header are one operation), its target (the path it was sent
    to) and a digest of its body (a JSON body canonical, a form's fields in order of their
    names); empty outside a request."""
    if not has_request_context():
        return {}
    operation = f"{request.method} {(request.endpoint or '').removesuffix('_bearer')}"
    if request.is_json:
        body = json.dumps(
            request.get_json(silent=True), sort_keys=True, separators=(",", ":"), default=str
        ).encode()
    elif request.form or request.files:
        fields = sorted(
            (item for item in request.form.items(multi=True) if item[0] not in NOT_THE_WRITE),
            key=lambda item: item[0],
        )
        fields += [(name, _file_digest(sent)) for name, sent in request.files.items(multi=True)]
        body = json.dumps(fields, separators=(",", ":")).encode()
    else:
        body = request.get_data(cache=True)
    return {
        "operation": operation[:120],
        "target": request.path[:400],
        "digest": hashlib.sha256(body).hexdigest(),
    }


def _file_digest(sent: Any) -> str:
    """A file sent with a form, by its whole content (read, then left where the view's
    reading of it was)."""
    digest = hashlib.sha256()
    where = sent.stream.tell()
    sent.stream.seek(0)
    for chunk in iter(lambda: sent.stream.read(65536), b""):
        digest.update(chunk)
    sent.stream.seek(where)
    return digest.hexdigest()


def _kept(token: str | None) -> WriteReceipt | None:
    if not token or not KEY_FORMAT.fullmatch(token):  # no NUL reaches PostgreSQL
        return None
    return db.session.get(WriteReceipt, token)


def receipt(token: str | None) -> str | None:
    """Where the write carried out with this one-time token led, if it was carried out.

    Raises :class:`KeyUsed` when that write was another one than this request's (its
    operation, target or body): the token answers only the write it carried out."""
    kept = _kept(token)
    if kept is None:
        return None
    if kept.digest is not None and has_request_context() and writing_request_method():
        if request_fingerprint() != {
            "operation": kept.operation,
            "target": kept.target,
            "digest": kept.digest,
        }:
            raise KeyUsed()
    return kept.location


def carried_out(token: str | None, target: str | None) -> bool | None:
    """Whether the write of this token was carried out (a phone asks for its draft):
    None when ``target`` (the path the draft is sent to) is not the one it was carried out
    at; without a target, whether it was carried out anywhere."""
    kept = _kept(token)
    if kept is None:
        return False
    if target and kept.target is not None and kept.target != target:
        return None
    return True


def writing_request_method() -> bool:
    return request.method not in READ_ONLY_METHODS


ONCE_FIELD = "once"
RECEIPT_KEPT_FOR = "referee_receipt_kept"


def once_of_request(token: str | None) -> str | None:
    """``token``, or else the one-time token of the form this request posted: a receipt is
    kept for every write a form carries out, whether its view names the token or not."""
    if token is not None or not has_request_context() or request.method != "POST":
        return token
    if request.is_json:
        return None
    return request.form.get(ONCE_FIELD) or None


def keep_receipt(token: str | None, location: str) -> None:
    """Record that the write of this token was carried out (in the same transaction), once
    per request."""
    if not token or not KEY_FORMAT.fullmatch(token):  # no NUL reaches PostgreSQL
        return
    if has_request_context():
        # A request that commits twice keeps its receipt once (still there: not rolled back);
        # a receipt of another request is left to the database's unique key (a conflict).
        if g.get(RECEIPT_KEPT_FOR) == token and db.session.get(WriteReceipt, token) is not None:
            return
        setattr(g, RECEIPT_KEPT_FOR, token)
    db.session.add(WriteReceipt(token=token, location=location[:400], **request_fingerprint()))
    db.session.execute(
        delete(WriteReceipt).where(WriteReceipt.created_at < now() - RECEIPT_LIFETIME)
    )


RECEIPTS = cast(Table, WriteReceipt.__table__)
# A receipt's columns and the parameters that fill them (:func:`receipt_of`), for this insert
# and for a save's own statement on PostgreSQL (``work._receipt_if_added``).
RECEIPT_PARAMETERS = {
    "token": "receipt_token",
    "location": "receipt_location",
    "created_at": "receipt_at",
    "operation": "receipt_operation",
    "target": "receipt_target",
    "digest": "receipt_digest",
}
RECEIPT_KEPT = RECEIPTS.insert().values(
    {column: bindparam(parameter) for column, parameter in RECEIPT_PARAMETERS.items()}
)
# The fast strategy sweeps the expired receipts at most this often in a process (seconds):
# one statement less in the table's turn of almost every save.
RECEIPT_SWEEP_EVERY = 60.0
_receipts_swept = [float("-inf")]  # when this process last swept them (monotonic clock)


def keep_receipt_on(connection: Connection, token: str | None, location: str) -> None:
    """:func:`keep_receipt` on a connection of its own (the fast strategy's transaction)."""
    receipt = receipt_of(token, location)
    if receipt is None:
        return
    connection.execute(RECEIPT_KEPT, receipt)
    sweep_receipts(connection)


def receipt_of(token: str | None, location: str) -> dict[str, Any] | None:
    """The parameters of :data:`RECEIPT_KEPT` for a form's one-time token (None: no token
    to keep)."""
    if not token or not KEY_FORMAT.fullmatch(token):
        return None
    fingerprint = request_fingerprint() or dict.fromkeys(("operation", "target", "digest"))
    values = {"token": token, "location": location[:400], "created_at": now(), **fingerprint}
    return {RECEIPT_PARAMETERS[column]: value for column, value in values.items()}


def sweep_receipts(connection: Connection) -> None:
    """The receipts past their lifetime go, at most once a minute (a receipt kept a little
    longer still says what its write did)."""
    if time.monotonic() - _receipts_swept[0] >= RECEIPT_SWEEP_EVERY:
        _receipts_swept[0] = time.monotonic()
        connection.execute(delete(RECEIPTS).where(RECEIPTS.c.created_at < now() - RECEIPT_LIFETIME))


# -- versions -----------------------------------------------------------------------------


def changed(match: Match) -> None:
    """The match's log changed: raise its version (the UPDATE checks the version it replaces)."""
    match.version = match.version + 1


def changed_round(match: Match, stored: Round) -> None:
    stored.version = stored.version + 1
    changed(match)


# The state kept with a match (:class:`MatchReplay`) is taken for the match's log as long as
# the match is at the version it was kept at, so a write that changes the log and not the
# version must not leave it: these listeners note, flush by flush, the matches whose log
# (rounds, seats, the header's columns, a player's name) the session's transaction changes
# and those whose version it raises, and before the commit drop the kept state of any match
# changed and not raised (it is then replayed once).  No write of the app does that
# (tests/web/test_kept_version.py walks them); this holds for the next one too.
HEADER_COLUMNS = ("rules", "options", "first_dealer", "seating_changes", "stopped")
LOGS_CHANGED, VERSIONS_RAISED, PLAYERS_RENAMED = (
    "referee_logs_changed",
    "referee_versions_raised",
    "referee_players_renamed",
)


def _note_log_changes(session: Any, _context: Any, _instances: Any) -> None:
    changed: set[int] = session.info.setdefault(LOGS_CHANGED, set())
    raised: set[int] = session.info.setdefault(VERSIONS_RAISED, set())
    renamed: set[int] = session.info.setdefault(PLAYERS_RENAMED, set())
    dirty, deleted = session.dirty, session.deleted  # each a new set when asked for
    for obj in [*session.new, *dirty, *deleted]:
        if isinstance(obj, Match):
            attributes = inspect(obj).attrs
            if obj.id is None:
                continue  # a new match: nothing is kept of it yet
            if attributes.version.history.has_changes():
                raised.add(obj.id)
            if obj in deleted or any(
                attributes[name].history.has_changes() for name in HEADER_COLUMNS
            ):
                changed.add(obj.id)
        elif isinstance(obj, Round | MatchPlayer):
            if obj in dirty and not session.is_modified(obj):
                continue
            changed.update(_match_ids(obj))
        elif isinstance(obj, Player) and obj.id is not None:
            if inspect(obj).attrs.name.history.has_changes():
                renamed.add(obj.id)


def _note_new_matches(session: Any, _context: Any) -> None:
    """After a flush: a match it inserted is new to this transaction (nothing was kept of it
    before; what its commit keeps is made from it as it then stands)."""
    raised: set[int] = session.info.setdefault(VERSIONS_RAISED, set())
    raised.update(obj.id for obj in session.new if isinstance(obj, Match) and obj.id is not None)


def _match_ids(obj: Round | MatchPlayer) -> set[int]:
    """The match of a round or a seat, before and after this flush, without loading it."""
    state: InstanceState[Any] = inspect(obj)
    found = {*state.attrs.match_id.history.deleted, state.dict.get("match_id")}
    match = state.dict.get("match")
    if match is not None:
        found.add(inspect(match).dict.get("id"))
    return {value for value in found if isinstance(value, int)}


def _drop_kept_of_unraised(session: Any) -> None:
    session.flush()  # what the commit would flush is noted too
    changed = session.info.pop(LOGS_CHANGED, set())
    raised = session.info.pop(VERSIONS_RAISED, set())
    renamed = session.info.pop(PLAYERS_RENAMED, set())
    if renamed:
        seated = select(MatchPlayer.match_id).where(MatchPlayer.player_id.in_(renamed))
        changed |= set(session.scalars(seated))
    unraised = changed - raised
    if unraised:
        log.warning("the log of matches %s changed with no new version", sorted(unraised))
        session.execute(delete(MatchReplay).where(MatchReplay.match_id.in_(unraised)))


def _forget_log_changes(session: Any, transaction: Any) -> None:
    if transaction.parent is None:  # the transaction, not a savepoint in it, is over
        for name in (LOGS_CHANGED, VERSIONS_RAISED, PLAYERS_RENAMED):
            session.info.pop(name, None)


LOG_LISTENERS = (
    ("before_flush", _note_log_changes),
    ("after_flush", _note_new_matches),
    ("before_commit", _drop_kept_of_unraised),
    ("after_transaction_end", _forget_log_changes),
)


def add_round(match: Match, stored: Round) -> None:
    """A new round takes its number: a deleted round that held it is gone for good."""
    for gone in [r for r in match.stored_rounds if r.deleted_at is not None]:
        if gone.number >= stored.number:
            remove_round(match, gone)
    db.session.flush()  # the number is free before the new round is inserted
    match.stored_rounds.append(stored)


def remove_round(match: Match, stored: Round) -> None:
    """A round removed for good (a live round discarded, rounds cut after a correction)."""
    match.stored_rounds.remove(stored)
    db.session.delete(stored)


def record(
    match: Match,
    stored: Round,
    what: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    via: str,
) -> None:
    """Keep a change of a saved round in the audit trail, in the same transaction."""
    if stored.id is None:
        db.session.flush()
    match.changes.append(
        RoundChange(
            round_id=stored.id,
            number=stored.number,
            what=what,
            before=before,
            after=after,
            via=via,
        )
    )


def live_round_of(match: Match) -> Round | None:
    return match.live_round


def round_with_id(match: Match, round_id: Any) -> Round | None:
    value = version_of(round_id)
    return next((r for r in match.rounds if r.id == value), None) if value else None
