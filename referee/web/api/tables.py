"""Card tables: create one, read it, add players, its matches (list and new), its statistics,
replace a key."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import url_for
from flask_babel import gettext

from referee.errors import RefereeError
from referee.match import Detail
from referee.rulesets import Ruleset, find_ruleset
from referee.web.api import core, schemas
from referee.web.api.base import ApiBlueprint, engine_call
from referee.web.api.matches import scoreboard_of
from referee.web.play import changes
from referee.web.play.access import EDIT, Access, matches_page
from referee.web.play.matchwrites import StartMatch
from referee.web.play.names import clean_name
from referee.web.play.tablewrites import AddPlayers, NewTable, ReplaceKey
from referee.web.show import history, i18n
from referee.web.store import door, reads
from referee.web.store.models import CardTable, Match

blp = ApiBlueprint(
    "api_tables",
    __name__,
    url_prefix=core.PREFIX,
    description="Card tables (the group that plays together), their players and matches.",
)


def table_of(access: Access) -> dict[str, Any]:
    table = access.table
    found: dict[str, Any] = {
        "name": table.name,
        "mode": access.mode,
        "view_key": table.view_key,
        "players": [player.name for player in table.players],
        "matches": core.key_path(access) + "/matches",
        "pages": {"view": url_for("tables.show", mode="v", key=table.view_key)},
    }
    if access.can_edit:
        found["edit_key"] = table.edit_key
        found["pages"]["edit"] = url_for("tables.show", mode=EDIT, key=table.edit_key)
    return found


@blp.route("/tables", methods=["POST"])
@blp.arguments(schemas.NewTable, example={"name": "Friday at Budi's", "players": ["Budi", "Siti"]})
@blp.response(201, schemas.Table)
@blp.errors(409, 422)
@blp.doc(parameters=[])
def create_table(asked: dict[str, Any]) -> Any:
    """Create a card table (with its first players): its edit and view keys come back.

    With an ``Idempotency-Key`` header (a secret of at least 16 characters), the same
    request again answers the table it made, edit key included; another request with that
    key is a 409 and shows no key.
    """
    key = core.idempotency_token_global()
    if done := core.replayed(key):
        return done
    names = [clean_name(name) for name in asked.get("players") or []]
    if names and (refusal := changes.name_refusal(names)):
        raise core.ApiError(422, "refused", refusal)
    name = clean_name(asked["name"])
    if not name:
        raise core.ApiError(422, "refused", gettext("Give the table a name."))

    def leads_to(table: CardTable) -> str:
        location = f"{core.PREFIX}/t/{table.edit_key}"
        return core.receipt_location(201, location, location)

    answer = door.save_table(NewTable(name, tuple(names), once=key, leads_to=leads_to))
    assert isinstance(answer, door.Saved)  # a new table is refused nothing the schema let in
    table = answer.result
    return core.created(table_of(Access(table, EDIT)), f"{core.PREFIX}/t/{table.edit_key}")


@blp.table_route("")
@blp.response(200, schemas.Table)
@blp.errors(404)
def table(mode: str | None, key: str | None) -> Any:
    """The table: its name, keys (the edit key only to the edit key), players."""
    return table_of(core.table_access(mode, key))


@blp.table_route("/players", methods=["POST"])
@blp.arguments(schemas.NewPlayers)
@blp.response(201, schemas.Table)
@blp.errors(404, 409, 422, writes=True)
def add_players(asked: dict[str, Any], mode: str | None, key: str | None) -> Any:
    """Add players to the table (needs the edit key). A name already there is refused (422)."""
    access = core.table_access(mode, key, edit=True)
    token = core.idempotency_token(access.table)
    if done := core.replayed(token):
        return done
    names = tuple(clean_name(name) for name in asked["names"])
    location = core.key_path(access)
    receipt = core.receipt_location(201, location, location)
    answer = door.save_table(AddPlayers(access.table, names, once=token, location=receipt))
    if isinstance(answer, door.Refused):
        raise core.ApiError(422, "refused", str(answer.reason))
    return core.created(table_of(access), location)


@blp.table_route("/keys", methods=["POST"])
@blp.arguments(schemas.ReplaceLink, example={"link": "edit"})
@blp.response(200, schemas.Table)
@blp.errors(404)
def replace_key(asked: dict[str, Any], mode: str | None, key: str | None) -> Any:
    """Replace the table's edit or view key (needs the edit key), when one reached the
    wrong hands: from now on the old key answers 404 everywhere, as a wrong key does.

    The answer gives the new keys, once: keep it.  There is no Idempotency-Key here:
    a retry with the old key is a 404 like any wrong key (a key chosen by the client
    must never be enough to be given the new keys).  The table's history keeps when,
    and from which kind of link, never a key."""
    access = core.table_access(mode, key, edit=True)
    door.save_table(ReplaceKey(access.table, asked["link"], access.mode))
    return table_of(access)


def aware(moment: datetime) -> datetime:
    """A stored time with its zone (SQLite gives it back without one: it is UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def summary_of(match: Match) -> dict[str, Any]:
    seen = reads.outlook(match, Detail.FACTS)
    live = match.live_round
    return {
        "id": match.id,
        "rules": match.rules,
        "players": match.everyone,
        "rounds": len(seen.state.rounds) if seen.state is not None else len(match.complete_rounds),
        "live": live is not None,
        "finished": seen.finished,
        "winners": seen.winners,
        "totals": dict(seen.state.totals) if seen.state is not None else {},
        "version": match.version,
        "created_at": aware(match.created_at),
        "error": i18n.error_text(seen.error) if seen.error is not None else None,
    }


@blp.table_route("/matches")
@blp.arguments(schemas.MatchListQuery, location="query")
@blp.response(200, schemas.MatchList)
@blp.errors(404)
def match_list(asked: dict[str, Any], mode: str | None, key: str | None) -> Any:
    """The table's matches, newest first, a page at a time (``next``: the next page's ``before``)."""
    access = core.table_access(mode, key)
    limit = asked["limit"]
    found = matches_page(access.table, asked.get("before"), limit)
    more = len(found) > limit
    found = found[:limit]
    return {
        "matches": [summary_of(match) for match in found],
        "next": found[-1].id if more and found else None,
    }


@blp.table_route("/stats")
@blp.response(200, schemas.Statistics)
@blp.errors(404)
def statistics(mode: str | None, key: str | None) -> Any:
    """The table's statistics per ruleset, from the summaries kept with every match.

    A round is counted unless it is void (blocked rounds and draws are rounds
    played); ``average`` is the points per round counted, ``best`` the most
    points in one round.
    """
    access = core.table_access(mode, key)
    figures = history.table_statistics(access.table.id)
    return {
        "groups": [
            {
                "rules": group.rules,
                "matches": group.matches,
                "finished": group.finished,
                "players": [
                    {
                        "name": player.name,
                        "matches": player.matches,
                        "won": player.won,
                        "rounds": player.rounds,
                        "rounds_won": player.rounds_won,
                        "points": player.points,
                        "best": player.best_round_shown,
                        "average": player.points / player.rounds if player.rounds else None,
                    }
                    for player in group.players
                ],
            }
            for group in figures.groups
        ],
        "unreadable": figures.broken,
    }


def checked_options(rules: Ruleset, asked: dict[str, Any]) -> dict[str, Any]:
    """The options asked for, as the ruleset declares them; a malformed request (400) with
    the engine's words when one is unknown, out of range, of the wrong type or not
    applicable."""
    try:
        return rules.check_options(asked["options"])
    except RefereeError as error:
        raise core.ApiError(
            400,
            "malformed",
            i18n.error_text(error, where=False),
            reason=error.reason.key,
            errors={"options": [i18n.error_text(error, where=False)]},
        ) from None


@blp.table_route("/matches", methods=["POST"])
@blp.arguments(
    schemas.NewMatch,
    example={
        "rules": "remi",
        "players": ["Budi", "Siti"],
        "first_dealer": "Budi",
        "options": {"target": 200},
    },
)
@blp.response(201, schemas.Scoreboard)
@blp.errors(404, 422, writes=True)
@engine_call
def start_match(asked: dict[str, Any], mode: str | None, key: str | None) -> Any:
    """Start a match of the table's players (needs the edit key); the engine checks the setup."""
    access = core.table_access(mode, key, edit=True)
    token = core.idempotency_token(access.table)
    if done := core.replayed(token):
        return done
    rules = find_ruleset(asked["rules"])
    setup = changes.Setup(
        asked["players"], asked["first_dealer"], checked_options(rules, asked), asked["teams"]
    )
    known = [player.name for player in access.table.players]
    try:
        header = changes.match_header(rules, setup, known)
    except changes.SetupRefused as refusal:
        raise core.ApiError(422, "refused", refusal.message, field=refusal.field) from None
    base = core.key_path(access)

    def leads_to(made: Match) -> str:
        return core.receipt_location(201, f"{base}/m/{made.id}", f"{base}/m/{made.id}")

    answer = door.save_table(StartMatch(access.table, header, token, leads_to=leads_to))
    assert isinstance(answer, door.Saved)  # the setup was checked above
    match = answer.result
    return core.created(scoreboard_of(match), f"{base}/m/{match.id}")
