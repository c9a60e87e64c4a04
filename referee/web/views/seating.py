"""A player joins the match or leaves it, between rounds (edit link only).

Each form names the match's version it was made from: when another phone saved a
round, or seated someone, meanwhile, nothing is saved and the page answers 409
with the choice kept.  A join carries a one-time token, so a double tap seats
the player once.  The engine decides what the table allows (player counts, gin's
two players, the order of the seats) and what follows (starting total, dealer).
"""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, url_for
from flask_babel import gettext

from referee.match import Detail, MatchState
from referee.web.forms.fields import choices
from referee.web.forms.seating import JoinForm, LeaveForm
from referee.web.play.access import Access, edit_page, open_match, table_blueprint
from referee.web.play.matchwrites import Reseat
from referee.web.play.names import name_key
from referee.web.show import i18n, scoresheet
from referee.web.store import door, reads
from referee.web.store.models import Match
from referee.web.views.pages import render_page, to_score_sheet
from referee.web.views.roundform import totals_now

bp = table_blueprint("seating", __name__)
SEATING = "/<any(t,v):mode>/<key>/m/<int:match_id>/seating"
LEAVE = "leave"  # the leave form's fields are prefixed: one page, one id per field


def _fill(match: Match, join: JoinForm, leave: LeaveForm) -> None:
    seated = match.seated_names
    keys = {name_key(name) for name in seated}
    others = [p.name for p in match.table.players if name_key(p.name) not in keys]
    join.player.choices = choices([("", gettext("(a new player)")), *((n, n) for n in others)])
    join.after.choices = choices([(name, name) for name in seated])
    if not join.after.data or join.after.data not in seated:
        join.after.data = seated[-1] if seated else ""  # the last seat of the list
    leave.player.choices = choices([(name, name) for name in seated])
    for form in (join, leave):
        if not form.match_version.data:
            form.match_version.data = str(match.version)


def _page(
    access: Access,
    match: Match,
    join: JoinForm | None = None,
    leave: LeaveForm | None = None,
    *,
    conflict: list[str] | None = None,
    status: int | None = None,
) -> Any:
    join = join or JoinForm(formdata=None)
    leave = leave or LeaveForm(formdata=None, prefix=LEAVE)
    _fill(match, join, leave)
    seen = reads.outlook(match, Detail.SHEET)
    page = render_page(
        "matches/seating.html",
        access=access,
        match=match,
        sheet=scoresheet.build(match, seen.state),
        error=seen.error,
        closed=_closed(match, seen),
        join=join,
        leave=leave,
        conflict=conflict or [],
    )
    if conflict:
        return page.body, 409
    return (page.body, status) if status else page


def _closed(match: Match, seen: reads.Outlook) -> str:
    """Why nobody can join or leave now (empty when they can)."""
    if seen.state is None:
        return gettext("The referee cannot replay this match: correct it first.")
    if seen.state.finished:
        return gettext("The match is over.")
    if match.live_round is not None:
        return gettext("A round is being played: players join or leave between rounds.")
    if not match.complete_rounds:
        return gettext("Before the first round, change the players in the match's setup.")
    return ""


def _reseat(
    access: Access,
    match: Match,
    seated: list[str],
    form: JoinForm | LeaveForm,
    *,
    once: str | None = None,
    location: str = "",
) -> MatchState | Any:
    """The match with ``seated`` at the table from the next round (the door's write), or the
    page saying why not: the reason beside the player field, or (409) what another phone
    changed since the form was made, the choice kept."""
    seen = door.Seen(match_version=form.match_version.data)
    answer = door.save(Reseat(tuple(seated), seen=seen, once=once, location=location), match)
    shown = {"join": form} if isinstance(form, JoinForm) else {"leave": form}
    if isinstance(answer, door.Saved):
        if answer.repeated:  # a double tap that waited for the first
            flash(gettext("Done already."))
            return redirect(answer.location)
        return answer.verdict.state
    if isinstance(answer, door.Conflict):
        form.match_version.data = str(match.version)
        conflict = [
            gettext("The match was changed on another phone meanwhile."),
            gettext("At the table now: %(names)s.", names=", ".join(match.seated_names)),
            totals_now(match),
        ]
        return _page(access, match, conflict=conflict, **shown)
    assert isinstance(answer, door.Refused)  # a reseating is never held for a preview
    reason = answer.reason
    words = reason if isinstance(reason, str) else i18n.error_text(reason, where=False)
    form.player.errors = [words]
    return _page(access, match, status=400, **shown)


@bp.get(SEATING)
@edit_page
def show(access: Access, match_id: int) -> Any:
    return _page(access, open_match(access, match_id))


@bp.post(SEATING + "/join")
@edit_page
def join(access: Access, match_id: int) -> Any:
    match = open_match(access, match_id)
    form = JoinForm()
    if done := door.repeated(form.once.data):
        flash(gettext("Done already."))
        return redirect(done.location)
    if not form.validate_on_submit():
        return _page(access, match, join=form, status=400)
    if closed := _closed(match, reads.outlook(match)):
        form.player.errors = [closed]
        return _page(access, match, join=form, status=400)
    typed = form.new_name.data or form.player.data or ""
    known = {name_key(p.name): p.name for p in match.table.players}
    name = known.get(name_key(typed), typed) if typed else ""
    seated = list(match.seated_names)
    if not name:
        form.player.errors = [gettext("Choose a player or write a new name.")]
        return _page(access, match, join=form, status=400)
    if name in seated:
        form.player.errors = [gettext("%(name)s is at the table already.", name=name)]
        return _page(access, match, join=form, status=400)
    after = form.after.data if form.after.data in seated else seated[-1]
    seated.insert(seated.index(after) + 1, name)
    location = url_for("matches.scoreboard", match_id=match.id)
    state = _reseat(access, match, seated, form, once=form.once.data, location=location)
    if not isinstance(state, MatchState):
        return state
    start = state.totals.get(name, 0)
    flash(
        gettext(
            "%(name)s joins from round %(number)s with %(points)s points; %(dealer)s deals.",
            name=name,
            number=state.next_round,
            points=start,
            dealer=state.next_dealer,
        )
    )
    return to_score_sheet(access, match)


@bp.post(SEATING + "/leave")
@edit_page
def leave(access: Access, match_id: int) -> Any:
    match = open_match(access, match_id)
    form = LeaveForm(prefix=LEAVE)
    if not form.validate_on_submit():
        return _page(access, match, leave=form, status=400)
    seated = list(match.seated_names)
    name = form.player.data or ""
    if name not in seated and name in match.everyone:  # asked twice (or by two phones): done
        flash(gettext("%(name)s has left the table.", name=name))
        return to_score_sheet(access, match)
    if closed := _closed(match, reads.outlook(match)):
        form.player.errors = [closed]
        return _page(access, match, leave=form, status=400)
    if name not in seated:
        form.player.errors = [gettext("Choose who leaves.")]
        return _page(access, match, leave=form, status=400)
    seated.remove(name)
    state = _reseat(access, match, seated, form)
    if not isinstance(state, MatchState):
        return state
    if state.finished:  # a pool left to one player has ended
        flash(
            gettext(
                "%(name)s leaves the table with %(points)s points; the match is over:"
                " %(winners)s won.",
                name=name,
                points=state.totals.get(name, 0),
                winners=", ".join(state.winners),
            )
        )
        return to_score_sheet(access, match)
    flash(
        gettext(
            "%(name)s leaves the table with %(points)s points; %(dealer)s deals round %(number)s.",
            name=name,
            points=state.totals.get(name, 0),
            dealer=state.next_dealer,
            number=state.next_round,
        )
    )
    return to_score_sheet(access, match)
