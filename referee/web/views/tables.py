"""Card tables: create one, add players, list its matches, its statistics."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from flask_babel import gettext

from referee.rulesets import RULESETS
from referee.web import writes
from referee.web.access import (
    EDIT,
    Access,
    edit_page,
    remember,
    remembered_tables,
    table_blueprint,
    table_page,
)
from referee.web.extensions import db
from referee.web.forms import PlayersForm, TableForm, split_names
from referee.web.models import CardTable, Player
from referee.web.names import name_key
from referee.web.views import history
from referee.web.views.housekeeping import recently_deleted
from referee.web.views.pages import render_page

bp = table_blueprint("tables", __name__)


@bp.post("/tables")
def create() -> Any:
    form = TableForm()
    if form.is_submitted() and (done := writes.receipt(form.once.data)):
        return redirect(done)
    if not form.validate_on_submit():
        return render_page("home.html", tables=remembered_tables(), form=form)
    table = CardTable(name=form.name.data)
    db.session.add(table)
    db.session.flush()
    location = url_for("tables.show", mode=EDIT, key=table.edit_key)
    writes.keep_receipt(form.once.data, location)
    db.session.commit()
    remember(EDIT, table.edit_key)
    flash(gettext("Table created. Keep its edit link: whoever has it can record rounds."))
    return redirect(location)


@bp.get("/<any(t,v):mode>/<key>/")
@table_page
def show(access: Access) -> Any:
    return _page(access, PlayersForm())


def _page(access: Access, players_form: PlayersForm) -> Any:
    archived = request.args.get("show") == "archived"
    return render_page(
        "tables/show.html",
        access=access,
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
    if form.is_submitted() and (done := writes.receipt(form.once.data)):
        return redirect(done)
    if form.validate_on_submit():
        names = split_names(form.names.data)
        existing = {name_key(p.name) for p in access.table.players}
        taken = [name for name in names if name_key(name) in existing]
        if not taken:
            for name in names:
                db.session.add(Player(table=access.table, name=name))
            location = url_for("tables.show") + "#players"
            writes.keep_receipt(form.once.data, location)
            db.session.commit()
            flash(gettext("Players added: %(names)s", names=", ".join(names)))
            return redirect(location)
        form.names.errors.append(
            gettext("Already at this table: %(names)s", names=", ".join(taken))
        )
    return _page(access, form)


@bp.get("/<any(t,v):mode>/<key>/stats")
@table_page
def statistics(access: Access) -> Any:
    return history.statistics_page(access)
