"""The same deal typed on two phones: the round a quick-round form was opened for, saved
from another phone meanwhile.

A new round's form names the round it was opened for.  When that round exists by the
time the form is saved, the deal may be the one the other phone saved (two phones
entering the same deal) or a different one (the next deal was played meanwhile).  Only
the player can tell, so nothing is saved until they choose, on the page that shows the
other phone's round beside what they typed:

- **keep theirs**: this phone's entry is dropped, nothing is saved;
- **keep mine**: the other phone's round is replaced by this phone's entry, as a
  correction of that round (the audit trail keeps the round as it was);
- **save mine as the next round**: a different deal.

Saving as the next round is never done without that choice.  The choice names the
match's version it was offered at: when the match changed again meanwhile, the choice
is offered again on the state as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.web.store import matchlog, work
from referee.web.store.models import Match, Round

KEEP_THEIRS = "keep_theirs"
KEEP_MINE = "keep_mine"
SAVE_AS_NEXT = "save_as_next"
CHOICES = (KEEP_THEIRS, KEEP_MINE, SAVE_AS_NEXT)


@dataclass(frozen=True)
class SameDeal:
    """The round a form was opened for, saved from another phone meanwhile."""

    number: int  # the round the form was opened for
    theirs: Round  # as the other phone saved it
    next_number: int  # the number a different deal takes
    version: int  # the match's version this choice is offered at
    choice: str | None  # what the player chose on this very offer (None: not yet)

    @property
    def keeps_mine(self) -> bool:
        return self.choice == KEEP_MINE

    @property
    def decided(self) -> bool:
        return self.choice is not None


def find(
    match: Match, opened_for: int | None, asked: str | None = None, seen: int | None = None
) -> SameDeal | None:
    """The round a new-round form opened for round ``opened_for`` finds saved meanwhile (None
    when it is still the next round, or when the seating changed since: then it cannot be the
    same deal as typed).  ``asked`` is the player's choice, made at the match's version
    ``seen``; it counts only if the match is still at that version."""
    next_number = match.next_round_number
    if opened_for is None or not 1 <= opened_for < next_number:
        return None
    theirs = next((r for r in match.complete_rounds if r.number == opened_for), None)
    if theirs is None or match.seating_at(opened_for) != match.seating_at(next_number):
        return None
    choice = asked if asked in CHOICES and not work.changed_since(match, seen) else None
    return SameDeal(opened_for, theirs, next_number, match.version, choice)


def result_of(match: Match, same: SameDeal) -> Any:
    """How the referee counted the other phone's round (None if the match does not replay)."""
    seen = matchlog.outlook(match)
    if seen.state is None or len(seen.state.rounds) < same.number:
        return None
    return seen.state.rounds[same.number - 1]


def dealer_of_next_round(match: Match, rejoining: Sequence[str] = ()) -> str | None:
    """Who deals the round a quick-round form enters now, with ``rejoining`` back in the pool
    before it (None once the match is over): the engine's answer."""
    seen = matchlog.playable(match)  # the kept state says who deals: no replay
    return seen.state.dealer_after_rejoin(rejoining) if seen.state is not None else None


def drop_mine(once: str | None, location: str) -> None:
    """Keep theirs: nothing is saved but the form's receipt, so that the phone forgets the
    draft it kept of this form, and the same tap sent again does nothing."""
    work.commit(once=once, location=location)
