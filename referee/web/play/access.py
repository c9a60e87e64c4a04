"""Who may see what: a table is reached only through its edit key or its view key.

A table's pages live under ``/<mode>/<key>`` (``t`` with the edit key, ``v``
with the view key; some edit-only pages under ``/t/<key>``).  That prefix is
handled once, as Flask documents for a language code: :func:`pull_table_link`
takes it out of the URL's values before the view runs, :func:`add_table_link`
puts the open table's link back into every ``url_for`` below it, and a view
marked :func:`table_page` or :func:`edit_page` receives the opened table.
Everything below a table (players, matches, rounds) is looked up through that
table, so one table's links never reach another's data.  The browser remembers
the tables it opened (in its session cookie) for the home page.

A key that opens no table is :class:`UnknownLink`, whether it was never a key
or its table's owner replaced it: the same 404 and the same page ("This link
does not exist or was replaced..."), so a replaced key cannot be told from a
wrong one, and no old key needs to be kept, even hashed, to recognise it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Concatenate, NoReturn, ParamSpec, TypeVar

from flask import Blueprint, abort, current_app, g, session
from flask_babel import gettext
from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload, selectinload
from werkzeug.exceptions import NotFound

from referee.web.serving import security
from referee.web.store.extensions import db
from referee.web.store.models import KEY_FORMAT, CardTable, Match, MatchPlayer
from referee.web.store.writes import writing_request

EDIT, VIEW = "t", "v"
REMEMBERED = 40


class UnknownLink(NotFound):
    """No table has this key: a wrong key, or one that its table's owner replaced (404)."""


def unknown_link_text() -> str:
    """What a key that opens no table answers, on a page and in the API."""
    return gettext(
        "This link does not exist or was replaced by the table's owner; ask them for the new one."
    )


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
    (:mod:`referee.web.store.writes`).  The browser remembers the table.
    """
    access = find_table(mode, key, edit=edit)
    remember(mode, key)
    return access


def _table_by_key(mode: str, lock: bool) -> Any:
    column = CardTable.edit_key if mode == EDIT else CardTable.view_key
    query = select(CardTable).where(column == bindparam("key"))
    return query.with_for_update().execution_options(populate_existing=True) if lock else query


# The table of a key (built once: every request that opens a table runs one), and locking
# its row for a write.
TABLE_BY_KEY = {
    (mode, lock): _table_by_key(mode, lock) for mode in (EDIT, VIEW) for lock in (False, True)
}


def find_table(mode: str, key: str, *, edit: bool = False) -> Access:
    """:func:`open_table` without remembering it (the JSON API has no cookies)."""
    if mode not in (EDIT, VIEW) or (edit and mode != EDIT):
        wrong_key()
    check_key(key)
    table = _table_of(mode, key, lock=edit and writing_request())
    if table is None:
        wrong_key()
    return Access(table, mode)


def find_table_by_either_key(key: str, *, edit: bool = False) -> Access:
    """The table whose edit key (or, unless ``edit``, view key) this is: one lookup of the
    key, counted once if it opens nothing (the API's bearer key may be either)."""
    check_key(key)
    lock = edit and writing_request()
    for mode in (EDIT,) if edit else (EDIT, VIEW):
        table = _table_of(mode, key, lock=lock)
        if table is not None:
            return Access(table, mode)
    wrong_key()


def wrong_key() -> NoReturn:
    """A key opened no table (never a key, or not any more): every failed lookup ends here,
    counted against the address that tried it (429 past the limit), else 404."""
    security.count_wrong_key()
    raise UnknownLink()


def check_key(key: str) -> None:
    """Before a key is looked up: one that cannot be a key opens nothing, and an address
    that tried too many wrong keys is refused unless this browser opened the table before
    (its phones go on; the guesser learns nothing more)."""
    if not KEY_FORMAT.fullmatch(key):
        wrong_key()
    if security.guessing_stopped() and not opened_here(key):
        security.stop_guessing()


def _table_of(mode: str, key: str, *, lock: bool) -> CardTable | None:
    table: CardTable | None = db.session.scalar(TABLE_BY_KEY[mode, lock], {"key": key})
    return table


# -- the table's link in the URL ----------------------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")


def table_blueprint(name: str, import_name: str, **options: Any) -> Blueprint:
    """A blueprint of a table's pages: the ``/<mode>/<key>`` prefix is handled here, once."""
    blueprint = Blueprint(name, import_name, **options)
    blueprint.url_value_preprocessor(pull_table_link)
    blueprint.url_defaults(add_table_link)
    return blueprint


def pull_table_link(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Take ``mode`` and ``key`` out of the URL's values (``/t/<key>`` pages are edit pages)."""
    if values and "key" in values:
        g.table_link = (values.pop("mode", EDIT), values.pop("key"))


def table_link() -> tuple[str, str]:
    """The mode and key of the table link this request came through."""
    link: tuple[str, str] = g.table_link
    return link


def add_table_link(endpoint: str, values: dict[str, Any]) -> None:
    """A link below the open table carries the link it was opened with, unless given another."""
    access: Access | None = g.get("access")
    if access is None or "key" in values or "mode" in values:
        return
    url_map = current_app.url_map
    if url_map.is_endpoint_expecting(endpoint, "key"):
        values["key"] = access.key
        if url_map.is_endpoint_expecting(endpoint, "mode"):
            values["mode"] = access.mode


def _opening_table(view: Callable[Concatenate[Access, P], R], edit: bool) -> Callable[P, R]:
    @wraps(view)
    def opened(*args: P.args, **kwargs: P.kwargs) -> R:
        mode, key = table_link()
        g.access = open_table(mode, key, edit=edit)
        return view(g.access, *args, **kwargs)

    return opened


def table_page(view: Callable[Concatenate[Access, P], R]) -> Callable[P, R]:
    """A page of a table, through either of its links: the view receives the table opened."""
    return _opening_table(view, edit=False)


def edit_page(view: Callable[Concatenate[Access, P], R]) -> Callable[P, R]:
    """A page of a table reached only through its edit link; a write locks the table's row."""
    return _opening_table(view, edit=True)


# What every page of a match reads: its seats with their players and its rounds,
# loaded with the matches in two more queries rather than one per seat.
MATCH_LOADING = (
    selectinload(Match.seats).joinedload(MatchPlayer.player),
    selectinload(Match.stored_rounds),
)
# One match: its seats joined to its row, its rounds in one more query.
ONE_MATCH_LOADING = (
    joinedload(Match.seats).joinedload(MatchPlayer.player),
    selectinload(Match.stored_rounds),
)


ONE_MATCH = select(Match).where(Match.id == bindparam("match_id")).options(*ONE_MATCH_LOADING)


def matches_page(table: CardTable, before: int | None, limit: int) -> list[Match]:
    """The table's matches not deleted, newest first: ``limit`` of them (and one more, to
    tell whether there is a next page) older than match ``before``."""
    query = select(Match).where(Match.table_id == table.id, Match.deleted_at.is_(None))
    if before:
        query = query.where(Match.id < before)
    query = query.order_by(Match.id.desc()).limit(limit + 1).options(*MATCH_LOADING)
    return list(db.session.scalars(query))


def open_match(access: Access, match_id: int, *, deleted: bool = False) -> Match:
    """The table's match (404 if it is not one, or if it is deleted unless ``deleted``)."""
    match = db.session.execute(ONE_MATCH, {"match_id": match_id}).unique().scalar()
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


def opened_here(key: str) -> bool:
    """Whether this browser opened a table with ``key`` (its session remembers it)."""
    return any(
        isinstance(entry, list) and len(entry) == 2 and entry[1] == key
        for entry in session.get("tables", [])
    )


def forget(*keys: str) -> None:
    """This browser no longer lists the tables of these keys."""
    known = session.get("tables", [])
    kept = [entry for entry in known if entry[1] not in keys]
    if len(kept) != len(known):
        session["tables"] = kept


@dataclass(frozen=True)
class Remembered:
    """The tables this browser opened, and how many links it kept that open nothing now."""

    tables: list[Access]
    lost: int = 0


def remembered_tables() -> Remembered:
    """The tables this browser opened, most recent first (edit access wins over view).

    A link that opens no table any more (its owner replaced it) leaves the list here.
    """
    entries = [
        entry
        for entry in session.get("tables", [])
        if isinstance(entry, list) and len(entry) == 2 and entry[0] in (EDIT, VIEW)
    ]
    found: list[Access] = []
    lost: list[str] = []
    seen: set[int] = set()
    for mode, key in entries:
        column = CardTable.edit_key if mode == EDIT else CardTable.view_key
        fits = isinstance(key, str) and KEY_FORMAT.fullmatch(key)
        table = db.session.scalar(select(CardTable).where(column == key)) if fits else None
        if table is None:
            lost.append(key)
            continue
        if table.id in seen:
            continue
        if mode == VIEW and any(m == EDIT and k == table.edit_key for m, k in entries):
            continue
        seen.add(table.id)
        found.append(Access(table, mode))
    if lost:
        forget(*lost)
    return Remembered(found, len(lost))
