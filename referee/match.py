"""A match as a log of rounds, replayed into scores, dealers and winners.

The web app stores every round exactly as it was entered and asks this module
what it adds up to; nothing derived is trusted over the log.  The checks on how
a round ended and on its final state are in :mod:`referee.round_end`.

Replaying a whole match
    :func:`replay` reads a ``referee-match/1`` document (see
    :mod:`referee.matchfile`) and returns a :class:`MatchState`: one
    :class:`RoundResult` per round, the totals, whether the match is
    finished, its winners and the next dealer.  Any rule broken or any
    malformed input raises a :class:`~referee.errors.RefereeError` carrying
    the 1-based round and turn where it is; nothing is skipped or guessed.
    ``MatchState.to_json()`` is exactly the output of ``referee replay --json``.

A round being played
    :class:`~referee.round.RoundInProgress` (in :mod:`referee.round`,
    re-exported here) is a round entered turn by turn, as far as it has gone.
    :func:`live_round` builds one from a match document and the turns so far.
    When the round is over, the web app puts the turns and the final hands
    into a round of the document and replays it for the scoring.

    >>> doc = {"rules": "remi", "players": ["Budi", "Siti", "Andi"], "rounds": []}
    >>> live = live_round(doc, [{"player": "Siti", "melds": [["7S", "8S", "9S"]]}])
    >>> live.dealer, live.melds_accepting("10S"), live.melds_accepting("QS")
    ('Budi', [1], [])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from referee.cards import Card
from referee.errors import RefereeError, RuleError
from referee.integrity import join_reasons
from referee.matchfile import (
    Match,
    MatchHeader,
    RoundRecord,
    Turn,
    read_header,
    read_match,
    read_round,
)
from referee.melds import Meld
from referee.messages import Reason, define_message
from referee.round import LaidOffCard, RoundInProgress, TableMeld
from referee.round_end import (  # re-exported: the web layer points at fields by these keys
    EMPTY_HAND_IS_OUT,
    HAND_MISSING,
    final_state,
)
from referee.rulesets import MatchProgress, Ruleset
from referee.scoring import Ending, Outcome, RoundScore, nobody_scores

if TYPE_CHECKING:
    from referee.gin import Adjudication


# -- messages --------------------------------------------------------------------------------

NOBODY = define_message("word.nobody", "nobody")
MATCH_OVER = define_message(
    "match.over", "the match was already over after round {last} ({winners} won)"
)

# -- rounds and the match --------------------------------------------------------------------


@dataclass(frozen=True)
class RoundResult:
    """One replayed round: the contract's four facts plus detail for display.

    ``winners`` is empty when nobody won (void, blocked, draw, a stock ending
    of remi-indonesia) and has several names for manipulation's ties.
    ``went_out`` is who emptied the hand (or closed, in remi-indonesia);
    ``knocker`` who knocked; ``at_once`` whether remi/rummy's winner went out
    all at once (the round counts double).  ``hands`` are the cards left,
    ``hand_values`` what they count; ``melds_by_player`` the melds each
    player laid (as laid, before lay-offs); ``table`` the table at the end of
    a round entered turn by turn; ``notes`` say how the score was counted;
    ``adjudication`` is a gin knock's settlement (both arrangements, the lay-offs).
    ``points`` are the hands given as what they count rather than as cards (gin: the
    deadwoods after lay-offs), and ``unchecked`` says, per such hand, what the referee
    could not check without the cards.
    """

    number: int
    dealer: str
    outcome: Outcome
    winners: tuple[str, ...]
    scores: Mapping[str, int]
    at_once: bool = False
    undercut: bool = False
    knocker: str | None = None
    went_out: str | None = None
    closing_card: Card | None = None
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    hand_values: Mapping[str, int] = field(default_factory=dict)
    melds_by_player: Mapping[str, tuple[Meld, ...]] = field(default_factory=dict)
    table: tuple[TableMeld, ...] = ()
    notes: tuple[Reason, ...] = ()
    record: RoundRecord | None = None
    adjudication: Adjudication | None = None
    points: Mapping[str, int] = field(default_factory=dict)
    unchecked: tuple[Reason, ...] = ()

    @property
    def is_void(self) -> bool:
        return self.outcome is Outcome.VOID

    @property
    def winner(self) -> str | list[str] | None:
        """The contract's ``winner``: a name, a list of names for a tie, or ``None``."""
        if not self.winners:
            return None
        return self.winners[0] if len(self.winners) == 1 else list(self.winners)

    def to_json(self) -> dict[str, Any]:
        """The round as ``referee replay --json`` gives it; ``unchecked`` only when some hand
        was given as points (docs/points.md)."""
        out = {
            "dealer": self.dealer,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "scores": dict(self.scores),
        }
        if self.unchecked:
            out["unchecked"] = [reason.text for reason in self.unchecked]
        return out


@dataclass(frozen=True)
class MatchState:
    """A match replayed up to its last round.

    ``totals`` include any match-end ``bonuses`` (manipulation's); rounds'
    ``scores`` never do.  ``next_dealer`` is ``None`` once ``finished``.
    """

    header: MatchHeader
    rounds: tuple[RoundResult, ...] = ()
    totals: Mapping[str, int] = field(default_factory=dict)
    finished: bool = False
    winners: tuple[str, ...] = ()
    next_dealer: str | None = None
    bonuses: Mapping[str, int] = field(default_factory=dict)
    rounds_won: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def start(cls, header: MatchHeader) -> MatchState:
        zero = {player: 0 for player in header.players}
        return cls(header, totals=zero, next_dealer=header.first_dealer, rounds_won=zero)

    @property
    def rules(self) -> Ruleset:
        return self.header.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def start_round(self) -> RoundInProgress:
        """The next round, with nothing on the table yet."""
        if self.finished or self.next_dealer is None:
            raise self._over_error()
        return RoundInProgress.start(self.header, self.next_dealer, self.next_round)

    def _over_error(self) -> RuleError:
        winners = join_reasons(list(self.winners)) if self.winners else Reason.of(NOBODY)
        return RuleError(MATCH_OVER, round=self.next_round, last=len(self.rounds), winners=winners)

    def play(self, record: RoundRecord | Mapping[str, Any]) -> MatchState:
        """This match with one more round, or :class:`RefereeError` for that round."""
        number = self.next_round
        if not isinstance(record, RoundRecord):
            record = read_round(record, self.header, number)
        if self.finished or self.next_dealer is None:
            raise self._over_error()
        dealer = self.next_dealer
        try:
            result = score_round(self.header, record, dealer, number)
        except RefereeError as error:
            raise error.at(round=number) from None
        return self._after(result)

    def _after(self, result: RoundResult) -> MatchState:
        rounds = self.rounds + (result,)
        if result.is_void:
            return replace(self, rounds=rounds)
        totals = {p: self.totals[p] + result.scores[p] for p in self.players}
        won = {p: self.rounds_won[p] + (p in result.winners) for p in self.players}
        history = []
        running = {p: 0 for p in self.players}
        for counted in rounds:
            if not counted.is_void:
                running = {p: running[p] + counted.scores[p] for p in self.players}
                history.append(running)
        progress = MatchProgress(
            self.players,
            result.dealer,
            RoundScore(result.outcome, result.winners, result.scores),
            totals,
            len(history),
            won,
            tuple(history),
        )
        end = self.rules.match_end(self.rules, progress)
        if end.finished:
            bonuses = {p: end.bonuses.get(p, 0) for p in self.players}
            totals = {p: totals[p] + bonuses[p] for p in self.players}
            return replace(
                self,
                rounds=rounds,
                totals=totals,
                finished=True,
                winners=end.winners,
                next_dealer=None,
                bonuses=bonuses,
                rounds_won=won,
            )
        dealer = self.rules.next_dealer(self.rules, progress)
        return replace(self, rounds=rounds, totals=totals, next_dealer=dealer, rounds_won=won)

    def to_json(self) -> dict[str, Any]:
        """Exactly the output of ``referee replay --json``."""
        return {
            "rounds": [result.to_json() for result in self.rounds],
            "totals": dict(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
        }


def replay(document: str | bytes | Mapping[str, Any]) -> MatchState:
    """Replay a whole ``referee-match/1`` document; raise :class:`RefereeError` on any fault.

    >>> state = replay({"rules": "remi", "players": ["Budi", "Siti"],
    ...                 "rounds": [{"out": "Siti", "hands": {"Budi": ["10H", "QS"]}}]})
    >>> state.totals, state.next_dealer
    ({'Budi': 0, 'Siti': 20}, 'Siti')
    """
    return replay_match(read_match(document))


def replay_match(match: Match) -> MatchState:
    state = MatchState.start(match.header)
    for record in match.rounds:
        state = state.play(record)
    return state


def live_round(
    document: str | bytes | Mapping[str, Any], turns: Iterable[Turn | Mapping[str, Any]] = ()
) -> RoundInProgress:
    """The next round of a match (its complete rounds replayed), with ``turns`` applied."""
    state = replay(document)
    live = state.start_round()
    for turn in turns:
        live = live.apply_turn(turn)
    return live


# -- one round -------------------------------------------------------------------------------


def score_round(
    header: MatchHeader, record: RoundRecord, dealer: str, number: int = 1
) -> RoundResult:
    """Check one round against the rules and score it (errors carry the round number)."""
    try:
        return _score_round(header, record, dealer, number)
    except RefereeError as error:
        raise error.at(round=number) from None


def _score_round(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> RoundResult:
    rules, players = header.rules, header.players
    state = final_state(header, record, dealer, number)
    facts, live = state.ending, state.live
    if facts.ending is Ending.VOID:
        score = nobody_scores(facts, Outcome.VOID)
        return RoundResult(
            number, dealer, Outcome.VOID, (), score.scores, notes=score.notes, record=record
        )
    score = rules.score_round(rules, facts)
    hands, player = facts.hands, facts.player
    return RoundResult(
        number,
        dealer,
        score.outcome,
        score.winners,
        {p: score.scores[p] for p in players},
        at_once=facts.at_once,
        undercut=score.undercut,
        knocker=player if facts.ending is Ending.KNOCK else None,
        went_out=player if facts.ending is Ending.OUT else None,
        closing_card=facts.closing_card,
        hands=hands,
        hand_values=dict(score.hand_values) or {p: rules.hand_value(c) for p, c in hands.items()},
        melds_by_player=state.melds,
        table=live.table if live is not None else (),
        notes=score.notes,
        record=record,
        adjudication=score.adjudication,
        points=facts.points,
        unchecked=state.unchecked,
    )


__all__ = [
    "EMPTY_HAND_IS_OUT",
    "HAND_MISSING",
    "MATCH_OVER",
    "LaidOffCard",
    "MatchState",
    "RoundInProgress",
    "RoundResult",
    "TableMeld",
    "live_round",
    "read_header",
    "replay",
    "replay_match",
    "score_round",
]
