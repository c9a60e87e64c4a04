"""The live round, turn by turn: read it, add a turn, take the last one back, discard the
round, end it with the hands left; and, in manipulation, arrange the table or hint a play."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from referee.errors import RefereeError
from referee.rulesets import TurnStyle
from referee.web.api import core, schemas, tools
from referee.web.api.base import ApiBlueprint, engine_call
from referee.web.api.matches import (
    MATCH,
    MatchWrite,
    answer_of,
    match_of,
    match_write,
    scoreboard_of,
    with_etag,
)
from referee.web.play import changes, staleturns
from referee.web.play.liveround import (
    CorrectTurns,
    DiscardLiveRound,
    EndLiveRound,
    RecordTurn,
    TakeBackTurn,
    next_player,
    table_melds,
    table_view,
)
from referee.web.show import i18n
from referee.web.store import door, reads
from referee.web.store.models import Match

blp = ApiBlueprint(
    "api_live",
    __name__,
    url_prefix=core.PREFIX,
    description="The round being played, turn by turn.",
)
LIVE = MATCH + "/live"


def live_state(match: Match) -> Any:
    """The round so far (the engine's RoundInProgress); 422 for a game without turns."""
    state = reads.live(match, changes.live_turns(match))
    if state.rules.turn_style is TurnStyle.NONE:
        raise core.ApiError(
            422, "refused", gettext("A round of this game is entered when it ends.")
        )
    return state


def live_of(match: Match, state: Any) -> dict[str, Any]:
    turns = changes.live_turns(match)
    return {
        "number": state.number,
        "dealer": state.dealer,
        "started": match.live_round is not None,
        "turns": turns,
        "table": table_view(state),
        "hand_sizes": {name: state.hand_size(name) for name in state.players},
        "out": state.out,
        "over": state.is_over,
        "next_player": None if state.is_over else next_player(state, turns),
        "match_version": match.version,
        "etag": core.etag_of(match),
    }


@blp.table_route(LIVE)
@blp.response(200, schemas.LiveRound)
@blp.errors(404, 422)
@engine_call
def live_round(mode: str | None, key: str | None, match_id: int) -> Any:
    """The round being played: its turns, the table (who laid each card), hand sizes."""
    _access, match = match_of(mode, key, match_id)
    return with_etag(live_of(match, live_state(match)), match)


@blp.table_route(LIVE + "/turns", methods=["POST"])
@blp.arguments(schemas.TurnQuery, location="query")
@blp.arguments(schemas.TurnEntry, example={"player": "Siti", "melds": [["7S", "8S", "9S"]]})
@blp.response(201, schemas.LiveRound)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def add_turn(seen: dict[str, Any], asked: dict[str, Any], write: MatchWrite) -> Any:
    """Record a turn (a ``referee-match/1`` turn object): the engine checks it on the round
    so far and refuses it (422) with the reason; the round starts with its first turn.

    Made from an older version (If-Match), the turn is checked on the round as it is now:
    saved when it still holds and it is still that player's turn (``after``: the turns the
    round had when it was typed), otherwise 409 with the reason."""
    match = write.match
    state = live_state(match)
    turns = changes.live_turns(match)
    turn = dict(asked)
    path = write.path + "/live"
    location = f"{path}/turns/{len(turns) + 1}"
    recording = RecordTurn(
        seen=write.seen,
        once=write.token,
        location=write.receipt(201, path, location),
        state=state,
        turns=tuple(turns),
        turn=turn,
        page=staleturns.Seen(seen["round"], seen["after"]),
        player=str(turn.get("player", "")),
    )
    answer = door.save(recording, match)
    if isinstance(answer, door.Conflict) and answer.refused is not None:
        assert isinstance(answer.refused.reason, RefereeError)
        reason = staleturns.refused(i18n.error_text(answer.refused.reason, where=False))
        raise core.conflict(match, reason)
    if isinstance(answer, door.Conflict):
        raise core.conflict(match, " ".join(answer.words) or None)
    if isinstance(answer, door.Refused) and state.is_over:
        raise core.conflict(match, gettext("%(name)s went out.", name=state.out))
    answer_of(write, answer)
    return with_etag(live_of(match, live_state(match)), match, 201, Location=location)


@blp.table_route(LIVE + "/turns/<int(max=100000):number>", methods=["DELETE"])
@blp.response(200, schemas.LiveRound)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def take_back_turn(write: MatchWrite, number: int) -> Any:
    """Take back the last turn (``number`` names it; another turn is a 409)."""
    match = write.match
    turns = changes.live_turns(match)
    if not 1 <= number <= len(turns):
        raise core.not_found()
    if number != len(turns):
        raise core.conflict(
            match,
            gettext(
                "Turn %(number)s is not the last: only the last turn can be taken back.",
                number=number,
            ),
        )
    taking = TakeBackTurn(
        write.seen, once=write.token, location=write.receipt(200, write.path + "/live")
    )
    answer_of(write, door.save(taking, match))
    return with_etag(live_of(match, live_state(match)), match)


@blp.table_route(LIVE + "/turns/<int(max=100000):number>", methods=["PUT"])
@blp.arguments(schemas.TurnEntry, example={"player": "Siti", "melds": [["6S", "7S", "8S", "9S"]]})
@blp.response(200, schemas.LiveRound)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def correct_turn(asked: dict[str, Any], write: MatchWrite, number: int) -> Any:
    """Correct any turn of the round being played (a ``referee-match/1`` turn object in its
    place): the engine checks it on the table before it, then every later turn.  A turn that
    no longer holds is refused (422, its number in ``turn``) and nothing is saved."""
    match = write.match
    stored = match.live_round
    turns = changes.live_turns(match)
    if stored is None or not 1 <= number <= len(turns):
        raise core.not_found()
    before = changes.state_before_turn(match, stored, turns, number)
    turn = changes.canonical_turn(before, dict(asked))
    corrected = [*turns[: number - 1], turn, *turns[number:]]
    correcting = CorrectTurns(
        seen=write.seen,
        once=write.token,
        location=write.receipt(200, write.path + "/live"),
        number=stored.number,
        turns=tuple(corrected),
    )
    answer_of(write, door.save(correcting, match))
    return with_etag(live_of(match, live_state(match)), match)


@blp.table_route(LIVE, methods=["DELETE"])
@blp.response(200, schemas.Scoreboard)
@blp.errors(404, 409, 428, writes=True)
@match_write()
def discard_live_round(write: MatchWrite) -> Any:
    """Discard the round being played, with all its turns."""
    match = write.match
    if match.live_round is None:
        raise core.not_found()
    answer_of(
        write,
        door.save(
            DiscardLiveRound(write.seen, once=write.token, location=write.receipt(200)), match
        ),
    )
    return with_etag(scoreboard_of(match), match)


@blp.table_route(LIVE + "/end", methods=["POST"])
@blp.arguments(schemas.RoundEnd, example={"hands": {"Budi": ["10H", "QS"], "Andi": ["4S"]}})
@blp.response(201, schemas.Scoreboard)
@blp.errors(404, 409, 422, 428, writes=True)
@engine_call
@match_write()
def end_round(asked: dict[str, Any], write: MatchWrite) -> Any:
    """End the round being played: how it ended (unless a turn emptied a hand) and the
    hands left. The engine checks the whole round on the match and saves it."""
    match = write.match
    live_state(match)
    turns = changes.live_turns(match)
    entry = {name: value for name, value in asked.items() if name != "turns"} | {"turns": turns}
    number = match.next_round_number
    location = f"{write.path}/rounds/{number}"
    ending = EndLiveRound(
        write.seen, once=write.token, location=write.receipt(201, "", location), entry=entry
    )
    answer_of(write, door.save(ending, match))
    return with_etag(scoreboard_of(match), match, 201, Location=location)


def manipulation_state(match: Match) -> Any:
    state = live_state(match)
    if state.rules.turn_style is not TurnStyle.TABLE:
        raise core.ApiError(
            422, "refused", gettext("Only manipulation lets a turn rearrange the table.")
        )
    return state


@blp.table_route(LIVE + "/arrange", methods=["POST"])
@blp.arguments(schemas.LiveArrange)
@blp.response(200, schemas.Arrangement)
@blp.errors(404, 422)
@engine_call
def arrange(asked: dict[str, Any], mode: str | None, key: str | None, match_id: int) -> Any:
    """manipulation: the table as it stands with these cards played, arranged (nothing saved)."""
    _access, match = match_of(mode, key, match_id)
    state = manipulation_state(match)
    return tools.arrangement(table_melds(state), asked["played"], len(state.players), state.rules)


@blp.table_route(LIVE + "/hint", methods=["POST"])
@blp.arguments(schemas.LiveHint)
@blp.response(200, schemas.Hint)
@blp.errors(404, 422)
@engine_call
def hint(asked: dict[str, Any], mode: str | None, key: str | None, match_id: int) -> Any:
    """manipulation: the most cards of this hand that can join the table now (nothing saved)."""
    _access, match = match_of(mode, key, match_id)
    state = manipulation_state(match)
    return tools.play_hint(asked["hand"], table_melds(state), len(state.players), state.rules)
