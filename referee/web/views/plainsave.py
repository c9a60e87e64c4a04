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
form, the "save" button, a match of complete rounds only, the form opened for the next
round at the match's current version.  Then the form is built once, and the write (a
:class:`SaveRound` offering this fast strategy) is handed to the door, which chooses it
first: the round played on the kept replay (the engine's refusal is the door's answer),
then written if the match did not change meanwhile; else the door takes the objects' way.
A form that is not saved is handed, built, with the door's answer, to the ORM path's page
(:class:`Built`), which renders them without building the form or playing the round again.  Anything else is the ORM
path's (None).  ``tests/web/test_one_save.py`` holds the stored rounds, summaries, answers
and audit trail of both equal.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from flask import flash, g, redirect, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from referee.errors import RefereeError
from referee.rulesets import Ruleset, find_ruleset
from referee.web.forms.entry import entry_form
from referee.web.forms.finaltable import TableRows
from referee.web.forms.rounds import round_inputs
from referee.web.play import appending
from referee.web.play.access import EDIT, check_key, open_match, open_table, remember
from referee.web.play.roundwrites import SaveRound
from referee.web.show.scoresheet import rules_of_deal
from referee.web.store import door, reads
from referee.web.store.models import Match, seated_at
from referee.web.views.roundform import Built

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from referee.match import MatchState
    from referee.web.play.appending import StoredMatch
    from referee.web.store.summary import MatchLog


def save_next_round(mode: str, key: str, match_id: int) -> Response | Built | None:
    """The round form's POST handed to the door with the plain way offered: the redirect to
    the score sheet, the form built (not saved: the page shows why), or None (not the
    plain case: nothing built, the ORM path answers)."""
    if mode != EDIT or request.form.get("action") != "save":
        return None
    check_key(key)  # a guesser stopped is stopped here too
    door.read_first()
    with appending.rows_of(key, match_id) as (connection, stored):
        plain = _plain_case(stored, connection)
    if plain is None:
        door.write_now()  # the ORM path answers: it locks the table first
        return None
    stored, state, rules = plain
    number = stored.next_number
    log = stored.log
    posted = request.form
    players = seated_at(log.names, log.seating_changes, number)
    inputs = round_inputs(rules, log.options)
    teams = {team.name: team.members for team in state.header.teams}
    entering = entry_form(rules, teams)
    rows = TableRows.posted(posted, TableRows.default(rules, len(players)))
    form = entering.form_class(rules, players, inputs, rows if entering.rows else None)()
    if not form.validate():
        door.write_now()
        return Built(form, door.Refused(""))  # its fields say why
    location = url_for("matches.scoreboard", mode=EDIT, key=key, match_id=match_id)
    try:
        entry = entering.build(form, rules, players, inputs)
    except RefereeError as error:
        door.write_now()
        return Built(form, door.Refused(error))
    write = SaveRound(
        number,
        door.Seen(match_version=posted.get("match_version")),
        form.once.data,
        location,
        EDIT,
        entry=entry,
        rows=partial(_on_rows, stored, state, entry, form.once.data, location),
    )
    answer = door.save(write, partial(_opened, mode, key, match_id))
    if not isinstance(answer, door.Saved):
        return Built(form, answer)
    remember(mode, key)
    if answer.repeated:
        flash(gettext("This round was saved already."))
    else:
        flash(gettext("Round %(number)s saved.", number=number))
    return redirect(answer.location)


def _plain_case(
    stored: StoredMatch | None, connection: Connection
) -> tuple[StoredMatch, MatchState, Ruleset] | None:
    """The match read as rows, its state kept at that version and the rules of its next
    round, when the form was opened for that round at that version (None otherwise: a round
    saved, corrected or removed meanwhile, which the ORM path says)."""
    if stored is None or not stored.plain:
        return None
    posted = request.form
    if not stored.opened_as_is(
        door.Seen(match_version=posted.get("match_version")), posted.get("for_round")
    ):
        return None
    seen = appending.played_so_far(stored, connection)
    if seen.state is None:
        return None
    try:
        return stored, seen.state, _round_rules(stored.log, seen.state)
    except RefereeError:
        return None


def _on_rows(
    stored: StoredMatch, state: MatchState, entry: dict[str, Any], once: str | None, location: str
) -> door.Saved | door.Refused | None:
    """The fast strategy the door chooses first: the round played on the state kept, then
    written on rows in the table's turn (None: the match changed meanwhile)."""
    try:
        after: Any = reads.call_engine(state.play, entry)
    except RefereeError as error:
        return door.Refused(error)
    if not appending.append_apart(stored, entry, after, once=once, location=location):
        door.write_now()  # the objects' way answers: it locks the table first
        return None
    return door.Saved(location, door.Verdict(after))


def _opened(mode: str, key: str, match_id: int) -> Match:
    """The match opened as objects, the table's turn taken (the door's objects' way)."""
    g.access = open_table(mode, key, edit=True)
    return open_match(g.access, match_id)


def _round_rules(log: MatchLog, state: MatchState) -> Ruleset:
    """The rules the form of the next round is made with, as the ORM path makes it: the
    match's, with its options (and its next deal's contract where contracts change)."""
    played = find_ruleset(log.rules, log.options, as_played=True)
    return rules_of_deal(played, len(state.rounds) + 1, state)
