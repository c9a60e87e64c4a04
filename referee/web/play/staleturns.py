"""A live turn sent from a page made before the round moved on, checked on the round as it is.

The live page promises that what is typed is checked against the latest state
when it is saved.  So a turn whose page named an older version of the match is
not refused for that alone: it is saved when it is still that player's turn and
the engine accepts it on the round as it stands now.  Otherwise nothing is saved
and the player reads why, in words (:func:`why_not`, then the engine's reason).

"Still that player's turn", from what the page showed (the round it was made for
and how many turns it had):

- the same round is still being played, and nobody went out;
- no turn the page showed was taken back (the player chose their turn after it);
- when turns were recorded meanwhile, none was this player's (it would most likely
  be this very turn, entered on two phones) and the player is the one who plays
  next now.

When only something else changed (a turn corrected, a name, an earlier round),
the turn keeps its place and only the engine's check decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from referee.round import RoundInProgress


@dataclass(frozen=True)
class Seen:
    """What the page a turn was typed on showed: the round's number, how many turns it had
    (None when the page did not say)."""

    round_number: int | None
    turns: int | None


def next_player(state: RoundInProgress, turns: list[dict[str, Any]]) -> str:
    """Who plays next: the leader, then the seat after the last turn entered."""
    last = turns[-1].get("player") if turns else None
    return state.header.seat_after(last) if last in state.players else state.leader


def why_not(
    state: RoundInProgress, turns: list[dict[str, Any]], seen: Seen, player: str
) -> list[str]:
    """Why a turn of ``player`` typed on a page that showed ``seen`` cannot be saved on the
    round as it is now (``state`` after ``turns``); empty when it still may (the engine's
    check of the turn itself comes after)."""
    if seen.round_number is not None and seen.round_number != state.number:
        return [
            gettext(
                "Round %(number)s was ended, saved or discarded on another phone meanwhile.",
                number=seen.round_number,
            )
        ]
    if state.is_over:
        return [gettext("%(name)s went out.", name=state.out)]
    if seen.turns is not None and seen.turns > len(turns):
        return [
            gettext(
                "The last turn was taken back on another phone meanwhile: the round has"
                " %(count)s turns now.",
                count=len(turns),
            )
        ]
    since = seen.turns if seen.turns is not None else max(len(turns) - 1, 0)
    recorded = list(enumerate(turns[since:], start=since + 1))
    mine = [(number, turn) for number, turn in recorded if turn.get("player") == player]
    if mine:
        number, _turn = mine[-1]
        return [
            gettext(
                "Turn %(number)s (%(name)s) was recorded on another phone meanwhile.",
                number=number,
                name=player,
            ),
            gettext("It is most likely this same turn, so yours was not saved a second time."),
        ]
    if recorded and player in state.players and next_player(state, turns) != player:
        return [
            *recorded_meanwhile(recorded),
            gettext(
                "It is %(next)s's turn now, not %(name)s's.",
                next=next_player(state, turns),
                name=player,
            ),
        ]
    return []


def recorded_meanwhile(recorded: list[tuple[int, dict[str, Any]]]) -> list[str]:
    return [
        gettext(
            "Turn %(number)s (%(name)s) was recorded on another phone meanwhile.",
            number=number,
            name=turn.get("player", "?"),
        )
        for number, turn in recorded
    ]


def refused(reason: str) -> str:
    """The engine's refusal of a turn checked on the round as it is now, in words."""
    return gettext(
        "Checked against the round as it is now, this turn no longer holds: %(reason)s",
        reason=reason,
    )


def saved_after(number: int) -> str:
    """The flash of a turn from a stale page that still held."""
    return gettext(
        "The round changed on another phone meanwhile; your turn still holds on it and was"
        " saved as turn %(number)s.",
        number=number,
    )
