"""Gin rummy on the page: a knock adjudicated before the round is saved."""

from __future__ import annotations

from typing import Any

from referee.errors import RefereeError
from referee.gin import Adjudication, adjudicate_knock
from referee.web.matchlog import call_engine
from referee.web.models import Match


def adjudication(match: Match, entry: dict[str, Any]) -> Adjudication | None:
    """The engine's adjudication of a gin knock round object (None if it is not a knock)."""
    knocker = entry.get("knock")
    if not knocker:
        return None
    defender = next(name for name in match.player_names if name != knocker)
    hands = entry.get("hands") or {}
    if any(isinstance(hand, int) for hand in hands.values()):
        return None  # deadwoods the players counted: the replay scores them (no adjudication)
    melds = (entry.get("melds") or {}).get(knocker)
    try:
        return call_engine(
            adjudicate_knock,
            hands.get(knocker, []),
            hands.get(defender, []),
            melds,
            names=(knocker, defender),
        )
    except RefereeError:
        return None
