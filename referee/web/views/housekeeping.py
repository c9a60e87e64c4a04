"""Housekeeping of a table: rename it, rename a player everywhere, forget it on this phone.

A rename names what it was made from (the name the page showed): when another
phone renamed the same thing meanwhile, nothing is saved and the page answers
409 with the name typed kept.  The same rename sent twice is harmless (the
second finds the name already given).  A player's name lives on its
:class:`~referee.web.store.models.Player` row (the match headers are made from the
seats) and in the stored round objects (``hands`` keys, turns' ``player``,
``out``/``knock``/``closer``, and the entry a void keeps): they are rewritten
together in one transaction, and every match concerned gets a new version so
that the phones following it update.
"""

from __future__ import annotations

from typing import Any

import click
from flask import abort, flash, redirect, request, session, url_for
from flask_babel import gettext

from referee.web.forms import ActionForm, ForgetTableForm, RenamePlayerForm, RenameTableForm
from referee.web.play import housework
from referee.web.play.access import Access, edit_page, open_match, table_blueprint
from referee.web.play.housework import RenamePlayer, RenameTable
from referee.web.play.names import name_key
from referee.web.store import door, reads
from referee.web.store.models import Match
from referee.web.views.pages import render_page, to_score_sheet
from referee.web.views.rounds import conflict_page

bp = table_blueprint("housekeeping", __name__, cli_group=None)
DELETED_MATCH_LIFETIME = housework.DELETED_MATCH_LIFETIME
recently_deleted = housework.recently_deleted
purge_deleted = housework.purge_deleted
SETTINGS = "/t/<key>/settings"


def _prefix(player_id: int) -> str:
    """Each player's form has fields of its own (``p7-name``): one page, one id per field."""
    return f"p{player_id}"


def _player_forms(access: Access, editing: tuple[int, RenamePlayerForm] | None = None) -> list[Any]:
    forms = []
    for player in access.table.players:
        if editing is not None and editing[0] == player.id:
            form = editing[1]
        else:
            form = RenamePlayerForm(
                formdata=None, prefix=_prefix(player.id), was=player.name, name=player.name
            )
        forms.append((player, form))
    return forms


def _page(
    access: Access,
    table_form: RenameTableForm | None = None,
    editing: tuple[int, RenamePlayerForm] | None = None,
    conflict: list[str] | None = None,
) -> Any:
    if table_form is None:
        table_form = RenameTableForm(formdata=None, was=access.table.name, name=access.table.name)
    page = render_page(
        "tables/settings.html",
        access=access,
        table=access.table,
        table_form=table_form,
        player_forms=_player_forms(access, editing),
        conflict=conflict or [],
    )
    if conflict:
        return page.body, 409
    if table_form.name.errors or (editing is not None and editing[1].name.errors):
        return page.body, 400
    return page


@bp.get(SETTINGS)
@edit_page
def settings(access: Access) -> Any:
    return _page(access)


@bp.post(SETTINGS + "/name")
@edit_page
def rename_table(access: Access) -> Any:
    form = RenameTableForm()
    table = access.table
    if not form.validate_on_submit():
        return _page(access, table_form=form)
    if table.name == form.name.data:
        flash(gettext("The table is called %(name)s.", name=table.name))
        return redirect(url_for("tables.show"))
    if form.was.data != table.name:
        form.was.data = table.name
        return _page(
            access,
            table_form=form,
            conflict=[
                gettext(
                    "The table was renamed %(name)s on another phone meanwhile.", name=table.name
                ),
                gettext("Your entry is kept below: check it and save again."),
            ],
        )
    door.save_table(RenameTable(table, form.name.data))
    flash(gettext("The table is now called %(name)s.", name=table.name))
    return redirect(url_for("tables.show"))


@bp.post(SETTINGS + "/players/<int:player_id>")
@edit_page
def rename_player(access: Access, player_id: int) -> Any:
    player = housework.player_of(access.table, player_id)
    if player is None:
        abort(404)
    form = RenamePlayerForm(prefix=_prefix(player.id))
    editing = (player.id, form)
    if not form.validate_on_submit():
        return _page(access, editing=editing)
    new = form.name.data
    if player.name == new:
        flash(gettext("%(name)s has this name already.", name=new))
        return redirect(url_for("housekeeping.settings"))
    if form.was.data != player.name:
        was = form.was.data
        form.was.data = player.name
        return _page(
            access,
            editing=editing,
            conflict=[
                gettext(
                    "%(old)s was renamed %(name)s on another phone meanwhile.",
                    old=was,
                    name=player.name,
                ),
                gettext("Your entry is kept below: check it and save again."),
            ],
        )
    taken = [
        other.name
        for other in access.table.players
        if other.id != player.id and name_key(other.name) == name_key(new)
    ]
    if taken:
        form.name.errors = [gettext("Already at this table: %(names)s", names=taken[0])]
        return _page(access, editing=editing)
    old = player.name
    door.save_table(RenamePlayer(player, new))
    flash(gettext("%(old)s is now called %(name)s, in every match.", old=old, name=new))
    return redirect(url_for("housekeeping.settings"))


@bp.post("/forget")
def forget() -> Any:
    """Remove a table from "my tables" on this phone only (its links still open it)."""
    form = ForgetTableForm()
    if not form.validate_on_submit():
        abort(400)
    key = form.key.data or ""
    table = housework.table_by_key(key)
    keys = {key} if table is None else {table.edit_key, table.view_key}
    known = [entry for entry in session.get("tables", []) if entry[1] not in keys]
    if len(known) != len(session.get("tables", [])):
        session["tables"] = known
        flash(gettext("The table was removed from this phone's list. Its links still open it."))
    return redirect(url_for("main.home"))


# -- archive or delete a whole match -------------------------------------------------------

MATCH = "/t/<key>/m/<int:match_id>"


@bp.cli.command("purge-deleted")
def purge_deleted_command() -> None:
    """Remove for good the matches deleted more than 30 days ago."""
    answer = door.save_table(housework.Purge())
    purged = answer.result if isinstance(answer, door.Saved) else []
    click.echo(f"{len(purged)} deleted matches purged")


def _match_button(access: Access, match_id: int) -> Match:
    if not ActionForm().validate_on_submit():
        abort(400)
    return open_match(access, match_id)


@bp.route(MATCH + "/archive", methods=["GET", "POST"])
@edit_page
def archive(access: Access, match_id: int) -> Any:
    """Archive a match (it leaves the list, and can come back).  GET is the confirm page, as
    for a delete; its form POSTs the archive with the version the page showed."""
    match = open_match(access, match_id)
    if request.method == "GET":
        return render_page(
            "matches/match_archive.html",
            access=access,
            match=match,
            seen_version=reads.posted_number(request.args.get("match_version")) or match.version,
        )
    if not ActionForm().validate_on_submit():
        abort(400)
    if match.archived_at is not None:
        flash(gettext("The match was archived already."))  # asked twice: it is done
        return redirect(url_for("tables.show"))
    seen = door.Seen(match_version=request.form.get("match_version"))
    if not isinstance(door.save(housework.Archive(seen=seen), match), door.Saved):
        return conflict_page(
            access,
            match,
            gettext("The match was changed on another phone meanwhile; it was not archived."),
        )
    flash(gettext("The match is archived: it is listed under “Archived matches”."))
    return redirect(url_for("tables.show"))


@bp.post(MATCH + "/unarchive")
@edit_page
def unarchive(access: Access, match_id: int) -> Any:
    match = _match_button(access, match_id)
    if match.archived_at is not None:
        door.save(housework.Unarchive(), match)
    flash(gettext("The match is back in the list."))
    return to_score_sheet(access, match)


@bp.route(MATCH + "/delete", methods=["GET", "POST"])
@edit_page
def delete_match(access: Access, match_id: int) -> Any:
    """Delete a match (it can be restored for 30 days).  GET is the confirm page, which the
    score sheet's button opens without JavaScript; its form POSTs the delete."""
    if request.method == "GET":
        shown = open_match(access, match_id)
        return render_page(
            "matches/match_delete.html",
            access=access,
            match=shown,
            seen_version=reads.posted_number(request.args.get("match_version")) or shown.version,
        )
    if not ActionForm().validate_on_submit():
        abort(400)
    match = housework.match_of(access.table, match_id)
    if match is not None and match.deleted_at is not None:
        flash(gettext("The match was deleted already."))  # asked twice: it is done
        return redirect(url_for("tables.show"))
    match = open_match(access, match_id)
    seen = door.Seen(match_version=request.form.get("match_version"))
    if not isinstance(door.save(housework.Delete(seen=seen), match), door.Saved):
        return conflict_page(
            access,
            match,
            gettext("The match was changed on another phone meanwhile; it was not deleted."),
        )
    flash(
        gettext(
            "The match was deleted. It can be restored for 30 days from “Recently deleted”"
            " on the table's page."
        )
    )
    return redirect(url_for("tables.show"))


@bp.post(MATCH + "/undelete")
@edit_page
def undelete_match(access: Access, match_id: int) -> Any:
    if not ActionForm().validate_on_submit():
        abort(400)
    match = housework.match_of(access.table, match_id)
    if match is not None and match.deleted_at is None:
        flash(gettext("The match is restored."))  # asked twice: it is done
        return to_score_sheet(access, match)
    match = open_match(access, match_id, deleted=True)
    if match not in recently_deleted(access.table):
        abort(404)  # past the 30 days: gone for good
    door.save(housework.Undelete(), match)
    flash(gettext("The match is restored."))
    return to_score_sheet(access, match)
