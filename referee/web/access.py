"""Who may see what: a table is reached only through its edit key or its view key.

Routes take ``mode`` (``t`` with the edit key, ``v`` with the view key) and
the key.  Everything below a table (players, matches, rounds) is looked up
through that table, so one table's links never reach another's data.  The
browser remembers the tables it opened (in its session cookie) for the home
page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import abort, session
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from referee.web.extensions import db
from referee.web.models import CardTable, Match, MatchPlayer
from referee.web.writes import lock_rows

EDIT, VIEW = "t", "v"
REMEMBERED = 40
# What a key can look like (``secrets.token_urlsafe``); anything else is not looked up at all
# (PostgreSQL refuses a NUL in a query, for one).
KEY_FORMAT = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class Access:
    table: CardTable
    mode: str

    @property
    def can_edit(self) -> bool:
        return self.mode == EDIT

    @property
    def key(self) -> str:
        return self.table.edit_key if self.can_edit else self.table.view_key


def open_table(mode: str, key: str, *, edit: bool = False) -> Access:
    """The table behind a link, or 404; ``edit`` requires the edit link.

    A request that writes (``edit`` and not a GET) locks the table's row until it
    commits, so that the writes of the phones around one table run one at a time
    (:mod:`referee.web.writes`).  The browser remembers the table.
    """
    access = find_table(mode, key, edit=edit)
    remember(mode, key)
    return access


def find_table(mode: str, key: str, *, edit: bool = False) -> Access:
    """:func:`open_table` without remembering it (the JSON API has no cookies)."""
    if mode not in (EDIT, VIEW) or (edit and mode != EDIT) or not KEY_FORMAT.fullmatch(key):
        abort(404)
    column = CardTable.edit_key if mode == EDIT else CardTable.view_key
    query = select(CardTable).where(column == key)
    if edit:
        query = lock_rows(query).execution_options(populate_existing=True)
    table = db.session.scalar(query)
    if table is None:
        abort(404)
    return Access(table, mode)


# What every page of a match reads: its seats with their players and its rounds,
# loaded with the match in two more queries rather than one per seat.
MATCH_LOADING = (
    selectinload(Match.seats).joinedload(MatchPlayer.player),
    selectinload(Match.stored_rounds),
)


def open_match(access: Access, match_id: int, *, deleted: bool = False) -> Match:
    """The table's match (404 if it is not one, or if it is deleted unless ``deleted``)."""
    match = db.session.get(Match, match_id, options=MATCH_LOADING)
    if match is None or match.table_id != access.table.id:
        abort(404)
    if (match.deleted_at is not None) != deleted:
        abort(404)
    return match


def remember(mode: str, key: str) -> None:
    known = [entry for entry in session.get("tables", []) if entry[1] != key]
    known.insert(0, [mode, key])
    session["tables"] = known[:REMEMBERED]
    session.permanent = True


def remembered_tables() -> list[Access]:
    """The tables this browser opened, most recent first (edit access wins over view)."""
    entries = [entry for entry in session.get("tables", []) if isinstance(entry, list)]
    found: list[Access] = []
    seen: set[int] = set()
    for mode, key in entries:
        column = CardTable.edit_key if mode == EDIT else CardTable.view_key
        table = db.session.scalar(select(CardTable).where(column == key))
        if table is None or table.id in seen:
            continue
        if mode == VIEW and any(m == EDIT and k == table.edit_key for m, k in entries):
            continue
        seen.add(table.id)
        found.append(Access(table, mode))
    return found
