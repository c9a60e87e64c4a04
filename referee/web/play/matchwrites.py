"""The writes of a match's header and seats as values handed to the door
(:func:`referee.web.store.door.save`): who sits at the table from the next round on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.web.play import changes
from referee.web.store.door import Conflict, Seen, Verdict
from referee.web.store.models import Match, Round


@dataclass(frozen=True)
class Reseat:
    """From the next round on, ``seated`` sit at the table (clockwise): a late player joins,
    a player leaves.  Refused in words between rounds only, and by the engine."""

    seated: tuple[str, ...]
    seen: Seen = field(default_factory=Seen)
    once: str | None = None
    location: str = ""

    def named_round(self, match: Match) -> Round | None:
        return None

    def conflict(self, match: Match, moved: frozenset[str]) -> Conflict:
        return Conflict(moved)

    def check(self, match: Match) -> Verdict:
        kept, state = changes.seating_change(match, self.seated)
        return Verdict(state, found=kept)

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.apply_seating(match, verdict.found)
        return [match]
