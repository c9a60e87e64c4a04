"""Correcting any turn of a round entered turn by turn, through the same turn form.

The form opens filled with the turn as entered, over the table as it stood
before that turn.  Saving replays the round from that turn on with the engine
(and, for a finished round, the whole match): when the correction breaks a
later turn, the referee's reason says which, and nothing is saved.  Like
every write it names the match's version (see :mod:`referee.web.store.writes`); a
correction made from a stale page is a 409 that keeps what was typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from referee.errors import RefereeError
from referee.web.forms.feedback import show_error
from referee.web.forms.rounds import card_fields
from referee.web.play import changes
from referee.web.play.access import Access, edit_page, open_match, table_blueprint
from referee.web.play.liveround import CorrectTurns, apply_marking_out
from referee.web.show import i18n
from referee.web.store import door, reads
from referee.web.store.models import Match, Round
from referee.web.views import merges
from referee.web.views.live import (
    arrange_turn,
    make_turn_form,
    read_turn,
    rearranges_table,
    turn_conflict,
    turn_form_context,
)
from referee.web.views.pages import render_page
from referee.web.views.roundform import round_corrected, totals_now

bp = table_blueprint("turns", __name__)
TURN = "/<any(t,v):mode>/<key>/m/<int:match_id>/rounds/<int:number>/turns/<int:turn_number>"


def fill_from_turn(form: Any, turn: dict[str, Any], rearranges: bool) -> None:
    form.player.data = turn.get("player") or ""
    if rearranges:
        form.played.data = " ".join(turn.get("played") or [])
        form.table.data = "\n".join(" ".join(meld) for meld in turn.get("table") or [])
    else:
        form.melds.data = "\n".join(" ".join(meld) for meld in turn.get("melds") or [])
        form.layoffs.data = "\n".join(
            f"{' '.join(layoff['cards'])} > {layoff['onto']}"
            for layoff in turn.get("layoffs") or []
        )
        form.took_discard.data = " ".join(turn.get("took_discard") or [])
        form.discard.data = turn.get("discard") or ""
        buy = turn.get("buy") or {}
        form.buyer.data = buy.get("player")
        form.bought.data = buy.get("card") or form.bought.data
    form.out.data = bool(turn.get("out"))


def _back(match: Match, stored: Round) -> str:
    if stored.complete:
        return url_for("rounds.show", match_id=match.id, number=stored.number)
    return url_for("live.show", match_id=match.id)


@bp.route(TURN, methods=["GET", "POST"])
@edit_page
def edit(access: Access, match_id: int, number: int, turn_number: int) -> Any:
    match = open_match(access, match_id)
    if request.method == "POST" and (done := door.repeated(request.form.get("once"))):
        flash(gettext("This correction was saved already."))
        return redirect(done.location)
    stored = next((r for r in match.rounds if r.number == number), None)
    turns = changes.round_turns(match, stored) if stored is not None else []
    if stored is None or not 1 <= turn_number <= len(turns):
        if request.method == "POST":
            return _gone(access, match, number, turn_number)
        abort(404)
    try:
        state = changes.state_before_turn(match, stored, turns, turn_number)
    except RefereeError as error:
        flash(i18n.error_text(error), "error")
        return redirect(_back(match, stored))
    form = make_turn_form(match, state, **({"formdata": None} if request.method == "GET" else {}))
    conflict: list[str] = []
    merge = None
    part = f"turn-{turn_number}"
    if request.method == "GET":
        fill_from_turn(form, turns[turn_number - 1], rearranges_table(state))
        _name_the_match(form, match, stored, turns)
    else:
        forms = _merge_forms(match, state)
        loaded = merges.opened(stored, part)
        unsettled = merges.settle_choices(form, forms, loaded)
        location = _back(match, stored)
        correcting = CorrectTurns(
            seen=door.Seen(match_version=form.match_version.data, unchosen=unsettled),
            once=form.once.data,
            location=location,
            via=access.mode,
            number=stored.number,
            read=lambda: _read_correction(form, match, stored, state, turns, turn_number),
        )
        answer = door.save(correcting, match)
        if isinstance(answer, door.Saved):
            flash(gettext("Turn %(number)s corrected.", number=turn_number))
            return redirect(location)
        if isinstance(answer, door.Conflict) and door.MATCH in answer.changed:
            conflict = _conflict(form, match, stored, turns)
            now = turns[turn_number - 1]
            form, merge = merges.merge_posted(form, forms, stored, loaded, unsettled, now=now)
        elif isinstance(answer, door.Conflict) and loaded is not None:  # choices unmade
            merge = merges.choices_left(form, forms, loaded, unsettled)
            conflict = [merges.choose_first()]
        elif isinstance(answer, door.Refused) and isinstance(answer.reason, RefereeError):
            show_error(form, card_fields(form), answer.reason, number)
        elif isinstance(answer, door.Refused) and answer.reason:
            form.form_errors.append(answer.reason)
    page = render_page(
        "matches/turn_edit.html",
        access=access,
        match=match,
        stored=stored,
        state=state,
        turn_number=turn_number,
        turn_count=len(turns),
        form=form,
        conflict=conflict,
        merge=merge,
        loaded=merges.seal(
            stored, merge.contested if merge else (), entry=turns[turn_number - 1], part=part
        ),
        cancel_url=_back(match, stored),
        **turn_form_context(match, state),
    )
    if conflict:
        return page.body, 409
    return page


def _merge_forms(match: Match, state: Any) -> merges.MergeForms:
    """How the turn form is made and filled, for merging a correction onto the turn."""

    def make(_rows: Any, posted: bool) -> Any:
        return make_turn_form(match, state, **({} if posted else {"formdata": None}))

    def fill(form: Any, turn: dict[str, Any]) -> bool:
        fill_from_turn(form, turn, rearranges_table(state))
        return True

    return merges.MergeForms(make, fill, list(state.players))


def _name_the_match(form: Any, match: Match, stored: Round, turns: list[dict[str, Any]]) -> None:
    """The hidden fields that say what the form was made from."""
    form.match_version.data = str(match.version)
    form.turns_before.data = str(len(turns))
    form.for_round.data = str(stored.number)


def _conflict(form: Any, match: Match, stored: Round, turns: list[dict[str, Any]]) -> list[str]:
    """What changed since the correction was opened (nothing is saved, the entry is kept)."""
    if stored.complete:
        found = [round_corrected(stored.number), totals_now(match)]
        _name_the_match(form, match, stored, turns)
        return [*found, gettext("Your entry is kept below: check it and save again.")]
    state = reads.live(match, turns)
    return turn_conflict(form, match, state, turns)


def _gone(access: Access, match: Match, number: int, turn_number: int) -> tuple[str, int]:
    """The turn the correction names is no longer there: say so, and show what was typed."""
    typed = [
        (gettext("Player"), request.form.get("player", "")),
        (gettext("New melds"), request.form.get("melds", "")),
        (gettext("Lay-offs"), request.form.get("layoffs", "")),
        (gettext("Cards played from hand"), request.form.get("played", "")),
        (gettext("The table after the turn"), request.form.get("table", "")),
        (gettext("Taken from the discard pile (optional)"), request.form.get("took_discard", "")),
        (gettext("Discarded (optional)"), request.form.get("discard", "")),
    ]
    gone = gettext(
        "Turn %(turn)s of round %(number)s is no longer there: it was taken back, or the round"
        " was discarded, on another phone meanwhile. Nothing was saved.",
        turn=turn_number,
        number=number,
    )
    page = render_template(
        "errors/conflict.html",
        access=access,
        table=access.table,
        match=match,
        changes=[change for change in (gone, totals_now(match)) if change],
        typed=[(label, value) for label, value in typed if value.strip()],
    )
    return page, 409


def _read_correction(
    form: Any,
    match: Match,
    stored: Round,
    state: Any,
    turns: list[dict[str, Any]],
    turn_number: int,
) -> tuple[tuple[dict[str, Any], ...], Any]:
    """The correction posted, read once what the phone saw still holds: the round's turns
    and the replay that accepted them.  Nothing to save (:class:`door.Refusal`, its words
    beside the form, or none: the form says why) when the form does not read, when it
    only asked to lay the table out, or when a later turn breaks."""
    if not form.validate_on_submit():
        raise door.Refusal("")
    entry = read_turn(form, state)
    if request.form.get("action") == "arrange" and rearranges_table(state):
        arrange_turn(form, state, entry)  # laid out in the form, nothing saved
        raise door.Refusal("")
    try:
        corrected = _corrected(match, stored, state, turns, turn_number, entry)
    except LaterTurnBroken as broken:
        raise door.Refusal(broken.words) from None
    return tuple(corrected.turns), corrected.state


@dataclass(frozen=True)
class Corrected:
    """A round's turns with one corrected, and the replay that accepted them."""

    turns: list[dict[str, Any]]
    state: Any


def _corrected(
    match: Match,
    stored: Round,
    before: Any,
    turns: list[dict[str, Any]],
    turn_number: int,
    entry: dict[str, Any],
) -> Corrected:
    """Turn ``turn_number`` as ``entry`` (checked on the table ``before`` it, marked out if it
    empties the hand), then every turn after it; RefereeError or LaterTurnBroken if not."""
    apply_marking_out(before, entry)
    entry = changes.canonical_turn(before, entry)
    corrected = [*turns[: turn_number - 1], entry, *turns[turn_number:]]
    return Corrected(corrected, _replay(match, stored, corrected, turn_number))


class LaterTurnBroken(Exception):
    """The correction holds, but a later turn (or the round's end) no longer does."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


def _replay(match: Match, stored: Round, turns: list[dict[str, Any]], turn_number: int) -> Any:
    """The round (and, if finished, the match) replayed with the corrected turns.

    A refusal of a later turn is raised as :class:`LaterTurnBroken` naming it.
    """
    try:
        return changes.replay_corrected_turns(match, stored, turns)
    except RefereeError as refused:
        raise LaterTurnBroken(_later_words(refused, stored.number, turns, turn_number)) from None


def _later_words(
    refused: RefereeError, number: int, turns: list[dict[str, Any]], turn_number: int
) -> str:
    reason = i18n.error_text(refused, where=False)
    if refused.round == number and refused.turn is not None and refused.turn > turn_number:
        later = turns[refused.turn - 1] if refused.turn <= len(turns) else {}
        return gettext(
            "With this correction turn %(turn)s (%(name)s) no longer holds: %(reason)s."
            " Nothing was saved.",
            turn=refused.turn,
            name=later.get("player", "?"),
            reason=reason,
        )
    if refused.round in (None, number):
        return gettext(
            "With this correction the end of round %(number)s no longer holds: %(reason)s."
            " Nothing was saved.",
            number=number,
            reason=reason,
        )
    return gettext(
        "With this correction round %(round)s no longer holds: %(reason)s. Nothing was saved.",
        round=refused.round,
        reason=reason,
    )
