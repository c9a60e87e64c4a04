"""The same match imported twice: a match's fingerprint, and the match of a table it repeats.

A match's fingerprint is a hash of what makes it the same match: its ruleset,
options, players, first dealer, seating changes and rounds, as the engine reads
their meaning (:func:`referee.matchfile.meaning`: a hand's cards in any order, a
default written out or left out; the times the export adds are not part of it).  An imported
match keeps the fingerprint of the document it came from (``Match.fingerprint``,
unique within a table), so that two imports of the same document, even at the
same moment, make one match; a copy the player asked for is stored without one.
A match set up in the app has none: an import is compared with those of the
table's matches that could be the same (same ruleset and number of rounds), and so is a
match whose fingerprint was made before the meaning of a match was what it is now.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import select, update

from referee.errors import RefereeError
from referee.matchfile import dump_match, meaning, read_match
from referee.web.store import matchlog
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match, MatchSummary

MATCHES = cast(sa.Table, Match.__table__)


def fingerprint(document: Mapping[str, Any]) -> str:
    """The hash of what a match document means (a canonical document, the engine's
    writing; its meaning is the engine's too: :func:`referee.matchfile.meaning`)."""
    text = json.dumps(meaning(document), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def existing_match(table: CardTable, document: Mapping[str, Any], printed: str) -> Match | None:
    """The match of ``table`` (not deleted) that ``document`` (canonical) repeats, if any."""
    found = db.session.scalar(
        select(Match).where(
            Match.table_id == table.id,
            Match.fingerprint == printed,
            Match.deleted_at.is_(None),
        )
    )
    if found is not None:
        return found
    if not document.get("rounds"):  # a match set up and not played yet repeats nothing
        return None
    candidates = db.session.scalars(
        select(Match)
        .join(MatchSummary, MatchSummary.match_id == Match.id)
        .where(
            Match.table_id == table.id,
            # A match imported with the fingerprint of an earlier version of its meaning is
            # compared too: stored fingerprints are not rewritten.
            Match.fingerprint.is_distinct_from(printed),
            Match.deleted_at.is_(None),
            Match.rules == document.get("rules"),
            MatchSummary.rounds == len(document.get("rounds") or ()),
        )
        .order_by(Match.id)
    )
    names = sorted(document.get("players") or ())
    for match in candidates:
        if sorted(match.player_names) != names:
            continue
        try:
            stored = dump_match(
                matchlog.call_engine(read_match, matchlog.document(match), as_played=True)
            )
        except RefereeError:
            continue
        if fingerprint(stored) == printed:
            return match
    return None


def release_deleted(table: CardTable, printed: str) -> None:
    """A deleted match of ``table`` gives up its fingerprint to the match imported again."""
    matches = MATCHES.c
    db.session.execute(
        update(MATCHES)
        .where(
            matches.table_id == table.id,
            matches.fingerprint == printed,
            matches.deleted_at.is_not(None),
        )
        .values(fingerprint=None)
    )


def imported(table: CardTable, printed: str | None) -> Match | None:
    """The table's match imported from the document of this fingerprint, if any."""
    if printed is None:
        return None
    found = select(Match).where(Match.table_id == table.id, Match.fingerprint == printed)
    return db.session.scalar(found)
