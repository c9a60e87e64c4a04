"""What the app stores: card tables (groups that play together), players, matches and rounds.

A round is stored exactly as it was entered, as a round object of the
``referee-match/1`` format (``Round.entry``).  Totals, dealers, targets and
winners are never stored: the engine recomputes them from the log
(:mod:`referee.web.store.matchlog`).  No rule logic and no ``url_for`` here.

Matches and rounds carry a ``version`` that every change raises (SQLAlchemy's
``version_id_col``, set by the app: see :mod:`referee.web.store.writes`).  A form
names the versions it was made from; an UPDATE whose version moved on matches
no row and fails, so a stale write can never overwrite a newer one.

The group that plays together is a :class:`CardTable` ("meja"); the cards on
the table during a round are the engine's business.
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from referee.web.store.extensions import db

# What a key or a one-time token can look like (``secrets.token_urlsafe``); anything else is
# not looked up at all (PostgreSQL refuses a NUL in a query, for one).
KEY_FORMAT = re.compile(r"[A-Za-z0-9_-]{1,64}")

if TYPE_CHECKING:  # Flask-SQLAlchemy's db.Model is the declarative base below, made at run time
    from referee.web.store.extensions import Base as Model
else:
    Model = db.Model


def new_key() -> str:
    """A long random token for a table's edit or view link."""
    return secrets.token_urlsafe(24)


def now() -> datetime:
    return datetime.now(UTC)


class CardTable(Model):
    __tablename__ = "card_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    edit_key: Mapped[str] = mapped_column(sa.String(64), unique=True, default=new_key)
    view_key: Mapped[str] = mapped_column(sa.String(64), unique=True, default=new_key)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)

    players: Mapped[list[Player]] = relationship(
        back_populates="table", order_by="Player.name", cascade="all, delete-orphan"
    )
    stored_matches: Mapped[list[Match]] = relationship(
        back_populates="table", order_by="Match.id.desc()", cascade="all, delete-orphan"
    )
    events: Mapped[list[TableEvent]] = relationship(
        back_populates="table", order_by="TableEvent.id", cascade="all, delete-orphan"
    )
    house_rules: Mapped[list[HouseRules]] = relationship(
        back_populates="table", order_by="HouseRules.name", cascade="all, delete-orphan"
    )

    @property
    def matches(self) -> tuple[Match, ...]:
        """The matches that are not deleted (archived ones included), newest first; read only."""
        return tuple(match for match in self.stored_matches if match.deleted_at is None)


class TableEvent(Model):
    """Something done to the table itself, for its history: a link replaced.

    Written in the transaction that does it.  ``what`` is one of
    :data:`TABLE_EVENT_KINDS`; ``via`` the access mode of the link used ("t"
    the edit link), never its key: neither the old key nor the new one is kept
    here, so a leaked key cannot be recognised later, nor read from the history.
    """

    __tablename__ = "table_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    happened_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    what: Mapped[str] = mapped_column(sa.String(24))
    via: Mapped[str] = mapped_column(sa.String(8))

    table: Mapped[CardTable] = relationship(back_populates="events")


TABLE_EVENT_KINDS = ("edit-link-replaced", "view-link-replaced")


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (sa.UniqueConstraint("table_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    name: Mapped[str] = mapped_column(sa.String(40))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)

    table: Mapped[CardTable] = relationship(back_populates="players")


class HouseRules(Model):
    """A table's own named set of house rules ("our house rules"): a ruleset and its options.

    A match started from it copies the options (the match keeps them if the set changes
    later).  Edits and deletions name the ``version`` they were made from.
    """

    __tablename__ = "house_rules"
    __table_args__ = (sa.UniqueConstraint("table_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("card_tables.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(sa.String(40))
    rules: Mapped[str] = mapped_column(sa.String(40))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), default=now, onupdate=now
    )
    version: Mapped[int] = mapped_column(default=1, server_default="1")

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    table: Mapped[CardTable] = relationship(back_populates="house_rules")


class Match(Model):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    rules: Mapped[str] = mapped_column(sa.String(40))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)
    first_dealer: Mapped[str] = mapped_column(sa.String(40))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), default=now, onupdate=now
    )
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    # Hidden from the table's list (still counted in statistics); None while it is not.
    archived_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # Restorable for DELETED_MATCH_LIFETIME, then purged; out of the list and the statistics.
    deleted_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), index=True)
    # The match file's "seating_changes" (players who joined or left between rounds), or None.
    seating_changes: Mapped[list[dict[str, Any]] | None] = mapped_column(sa.JSON)
    # The players ended a match with no fixed end (the match file's "stopped": indian points).
    stopped: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    # An imported match: the fingerprint of the document it came from, once per table (the
    # same document imported again is the same match); None for a match set up here or a copy.
    fingerprint: Mapped[str | None] = mapped_column(sa.String(64))
    # The match file's "teams" (team name -> partners) where the game is played in teams.
    teams: Mapped[dict[str, list[str]] | None] = mapped_column(sa.JSON)

    __table_args__ = (sa.UniqueConstraint("table_id", "fingerprint"),)
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    table: Mapped[CardTable] = relationship(back_populates="stored_matches")
    seats: Mapped[list[MatchPlayer]] = relationship(
        back_populates="match", order_by="MatchPlayer.seat", cascade="all, delete-orphan"
    )
    # Every stored round, deleted ones included: add and remove rounds here
    # (through :mod:`referee.web.store.writes`), read them through ``rounds``.
    stored_rounds: Mapped[list[Round]] = relationship(
        back_populates="match", order_by="Round.number", cascade="all, delete-orphan"
    )
    changes: Mapped[list[RoundChange]] = relationship(
        back_populates="match", order_by="RoundChange.id", cascade="all, delete-orphan"
    )

    @property
    def rounds(self) -> tuple[Round, ...]:
        """The rounds of the match (a deleted round is not one of them); read only."""
        return tuple(r for r in self.stored_rounds if r.deleted_at is None)

    @property
    def deleted_round(self) -> Round | None:
        """The deleted round that can still be restored: it would again be the last round."""
        rounds = self.rounds
        if any(not r.complete for r in rounds):
            return None
        return next(
            (
                r
                for r in self.stored_rounds
                if r.deleted_at is not None and r.number == len(rounds) + 1
            ),
            None,
        )

    @property
    def player_names(self) -> list[str]:
        """The players seated in round 1, clockwise (the match file's ``players``)."""
        return [seat.player.name for seat in self.seats if seat.joined_round is None]

    @property
    def everyone(self) -> list[str]:
        """Everyone who has sat at the table: round 1's players, then who joined."""
        return [seat.player.name for seat in self.seats]

    def seating_at(self, number: int) -> list[str]:
        """The players seated in round ``number``, clockwise."""
        return seated_at(self.player_names, self.seating_changes, number)

    @property
    def seated_names(self) -> list[str]:
        """The players seated for the next round."""
        return self.seating_at(self.next_round_number)

    @property
    def pending_seating(self) -> dict[str, Any] | None:
        """The seating change made since the last round, before the next (None if none)."""
        changes = self.seating_changes or []
        last = changes[-1] if changes else None
        if isinstance(last, dict) and _int(last.get("before_round")) == self.next_round_number:
            return last
        return None

    @property
    def complete_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.complete]

    @property
    def live_round(self) -> Round | None:
        return next((r for r in self.rounds if not r.complete), None)

    @property
    def next_round_number(self) -> int:
        """The number the round being entered gets (a live round has it already)."""
        return len(self.complete_rounds) + 1


def is_void(entry: Any) -> bool:
    """Whether a stored round object is a void round."""
    return isinstance(entry, dict) and entry.get("end") == "void"


def seated_at(players: list[str], seating_changes: Any, number: int) -> list[str]:
    """The players seated in round ``number`` of a match whose round 1 seats ``players``
    and whose seating changes are ``seating_changes``, clockwise."""
    seated = players
    for change in seating_changes or ():
        if isinstance(change, dict) and _int(change.get("before_round")) <= number:
            seated = [str(name) for name in change.get("players") or ()]
    return seated


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 1 << 30


class MatchPlayer(Model):
    """A player's seat in a match; seats are numbered clockwise from 0.

    A player who joined later has ``joined_round`` (the round before which they first
    joined) and a seat numbered after round 1's: where they sit is the match's
    ``seating_changes``.
    """

    __tablename__ = "match_players"
    __table_args__ = (sa.UniqueConstraint("match_id", "player_id"),)

    match_id: Mapped[int] = mapped_column(sa.ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)
    joined_round: Mapped[int | None]

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class Round(Model):
    """One round as entered: ``entry`` is its ``referee-match/1`` round object.

    A live round being played turn by turn is stored with ``complete`` false
    (its ``entry`` holds the turns so far); the replay leaves it out.  When a
    round is voided, ``entry`` becomes ``{"end": "void"}`` and the entry it
    replaced is kept in ``previous_entry`` so that the void can be undone.
    """

    __tablename__ = "rounds"
    __table_args__ = (sa.UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("matches.id"), index=True)
    number: Mapped[int]
    entry: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    previous_entry: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    complete: Mapped[bool] = mapped_column(default=True, server_default=sa.true())
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), default=now, onupdate=now
    )
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    # A deleted round stays stored (restorable) until another round takes its number.
    deleted_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # The engine's facts of this round in the state kept with the match (``MatchState.
    # round_facts``, JSON text): a part of :class:`MatchReplay`, written and read only with it
    # (:mod:`referee.web.store.summary`), so that a save writes its own round's facts and not
    # every round's again.  Not loaded with the round.
    facts: Mapped[str | None] = mapped_column(sa.Text, deferred=True)

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    match: Mapped[Match] = relationship(back_populates="stored_rounds")

    @property
    def voided(self) -> bool:
        return is_void(self.entry)


class RoundChange(Model):
    """One change to a saved round, for the audit trail on the round's page.

    Written in the same transaction as the change.  ``what`` is one of
    :data:`CHANGE_KINDS`; ``before`` and ``after`` are the round objects on
    either side (None where the round was not there); ``via`` is the access
    mode of the link used ("t" the edit link), never its key.  The round may be
    gone for good later (``round_id`` then becomes NULL): ``number`` stays.
    """

    __tablename__ = "round_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("matches.id"), index=True)
    round_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("rounds.id", ondelete="SET NULL"), index=True
    )
    number: Mapped[int]
    changed_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    what: Mapped[str] = mapped_column(sa.String(16))
    before: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    via: Mapped[str] = mapped_column(sa.String(8))

    match: Mapped[Match] = relationship(back_populates="changes")


CHANGE_KINDS = ("corrected", "turn-corrected", "voided", "restored", "deleted", "undeleted")


class WriteReceipt(Model):
    """A write that was carried out, by the one-time token of the form that asked for it.

    A form that creates something (a table, players, a match, a round, a turn)
    carries a token made when the page was rendered; a second request with the
    same token (a double tap, a retry after a lost answer) finds its receipt and
    is sent to what the first one made instead of doing it again.  The token belongs to
    that write: sent with another operation, target or body it is refused (409).
    """

    __tablename__ = "write_receipts"

    token: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    location: Mapped[str] = mapped_column(sa.String(400))
    # What the write was (:func:`referee.web.store.writes.request_fingerprint`): the token
    # answers only the same operation on the same target with the same body.  None: a
    # receipt kept before they were recorded (it answers any request, as it did then).
    operation: Mapped[str | None] = mapped_column(sa.String(120))
    target: Mapped[str | None] = mapped_column(sa.String(400))
    digest: Mapped[str | None] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), default=now, index=True
    )


class MatchReplay(Model):
    """The engine's state after a match's last round, kept with its summary so that a save
    plays the next round on it instead of replaying the whole match (any worker, cache or
    not).  ``replay_key`` is the hash of the header and rounds it was replayed from; a
    state of other rounds is not used.  ``facts`` are the engine's
    ``MatchState.facts(rounds=False)`` as JSON text (the order of its mappings is the players'
    order); the facts of its rounds are kept with them (``Round.facts``: the complete rounds
    not deleted, in order), so that a save adds its round's and rewrites only these.  ``match_version`` is
    the match's version when it was written: every change of the log raises the version,
    so one kept at the current version is of the log as stored (the API's plain save reads
    no round for it).  Written only by :mod:`referee.web.store.summary`; ``history check``
    compares it with a whole replay.
    """

    __tablename__ = "match_replays"

    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    replay_key: Mapped[str] = mapped_column(sa.String(64))
    facts: Mapped[str] = mapped_column(sa.Text)
    match_version: Mapped[int | None]


class MatchSummary(Model):
    """What the match list and the statistics need of one match, derived from its log.

    Written only by :mod:`referee.web.store.summary`, which replays the match through
    the engine in the same flush as every change of its rounds, seats or options;
    ``flask history check`` recomputes every summary from the log and reports any
    difference.  ``state`` is ``playing``, ``finished`` or ``broken`` (the log
    cannot be replayed); ``last_played_at`` is when its latest round was
    entered (when the match was set up, before its first round).
    """

    __tablename__ = "match_summaries"
    # The list reads a table's matches newest first, filtered by game and state; the statistics
    # count them per game and state: all from this index.
    __table_args__ = (
        sa.Index(
            "ix_match_summaries_listing",
            "table_id",
            "last_played_at",
            "match_id",
            "rules",
            "state",
            "rounds_played",
            "archived",
            "deleted",
        ),
        sa.Index("ix_match_summaries_archived", "table_id", "archived", "deleted"),
        # One ruleset's matches of a table (Indian rummy's figures on the statistics pages).
        sa.Index("ix_match_summaries_rules", "table_id", "rules", "last_played_at"),
    )

    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id", ondelete="CASCADE"))
    rules: Mapped[str] = mapped_column(sa.String(40))
    state: Mapped[str] = mapped_column(sa.String(10))
    rounds: Mapped[int]  # complete rounds, void ones included
    rounds_played: Mapped[int]  # complete rounds that are not void
    last_played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    archived: Mapped[bool]  # out of the list (the archived matches show it), in the statistics
    deleted: Mapped[bool]  # out of the list and the statistics, until restored or purged

    seats: Mapped[list[SeatSummary]] = relationship(
        back_populates="summary", order_by="SeatSummary.seat", cascade="all, delete-orphan"
    )


# A player's counts in a match (SeatSummary columns), summed over matches by the statistics.
SUMMED_FIGURES = (
    "rounds",
    "rounds_won",
    "points",
    "points_won",
    "at_once",
    "knocks",
    "gins",
    "gins_against",
    "undercuts",
    "undercuts_against",
)
# Every column the statistics read, after the table: the columns of their index.
STATISTICS_COLUMNS = (
    "player_id",
    "rules",
    "best_round",
    "counted",
    "finished",
    "won",
    "total",
    *SUMMED_FIGURES,
    "last_played_at",
    "match_id",
    "best_round_number",
)


class SeatSummary(Model):
    """One player's figures in one match, derived from its log with :class:`MatchSummary`.

    ``counted`` is true when the match can be replayed, has a round that is not
    void and is not deleted: the statistics count only those.  ``points`` are the round scores
    (match-end bonuses are in ``total`` only); ``best_round`` the best of them as ranked, the
    highest kept always the best: the highest score, or where the lowest total wins (penalty
    points) the lowest, kept negated (:func:`ranked_round` and :func:`round_of_rank`).  In a
    match played in teams a player's round scores, total and wins are their side's.
    Gins and undercuts are counted for the player who scored them and "against"
    the player who conceded them (the undercut knocker).
    """

    __tablename__ = "seat_summaries"
    # The statistics read a player's rows of a table, or every row of a table, and nothing else:
    # this index holds all they need, so they never visit the table itself.
    __table_args__ = (
        sa.Index("ix_seat_summaries_figures", "table_id", *STATISTICS_COLUMNS),
        # A month of a player's matches, or of a table's (the aggregates recounted, a period's
        # edges): a range of this index, however long the history.
        sa.Index("ix_seat_summaries_played", "table_id", "player_id", "last_played_at"),
        sa.Index("ix_seat_summaries_table_played", "table_id", "last_played_at"),
    )

    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("match_summaries.match_id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id", ondelete="CASCADE"))
    rules: Mapped[str] = mapped_column(sa.String(40))
    seat: Mapped[int]
    counted: Mapped[bool]
    finished: Mapped[bool]
    won: Mapped[bool]
    total: Mapped[int]
    rounds: Mapped[int]
    rounds_won: Mapped[int]
    points: Mapped[int]
    points_won: Mapped[int]
    best_round: Mapped[int | None]
    best_round_number: Mapped[int | None]
    at_once: Mapped[int]
    knocks: Mapped[int]
    gins: Mapped[int]
    gins_against: Mapped[int]
    undercuts: Mapped[int]
    undercuts_against: Mapped[int]
    # rummy500 and contract (zero in the other rulesets): rounds gone out, discards bought,
    # deals gone down with the contract.
    went_out: Mapped[int] = mapped_column(server_default="0")
    buys: Mapped[int] = mapped_column(server_default="0")
    contracts: Mapped[int] = mapped_column(server_default="0")
    last_played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    # The player's place in the match's standings (the engine's: partners share their side's;
    # 1 is first); None when the match cannot be replayed or has no counted round.
    place: Mapped[int | None]

    summary: Mapped[MatchSummary] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


def ranked_round(score: int, lowest_wins: bool) -> int:
    """A round score as ``best_round`` keeps it: the higher, the better."""
    return -score if lowest_wins else score


def round_of_rank(kept: int | None, lowest_wins: bool) -> int | None:
    """The round score a kept ``best_round`` stands for."""
    return None if kept is None else (-kept if lowest_wins else kept)


class SummedFigures:
    """What a player's totals and months add up from their seat rows: the matches and
    rounds counted and won, the points, the ways rounds ended; the best round and the
    last time played.  The columns follow the key of the table that has them."""

    matches: Mapped[int]
    finished: Mapped[int]
    won: Mapped[int]
    rounds: Mapped[int]
    rounds_won: Mapped[int]
    points: Mapped[int]
    points_won: Mapped[int]
    at_once: Mapped[int]
    knocks: Mapped[int]
    gins: Mapped[int]
    gins_against: Mapped[int]
    undercuts: Mapped[int]
    undercuts_against: Mapped[int]
    best_round: Mapped[int | None]
    last_played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


class PlayerTotal(SummedFigures, Model):
    """A player's figures over all their counted matches of one ruleset at a table.

    The sums of their :class:`SeatSummary` rows, rewritten with them (in the same
    flush, by :mod:`referee.web.store.summary`): the statistics of a whole table read
    these few rows instead of adding up every match.
    """

    __tablename__ = "player_totals"

    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("card_tables.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    rules: Mapped[str] = mapped_column(sa.String(40), primary_key=True)


# Counted from the seat rows beside the summed figures (rummy500 and contract only).
ROUND_FIGURES = ("went_out", "buys", "contracts")
# Every ruleset at once: the ``rules`` of a player's month over all their rulesets.
EVERY_RULESET = ""


class PlayerMonth(SummedFigures, Model):
    """A player's counted matches of one ruleset at a table in one calendar month (UTC, by
    the time each was last played): the sums of their :class:`SeatSummary` rows, and the
    month's piece of the winning streaks.  ``rules`` :data:`EVERY_RULESET` is every ruleset
    together (its streak crosses rulesets).

    The streak piece: of the month's finished matches in the order played, how many
    (``streak_matches``), the wins they start with (``streak_first``) and end with
    (``streak_last``), and the longest run of wins inside; months joined in order give
    the longest run over any stretch of months.  Recounted from the month's seat rows
    with every summary rewrite (:mod:`referee.web.store.aggregates`).
    """

    __tablename__ = "player_months"

    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("card_tables.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    rules: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    month: Mapped[str] = mapped_column(sa.String(7), primary_key=True)  # "YYYY-MM"
    went_out: Mapped[int]
    buys: Mapped[int]
    contracts: Mapped[int]
    streak_matches: Mapped[int]
    streak_first: Mapped[int]
    streak_last: Mapped[int]
    streak_longest: Mapped[int]


class PairMonth(Model):
    """Two players over one month's matches of one ruleset that they both sat in and
    ``player_id``'s row counts (head-to-head: one row for each order of the pair)."""

    __tablename__ = "pair_months"

    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("card_tables.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    other_id: Mapped[int] = mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    rules: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    month: Mapped[str] = mapped_column(sa.String(7), primary_key=True)
    matches: Mapped[int]
    finished: Mapped[int]
    won: Mapped[int]
    other_won: Mapped[int]
    ahead: Mapped[int]  # finished in the better place of the two
    other_ahead: Mapped[int]
    rounds_won: Mapped[int]
    other_rounds_won: Mapped[int]
    points: Mapped[int]
    other_points: Mapped[int]


class TableMonth(Model):
    """A table's matches of one ruleset in one month that are not deleted: those played
    (a round that is not void) and finished, and those that cannot be replayed."""

    __tablename__ = "table_months"

    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("card_tables.id", ondelete="CASCADE"), primary_key=True
    )
    rules: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    month: Mapped[str] = mapped_column(sa.String(7), primary_key=True)
    matches: Mapped[int]
    finished: Mapped[int]
    broken: Mapped[int]


class StatisticsVersion(Model):
    """How many times a table's summaries have been rewritten: raised with every rewrite (in
    the same transaction, under the table's lock), so that what is worked out from all of a
    table's summaries is kept while it stays the same.

    The ratings are kept longer, by ``ratings_epoch``: raised only when a rewrite changes a
    rated match (finished and counted) other than by adding one after every other of its
    ruleset, with the order key the change applies from (``ratings_from_played_at``,
    ``ratings_from_match``; none: from the first match).  Only a server default: the
    statistics version's row is also written by the revision that made it, before this."""

    __tablename__ = "statistics_versions"

    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("card_tables.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int]
    ratings_epoch: Mapped[int] = mapped_column(server_default="0")
    ratings_from_played_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    ratings_from_match: Mapped[int | None]


class ServingServer(Model):
    """A server serving this database, wherever it runs: one row per server (its host and
    the process id of its main process), written at start and refreshed every few seconds
    by each of its workers (``store/servers.py``); a restore is refused while one is fresh."""

    __tablename__ = "serving_servers"
    __table_args__ = (sa.UniqueConstraint("host", "pid"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    host: Mapped[str] = mapped_column(sa.String(255))
    pid: Mapped[int]
    started_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), index=True)


class DatabaseIdentity(Model):
    """Which database this is, as far as what is kept outside it goes: a random value written
    when it is made and again by every restore.  A restore brings back version numbers that
    were used already, so pages and answers kept per match version are kept under this too."""

    __tablename__ = "database_identity"

    id: Mapped[int] = mapped_column(primary_key=True)
    generation: Mapped[str] = mapped_column(sa.String(64))
