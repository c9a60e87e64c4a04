"""A whole table as one document (``referee-table/1``): written out as a stream, read back as one.

The document holds the table's name, its players and every match as its
``referee-match/1`` document, with keys the engine ignores: when the match was
set up (``started``), when each round was entered (``played``), for an archived
match when it was archived (``archived``), and ``copy`` for a match that
repeats an earlier one of the document (a copy the players kept on purpose).
A live round that is not finished is not part of a match document, and deleted
matches and rounds are not exported.

The export is written a match a line, read from the database a batch at a time,
so that its cost and the worker's memory do not grow with the table.  The import
reads the document as a stream too (``ijson``): every match is read and replayed
by the engine and set aside, with its summary, in a spool file before anything is
stored (one refusal and nothing is created); then the table is stored with a few
statements per batch of matches.  A match the export wrote (it has ``started``)
or that has rounds is a restore, its options kept as played
(:func:`matchlog.restores_play`).
"""

from __future__ import annotations

import json
import pickle
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Any, cast

import ijson
import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext
from sqlalchemy.engine import Connection

from referee import jsonread
from referee.errors import RefereeError
from referee.matchfile import dump_match, read_match
from referee.web.play import duplicates, seating
from referee.web.play.limits import NAME_MAX, TABLE_NAME_MAX, option_refusal
from referee.web.show import i18n, jsontext
from referee.web.store import matchlog, summary
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match, MatchPlayer, Player, Round, now
from referee.web.store.summary import as_utc

TABLE_FORMAT = "referee-table/1"
# Most matches a table document may bring (a club's years of evenings, several times over).
MAX_MATCHES = 100_000
# Matches read from, or written to, the database at a time.
BATCH = 200

CARD_TABLES = cast(sa.Table, CardTable.__table__)
MATCHES = cast(sa.Table, Match.__table__)
SEATS = cast(sa.Table, MatchPlayer.__table__)
PLAYERS = cast(sa.Table, Player.__table__)
ROUNDS = cast(sa.Table, Round.__table__)


# -- out ---------------------------------------------------------------------------------------


def _moment(value: datetime) -> str:
    return as_utc(value).isoformat()


def document_text(table: CardTable) -> Iterator[str]:
    """The table document as text, a match a line, oldest match first.

    A round is written as it is stored: every write path stores the engine's canonical
    form (:mod:`matchlog`), and reading every round again would be most of the export's
    cost; the import reads every round through the engine anyway.  The text is made on a
    connection of its own, in an application context of its own, as the answer is sent:
    an answer dropped before it was read leaves nothing open.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    players = db.session.scalars(
        sa.select(Player.name).where(Player.table_id == table.id).order_by(Player.name)
    ).all()
    head = json.dumps(
        {"format": TABLE_FORMAT, "name": table.name, "players": list(players)},
        ensure_ascii=False,
    )
    return _document_lines(app, table.id, head[:-1] + ', "matches": [')


def _document_lines(app: Any, table_id: int, head: str) -> Iterator[str]:
    yield head
    with app.app_context(), db.engine.connect() as connection:
        ids = (
            connection.execute(
                sa.select(MATCHES.c.id)
                .where(MATCHES.c.table_id == table_id, MATCHES.c.deleted_at.is_(None))
                .order_by(MATCHES.c.id)
            )
            .scalars()
            .all()
        )
        separator = "\n"
        printed: set[str] = set()
        for start in range(0, len(ids), BATCH):
            for document in _match_documents(connection, ids[start : start + BATCH]):
                mark = duplicates.fingerprint(document)
                if mark in printed:
                    document["copy"] = True
                printed.add(mark)
                yield separator + json.dumps(document, ensure_ascii=False)
                separator = ",\n"
    yield "\n]}\n"


def table_document(table: CardTable) -> dict[str, Any]:
    """The table document as one object (for tests and tools; the app streams it)."""
    return cast(dict[str, Any], jsonread.loads("".join(document_text(table))))


def _match_documents(connection: Connection, ids: Sequence[int]) -> Iterator[dict[str, Any]]:
    """The documents of these matches, with the times the export adds, in the order of ids."""
    seats: dict[int, list[Any]] = {match_id: [] for match_id in ids}
    for row in connection.execute(
        sa.select(SEATS.c.match_id, SEATS.c.joined_round, PLAYERS.c.name)
        .join(PLAYERS, PLAYERS.c.id == SEATS.c.player_id)
        .where(SEATS.c.match_id.in_(ids))
        .order_by(SEATS.c.match_id, SEATS.c.seat)
    ):
        seats[row.match_id].append(row)
    rounds: dict[int, list[Any]] = {match_id: [] for match_id in ids}
    for row in connection.execute(
        sa.select(ROUNDS.c.match_id, ROUNDS.c.entry, ROUNDS.c.created_at)
        .where(
            ROUNDS.c.match_id.in_(ids),
            ROUNDS.c.complete.is_(True),
            ROUNDS.c.deleted_at.is_(None),
        )
        .order_by(ROUNDS.c.match_id, ROUNDS.c.number)
    ):
        rounds[row.match_id].append(row)
    for match in connection.execute(
        sa.select(MATCHES).where(MATCHES.c.id.in_(ids)).order_by(MATCHES.c.id)
    ):
        document: dict[str, Any] = {
            "format": matchlog.FORMAT,
            "rules": match.rules,
            "options": dict(match.options or {}),
            "players": [seat.name for seat in seats[match.id] if seat.joined_round is None],
            "first_dealer": match.first_dealer,
        }
        if match.seating_changes:
            document["seating_changes"] = match.seating_changes
        if match.stopped:
            document["stopped"] = True
        if match.teams:
            document["teams"] = match.teams
        document["rounds"] = [played.entry for played in rounds[match.id]]
        document["started"] = _moment(match.created_at)
        document["played"] = [_moment(played.created_at) for played in rounds[match.id]]
        if match.archived_at is not None:
            document["archived"] = _moment(match.archived_at)
        yield document


# -- in ----------------------------------------------------------------------------------------


class TableRefused(ValueError):
    """Why a table document cannot be imported, in the reader's language."""

    @property
    def message(self) -> str:
        """The words (a :class:`jsontext.Problem` for a JSON mistake, with its mark)."""
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)


@dataclass
class ImportedMatch:
    """A match read, replayed and summed up, ready to store (ids still to be given)."""

    document: dict[str, Any]  # canonical, as the engine wrote it back
    started: datetime
    played: list[datetime]
    archived: datetime | None
    fingerprint: str | None  # None: a copy of an earlier match of the document
    derived: summary.Derived  # player_id: the player's name until stored


@dataclass
class ReadTable:
    """A table document read and checked whole; its matches wait in a spool file."""

    name: str
    players: list[str]  # the document's players, then everyone a match seats
    count: int
    spool: IO[bytes] = field(repr=False)

    def matches(self) -> Iterator[ImportedMatch]:
        self.spool.seek(0)
        for _ in range(self.count):
            yield pickle.load(self.spool)  # noqa: S301 (the spool is this process's own file)

    def close(self) -> None:
        self.spool.close()


class _Reading:
    """What the reading of a document found so far."""

    def __init__(self, copies: bool) -> None:
        self.copies = copies  # a repeated match is a copy (the player said so)
        self.spelling: dict[str, str] = {}
        self.names: dict[str, None] = {}  # every player, in the order met
        # fingerprint: the number of its first match, and when that one started
        self.printed: dict[str, tuple[int, Any]] = {}
        self.count = 0
        self.imported_at = now()
        self.spool = tempfile.TemporaryFile()  # noqa: SIM115 (kept open by ReadTable)


def read_table(source: bytes | str | IO[bytes], *, copies: bool = False) -> ReadTable:
    """Read a table document (a file or its text) and check every match of it;
    :class:`TableRefused` if anything in it is refused (by the engine or by the limits of the
    app's forms).  ``copies``: a match the document repeats is kept as a copy."""
    if isinstance(source, str):
        source = source.encode()
    if isinstance(source, bytes):
        source = _without_bom(source)
    elif source.read(len(BOM)) != BOM:
        source.seek(0)
    reading = _Reading(copies)
    try:
        head = _read_events(source, reading)
    except BaseException:
        reading.spool.close()
        raise
    return head


BOM = b"\xef\xbb\xbf"


def _without_bom(raw: bytes) -> bytes:
    return raw[len(BOM) :] if raw.startswith(BOM) else raw


OPENS = ("start_map", "start_array")
CLOSES = ("end_map", "end_array")
# The deepest nesting read (a match's melds are ten levels down); deeper is refused before it
# is built.
MAX_DEPTH = 64
HEAD = ("format", "name", "players")


def _read_events(source: bytes | IO[bytes], reading: _Reading) -> ReadTable:
    """Walk the document's events once, building one top-level value or one match at a time;
    values nobody reads are skipped without being built."""
    head: dict[str, Any] = {}
    builder: ijson.ObjectBuilder | None = None
    building, key = "", None
    depth, built_at = 0, 0
    in_matches = skipping = False
    events = ijson.basic_parse(source, use_float=True)
    try:
        first = next(events, None)
        if first is None or first[0] != "start_map":
            raise TableRefused(gettext("This is not a table export (referee-table/1)."))
        depth = 1
        for event, value in events:
            if event in OPENS:
                depth += 1
                if depth > MAX_DEPTH:
                    raise TableRefused(gettext("The document is nested too deeply."))
            elif event in CLOSES:
                depth -= 1
            if builder is not None:
                builder.event(event, value)
                if depth == built_at:
                    _found(building, builder.value, head, reading)
                    builder = None
            elif skipping:
                skipping = depth > 1
            elif depth == 0:
                continue
            elif in_matches:
                if depth == 1:  # the list of matches closed
                    in_matches = False
                elif event in OPENS:
                    builder, building, built_at = ijson.ObjectBuilder(), "matches.item", 2
                    builder.event(event, value)
                else:
                    _found("matches.item", value, head, reading)
            elif event == "map_key":
                key = value
            elif key == "matches":
                in_matches = event == "start_array"
                head["matches"] = True if in_matches else None
                skipping = event == "start_map"
            elif key in HEAD and event in OPENS:
                builder, building, built_at = ijson.ObjectBuilder(), key, 1
                builder.event(event, value)
            elif key in HEAD:
                _found(key, value, head, reading)
            else:
                skipping = event in OPENS
    except ijson.JSONError:
        raise TableRefused(_not_json(source)) from None
    except UnicodeDecodeError:
        raise TableRefused(gettext("The file is not UTF-8 text.")) from None
    except ValueError as error:  # an integer too long for Python
        if "digits" in str(error) or "integer" in str(error):
            raise TableRefused(_not_json(source)) from None
        raise
    return _checked(head, reading)


def _not_json(source: bytes | IO[bytes]) -> str:
    """Where the document stops being JSON, with its mark, when it is small enough to show."""
    if isinstance(source, bytes):
        raw = source
    else:
        source.seek(0)
        raw = source.read(TEXT_SHOWN + 1)
        if len(raw) > TEXT_SHOWN:
            return gettext("The file is not valid JSON.")
    return jsontext.problem(raw, "document") or gettext("The file is not valid JSON.")


# A document this long (or shorter) has its JSON mistakes shown where they are.
TEXT_SHOWN = 4 * 1024 * 1024


def _found(prefix: str, value: Any, head: dict[str, Any], reading: _Reading) -> None:
    if prefix != "matches.item":
        head[prefix] = value
        if prefix == "players":
            if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
                raise TableRefused(gettext('"players" must be a list of names.'))
            for player in value:
                _refuse_name(player, reading.spelling)
        return
    reading.count += 1
    if reading.count > MAX_MATCHES:
        raise TableRefused(gettext("A table can bring at most %(max)s matches.", max=MAX_MATCHES))
    try:
        imported = _read_match(value, reading)
    except TableRefused as refusal:
        raise TableRefused(
            gettext("Match %(number)s: %(reason)s", number=reading.count, reason=str(refusal))
        ) from None
    pickle.dump(imported, reading.spool, protocol=pickle.HIGHEST_PROTOCOL)


def _checked(head: dict[str, Any], reading: _Reading) -> ReadTable:
    if head.get("format") != TABLE_FORMAT:
        raise TableRefused(gettext("This is not a table export (referee-table/1)."))
    name = head.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > TABLE_NAME_MAX:
        raise TableRefused(
            gettext("The table needs a name of 1 to %(max)s letters.", max=TABLE_NAME_MAX)
        )
    if "matches" in head and head["matches"] is not True:
        raise TableRefused(gettext('"matches" must be a list of match documents.'))
    players = list(head.get("players") or [])
    for player in players:
        _refuse_name(player, reading.spelling)  # players named after the matches met them
    everyone = list(dict.fromkeys([*players, *reading.names]))
    return ReadTable(name.strip(), everyone, reading.count, reading.spool)


def _refuse_name(name: Any, spelling: dict[str, str]) -> None:
    """Names as the forms allow them, spelt the same way all over the table."""
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
        raise TableRefused(gettext("Player names must be 1 to %(max)s letters long.", max=NAME_MAX))
    other = spelling.setdefault(name.casefold(), name)
    if other != name:
        raise TableRefused(
            gettext(
                "%(name)s is at this table already, written %(other)s: use the same spelling.",
                name=name,
                other=other,
            )
        )


def _read_match(raw: Any, reading: _Reading) -> ImportedMatch:
    if not isinstance(raw, Mapping):
        raise TableRefused(gettext("This is not a referee-match/1 document."))
    names = raw.get("players")
    if isinstance(names, list):
        seen: set[str] = set()
        for name in names:
            _refuse_name(name, reading.spelling)
            if name.casefold() in seen:
                raise TableRefused(gettext("%(name)s is written twice.", name=name))
            seen.add(name.casefold())
    rounds = raw.get("rounds")
    if isinstance(rounds, list) and len(rounds) > matchlog.MAX_ROUNDS:
        raise TableRefused(
            gettext(
                "A match can have at most %(max)s rounds; this one has %(count)s.",
                max=matchlog.MAX_ROUNDS,
                count=len(rounds),
            )
        )
    refusal = option_refusal(raw.get("options"))
    if refusal:
        raise TableRefused(refusal)
    as_played = matchlog.restores_play(raw)
    try:
        canonical = dump_match(matchlog.call_engine(read_match, raw, as_played=as_played))
        # Not through the replay cache: thousands of matches seen once would push out the
        # replays of the matches being played.
        state = matchlog.replay(canonical, as_played=as_played)
    except RefereeError as error:
        raise TableRefused(i18n.error_text(error)) from None
    everyone = seating.everyone(canonical)
    for name in everyone[len(canonical["players"]) :]:
        _refuse_name(name, reading.spelling)  # the players who joined later
    reading.names.update(dict.fromkeys(everyone))
    content = duplicates.fingerprint(canonical)
    printed: str | None = content
    if content in reading.printed:
        # The same rounds started at another time are another match (two short ones alike).
        first, first_started = reading.printed[content]
        if first_started == raw.get("started") and not (reading.copies or raw.get("copy") is True):
            raise TableRefused(
                gettext(
                    "it is the same match as match %(first)s. To keep both, tick"
                    " “Import repeated matches as copies”.",
                    first=first,
                )
            )
        printed = None  # kept without a fingerprint, as a copy is
    else:
        reading.printed[content] = (reading.count, raw.get("started"))
    started = _read_moment(raw.get("started")) or reading.imported_at
    moments = raw.get("played")
    moments = moments if isinstance(moments, list) else []
    played = [
        _read_moment(moments[i] if i < len(moments) else None) or reading.imported_at
        for i in range(len(canonical["rounds"]))
    ]
    archived = _read_moment(raw.get("archived"))
    log = summary.MatchLog(
        0,
        0,
        canonical["rules"],
        canonical["options"],
        canonical["first_dealer"],
        started,
        archived=archived is not None,
        # the player's name stands for their id until the table is stored
        seats=[(seat, cast(int, name), name) for seat, name in enumerate(everyone)],
        rounds=[
            (number, entry, when)
            for number, (entry, when) in enumerate(
                zip(canonical["rounds"], played, strict=True), start=1
            )
        ],
        seating_changes=canonical.get("seating_changes"),
        joined=set(range(len(canonical["players"]), len(everyone))),
        stopped=bool(canonical.get("stopped")),
        teams=canonical.get("teams"),
    )
    derived = summary.derive(log, matchlog.Outlook(state, None))
    return ImportedMatch(canonical, started, played, archived, printed, derived)


def _read_moment(value: Any) -> datetime | None:
    """A time written by the export; None (the time of the import) for anything else."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return as_utc(moment)


# -- storing -----------------------------------------------------------------------------------


def store_table(read: ReadTable) -> tuple[int, str]:
    """Store a table read whole (the caller commits): its id and edit key."""
    connection = db.session.connection()
    table_id, edit_key = connection.execute(
        sa.insert(CARD_TABLES)
        .values(name=read.name)
        .returning(CARD_TABLES.c.id, CARD_TABLES.c.edit_key)
    ).one()
    player_ids: dict[str, int] = {}
    if read.players:
        added = connection.execute(
            sa.insert(PLAYERS).returning(
                PLAYERS.c.id, PLAYERS.c.name, sort_by_parameter_order=True
            ),
            [{"table_id": table_id, "name": name} for name in read.players],
        )
        player_ids = {row.name: row.id for row in added}
    batch: list[ImportedMatch] = []
    for imported in read.matches():
        batch.append(imported)
        if len(batch) == BATCH:
            _store_matches(connection, table_id, player_ids, batch)
            batch = []
    if batch:
        _store_matches(connection, table_id, player_ids, batch)
    summary.recount_table(connection, table_id)
    return table_id, edit_key


def _store_matches(
    connection: Connection,
    table_id: int,
    player_ids: Mapping[str, int],
    batch: Sequence[ImportedMatch],
) -> None:
    """A batch of matches, their seats, rounds and summaries: one statement each."""
    stamp = now()
    ids = (
        connection.execute(
            sa.insert(MATCHES).returning(MATCHES.c.id, sort_by_parameter_order=True),
            [
                {
                    "table_id": table_id,
                    "rules": imported.document["rules"],
                    "options": imported.document["options"],
                    "first_dealer": imported.document["first_dealer"],
                    "stopped": bool(imported.document.get("stopped")),
                    "seating_changes": _seating_changes(imported.document),
                    "teams": imported.document.get("teams"),
                    "created_at": imported.started,
                    "updated_at": stamp,
                    "archived_at": imported.archived,
                    "fingerprint": imported.fingerprint,
                }
                for imported in batch
            ],
        )
        .scalars()
        .all()
    )
    seats, rounds, derived = [], [], []
    for match_id, imported in zip(ids, batch, strict=True):
        document = imported.document
        first = len(document["players"])
        joined = dict(seating.newcomers(document))
        for seat, name in enumerate(seating.everyone(document)):
            seats.append(
                {
                    "match_id": match_id,
                    "seat": seat,
                    "player_id": player_ids[name],
                    "joined_round": joined[name] if seat >= first else None,
                }
            )
        figures = imported.derived
        facts = summary.new_round_facts(figures)
        for number, (entry, when) in enumerate(
            zip(document["rounds"], imported.played, strict=True), start=1
        ):
            rounds.append(
                {
                    "match_id": match_id,
                    "number": number,
                    "entry": entry,
                    "created_at": when,
                    "updated_at": when,
                    "facts": facts[number - 1] if number <= len(facts) else None,
                }
            )
        figures.match.update(match_id=match_id, table_id=table_id)
        for row in figures.seats:
            row.update(match_id=match_id, table_id=table_id, player_id=player_ids[row["player_id"]])
        derived.append(figures)
    connection.execute(sa.insert(SEATS), seats)
    if rounds:
        connection.execute(sa.insert(ROUNDS), rounds)
    summary.add_new(connection, derived)


def _seating_changes(document: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    changes = document.get("seating_changes")
    return [dict(change) for change in changes] if changes else None
