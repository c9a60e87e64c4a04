"""Gin rummy on the page: a knock adjudicated before it is saved, and the hand analyser."""

from __future__ import annotations

from typing import Any

from referee.errors import RefereeError
from referee.web.models import Match


def adjudication(match: Match, entry: dict[str, Any]) -> Any | None:
    """The engine's adjudication of a gin knock round object (None if it is not a knock)."""
    from referee.gin import adjudicate_knock

    knocker = entry.get("knock")
    if not knocker:
        return None
    players = match.player_names
    defender = next(name for name in players if name != knocker)
    hands = entry.get("hands") or {}
    melds = (entry.get("melds") or {}).get(knocker)
    try:
        return adjudicate_knock(
            hands.get(knocker, []), hands.get(defender, []), melds, names=(knocker, defender)
        )
    except RefereeError:
        return None


def analyse(cards: str) -> Any:
    """The best arrangement of a 10- or 11-card hand; raises RefereeError for a bad hand."""
    from referee.gin import best_arrangement

    return best_arrangement(cards)
