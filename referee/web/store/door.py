"""The door every write goes through: a write is a value, the door carries it out.

A page or an API operation builds a write (a frozen value of :mod:`referee.web.play.writes`:
save a round, correct it, void it, remove the last...) from what was posted, hands it to
:func:`save` and renders the answer.  The door does the rest, in this order:

1. **The receipt**: a one-time key that already carried out this write answers
   :class:`Saved` again (``repeated``), and nothing is done twice.
2. **The table's turn** (:func:`work.take_turn` for a write that read first; otherwise the
   request holds it since its first statement).
3. **What the phone saw** (:class:`Seen`) compared with the match: the only caller of the
   staleness check (:func:`changed`).  Anything moved is a :class:`Conflict` saying what,
   unless the write says it does not matter to it (a live turn still that player's turn):
   then the engine's check is made on the match as it is now, a refusal there a conflict.
4. **The engine's check** (``write.check``): its verdict, or its reason as :class:`Refused`;
   a write that waits for the player's word on that verdict (a preview, rounds it would
   remove) answers :class:`Held`.
5. **The change applied** (``write.apply``), the summaries recounted, the receipt kept for
   every write, and the commit (:func:`work.commit`).

A write may also offer the fast strategy on rows (``write.on_rows``, the plain save of the
next round): the door chooses it first, before the receipt (the rows' way keeps the
receipt with the round, so a key already used makes it decline); its answer, saved or
refused, is the door's; when it declines, the door takes the objects' way from step 1,
opening the match only then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from referee.errors import RefereeError
from referee.web.store import work, writes
from referee.web.store.extensions import db
from referee.web.store.models import Match, Round

__all__ = [
    "ANY",
    "KeyUsed",
    "Applied",
    "TableWrite",
    "abandon",
    "answer_from_memory",
    "read_first",
    "save_table",
    "carried_out",
    "new_token",
    "round_with_id",
    "write_now",
    "MATCH",
    "ROUND",
    "TURNS",
    "Answer",
    "CHOICE",
    "Conflict",
    "Held",
    "Refusal",
    "Refused",
    "Saved",
    "Seen",
    "Verdict",
    "Write",
    "changed",
    "check",
    "landed_once",
    "moved",
    "repeated",
    "save",
]

ANY, MATCH, ROUND, TURNS = work.ANY, work.MATCH, work.ROUND, work.TURNS
CHOICE = "choice"  # a choice the phone was offered and has not made: the write waits for it


@dataclass(frozen=True)
class Seen:
    """What the phone saw when it made the write, as it sent it (a form's field, a header's
    number): the match's version (or several, an If-Match naming more than one: any of them
    holding is enough), the version of the round the write names, the number of turns.
    :data:`ANY` names nothing."""

    match_version: Any = ANY
    round_version: Any = ANY
    turns: Any = ANY
    match_versions: tuple[Any, ...] | None = None
    unchosen: tuple[str, ...] = ()  # the choices offered and not made (:data:`CHOICE`)
    version: Any = ANY  # the version of what a table's write names (a set of house rules)

    def changes(self, match: Match, stored: Round | None, turns_now: int | None) -> frozenset[str]:
        found = set(
            work.stale(
                match,
                match_version=self.match_version,
                stored=stored,
                round_version=self.round_version,
                turns=self.turns,
                turns_now=turns_now,
            )
        )
        if self.match_versions is not None and all(
            work.stale(match, match_version=version) for version in self.match_versions
        ):
            found.add(MATCH)
        if self.unchosen:
            found.add(CHOICE)
        return frozenset(found)

    def changes_of(self, versioned: Any) -> frozenset[str]:
        """What no longer holds of a thing with a version of its own (a set of house rules):
        :data:`MATCH` when it moved on (or is gone), :data:`CHOICE` for choices not made."""
        found = set()
        if self.version is not ANY and work.changed_since(versioned, self.version):
            found.add(MATCH)
        if self.unchosen:
            found.add(CHOICE)
        return frozenset(found)


@dataclass(frozen=True)
class Verdict:
    """The engine's check of a write: the match replayed as it will be stored (when the
    write changes its complete rounds), and what else the write found on the way (the
    rounds after a corrected round that ends the match, a live round's state...)."""

    state: Any = None
    later: tuple[int, ...] = ()
    found: Any = None


@dataclass(frozen=True)
class Saved:
    """The write is carried out (or was, ``repeated``: its one-time key had carried it out)."""

    location: str
    verdict: Verdict = field(default_factory=Verdict)
    repeated: bool = False
    result: Any = None  # what the write made (a round stored, a new match...)
    moved_on: frozenset[str] = frozenset()  # what had moved since the phone saw it (it held)


@dataclass(frozen=True)
class Refused:
    """Nothing is saved: the engine (or the write itself) refused, with the reason and the
    field it belongs beside, when there is one."""

    reason: RefereeError | str
    field: str | None = None


@dataclass(frozen=True)
class Conflict:
    """Nothing is saved: the match moved on since the phone saw it.  ``changed``: what moved
    (:data:`MATCH`, :data:`ROUND`, :data:`TURNS`); ``words``: what the write says about it."""

    changed: frozenset[str]
    words: tuple[str, ...] = ()
    theirs: Any = None
    mine: Any = None
    mergeable: bool = False
    refused: Refused | None = None  # checked on the match as it is now, and refused there


@dataclass(frozen=True)
class Held:
    """Nothing is saved: the engine's verdict, for the player to see before the write is
    made (a preview asked, or the rounds a correction would remove, not agreed to yet)."""

    verdict: Verdict


Answer = Saved | Conflict | Refused | Held


class Refusal(ValueError):
    """A write refused before the engine is asked (a seat taken, a name too long), in words;
    ``field``: what it is about."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class Write(Protocol):
    """A write as a value: what it saw, its one-time key, where it leads, and how it is
    checked and applied."""

    @property
    def seen(self) -> Seen: ...

    @property
    def once(self) -> str | None: ...

    @property
    def location(self) -> str: ...

    def named_round(self, match: Match) -> Round | None:
        """The round whose version the write names (None: none)."""

    def conflict(self, match: Match, moved: frozenset[str]) -> Conflict | None:
        """What the write says when what it saw moved on; None: that does not matter to
        it, it is checked on the match as it is now (a live turn still that player's)."""

    def check(self, match: Match) -> Verdict:
        """The engine's check (raises RefereeError: nothing is done)."""

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        """The change made on the objects; the matches whose log, seats or header changed."""


class OnRows(Protocol):
    def on_rows(self) -> Saved | Refused | None:
        """The fast strategy: the write made on rows, the engine's refusal met on the way, or
        None (declined: nothing written, the objects' way answers)."""


def changed(write: Write, match: Match) -> frozenset[str]:
    """What the phone saw that no longer holds (empty: the write may go on)."""
    stored = write.named_round(match)
    turns_now = None
    if write.seen.turns is not ANY:
        live = match.live_round
        turns_now = len(live.entry.get("turns", [])) if live is not None else 0
    return write.seen.changes(match, stored, turns_now)


def moved(match: Match, seen: Seen) -> frozenset[str]:
    """What of the match itself (its version) the phone saw no longer holds."""
    return seen.changes(match, None, None)


def landed_once(write: Write, match: Match) -> bool:
    """Whether the round the write names changed exactly once since the phone saw it: the
    write was carried out by an earlier sending of the same request (a double tap)."""
    stored = write.named_round(match)
    return stored is not None and work.changed_once(stored, write.seen.round_version)


carried_out = writes.carried_out  # whether a phone's draft landed (its one-time key's receipt)
new_token = writes.new_token  # a form's one-time key
round_with_id = writes.round_with_id
KeyUsed = writes.KeyUsed  # a one-time key sent with another write than the one it carried out


def repeated(once: str | None) -> Saved | None:
    """The answer of a write its one-time key already carried out (None: not carried out)."""
    done = writes.receipt(once)
    return Saved(done, repeated=True) if done is not None else None


def check(write: Write, match: Match) -> Verdict | Refused:
    """The engine's check alone (a preview): its verdict or its reason."""
    try:
        return write.check(match)
    except RefereeError as error:
        return Refused(error)
    except Refusal as refusal:
        return Refused(refusal.message, refusal.field or None)


def save(
    write: Write,
    match: Match | Callable[[], Match],
    *,
    verdict: Verdict | None = None,
    read_first: bool = False,
) -> Answer:
    """Carry out ``write`` on ``match`` (or on the match ``match()`` opens, after the fast
    strategy declined).  ``verdict``: the engine's check this request already made of
    this very write (a form checked before its save button was pressed), not made again.
    ``read_first``: the match was read without the table's lock (the phones of a table
    check in parallel); the door takes the turn after the check, and a match that moved
    on meanwhile is a conflict (read again, without the lock, for the answer)."""
    if verdict is None and isinstance(write, _HasRows) and write.offers_rows:
        # The rows' way writes the receipt with the round: a key that carried out a write
        # already makes it decline, and the receipt is read once, below.
        fast = write.on_rows()
        if fast is not None:
            return fast
        # Declined: the reading is over (its transaction saw the rows before the turn).
        work.abandon()
    done = repeated(write.once)
    if done is not None:
        return done
    if callable(match):
        match = match()
    moved = changed(write, match)
    conflict = write.conflict(match, moved) if moved else None
    if conflict is not None:
        return conflict
    if verdict is None:
        checked = check(write, match)
        if isinstance(checked, Refused):  # nothing was changed
            return Conflict(moved, refused=checked) if moved else checked
        verdict = checked
    if isinstance(write, _HasRows) and write.held(verdict):
        return Held(verdict)
    if read_first and not work.take_turn(
        match.table_id, match.id, match.version, match.table.edit_key
    ):
        work.abandon()
        work.read_first()
        return write.conflict(match, frozenset({MATCH})) or Conflict(frozenset({MATCH}))
    touched = write.apply(match, verdict)
    work.commit(*touched, state=verdict.state, once=write.once, location=write.location)
    return Saved(write.location, verdict, moved_on=moved)


@dataclass(frozen=True)
class Applied:
    """What a write of a table (not of one match) did: the matches whose log changed, what
    it made (a new table...) and where it leads when only what it made knows (a new key)."""

    matches: Sequence[Match | int] = ()
    result: Any = None
    location: str | None = None


class TableWrite(Protocol):
    """A write of a table rather than of a match (a new table, its players, its keys, its
    house rules, a match archived or deleted for good): nothing of a match was seen.  One
    that names a thing with a version of its own (a set of house rules) has a ``seen``
    (:class:`Seen`, its ``version``) and that thing as its ``versioned``."""

    @property
    def once(self) -> str | None: ...

    @property
    def location(self) -> str: ...

    def check(self) -> Verdict:
        """The check (raises :class:`Refusal` or RefereeError: nothing is done)."""

    def apply(self, verdict: Verdict) -> Applied:
        """The change made on the objects."""


def save_table(write: TableWrite) -> Answer:
    """Carry out a write of a table: the receipt, what the phone saw, the check, the
    change, the commit."""
    done = repeated(write.once)
    if done is not None:
        return done
    seen = getattr(write, "seen", None)
    if isinstance(seen, Seen):
        moved = seen.changes_of(getattr(write, "versioned", None))
        if moved:
            return Conflict(moved)
    try:
        verdict = write.check()
    except RefereeError as error:
        return Refused(error)
    except Refusal as refusal:
        return Refused(refusal.message, refusal.field or None)
    try:
        applied = write.apply(verdict)
        location = applied.location if applied.location is not None else write.location
        work.commit(*applied.matches, once=write.once, location=location)
    except IntegrityError:
        if not getattr(write, "copies_refused", False):
            raise
        work.abandon()  # a second copy, made at the same moment elsewhere
        return Conflict(frozenset({MATCH}))
    return Saved(location, verdict, result=applied.result)


def read_first() -> None:
    """This request reads and checks before it takes its table's turn (:func:`save` with
    ``read_first``): the phones of a table check in parallel."""
    work.read_first()


def write_now() -> None:
    """The reading is over and nothing was written on rows: the request's next transaction
    takes the table's turn (the objects' way answers it)."""
    writes.start_writing()


def answer_from_memory() -> None:
    """What this request's write leaves is answered as it is in memory, not read again."""
    db.session().expire_on_commit = False


def abandon() -> None:
    """Nothing of this request's write is kept."""
    work.abandon()


class _HasRows:
    """Writes with a fast strategy, or that may wait for the player's word on their verdict,
    subclass this (the door checks for it)."""

    @property
    def offers_rows(self) -> bool:
        return False

    def on_rows(self) -> Saved | Refused | None:
        return None

    def held(self, verdict: Verdict) -> bool:
        """Whether the write waits, its verdict shown, for the player's word (:class:`Held`)."""
        return False


WithRows = _HasRows
