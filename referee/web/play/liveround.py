"""The round played live, turn by turn: what its table shows (for the pages and the API
alike) and its writes as values handed to the door (:func:`referee.web.store.door.save`):
record a turn, correct one, take the last back, discard the round, end it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from referee.cards import Card
from referee.errors import RefereeError
from referee.notation import format_card
from referee.round import NOT_MARKED_OUT, RoundInProgress
from referee.web.play import changes, staleturns
from referee.web.store import matchlog
from referee.web.store.door import Conflict, Refusal, Seen, Verdict
from referee.web.store.models import Match, Round

# -- what the table shows ----------------------------------------------------------------------


def table_view(state: RoundInProgress) -> list[dict[str, Any]]:
    """The melds on the table, each card marked with who laid it off (if it was)."""
    melds = []
    for meld in state.table:
        laid_off = [(format_card(lay.card), lay.player) for lay in meld.layoffs]
        cards = []
        for card in meld.cards:
            code = format_card(card)
            by = next((who for (c, who) in laid_off if c == code), None)
            if by is not None:
                laid_off.remove((code, by))
            cards.append({"code": code, "by": by})
        melds.append({"number": meld.number, "owner": meld.player, "cards": cards})
    return melds


def next_player(state: RoundInProgress, turns: list[dict[str, Any]]) -> str:
    """Who most likely plays next: the leader, then the seat after the last turn entered."""
    return staleturns.next_player(state, turns)


def table_melds(state: RoundInProgress) -> list[tuple[Card, ...]]:
    """The cards of every meld on the table, as the table solver takes them."""
    return [meld.cards for meld in state.table]


def apply_marking_out(state: RoundInProgress, entry: dict[str, Any]) -> RoundInProgress:
    """The turn applied; a turn that leaves no card in the hand marks its player out by itself.

    The engine knows how many cards each player holds (where the turns tell): when it says the
    hand is empty after this turn, the player went out, ticked or not.
    """
    try:
        return matchlog.call_engine(state.apply_turn, entry)
    except RefereeError as refused:
        if entry.get("out") or refused.reason.key != NOT_MARKED_OUT:
            raise
    entry["out"] = True
    return matchlog.call_engine(state.apply_turn, entry)


# -- its writes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveWrite:
    """What every write of the live round carries: what the phone saw (the match's version;
    a turn may also name the number of turns), its one-time key and where it leads."""

    seen: Seen = field(default_factory=Seen)
    once: str | None = None
    location: str = ""
    via: str = "t"

    def named_round(self, match: Match) -> Round | None:
        return None

    def conflict(self, match: Match, moved: frozenset[str]) -> Conflict | None:
        return Conflict(moved)

    def check(self, match: Match) -> Verdict:
        return Verdict()


@dataclass(frozen=True)
class RecordTurn(LiveWrite):
    """A turn added to the round so far (``state``, with ``turns``); ``marks_out``: a turn
    that empties the hand marks its player out by itself (the pages' turn form).

    ``page``: what the page it was typed on showed of the round; when the match moved on
    since, the turn is checked on the round as it is now if it is still that player's turn
    (:mod:`staleturns`; ``player``: whose turn it says, as posted).  ``read``: the turn read
    from the posted form once that is known (raises Refusal or RefereeError), in place of
    ``turn``."""

    state: Any = None
    turns: tuple[dict[str, Any], ...] = ()
    turn: dict[str, Any] = field(default_factory=dict)
    marks_out: bool = False
    page: staleturns.Seen | None = None
    player: str | None = None
    read: Callable[[], dict[str, Any]] | None = None

    def conflict(self, match: Match, moved: frozenset[str]) -> Conflict | None:
        if self.page is None:
            return Conflict(moved)
        player = self.player if self.player is not None else str(self.turn.get("player", ""))
        reasons = staleturns.why_not(self.state, list(self.turns), self.page, player)
        return Conflict(moved, words=tuple(reasons)) if reasons else None

    def check(self, match: Match) -> Verdict:
        turn = self.read() if self.read is not None else self.turn
        if self.marks_out:
            apply_marking_out(self.state, turn)
        else:
            matchlog.call_engine(self.state.apply_turn, turn)
        return Verdict(found=turn)  # as the engine took it (marked out when it empties the hand)

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.store_turns(match, [*self.turns, verdict.found])
        return []  # a live turn: no complete round changed


@dataclass(frozen=True)
class CorrectTurns(LiveWrite):
    """A round's turns after a correction of one of them: the live round (its own check) or
    a finished round (the whole match replayed).  ``read``: the correction read from a
    posted form once what the phone saw still holds, the round's turns and the replay that
    accepted them (raises :class:`Refusal` or RefereeError), in place of ``turns``."""

    number: int = 0
    turns: tuple[dict[str, Any], ...] = ()
    read: Callable[[], tuple[tuple[dict[str, Any], ...], Any]] | None = None

    def named_round(self, match: Match) -> Round | None:
        return next((r for r in match.rounds if r.number == self.number), None)

    def check(self, match: Match) -> Verdict:
        stored = self.named_round(match)
        assert stored is not None  # the door compared its version: it is there
        if self.read is not None:
            turns, replayed = self.read()
            return Verdict(replayed if stored.complete else None, found=turns)
        replayed = changes.replay_corrected_turns(match, stored, list(self.turns))
        return Verdict(replayed if stored.complete else None, found=replayed)

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        stored = self.named_round(match)
        assert stored is not None
        turns = list(verdict.found if self.read is not None else self.turns)
        changes.correct_turns(match, stored, turns, via=self.via)
        return [match] if stored.complete else []


@dataclass(frozen=True)
class TakeBackTurn(LiveWrite):
    """The last turn taken back (the live round goes with its first turn); refused, nothing
    done, when the round has no turn left."""

    def check(self, match: Match) -> Verdict:
        if not changes.live_turns(match):
            raise Refusal(gettext("There is no turn to take back."))
        return Verdict()

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.take_back_turn(match)
        return []  # the live round only: the log is as it was


@dataclass(frozen=True)
class DiscardLiveRound(LiveWrite):
    """The live round discarded, with all its turns."""

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.discard_live_round(match)
        return []  # the live round only: the log is as it was


@dataclass(frozen=True)
class EndLiveRound(LiveWrite):
    """The live round ended: its round object (its turns and how it ended) checked on the
    whole match and stored as complete."""

    entry: dict[str, Any] = field(default_factory=dict)

    def check(self, match: Match) -> Verdict:
        return Verdict(matchlog.verify(match, [*matchlog.entries(match), self.entry]))

    def apply(self, match: Match, verdict: Verdict) -> Sequence[Match | int]:
        changes.end_live_round(match, self.entry)
        return [match]
