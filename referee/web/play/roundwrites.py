"""The writes of a match's complete rounds as values handed to the door
(:func:`referee.web.store.door.save`): each says what the phone saw, how the engine checks
it and how it is applied; the door does the rest (receipt, turn, versions, commit).

A page or an API operation builds one from what was posted and renders the door's answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from referee.web.play import changes
from referee.web.store import matchlog
from referee.web.store.door import (
    ROUND,
    Conflict,
    Refusal,
    Refused,
    Saved,
    Seen,
    Verdict,
    WithRows,
)
from referee.web.store.models import Match, Round


def round_numbered(match: Match, number: int) -> Round | None:
    return next((r for r in match.rounds if r.number == number), None)


@dataclass(frozen=True)
class RoundWrite:
    """What every write of a round carries: the round's number, what the phone saw, its
    one-time key, where it leads, and who made it (``t``: the table's page, ``v``...)."""

    number: int
    seen: Seen = field(default_factory=Seen)
    once: str | None = None
    location: str = ""
    via: str = "t"

    def named_round(self, match: Match) -> Round | None:
        return round_numbered(match, self.number)

    def conflict(self, match: Match, moved: frozenset[str]) -> Conflict:
        return Conflict(moved)

    def stored(self, match: Match) -> Round:
        found = self.named_round(match)
        if found is None:  # the door compared its version: it is there
            raise LookupError(self.number)
        return found


@dataclass(frozen=True)
class SaveRound(RoundWrite, WithRows):
    """The next round (``new``), or a correction of round ``number`` (with ``remove_after``:
    the rounds after it go, when the corrected round ends the match).

    ``entry``: the round as the form built it; or ``sent``: a round object as a program
    sent it, read by the engine against the match's header.  ``rows``: the fast strategy
    of a new round on rows (:mod:`referee.web.play.appending`), tried first by the door.

    A form's write also says what the player asked: ``unreadable``, what kept the form from
    being read into a round (its fields' errors, or the engine's refusal of what was typed),
    raised by the check; ``preview``, the round counted and shown, not saved; ``cut``, the
    button pressed about the rounds after a corrected round that ends the match (True:
    "save and remove them", False: "save"): saved only when it matches what the engine
    finds, else held for the player to see (None: a program's write, ``remove_after`` says)."""

    entry: dict[str, Any] = field(default_factory=dict)
    sent: dict[str, Any] | None = None
    remove_after: bool = False
    new: bool = True
    rows: Callable[[], Saved | Refused | None] | None = None
    unreadable: Exception | None = None
    preview: bool = False
    cut: bool | None = None

    def named_round(self, match: Match) -> Round | None:
        return None if self.new else round_numbered(match, self.number)

    def number_in(self, match: Match) -> int:
        return match.next_round_number if self.new else self.number

    @property
    def offers_rows(self) -> bool:
        return self.rows is not None

    def on_rows(self) -> Saved | Refused | None:
        return self.rows() if self.rows is not None else None

    def conflict(self, match: Match, moved: frozenset[str]) -> Conflict:
        if self.new or ROUND not in moved:
            return Conflict(moved)
        stored = self.named_round(match)
        return Conflict(
            moved,
            theirs=stored.entry if stored is not None else None,
            mine=self.entry,
            mergeable=stored is not None,
        )

    def held(self, verdict: Verdict) -> bool:
        return self.preview or (self.cut is not None and self.cut != bool(verdict.later))

    def check(self, match: Match) -> Verdict:
        if self.unreadable is not None:
            raise self.unreadable
        number = self.number_in(match)
        entry = self.entry
        if self.sent is not None:
            header = matchlog.stored_header(matchlog.header(match))
            entry = matchlog.canonical_round(self.sent, header, number)
        state, later = changes.verify_round(match, entry, number)
        return Verdict(state, tuple(later), entry)

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.save_round(
            match,
            None if self.new else self.stored(match),
            verdict.found if verdict.found is not None else self.entry,
            remove_after=(self.remove_after or bool(self.cut)) and bool(verdict.later),
            via=self.via,
        )
        return [match]


@dataclass(frozen=True)
class VoidRound(RoundWrite):
    """A saved round made void; the entry it replaces is kept to restore it."""

    def check(self, match: Match) -> Verdict:
        stored = self.stored(match)
        if not stored.complete:
            raise Refusal(
                gettext(
                    "Round %(number)s is being played live: it cannot be made void.",
                    number=self.number,
                )
            )
        return Verdict(changes.replay_with(match, stored, changes.VOID))

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.void_round(match, self.stored(match), via=self.via)
        return [match]


@dataclass(frozen=True)
class RestoreRound(RoundWrite):
    """A void undone: the entry it replaced counts again (if the match still replays)."""

    def check(self, match: Match) -> Verdict:
        stored = self.stored(match)
        if not stored.previous_entry:
            raise Refusal(
                gettext(
                    "Round %(number)s has nothing recorded before its void to restore.",
                    number=self.number,
                )
            )
        return Verdict(changes.replay_with(match, stored, stored.previous_entry))

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.restore_round(match, self.stored(match), via=self.via)
        return [match]


@dataclass(frozen=True)
class RemoveLastRound(RoundWrite, WithRows):
    """The last saved round deleted softly (restorable while it would be the last);
    ``preview``: only asked to confirm (held once what the phone saw is compared)."""

    round_id: int | None = None
    preview: bool = False

    def held(self, verdict: Verdict) -> bool:
        return self.preview

    def named_round(self, match: Match) -> Round | None:
        if self.round_id is None:
            return round_numbered(match, self.number)
        return next((r for r in match.rounds if r.id == self.round_id), None)

    def check(self, match: Match) -> Verdict:
        return Verdict()  # removing the last round leaves a match the engine already took

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.remove_last_round(match, self.stored(match), via=self.via)
        return [match]


@dataclass(frozen=True)
class UndeleteRound(RoundWrite):
    """The deleted round back, if the match replays with it."""

    round_id: int | None = None

    def named_round(self, match: Match) -> Round | None:
        return next((r for r in match.stored_rounds if r.id == self.round_id), None)

    def check(self, match: Match) -> Verdict:
        stored = self.stored(match)
        return Verdict(matchlog.verify(match, [*matchlog.entries(match), stored.entry]))

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.undelete_round(match, self.stored(match), via=self.via)
        return [match]


__all__ = [
    "RemoveLastRound",
    "RestoreRound",
    "RoundWrite",
    "SaveRound",
    "UndeleteRound",
    "VoidRound",
    "round_numbered",
]
