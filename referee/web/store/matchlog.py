"""A stored match as its ``referee-match/1`` document, replayed by the engine.

The log is the truth: the scoreboard and a round's page come from
:func:`outlook`, which replays the rounds as entered.  What is stored beside
the log is derived from it and recounted in the same transaction as every
change of it (the summaries the match list and the statistics read:
:mod:`referee.web.store.summary`, recounted by the unit of work,
:func:`referee.web.store.work.commit`).  A change
(a new round, a correction, a void, an undo) is tried on the whole document
first (:func:`verify`); only if the engine accepts it is it saved.

Rounds are stored in the engine's canonical form (:func:`canonical_round`:
known keys only, canonical cards).  Reading a stored round never raises
anything but a :class:`RefereeError`, so one bad round (stored before imports
were checked) makes its match "cannot be replayed", not the pages that list it
fail.  A replay is cached by the text of the rounds it replays (:func:`replay_key`: a
chain of hashes, the header's then one more for each round, so that the key of the log
with one more round is made from the last key and that round alone): the log stays the
truth, and a page does not replay an unchanged match again.

A save never replays the whole match: the engine's state after the last round is
kept with the match's summary as its facts (:class:`KeptReplay`, by the same key
as the cache: written by :mod:`summary` with every rewrite of the summary, checked
by ``history check``), and the next round is played on it (:func:`playable`), in any
worker, warm or not.  The state's facts are kept a round at a time: what does not grow with
the match with the summary (``match_replays``), each round's with the round (``rounds.facts``,
written by the INSERT of the save that adds it), so that a save writes its own round's facts
and not every round's again (:data:`KEPT_REPLAY` reads both).  The kept state also names the match's version it was written at:
every write that changes a match's log raises its version in the same transaction, so a
state kept at the match's current version is of the log as stored, and the plain save
(:mod:`referee.web.play.appending`) takes its key from it instead of reading and
hashing every round.  A state made again from facts has the detail of a score sheet in
its rounds (``Outlook.detail``, :class:`~referee.match.Detail`), not their cards: the pages
that show only the score sheet (``outlook(match, Detail.SHEET)``: the scoreboard, the big
board, the JSON scoreboard, the exports of the sheet) take it in a worker that has not
replayed the match; those that show a round's cards replay it (:func:`outlook`).

A stored match is read *as played* (``as_played`` in the engine): a match
stored before the house rules had ranges (a remi match to 20) replays with its
options as recorded, wherever it is replayed.  A new match (a setup, an import
of a match not yet played: :func:`restores_play`) is read strictly.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

import sqlalchemy as sa
from cachetools import LRUCache
from sqlalchemy.engine import Connection

from referee.errors import MatchFileError, RefereeError
from referee.match import Detail
from referee.matchfile import MatchHeader, RoundRecord, dump_round, read_header, read_round
from referee.messages import define_message
from referee.web.store.models import Match, MatchReplay, Round

if TYPE_CHECKING:  # the functions below import the engine when first called
    from referee.match import MatchState
    from referee.round import RoundInProgress

FORMAT = "referee-match/1"
T = TypeVar("T")
log = logging.getLogger(__name__)

# Most rounds a match may have (an import is refused beyond it; the setup allows 100 hands).
MAX_ROUNDS = 500
# Replays kept in memory, by the text of the document replayed.
CACHE_SIZE = 256
# The engine's headers of stored matches, by their text (a save reads its match's each time).
HEADER_CACHE_SIZE = 1024

UNREADABLE = define_message("web.unreadable", "the referee could not read this match: {detail}")
STORED_UNREADABLE = define_message(
    "web.stored_unreadable", "this round cannot be read as stored; correct it or make it void"
)


def header(match: Match, seating_changes: Sequence[Any] | None = None) -> dict[str, Any]:
    """The match file's header (``seating_changes`` instead of the stored ones when given)."""
    head: dict[str, Any] = {
        "format": FORMAT,
        "rules": match.rules,
        "options": dict(match.options or {}),
        "players": match.player_names,
        "first_dealer": match.first_dealer,
    }
    changes = match.seating_changes if seating_changes is None else seating_changes
    if changes:
        head["seating_changes"] = [dict(change) for change in changes]
    if match.stopped:
        head["stopped"] = True
    if match.teams:
        head["teams"] = {name: list(members) for name, members in match.teams.items()}
    return head


def document(
    match: Match,
    rounds: Sequence[dict[str, Any]] | None = None,
    seating_changes: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """The match document: its header and its complete rounds (or ``rounds`` instead).

    Stored rounds come out in canonical form (a fresh copy); a stored round that
    cannot be read raises :class:`RefereeError` naming it.  ``rounds`` given are
    passed as they are: the engine reads them when it replays the document.
    ``seating_changes`` given replace the stored ones.
    """
    doc = header(match, seating_changes)
    return doc | {"rounds": entries(match) if rounds is None else list(rounds)}


def stored_header(head: Mapping[str, Any]) -> MatchHeader:
    """The engine's header of a stored match, its options read as played (the same header
    is read once per worker: the engine's headers are not changed once made)."""
    try:
        text = json.dumps(head, sort_keys=True, ensure_ascii=False)
    except (RecursionError, TypeError, ValueError):
        return call_engine(read_header, head, as_played=True)
    with _HEADERS_LOCK:
        found = _HEADERS.get(text)
    if found is None:
        found = call_engine(read_header, head, as_played=True)
        with _HEADERS_LOCK:
            _HEADERS[text] = found
    return found


_HEADERS: LRUCache[str, MatchHeader] = LRUCache(maxsize=HEADER_CACHE_SIZE)
_HEADERS_LOCK = threading.Lock()


def restores_play(document: Mapping[str, Any]) -> bool:
    """Whether an imported match document restores a match already set up and played, so
    that its options are kept as played: it has rounds, or it says when it was started
    (``started``, which the table export writes for every match).  Anything else is a new
    match, and its options must be within the house rules' ranges."""
    rounds = document.get("rounds")
    return bool(isinstance(rounds, list) and rounds) or document.get("started") is not None


def canonical_round(raw: Any, match_header: MatchHeader, number: int | None = None) -> Any:
    """A round object read by the engine and written back: known keys only, canonical cards."""
    return read_canonical(raw, match_header, number)[1]


def read_canonical(
    raw: Any, match_header: MatchHeader, number: int | None = None
) -> tuple[RoundRecord, Any]:
    """The round as the engine reads it, and written back (:func:`canonical_round`)."""
    record = call_engine(read_round, raw, match_header, number)
    return record, call_engine(dump_round, record, match_header.players, match_header.rules)


def entries(match: Match) -> list[dict[str, Any]]:
    """The complete rounds as stored, each a canonical copy (RefereeError if one is unreadable)."""
    rounds = match.complete_rounds
    if not rounds:
        return []
    match_header = stored_header(header(match))
    return [canonical_round(r.entry, match_header, r.number) for r in rounds]


def readable_entry(match: Match, number: int, entry: Any) -> dict[str, Any] | None:
    """A stored round object in canonical form, or None if the engine cannot read it."""
    try:
        return canonical_round(entry, stored_header(header(match)), number)
    except RefereeError:
        return None


def entry_text(entry: Any) -> str:
    """A stored round object as indented JSON, for people to read; never raises."""
    try:
        return json.dumps(entry, ensure_ascii=False, indent=2)
    except (RecursionError, TypeError, ValueError):
        return "{}"


def call_engine(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call the engine; anything it raises other than a RefereeError becomes one.

    The web layer shows a RefereeError as a message; an engine bug on odd input
    must not become a 500 page.
    """
    try:
        return function(*args, **kwargs)
    except RefereeError:
        raise
    except Exception as error:
        if isinstance(error, RecursionError):
            raise MatchFileError(STORED_UNREADABLE) from None
        log.exception("the engine failed on %s", getattr(function, "__name__", function))
        raise MatchFileError(UNREADABLE, detail=type(error).__name__) from error


def replay(doc: dict[str, Any], *, as_played: bool = False) -> MatchState:
    """The engine's replay of a document; any failure comes out as a RefereeError.
    ``as_played``: the document of a stored match (see the module's docstring)."""
    from referee.match import replay as engine_replay

    return call_engine(engine_replay, doc, as_played=as_played)


def live(match: Match, turns: Sequence[dict[str, Any]]) -> RoundInProgress:
    """The match's next round with ``turns`` applied, started on the match as far as it has
    gone (:func:`playable`: what the next round needs, without a replay where the worker or
    the summary has it)."""
    seen = playable(match)
    if seen.state is None:
        raise seen.error or MatchFileError(STORED_UNREADABLE)
    state = seen.state

    def played() -> RoundInProgress:
        round_so_far = state.start_round()
        for turn in turns:
            round_so_far = round_so_far.apply_turn(turn)
        return round_so_far

    return call_engine(played)


@dataclass(frozen=True)
class Outlook:
    """A match replayed: its state, or the error that stopped the replay.

    A state made again from kept facts has less than every detail in its rounds
    (:attr:`detail`); it plays the next round and gives the summary, the scores and the
    score sheet exactly as the whole replay would.
    """

    state: MatchState | None
    error: RefereeError | None

    @classmethod
    def of(cls, state: MatchState) -> Outlook:
        """A state as replayed or played on."""
        return cls(state, None)

    @property
    def detail(self) -> Detail:
        """How much of its rounds the state holds (all there is, for a replay that failed)."""
        return self.state.detail if self.state is not None else Detail.FULL

    @property
    def detailed(self) -> bool:
        """Whether every round has every detail (as the engine scored it)."""
        return self.detail is Detail.FULL

    @property
    def finished(self) -> bool:
        return bool(self.state is not None and self.state.finished)

    @property
    def winners(self) -> list[str]:
        return list(self.state.winners) if self.state is not None else []


class Replays:
    """The latest replays of a worker, by :func:`replay_key`: the least recently used go
    first (cachetools' LRU, behind one lock for the worker's threads)."""

    def __init__(self, size: int) -> None:
        self.found: LRUCache[str, Outlook] = LRUCache(maxsize=size)
        self.lock = threading.Lock()

    def get(self, key: str) -> Outlook | None:
        with self.lock:
            return self.found.get(key)

    def put(self, key: str, seen: Outlook) -> None:
        with self.lock:
            kept = self.found.get(key)
            if kept is None or seen.detail >= kept.detail:  # never lose the detail
                self.found[key] = seen

    def clear(self) -> None:
        with self.lock:
            self.found.clear()


REPLAYS = Replays(CACHE_SIZE)


@dataclass(frozen=True)
class KeptReplay:
    """A match's replayed state as stored with its summary: the key of the log it was
    replayed from (:func:`replay_key`), the engine's facts of it as JSON text, kept a round at
    a time (the state's own, ``MatchState.facts(rounds=False)``, in ``facts``; each round's,
    ``MatchState.round_facts``, in ``rounds``: the facts of its rounds from the one at
    position ``first`` on, None for a round stored without them), and the match's version
    when it was written (None when it was not read).

    A state kept in the older form holds all of its facts in ``facts`` (``rounds`` unused).
    """

    key: str
    facts: str
    version: int | None = None
    rounds: tuple[str | None, ...] = ()
    first: int = 1

    @classmethod
    def of(cls, key: str, state: MatchState, first: int = 1) -> KeptReplay:
        """The state to keep, its rounds' facts from position ``first`` on (those before are
        kept already: a save writes only its own round's)."""
        return cls(
            key,
            _json_text(state.facts(rounds=False)),
            rounds=tuple(_json_text(facts) for facts in state.round_facts(first - 1)),
            first=first,
        )

    def whole_facts(self) -> dict[str, Any]:
        """All the facts of the state (``MatchState.facts()``); KeyError, TypeError or
        ValueError when what is kept is not all of them (a round without its facts)."""
        from referee.match import joined_facts

        facts = json.loads(self.facts)
        if "rounds" in facts:  # the older form
            return cast(dict[str, Any], facts)
        if self.first != 1 or None in self.rounds:
            raise ValueError("the kept state lacks facts of its rounds")
        # One text: parsing one array costs less than a text per round.
        rounds = json.loads("[" + ",".join(cast(tuple[str, ...], self.rounds)) + "]")
        return joined_facts(facts, rounds)

    def state(self, head: dict[str, Any]) -> MatchState:
        """The state again, for the match of this header (RefereeError if it cannot be;
        KeyError, TypeError or ValueError when the facts are not of this engine or lack a
        round's)."""
        from referee.match import MatchState

        return call_engine(MatchState.from_facts, stored_header(head), self.whole_facts())


def _json_text(facts: Any) -> str:
    return json.dumps(facts, ensure_ascii=False, separators=(",", ":"))


def is_split(facts: str | None) -> bool:
    """Whether a state's kept facts are its own, its rounds' kept with them (not the older
    form, all in one text); False for facts that are no JSON object."""
    try:
        found = json.loads(facts) if facts is not None else None
    except ValueError:
        return False
    return isinstance(found, dict) and "round_count" in found


REPLAYS_TABLE = MatchReplay.__table__
ROUNDS_TABLE = cast(sa.Table, Round.__table__)
# The state kept with a match and the facts of its rounds (the complete rounds not deleted,
# in order), in one statement: the kept row first (as round 0).
KEPT_REPLAY = sa.union_all(
    sa.select(
        sa.literal(0).label("number"),
        REPLAYS_TABLE.c.replay_key,
        REPLAYS_TABLE.c.facts,
        REPLAYS_TABLE.c.match_version,
    ).where(REPLAYS_TABLE.c.match_id == sa.bindparam("the_match")),
    sa.select(
        ROUNDS_TABLE.c.number,
        sa.null().cast(sa.String(64)),
        ROUNDS_TABLE.c.facts,
        sa.null().cast(sa.Integer),
    ).where(
        ROUNDS_TABLE.c.match_id == sa.bindparam("the_match"),
        ROUNDS_TABLE.c.complete.is_(True),
        ROUNDS_TABLE.c.deleted_at.is_(None),
    ),
).order_by("number")


def kept_replay(connection: Connection, match_id: int) -> KeptReplay | None:
    """The replay kept with a match's summary, with its rounds' facts (None: none is kept)."""
    rows = connection.execute(KEPT_REPLAY, {"the_match": match_id}).all()
    if not rows or rows[0].number != 0:
        return None
    kept = rows[0]
    rounds = tuple(row.facts for row in rows[1:])
    return KeptReplay(kept.replay_key, kept.facts, kept.match_version, rounds)


def replay_key(head: dict[str, Any], entries: Sequence[Any]) -> str:
    """The key of a stored match's replay: made from its header and its rounds as stored
    (TypeError or ValueError when they are no JSON)."""
    return _stored_key(head, entries)


def next_replay_key(key: str, entry: Any) -> str:
    """The key of the log of ``key`` with ``entry`` as its next round: the chain of
    :func:`replay_key` one step further, without the rounds before (TypeError or
    ValueError when the entry is no JSON)."""
    return hashlib.sha256((key + _KEY_TEXT.encode(entry)).encode()).hexdigest()


def _replay_key(match: Match) -> str:
    """What a replay of the match depends on: its header and its rounds as stored.

    Reading the stored rounds into canonical form costs more than the hash, so the
    key is taken from them as stored; two spellings of one round replay alike and
    at worst are replayed once each.
    """
    return _stored_key(header(match), [r.entry for r in match.complete_rounds])


# Sorted keys: the same objects give the same text however their keys were ordered.
_KEY_TEXT = json.JSONEncoder(sort_keys=True, ensure_ascii=False)


def _stored_key(head: dict[str, Any], entries: Sequence[Any], as_played: bool = True) -> str:
    # A chain: the header's hash, then each round's hash with the one before, so that a round
    # added to the log needs only the key so far (:func:`next_replay_key`).  A strict reading
    # may refuse what the reading as played accepts: never the same key.
    key = hashlib.sha256(_KEY_TEXT.encode([head, as_played]).encode()).hexdigest()
    for entry in entries:
        key = next_replay_key(key, entry)
    return key


HEADER_KEYS = (
    *("format", "rules", "options", "players", "first_dealer", "seating_changes", "stopped"),
)


def stored_outlook(
    head: dict[str, Any],
    stored: Sequence[tuple[int, Any]],
    *,
    as_played: bool = True,
    kept: Callable[[], KeptReplay | None] | None = None,
) -> Outlook:
    """A match replayed from its header and its rounds as stored (``(number, entry)`` pairs),
    from the cache that :func:`outlook` shares when the same rounds were replayed already.
    ``as_played`` false: a document not stored yet, read strictly.

    ``kept`` given: what needs no detail (the summary, the next round), which takes the
    replay kept with the match (``kept()`` reads it) when it is of these very rounds.
    """
    try:
        key = _stored_key(head, [entry for _number, entry in stored], as_played)
    except (RecursionError, TypeError, ValueError):
        return Outlook(None, MatchFileError(STORED_UNREADABLE))
    seen = REPLAYS.get(key)
    if seen is not None and not seen.detailed and kept is None:
        seen = None  # the detail is asked for: replayed
    if seen is None and kept is not None:
        seen = _resumed(head, key, kept())
    if seen is None:
        try:
            rounds: list[Any] = []
            if stored:
                match_header = call_engine(read_header, head, as_played=as_played)
                rounds = [canonical_round(entry, match_header, n) for n, entry in stored]
            seen = Outlook(replay(head | {"rounds": rounds}, as_played=as_played), None)
        except RefereeError as error:
            seen = Outlook(None, error)
        REPLAYS.put(key, seen)
    return seen


def replayed(doc: dict[str, Any], *, as_played: bool) -> Outlook:
    """A whole match document replayed (or why it cannot be), through the same cache;
    ``as_played`` as for :func:`stored_outlook`."""
    rounds = doc.get("rounds") or []
    head = {key: doc.get(key) for key in HEADER_KEYS if key in doc}
    return stored_outlook(head, list(enumerate(rounds, start=1)), as_played=as_played)


def _resumed(head: dict[str, Any], key: str, kept: KeptReplay | None) -> Outlook | None:
    """The kept replay made again, if it is of the rounds of ``key`` (and cached)."""
    if kept is None or kept.key != key:
        return None
    try:
        seen = Outlook(kept.state(head), None)
    except (RefereeError, KeyError, TypeError, ValueError):  # kept by an older engine
        log.warning("the kept replay of a match could not be read; replaying it")
        return None
    REPLAYS.put(key, seen)
    return seen


def resumed(head: dict[str, Any], key: str, read: Callable[[], KeptReplay | None]) -> Outlook:
    """The match of ``head`` whose log has the key ``key``, which the caller knows from the
    state kept with it at the match's current version: from the cache, else made again from
    the kept facts (``read()`` reads them), else replayed from the stored rounds is left to
    the caller (the outlook's error says the kept facts could not be read)."""
    seen = REPLAYS.get(key)
    if seen is None:
        seen = _resumed(head, key, read())
    return seen if seen is not None else Outlook(None, MatchFileError(STORED_UNREADABLE))


def playable(match: Match) -> Outlook:
    """The match as far as it has gone, to play its next round on: from the cache, else
    from the replay kept with it, else replayed (its rounds may have no detail)."""
    try:
        key = _replay_key(match)
    except (RecursionError, TypeError, ValueError):
        return Outlook(None, MatchFileError(STORED_UNREADABLE))
    seen = REPLAYS.get(key)
    if seen is None and match.id is not None:
        from referee.web.store.extensions import db

        seen = _resumed(header(match), key, kept_replay(db.session.connection(), match.id))
    return seen if seen is not None else outlook(match)


def outlook(match: Match, detail: Detail = Detail.FULL) -> Outlook:
    """The match replayed (or why it cannot be), each round with at least ``detail``: every
    detail by default (a round's cards); less, and the replay kept with the match serves
    when its worker has not replayed it (``Detail.SHEET``: what the score sheet shows).
    The same document is replayed only once."""
    try:
        key = _replay_key(match)
    except (RecursionError, TypeError, ValueError):
        return Outlook(None, MatchFileError(STORED_UNREADABLE))
    seen = REPLAYS.get(key)
    if (seen is None or seen.detail < detail) and detail < Detail.FULL and match.id is not None:
        from referee.web.store.extensions import db

        kept = _resumed(header(match), key, kept_replay(db.session.connection(), match.id))
        seen = kept if kept is not None and kept.detail >= detail else seen
    if seen is None or seen.detail < detail:
        # The engine reads the rounds as stored: putting them in canonical form first
        # would read each of them twice.
        stored = [r.entry for r in match.complete_rounds]
        try:
            seen = Outlook(replay(header(match) | {"rounds": stored}, as_played=True), None)
        except RefereeError as error:
            seen = Outlook(None, error)
        REPLAYS.put(key, seen)
    return seen


def remember(match: Match, state: MatchState) -> None:
    """Keep the engine's replay of the match as it now stands in the session (about to be
    committed), so that the page or answer after a change need not replay it again."""
    from referee.web.store.extensions import db

    seen = Outlook.of(state)
    # Kept before the flush too: the flush rewrites the match's summary from this replay.
    _keep(match, seen)
    db.session.flush()
    _keep(match, seen)


def _keep(match: Match, seen: Outlook) -> None:
    try:
        REPLAYS.put(_replay_key(match), seen)
    except (RecursionError, TypeError, ValueError):
        pass


def verify(
    match: Match, rounds: Sequence[dict[str, Any]], seating_changes: Sequence[Any] | None = None
) -> MatchState:
    """Replay the match with ``rounds`` as its rounds (and ``seating_changes`` when given);
    raise RefereeError if that breaks."""
    return replay(document(match, rounds, seating_changes), as_played=True)


def verify_header(doc: dict[str, Any]) -> MatchState:
    """Replay the document of a new match with no rounds (checks the ruleset, options and
    players; the options strictly)."""
    return replay(doc | {"rounds": []})
