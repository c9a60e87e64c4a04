"""The housekeeping writes of a table as values handed to the door: rename the table or a
player (everywhere the player is named), archive a match or bring it back, delete one
(restorable for a while) or restore it; and what they read to find their object."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import or_, select

from referee.renaming import rename_in_round, rename_in_seating
from referee.web.store import summary, writes
from referee.web.store.door import Applied, Conflict, Seen, Verdict
from referee.web.store.extensions import db
from referee.web.store.models import KEY_FORMAT, CardTable, Match, MatchPlayer, Player, Round, now

# A deleted match can be restored for this long; then it is purged.
DELETED_MATCH_LIFETIME = timedelta(days=30)


# -- what they read ----------------------------------------------------------------------------


def player_of(table: CardTable, player_id: int) -> Player | None:
    player = db.session.get(Player, player_id)
    return player if player is not None and player.table_id == table.id else None


def match_of(table: CardTable, match_id: int) -> Match | None:
    """The table's match, deleted or not (None: not one of the table's)."""
    match = db.session.get(Match, match_id)
    return match if match is not None and match.table_id == table.id else None


def table_by_key(key: str) -> CardTable | None:
    """The table of an edit or a view key."""
    if not KEY_FORMAT.fullmatch(key):
        return None
    found = select(CardTable).where(or_(CardTable.edit_key == key, CardTable.view_key == key))
    return db.session.scalar(found)


def recently_deleted(table: CardTable) -> list[Match]:
    """The table's deleted matches that can still be restored, most recently deleted first."""
    since = now() - DELETED_MATCH_LIFETIME
    # A query on the deleted ones (indexed), not a walk through every match of the table.
    return list(
        db.session.scalars(
            select(Match)
            .where(Match.table_id == table.id, Match.deleted_at > since)
            .order_by(Match.deleted_at.desc())
        )
    )


def purge_deleted(table_id: int | None = None) -> list[int]:
    """Remove for good the matches deleted more than DELETED_MATCH_LIFETIME ago (not yet
    committed); their ids."""
    query = select(Match).where(Match.deleted_at < now() - DELETED_MATCH_LIFETIME)
    if table_id is not None:
        query = query.where(Match.table_id == table_id)
    expired = list(db.session.scalars(query))
    for match in expired:
        db.session.delete(match)
    return [match.id for match in expired]


# -- the table's names -------------------------------------------------------------------------


@dataclass(frozen=True)
class RenameTable:
    table: CardTable
    name: str
    once: str | None = None
    location: str = ""

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        self.table.name = self.name
        return Applied()


@dataclass(frozen=True)
class RenamePlayer:
    """A player renamed on the table and in every stored round that names them; every match
    concerned gets a new version (the phones following it update)."""

    player: Player
    name: str
    once: str | None = None
    location: str = ""

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        return Applied(rename_everywhere(self.player, self.player.name, self.name))


def rename_everywhere(player: Player, old: str, new: str) -> list[Match]:
    """The player row, and every stored round that names the player, in this transaction;
    the matches changed."""
    player.name = new
    matches = list(
        db.session.scalars(
            select(Match).join(MatchPlayer).where(MatchPlayer.player_id == player.id)
        ).unique()
    )
    for match in matches:
        if match.first_dealer == old:
            match.first_dealer = new
        if match.seating_changes:
            match.seating_changes = rename_in_seating(match.seating_changes, old, new)
        for stored in match.stored_rounds:
            entry = rename_in_round(stored.entry, old, new)
            previous = (
                rename_in_round(stored.previous_entry, old, new)
                if stored.previous_entry is not None
                else None
            )
            if entry != stored.entry or previous != stored.previous_entry:
                stored.entry, stored.previous_entry = entry, previous
                stored.version = stored.version + 1
        for change in match.changes:  # the audit trail names the player as now called
            change.before = rename_in_round(change.before, old, new) if change.before else None
            change.after = rename_in_round(change.after, old, new) if change.after else None
        match.version = match.version + 1
    return matches


class Purge:
    """The deleted matches past their lifetime removed for good (the command line's)."""

    once: str | None = None
    location: str = ""

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        purged = purge_deleted()
        return Applied(purged, result=purged)


# -- a whole match -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MatchWrite:
    """A write of a whole match that names the version the page showed (its own fields,
    if any, come first; these are named)."""

    seen: Seen = field(default_factory=Seen)
    once: str | None = None
    location: str = ""

    def named_round(self, match: Match) -> Round | None:
        return None

    def conflict(self, match: Match, moved: frozenset[str]) -> Conflict:
        return Conflict(moved)

    def check(self, match: Match) -> Verdict:
        return Verdict()


@dataclass(frozen=True)
class Archive(MatchWrite):
    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        match.archived_at = now()
        writes.changed(match)
        return [match]


@dataclass(frozen=True)
class Unarchive(MatchWrite):
    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        match.archived_at = None
        writes.changed(match)
        return [match]


@dataclass(frozen=True)
class Delete(MatchWrite):
    """A match deleted (restorable for DELETED_MATCH_LIFETIME); the table's matches deleted
    longer ago go for good with it."""

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        purged = purge_deleted(match.table_id)
        match.deleted_at = now()
        writes.changed(match)
        return [match, *purged]


@dataclass(frozen=True)
class Undelete(MatchWrite):
    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        match.deleted_at = None
        writes.changed(match)
        return [match]


def check_summaries(fix: bool) -> tuple[list[Any], int]:
    """Every match summary recomputed from the rounds as entered: the differences (rewritten
    when ``fix``) and how many matches were checked."""
    with db.engine.begin() as connection:
        differences = summary.check(connection, fix=fix)
        checked = connection.execute(db.select(db.func.count()).select_from(Match)).scalar_one()
    return differences, checked
