"""Rounds: the quick (final table) form, corrections, void and restore, undo, the JSON editor.

Every change is tried on the whole match first (:func:`matchlog.verify`);
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
from referee.rulesets import Ruleset, find_ruleset
from referee.web.forms import ActionForm, RoundJsonForm
from referee.web.forms.entry import entry_form
from referee.web.forms.feedback import field_cards, show_error
from referee.web.forms.finaltable import TableRows
from referee.web.forms.rounds import (
    card_fields,
    input_fields,
    round_inputs,
)
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
from referee.web.show.scoresheet import deal_rules
from referee.web.store import audit, door, matchlog
from referee.web.store.models import Match, Round
from referee.web.views import merges, plainsave
from referee.web.views.pages import Page, following, render_page, to_score_sheet

bp = table_blueprint("rounds", __name__)
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
def _new(access: Access, match_id: int, built: plainsave.Built | None = None) -> Any:
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
        door.version_of(asked.get("for_round")),
        request.form.get("action"),
        door.version_of(request.form.get("seen_version")),
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
    built: plainsave.Built | None = None,
) -> Any:
    """``same``: the round a new round's form was opened for, saved from another phone
    meanwhile (see :mod:`samedeal`); with "keep mine" chosen, ``stored`` is that round.
    ``built``: the form as the plain way built (and the door answered) it this request."""
    number = stored.number if stored is not None else match.next_round_number
    players = match.seating_at(number)
    rules = deal_rules(match, number) or find_ruleset(match.rules)
    entering = entry_form(rules, match.teams)
    inputs = round_inputs(rules, match.options)
    readable = None
    if stored is not None and request.method == "GET":
        readable = matchlog.readable_entry(match, stored.number, stored.entry)
    pool = entering.before(match, number)
    rows = _table_rows(rules, players, readable) if entering.rows else None
    form = built.form if built is not None else entering.form_class(rules, players, inputs, rows)()
    if stored is not None and request.method == "GET":
        if readable is None or not entering.fill(form, rules, players, readable, inputs):
            return redirect(
                url_for(
                    "rounds.edit_json",
                    match_id=match.id,
                    number=stored.number,
                )
            )
    if not form.is_submitted():
        form.for_round.data = str(number)
        form.match_version.data = str(match.version)
        form.round_version.data = str(stored.version) if stored else ""
        entering.opened(form, players, request.args.getlist("rejoin"), pool)
    elif done := door.repeated(form.once.data):
        flash(gettext("This round was saved already."))
        return redirect(done.location)
    write = _write_of(access, form, match, stored, number, same is not None)
    moved = door.changed(write, match) if form.is_submitted() else frozenset()
    conflict: list[str] = []
    preview = None
    later: list[int] = []
    action = request.form.get("action")
    wrong_show: str | None = None  # who showed, when the show was found invalid
    merge = None
    if stored is not None and same is None and form.is_submitted():
        forms = _merge_forms(match, rules, players, inputs, number)
        loaded = merges.opened(stored)
        unsettled = merges.settle_choices(form, forms, loaded)
        round_moved = door.ROUND in moved
    if form.is_submitted() and same is not None:
        conflict = [] if same.decided else _same_deal_words(same)
        action = "save" if same.decided else None
    elif form.is_submitted():
        conflict = _round_conflict(form, match, stored, number, moved)
    if stored is not None and same is None and form.is_submitted():
        if conflict and round_moved:
            form, merge = merges.merge_posted(form, forms, stored, loaded, unsettled)
        elif unsettled and loaded is not None:
            merge = merges.choices_left(form, forms, loaded, unsettled)
            conflict = [*conflict, merges.choose_first()]
    if action == "wrong_show" and form.is_submitted() and not conflict:
        action = entering.wrong_show(form, players, pool) or action
    if (
        form.is_submitted()
        and not conflict
        and action != "more_rows"
        and (built.valid if built is not None else form.validate())
    ):
        if built is not None and built.refused is not None:
            checked: door.Verdict | door.Refused = built.refused
        else:
            try:
                write = replace(write, entry=entering.build(form, rules, players, inputs))
                checked = door.check(write, match)
            except RefereeError as error:
                checked = door.Refused(error)
        if isinstance(checked, door.Refused):
            assert isinstance(checked.reason, RefereeError)
            refusal = entering.refusal(form, rules, players, checked.reason)
            wrong_show = refusal.wrong_show
            show_error(form, card_fields(form), refusal.error, number, refusal.hands)
        else:
            later = list(checked.later)
            if action == "save" and not later or action == "save_cut" and later:
                answer = door.save(replace(write, remove_after=bool(later)), match, verdict=checked)
                if isinstance(answer, door.Conflict):
                    return conflict_page(
                        access, match, *_round_conflict(form, match, stored, number, answer.changed)
                    )
                flash(gettext("Round %(number)s saved.", number=number))
                if same is not None and same.keeps_mine:
                    flash(_replaced_theirs())
                if later:
                    flash(
                        ngettext(
                            "Round %(rounds)s was removed.",
                            "Rounds %(rounds)s were removed.",
                            len(later),
                            rounds=_span(later),
                        )
                    )
                return redirect(write.location)
            preview = checked.state.rounds[number - 1]
    page = render_page(
        entering.template,
        pool=pool,
        wrong_show=wrong_show,
        access=access,
        match=match,
        form=form,
        players=players,
        number=number,
        stored=stored,
        preview=preview,
        conflict=conflict,
        later=_span(later) if later else None,
        later_count=len(later),
        rules=rules,
        round_inputs=input_fields(form, inputs),
        jokers=rules.jokers,
        used=_typed_cards(form) if form.is_submitted() else [],
        **_following_the_match(access, match, stored, same),
        merge=merge,
        loaded=merges.seal(stored, merge.contested if merge else ()) if stored else None,
    )
    # A save before later rounds is refused as a conflict, unless the form itself refused it.
    if conflict or (later and action == "save" and not page.refused):
        return page.body, 409
    return page


def _following_the_match(
    access: Access, match: Match, stored: Round | None, same: samedeal.SameDeal | None
) -> dict[str, Any]:
    """A new round's form follows the match like the score sheet: the round number and the
    dealer change in place, what is typed stays, and a round saved from another phone
    meanwhile is shown with the choice (the page is fetched again for the round typed)."""
    if stored is not None and not (same is not None and same.keeps_mine):
        return {"same_deal": None}
    page = url_for("rounds.new", match_id=match.id)
    return {
        "live": {**following(access, match, page), "carry": "for_round"},
        "same_deal": same,
        "their_result": samedeal.result_of(match, same) if same is not None else None,
        "dealer": samedeal.dealer_of_next_round(match, request.args.getlist("rejoin")),
    }


def _same_deal_words(same: samedeal.SameDeal) -> list[str]:
    return [
        gettext(
            "Round %(number)s was just saved from another phone: nothing of yours is saved"
            " yet. Choose below.",
            number=same.number,
        )
    ]


def _replaced_theirs() -> str:
    return gettext(
        "This phone's deal replaced the one saved from the other phone; the round's page keeps"
        " both in its changes."
    )


def _merge_forms(
    match: Match, rules: Ruleset, players: list[str], inputs: Any, number: int
) -> merges.MergeForms:
    """How this round's form is made and filled, for merging a correction onto the round."""

    entering = entry_form(rules, match.teams)

    def make(rows: TableRows | None, posted: bool) -> Any:
        reading = {} if posted else {"formdata": None}
        return entering.form_class(rules, players, inputs, rows)(**reading)

    def fill(form: Any, entry: dict[str, Any]) -> bool:
        readable = matchlog.readable_entry(match, number, entry)
        if readable is None:
            return False
        return entering.fill(form, rules, players, readable, inputs)

    return merges.MergeForms(make, fill, players)


def _table_rows(rules: Ruleset, players: list[str], stored: dict[str, Any] | None) -> TableRows:
    """The meld and lay-off rows of a final-table form: as posted (more if asked), as many as
    a stored table needs, or the ruleset's default."""
    default = TableRows.default(rules, len(players))
    if request.method == "POST":
        return TableRows.posted(request.form, default)
    if stored is not None and isinstance(stored.get("table"), list):
        return TableRows.of_table(stored["table"], default)
    return default


def _write_of(
    access: Access, form: Any, match: Match, stored: Round | None, number: int, decided: bool
) -> SaveRound:
    """The round form's write (its entry is added once the form is built): a new round names
    the match's version (another round saved, corrected or removed meanwhile changes what
    this one means); a correction names the round's version (and, to remove the rounds
    after it, the match's).  ``decided``: the form is one of a round saved from another
    phone meanwhile, whose choice (see :mod:`samedeal`) was made."""
    new = stored is None
    cutting = request.form.get("action") == "save_cut"
    seen = door.Seen(
        match_version=form.match_version.data if new or cutting else door.ANY,
        round_version=door.ANY if new else form.round_version.data,
    )
    if decided:  # the same deal saved from two phones: the player chose what stays
        seen = door.Seen()
    location = url_for("matches.scoreboard", match_id=match.id)
    return SaveRound(number, seen, form.once.data, location, access.mode, new=new)


def _round_conflict(
    form: Any, match: Match, stored: Round | None, number: int, moved: frozenset[str]
) -> list[str]:
    """What changed since the round form was opened, if anything (then nothing is saved).
    The form is brought up to date so that saving it again is one tap."""
    changes: list[str] = []
    if stored is None and moved:
        changes = match_changes(match, door.version_of(form.for_round), number)
    elif door.ROUND in moved:
        changes = [round_corrected(number)]
    elif moved:
        changes = match_changes(match, None, number)
    if changes:
        form.for_round.data = str(number)
        form.match_version.data = str(match.version)
        form.round_version.data = str(stored.version) if stored else ""
        changes.append(totals_now(match))
    return changes


def round_corrected(number: int) -> str:
    return gettext(
        "Round %(number)s was changed on another phone meanwhile; it now reads as"
        " shown in the score sheet.",
        number=number,
    )


def match_changes(match: Match, opened_for: int | None, number: int) -> list[str]:
    """Words for what another phone did to the match since a form was opened for round ``opened_for``."""
    changes = []
    if opened_for is not None and opened_for < number:
        saved = list(range(opened_for, number))
        changes.append(
            ngettext(
                "Round %(rounds)s was saved on another phone meanwhile.",
                "Rounds %(rounds)s were saved on another phone meanwhile.",
                len(saved),
                rounds=_span(saved),
            )
        )
    elif opened_for is not None and opened_for > number:
        gone = list(range(number, opened_for))
        changes.append(
            ngettext(
                "Round %(rounds)s was removed on another phone meanwhile.",
                "Rounds %(rounds)s were removed on another phone meanwhile.",
                len(gone),
                rounds=_span(gone),
            )
        )
    if match.live_round is not None:
        changes.append(gettext("A round is being played live on another phone."))
    if not changes:
        changes.append(
            gettext(
                "The match was changed on another phone meanwhile (a round was corrected,"
                " voided or restored)."
            )
        )
    return changes


def totals_now(match: Match) -> str:
    seen = matchlog.outlook(match)
    if seen.state is None:
        return ""
    totals = ", ".join(f"{name} {total}" for name, total in seen.state.totals.items())
    return gettext(
        "Totals now: %(totals)s. Your entry is kept below: check it and save again.", totals=totals
    )


def _span(numbers: list[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


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
        form.entry.data = matchlog.entry_text(stored.entry)
        form.round_version.data = str(stored.version)
    elif door.changed(write, match):
        conflict = [round_corrected(number), totals_now(match)]
        form.round_version.data = str(stored.version)
    elif form.validate_on_submit():
        try:
            write = replace(write, entry=_read_entry(match, form.entry.data, number))
            rounds = matchlog.entries(match)
            rounds[number - 1] = write.entry
            # Checked as the whole match (a round that ends it before later ones is refused).
            verdict = door.Verdict(matchlog.verify(match, rounds))
        except RefereeError as error:
            form.entry.errors.append(jsontext.problem(form.entry.data) or i18n.error_text(error))
        else:
            answer = door.save(write, match, verdict=verdict)
            if isinstance(answer, door.Conflict):
                return conflict_page(access, match, round_corrected(number))
            flash(gettext("Round %(number)s saved.", number=number))
            return to_score_sheet(access, match)
    page = render_page(
        "matches/round_json.html",
        access=access,
        match=match,
        form=form,
        number=number,
        conflict=conflict,
        current=matchlog.entry_text(stored.entry) if conflict else None,
    )
    if conflict:
        return page.body, 409
    return page


def _read_entry(match: Match, text: str, number: int) -> dict[str, Any]:
    """A round object typed as JSON, read by the engine: its canonical form, or RefereeError."""
    try:
        raw = matchlog.call_engine(load_document, text)
    except RefereeError as error:
        if error.reason.key == NOT_A_MATCH:
            raise RefereeError(ROUND_NOT_OBJECT) from None
        raise
    match_header = matchlog.stored_header(matchlog.header(match))
    return matchlog.canonical_round(raw, match_header, number)


@bp.get(MATCH + "/rounds/<int:number>")
@table_page
def show(access: Access, match_id: int, number: int) -> Page:
    match = open_match(access, match_id)
    deleted = match.deleted_round
    stored = deleted if deleted is not None and deleted.number == number else _stored(match, number)
    seen = matchlog.outlook(match)
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
        entry=matchlog.readable_entry(match, number, stored.entry),
        entry_json=matchlog.entry_text(stored.entry),
        live=following(access, match, request.path),
        recorded=recorded,
        recorded_result=_recorded_result(match, number, recorded),
        changes=audit.trail(match, stored),
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
    return matchlog.readable_entry(match, stored.number, stored.previous_entry) or {}


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
    elif stored.complete or door.changed(write, match):
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
    elif stored.previous_entry or door.changed(write, match):
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
    number = door.version_of(asked.get("round_number"))
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
                rounds=_span(later) if later else "?",
            ),
        )
    seen = door.Seen(round_version=asked.get("round_version"))
    write = RemoveLastRound(named.number, seen, via=access.mode, round_id=named.id)
    if request.method == "GET":
        if door.changed(write, match):
            return conflict_page(access, match, _round_changed(named.number))
        return render_page(
            "matches/round_delete.html",
            access=access,
            match=match,
            stored=named,
            entry=matchlog.readable_entry(match, named.number, named.entry) or {},
        )
    if isinstance(door.save(write, match), door.Conflict):
        return conflict_page(access, match, _round_changed(named.number))
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
    named_id = door.version_of(request.form.get("round_id"))
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
