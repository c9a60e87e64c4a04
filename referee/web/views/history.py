"""Looking back: the match list, statistics, head-to-head, charts, exports and the results card.

Every page here reads the stored summaries (:mod:`referee.web.show.history`); only
a single match's pages replay it (through the cache of :mod:`matchlog`).
``flask --app referee.web history check [--fix]`` compares every stored
summary with its log.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import click
from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from referee.match import Detail
from referee.web.forms.history import (
    HeadToHeadForm,
    MatchFilterForm,
    PeriodForm,
    TableImportForm,
)
from referee.web.play import cardpicture, exports, housework, tablefile
from referee.web.play.access import EDIT, Access, open_match, remember, table_blueprint, table_page
from referee.web.play.tablewrites import ImportTable
from referee.web.show import charts, history, houserules, indianstats, ratings, scoresheet
from referee.web.store import door, reads
from referee.web.store.models import Match, Player
from referee.web.store.reads import csrf
from referee.web.views.pages import render_page

bp = table_blueprint("history", __name__, cli_group="history")
PREFIX = "/<any(t,v):mode>/<key>"
# Matches listed on the table's own page (the whole list is a page of its own).
TABLE_PAGE_MATCHES = 10
FILTERS = ("player", "rules", "state", "since", "until", "show", "house_rules")
# A whole table may be far bigger than one match file: a pasted document up to this size, a
# file (read as a stream from disk) up to the larger one.
TABLE_UPLOAD_MAX = 32 * 1024 * 1024
TABLE_FILE_MAX = 1024 * 1024 * 1024


def table_matches(access: Access, *, archived: bool = False) -> history.MatchPage:
    """The newest matches (or archived ones), for the table's own page."""
    filters = history.Filters(archived=archived)
    return history.match_page(access.table.id, filters, size=TABLE_PAGE_MATCHES)


def archived_count(access: Access) -> int:
    return history.archived_count(access.table.id)


def _filter_args() -> dict[str, str]:
    """The filters of this request, for the links to other pages of the list."""
    return {name: request.args[name] for name in FILTERS if request.args.get(name)}


@bp.get(PREFIX + "/matches")
@table_page
def matches(access: Access) -> Any:
    form = MatchFilterForm(access.table.players, formdata=request.args)
    form.validate()
    archived = request.args.get("show") == "archived"
    if form.unknown_player:
        page = history.MatchPage(matches=[], older=None, newer=None)
    else:
        page = history.match_page(
            access.table.id,
            form.filters(archived=archived),
            before=history.Cursor.parse(request.args.get("before")),
            after=history.Cursor.parse(request.args.get("after")),
        )
    return render_page(
        "history/matches.html",
        access=access,
        form=form,
        page=page,
        archived=archived,
        archived_count=0 if archived else history.archived_count(access.table.id),
        args=_filter_args(),
    )


def statistics_page(access: Access) -> Any:
    form = PeriodForm(formdata=request.args)
    form.validate()
    played_by = request.args.get("house_rules", "")
    filters = form.filters(match_ids=houserules.matches_played_by(access.table, played_by))
    rated = ratings.table_ratings(access.table.id, rules=filters.rules, until=filters.until)
    return render_page(
        "tables/stats.html",
        access=access,
        form=form,
        stats=history.table_statistics(access.table.id, filters),
        ratings={found.rules: found for found in rated},
        rating_chart=charts.rating_history,
        uncertain_below=ratings.UNCERTAIN_BELOW,
        args=_filter_args(),
        played_by=played_by,
        saved_sets=access.table.house_rules,
        indian=indianstats.figures(access.table.id, filters),
    )


def _player(access: Access, player_id: int) -> Player:
    player = housework.player_of(access.table, player_id)
    if player is None:
        abort(404)
    return player


@bp.get(PREFIX + "/players/<int:player_id>")
@table_page
def player(access: Access, player_id: int) -> Any:
    found = _player(access, player_id)
    form = PeriodForm(formdata=request.args)
    form.validate()
    filters = form.filters()
    stats = history.player_statistics(access.table.id, found, filters)
    return render_page(
        "history/player.html",
        access=access,
        form=form,
        stats=stats,
        chart=charts.results_over_time(stats.periods),
        others=[other for other in access.table.players if other.id != found.id],
        args=_filter_args(),
        indian=indianstats.figures(access.table.id, filters, found.id),
    )


@bp.get(PREFIX + "/head-to-head")
@table_page
def head_to_head(access: Access) -> Any:
    players = access.table.players
    form = HeadToHeadForm(players, formdata=request.args)
    rivalry = None
    if request.args and form.validate() and form.pair is not None:
        by_id = {p.id: p for p in players}
        first, second = form.pair
        rivalry = history.head_to_head(access.table.id, by_id[first], by_id[second], form.filters())
    return render_page("history/head_to_head.html", access=access, form=form, rivalry=rivalry)


# -- exports and the results card --------------------------------------------------------------


def _sheet(match: Match) -> scoresheet.Sheet:
    seen = reads.outlook(match, Detail.SHEET)
    return scoresheet.build(match, seen.state)


def _download(body: str | bytes | Iterator[str], mimetype: str, filename: str) -> Response:
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.get(PREFIX + "/m/<int:match_id>/export.csv")
@table_page
def match_csv(access: Access, match_id: int) -> Response:
    match = open_match(access, match_id)
    filename = f"{match.rules}-{match.created_at:%Y%m%d}-{match.id}.csv"
    return _download(exports.match_csv(_sheet(match)), "text/csv", filename)


@bp.get(PREFIX + "/m/<int:match_id>/results")
@table_page
def results(access: Access, match_id: int) -> Any:
    match = open_match(access, match_id)
    sheet = _sheet(match)
    return render_page(
        "matches/results.html",
        access=access,
        match=match,
        sheet=sheet,
        text=exports.results_text(match, access.table, sheet),
    )


@bp.get(PREFIX + "/m/<int:match_id>/card.svg")
@table_page
def card(access: Access, match_id: int) -> Response:
    match = open_match(access, match_id)
    sheet = _sheet(match)
    title, subtitle = exports.card_heading(match, access.table, sheet)
    body = render_template(
        "matches/card.svg",
        title=title,
        subtitle=subtitle,
        standings=exports.standings(sheet),
        brand=gettext("Remi Referee"),
    )
    response = Response(body, mimetype="image/svg+xml")
    if request.args.get("download"):
        filename = f"{match.rules}-{match.id}-results.svg"
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get(PREFIX + "/m/<int:match_id>/card.png")
@table_page
def card_png(access: Access, match_id: int) -> Response:
    """The results card as a PNG, the picture a chat app previews."""
    match = open_match(access, match_id)
    sheet = _sheet(match)
    title, subtitle = exports.card_heading(match, access.table, sheet)
    body = cardpicture.results_png(
        title, subtitle, exports.standings(sheet), gettext("Remi Referee")
    )
    response = Response(body, mimetype="image/png")
    if request.args.get("download"):
        filename = f"{match.rules}-{match.id}-results.png"
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get(PREFIX + "/export.json")
@table_page
def table_export(access: Access) -> Response:
    filename = f"table-{access.table.created_at:%Y%m%d}-{access.table.id}.json"
    return _download(tablefile.document_text(access.table), "application/json", filename)


@bp.route("/tables/import", methods=["GET", "POST"])
@csrf.exempt  # the form checks its own token, after the larger upload limit is set
def table_import() -> Any:
    request.max_content_length = TABLE_FILE_MAX
    request.max_form_memory_size = TABLE_UPLOAD_MAX
    form = TableImportForm()
    valid = form.validate_on_submit()
    if form.csrf_token.errors:  # as the app answers any form without its token
        return render_template("errors/csrf.html"), 400
    if valid:
        source = form.upload()
        if not source:
            form.document.errors.append(gettext("Choose a table file or paste its document."))
        else:
            # Read and checked before the first statement: the write's turn (SQLite's lock)
            # is taken only to store what is already known to be good.
            try:
                read = tablefile.read_table(source, copies=bool(form.copies.data))
            except tablefile.TableRefused as refusal:
                form.document.errors.append(refusal.message)
            else:
                try:
                    return _store_table(form, read)
                finally:
                    read.close()
    door.abandon()
    return render_page("history/import.html", form=form)


def _store_table(form: TableImportForm, read: tablefile.ReadTable) -> Any:
    if done := door.repeated(form.once.data):
        flash(gettext("This table was imported already."))
        return redirect(done.location)

    def leads_to(edit_key: str) -> str:
        return url_for("tables.show", mode=EDIT, key=edit_key)

    answer = door.save_table(ImportTable(read, form.once.data, leads_to=leads_to))
    assert isinstance(answer, door.Saved)  # read and checked before
    location, edit_key = answer.location, answer.result
    remember(EDIT, edit_key)
    flash(gettext("Table imported with %(count)s matches.", count=read.count))
    return redirect(location)


# -- the check ---------------------------------------------------------------------------------


@bp.cli.command("check")
@click.option("--fix", is_flag=True, help="Rewrite every summary that differs from its log.")
def check_command(fix: bool) -> None:
    """Recompute every match summary from the rounds as entered and report any difference."""
    differences, checked = housework.check_summaries(fix)
    for difference in differences:
        click.echo(str(difference))
    matches = {d.match_id for d in differences if d.match_id is not None}
    totals = any(d.match_id is None for d in differences)
    if not differences:
        click.echo(f"{checked} matches checked: every summary agrees with the log.")
        return
    found = f"{len(matches)} match summaries" + (" and the players' totals" if totals else "")
    if fix:
        click.echo(f"{checked} matches checked: {found} rewritten from the log.")
        return
    click.echo(
        f"{checked} matches checked: {found} differ from the log (run with --fix to rewrite them)."
    )
    sys.exit(1)
