"""Card tables: create one, add players, list its matches, its statistics, replace a link."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, g, redirect, request, url_for
from flask_babel import gettext

from referee.rulesets import RULESETS
from referee.web.forms import PlayersForm, ReplaceLinkForm, TableForm, split_names
from referee.web.play import changes
from referee.web.play.access import (
    EDIT,
    Access,
    UnknownLink,
    edit_page,
    forget,
    open_table,
    remember,
    table_blueprint,
    table_link,
    table_page,
)
from referee.web.play.tablewrites import AddPlayers, NewTable, ReplaceKey
from referee.web.store import door
from referee.web.store.models import CardTable
from referee.web.views import history
from referee.web.views.housekeeping import recently_deleted
from referee.web.views.main import home_page
from referee.web.views.pages import render_page

bp = table_blueprint("tables", __name__)


@bp.post("/tables")
def create() -> Any:
    form = TableForm()
    if form.is_submitted() and (done := door.repeated(form.once.data)):
        return redirect(done.location)
    if not form.validate_on_submit():
        return home_page(form)

    def leads_to(table: CardTable) -> str:
        return url_for("tables.show", mode=EDIT, key=table.edit_key)

    answer = door.save_table(NewTable(form.name.data, once=form.once.data, leads_to=leads_to))
    assert isinstance(answer, door.Saved)  # a new table is refused nothing the form let in
    location = answer.location
    remember(EDIT, answer.result.edit_key)
    flash(gettext("Table created. Keep its edit link: whoever has it can record rounds."))
    return redirect(location)


@bp.get("/<any(t,v):mode>/<key>/")
@table_page
def show(access: Access) -> Any:
    return _page(access, PlayersForm())


def _page(access: Access, players_form: PlayersForm) -> Any:
    archived = request.args.get("show") == "archived"
    replaced = request.args.get("replaced")
    return render_page(
        "tables/show.html",
        access=access,
        replaced=replaced if access.can_edit and replaced in changes.LINKS else None,
        listing=history.table_matches(access, archived=archived),
        archived=archived,
        archived_count=history.archived_count(access),
        recently_deleted=recently_deleted(access.table) if access.can_edit else [],
        players_form=players_form,
        house_rules_games=list(RULESETS.values()),
    )


@bp.post("/<any(t,v):mode>/<key>/players")
@edit_page
def add_players(access: Access) -> Any:
    form = PlayersForm()
    if form.is_submitted() and (done := door.repeated(form.once.data)):
        return redirect(done.location)
    if form.validate_on_submit():
        names = tuple(split_names(form.names.data))
        location = url_for("tables.show") + "#players"
        adding = AddPlayers(access.table, names, once=form.once.data, location=location)
        answer = door.save_table(adding)
        if isinstance(answer, door.Saved):
            flash(gettext("Players added: %(names)s", names=", ".join(names)))
            return redirect(location)
        if isinstance(answer, door.Refused):
            form.names.errors.append(str(answer.reason))
    return _page(access, form)


@bp.get("/<any(t,v):mode>/<key>/stats")
@table_page
def statistics(access: Access) -> Any:
    return history.statistics_page(access)


# -- replacing a link ----------------------------------------------------------------------

REPLACE_LINK = "/t/<key>/links/<any(edit,view):link>/replace"


@bp.get(REPLACE_LINK)
@edit_page
def replace_link_page(access: Access, link: str) -> Any:
    """What replacing the link does, and the button that does it."""
    return render_page("tables/replace_link.html", access=access, link=link, form=ReplaceLinkForm())


@bp.post(REPLACE_LINK)
def replace_link(link: str) -> Any:
    """A new key for the link; the old one opens nothing from the commit on.

    The table is opened here rather than by :func:`edit_page`: a double tap's second
    request finds no table by the old key, and is sent, by the form's one-time token,
    to the new link that the first one made.
    """
    form = ReplaceLinkForm()
    if not form.validate_on_submit():
        abort(400)
    if done := door.repeated(form.once.data):
        return redirect(done.location)
    mode, key = table_link()
    try:
        g.access = access = open_table(mode, key, edit=True)
    except UnknownLink:
        # PostgreSQL: the first request of a double tap replaced it while this one waited
        # for the table's lock (on SQLite the receipt above was read after it).
        if done := door.repeated(form.once.data):
            return redirect(done.location)
        raise
    old_keys = (access.table.edit_key, access.table.view_key)

    def leads_to(table: CardTable) -> str:
        return url_for("tables.show", mode=EDIT, key=table.edit_key, replaced=link) + "#links"

    replacing = ReplaceKey(access.table, link, access.mode, once=form.once.data, leads_to=leads_to)
    answer = door.save_table(replacing)
    assert isinstance(answer, door.Saved)  # a new key is refused nothing
    location = answer.location
    forget(*old_keys)
    remember(EDIT, access.table.edit_key)
    if link == "edit":
        flash(
            gettext(
                "The edit link was replaced: the old one no longer works on any phone. Give"
                " the new one below to the phones that should keep recording rounds."
            )
        )
    else:
        flash(
            gettext(
                "The view link was replaced: the old one no longer works on any phone. Share"
                " the new one below with those who should keep following the matches."
            )
        )
    return redirect(location)
