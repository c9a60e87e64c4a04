"""Rounds: the quick (final table) form, corrections, void and restore, undo, the JSON editor.

Every change is tried on the whole match first (:func:`reads.verify`);
a refusal shows the referee's reason and saves nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response

from referee.errors import RefereeError
from referee.matchfile import NOT_A_MATCH, ROUND_NOT_OBJECT, load_document
from referee.web.forms import ActionForm, RoundJsonForm
from referee.web.play import changes, samedeal
from referee.web.play.access import (
    Access,
    edit_page,
    open_match,
    table_blueprint,
    table_link,
    table_page,
)
from referee.web.play.roundwrites import (
    RemoveLastRound,
    RestoreRound,
    SaveRound,
    UndeleteRound,
    VoidRound,
)
from referee.web.show import i18n, jsontext
from referee.web.store import door, reads
from referee.web.store.models import Match, Round
from referee.web.views import plainsave, roundform
from referee.web.views.pages import Page, following, render_page, to_score_sheet
from referee.web.views.roundform import round_corrected, span, totals_now

bp = table_blueprint("rounds", __name__)
MATCH = "/<any(t,v):mode>/<key>/m/<int:match_id>"


def _stored(match: Match, number: int) -> Round:
    found = next((r for r in match.rounds if r.number == number), None)
    if found is None:
        abort(404)
    return found


@bp.route(MATCH + "/rounds/new", methods=["GET", "POST"])
def new(match_id: int) -> Any:
    """The quick round form; its save of the next round is handed to the door with the plain
    way offered when it can be (:mod:`referee.web.views.plainsave`), the ORM's otherwise."""
    built = None
    if request.method == "POST":
        saved = plainsave.save_next_round(*table_link(), match_id)
        if isinstance(saved, Response):
            return saved
        built = saved
    return _new(match_id=match_id, built=built)


@edit_page
def _new(access: Access, match_id: int, built: roundform.Built | None = None) -> Any:
    match = open_match(access, match_id)
    if match.live_round is not None:
        flash(gettext("A round is being played live: finish it or discard it first."), "error")
        return redirect(url_for("live.show", match_id=match.id))
    if request.method == "POST" and (done := door.repeated(request.form.get("once"))):
        flash(gettext("This round was saved already."))
        return redirect(done.location)
    asked = request.form if request.method == "POST" else request.args
    same = samedeal.find(
        match,
        reads.posted_number(asked.get("for_round")),
        request.form.get("action"),
        reads.posted_number(request.form.get("seen_version")),
    )
    if same is not None and same.choice == samedeal.KEEP_THEIRS:
        return _keep_theirs(access, match, same)
    if same is not None:
        built = None  # the form of another round than the one built
    return _round_form(
        access, match, same.theirs if same and same.keeps_mine else None, same, built
    )


def _keep_theirs(access: Access, match: Match, same: samedeal.SameDeal) -> Response:
    location = url_for("matches.scoreboard", match_id=match.id)
    samedeal.drop_mine(request.form.get("once"), location)
    flash(
        gettext(
            "Round %(number)s stays as it was saved from the other phone; what you typed was"
            " not saved.",
            number=same.number,
        )
    )
    return redirect(location)


@bp.route(MATCH + "/rounds/<int:number>/edit", methods=["GET", "POST"])
@edit_page
def edit(access: Access, match_id: int, number: int) -> Any:
    match = open_match(access, match_id)
    stored = _stored(match, number)
    if not stored.complete:
        return redirect(url_for("live.show", match_id=match.id))
    return _round_form(access, match, stored)


def _round_form(
    access: Access,
    match: Match,
    stored: Round | None,
    same: samedeal.SameDeal | None = None,
    built: roundform.Built | None = None,
) -> Any:
    """The round form: built once, its write (when posted) handed to the door, the answer
    shown (saved: the score sheet; else the form again, saying why)."""
    shown = roundform.build(access, match, stored, same, built)
    if isinstance(shown, Response):
        return shown  # a round this form cannot show: the JSON editor
    answer = door.save(shown.write, match) if shown.write is not None else shown.answer
    if isinstance(answer, door.Saved):
        roundform.flash_saved(shown, answer)
        return redirect(answer.location)
    return roundform.page(shown, answer)


@bp.route(MATCH + "/rounds/<int:number>/json", methods=["GET", "POST"])
@edit_page
def edit_json(access: Access, match_id: int, number: int) -> Any:
    """Correct any round by editing its round object as entered (turns included)."""
    match = open_match(access, match_id)
    stored = _stored(match, number)
    if not stored.complete:
        abort(404)
    form = RoundJsonForm()
    conflict: list[str] = []
    write = SaveRound(
        number, door.Seen(round_version=form.round_version.data), via=access.mode, new=False
    )
    if request.method == "GET":
        form.entry.data = reads.entry_text(stored.entry)
        form.round_version.data = str(stored.version)
    else:
        write, verdict = _json_write(match, form, write)
        answer = door.save(write, match, verdict=verdict)
        if isinstance(answer, door.Saved):
            flash(gettext("Round %(number)s saved.", number=number))
            return to_score_sheet(access, match)
        if isinstance(answer, door.Conflict):
            conflict = [round_corrected(number), totals_now(match)]
            form.round_version.data = str(stored.version)
        elif isinstance(answer, door.Refused) and not isinstance(answer.reason, str):
            error_text = i18n.error_text(answer.reason)
            form.entry.errors.append(jsontext.problem(form.entry.data) or error_text)
    page = render_page(
        "matches/round_json.html",
        access=access,
        match=match,
        form=form,
        number=number,
        conflict=conflict,
        current=reads.entry_text(stored.entry) if conflict else None,
    )
    if conflict:
        return page.body, 409
    return page


def _json_write(
    match: Match, form: RoundJsonForm, write: SaveRound
) -> tuple[SaveRound, door.Verdict | None]:
    """The correction typed as JSON, checked as the whole match (a round that ends it
    before later ones is refused); or what kept it from being read, for the door to answer
    once it compared what the phone saw."""
    if not form.validate_on_submit():
        return replace(write, unreadable=door.Refusal("")), None  # its field says why
    try:
        write = replace(write, entry=_read_entry(match, form.entry.data, write.number))
        rounds = reads.entries(match)
        rounds[write.number - 1] = write.entry
        return write, door.Verdict(reads.verify(match, rounds))
    except RefereeError as error:
        return replace(write, unreadable=error), None


def _read_entry(match: Match, text: str, number: int) -> dict[str, Any]:
    """A round object typed as JSON, read by the engine: its canonical form, or RefereeError."""
    try:
        raw = reads.call_engine(load_document, text)
    except RefereeError as error:
        if error.reason.key == NOT_A_MATCH:
            raise RefereeError(ROUND_NOT_OBJECT) from None
        raise
    match_header = reads.stored_header(reads.header(match))
    return reads.canonical_round(raw, match_header, number)


@bp.get(MATCH + "/rounds/<int:number>")
@table_page
def show(access: Access, match_id: int, number: int) -> Page:
    match = open_match(access, match_id)
    deleted = match.deleted_round
    stored = deleted if deleted is not None and deleted.number == number else _stored(match, number)
    seen = reads.outlook(match)
    recorded = _recorded_before_void(match, stored)
    result = None
    if seen.state is not None and stored.complete and number <= len(seen.state.rounds):
        result = seen.state.rounds[number - 1]
    return render_page(
        "matches/round_show.html",
        access=access,
        match=match,
        stored=stored,
        result=result,
        entry=reads.readable_entry(match, number, stored.entry),
        entry_json=reads.entry_text(stored.entry),
        live=following(access, match, request.path),
        recorded=recorded,
        recorded_result=_recorded_result(match, number, recorded),
        changes=reads.trail(match, stored),
    )


def _recorded_result(match: Match, number: int, recorded: dict[str, Any] | None) -> Any:
    """How the referee counted what a voided round had recorded (None if it cannot)."""
    if not recorded:
        return None
    try:
        state, _later = changes.verify_round(match, recorded, number)
    except RefereeError:
        return None
    return state.rounds[number - 1]


def _recorded_before_void(match: Match, stored: Round) -> dict[str, Any] | None:
    """What a voided round had recorded (kept so that the void can be undone)."""
    if not stored.voided or not stored.previous_entry:
        return None
    return reads.readable_entry(match, stored.number, stored.previous_entry) or {}


def _round_action(number: int) -> tuple[door.Seen, Round | None]:
    """What a void/restore/undo button saw (the round's version), once its form is checked."""
    if not ActionForm().validate_on_submit():
        abort(400)
    return door.Seen(round_version=request.form.get("round_version")), None


def _reason(refused: door.Refused) -> str:
    """A refusal in the player's words."""
    reason = refused.reason
    return reason if isinstance(reason, str) else i18n.error_text(reason)


def conflict_page(access: Access, match: Match, *changes: str) -> tuple[str, int]:
    """Nothing was done: what changed meanwhile, and the way back to the match."""
    return (
        render_template(
            "errors/conflict.html",
            access=access,
            table=access.table,
            match=match,
            changes=[c for c in (*changes, totals_now(match)) if c],
        ),
        409,
    )


def _round_changed(number: int) -> str:
    return gettext(
        "Round %(number)s was changed on another phone meanwhile; nothing was done.",
        number=number,
    )


@bp.post(MATCH + "/rounds/<int:number>/void")
@edit_page
def void(access: Access, match_id: int, number: int) -> Any:
    match = open_match(access, match_id)
    seen, _ = _round_action(number)
    stored = _stored(match, number)
    write = VoidRound(number, seen, via=access.mode)
    if stored.voided:  # asked twice: it is done
        flash(gettext("Round %(number)s is void.", number=number))
    else:
        answer = door.save(write, match)
        if isinstance(answer, door.Conflict):
            return conflict_page(access, match, _round_changed(number))
        if isinstance(answer, door.Refused):
            flash(_reason(answer), "error")
        else:
            flash(gettext("Round %(number)s is void.", number=number))
    return to_score_sheet(access, match)


@bp.post(MATCH + "/rounds/<int:number>/restore")
@edit_page
def restore(access: Access, match_id: int, number: int) -> Any:
    match = open_match(access, match_id)
    seen, _ = _round_action(number)
    stored = _stored(match, number)
    write = RestoreRound(number, seen, via=access.mode)
    if not stored.voided:  # asked twice: it is done
        flash(gettext("Round %(number)s is restored.", number=number))
    else:
        answer = door.save(write, match)
        if isinstance(answer, door.Conflict):
            return conflict_page(access, match, _round_changed(number))
        if isinstance(answer, door.Refused):
            flash(_reason(answer), "error")
        else:
            flash(gettext("Round %(number)s is restored.", number=number))
    return to_score_sheet(access, match)


@bp.route(MATCH + "/rounds/undo", methods=["GET", "POST"])
@edit_page
def undo(access: Access, match_id: int) -> Any:
    """Delete the last saved round: the one the button names, only while it is the last.

    GET is the confirm page (the score sheet's button leads there without
    JavaScript); its form POSTs the delete.  The round stays stored, marked
    deleted, and can be restored while it would again be the last round.
    Asking again for a round that is deleted does nothing (a double tap deletes one round).
    """
    match = open_match(access, match_id)
    if request.method == "POST" and not ActionForm().validate_on_submit():
        abort(400)
    asked = request.form if request.method == "POST" else request.args
    named = door.round_with_id(match, asked.get("round_id"))
    number = reads.posted_number(asked.get("round_number"))
    if named is None:
        if number is not None:
            flash(gettext("Round %(number)s was deleted already.", number=number))
        return to_score_sheet(access, match)
    if not changes.is_last_round(match, named):
        later = [r.number for r in match.rounds if r.number > named.number]
        return conflict_page(
            access,
            match,
            ngettext(
                "Round %(number)s is no longer the last: round %(rounds)s was saved or started"
                " after it meanwhile. Nothing was removed.",
                "Round %(number)s is no longer the last: rounds %(rounds)s were saved or started"
                " after it meanwhile. Nothing was removed.",
                len(later),
                number=named.number,
                rounds=span(later) if later else "?",
            ),
        )
    seen = door.Seen(round_version=asked.get("round_version"))
    write = RemoveLastRound(
        named.number, seen, via=access.mode, round_id=named.id, preview=request.method == "GET"
    )
    answer = door.save(write, match)
    if isinstance(answer, door.Conflict):
        return conflict_page(access, match, _round_changed(named.number))
    if isinstance(answer, door.Held):
        return render_page(
            "matches/round_delete.html",
            access=access,
            match=match,
            stored=named,
            entry=reads.readable_entry(match, named.number, named.entry) or {},
        )
    flash(
        gettext(
            "Round %(number)s deleted. It can be restored from the score sheet until"
            " another round is entered.",
            number=named.number,
        )
    )
    return to_score_sheet(access, match)


@bp.post(MATCH + "/rounds/<int:number>/undelete")
@edit_page
def undelete(access: Access, match_id: int, number: int) -> Any:
    """Bring a deleted round back, only while it would again be the last round."""
    match = open_match(access, match_id)
    seen, _ = _round_action(number)
    named_id = reads.posted_number(request.form.get("round_id"))
    write = UndeleteRound(number, seen, via=access.mode, round_id=named_id)
    named = write.named_round(match)
    if (
        named is not None and named.deleted_at is None and door.landed_once(write, match)
    ):  # asked twice: it is done (a SQLite id taken again by a new round has version 1)
        flash(gettext("Round %(number)s is restored.", number=named.number))
        return to_score_sheet(access, match)
    if named is None or named is not match.deleted_round:
        return conflict_page(
            access,
            match,
            gettext(
                "Round %(number)s cannot come back: another round has taken its place"
                " (or a round before it was removed). Enter it again if it was played.",
                number=number,
            ),
        )
    answer = door.save(write, match)
    if isinstance(answer, door.Conflict):
        return conflict_page(access, match, _round_changed(number))
    if isinstance(answer, door.Refused):
        flash(
            gettext("Round %(number)s cannot come back:", number=number) + " " + _reason(answer),
            "error",
        )
        return to_score_sheet(access, match)
    flash(gettext("Round %(number)s is restored.", number=number))
    return to_score_sheet(access, match)
