"""A stored match as its ``referee-match/1`` document, replayed by the engine.

Nothing derived is stored: the scoreboard, the history and the statistics
all come from :func:`outlook`, which replays the rounds as entered.  A change
(a new round, a correction, a void, an undo) is tried on the whole document
first (:func:`verify`); only if the engine accepts it is it saved.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from referee.errors import MatchFileError, RefereeError
from referee.messages import define_message
from referee.web.models import Match

FORMAT = "referee-match/1"
T = TypeVar("T")
log = logging.getLogger(__name__)

UNREADABLE = define_message("web.unreadable", "the referee could not read this match: {detail}")


def header(match: Match) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": match.rules,
        "options": dict(match.options or {}),
        "players": match.player_names,
        "first_dealer": match.first_dealer,
    }


def document(match: Match, rounds: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The match document: its header and its complete rounds (or ``rounds`` instead)."""
    entries = [r.entry for r in match.complete_rounds] if rounds is None else rounds
    return header(match) | {"rounds": [copy.deepcopy(entry) for entry in entries]}


def call_engine(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call the engine; anything it raises other than a RefereeError becomes one.

    The web layer shows a RefereeError as a message; an engine bug on odd input
    must not become a 500 page.
    """
    try:
        return function(*args, **kwargs)
    except RefereeError:
        raise
    except Exception as error:
        log.exception("the engine failed on %s", getattr(function, "__name__", function))
        raise MatchFileError(UNREADABLE, detail=type(error).__name__) from error


def replay(doc: dict[str, Any]) -> Any:
    """The engine's replay of a document; any failure comes out as a RefereeError."""
    from referee.match import replay as engine_replay

    return call_engine(engine_replay, doc)


def live(match: Match, turns: Sequence[dict[str, Any]]) -> Any:
    """The match's next round with ``turns`` applied (a RoundInProgress)."""
    from referee.match import live_round

    return call_engine(live_round, document(match), list(turns))


@dataclass(frozen=True)
class Outlook:
    """A match replayed: its state, or the error that stopped the replay."""

    state: Any | None
    error: RefereeError | None

    @property
    def finished(self) -> bool:
        return bool(self.state is not None and self.state.finished)

    @property
    def winners(self) -> list[str]:
        return list(self.state.winners) if self.state is not None else []


def outlook(match: Match) -> Outlook:
    try:
        return Outlook(replay(document(match)), None)
    except RefereeError as error:
        return Outlook(None, error)


def entries(match: Match) -> list[dict[str, Any]]:
    return [copy.deepcopy(r.entry) for r in match.complete_rounds]


def verify(match: Match, rounds: Sequence[dict[str, Any]]) -> Any:
    """Replay the match with ``rounds`` as its rounds; raise RefereeError if that breaks."""
    return replay(document(match, rounds))


def verify_header(doc: dict[str, Any]) -> Any:
    """Replay a document with no rounds (checks the ruleset, options and players)."""
    return replay(doc | {"rounds": []})
