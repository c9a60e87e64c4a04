"""The changes a match goes through, shared by the pages and the JSON API.

Each function is one change of a match: it is tried on the whole match by the
engine first (:func:`matchlog.verify`, or the live round's own check), then
stored and the versions raised, and handed to the unit of work
(:func:`referee.web.store.work.commit`: receipt, summaries, commit).  The callers (a page's view, an API
operation) read the request, check the versions it names and say what happened;
no rule is decided here or there: a refusal is the engine's :class:`RefereeError`.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from referee.errors import RefereeError, RuleError
from referee.match import MATCH_OVER, MatchState
from referee.matchfile import TEAM_NAME_TWICE
from referee.rulesets import Ruleset
from referee.web.play import seating as seating_module
from referee.web.play.limits import NAME_MAX
from referee.web.play.names import name_key
from referee.web.store import door, matchlog, writes
from referee.web.store.extensions import db
from referee.web.store.models import (
    CardTable,
    Match,
    MatchPlayer,
    Player,
    Round,
    TableEvent,
    new_key,
    now,
)

# -- complete rounds ------------------------------------------------------------------------


def verify_round(match: Match, entry: dict[str, Any], number: int) -> tuple[MatchState, list[int]]:
    """Replay the match with round ``number`` as ``entry`` (a new round when it is the next).

    Returns the replayed state and the later rounds in the way: when a corrected
    round ends the match, the engine refuses every round after it ("the match was
    already over"); the match is then replayed up to round ``number`` and the
    numbers of the later rounds are returned, for the caller to decide whether to
    remove them.  Any other refusal is raised.
    """
    if number == match.next_round_number:  # the next round: the match so far plays it
        seen = matchlog.playable(match)
        if seen.error is not None:
            raise seen.error
        if seen.state is not None:
            return matchlog.call_engine(seen.state.play, entry), []
    rounds = matchlog.entries(match)
    if number > len(rounds):
        rounds.append(entry)
    else:
        rounds[number - 1] = entry
    try:
        state = matchlog.verify(match, rounds)
    except RefereeError as error:
        if error.reason.key != MATCH_OVER or error.round != number + 1 or len(rounds) <= number:
            raise
    else:
        return state, []
    state = matchlog.verify(match, rounds[:number], seating_until(match, number))
    return state, list(range(number + 1, len(rounds) + 1))


def seating_until(match: Match, number: int) -> list[dict[str, Any]]:
    """The match's seating changes up to round ``number`` (those after it go with the rounds
    after it)."""
    return [
        dict(change)
        for change in match.seating_changes or ()
        if isinstance(change.get("before_round"), int) and change["before_round"] <= number
    ]


def cut_seating(match: Match, number: int) -> None:
    """Undo the seating changes made after round ``number`` (its later rounds are gone)."""
    kept = seating_until(match, number)
    if kept != list(match.seating_changes or ()):
        seating_module.update_seats(match, kept, _no_new_player)


def _no_new_player(name: str) -> Player:
    raise AssertionError(f"cutting seating changes seats nobody new ({name})")


def save_round(
    match: Match,
    stored: Round | None,
    entry: dict[str, Any],
    *,
    remove_after: bool = False,
    via: str = "t",
) -> Round:
    """Store a verified round: a new one (``stored`` None) or a correction of ``stored``
    (the door commits it: :mod:`referee.web.play.roundwrites`)."""
    if stored is None:
        stored = Round(number=match.next_round_number, entry=entry, complete=True)
        writes.add_round(match, stored)
        writes.changed(match)
    else:
        writes.record(match, stored, "corrected", stored.entry, entry, via)
        stored.entry = entry
        stored.previous_entry = None
        if remove_after:  # the corrected round ends the match: the rounds after it go
            for later in [r for r in match.stored_rounds if r.number > stored.number]:
                writes.remove_round(match, later)
            cut_seating(match, stored.number)
        writes.changed_round(match, stored)
    return stored


VOID: dict[str, Any] = {"end": "void"}


def replay_with(match: Match, stored: Round, entry: dict[str, Any]) -> MatchState:
    """The match replayed with ``stored`` as ``entry`` (a void, a restore): the engine's
    RefereeError if it no longer replays."""
    rounds = matchlog.entries(match)
    rounds[stored.number - 1] = entry
    return matchlog.verify(match, rounds)


def replace_entry(
    match: Match,
    stored: Round,
    entry: dict[str, Any],
    previous: dict[str, Any] | None,
    *,
    what: str,
    via: str = "t",
) -> None:
    """Give a stored round a new entry (void, restore), checked by the engine already."""
    writes.record(match, stored, what, stored.entry, entry, via)
    stored.entry, stored.previous_entry = entry, previous
    writes.changed_round(match, stored)


def void_round(match: Match, stored: Round, *, via: str = "t") -> None:
    replace_entry(match, stored, dict(VOID), stored.entry, what="voided", via=via)


def restore_round(match: Match, stored: Round, *, via: str = "t") -> None:
    """Undo a void: the entry it replaced comes back."""
    if stored.previous_entry:
        replace_entry(match, stored, stored.previous_entry, None, what="restored", via=via)


def is_last_round(match: Match, stored: Round) -> bool:
    """Whether ``stored`` is the last saved round, with no live round after it."""
    complete = match.complete_rounds
    return match.live_round is None and bool(complete) and complete[-1] is stored


def remove_last_round(match: Match, stored: Round, *, via: str = "t") -> None:
    """Delete the last round softly: it stays stored, restorable while it would be the last.

    A change of seating made after it is undone with it (it came after that round).
    """
    writes.record(match, stored, "deleted", stored.entry, None, via)
    stored.deleted_at = now()
    cut_seating(match, stored.number)
    writes.changed_round(match, stored)


def undelete_round(match: Match, stored: Round, *, via: str = "t") -> None:
    """Bring back the deleted round (``match.deleted_round``), checked by the engine already."""
    writes.record(match, stored, "undeleted", None, stored.entry, via)
    stored.deleted_at = None
    writes.changed_round(match, stored)


# -- the live round -------------------------------------------------------------------------


def live_turns(match: Match) -> list[dict[str, Any]]:
    """The turns of the live round so far (a copy), or none."""
    stored = match.live_round
    return copy.deepcopy(stored.entry.get("turns", [])) if stored is not None else []


def store_turns(match: Match, turns: list[dict[str, Any]]) -> None:
    """The live round's turns are now ``turns`` (the round starts with its first turn)."""
    stored = match.live_round
    if stored is None:
        writes.add_round(
            match, Round(number=match.next_round_number, entry={"turns": turns}, complete=False)
        )
        writes.changed(match)
    else:
        stored.entry = {**stored.entry, "turns": turns}
        writes.changed_round(match, stored)


def round_turns(match: Match, stored: Round) -> list[dict[str, Any]]:
    """A round's turns as the engine reads them (as stored if it cannot)."""
    entry = matchlog.readable_entry(match, stored.number, stored.entry) or stored.entry
    turns = entry.get("turns") if isinstance(entry, dict) else None
    return [dict(turn) for turn in turns] if isinstance(turns, list) else []


def state_before_turn(
    match: Match, stored: Round, turns: list[dict[str, Any]], turn_number: int
) -> Any:
    """The round as it stood before turn ``turn_number`` (the rounds before it replayed)."""
    from referee.match import live_round

    before = matchlog.entries(match)[: stored.number - 1]
    return matchlog.call_engine(
        live_round, matchlog.document(match, before), turns[: turn_number - 1], as_played=True
    )


def canonical_turn(state: Any, turn: dict[str, Any]) -> dict[str, Any]:
    """A turn checked on the round before it (``state``) and written in canonical form."""
    from referee.matchfile import dump_turn, read_turn

    matchlog.call_engine(state.apply_turn, turn)
    return matchlog.call_engine(lambda: dump_turn(read_turn(turn, state.header)))


def replay_corrected_turns(match: Match, stored: Round, turns: list[dict[str, Any]]) -> Any:
    """The round with its turns as ``turns`` (a live round: its RoundInProgress), or the whole
    match with it (a finished round: the replayed match).

    Raises the engine's RefereeError, whose ``round`` and ``turn`` name what no longer holds.
    """
    if not stored.complete:
        return matchlog.live(match, turns)
    rounds = matchlog.entries(match)
    rounds[stored.number - 1] = {**rounds[stored.number - 1], "turns": turns}
    return matchlog.verify(match, rounds)


def correct_turns(
    match: Match, stored: Round, turns: list[dict[str, Any]], *, via: str = "t"
) -> None:
    """Store a round's turns after a correction of one of them, already replayed (the live
    round's own check, or the whole match for a finished round)."""
    before = copy.deepcopy(stored.entry)
    stored.entry = {**stored.entry, "turns": turns}
    writes.record(match, stored, "turn-corrected", before, stored.entry, via)
    writes.changed_round(match, stored)


def take_back_turn(match: Match) -> bool:
    """Remove the last turn (with it the live round, when it was the first); False if none."""
    stored = match.live_round
    turns = live_turns(match)
    if stored is None or not turns:
        return False
    if turns[:-1]:
        stored.entry = {**stored.entry, "turns": turns[:-1]}
        writes.changed_round(match, stored)
    else:
        writes.remove_round(match, stored)
        writes.changed(match)
    return True


def discard_live_round(match: Match) -> bool:
    stored = match.live_round
    if stored is None:
        return False
    writes.remove_round(match, stored)
    writes.changed(match)
    return True


def end_live_round(match: Match, entry: dict[str, Any]) -> Round:
    """Store the live round's round object (checked on the whole match) as complete."""
    stored = match.live_round
    if stored is None:  # ended before its first turn: a new round, as a round entered whole
        stored = Round(number=match.next_round_number, entry=entry, complete=True)
        writes.add_round(match, stored)
        writes.changed(match)
    else:
        stored.entry, stored.complete = entry, True
        writes.changed_round(match, stored)
    return stored


# -- who sits at the table ------------------------------------------------------------------


class SeatingRefused(door.Refusal):
    """A change of seating the app refuses before asking the engine, in words."""


def seating_change(match: Match, seated: Sequence[str]) -> tuple[list[dict[str, Any]], MatchState]:
    """From the next round on, ``seated`` sit at the table (clockwise): the match's seating
    changes then, and the replay with them.

    Only between rounds: not before round 1 (the setup says who plays), not while a round
    is being played live.  A change made since the last round is replaced (two joins
    before one round are one change; a newcomer who leaves before playing undoes the
    join).  The engine checks the rest (:func:`referee.matchfile.verify_seating`) and
    replays the match; its refusal is raised and nothing is saved.
    """
    number = match.next_round_number
    if match.live_round is not None:
        raise SeatingRefused(
            gettext("A round is being played: players join or leave between rounds.")
        )
    if not match.complete_rounds:
        raise SeatingRefused(
            gettext("Before the first round, change the players in the match's setup.")
        )
    seated = list(seated)
    stored = [dict(change) for change in match.seating_changes or ()]
    kept = [change for change in stored if change.get("before_round") != number]
    if seated != match.seating_at(number - 1):
        kept.append({"before_round": number, "players": seated})
    return kept, matchlog.verify(match, matchlog.entries(match), kept)


def apply_seating(match: Match, kept: list[dict[str, Any]]) -> None:
    """The match's seating changes are now ``kept`` (checked by the engine): new players
    join the table."""
    by_name = {player.name: player for player in match.table.players}

    def player_for(name: str) -> Player:
        if name not in by_name:
            by_name[name] = Player(table=match.table, name=name)
            db.session.add(by_name[name])
        return by_name[name]

    seating_module.update_seats(match, kept, player_for)
    writes.changed(match)


# -- matches --------------------------------------------------------------------------------


class SetupRefused(ValueError):
    """A match setup the app refuses, in words; ``field`` names what it is about
    (``seat``, with the ``name`` seated, ``first_dealer``, or an option)."""

    def __init__(self, message: str, field: str = "", name: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.name = name


@dataclass(frozen=True)
class Setup:
    """A match setup as asked for: seats in order, the first dealer ("random" allowed)."""

    seated: Sequence[str]
    first_dealer: str
    options: dict[str, Any]
    teams: dict[str, list[str]] | None = None  # where the game is played in teams


def seating(rules: Ruleset, seated: Sequence[str], known: Collection[str], dealer: str) -> str:
    """Check the seats (the table's players, once each, as many as the game takes) and
    return the first dealer (drawn at random for ``random``).

    Raises :class:`SetupRefused`, or the engine's RuleError for the number of players.
    """
    seen: set[str] = set()
    for name in seated:
        if name not in known:
            raise SetupRefused(gettext("Not a valid choice."), "seat", name)
        if name in seen:
            raise SetupRefused(gettext("%(name)s already has a seat.", name=name), "seat", name)
        seen.add(name)
    rules.verify_players(len(seated))
    if dealer == "random":
        return secrets.choice(list(seated))
    if dealer not in seated:
        raise SetupRefused(gettext("The first dealer must be one of the players."), "first_dealer")
    return dealer


def header_of(
    rules: Ruleset,
    seated: Sequence[str],
    dealer: str,
    options: dict[str, Any],
    teams: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The ``referee-match/1`` header, its options checked against the ruleset's declaration
    and the whole by the engine (RefereeError if it refuses)."""
    header: dict[str, Any] = {
        "format": matchlog.FORMAT,
        "rules": rules.id,
        "options": rules.check_options(options),
        "players": list(seated),
        "first_dealer": dealer,
    }
    if teams:
        header["teams"] = teams
    matchlog.verify_header(header)
    return header


def teams_of(rules: Ruleset, seated: Sequence[str], names: Sequence[str]) -> dict[str, list[str]]:
    """The teams of a game played in teams, named ``names`` in seat order, as the engine
    seats them; none where the game or the number of players seated plays no teams.  Two
    teams of one name: the engine's refusal."""
    if rules.sides is None:
        return {}
    named = [str(name or "") for name in names[: len(rules.sides.team_seats(len(seated)))]]
    for index, name in enumerate(named):
        if name in named[:index]:
            raise RuleError(TEAM_NAME_TWICE, team=name)
    return rules.sides.teams(seated, named)


def match_header(rules: Ruleset, setup: Setup, known: Collection[str]) -> dict[str, Any]:
    """The checked header of a setup; ``known`` are the table's players."""
    dealer = seating(rules, setup.seated, known, setup.first_dealer)
    return header_of(rules, setup.seated, dealer, setup.options, setup.teams)


def apply_setup(match: Match, header: dict[str, Any]) -> None:
    by_name = {player.name: player for player in match.table.players}
    match.options = header["options"]
    match.first_dealer = header["first_dealer"]
    match.teams = header.get("teams") or None
    match.seats.clear()
    db.session.flush()
    for seat, name in enumerate(header["players"]):
        match.seats.append(MatchPlayer(seat=seat, player=by_name[name]))


def start_match(table: CardTable, header: dict[str, Any]) -> Match:
    """A new match of ``table`` from a checked header (the door commits it)."""
    # Made whole before it joins the session: reading the table's players may flush it.
    match = Match(
        table=table,
        rules=header["rules"],
        options=header["options"],
        first_dealer=header["first_dealer"],
    )
    db.session.add(match)
    apply_setup(match, header)
    db.session.flush()
    return match


# -- tables ---------------------------------------------------------------------------------


def taken_names(table: CardTable, names: Sequence[str]) -> list[str]:
    """The names already at the table (compared without case or width)."""
    existing = {name_key(player.name) for player in table.players}
    return [name for name in names if name_key(name) in existing]


def name_refusal(names: Sequence[str]) -> str | None:
    """Why a list of new player names is refused (the players form's rules), or None."""
    if not names:
        return gettext("Write at least one name.")
    seen: set[str] = set()
    for name in names:
        if not name.strip() or len(name) > NAME_MAX:
            return gettext("Player names must be 1 to %(max)s letters long.", max=NAME_MAX)
        if name_key(name) in seen:
            return gettext("%(name)s is written twice.", name=name)
        seen.add(name_key(name))
    return None


def add_players(table: CardTable, names: Sequence[str]) -> None:
    for name in names:
        db.session.add(Player(table=table, name=name))


def create_table(name: str, players: Sequence[str] = ()) -> CardTable:
    """A new card table (not yet committed: the caller keeps its receipt and commits)."""
    table = CardTable(name=name)
    db.session.add(table)
    for player in players:
        db.session.add(Player(table=table, name=player))
    db.session.flush()
    return table


# -- the table's links ---------------------------------------------------------------------

LINKS = ("edit", "view")


def replace_link(table: CardTable, link: str, *, via: str) -> None:
    """Give the table a new edit or view key, and keep the replacement in its history.

    The caller holds the table's lock (a writing request that opened it by its edit
    key): from the commit on, the old key opens nothing, and a write that waited for
    the lock with it finds no table.  The history says what and from which link, never
    a key.
    """
    if link == "edit":
        table.edit_key = new_key()
    elif link == "view":
        table.view_key = new_key()
    else:
        raise ValueError(f"no such link: {link!r}")
    table.events.append(TableEvent(what=f"{link}-link-replaced", via=via))
