"""Rounds: the quick (final table) form, corrections, void and restore, undo, the JSON editor.

Every change is tried on the whole match first (:func:`matchlog.verify`);
a refusal shows the referee's reason and saves nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response
from wtforms.validators import ValidationError

from referee.errors import RefereeError
from referee.match import MATCH_OVER
from referee.matchfile import NOT_A_MATCH, ROUND_NOT_OBJECT, load_document, read_header
from referee.web import gin_view, i18n, matchlog
from referee.web.access import open_match, open_table
from referee.web.extensions import db
from referee.web.feedback import field_cards, show_error
from referee.web.fields import numbered
from referee.web.forms import ActionForm, RoundJsonForm
from referee.web.models import Match, Round
from referee.web.roundforms import build_round, card_fields, fill_from_round, quick_form_class
from referee.web.scoresheet import ruleset_of
from referee.web.views.pages import render_page, to_score_sheet

bp = Blueprint("rounds", __name__)
MATCH = "/<any(t,v):mode>/<key>/m/<int:match_id>"


def _stored(match: Match, number: int) -> Round:
    found = next((r for r in match.rounds if r.number == number), None)
    if found is None:
        abort(404)
    return found


def _typed_cards(form: Any) -> list[str]:
    """Cards typed anywhere in the round form, which the picker marks as used."""
    return sorted({card for field in card_fields(form) for card in field_cards(field)})


@bp.route(MATCH + "/rounds/new", methods=["GET", "POST"])
def new(mode: str, key: str, match_id: int) -> Any:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    if match.live_round is not None:
        flash(gettext("A round is being played live: finish it or discard it first."), "error")
        return redirect(url_for("live.show", mode=mode, key=key, match_id=match.id))
    return _round_form(access, match, None)


@bp.route(MATCH + "/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit(mode: str, key: str, match_id: int, number: int) -> Any:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    stored = _stored(match, number)
    if not stored.complete:
        return redirect(url_for("live.show", mode=mode, key=key, match_id=match.id))
    return _round_form(access, match, stored)


def _round_form(access: Any, match: Match, stored: Round | None) -> Any:
    players = match.player_names
    form = quick_form_class(match.rules, players)()
    if stored is not None and request.method == "GET":
        readable = matchlog.readable_entry(match, stored.number, stored.entry)
        if readable is None or not fill_from_round(form, match.rules, players, readable):
            return redirect(
                url_for(
                    "rounds.edit_json",
                    mode=access.mode,
                    key=access.key,
                    match_id=match.id,
                    number=stored.number,
                )
            )
    number = stored.number if stored else match.next_round_number
    if not form.is_submitted():
        form.for_round.data = str(number)
    stale = _stale_round(form, stored, number)
    preview = None
    later: list[int] = []
    action = request.form.get("action")
    if form.is_submitted() and stale is None and form.validate():
        try:
            entry = build_round(form, match.rules, players)
            rounds = matchlog.entries(match)
            if stored is None:
                rounds.append(entry)
            else:
                rounds[number - 1] = entry
            state, later = _verify_correction(match, rounds, number)
        except ValidationError:
            pass
        except RefereeError as error:
            who = form.player.data if form.ending.data in ("out", "closed") else None
            hands = {
                name: field
                for name, field in zip(players, numbered(form, "hand"), strict=True)
                if name != who
            }
            show_error(form, card_fields(form), error, number, hands)
        else:
            if action == "save" and not later or action == "save_cut" and later:
                _save(match, stored, entry, remove_after=bool(later))
                flash(gettext("Round %(number)s saved.", number=number))
                if later:
                    flash(
                        ngettext(
                            "Round %(rounds)s was removed.",
                            "Rounds %(rounds)s were removed.",
                            len(later),
                            rounds=_span(later),
                        )
                    )
                return to_score_sheet(access, match)
            preview = _preview(match, state, number, entry)
    rules = ruleset_of(match)
    page = render_page(
        "matches/round_form.html",
        access=access,
        match=match,
        form=form,
        players=players,
        number=number,
        stored=stored,
        preview=preview,
        stale=stale,
        later=_span(later) if later else None,
        later_count=len(later),
        jokers=bool(rules and rules.jokers),
        used=_typed_cards(form) if form.is_submitted() else [],
    )
    refused = stale is not None or (later and action == "save")
    if refused and not isinstance(page, tuple):
        return page, 409
    return page


def _stale_round(form: Any, stored: Round | None, number: int) -> int | None:
    """The round a new-round form was opened for, if that round is saved already.

    The form carries the number of the round it was opened for: pressing Back
    and saving again must not record the same round twice.
    """
    if stored is not None or not form.is_submitted():
        return None
    try:
        opened_for = int(form.for_round.data or 0)
    except ValueError:
        return None
    return opened_for if 0 < opened_for < number else None


def _verify_correction(
    match: Match, rounds: list[dict[str, Any]], number: int
) -> tuple[Any, list[int]]:
    """Replay the match with round ``number`` as typed; the later rounds in the way, if any.

    When the corrected round ends the match, the engine refuses every round after
    it ("the match was already over"): the match is then replayed up to round
    ``number`` and the numbers of the later rounds are returned, for the user to
    decide whether to remove them.
    """
    try:
        return matchlog.verify(match, rounds), []
    except RefereeError as error:
        if error.reason.key != MATCH_OVER or error.round != number + 1 or len(rounds) <= number:
            raise
    state = matchlog.verify(match, rounds[:number])
    return state, list(range(number + 1, len(rounds) + 1))


def _span(numbers: list[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _preview(match: Match, state: Any, number: int, entry: dict[str, Any]) -> dict[str, Any]:
    result = state.rounds[number - 1]
    extra = gin_view.adjudication(match, entry) if match.rules == "gin" else None
    return {"result": result, "gin": extra}


def _save(
    match: Match, stored: Round | None, entry: dict[str, Any], remove_after: bool = False
) -> None:
    if stored is None:
        match.rounds.append(Round(number=match.next_round_number, entry=entry))
    else:
        stored.entry = entry
        stored.previous_entry = None
        if remove_after:  # the corrected round ends the match: the rounds after it go
            for later in [r for r in match.rounds if r.number > stored.number]:
                match.rounds.remove(later)
                db.session.delete(later)
    db.session.commit()


@bp.route(MATCH + "/rounds/<int:number>/json", methods=["GET", "POST"])
def edit_json(mode: str, key: str, match_id: int, number: int) -> Any:
    """Correct any round by editing its round object as entered (turns included)."""
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    stored = _stored(match, number)
    if not stored.complete:
        abort(404)
    form = RoundJsonForm()
    if request.method == "GET":
        form.entry.data = matchlog.entry_text(stored.entry)
    elif form.validate_on_submit():
        try:
            entry = _read_entry(match, form.entry.data, number)
            rounds = matchlog.entries(match)
            rounds[number - 1] = entry
            matchlog.verify(match, rounds)
        except RefereeError as error:
            form.entry.errors.append(i18n.error_text(error))
        else:
            _save(match, stored, entry)
            flash(gettext("Round %(number)s saved.", number=number))
            return to_score_sheet(access, match)
    return render_page(
        "matches/round_json.html", access=access, match=match, form=form, number=number
    )


def _read_entry(match: Match, text: str, number: int) -> dict[str, Any]:
    """A round object typed as JSON, read by the engine: its canonical form, or RefereeError."""
    try:
        raw = matchlog.call_engine(load_document, text)
    except RefereeError as error:
        if error.reason.key == NOT_A_MATCH:
            raise RefereeError(ROUND_NOT_OBJECT) from None
        raise
    match_header = matchlog.call_engine(read_header, matchlog.header(match))
    return matchlog.canonical_round(raw, match_header, number)


@bp.get(MATCH + "/rounds/<int:number>")
def show(mode: str, key: str, match_id: int, number: int) -> str:
    access = open_table(mode, key)
    match = open_match(access, match_id)
    stored = _stored(match, number)
    seen = matchlog.outlook(match)
    result = None
    if seen.state is not None and stored.complete and number <= len(seen.state.rounds):
        result = seen.state.rounds[number - 1]
    return render_page(
        "matches/round_show.html",
        access=access,
        match=match,
        stored=stored,
        result=result,
        entry=matchlog.readable_entry(match, number, stored.entry),
        entry_json=matchlog.entry_text(stored.entry),
    )


def _replace_entry(
    match: Match, stored: Round, entry: dict[str, Any], previous: dict[str, Any] | None
) -> bool:
    """Give a stored round a new entry if the whole match still replays; say why not if not."""
    rounds = matchlog.entries(match)
    rounds[stored.number - 1] = entry
    try:
        matchlog.verify(match, rounds)
    except RefereeError as error:
        flash(i18n.error_text(error), "error")
        return False
    stored.entry, stored.previous_entry = entry, previous
    db.session.commit()
    return True


@bp.post(MATCH + "/rounds/<int:number>/void")
def void(mode: str, key: str, match_id: int, number: int) -> Response:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    stored = _stored(match, number)
    if ActionForm().validate_on_submit() and stored.complete and not stored.voided:
        if _replace_entry(match, stored, {"end": "void"}, previous=stored.entry):
            flash(gettext("Round %(number)s is void.", number=number))
    return to_score_sheet(access, match)


@bp.post(MATCH + "/rounds/<int:number>/restore")
def restore(mode: str, key: str, match_id: int, number: int) -> Response:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    stored = _stored(match, number)
    if ActionForm().validate_on_submit() and stored.voided and stored.previous_entry:
        if _replace_entry(match, stored, stored.previous_entry, previous=None):
            flash(gettext("Round %(number)s is restored.", number=number))
    return to_score_sheet(access, match)


@bp.post(MATCH + "/rounds/undo")
def undo(mode: str, key: str, match_id: int) -> Response:
    """Remove the last saved round."""
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    complete = match.complete_rounds
    if not ActionForm().validate_on_submit() or not complete:
        return to_score_sheet(access, match)
    if match.live_round is not None:
        flash(gettext("A round is being played live: finish it or discard it first."), "error")
        return to_score_sheet(access, match)
    last = complete[-1]
    match.rounds.remove(last)
    db.session.delete(last)
    db.session.commit()
    flash(gettext("Round %(number)s removed.", number=last.number))
    return to_score_sheet(access, match)
