"""Matches: setup, the scoreboard, export and import of the match document."""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from referee.errors import RefereeError
from referee.rulesets import RULESETS
from referee.web import i18n, matchlog, scoresheet
from referee.web.access import open_match, open_table
from referee.web.extensions import db
from referee.web.fields import numbered
from referee.web.forms import ActionForm, ImportForm, setup_form_class, setup_options
from referee.web.labels import description
from referee.web.models import Match, MatchPlayer, Player, Round

bp = Blueprint("matches", __name__)
PREFIX = "/<any(t,v):mode>/<key>"


@bp.get(PREFIX + "/new")
def choose(mode: str, key: str) -> str:
    access = open_table(mode, key, edit=True)
    return render_template(
        "matches/choose.html",
        access=access,
        table=access.table,
        rulesets=RULESETS.values(),
        description=description,
    )


def _ruleset(rules_id: str) -> Any:
    rules = RULESETS.get(rules_id)
    if rules is None:
        abort(404)
    return rules


@bp.route(PREFIX + "/new/<rules_id>", methods=["GET", "POST"])
def setup(mode: str, key: str, rules_id: str) -> str | BaseResponse | tuple[str, int]:
    access = open_table(mode, key, edit=True)
    rules = _ruleset(rules_id)
    names = [player.name for player in access.table.players]
    form = setup_form_class(rules, names)()
    if not form.is_submitted():  # seat the table's players, as far as the game allows
        for entry, name in zip(numbered(form, "seat"), names, strict=False):
            entry.data = name
    if form.is_submitted():
        header = _read_setup(form, rules)
        if header is not None:
            match = Match(table=access.table, rules=rules.id)
            db.session.add(match)
            _apply_setup(match, header)
            db.session.commit()
            return redirect(url_for("matches.scoreboard", mode=mode, key=key, match_id=match.id))
    page = render_template(
        "matches/setup.html",
        access=access,
        table=access.table,
        rules=rules,
        form=form,
        description=description(rules),
        match=None,
    )
    return (page, 400) if form.errors else page


@bp.route(PREFIX + "/m/<int:match_id>/setup", methods=["GET", "POST"])
def edit_setup(mode: str, key: str, match_id: int) -> str | BaseResponse | tuple[str, int]:
    """Players, first dealer, target and options may change until the first round is saved."""
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    if match.rounds:
        flash(gettext("The target and options are fixed once the first round is saved."), "error")
        return redirect(url_for("matches.scoreboard", mode=mode, key=key, match_id=match.id))
    rules = _ruleset(match.rules)
    names = [player.name for player in access.table.players]
    form = setup_form_class(rules, names)()
    if form.is_submitted():
        header = _read_setup(form, rules)
        if header is not None:
            _apply_setup(match, header)
            db.session.commit()
            return redirect(url_for("matches.scoreboard", mode=mode, key=key, match_id=match.id))
    else:
        _fill_setup(form, match, rules)
    page = render_template(
        "matches/setup.html",
        access=access,
        table=access.table,
        rules=rules,
        form=form,
        description=description(rules),
        match=match,
    )
    return (page, 400) if form.errors else page


def _read_setup(form: Any, rules: Any) -> dict[str, Any] | None:
    """The match header from a submitted setup form, checked by the engine; None if refused."""
    from wtforms.validators import ValidationError

    if not form.validate():
        return None
    seats = numbered(form, "seat")
    seated = [entry.data for entry in seats if entry.data]
    seen: set[str] = set()
    for entry in seats:
        if entry.data and entry.data not in form.known:
            entry.errors = [gettext("Not a valid choice.")]
            return None
        if entry.data and entry.data in seen:
            entry.errors = [gettext("%(name)s already has a seat.", name=entry.data)]
            return None
        seen.add(entry.data)
    try:
        rules.verify_players(len(seated))
    except RefereeError as error:
        seats[0].errors = [*seats[0].errors, i18n.error_text(error)]
        return None
    dealer = form.first_dealer.data
    if dealer == "random":
        dealer = secrets.choice(seated)
    elif dealer not in seated:
        form.first_dealer.errors = [gettext("The first dealer must be one of the players.")]
        return None
    try:
        options = setup_options(form, rules)
    except ValidationError:
        return None
    header = {
        "format": matchlog.FORMAT,
        "rules": rules.id,
        "options": options,
        "players": seated,
        "first_dealer": dealer,
    }
    try:
        matchlog.verify_header(header)
    except RefereeError as error:
        form.form_errors.append(i18n.error_text(error))
        return None
    return header


def _apply_setup(match: Match, header: dict[str, Any]) -> None:
    by_name = {player.name: player for player in match.table.players}
    match.options = header["options"]
    match.first_dealer = header["first_dealer"]
    match.seats.clear()
    db.session.flush()
    for seat, name in enumerate(header["players"]):
        match.seats.append(MatchPlayer(seat=seat, player=by_name[name]))


def _fill_setup(form: Any, match: Match, rules: Any) -> None:
    for entry, name in zip(numbered(form, "seat"), match.player_names, strict=False):
        entry.data = name
    form.first_dealer.data = match.first_dealer
    options = match.options or {}
    target = options.get("target", rules.target)
    if target is not None:
        values = [next(iter(choice)) for choice in form.target.choices]
        if str(target) in values:
            form.target.data = str(target)
        else:
            form.target.data, form.custom_target.data = "custom", target
    if "hands" in options and hasattr(form, "end"):
        form.end.data, form.hands.data = "hands", options["hands"]
    if hasattr(form, "ace"):
        form.ace.data = options.get("ace", "low")
    if hasattr(form, "must_discard"):
        form.must_discard.data = bool(options.get("must_discard", False))


@bp.get(PREFIX + "/m/<int:match_id>/")
def scoreboard(mode: str, key: str, match_id: int) -> str:
    access = open_table(mode, key)
    match = open_match(access, match_id)
    seen = matchlog.outlook(match)
    sheet = scoresheet.build(match, seen.state)
    return render_template(
        "matches/scoreboard.html",
        access=access,
        table=access.table,
        match=match,
        sheet=sheet,
        error=seen.error,
        action_form=ActionForm(),
        description=description,
    )


@bp.get(PREFIX + "/m/<int:match_id>/export")
def export(mode: str, key: str, match_id: int) -> Response:
    access = open_table(mode, key)
    match = open_match(access, match_id)
    body = json.dumps(matchlog.document(match), ensure_ascii=False, indent=2) + "\n"
    filename = f"{match.rules}-{match.created_at:%Y%m%d}-{match.id}.json"
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.post(PREFIX + "/import")
def import_match(mode: str, key: str) -> BaseResponse | tuple[str, int]:
    access = open_table(mode, key, edit=True)
    form = ImportForm()
    if form.validate_on_submit():
        match = _import(access.table, form)
        if match is not None:
            db.session.commit()
            flash(gettext("Match imported."))
            return redirect(url_for("matches.scoreboard", mode=mode, key=key, match_id=match.id))
    db.session.rollback()
    return render_template("matches/import.html", access=access, table=access.table, form=form), 400


@bp.get(PREFIX + "/import")
def import_page(mode: str, key: str) -> str:
    access = open_table(mode, key, edit=True)
    return render_template(
        "matches/import.html", access=access, table=access.table, form=ImportForm()
    )


def _import(table: Any, form: ImportForm) -> Match | None:
    raw: bytes | str = ""
    if form.file.data and getattr(form.file.data, "filename", ""):
        raw = form.file.data.read()
    elif form.document.data and form.document.data.strip():
        raw = form.document.data
    if not raw:
        form.document.errors.append(gettext("Choose a match file or paste its document."))
        return None
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        form.document.errors.append(gettext("This is not a JSON document."))
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        form.document.errors.append(gettext("This is not a referee-match/1 document."))
        return None
    try:
        state = matchlog.replay(doc)
    except RefereeError as error:
        form.document.errors.append(i18n.error_text(error))
        return None
    names = [str(name) for name in doc["players"]]
    if any(len(name) > 40 or not name.strip() for name in names):
        form.document.errors.append(gettext("Player names must be 1 to 40 letters long."))
        return None
    by_name = {player.name: player for player in table.players}
    match = Match(
        table=table,
        rules=str(doc["rules"]),
        options=dict(doc.get("options") or {}),
        first_dealer=str(doc.get("first_dealer") or names[0]),
    )
    for seat, name in enumerate(names):
        player = by_name.get(name) or Player(table=table, name=name)
        by_name[name] = player
        match.seats.append(MatchPlayer(seat=seat, player=player))
    for number, entry in enumerate(doc.get("rounds") or [], start=1):
        match.rounds.append(Round(number=number, entry=entry))
    db.session.add(match)
    del state
    return match
