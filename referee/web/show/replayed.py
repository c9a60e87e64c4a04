"""Figures counted from the engine's replays of matches: what the stored summaries do not
hold (Indian rummy's shows and drops).

Each match's figures are kept in memory by the match's version (every change of a match
raises it), so a page view replays only the matches that changed since the last view
(through :func:`matchlog.outlook`, the replay every page reads).  They are kept per app (two
apps, two databases, may hold different matches under one id) and per table, the least
recently viewed tables forgotten first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

import sqlalchemy as sa
from cachetools import LRUCache
from flask import current_app
from sqlalchemy.orm import selectinload

from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchPlayer

Counted = TypeVar("Counted")
# Tables whose matches' figures are kept.
TABLES_KEPT = 256

# (what is counted, table id): {match id: (version, figures)}
_Kept = dict[int, tuple[int, object]]


class _Tables:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tables: LRUCache[tuple[str, int], _Kept] = LRUCache(maxsize=TABLES_KEPT)

    def of(self, what: str, table_id: int) -> _Kept:
        with self.lock:
            kept = self.tables.get((what, table_id))
            if kept is None:
                kept = self.tables[(what, table_id)] = {}
            return kept


def figures_by_match(
    what: str,
    table_id: int,
    wanted: Iterable[tuple[int, int]],
    count: Callable[[Match], Counted],
) -> dict[int, Counted]:
    """``count(match)`` of each wanted (match id, version) of a table, by match id: kept
    from an earlier view while the match is at that version, else counted again.

    ``what`` names the figures (one name for each ``count``).
    """
    wanted = list(wanted)
    kept = current_app.extensions.setdefault("replayed_figures", _Tables()).of(what, table_id)
    stale = [match_id for match_id, version in wanted if kept.get(match_id, (None,))[0] != version]
    if stale:
        matches = db.session.scalars(
            sa.select(Match)
            .where(Match.id.in_(stale))
            .options(
                selectinload(Match.stored_rounds),
                selectinload(Match.seats).selectinload(MatchPlayer.player),
            )
        )
        for match in matches:
            kept[match.id] = (match.version, count(match))
    return {match_id: kept[match_id][1] for match_id, _version in wanted if match_id in kept}
