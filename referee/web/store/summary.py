"""The summary kept with every match: what the match list and the statistics need, from its log.

The log (the rounds as entered) stays the truth; the summary is derived from it.
Every write recounts the summaries of the matches it changed, explicitly, in its
unit of work (:func:`referee.web.store.work.commit`): the match as the session
holds it (:func:`log_in_session`, or read back with :func:`read_log`) is replayed
through the engine, or the replay the write already made is used, and its
:class:`MatchSummary` and :class:`SeatSummary` rows are rewritten on the
transaction's own connection, so that they commit or roll back with the change.  The API's
plain save of the next round counts the new round on the summary as stored instead
(:func:`derive_next`: nothing of it grows with the match's length); the figures are the
same, which ``history check`` and the tests that save a round every way compare.

:func:`check` recomputes every summary from the log and lists the differences
(``flask --app referee.web history check``; ``--fix`` rewrites them), and the engine's
state kept with each summary (:class:`matchlog.KeptReplay`, written with it: a save
plays its round on that state instead of replaying the match) with a whole replay.  Each
player's totals per ruleset at a table (:class:`PlayerTotal`) are the sums of
their seat rows, added up again for the players of every match rewritten; the statistics'
aggregates by month move with them (:func:`adjust_totals` calls
:func:`referee.web.store.aggregates.moved`), and the check compares them too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session
from sqlalchemy.orm.base import NO_VALUE
from sqlalchemy.orm.util import identity_key

from referee.errors import MatchFileError
from referee.match import facts_agree
from referee.scoring import Outcome
from referee.standings import lowest_leads
from referee.web.store import aggregates, matchlog
from referee.web.store.manyrows import ManyRows
from referee.web.store.models import (
    ROUND_FIGURES,
    SUMMED_FIGURES,
    Match,
    MatchPlayer,
    MatchReplay,
    MatchSummary,
    Player,
    PlayerTotal,
    Round,
    SeatSummary,
    is_void,
    ranked_round,
)

PLAYING, FINISHED, BROKEN = "playing", "finished", "broken"
STATES = (PLAYING, FINISHED, BROKEN)

MATCHES = cast(sa.Table, Match.__table__)
SEATS = cast(sa.Table, MatchPlayer.__table__)
PLAYERS = cast(sa.Table, Player.__table__)
ROUNDS = cast(sa.Table, Round.__table__)
MATCH_SUMMARIES = cast(sa.Table, MatchSummary.__table__)
SEAT_SUMMARIES = cast(sa.Table, SeatSummary.__table__)
PLAYER_TOTALS = cast(sa.Table, PlayerTotal.__table__)
MATCH_REPLAYS = cast(sa.Table, MatchReplay.__table__)

# The figures compared by the check, in the order it reports them.
MATCH_FIGURES = (
    "rules",
    "state",
    "rounds",
    "rounds_played",
    "last_played_at",
    "archived",
    "deleted",
)
# The columns of a match's summary row that a rewrite sets.
MATCH_SUMMARY_SET = ("table_id", *MATCH_FIGURES)
SEAT_FIGURES = (
    "seat",
    "counted",
    "finished",
    "won",
    "total",
    *SUMMED_FIGURES,
    *ROUND_FIGURES,
    "best_round",
    "best_round_number",
    "last_played_at",
    "place",
)


def as_utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite gives them back without their zone)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


@dataclass
class MatchLog:
    """One match as stored: its header, its seats and its complete rounds (not deleted)."""

    match_id: int
    table_id: int
    rules: str
    options: Any
    first_dealer: str
    created_at: datetime
    archived: bool = False
    deleted: bool = False
    seats: list[tuple[int, int, str]] = field(default_factory=list)  # seat, player id, name
    rounds: list[tuple[int, Any, datetime]] = field(default_factory=list)  # number, entry, when
    seating_changes: Any = None
    joined: set[int] = field(default_factory=set)  # the seats of players who joined later
    stopped: bool = False  # the players ended a match with no fixed end
    teams: Any = None  # the match file's "teams", where the game is played in teams

    @property
    def names(self) -> list[str]:
        """The players seated in round 1 (the match file's ``players``)."""
        return [name for seat, _player, name in self.seats if seat not in self.joined]

    def header(self) -> dict[str, Any]:
        """The match file's header, as :func:`matchlog.header` makes it from the objects
        (TypeError or ValueError when the stored options or seating changes are no objects)."""
        head: dict[str, Any] = {
            "format": matchlog.FORMAT,
            "rules": self.rules,
            "options": dict(self.options or {}),
            "players": self.names,
            "first_dealer": self.first_dealer,
        }
        if self.seating_changes:
            head["seating_changes"] = [dict(change) for change in self.seating_changes]
        if self.stopped:
            head["stopped"] = True
        if self.teams:
            head["teams"] = {str(name): list(members) for name, members in self.teams.items()}
        return head

    @classmethod
    def from_rows(cls, match_id: int, rows: Sequence[Any]) -> MatchLog:
        """The match's header and seats from the rows of :func:`log_columns` (one a seat);
        its rounds are read apart."""
        first = rows[0]
        return cls(
            match_id,
            first.table_id,
            first.rules,
            first.options,
            first.first_dealer,
            first.created_at,
            archived=first.archived_at is not None,
            deleted=first.deleted_at is not None,
            seats=[(row.seat, row.player_id, row.name) for row in rows if row.seat is not None],
            seating_changes=first.seating_changes,
            joined={row.seat for row in rows if row.joined_round is not None},
            stopped=bool(first.stopped),
            teams=first.teams,
        )


@dataclass
class Derived:
    """A match's summary row and one row per seat, as plain column values, and the engine's
    state to keep with them (None when the match cannot be replayed)."""

    match: dict[str, Any]
    seats: list[dict[str, Any]]
    kept: matchlog.KeptReplay | None = None


def replay(log: MatchLog, connection: Connection | None = None) -> matchlog.Outlook:
    """The match replayed by the engine, or why it cannot be (never raises).

    ``connection`` given: the state kept with the match's summary is taken when it is of
    these very rounds (no replay; its rounds have no detail, which a summary needs not).
    """
    try:
        header = log.header()
    except (TypeError, ValueError):
        return matchlog.Outlook(None, MatchFileError(matchlog.STORED_UNREADABLE))
    kept = None
    if connection is not None:
        kept = lambda: matchlog.kept_replay(connection, log.match_id)  # noqa: E731
    stored = [(number, entry) for number, entry, _when in log.rounds]
    return matchlog.stored_outlook(header, stored, kept=kept)


def kept_replay(log: MatchLog, seen: matchlog.Outlook) -> matchlog.KeptReplay | None:
    """The replay to keep with the match's summary (None when it cannot be replayed)."""
    if seen.state is None:
        return None
    try:
        key = matchlog.replay_key(log.header(), [entry for _n, entry, _w in log.rounds])
    except (RecursionError, TypeError, ValueError):
        return None
    return matchlog.KeptReplay.of(key, seen.state)


def derive(log: MatchLog, seen: matchlog.Outlook | None = None) -> Derived:
    """The summary of a match from its log (``seen``: its replay, when already at hand)."""
    seen = replay(log) if seen is None else seen
    last_played = max(
        (as_utc(when) for _number, _entry, when in log.rounds), default=as_utc(log.created_at)
    )
    state = seen.state
    if state is None:
        status = BROKEN
        played = sum(1 for _n, entry, _w in log.rounds if not is_void(entry))
    else:
        status = FINISHED if state.finished else PLAYING
        played = sum(1 for result in state.rounds if not result.is_void)
    match = {
        "match_id": log.match_id,
        "table_id": log.table_id,
        "rules": log.rules,
        "state": status,
        "rounds": len(log.rounds),
        "rounds_played": played,
        "last_played_at": last_played,
        "archived": log.archived,
        "deleted": log.deleted,
    }
    seats = [
        _seat_row(log, seat, player_id, _seat_figures(state, name), last_played)
        for seat, player_id, name in log.seats
    ]
    return Derived(match, seats, kept_replay(log, seen))


def _seat_row(
    log: MatchLog, seat: int, player_id: int, figures: dict[str, Any], last_played: datetime
) -> dict[str, Any]:
    """A seat's summary row: the player's figures in the match, and where they stand."""
    figures["counted"] = figures["counted"] and not log.deleted
    return figures | {
        "match_id": log.match_id,
        "player_id": player_id,
        "table_id": log.table_id,
        "rules": log.rules,
        "seat": seat,
        "last_played_at": last_played,
    }


def _seat_figures(state: Any, name: str) -> dict[str, Any]:
    """One player's figures in a replayed match (all zero when it cannot be replayed)."""
    figures: dict[str, Any] = {"counted": False, "finished": False, "won": False, "total": 0}
    figures |= dict.fromkeys((*SUMMED_FIGURES, *ROUND_FIGURES), 0)
    figures |= {"best_round": None, "best_round_number": None, "place": None}
    if state is None:
        return figures
    for result in state.rounds:
        _count_round(figures, result, name, state)
    _as_the_match_stands(figures, state, name)
    return figures


def _count_round(figures: dict[str, Any], result: Any, name: str, state: Any) -> None:
    """Add one round to a player's figures (nothing when it is void or they sat out): the
    score, win and best round of their side (their own, alone).  Where the rules are played
    on a table (rummy500, contract), who went out, bought discards and made the contract."""
    side = state.header.side_of(name)
    if result.is_void or side not in result.scores:
        return
    score = int(result.scores[side])
    won = side in result.winners
    figures["rounds"] += 1
    figures["points"] += score
    if won:
        figures["rounds_won"] += 1
        figures["points_won"] += score
    ranked = ranked_round(score, lowest_leads(state.rules))
    if figures["best_round"] is None or ranked > figures["best_round"]:
        figures["best_round"], figures["best_round_number"] = ranked, result.number
    figures["at_once"] += bool(result.at_once and result.went_out == name)
    figures["knocks"] += result.knocker == name
    if result.outcome is Outcome.GIN:
        figures["gins" if won else "gins_against"] += 1
    if result.outcome is Outcome.UNDERCUT:
        if won:
            figures["undercuts"] += 1
        elif result.knocker == name:
            figures["undercuts_against"] += 1
    if state.rules.round_form.table:
        figures["went_out"] += result.went_out == name
        figures["buys"] += result.bought.get(name, 0)
        figures["contracts"] += name in result.contracts_made


def _as_the_match_stands(figures: dict[str, Any], state: Any, name: str) -> None:
    """The figures of a player that the match as it stands gives, after its rounds are
    counted: their side's total and win, their place in the standings."""
    side = state.header.side_of(name)
    figures["counted"] = figures["rounds"] > 0
    figures["finished"] = bool(state.finished)
    figures["won"] = bool(state.finished and side in state.winners)
    figures["total"] = int(state.totals.get(side, 0))
    figures["place"] = state.places().get(name) if figures["counted"] else None


# What of a seat's summary row the next round's counting starts from.
SEAT_COUNTED = (
    *("counted", "finished", "won", "total"),
    *SUMMED_FIGURES,
    *ROUND_FIGURES,
    *("best_round", "best_round_number"),
)


def derive_next(
    log: MatchLog, before: Derived, seen: matchlog.Outlook, key: str, when: datetime
) -> Derived | None:
    """The summary of a match after one more round (the last of ``seen``'s state, stored at
    ``when``), from its summary before that round as stored (``before``) and that round
    alone: what :func:`derive` gives from the whole log (``history check`` compares them),
    without the rounds before.  ``key`` is the key of the log with the round.  None when
    ``before`` is not the summary of a match in play with these seats (derive it whole).
    """
    state = seen.state
    if state is None or not state.rounds or before.match.get("state") != PLAYING:
        return None
    by_player = {seat["player_id"]: seat for seat in before.seats}
    if set(by_player) != {player for _seat, player, _name in log.seats}:
        return None
    result = state.rounds[-1]
    last_played = max(as_utc(before.match["last_played_at"]), as_utc(when))
    match = {
        "match_id": log.match_id,
        "table_id": log.table_id,
        "rules": log.rules,
        "state": FINISHED if state.finished else PLAYING,
        "rounds": before.match["rounds"] + 1,
        "rounds_played": before.match["rounds_played"] + (not result.is_void),
        "last_played_at": last_played,
        "archived": log.archived,
        "deleted": log.deleted,
    }
    seats = []
    for seat, player_id, name in log.seats:
        figures = {figure: by_player[player_id][figure] for figure in SEAT_COUNTED}
        _count_round(figures, result, name, state)
        _as_the_match_stands(figures, state, name)
        seats.append(_seat_row(log, seat, player_id, figures, last_played))
    # Only the new round's facts: those of the rounds before are kept with them already.
    return Derived(match, seats, matchlog.KeptReplay.of(key, state, first=len(state.rounds)))


# -- reading the log and writing the summary, on one connection ------------------------------


def log_columns(*, seating: bool = True, stopped: bool = True, teams: bool = True) -> list[Any]:
    """What :meth:`MatchLog.from_rows` reads of a match joined to its seats and players.

    ``seating`` false: the database is older than the seating changes (migration
    ``0005_history``'s backfill runs before ``0006_seating`` adds them); ``stopped`` false:
    older than the column ``stopped``; ``teams`` false: older than the column ``teams``.
    """
    seating_columns = (
        [MATCHES.c.seating_changes, SEATS.c.joined_round]
        if seating
        else [sa.null().label("seating_changes"), sa.null().label("joined_round")]
    )
    return [
        MATCHES.c.table_id,
        MATCHES.c.rules,
        MATCHES.c.options,
        MATCHES.c.first_dealer,
        MATCHES.c.created_at,
        MATCHES.c.archived_at,
        MATCHES.c.deleted_at,
        *seating_columns,
        MATCHES.c.stopped if stopped else sa.false().label("stopped"),
        MATCHES.c.teams if teams else sa.null().label("teams"),
        SEATS.c.seat,
        SEATS.c.player_id,
        PLAYERS.c.name,
    ]


# A match joined to its seats and their players, as :func:`log_columns` reads it.
MATCH_SEATS = MATCHES.outerjoin(SEATS, SEATS.c.match_id == MATCHES.c.id).outerjoin(
    PLAYERS, PLAYERS.c.id == SEATS.c.player_id
)


def read_log(
    connection: Connection,
    match_id: int,
    *,
    seating: bool = True,
    stopped: bool = True,
    teams: bool | None = None,
) -> MatchLog | None:
    """The match as stored (None if there is no such match): two queries.  ``teams`` None:
    read the teams where the database has them (an older one, while it is migrated, not)."""
    if teams is None:
        teams = _has_column(connection, MATCHES, "teams")
    rows = connection.execute(
        sa.select(*log_columns(seating=seating, stopped=stopped, teams=teams))
        .select_from(MATCH_SEATS)
        .where(MATCHES.c.id == match_id)
        .order_by(SEATS.c.seat)
    ).all()
    if not rows:
        return None
    log = MatchLog.from_rows(match_id, rows)
    log.rounds = [
        (row.number, row.entry, row.created_at)
        for row in connection.execute(
            sa.select(ROUNDS.c.number, ROUNDS.c.entry, ROUNDS.c.created_at)
            .where(
                ROUNDS.c.match_id == match_id,
                ROUNDS.c.complete.is_(True),
                ROUNDS.c.deleted_at.is_(None),
            )
            .order_by(ROUNDS.c.number)
        )
    ]
    return log


def write(
    connection: Connection,
    match_id: int,
    derived: Derived | None,
    *,
    totals: bool = True,
    replays: bool = True,
    round_figures: bool = True,
) -> None:
    """Replace a match's summary rows with ``derived`` (remove them when it is None), and the
    totals of the players it had or has (unless ``totals`` is false: the caller rebuilds them),
    and the replay kept with them (unless ``replays`` is false: a database older than them;
    ``round_figures`` false: older than the seat rows' went out, buys and contracts)."""
    if replays:
        keep_replay(connection, match_id, derived.kept if derived is not None else None)
    removed = SEATS_REMOVED if round_figures else SEATS_REMOVED_BEFORE_0012
    before = connection.execute(removed, {"the_match": match_id}).all()
    if derived is None:
        connection.execute(SUMMARY_REMOVED, {"the_match": match_id})
    else:
        values = {f"new_{name}": derived.match[name] for name in MATCH_SUMMARY_SET}
        updated = connection.execute(SUMMARY_UPDATED, {"the_match": match_id, **values})
        if updated.rowcount == 0:
            connection.execute(sa.insert(MATCH_SUMMARIES), [derived.match])
        if derived.seats:
            seats = derived.seats
            if not _has_column(connection, SEAT_SUMMARIES, "place"):  # older, being migrated
                seats = [{k: v for k, v in seat.items() if k != "place"} for seat in seats]
            connection.execute(sa.insert(SEAT_SUMMARIES), seats)
    if totals:
        seats = derived.seats if derived is not None else []
        adjust_totals(connection, [row._mapping for row in before], seats)


# The match's version as this transaction leaves it when the state is written: a change of
# the log raises it, so the state is not taken for a log changed after it was written.
_VERSION_NOW = (
    sa.select(MATCHES.c.version).where(MATCHES.c.id == sa.bindparam("the_match")).scalar_subquery()
)
REPLAY_KEPT = (
    sa.update(MATCH_REPLAYS)
    .where(MATCH_REPLAYS.c.match_id == sa.bindparam("the_match"))
    .values(
        replay_key=sa.bindparam("new_key"),
        facts=sa.bindparam("new_facts"),
        match_version=_VERSION_NOW,
    )
)
REPLAY_ADDED = sa.insert(MATCH_REPLAYS).values(
    match_id=sa.bindparam("the_match"),
    replay_key=sa.bindparam("new_key"),
    facts=sa.bindparam("new_facts"),
    match_version=_VERSION_NOW,
)


def replay_kept_in_save(after: sa.CTE) -> sa.CTE:
    """:data:`REPLAY_KEPT` inside the statement that raises the match's version (``after``,
    PostgreSQL: its parts all read the match as it was before it), the version it is kept
    at given (``new``)."""
    return (
        sa.update(MATCH_REPLAYS)
        .where(
            MATCH_REPLAYS.c.match_id == sa.bindparam("the_match"),
            sa.exists(sa.select(after.c[0])),
        )
        .values(
            replay_key=sa.bindparam("new_key"),
            facts=sa.bindparam("new_facts"),
            match_version=sa.bindparam("new"),
        )
        .returning(sa.literal_column("1").label("kept"))
        .cte("replay_kept")
    )


REPLAY_REMOVED = sa.delete(MATCH_REPLAYS).where(
    MATCH_REPLAYS.c.match_id == sa.bindparam("the_match")
)


def keep_replay(connection: Connection, match_id: int, kept: matchlog.KeptReplay | None) -> None:
    """Store the replay kept with a match's summary, at the match's version as it now stands
    (remove it when there is none): the state's own facts, and the facts of its rounds where
    they changed (a database older than the rounds' facts, while it is migrated: all of them
    with the state, as that revision kept them)."""
    if kept is None:
        connection.execute(REPLAY_REMOVED, {"the_match": match_id})
        return
    if _without_round_facts(connection):
        kept = matchlog.KeptReplay(kept.key, json.dumps(kept.whole_facts(), ensure_ascii=False))
    else:
        keep_round_facts(connection, match_id, kept)
    keep_state(connection, match_id, kept)


def keep_state(connection: Connection, match_id: int, kept: matchlog.KeptReplay) -> None:
    """Store the state's own facts (its rounds' are kept with them: :func:`keep_round_facts`,
    or the INSERT of a save's round)."""
    values = replay_values(match_id, kept)
    if connection.execute(REPLAY_KEPT, values).rowcount == 0:
        connection.execute(REPLAY_ADDED, values)


def replay_values(match_id: int, kept: matchlog.KeptReplay) -> dict[str, Any]:
    """The parameters of :data:`REPLAY_KEPT` (and of the statement of a save): the state's
    own facts."""
    return {"the_match": match_id, "new_key": kept.key, "new_facts": kept.facts}


# The facts of a match's rounds in the state kept with it: its complete rounds, not deleted.
ROUND_FACTS = (
    sa.select(ROUNDS.c.number, ROUNDS.c.facts)
    .where(
        ROUNDS.c.match_id == sa.bindparam("the_match"),
        ROUNDS.c.complete.is_(True),
        ROUNDS.c.deleted_at.is_(None),
    )
    .order_by(ROUNDS.c.number)
)


def keep_round_facts(connection: Connection, match_id: int, kept: matchlog.KeptReplay) -> None:
    """Write the facts of the kept state's rounds (from its position ``first`` on) into the
    rounds they are of, where the stored ones differ: one statement to read them, one to
    write those that changed (a correction of the last round rewrites one)."""
    stored = connection.execute(ROUND_FACTS, {"the_match": match_id}).all()
    changed = [
        {"the_number": row.number, "new_facts": facts}
        for row, facts in zip(stored[kept.first - 1 :], kept.rounds, strict=False)
        if row.facts != facts
    ]
    if changed:
        ROUND_FACTS_KEPT.execute(connection, changed, the_match=match_id)


# Set on a connection while it migrates the database (``migrations/env.py``): the schema may be
# older than the models, and what is written is what its revision has.
MIGRATING = aggregates.MIGRATING


def _has_column(connection: Connection, table: sa.Table, name: str) -> bool:
    """Whether the database's ``table`` has the column ``name`` (always, but while it is
    migrated from an older revision)."""
    if not connection.info.get(MIGRATING):
        return True
    return name in {column["name"] for column in sa.inspect(connection).get_columns(table.name)}


def _without_round_facts(connection: Connection) -> bool:
    """Whether the database is older than the rounds' facts (only while it is migrated)."""
    if not connection.info.get(MIGRATING):
        return False
    columns = sa.inspect(connection).get_columns(ROUNDS.name)
    return "facts" not in {column["name"] for column in columns}


def refresh(connection: Connection, match_id: int) -> Derived | None:
    """Recompute one match's summary from its log and store it (None: the match is gone)."""
    log = read_log(connection, match_id)
    derived = derive(log, replay(log, connection)) if log is not None else None
    write(connection, match_id, derived)
    return derived


def refresh_all(connection: Connection, *, keep_replays: bool = True) -> int:
    """Recompute every match's summary and every total (the migration's backfill), and keep
    each match's replay with it (unless ``keep_replays`` is false: the kept ones stand)."""
    ids = connection.execute(sa.select(MATCHES.c.id).order_by(MATCHES.c.id)).scalars().all()
    inspector = sa.inspect(connection)
    columns = {column["name"] for column in inspector.get_columns("matches")}
    replays = (
        keep_replays
        and inspector.has_table(MATCH_REPLAYS.name)
        and "match_version"
        in {column["name"] for column in inspector.get_columns(MATCH_REPLAYS.name)}
    )
    seat_columns = {column["name"] for column in inspector.get_columns(SEAT_SUMMARIES.name)}
    for match_id in ids:
        log = read_log(
            connection,
            match_id,
            seating="seating_changes" in columns,
            stopped="stopped" in columns,
            teams="teams" in columns,
        )
        derived = derive(log) if log is not None else None
        if derived is not None:  # an older database has fewer figures per seat
            derived.seats = [
                {name: value for name, value in seat.items() if name in seat_columns}
                for seat in derived.seats
            ]
        write(
            connection,
            match_id,
            derived,
            totals=False,
            replays=replays,
            round_figures="went_out" in seat_columns,
        )
    rebuild_totals(connection, aggregated=inspector.has_table(aggregates.PLAYER_MONTHS.name))
    return len(ids)


# -- the totals of each player and ruleset ----------------------------------------------------


def total_columns() -> list[Any]:
    """A player's figures summed over seat rows, labelled as PlayerTotal's columns."""
    seat = SEAT_SUMMARIES.c
    return [
        sa.func.count().label("matches"),
        sa.func.sum(sa.cast(seat.finished, sa.Integer)).label("finished"),
        sa.func.sum(sa.cast(seat.won, sa.Integer)).label("won"),
        *(sa.func.sum(seat[name]).label(name) for name in SUMMED_FIGURES),
        sa.func.max(seat.best_round).label("best_round"),
        sa.func.max(seat.last_played_at).label("last_played_at"),
    ]


def _totals_of(*conditions: Any) -> sa.Select[Any]:
    seat = SEAT_SUMMARIES.c
    return (
        sa.select(seat.table_id, seat.player_id, seat.rules, *total_columns())
        .where(seat.counted.is_(True), *conditions)
        .group_by(seat.table_id, seat.player_id, seat.rules)
    )


# By name: the order of a model's columns is not the order of its table's.
TOTAL_NAMES = list(_totals_of().selected_columns.keys())


def refresh_totals(connection: Connection, affected: Iterable[tuple[int, str, int]]) -> None:
    """Add up again the totals of these (table, ruleset, player): two statements a ruleset."""
    by_rules: dict[tuple[int, str], set[int]] = {}
    for table_id, rules, player_id in affected:
        by_rules.setdefault((table_id, rules), set()).add(player_id)
    for (table_id, rules), players in sorted(by_rules.items()):
        total, seat = PLAYER_TOTALS.c, SEAT_SUMMARIES.c
        connection.execute(
            sa.delete(PLAYER_TOTALS).where(
                total.table_id == table_id, total.rules == rules, total.player_id.in_(players)
            )
        )
        connection.execute(
            sa.insert(PLAYER_TOTALS).from_select(
                TOTAL_NAMES,
                _totals_of(
                    seat.table_id == table_id, seat.rules == rules, seat.player_id.in_(players)
                ),
            )
        )


# What of a seat row its player's totals are made of (and the match's place in the ratings).
TOTAL_KEY = ("table_id", "rules", "player_id")
SEAT_TOTALLED = (
    *TOTAL_KEY,
    "match_id",
    "seat",
    "counted",
    "finished",
    "won",
    "total",
    *SUMMED_FIGURES,
    *ROUND_FIGURES,
    "best_round",
    "last_played_at",
)
COUNTS = ("finished", "won", *SUMMED_FIGURES)
TOTALS_OF_PLAYERS = sa.select(PLAYER_TOTALS).where(
    PLAYER_TOTALS.c.table_id == sa.bindparam("the_table"),
    PLAYER_TOTALS.c.rules == sa.bindparam("the_rules"),
    PLAYER_TOTALS.c.player_id.in_(sa.bindparam("the_players", expanding=True)),
)


_TOTAL = PLAYER_TOTALS.c


def _total_moved(value: Callable[[str], Any]) -> sa.Update:
    new_best, new_last = value("new_best"), value("new_last")
    return (
        sa.update(PLAYER_TOTALS)
        .where(*(_TOTAL[name] == value(f"the_{name}") for name in TOTAL_KEY))
        .values(
            {name: _TOTAL[name] + value(f"more_{name}") for name in COUNTS}
            | {
                "best_round": sa.case(
                    (sa.or_(_TOTAL.best_round.is_(None), _TOTAL.best_round < new_best), new_best),
                    else_=_TOTAL.best_round,
                ),
                "last_played_at": sa.case(
                    (
                        sa.or_(_TOTAL.last_played_at.is_(None), _TOTAL.last_played_at < new_last),
                        new_last,
                    ),
                    else_=_TOTAL.last_played_at,
                ),
            }
        )
    )


TOTAL_MOVED = ManyRows(
    {f"the_{name}": _TOTAL[name].type for name in TOTAL_KEY}
    | {f"more_{name}": _TOTAL[name].type for name in COUNTS}
    | {"new_best": _TOTAL.best_round.type, "new_last": _TOTAL.last_played_at.type},
    _total_moved,
    name="totals",
)
TOTAL_UPDATED = ManyRows(
    {f"new_{name}": _TOTAL[name].type for name in TOTAL_NAMES},
    lambda value: (
        sa.update(PLAYER_TOTALS)
        .where(*(_TOTAL[name] == value(f"new_{name}") for name in TOTAL_KEY))
        .values({name: value(f"new_{name}") for name in TOTAL_NAMES if name not in TOTAL_KEY})
    ),
)


ROUND_FACTS_KEPT = ManyRows(
    {"the_number": ROUNDS.c.number.type, "new_facts": ROUNDS.c.facts.type},
    lambda value: (
        sa.update(ROUNDS)
        .where(ROUNDS.c.match_id == sa.bindparam("the_match"))
        .where(ROUNDS.c.number == value("the_number"))
        .values(facts=value("new_facts"))
    ),
)


def _by_match(table: sa.Table) -> Any:
    return table.c.match_id == sa.bindparam("the_match")


# Built once: a save runs them with every flush, and building a statement costs more
# than running it.
SEATS_REMOVED = (
    sa.delete(SEAT_SUMMARIES)
    .where(_by_match(SEAT_SUMMARIES))
    .returning(*(SEAT_SUMMARIES.c[name] for name in SEAT_TOTALLED))
)
SEATS_REMOVED_BEFORE_0012 = (
    sa.delete(SEAT_SUMMARIES)
    .where(_by_match(SEAT_SUMMARIES))
    .returning(*(SEAT_SUMMARIES.c[name] for name in SEAT_TOTALLED if name not in ROUND_FIGURES))
)
SUMMARY_REMOVED = sa.delete(MATCH_SUMMARIES).where(_by_match(MATCH_SUMMARIES))
SUMMARY_UPDATED = (
    sa.update(MATCH_SUMMARIES)
    .where(_by_match(MATCH_SUMMARIES))
    .values({name: sa.bindparam(f"new_{name}") for name in MATCH_SUMMARY_SET})
)

SEAT_SET = [
    column.name for column in SEAT_SUMMARIES.columns if column.name not in ("match_id", "player_id")
]
SEAT_UPDATED = ManyRows(
    {"the_player": SEAT_SUMMARIES.c.player_id.type}
    | {f"new_{name}": SEAT_SUMMARIES.c[name].type for name in SEAT_SET},
    lambda value: (
        sa.update(SEAT_SUMMARIES)
        .where(_by_match(SEAT_SUMMARIES), SEAT_SUMMARIES.c.player_id == value("the_player"))
        .values({name: value(f"new_{name}") for name in SEAT_SET})
    ),
    name="seats",
)


def rewrite(
    connection: Connection, match_id: int, before: Sequence[Mapping[str, Any]], derived: Derived
) -> None:
    """:func:`write`, over the seat rows ``before`` read earlier (the match unchanged since):
    the rows are updated where they are, when the same players are seated."""
    if {row["player_id"] for row in before} != {seat["player_id"] for seat in derived.seats}:
        write(connection, match_id, derived)
        return
    if derived.kept is None:
        keep_replay(connection, match_id, None)
    else:  # the new round's facts are in its INSERT
        keep_state(connection, match_id, derived.kept)
    if connection.dialect.name == "postgresql":
        moves = moves_in_place(match_id, before, derived)
        if moves is not None:
            moves.settle(connection, connection.execute(ALL_MOVED, moves.parameters).one())
            return
    values = {f"new_{name}": derived.match[name] for name in MATCH_SUMMARY_SET}
    connection.execute(SUMMARY_UPDATED, {"the_match": match_id, **values})
    SEAT_UPDATED.execute(connection, _seat_values(derived), the_match=match_id)
    adjust_totals(connection, before, derived.seats)


def moved_parts(after: sa.CTE | None = None) -> list[sa.CTE]:
    """The parts of moving a match's figures by one round more (PostgreSQL), each an UPDATE
    of rows that are there returning one row a row changed: the summary, the seat rows, the
    statistics version, the months, the pairs' months, the totals.  With ``after``, each
    waits for that part of the same statement and does nothing when it wrote no row."""

    def part(statement: sa.Update, name: str) -> sa.CTE:
        if after is not None:
            statement = statement.where(sa.exists(sa.select(after.c[0])))
        return statement.returning(sa.literal_column("1").label("moved")).cte(name)

    return [
        part(SUMMARY_UPDATED, "summary_moved"),
        part(SEAT_UPDATED.at_once, "seats_moved"),
        part(aggregates.VERSION_RAISED, "version_raised"),
        part(aggregates.PLAYER_MONTH_MOVED.at_once, "player_months_moved"),
        part(aggregates.PAIR_MONTH_MOVED.at_once, "pair_months_moved"),
        part(TOTAL_MOVED.at_once, "totals_moved"),
    ]


def counted(parts: Iterable[sa.CTE]) -> list[Any]:
    """How many rows each part returned, as columns named after the parts."""
    return [
        sa.select(sa.func.count()).select_from(part).scalar_subquery().label(part.name)
        for part in parts
    ]


ALL_MOVED = sa.select(*counted(moved_parts()))

# The SQLSTATE of ``referee_moved_all`` (PostgreSQL, migration 0016_savealone), raised when
# its argument is not true: the statement it is in is undone as a whole.
MOVES_MISSING = "RR001"


def all_moved(added: sa.CTE, parts: Iterable[sa.CTE]) -> Any:
    """A column of the save's statement that undoes it (:data:`MOVES_MISSING`) when its
    round was added (``added``) but a part of :func:`moved_parts` or the kept replay
    (``parts``) found a row missing, as :meth:`Moves.settle` and ``keep_state`` would count
    again: a save with it can commit as a statement of its own."""
    rows = {
        part.name: sa.select(sa.func.count()).select_from(part).scalar_subquery() for part in parts
    }
    complete = sa.and_(
        rows["replay_kept"] == 1,
        *(rows[name] == sa.bindparam(f"expected_{name}") for name in COUNTED_MOVES),
    )
    added_none = ~sa.exists(sa.select(added.c[0]))
    return sa.func.referee_moved_all(sa.or_(added_none, complete)).label("all_moved")


# The parts of :func:`moved_parts` whose rows may be missing (a month, a pair's month, a
# total, the statistics version not made yet), with how many each should move in
# ``Moves.expected``: checked by :func:`all_moved`, counted again by :meth:`Moves.settle`.
COUNTED_MOVES = ("version_raised", "player_months_moved", "pair_months_moved", "totals_moved")


@dataclass
class Moves:
    """A round more in a match not finished, moved in place (:func:`moves_in_place`): the
    parameters of :func:`moved_parts`, and what to count again when a row to move is not
    there (:meth:`settle`).  Nothing rated changes (:func:`aggregates.ratings_moved`): the
    match is not finished before or after."""

    table_id: int
    parameters: dict[str, Any]
    before: Sequence[Mapping[str, Any]]
    after: Sequence[Mapping[str, Any]]
    totals: list[tuple[Any, ...]]
    expected: dict[str, int]  # of each of COUNTED_MOVES

    def settle(self, connection: Connection, moved: Any) -> None:
        """After :func:`moved_parts` ran (``moved``: their counts): what was missing,
        counted again."""
        short = {name for name, count in self.expected.items() if getattr(moved, name) != count}
        if "version_raised" in short:
            aggregates.raise_version(connection, [self.table_id])
        if short & {"player_months_moved", "pair_months_moved"}:
            aggregates.recount_touched(connection, self.before, self.after)
        if "totals_moved" in short:
            refresh_totals(connection, self.totals)


def moves_in_place(
    match_id: int, before: Sequence[Mapping[str, Any]], derived: Derived
) -> Moves | None:
    """The moves of :func:`rewrite` after the kept replay, when they are the common case: the
    same players, :func:`aggregates.in_place`, every total only rising (None otherwise)."""
    after = derived.seats
    if {row["player_id"] for row in before} != {seat["player_id"] for seat in after}:
        return None
    if not aggregates.in_place(before, after):
        return None
    old = {tuple(row[name] for name in TOTAL_KEY): row for row in before if row["counted"]}
    new = {tuple(row[name] for name in TOTAL_KEY): row for row in after if row["counted"]}
    if old.keys() != new.keys() or not all(_only_rises(old[key], new[key]) for key in old):
        return None
    (table_id,) = {row["table_id"] for row in after}
    players, pairs = aggregates.moves_in_place(before, after)
    totals = sorted(old)
    parameters = (
        {"the_match": match_id, "the_table": table_id}
        | {f"new_{name}": derived.match[name] for name in MATCH_SUMMARY_SET}
        | SEAT_UPDATED.parameters(_seat_values(derived))
        | aggregates.PLAYER_MONTH_MOVED.parameters(players)
        | aggregates.PAIR_MONTH_MOVED.parameters(pairs)
        | TOTAL_MOVED.parameters([_moved(key, old[key], new[key]) for key in totals])
    )
    counts = (1, len(players), len(pairs), len(totals))
    expected = dict(zip(COUNTED_MOVES, counts, strict=True))
    parameters |= {f"expected_{name}": count for name, count in expected.items()}
    return Moves(table_id, parameters, before, after, totals, expected)


def _seat_values(derived: Derived) -> list[dict[str, Any]]:
    return [
        {"the_player": seat["player_id"]} | {f"new_{name}": seat[name] for name in SEAT_SET}
        for seat in derived.seats
    ]


def adjust_totals(
    connection: Connection, before: Sequence[Any], after: Sequence[Mapping[str, Any]]
) -> None:
    """Move the totals of a match's players from its seat rows ``before`` to ``after``.

    Each total is changed by the difference of the match's rows instead of being added up
    again from every match of the player (thousands at a club's table): sums and counts
    lose the old row and gain the new one; the highest round and the last time played only
    rise, and where the old row held the highest and the new one is lower, that player's
    total is added up again (:func:`refresh_totals`).  ``history check`` compares the result
    with a count from scratch.
    """
    aggregates.moved(connection, before, after)
    old = {tuple(row[name] for name in TOTAL_KEY): row for row in before if row["counted"]}
    new = {tuple(row[name] for name in TOTAL_KEY): row for row in after if row["counted"]}
    keys = sorted(old.keys() | new.keys())
    if not keys:
        return
    if old.keys() == new.keys() and all(_only_rises(old[key], new[key]) for key in keys):
        # The common case (a round more, the same players): each total moves by the
        # difference in the database itself, without being read first.
        moved = TOTAL_MOVED.execute(connection, [_moved(key, old[key], new[key]) for key in keys])
        if moved.rowcount != len(keys):  # a total missing: count them again
            refresh_totals(connection, [(table, rules, player) for table, rules, player in keys])
        return
    stored: dict[tuple[Any, ...], Any] = {}
    for (table_id, rules), players in _grouped(keys).items():
        found = connection.execute(
            TOTALS_OF_PLAYERS, {"the_table": table_id, "the_rules": rules, "the_players": players}
        )
        stored |= {(row.table_id, row.rules, row.player_id): row._mapping for row in found}
    total = PLAYER_TOTALS.c
    again: list[tuple[Any, ...]] = []
    updates: list[dict[str, Any]] = []
    for key in keys:
        was, now_ = old.get(key), new.get(key)
        current = stored.get(key)
        if current is None and was is not None:  # a total that is not there: count it
            again.append(key)
            continue
        figures = {name: current[name] for name in TOTAL_NAMES} if current else None
        if figures is None:
            figures = dict(zip(TOTAL_KEY, key, strict=True)) | {
                "matches": 0,
                **dict.fromkeys(COUNTS, 0),
                "best_round": None,
                "last_played_at": None,
            }
        figures["matches"] += (now_ is not None) - (was is not None)
        for name in COUNTS:
            figures[name] += int(now_[name] if now_ else 0) - int(was[name] if was else 0)
        if not all(_raise_highest(figures, was, now_, name, how) for name, how in HIGHEST):
            again.append(key)
            continue
        if figures["matches"] == 0:
            where = [total[name] == value for name, value in zip(TOTAL_KEY, key, strict=True)]
            connection.execute(sa.delete(PLAYER_TOTALS).where(*where))
        elif current is None:
            connection.execute(sa.insert(PLAYER_TOTALS).values(figures))
        else:
            updates.append({f"new_{name}": figures[name] for name in TOTAL_NAMES})
    if updates:
        TOTAL_UPDATED.execute(connection, updates)
    if again:
        refresh_totals(connection, [(table, rules, player) for table, rules, player in again])


# The figures a total keeps the highest of (over its matches), and how they compare.
HIGHEST: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("best_round", lambda value: value),
    ("last_played_at", as_utc),
)


def _went_down(old: Any, new: Any, comparable: Callable[[Any], Any]) -> bool:
    return old is not None and (new is None or comparable(new) < comparable(old))


def _only_rises(was: Mapping[str, Any], now_: Mapping[str, Any]) -> bool:
    """Whether no highest figure of a seat row went down (a lower one needs the other
    matches)."""
    return not any(_went_down(was[name], now_[name], comparable) for name, comparable in HIGHEST)


def _moved(key: tuple[Any, ...], was: Mapping[str, Any], now_: Mapping[str, Any]) -> dict[str, Any]:
    values = {f"the_{name}": value for name, value in zip(TOTAL_KEY, key, strict=True)}
    values |= {f"more_{name}": int(now_[name]) - int(was[name]) for name in COUNTS}
    return values | {"new_best": now_["best_round"], "new_last": now_["last_played_at"]}


def _grouped(keys: Iterable[tuple[Any, ...]]) -> dict[tuple[Any, Any], list[Any]]:
    """(table, ruleset, player) keys as the players of each table and ruleset."""
    grouped: dict[tuple[Any, Any], list[Any]] = {}
    for table_id, rules, player_id in keys:
        grouped.setdefault((table_id, rules), []).append(player_id)
    return grouped


def _raise_highest(
    figures: dict[str, Any], was: Any, now_: Any, name: str, comparable: Any
) -> bool:
    """Keep the highest ``name`` of a total as the match's row changes from ``was`` to
    ``now_``; False when that cannot be told without the other matches (it was this
    match's and went down)."""
    highest = figures[name]
    old = was[name] if was is not None else None
    new = now_[name] if now_ is not None else None
    if highest is not None and old is not None and comparable(old) >= comparable(highest):
        if _went_down(old, new, comparable):
            return False
    if new is not None and (highest is None or comparable(new) > comparable(highest)):
        figures[name] = new
    return True


def rebuild_totals(connection: Connection, *, aggregated: bool = True) -> None:
    """Add up every total again from the seat rows, and the monthly aggregates (unless
    ``aggregated`` is false: a database older than them)."""
    connection.execute(sa.delete(PLAYER_TOTALS))
    connection.execute(sa.insert(PLAYER_TOTALS).from_select(TOTAL_NAMES, _totals_of()))
    if aggregated:
        aggregates.rebuild(connection)


def _compare_totals(connection: Connection) -> list[Difference]:
    stored = {
        (row.table_id, row.player_id, row.rules): row._mapping
        for row in connection.execute(sa.select(PLAYER_TOTALS))
    }
    expected = {
        (row.table_id, row.player_id, row.rules): row._mapping
        for row in connection.execute(_totals_of())
    }
    names = dict(connection.execute(sa.select(PLAYERS.c.id, PLAYERS.c.name)).all())
    found = []
    for key in sorted(stored.keys() | expected.keys()):
        table_id, player_id, rules = key
        where = f"table {table_id}, {names.get(player_id, player_id)}, {rules}"
        if key not in expected:
            found.append(Difference(None, where, "totals", "present", "no counted match"))
        elif key not in stored:
            found.append(Difference(None, where, "totals", "missing", "present"))
        else:
            found.extend(
                Difference(
                    None, where, name, _plain(stored[key][name]), _plain(expected[key][name])
                )
                for name in TOTAL_NAMES[3:]
                if _plain(stored[key][name]) != _plain(expected[key][name])
            )
    return found


# -- the match as the session holds it ------------------------------------------------------


MATCH_LOADED = (
    *("id", "table_id", "rules", "options", "first_dealer", "created_at"),
    *("archived_at", "deleted_at", "seating_changes", "stopped", "seats", "stored_rounds"),
    "teams",
)
SEAT_LOADED = ("seat", "player_id", "joined_round", "player")
ROUND_LOADED = ("number", "entry", "complete", "deleted_at", "created_at")


def log_in_session(session: Session, match_id: int) -> MatchLog | None:
    """The match as this flush left it, from the objects in the session, when they hold all
    of it (None: read it back with :func:`read_log`).

    A save has the match, its seats and its rounds loaded; reading them back costs more than
    the rest of the summary.  Every round and seat this flush added or deleted must be in (or
    out of) the match's collections, or the objects are not the whole truth.
    """
    match = session.identity_map.get(identity_key(Match, match_id))
    added = set(session.new)
    if match is None or not _loaded(match, MATCH_LOADED, added):
        return None
    seats, rounds = match.seats, match.stored_rounds
    if not all(_loaded(seat, SEAT_LOADED, added) for seat in seats):
        return None
    if not all(_loaded(seat.player, ("name",), added) for seat in seats):
        return None
    if not all(_loaded(stored, ROUND_LOADED, added) for stored in rounds):
        return None
    for obj in (*session.new, *session.dirty):
        if isinstance(obj, Round | MatchPlayer) and match_id in _values(obj, "match_id"):
            if obj not in (rounds if isinstance(obj, Round) else seats):
                return None
    if any(obj in rounds or obj in seats for obj in session.deleted):
        return None
    header, ordered = _loaded_values(match), sorted(seats, key=lambda seat: seat.seat)
    log = MatchLog(
        match_id,
        header["table_id"],
        header["rules"],
        header["options"],
        header["first_dealer"],
        header["created_at"],
        archived=header.get("archived_at") is not None,
        deleted=header.get("deleted_at") is not None,
        seats=[(seat.seat, seat.player_id, seat.player.name) for seat in ordered],
        seating_changes=header.get("seating_changes"),
        joined={s.seat for s in ordered if _loaded_values(s).get("joined_round") is not None},
        stopped=bool(header.get("stopped")),
        teams=header.get("teams"),
    )
    played = [_loaded_values(stored) for stored in rounds]
    log.rounds = sorted(
        (r["number"], r["entry"], r["created_at"])
        for r in played
        if r["complete"] and r.get("deleted_at") is None
    )
    return log


def _loaded(obj: object, keys: Sequence[str], added: set[object]) -> bool:
    """Whether ``keys`` of ``obj`` are in memory; a column of an object this flush inserted
    that nothing gave a value to (and the database has no default for) is NULL."""
    state = sa.inspect(obj)
    missing = state.unloaded & set(keys)
    if obj in added:
        columns = state.mapper.columns
        missing = {
            key
            for key in missing
            if key not in columns
            or columns[key].server_default is not None
            or columns[key].default is not None
        }
    return not state.expired and not missing


def _values(obj: object, key: str) -> set[Any]:
    """An attribute's value now and before the last flush, without loading anything."""
    attribute = sa.inspect(obj).attrs[key]
    values = {attribute.loaded_value, *attribute.history.deleted}
    return {value for value in values if value is not NO_VALUE and value is not None}


def _loaded_values(obj: object) -> dict[str, Any]:
    """The attributes of ``obj`` in memory (one never given to a new object is missing)."""
    return cast(dict[str, Any], sa.inspect(obj).dict)


# -- the check ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A stored figure that the log does not give (``player`` None for the match's own)."""

    match_id: int | None  # None for a player's totals
    player: str | None
    figure: str
    stored: Any
    derived: Any

    def __str__(self) -> str:
        where = f"match {self.match_id}" if self.match_id is not None else "totals"
        where += f", {self.player}" if self.player else ""
        return (
            f"{where}: {self.figure} is stored as {self.stored!r}, the log gives {self.derived!r}"
        )


def check(connection: Connection, *, fix: bool = False) -> list[Difference]:
    """Recompute every summary from the log; the differences (rewritten when ``fix``)."""
    stored_ids = set(connection.execute(sa.select(MATCH_SUMMARIES.c.match_id)).scalars())
    match_ids = connection.execute(sa.select(MATCHES.c.id).order_by(MATCHES.c.id)).scalars().all()
    found: list[Difference] = []
    for match_id in [*match_ids, *sorted(stored_ids - set(match_ids))]:
        log = read_log(connection, match_id)
        derived = derive(log) if log is not None else None
        seated = [name for _seat, _player, name in log.seats] if log else []
        differences = compare(connection, match_id, derived, seated)
        differences += compare_replay(connection, match_id, derived)
        if differences and fix:
            write(connection, match_id, derived, totals=False)
        found.extend(differences)
    totals = _compare_totals(connection)
    totals += [Difference(None, *found_) for found_ in aggregates.compare(connection)]
    if (found or totals) and fix:
        rebuild_totals(connection)
    return found + totals


def compare(
    connection: Connection, match_id: int, derived: Derived | None, names: Sequence[str]
) -> list[Difference]:
    stored = connection.execute(
        sa.select(MATCH_SUMMARIES).where(MATCH_SUMMARIES.c.match_id == match_id)
    ).one_or_none()
    if derived is None:
        return [Difference(match_id, None, "summary", "present", "no match")] if stored else []
    if stored is None:
        return [Difference(match_id, None, "summary", "missing", derived.match["state"])]
    found = [
        Difference(match_id, None, figure, _plain(stored._mapping[figure]), derived.match[figure])
        for figure in MATCH_FIGURES
        if _plain(stored._mapping[figure]) != derived.match[figure]
    ]
    seats = {
        row.player_id: row._mapping
        for row in connection.execute(
            sa.select(SEAT_SUMMARIES).where(SEAT_SUMMARIES.c.match_id == match_id)
        )
    }
    by_player = {figures["player_id"]: figures for figures in derived.seats}
    name_of = {
        figures["player_id"]: name for figures, name in zip(derived.seats, names, strict=True)
    }
    for player_id in sorted(seats.keys() | by_player.keys()):
        name = name_of.get(player_id, f"player {player_id}")
        if player_id not in seats:
            found.append(Difference(match_id, name, "seat", "missing", "seated"))
        elif player_id not in by_player:
            found.append(Difference(match_id, name, "seat", "present", "not seated"))
        else:
            found.extend(
                Difference(match_id, name, figure, _plain(seats[player_id][figure]), value)
                for figure, value in by_player[player_id].items()
                if figure in SEAT_FIGURES and _plain(seats[player_id][figure]) != value
            )
    return found


def compare_replay(
    connection: Connection, match_id: int, derived: Derived | None
) -> list[Difference]:
    """The replay kept with a match against a whole replay (``derived``, made without it).

    A match may have none kept yet (stored before they were kept; the next write keeps
    one); one kept is of the match's rounds as they are, and its facts are the whole
    replay's (but for the score sheet's detail of rounds kept before it was kept), or the
    next save would play on a wrong state.
    """
    kept = matchlog.kept_replay(connection, match_id)
    if kept is None:
        return []
    expected = derived.kept if derived is not None else None
    if expected is None:
        return [Difference(match_id, None, "kept replay", "present", "no replay")]
    if kept.key != expected.key:
        return [Difference(match_id, None, "kept replay", "of other rounds", "of these rounds")]
    whole = expected.whole_facts()
    try:
        facts = kept.whole_facts()
    except (KeyError, TypeError, ValueError):
        held = sum(text is not None for text in kept.rounds)
        rounds = f"the facts of {len(whole['rounds'])} rounds"
        return [Difference(match_id, None, "kept replay", f"the facts of {held} rounds", rounds)]
    if not facts_agree(facts, whole):
        text = json.dumps(whole, ensure_ascii=False)
        return [Difference(match_id, None, "kept replay", json.dumps(facts), text)]
    return []


def _plain(value: Any) -> Any:
    return as_utc(value) if isinstance(value, datetime) else value


# -- matches new to the store, in bulk (a table imported) ----------------------------------------


def add_new(connection: Connection, derived: Sequence[Derived]) -> None:
    """The summary rows of matches just inserted and the replays kept with them, a statement
    a kind; the players' totals are then added up once for their table (:func:`recount_table`).
    The facts of their rounds go in with the rounds (:func:`new_round_facts`)."""
    if not derived:
        return
    connection.execute(sa.insert(MATCH_SUMMARIES), [found.match for found in derived])
    seats = [seat for found in derived for seat in found.seats]
    if seats:
        connection.execute(sa.insert(SEAT_SUMMARIES), seats)
    kept = [
        {
            "the_match": found.match["match_id"],
            "new_key": found.kept.key,
            "new_facts": found.kept.facts,
        }
        for found in derived
        if found.kept is not None
    ]
    if kept:  # at the version of the match just inserted: its next save takes the plain way
        connection.execute(REPLAY_ADDED, kept)


def new_round_facts(derived: Derived) -> tuple[str | None, ...]:
    """The facts of a new match's complete rounds in the state kept with it (:func:`add_new`),
    in order, to be inserted with the rounds (None each when it keeps none)."""
    return derived.kept.rounds if derived.kept is not None else ()


def recount_table(connection: Connection, table_id: int) -> None:
    """Add up again every total of one table from its seat rows."""
    connection.execute(sa.delete(PLAYER_TOTALS).where(PLAYER_TOTALS.c.table_id == table_id))
    connection.execute(
        sa.insert(PLAYER_TOTALS).from_select(
            TOTAL_NAMES, _totals_of(SEAT_SUMMARIES.c.table_id == table_id)
        )
    )
    aggregates.recount_table(connection, table_id)
