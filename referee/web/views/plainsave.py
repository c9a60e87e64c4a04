"""The round form's plain save: the next round of a match, as the API's plain save makes it.

Saving the next round from the quick round form is what a phone at a table does all
evening.  Through the ORM (:func:`referee.web.views.rounds.new`) it locks the table for
the whole request, loads the match into objects, flushes them, recounts the summary from
them and commits: three times the CPU of the API's plain save of the same round
(:mod:`referee.web.play.appending`).  This path takes the form's plain case to that
strategy: the match read as rows without the table's lock, the form built and validated
as the page builds it, the round played on the kept replay, then, in the table's turn,
the version raised if it is still the one read, the round, the form's receipt and the
summary written in one transaction.

It takes only the plain case: the edit link, the quick round form or the Indian deal
form, the "save" button, a match of complete rounds only, the form opened for
the next round at the match's current version, a form that validates, a round the
engine accepts and a one-time token not used yet (its receipt's key says so: the whole
write is rolled back).  Anything else, and a match that changed
while the round was checked, is handed back (None) to the ORM path, which answers it as
always: same rules, same errors, same conflict pages.  ``tests/web/test_one_save.py``
holds the stored rounds, summaries, answers and audit trail of both equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import flash, redirect, request, url_for
from flask_babel import gettext
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from referee.errors import RefereeError
from referee.rulesets import Ruleset, find_ruleset
from referee.web.forms.entry import entry_form
from referee.web.forms.finaltable import TableRows
from referee.web.forms.rounds import round_inputs
from referee.web.play import appending
from referee.web.play.access import EDIT, check_key, remember
from referee.web.show.scoresheet import rules_of_deal
from referee.web.store import door, matchlog
from referee.web.store.models import seated_at

if TYPE_CHECKING:
    from referee.match import MatchState
    from referee.web.store.summary import MatchLog


NO_CSRF = {"csrf": False}


def save_next_round(mode: str, key: str, match_id: int) -> Response | None:
    """The round form's POST saved the plain way: the redirect to the score sheet, or None
    (nothing done: the ORM path answers it)."""
    if mode != EDIT or request.form.get("action") != "save":
        return None
    check_key(key)  # a guesser stopped is stopped here too
    door.read_first()
    saved = None
    try:
        saved = _saved(key, match_id)
    finally:
        if saved is None:
            door.write_now()  # the ORM path answers: it locks the table first
    if saved is None:
        return None
    number, location = saved
    remember(mode, key)
    flash(gettext("Round %(number)s saved.", number=number))
    return redirect(location)


def _saved(key: str, match_id: int) -> tuple[int, str] | None:
    """The number of the round saved and the score sheet's address, or None."""
    with appending.rows_of(key, match_id) as (connection, stored):
        if stored is None or not stored.plain:
            return None
        number = stored.next_number
        posted = request.form
        if door.version_of(posted.get("for_round")) != number or door.outdated(
            stored, posted.get("match_version")
        ):
            return None  # a round saved, corrected or removed meanwhile: the ORM path says so
        log = stored.log
        seen = appending.played_so_far(stored, connection)
        if seen.state is None:
            return None
        try:
            rules = _round_rules(log, seen.state)
        except RefereeError:
            return None
        players = seated_at(log.names, log.seating_changes, number)
        inputs = round_inputs(rules, log.options)
        # The POST's CSRF token was checked before the view (CSRFProtect): the form is not
        # given a token of its own to make and check again.
        teams = {team.name: team.members for team in seen.state.header.teams}
        entering = entry_form(rules, teams)
        rows = TableRows.posted(posted, TableRows.default(rules, len(players)))
        form = entering.form_class(rules, players, inputs, rows if entering.rows else None)(
            meta=NO_CSRF
        )
        if not form.validate():
            return None
        try:
            entry = entering.build(form, rules, players, inputs)
            state: Any = matchlog.call_engine(seen.state.play, entry)
        except RefereeError:
            return None
        location = url_for("matches.scoreboard", mode=EDIT, key=key, match_id=match_id)
        try:
            written = appending.append(
                connection, stored, entry, state, once=form.once.data, location=location
            )
        except IntegrityError:  # the one-time token's receipt is there: the ORM path says so
            return None
        if not written:
            return None
    return number, location


def _round_rules(log: MatchLog, state: MatchState) -> Ruleset:
    """The rules the form of the next round is made with, as the ORM path makes it: the
    match's, with its options (and its next deal's contract where contracts change)."""
    played = find_ruleset(log.rules, log.options, as_played=True)
    return rules_of_deal(played, len(state.rounds) + 1, state)
