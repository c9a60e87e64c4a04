"""A player renamed in round objects of ``referee-match/1``: every place a round names a player.

A round names players as the keys of ``hands`` and of ``melds`` (final-table
``remi-indonesia`` and ``gin``), as the value of ``out``, ``knock`` and
``closer`` (final-table rounds), and as each turn's ``player``.  A turn's
``out: true`` is not a name and stays.  Nothing else in a round is a name.  Beside the rounds, the match's
``seating_changes`` name players in their ``players`` lists.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

NAMED_BY_KEY = ("hands", "melds")
NAMED_BY_VALUE = ("out", "knock", "closer")


def rename_in_round(entry: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of the round object ``entry`` with the player ``old`` called ``new``."""
    renamed = copy.deepcopy(dict(entry))
    for field in NAMED_BY_KEY:
        named = renamed.get(field)
        if isinstance(named, dict):
            renamed[field] = {
                (new if name == old else name): value for name, value in named.items()
            }
    for field in NAMED_BY_VALUE:
        if renamed.get(field) == old and isinstance(renamed.get(field), str):
            renamed[field] = new
    turns = renamed.get("turns")
    if isinstance(turns, list):
        for turn in turns:
            if isinstance(turn, dict) and turn.get("player") == old:
                turn["player"] = new
    return renamed


def rename_in_seating(changes: Sequence[Any], old: str, new: str) -> list[Any]:
    """A copy of ``seating_changes`` with the player ``old`` called ``new``."""
    renamed = copy.deepcopy(list(changes))
    for change in renamed:
        players = change.get("players") if isinstance(change, dict) else None
        if isinstance(players, list):
            change["players"] = [new if name == old else name for name in players]
    return renamed
