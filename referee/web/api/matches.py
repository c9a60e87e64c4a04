"""A match: its scoreboard, its version, its export, and its rounds (add, correct, void,
restore, remove the last).  Every write names the match's version (If-Match)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, jsonify, request
from flask_babel import get_locale, gettext

from referee.errors import RefereeError
from referee.match import Detail
from referee.web.api import core, schemas
from referee.web.api.base import ApiBlueprint, engine_call
from referee.web.forms import NAME_MAX
from referee.web.play import appending, changes
from referee.web.play.access import EDIT, Access, check_key, open_match
from referee.web.play.matchwrites import Reseat
from referee.web.play.names import clean_name, name_key
from referee.web.play.roundwrites import RemoveLastRound, RestoreRound, SaveRound, VoidRound
from referee.web.show import i18n, labels, scoresheet
from referee.web.store import door, reads
from referee.web.store.models import KEY_FORMAT, Match, Round

blp = ApiBlueprint(
    "api_matches",
    __name__,
    url_prefix=core.PREFIX,
    description="A match: scoreboard, version, export, and its rounds.",
)
MATCH = "/m/<int(max=2147483647):match_id>"
ROUND = MATCH + "/rounds/<int(max=100000):number>"


def scoreboard_of(match: Match) -> dict[str, Any]:
    seen = reads.outlook(match, Detail.SHEET)
    live = match.live_round
    return scoreboard_body(
        match.id,
        match.rules,
        match.options,
        match.first_dealer,
        match.version,
        match.seating_changes,
        scoresheet.build(match, seen.state),
        {"number": live.number, "turns": len(live.entry.get("turns", []))} if live else None,
        seen.error,
    )


def scoreboard_body(
    match_id: int,
    rules: str,
    options: Any,
    first_dealer: str,
    version: int,
    seating_changes: Any,
    sheet: scoresheet.Sheet,
    live: dict[str, int] | None = None,
    error: Any = None,
) -> dict[str, Any]:
    """The API's score sheet of a match (the objects' or, for a plain save, its rows')."""
    rows = []
    for row in sheet.rows:
        rows.append(
            {
                "number": row.number,
                "dealer": row.dealer,
                "outcome": row.outcome_key,
                "label": row.outcome,
                "winners": row.winners,
                "scores": row.scores,
                "running": row.running,
                "voided": bool(row.stored and row.stored.voided),
                "version": row.stored.version if row.stored else None,
                "unchecked": unchecked_texts(row.result),
                "rejoined": row.rejoined,
            }
        )
    return {
        "id": match_id,
        "rules": rules,
        "options": dict(options or {}),
        "players": sheet.players,
        "first_dealer": first_dealer,
        "version": version,
        "etag": reads.etag(match_id, version),
        "target": sheet.target,
        "hands": sheet.hands,
        "rounds": rows,
        "totals": sheet.totals,
        "bonuses": sheet.bonuses,
        "finished": sheet.finished,
        "winners": sheet.winners,
        "next_dealer": sheet.next_dealer,
        "leaders": sheet.leaders,
        "standings": [
            {
                "place": standing.place,
                "player": standing.player,
                "total": standing.total,
                "winner": standing.winner,
                "out_after": standing.out_after,
                "left_before": standing.left_before,
                "members": list(standing.members),
            }
            for standing in sheet.standings
        ],
        "seated": sheet.seated,
        "columns": sheet.columns.to_json()["columns"] if sheet.columns is not None else None,
        "tracked": sheet.tracker or None,
        "next_facts": sheet.next_facts,
        "seating_changes": [dict(change) for change in seating_changes or ()],
        "live": live,
        "error": error_body(error) if error is not None else None,
    }


def unchecked_texts(result: Any) -> list[str]:
    """What the referee could not check in a round (hands given as points), in words."""
    return [i18n.reason_text(reason) for reason in getattr(result, "unchecked", ())]


def error_body(error: Any) -> dict[str, Any]:
    return {
        "code": "refused",
        "status": 422,
        "message": i18n.error_text(error, where=False),
        "reason": error.reason.key,
        "round": error.round,
        "turn": error.turn,
    }


def with_etag(body: Any, match: Match, status: int = 200, **headers: str) -> Any:
    return body, status, {"ETag": f'"{core.etag_of(match)}"', **headers}


def match_of(mode: str | None, key: str | None, match_id: int, *, edit: bool = False) -> Any:
    access = core.table_access(mode, key, edit=edit)
    try:
        return access, open_match(access, match_id)
    except Exception as error:  # abort(404)
        if getattr(error, "code", None) == 404:
            raise core.not_found() from None
        raise


def match_path(access: Access, match: Match) -> str:
    return f"{core.key_path(access)}/m/{match.id}"


@blp.table_route(MATCH)
@blp.response(200, schemas.Scoreboard)
@blp.errors(404)
def scoreboard(mode: str | None, key: str | None, match_id: int) -> Any:
    """The score sheet: every round with its scores and running totals, the totals, who
    deals next, the match end and its winners.  ``etag`` (also the ETag header) is what
    a write names in If-Match."""
    if mode is not None and key is not None:
        edit_key, view_key = (key, None) if mode == EDIT else (None, key)
    else:
        edit_key = view_key = core.bearer_key()
    found = reads.match_row(match_id, edit_key, view_key)
    if found is None or found[2] is not None:  # not the table's, or deleted: as any read says
        _access, match = match_of(mode, key, match_id)
    version, created_at, generation = int(found[0]), found[1], found[3]
    made = (match_id, version, str(created_at), generation, str(get_locale()))
    body = SCOREBOARDS.get(made)
    if body is None:
        _access, match = match_of(mode, key, match_id)
        body = (
            current_app.json.dumps(schemas.Scoreboard().dump(scoreboard_of(match))).encode() + b"\n"
        )
        if match.version == version:  # not changed since the version was read
            SCOREBOARDS.put(made, body)
        version = match.version
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(reads.etag(match_id, version))
    return response


# The scoreboards last read, by the match's version (every read checks it first).
SCOREBOARDS = reads.ByVersion()


@blp.table_route(MATCH + "/version")
@blp.response(200, schemas.Version)
@blp.alt_response(304, description="Not modified: the match is as the If-None-Match names it")
@blp.errors(404)
def version(mode: str | None, key: str | None, match_id: int) -> Any:
    """Has the match changed? Its version as an ETag: 304 while If-None-Match still names it.

    It reads one small row and writes nothing: ask it as often as once a second."""
    key = key if mode is not None and key is not None else core.bearer_key()
    check_key(key)  # an address stopped for guessing keys is refused, as everywhere
    if mode is not None:
        found = reads.match_version(
            match_id, key if mode == EDIT else None, key if mode != EDIT else None
        )
    else:
        found = reads.match_version(match_id, key, key)
    if found is None:
        core.table_access(mode, key)  # a key that opens no table (replaced, say) answers as such
        raise core.not_found()
    response = jsonify(version=found)
    response.set_etag(reads.etag(match_id, found))
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@blp.table_route(MATCH + "/export")
@blp.response(200, schemas.Document)
@blp.errors(404, 422)
@engine_call
def export(mode: str | None, key: str | None, match_id: int) -> Any:
    """The match file (``referee-match/1``), as the pages' export downloads it."""
    _access, match = match_of(mode, key, match_id)
    body = json.dumps(reads.document(match), ensure_ascii=False, indent=2) + "\n"
    return Response(
        body,
        mimetype="application/json",
        headers={"ETag": f'"{core.etag_of(match)}"'},
    )


def stored_round(match: Match, number: int) -> Round:
    found = next((r for r in match.rounds if r.number == number), None)
    if found is None:
        raise core.not_found()
    return found


def round_of(match: Match, stored: Round) -> dict[str, Any]:
    seen = reads.outlook(match, Detail.SHEET)  # what the sheet shows of the round
    result = None
    if seen.state is not None and stored.complete and stored.number <= len(seen.state.rounds):
        played = seen.state.rounds[stored.number - 1]
        result = {
            "dealer": str(played.dealer),
            "outcome": labels.outcome_key(played),
            "label": labels.outcome_label(played, seen.state.rules),
            "winners": list(played.winners),
            "scores": {name: int(score) for name, score in dict(played.scores).items()},
            "unchecked": unchecked_texts(played),
        }
    return {
        "number": stored.number,
        "complete": stored.complete,
        "voided": stored.voided,
        "version": stored.version,
        "entry": stored.entry,
        "result": result,
        "match_version": match.version,
        "etag": core.etag_of(match),
    }


@blp.table_route(ROUND)
@blp.response(200, schemas.StoredRound)
@blp.errors(404)
def get_round(mode: str | None, key: str | None, match_id: int, number: int) -> Any:
    """One round: as entered (its round object) and as the referee scored it."""
    _access, match = match_of(mode, key, match_id)
    return with_etag(round_of(match, stored_round(match, number)), match)


@dataclass(frozen=True)
class MatchWrite:
    """A write to a match through the API, once its prologue is done: the table reached
    (locked, unless the write reads first), the match, the Idempotency-Key's receipt token,
    the versions of the match it names (If-Match), for the door to compare."""

    mode: str | None
    key: str | None
    access: Access
    match: Match
    token: str | None
    seen: door.Seen

    @property
    def path(self) -> str:
        return match_path(self.access, self.match)

    def receipt(self, status: int, path: str = "", location: str = "") -> str:
        return core.receipt_location(status, path or self.path, location)


def write_start(
    mode: str | None,
    key: str | None,
    match_id: int,
    *,
    read_first: bool = False,
) -> tuple[MatchWrite, Any]:
    """The first steps of every write: the table locked, a repeat answered, a version named
    (the door compares it).

    ``read_first``: the table is not locked yet; the write checks what it is given, then
    waits for its turn (the door's, :func:`door.save` with ``read_first``)."""
    if read_first:
        door.read_first()
    access, match = match_of(mode, key, match_id, edit=True)
    door.answer_from_memory()
    token = core.idempotency_token(access.table)
    done = core.replayed(token)
    seen = core.seen_version(match) if done is None else door.Seen()
    return MatchWrite(mode, key, access, match, token, seen), done


def match_write(*, read_first: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An API write to a match: the endpoint is given its :class:`MatchWrite` (``write``)
    in place of the path's key and match id, once the prologue (:func:`write_start`) has
    passed; a repeat of an Idempotency-Key is answered with the first request's answer."""

    def decorate(endpoint: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(endpoint)
        def wrapper(*args: Any, mode: str | None, key: str | None, match_id: int, **kw: Any) -> Any:
            write, done = write_start(mode, key, match_id, read_first=read_first)
            if done is not None:
                return done
            return endpoint(*args, write=write, **kw)

        return wrapper

    return decorate


class NextRound:
    """The match a new round is sent to, opened as objects with the write's prologue
    (:func:`write_start`) only when it is needed: at once when the request cannot take the
    rows' way (its Idempotency-Key's receipt is the table's), else by the door when the rows'
    way declines."""

    def __init__(self, mode: str | None, key: str | None, match_id: int) -> None:
        self.mode, self.key, self.match_id = mode, key, match_id
        self.write: MatchWrite | None = None
        self.number = 0
        self.location = ""

    def open(self) -> Any:
        """The prologue passed and the match opened; a repeat's answer (or None)."""
        write, done = write_start(self.mode, self.key, self.match_id, read_first=True)
        self.write = write
        if done is not None:
            return done
        match = write.match
        if match.live_round is not None:
            raise core.conflict(
                match, gettext("A round is being played live: finish it or discard it first.")
            )
        self.number = match.next_round_number
        self.location = f"{write.path}/rounds/{self.number}"
        return None

    def __call__(self) -> Match:
        if self.write is None:
            self.open()  # no Idempotency-Key (the rows' way was offered): nothing to repeat
        assert self.write is not None
        return self.write.match

    @property
    def token(self) -> str | None:
        return self.write.token if self.write is not None else None

    @property
    def receipt(self) -> str:
        return self.write.receipt(201, "", self.location) if self.write is not None else ""


def on_rows(mode: str | None, key: str | None, match_id: int, asked: dict[str, Any]) -> Any:
    """The rows' way of the next round (:func:`appending.sent_on_rows`), when the request
    may take it: an edit key, the version named, no Idempotency-Key (its receipt is kept
    the objects' way); None otherwise."""
    if request.headers.get("Idempotency-Key") or mode not in (EDIT, None):
        return None
    edit_key = key if mode == EDIT else core.bearer_key()
    named = request.if_match
    if not edit_key or not KEY_FORMAT.fullmatch(edit_key) or not named or named.star_tag:
        return None
    path = f"{core.table_path(mode, key)}/m/{match_id}"
    return functools.partial(appending.sent_on_rows, edit_key, match_id, asked, named, path)


def saved_on_rows(answer: door.Saved) -> Any:
    """The answer of a round the door saved on rows, made from the rows as the schema's dump
    would leave it (a test holds them equal)."""
    stored = answer.result
    log = stored.log
    body = scoreboard_body(
        stored.match_id,
        log.rules,
        log.options,
        log.first_dealer,
        stored.version,
        log.seating_changes,
        appending.sheet(stored, answer.verdict.state),
    )
    response = current_app.response_class(
        current_app.json.dumps(body) + "\n", status=201, mimetype="application/json"
    )
    response.headers.update({"ETag": f'"{body["etag"]}"', "Location": answer.location})
    return response


def answer_of(write: MatchWrite, answer: door.Answer) -> None:
    """A write that was not carried out: a repeat answered, a conflict or the engine's
    refusal raised (nothing saved)."""
    if isinstance(answer, door.Conflict):
        _access, current = match_of(write.mode, write.key, write.match.id, edit=True)
        raise core.conflict(current, answer.words[0] if answer.words else None)
    if isinstance(answer, door.Refused):
        raise refused_by(answer)


def refused_by(answer: door.Refused) -> RefereeError:
    """The engine's refusal a write met (the API answers it 422 with its reason)."""
    assert isinstance(answer.reason, RefereeError)
    return answer.reason


@blp.table_route(MATCH + "/rounds", methods=["POST"])
@blp.arguments(schemas.RoundEntry, example=schemas.ROUND_EXAMPLE)
@blp.response(201, schemas.Scoreboard)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
def add_round(asked: dict[str, Any], mode: str | None, key: str | None, match_id: int) -> Any:
    """Save the next round from its final table (a ``referee-match/1`` round object).

    The engine replays the whole match with it: a round that cannot have happened,
    or a match already over, is refused (422) with the reason."""
    door.read_first()
    rows = on_rows(mode, key, match_id, asked)
    going = NextRound(mode, key, match_id)
    if rows is None:
        done = going.open()
        if done is not None:
            return done
    saving = SaveRound(
        going.number,
        seen=core.versions_seen(match_id),
        once=going.token,
        location=going.receipt,
        sent=asked,
        rows=rows,
    )
    answer = door.save(saving, going, read_first=True)
    if isinstance(answer, door.Saved) and isinstance(answer.result, appending.StoredMatch):
        return saved_on_rows(answer)
    if isinstance(answer, door.Refused):  # the engine's reason, on either way
        raise refused_by(answer)
    assert going.write is not None  # the objects' way opened the match
    # The same key sent twice at once: the second finds the first's receipt in the door.
    if isinstance(answer, door.Conflict) or isinstance(answer, door.Saved) and answer.repeated:
        done = core.replayed(going.token)
        if done is not None:
            return done
    answer_of(going.write, answer)
    match = going.write.match
    return with_etag(scoreboard_of(match), match, 201, Location=going.location)


@blp.table_route(ROUND, methods=["PUT"])
@blp.arguments(schemas.CorrectionQuery, location="query")
@blp.arguments(schemas.RoundEntry, example=schemas.ROUND_EXAMPLE)
@blp.response(200, schemas.Scoreboard)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def correct_round(
    options: dict[str, Any], asked: dict[str, Any], write: MatchWrite, number: int
) -> Any:
    """Correct a saved round: everything after it is recomputed.

    When the corrected round ends the match, the rounds after it are in the way:
    409 naming them (``later``), unless ``remove_later=true`` says to remove them."""
    match = write.match
    stored = stored_round(match, number)
    if not stored.complete:
        raise core.not_found()
    saving = SaveRound(
        number,
        seen=write.seen,
        once=write.token,
        location=write.receipt(200),
        sent=asked,
        new=False,
        remove_after=True,
        cut=None if options["remove_later"] else False,  # held when it would remove rounds
    )
    answer = door.save(saving, match)
    if isinstance(answer, door.Held):
        error = core.conflict(
            match,
            gettext(
                "Round %(number)s now ends the match: the rounds after it would be removed.",
                number=number,
            ),
        )
        error.details["later"] = list(answer.verdict.later)
        raise error
    answer_of(write, answer)
    path = f"{write.path}/rounds/{number}"
    return with_etag(scoreboard_of(match), match, 200, **{"Content-Location": path})


@blp.table_route(ROUND + "/void", methods=["POST"])
@blp.response(200, schemas.Scoreboard)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def void_round(write: MatchWrite, number: int) -> Any:
    """Make a saved round void (a misdeal, an argument); it can be restored."""
    match = write.match
    stored = stored_round(match, number)
    if not stored.complete:
        raise core.not_found()
    if not stored.voided:
        answer_of(
            write,
            door.save(
                VoidRound(number, write.seen, once=write.token, location=write.receipt(200)), match
            ),
        )
    return with_etag(scoreboard_of(match), match)


@blp.table_route(ROUND + "/restore", methods=["POST"])
@blp.response(200, schemas.Scoreboard)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def restore_round(write: MatchWrite, number: int) -> Any:
    """Undo a void: the round as it was entered counts again (if the match still replays)."""
    match = write.match
    stored = stored_round(match, number)
    if stored.voided and stored.previous_entry:
        answer_of(
            write,
            door.save(
                RestoreRound(number, write.seen, once=write.token, location=write.receipt(200)),
                match,
            ),
        )
    return with_etag(scoreboard_of(match), match)


@blp.table_route(ROUND, methods=["DELETE"])
@blp.response(200, schemas.Scoreboard)
@blp.errors(404, 409, 428, writes=True)
@match_write()
def remove_round(write: MatchWrite, number: int) -> Any:
    """Remove the last saved round (undo). Only the last: another is a 409."""
    match = write.match
    stored = stored_round(match, number)
    if not changes.is_last_round(match, stored):
        raise core.conflict(
            match,
            gettext(
                "Round %(number)s is not the last: only the last round can be removed.",
                number=number,
            ),
        )
    removing = RemoveLastRound(
        number, write.seen, once=write.token, location=write.receipt(200), round_id=stored.id
    )
    answer_of(write, door.save(removing, match))
    return with_etag(scoreboard_of(match), match)


@blp.table_route(MATCH + "/seating", methods=["PUT"])
@blp.arguments(schemas.Seating, example={"players": ["Budi", "Dewi", "Siti"]})
@blp.response(200, schemas.Scoreboard)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def reseat(asked: dict[str, Any], write: MatchWrite) -> Any:
    """A late player joins, a player leaves: who sits at the table from the next round on.

    Between rounds only (409 before the first round or while a round is played live).
    The referee refuses (422) a count of players the game does not take, any change in
    gin, and a new order of the players who stay; a newcomer starts with the lowest
    total, and the dealer rule is applied to the new seating."""
    match = write.match
    known = {name_key(player.name): player.name for player in match.table.players}
    seated = []
    for typed in asked["players"]:
        name = clean_name(typed)
        if not name or len(name) > NAME_MAX:
            raise core.ApiError(
                400,
                "malformed",
                gettext("Player names must be 1 to %(max)s letters long.", max=NAME_MAX),
            )
        seated.append(known.get(name_key(name), name))
    answer = door.save(
        Reseat(tuple(seated), seen=write.seen, once=write.token, location=write.receipt(200)), match
    )
    if isinstance(answer, door.Refused) and isinstance(answer.reason, str):
        raise core.conflict(match, answer.reason)  # between rounds only: 409
    answer_of(write, answer)
    return with_etag(scoreboard_of(match), match)
