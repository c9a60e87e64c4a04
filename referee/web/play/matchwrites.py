"""The writes of a match's header and seats as values handed to the door
(:func:`referee.web.store.door.save`): a new match, its setup again, who sits at the table
from the next round on, the end of a match with no fixed end, an imported match."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.web.play import changes
from referee.web.play.housework import MatchWrite
from referee.web.store import matchlog, writes
from referee.web.store.door import Applied, Refusal, Verdict
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match


@dataclass(frozen=True)
class Reseat(MatchWrite):
    """From the next round on, ``seated`` sit at the table (clockwise): a late player joins,
    a player leaves.  Refused in words between rounds only, and by the engine."""

    seated: tuple[str, ...]

    def check(self, match: Match) -> Verdict:
        kept, state = changes.seating_change(match, self.seated)
        return Verdict(state, found=kept)

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.apply_seating(match, verdict.found)
        return [match]


@dataclass(frozen=True)
class StartMatch:
    """A new match of the table from a checked header (a setup, a rematch); it leads where
    ``leads_to`` says from the match made."""

    table: CardTable
    header: dict[str, Any]
    once: str | None = None
    location: str = ""
    leads_to: Callable[[Match], str] | None = None

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        match = changes.start_match(self.table, self.header)
        location = self.leads_to(match) if self.leads_to is not None else None
        return Applied([match], result=match, location=location)


@dataclass(frozen=True)
class SetUpAgain(MatchWrite):
    """A match's setup made again (before its first round) from the header ``read`` gives:
    the posted setup read and checked once what the phone saw still holds (None: refused,
    its fields say why)."""

    read: Callable[[], dict[str, Any] | None]

    def check(self, match: Match) -> Verdict:
        header = self.read()
        if header is None:
            raise Refusal("")
        return Verdict(found=header)

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        writes.changed(match)
        changes.apply_setup(match, verdict.found)
        return [match]


@dataclass(frozen=True)
class StopMatch(MatchWrite):
    """A match with no fixed end (indian played for points, rummikub by default) ended by
    the players, if the match replays so: who wins is the engine's word (its standings,
    by the game's rules), not decided here."""

    def check(self, match: Match) -> Verdict:
        stopped = matchlog.document(match, matchlog.entries(match)) | {"stopped": True}
        return Verdict(matchlog.replay(stopped, as_played=True))

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        match.stopped = True
        writes.changed(match)
        return [match]


@dataclass(frozen=True)
class ImportMatch:
    """A match read from a document (already checked by the engine) stored at the table; the
    same document imported at the same moment elsewhere is refused by the database's
    unique fingerprint (a conflict: ``copies_refused``)."""

    table: CardTable
    build: Callable[[], Match]
    once: str | None = None
    location: str = ""
    leads_to: Callable[[Match], str] | None = None
    copies_refused: bool = True

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        match = self.build()
        db.session.add(match)
        db.session.flush()  # its id, and the database's word on a second copy
        location = self.leads_to(match) if self.leads_to is not None else None
        return Applied([match], result=match, location=location)
