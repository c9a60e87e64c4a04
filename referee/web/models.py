"""What the app stores: card tables (groups that play together), players, matches and rounds.

A round is stored exactly as it was entered, as a round object of the
``referee-match/1`` format (``Round.entry``).  Totals, dealers, targets and
winners are never stored: the engine recomputes them from the log
(:mod:`referee.web.matchlog`).  No rule logic and no ``url_for`` here.

Matches and rounds carry a ``version`` that every change raises (SQLAlchemy's
``version_id_col``, set by the app: see :mod:`referee.web.writes`).  A form
names the versions it was made from; an UPDATE whose version moved on matches
no row and fails, so a stale write can never overwrite a newer one.

The group that plays together is a :class:`CardTable` ("meja"); the cards on
the table during a round are the engine's business.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from referee.web.extensions import db


def new_key() -> str:
    """A long random token for a table's edit or view link."""
    return secrets.token_urlsafe(24)


def now() -> datetime:
    return datetime.now(UTC)


class CardTable(db.Model):
    __tablename__ = "card_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    edit_key: Mapped[str] = mapped_column(sa.String(64), unique=True, default=new_key)
    view_key: Mapped[str] = mapped_column(sa.String(64), unique=True, default=new_key)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)

    players: Mapped[list[Player]] = relationship(
        back_populates="table", order_by="Player.name", cascade="all, delete-orphan"
    )
    matches: Mapped[list[Match]] = relationship(
        back_populates="table", order_by="Match.id.desc()", cascade="all, delete-orphan"
    )


class Player(db.Model):
    __tablename__ = "players"
    __table_args__ = (sa.UniqueConstraint("table_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("card_tables.id"), index=True)
    name: Mapped[str] = mapped_column(sa.String(40))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)

    table: Mapped[CardTable] = relationship(back_populates="players")


class Match(db.Model):
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

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    table: Mapped[CardTable] = relationship(back_populates="matches")
    seats: Mapped[list[MatchPlayer]] = relationship(
        back_populates="match", order_by="MatchPlayer.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="match", order_by="Round.number", cascade="all, delete-orphan"
    )

    @property
    def player_names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]

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


class MatchPlayer(db.Model):
    """A player's seat in a match; seats are numbered clockwise from 0."""

    __tablename__ = "match_players"
    __table_args__ = (sa.UniqueConstraint("match_id", "player_id"),)

    match_id: Mapped[int] = mapped_column(sa.ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class Round(db.Model):
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

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    match: Mapped[Match] = relationship(back_populates="rounds")

    @property
    def voided(self) -> bool:
        return self.entry.get("end") == "void"


class WriteReceipt(db.Model):
    """A write that was carried out, by the one-time token of the form that asked for it.

    A form that creates something (a table, players, a match, a round, a turn)
    carries a token made when the page was rendered; a second request with the
    same token (a double tap, a retry after a lost answer) finds its receipt and
    is sent to what the first one made instead of doing it again.
    """

    __tablename__ = "write_receipts"

    token: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    location: Mapped[str] = mapped_column(sa.String(400))
    created_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), default=now, index=True
    )
