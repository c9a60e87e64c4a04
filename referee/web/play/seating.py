"""Who sits at a stored match's table: round 1's seats, and the players who joined later.

The header's ``players`` are the seats without ``joined_round``; a player who joined
between rounds has a seat of their own numbered after those (``joined_round`` the
round before which they first joined), and where everyone sits from a round on is
the match's ``seating_changes``, exactly the match file's.  This module fills the
seats of a match from a checked document (imports) and from a change of seating
(:class:`referee.web.play.matchwrites.Reseat`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.web.store.models import Match, MatchPlayer, Player


def newcomers(document: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The players who joined after round 1, each with the round before which they first
    joined, in the order they joined."""
    found: dict[str, int] = {}
    first = list(document.get("players") or [])
    for change in document.get("seating_changes") or ():
        for name in change["players"]:
            if name not in first and name not in found:
                found[name] = change["before_round"]
    return list(found.items())


def everyone(document: Mapping[str, Any]) -> list[str]:
    return list(document.get("players") or []) + [name for name, _ in newcomers(document)]


def seat_players(
    match: Match, document: Mapping[str, Any], player_for: Callable[[str], Player]
) -> None:
    """Give a new match the seats and seating changes of a checked (canonical) document."""
    first = list(document["players"])
    for seat, name in enumerate(first):
        match.seats.append(MatchPlayer(seat=seat, player=player_for(name)))
    for seat, (name, number) in enumerate(newcomers(document), start=len(first)):
        match.seats.append(MatchPlayer(seat=seat, player=player_for(name), joined_round=number))
    changes = document.get("seating_changes")
    match.seating_changes = [dict(change) for change in changes] if changes else None


def update_seats(
    match: Match, changes: Sequence[Mapping[str, Any]], player_for: Callable[[str], Player]
) -> None:
    """The seats of players who joined, after ``match.seating_changes`` became ``changes``:
    a seat for a newcomer, none for a newcomer no change names any longer (a join undone)."""
    joined = dict(newcomers({"players": match.player_names, "seating_changes": changes}))
    for seat in [s for s in match.seats if s.joined_round is not None]:
        if seat.player.name not in joined:
            match.seats.remove(seat)
        else:
            seat.joined_round = joined.pop(seat.player.name)
    next_seat = max((seat.seat for seat in match.seats), default=-1) + 1
    for offset, (name, number) in enumerate(joined.items()):
        match.seats.append(
            MatchPlayer(seat=next_seat + offset, player=player_for(name), joined_round=number)
        )
    match.seating_changes = [dict(change) for change in changes] or None
