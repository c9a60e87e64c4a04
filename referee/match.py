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

Going on from a kept state
    :meth:`MatchState.facts` is what the next round's replay and a match's summary
    need of a replayed match, as plain JSON values (each round's dealer, outcome,
    winners and scores; the totals and their history; the seating changes made);
    :meth:`MatchState.from_facts` makes a state of them again that plays the next
    round exactly as the whole replay would.  Each round's facts hold what a score
    sheet shows of it too (its notes, what was not checked, the hands given as points,
    the table and hand values): a state made again from them has the detail of a score
    sheet (:attr:`Detail.SHEET`), not the cards (hands, melds, the round as entered),
    which a page that shows them gets by replaying the match.  The facts may be kept a
    round at a time: the state's own (``facts(rounds=False)``, which do not grow with
    the match) and each round's (:meth:`MatchState.round_facts`, with the totals after
    it), joined again by :func:`joined_facts`.

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

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from referee.cards import Card
from referee.errors import RefereeError, RuleError
from referee.integrity import join_reasons
from referee.matchfile import (
    Match,
    MatchHeader,
    RoundRecord,
    Team,
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
from referee.rulesets.base import best_players, seat_after
from referee.scoring import Ending, Outcome, RoundScore, nobody_scores
from referee.standings import SheetRow, Standing, leaders, lowest_leads, sheet_rows, standings

if TYPE_CHECKING:
    from referee.gin import Adjudication


# -- messages --------------------------------------------------------------------------------

NOBODY = define_message("word.nobody", "nobody")
MATCH_OVER = define_message(
    "match.over", "the match was already over after round {last} ({winners} won)"
)

# -- rounds and the match --------------------------------------------------------------------


class Detail(IntEnum):
    """How much of a round a result holds, least first."""

    # What the next round and a match's summary need: dealer, outcome, winners, scores.
    FACTS = 0
    # And what a score sheet shows: notes, what was not checked, points, table and hand values.
    SHEET = 1
    # And the cards: hands, melds, the table, the round as entered (as the engine scored it).
    FULL = 2


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
    could not check without the cards.  ``detail``: how much of this is there (all of it
    when the engine scored the round; made again from facts, the score sheet's or less).
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
    table_values: Mapping[str, int] = field(default_factory=dict)
    detail: Detail = Detail.FULL
    # Kept in the facts (a match's statistics count them without the detail): the discards
    # each player bought (a round entered turn by turn), who went down with the deal's
    # contract (contract rummy).
    bought: Mapping[str, int] = field(default_factory=dict)
    contracts_made: tuple[str, ...] = ()
    kept: Mapping[str, Any] = field(default_factory=dict)  # the game's own (Phase 10's phases)

    @property
    def is_void(self) -> bool:
        return self.outcome is Outcome.VOID

    @property
    def winner(self) -> str | list[str] | None:
        """The contract's ``winner``: a name, a list of names for a tie, or ``None``."""
        if not self.winners:
            return None
        return self.winners[0] if len(self.winners) == 1 else list(self.winners)

    def facts(self) -> dict[str, Any]:
        """What a match's next round and its summary need of this round (see
        :meth:`MatchState.facts`), and under ``sheet`` what a score sheet shows of it (when
        this result has it, and JSON carries its reasons exactly; what is empty is left out)."""
        facts = {
            "number": self.number,
            "dealer": self.dealer,
            "outcome": self.outcome.value,
            "winners": list(self.winners),
            "scores": dict(self.scores),
            "at_once": self.at_once,
            "undercut": self.undercut,
            "knocker": self.knocker,
            "went_out": self.went_out,
        }
        if self.detail >= Detail.SHEET:
            try:
                sheet = {
                    "notes": [reason.facts() for reason in self.notes],
                    "unchecked": [reason.facts() for reason in self.unchecked],
                    "points": dict(self.points),
                    "table_values": dict(self.table_values),
                    "hand_values": dict(self.hand_values),
                }
            except TypeError:  # a reason JSON cannot carry: its pages replay the match
                pass
            else:
                facts["sheet"] = {name: value for name, value in sheet.items() if value}
        if self.bought:
            facts["bought"] = dict(self.bought)
        if self.contracts_made:
            facts["contracts_made"] = list(self.contracts_made)
        if self.kept:
            facts["kept"] = dict(self.kept)
        return facts

    @classmethod
    def from_facts(cls, facts: Mapping[str, Any]) -> RoundResult:
        """The round of :meth:`facts`: with the score sheet's detail when they hold it (and
        this engine knows its messages), else with none."""
        result = cls(
            facts["number"],
            facts["dealer"],
            Outcome(facts["outcome"]),
            tuple(facts["winners"]),
            dict(facts["scores"]),
            at_once=facts["at_once"],
            undercut=facts["undercut"],
            knocker=facts["knocker"],
            went_out=facts["went_out"],
            detail=Detail.FACTS,
            bought=dict(facts.get("bought") or {}),
            contracts_made=tuple(facts.get("contracts_made") or ()),
            kept=dict(facts.get("kept") or {}),
        )
        sheet = facts.get("sheet")
        if sheet is None:  # kept before the facts held it
            return result
        try:
            return replace(
                result,
                notes=tuple(Reason.from_facts(reason) for reason in sheet.get("notes", ())),
                unchecked=tuple(Reason.from_facts(reason) for reason in sheet.get("unchecked", ())),
                points=dict(sheet.get("points", {})),
                table_values=dict(sheet.get("table_values", {})),
                hand_values=dict(sheet.get("hand_values", {})),
                detail=Detail.SHEET,
            )
        except (AttributeError, KeyError, TypeError, ValueError):  # a message no longer known, say
            return result

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
class Reseating:
    """A seating change as replayed: from ``before_round`` on, ``players`` sit at the table.

    ``starting_totals`` are the totals the newcomers among ``joined`` start with (a
    player who comes back keeps the total they left with, and is not in it).
    """

    before_round: int
    players: tuple[str, ...]
    joined: tuple[str, ...]
    left: tuple[str, ...]
    starting_totals: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "before_round": self.before_round,
            "joined": list(self.joined),
            "left": list(self.left),
            "starting_totals": dict(self.starting_totals),
        }


@dataclass(frozen=True)
class Rejoin:
    """A player out of a pool who came back before round ``before_round`` with ``total``."""

    before_round: int
    player: str
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"before_round": self.before_round, "player": self.player, "total": self.total}


@dataclass(frozen=True)
class MatchState:
    """A match replayed up to its last round.

    ``totals`` include any match-end ``bonuses`` (manipulation's); rounds'
    ``scores`` never do.  ``next_dealer`` is ``None`` once ``finished``.
    ``totals`` name everyone who has sat at the table (a player who left keeps
    the total they left with); a round's ``scores`` name the players seated in it;
    ``players`` are the players seated for the next round.
    """

    header: MatchHeader
    rounds: tuple[RoundResult, ...] = ()
    totals: Mapping[str, int] = field(default_factory=dict)
    finished: bool = False
    winners: tuple[str, ...] = ()
    next_dealer: str | None = None
    bonuses: Mapping[str, int] = field(default_factory=dict)
    rounds_won: Mapping[str, int] = field(default_factory=dict)
    history: tuple[Mapping[str, int], ...] = ()
    reseatings: tuple[Reseating, ...] = ()
    rejoins: tuple[Rejoin, ...] = ()

    @property
    def detail(self) -> Detail:
        """How much of its rounds the state holds: the least of any round's."""
        return min((result.detail for result in self.rounds), default=Detail.FULL)

    @classmethod
    def start(cls, header: MatchHeader) -> MatchState:
        zero = {side: 0 for side in header.sides_of(header.players)}
        return cls(header, totals=zero, next_dealer=header.first_dealer, rounds_won=zero)

    @property
    def rules(self) -> Ruleset:
        return self.header.rules

    @property
    def players(self) -> tuple[str, ...]:
        """The players seated for the next round (after the last one, once finished), clockwise."""
        return self.header.seating(self.next_round)

    @property
    def everyone(self) -> tuple[str, ...]:
        """Every side that has sat at the table, as the totals name them: round 1's players,
        then who joined (the teams, where the match is played in teams)."""
        return tuple(self.totals)

    @property
    def sides(self) -> tuple[Team, ...]:
        """Every side of the match, with its players: the teams, or each player alone."""
        return self.header.sides

    @property
    def seated_sides(self) -> tuple[str, ...]:
        """The sides seated for the next round, as the totals name them."""
        return self.header.sides_of(self.players)

    def places(self) -> dict[str, int]:
        """Each player's place in the standings: their side's (partners share it)."""
        return {
            player: standing.place for standing in self.standings() for player in standing.members
        }

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def seat_after(self, player: str, seats: int = 1) -> str:
        """Who sits ``seats`` places clockwise after ``player`` in the seating of the next round."""
        return seat_after(self.players, player, seats)

    @property
    def next_deal(self) -> int:
        """The number of the next round among the deals counted (void rounds are no deal)."""
        return self.deal_of(self.next_round)

    def deal_of(self, number: int) -> int:
        """The deal round ``number`` is (or will be): 1 + the rounds before it that were
        not void (void rounds are no deal)."""
        return 1 + sum(not result.is_void for result in self.rounds[: number - 1])

    def round_header(self) -> MatchHeader:
        """The header of the next round: its players, and the rules of its deal (contract's)."""
        header = self.header.at_round(self.next_round)
        return replace(header, rules=header.rules.for_deal(self.next_deal), carried=self.carried)

    @property
    def carried(self) -> Any:
        """What the game carries into the next round (its Tracker's state), or None."""
        tracker = self.rules.tracker
        return None if tracker is None else tracker.state(self.rules, self.header, self.rounds)

    def start_round(self) -> RoundInProgress:
        """The next round, with nothing on the table yet."""
        if self.finished or self.next_dealer is None:
            raise self._over_error()
        return RoundInProgress.start(self.round_header(), self.next_dealer, self.next_round)

    def _over_error(self) -> RuleError:
        winners = join_reasons(list(self.winners)) if self.winners else Reason.of(NOBODY)
        return RuleError(MATCH_OVER, round=self.next_round, last=len(self.rounds), winners=winners)

    def standings(self) -> tuple[Standing, ...]:
        """Everyone who has sat at the table in the game's order (:mod:`referee.standings`)."""
        return standings(self)

    @property
    def leaders(self) -> tuple[str, ...]:
        """Who leads (the winners once the match is over; none before the first round)."""
        return leaders(self)

    @property
    def columns(self) -> Any:
        """The sheet's columns where the game keeps some (Hollywood gin's
        :class:`~referee.hollywood.HollywoodSheet`), else None."""
        if self.rules.sheet_columns is None:
            return None
        return self.rules.sheet_columns(self.rules, self.header.players, _scored(self.rounds))

    def sheet_rows(self) -> tuple[SheetRow, ...]:
        """The score sheet's rows: rounds, seating changes, rejoins, match-end bonuses."""
        return sheet_rows(self)

    def rules_of_round(self, number: int, inputs: Mapping[str, Any] | None = None) -> Ruleset:
        """The rules round ``number`` is (or will be) played by: its deal's contract and size
        where they change from deal to deal (void rounds are no deal), and, given the round's
        inputs (gin's Oklahoma upcard), what they set (the knock limit)."""
        rules = self.rules.for_deal(self.deal_of(number))
        return rules.for_round(inputs) if inputs else rules

    def rejoin_total(self, player: str) -> int | None:
        """The total ``player`` would come back into the pool with before the next round, or
        None when they may not come back."""
        try:
            return self.rejoin((player,), self.next_round).totals[player]
        except RefereeError:
            return None

    def can_rejoin(self, player: str) -> bool:
        return self.rejoin_total(player) is not None

    def dealer_after_rejoin(self, players: Sequence[str]) -> str | None:
        """Who deals the next round when ``players`` come back before it (the next dealer
        when none does, or when they may not)."""
        if not players:
            return self.next_dealer
        try:
            return self.rejoin(tuple(players), self.next_round).next_dealer
        except RefereeError:
            return self.next_dealer

    def play(self, record: RoundRecord | Mapping[str, Any]) -> MatchState:
        """This match with one more round, or :class:`RefereeError` for that round.

        A seating change before the round after it is made at once (see :meth:`reseat`).
        """
        number = self.next_round
        if not isinstance(record, RoundRecord):
            record = read_round(record, self.header, number)
        if self.finished or self.next_dealer is None:
            raise self._over_error()
        state = self
        try:
            if record.rejoin:
                state = self.rejoin(record.rejoin, number)
            header = state.header.at_round(number)
            header = replace(
                header, rules=header.rules.for_deal(state.next_deal), carried=state.carried
            )
            dealt = state.rules.players_dealt(state.totals, header.players)
            if dealt != header.players:
                header = replace(header, players=dealt, seated=header.players)
            assert state.next_dealer is not None
            result = score_round(header, record, state.next_dealer, number)
        except RefereeError as error:
            raise error.at(round=number) from None
        return state._after(result).reseat()

    def rejoin(self, players: tuple[str, ...], number: int) -> MatchState:
        """The match with ``players`` back in a pool before round ``number``, with the totals
        the ruleset gives them; the deal then moves on from the last deal's dealer as if
        they had been in (:class:`RuleError` when they may not come back, or the match is over)."""
        if self.finished:
            raise self._over_error()
        counted = [result for result in self.rounds if not result.is_void]
        before = self.history[-2] if len(self.history) >= 2 else dict.fromkeys(self.totals, 0)
        came_back = frozenset(rejoin.player for rejoin in self.rejoins)
        new = self.rules.rejoin_totals(players, self.totals, before, self.players, came_back)
        totals = {**self.totals, **new}
        dealer = self.next_dealer
        after_void = bool(self.rounds) and self.rounds[-1].is_void  # the same dealer again
        if counted and not after_void:
            last = counted[-1]
            progress = MatchProgress(
                self.players,
                self._anchor(last),
                RoundScore(last.outcome, last.winners, last.scores),
                totals,
                len(counted),
                self.rounds_won,
                self.history,
            )
            dealer = self.rules.next_dealer(self.rules, progress)
        rejoins = tuple(Rejoin(number, player, new[player]) for player in players)
        return replace(self, totals=totals, next_dealer=dealer, rejoins=self.rejoins + rejoins)

    @property
    def may_be_stopped(self) -> bool:
        """Whether its players may end the match now: it has no fixed end (its ruleset's
        :class:`~referee.rulesets.base.Stopping`) and is not over."""
        return self.rules.open_ended and not self.finished

    def stop(self) -> MatchState:
        """The match ended by its players (no fixed end): the highest total wins, a tie is
        a shared win."""
        if self.finished:
            return self
        seated = self.seated_sides
        decide = self.rules.stopping.winners if self.rules.stopping is not None else None
        winners = (
            best_players(self.totals, seated)
            if decide is None
            else tuple(decide(self.rules, self.totals, self.rounds_won, seated))
        )
        return replace(self, finished=True, winners=winners, next_dealer=None)

    def _after(self, result: RoundResult) -> MatchState:
        rounds = self.rounds + (result,)
        if result.is_void:
            return replace(self, rounds=rounds)
        seated = self.players
        totals = dict(self.totals)
        won = dict(self.rounds_won)
        for side in self.seated_sides:
            totals[side] += result.scores.get(side, 0)
            won[side] += side in result.winners
        history = self.history + (totals,)
        progress = MatchProgress(
            seated,
            result.dealer,
            RoundScore(result.outcome, result.winners, result.scores),
            totals,
            len(history),
            won,
            history,
            _scored(rounds),
            replace(self, rounds=rounds).carried if self.rules.tracker is not None else None,
            self.seated_sides if self.header.teams else (),
        )
        end = self.rules.match_end(self.rules, progress)
        if end.finished:
            bonuses = {p: end.bonuses.get(p, 0) for p in totals}
            totals = {p: totals[p] + bonuses[p] for p in totals}
            return replace(
                self,
                rounds=rounds,
                totals=totals,
                finished=True,
                winners=end.winners,
                next_dealer=None,
                bonuses=bonuses,
                rounds_won=won,
                history=history,
            )
        dealer = self.rules.next_dealer(self.rules, progress)
        return replace(
            self, rounds=rounds, totals=totals, next_dealer=dealer, rounds_won=won, history=history
        )

    def reseat(self) -> MatchState:
        """The match with the header's seating change before the next round made, if any.

        A newcomer starts with the lowest total of the players seated before the
        change (a player who comes back keeps their own).  Then the ruleset's dealer
        rule is applied again, to the new seating, as if it had been so when the last
        counted round ended: the deal passes clockwise from that round's dealer, so a
        newcomer seated at their left deals next.  When that dealer has left, the deal
        goes on from their seat: to the first player who stays clockwise after them,
        newcomers seated between them and that player counting as seated on the
        departed dealer's right.  Before any counted round, the player due to deal still
        deals, or, if they left, the first player who stays clockwise after them.
        """
        number = self.next_round
        change = self.header.change_before(number)
        if change is None:
            return self
        if self.finished or self.next_dealer is None:
            raise self._over_error()
        before, seated = self.header.seating(number - 1), change.players
        still_in = self.rules.players_dealt(self.totals, before) or before
        pick = max if lowest_leads(self.rules) else min  # the least favourable total
        least_favourable = pick(self.totals[p] for p in still_in)
        starting = {p: least_favourable for p in seated if p not in self.totals}
        totals = {**self.totals, **starting}
        won = {**self.rounds_won, **dict.fromkeys(starting, 0)}
        counted = [result for result in self.rounds if not result.is_void]
        if not counted:
            due = self.next_dealer
            dealer = due if due in seated else _taking_over(due, before, seated)
        else:
            last = counted[-1]
            progress = MatchProgress(
                seated,
                self._anchor(last, seated),
                RoundScore(last.outcome, last.winners, last.scores),
                totals,
                len(counted),
                won,
                self.history,
            )
            dealer = self.rules.next_dealer(self.rules, progress)
        reseating = Reseating(
            number,
            seated,
            tuple(p for p in seated if p not in before),
            tuple(p for p in before if p not in seated),
            starting,
        )
        reseated = replace(
            self,
            totals=totals,
            rounds_won=won,
            next_dealer=dealer,
            reseatings=self.reseatings + (reseating,),
        )
        left_in = self.rules.players_dealt(totals, seated)
        if len(left_in) == 1 and len(seated) > 1:  # a pool that a departure left to one player
            return replace(reseated, finished=True, winners=left_in, next_dealer=None)
        return reseated

    def _anchor(self, last: RoundResult, seated: tuple[str, ...] | None = None) -> str:
        """Whom the deal passes on from after round ``last``, to ``seated`` (the players of
        the next round): its dealer, or, when they have left, the seat on the right of the
        first player who stays clockwise after them."""
        seated = self.players if seated is None else seated
        if last.dealer in seated:
            return last.dealer
        heir = _taking_over(last.dealer, self.header.seating(last.number), seated)
        return seat_after(seated, heir, -1)

    def facts(self, *, rounds: bool = True) -> dict[str, Any]:
        """The state as plain JSON values, all that the next round's replay reads of it (and
        a match's summary): :meth:`from_facts` with the same header makes it again, so that
        a kept state goes on without the whole match being replayed.  The mappings keep
        their order (``everyone`` is the order of ``totals``).

        ``rounds`` false: without what grows with the match (each round's facts and the
        totals' history), which :meth:`round_facts` gives a round at a time, and with the
        number of its rounds (``round_count``): a state kept so is written a round at a time.
        """
        kept: dict[str, Any] = {}
        if rounds:
            kept["rounds"] = [result.facts() for result in self.rounds]
        else:
            kept["round_count"] = len(self.rounds)
        kept |= {
            "totals": dict(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
            "bonuses": dict(self.bonuses),
            "rounds_won": dict(self.rounds_won),
        }
        if rounds:
            kept["history"] = [dict(totals) for totals in self.history]
        return kept | {
            "reseatings": [
                reseating.to_json() | {"players": list(reseating.players)}
                for reseating in self.reseatings
            ],
            "rejoins": [rejoin.to_json() for rejoin in self.rejoins],
        }

    def round_facts(self, start: int = 0) -> list[dict[str, Any]]:
        """The facts of the rounds from the one at index ``start`` on (:meth:`RoundResult.facts`),
        each with the totals after it under ``totals_after`` when it counted (a void round
        adds nothing to the totals' history): with :meth:`facts` ``(rounds=False)``, all of
        :meth:`facts`, kept a round at a time (:func:`joined_facts`)."""
        counted = self.deal_of(start + 1) - 1  # the totals' history has a row a deal
        found = []
        for result in self.rounds[start:]:
            facts = result.facts()
            if not result.is_void:
                facts["totals_after"] = dict(self.history[counted])
                counted += 1
            found.append(facts)
        return found

    @classmethod
    def from_facts(
        cls,
        header: MatchHeader,
        facts: Mapping[str, Any],
        rounds: Sequence[Mapping[str, Any]] | None = None,
    ) -> MatchState:
        """The state of :meth:`facts`, for the match of ``header`` (the one it was replayed
        from); its rounds with the score sheet's detail at most (:meth:`RoundResult.from_facts`).
        ``rounds`` given: ``facts`` are of ``facts(rounds=False)`` and ``rounds`` of
        :meth:`round_facts` (ValueError when they are not as many as the state had)."""
        if rounds is not None:
            facts = joined_facts(facts, rounds)
        return cls(
            header,
            rounds=tuple(RoundResult.from_facts(result) for result in facts["rounds"]),
            totals=dict(facts["totals"]),
            finished=facts["finished"],
            winners=tuple(facts["winners"]),
            next_dealer=facts["next_dealer"],
            bonuses=dict(facts["bonuses"]),
            rounds_won=dict(facts["rounds_won"]),
            history=tuple(dict(totals) for totals in facts["history"]),
            reseatings=tuple(
                Reseating(
                    change["before_round"],
                    tuple(change["players"]),
                    tuple(change["joined"]),
                    tuple(change["left"]),
                    dict(change["starting_totals"]),
                )
                for change in facts["reseatings"]
            ),
            rejoins=tuple(
                Rejoin(rejoin["before_round"], rejoin["player"], rejoin["total"])
                for rejoin in facts["rejoins"]
            ),
        )

    def _round_json(self, result: RoundResult, before: Mapping[str, int]) -> dict[str, Any]:
        out = result.to_json()
        if self.rules.round_facts is not None and not result.is_void:
            out |= self.rules.round_facts(self.rules_of_round(result.number))
        if self.rules.from_totals is not None and not result.is_void:
            out[self.rules.from_totals.key] = dict(self.rules.from_totals.facts(self.rules, before))
        return out

    def _rounds_json(self) -> list[dict[str, Any]]:
        """Each round's replay output, with what the game says of it from the totals before it."""
        before: Mapping[str, int] = dict.fromkeys(self.header.sides_of(self.header.players), 0)
        found, counted = [], 0
        for result in self.rounds:
            found.append(self._round_json(result, before))
            if not result.is_void and counted < len(self.history):
                before = self.history[counted]
                counted += 1
        return found

    def to_json(self) -> dict[str, Any]:
        """Exactly the output of ``referee replay --json`` (with ``seating_changes`` and
        the ``players`` seated last when the seating changed)."""
        out = {
            "rounds": self._rounds_json(),
            "totals": dict(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
        }
        if self.reseatings:
            out["players"] = list(self.players)
            out["seating_changes"] = [reseating.to_json() for reseating in self.reseatings]
        if self.rejoins:
            out["rejoins"] = [rejoin.to_json() for rejoin in self.rejoins]
        columns = self.columns
        if columns is not None:  # the totals are the sums of the columns' totals
            out |= columns.to_json()
            out["totals"] = {**self.totals, **columns.totals}
        if self.rules.tracker is not None:
            out |= self.rules.tracker.facts(self.carried)
        if self.rules.from_totals is not None:
            from_totals = self.rules.from_totals
            out[from_totals.next_key] = dict(from_totals.facts(self.rules, self.totals))
        out["standings"] = [standing.to_json() for standing in self.standings()]
        if self.rules.replay_facts is not None:
            out |= self.rules.replay_facts(self, out)
        return out


def _scored(rounds: Iterable[RoundResult]) -> tuple[RoundScore, ...]:
    """The counted rounds' scores, in order (a void round is no round)."""
    return tuple(
        RoundScore(result.outcome, result.winners, result.scores)
        for result in rounds
        if not result.is_void
    )


def joined_facts(facts: Mapping[str, Any], rounds: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The facts of a state (:meth:`MatchState.facts`) from those kept a round at a time: its
    own (``facts(rounds=False)``) and its rounds' (:meth:`MatchState.round_facts`); ValueError
    when the rounds are not as many as the state had."""
    if facts["round_count"] != len(rounds):
        raise ValueError(f"{len(rounds)} rounds' facts for a state of {facts['round_count']}")
    whole = {name: value for name, value in facts.items() if name != "round_count"}
    whole["rounds"] = [
        {name: value for name, value in result.items() if name != "totals_after"}
        for result in rounds
    ]
    whole["history"] = [result["totals_after"] for result in rounds if "totals_after" in result]
    return whole


def facts_agree(kept: Mapping[str, Any], whole: Mapping[str, Any]) -> bool:
    """Whether the facts kept of a state are those of the whole replay (both of
    :meth:`MatchState.facts`), but for rounds kept without the score sheet's detail (by an
    engine that did not keep it yet): a state with less detail, not another state."""
    if kept == whole:
        return True
    if not isinstance(kept, Mapping) or not isinstance(whole, Mapping):
        return False
    kept_rounds, rounds = kept.get("rounds"), whole.get("rounds")
    if not isinstance(kept_rounds, list) or not isinstance(rounds, list):
        return False
    if len(kept_rounds) != len(rounds):
        return False
    lessened = [
        result
        if isinstance(held, Mapping) and "sheet" in held
        else {name: value for name, value in result.items() if name != "sheet"}
        for held, result in zip(kept_rounds, rounds, strict=True)
    ]
    return dict(kept) == dict(whole) | {"rounds": lessened}


def _taking_over(player: str, seating: tuple[str, ...], seated: tuple[str, ...]) -> str:
    """Who takes over from ``player`` (sitting in ``seating``, no longer in ``seated``): the
    first player clockwise after them who is still seated (the first seated if none is)."""
    start = seating.index(player)
    for step in range(1, len(seating)):
        candidate = seating[(start + step) % len(seating)]
        if candidate in seated:
            return candidate
    return seated[0]


def replay(document: str | bytes | Mapping[str, Any], *, as_played: bool = False) -> MatchState:
    """Replay a whole ``referee-match/1`` document; raise :class:`RefereeError` on any fault.
    ``as_played``: a match stored before the option ranges existed, replayed with its
    options as recorded (see :func:`~referee.matchfile.read_header`).

    >>> state = replay({"rules": "remi", "players": ["Budi", "Siti"],
    ...                 "rounds": [{"out": "Siti", "hands": {"Budi": ["10H", "QS"]}}]})
    >>> state.totals, state.next_dealer
    ({'Budi': 0, 'Siti': 20}, 'Siti')
    """
    return replay_match(read_match(document, as_played=as_played))


def replay_match(match: Match) -> MatchState:
    state = MatchState.start(match.header)  # round 1 has no seating change
    for record in match.rounds:
        state = state.play(record)
    return state.stop() if match.header.stopped else state


def live_round(
    document: str | bytes | Mapping[str, Any],
    turns: Iterable[Turn | Mapping[str, Any]] = (),
    *,
    as_played: bool = False,
) -> RoundInProgress:
    """The next round of a match (its complete rounds replayed), with ``turns`` applied;
    ``as_played`` as for :func:`replay`."""
    state = replay(document, as_played=as_played)
    live = state.start_round()
    for turn in turns:
        live = live.apply_turn(turn)
    return live


# -- one round -------------------------------------------------------------------------------


def side_scores(header: MatchHeader, scores: Mapping[str, int]) -> dict[str, int]:
    """A round's score per seated side: as the ruleset gave it to the sides, or, where it
    scored the players, each side's partners' scores added up (a player alone: their own)."""
    sides = header.sides_of(header.players)
    if all(side in scores for side in sides):
        return {side: scores[side] for side in sides}
    return {
        side: sum(scores[player] for player in header.members(side) if player in scores)
        for side in sides
    }


def score_round(
    header: MatchHeader, record: RoundRecord, dealer: str, number: int = 1
) -> RoundResult:
    """Check one round against the rules and score it (errors carry the round number)."""
    try:
        return _score_round(header, record, dealer, number)
    except RefereeError as error:
        raise error.at(round=number) from None


def _score_round(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> RoundResult:
    header = replace(header, rules=header.rules.for_round(record.inputs))
    rules, players = header.rules, header.players
    check = rules.check_round or final_state
    state = check(header, record, dealer, number)
    facts = state.ending
    if header.teams and not facts.teams:
        facts = replace(facts, teams={team.name: team.members for team in header.teams})
    if facts.ending is Ending.VOID:
        score = nobody_scores(facts, Outcome.VOID)
        scores = side_scores(header, score.scores)
        return RoundResult(
            number, dealer, Outcome.VOID, (), scores, notes=score.notes, record=record
        )
    score = rules.score_round(rules, facts)
    hands, player = facts.hands, facts.player
    went_out = player if facts.ending is Ending.OUT else None
    bought = Counter(turn.buy.player for turn in record.turns or () if turn.buy is not None)
    made: tuple[str, ...] = ()
    if rules.contract is not None:  # down with the contract: a meld on the table, or out
        owners = {meld.player for meld in facts.table}
        made = tuple(p for p in players if p == went_out or p in owners)
    return RoundResult(
        number,
        dealer,
        score.outcome,
        tuple(dict.fromkeys(header.side_of(winner) for winner in score.winners)),
        side_scores(header, score.scores),
        at_once=facts.at_once,
        undercut=score.undercut,
        knocker=player if facts.ending is Ending.KNOCK else None,
        went_out=went_out,
        closing_card=facts.closing_card,
        hands=hands,
        hand_values=dict(score.hand_values) or {p: rules.hand_value(c) for p, c in hands.items()},
        melds_by_player=state.melds,
        table=facts.table,
        table_values=score.table_values,
        notes=score.notes,
        record=record,
        adjudication=score.adjudication,
        points=facts.points,
        unchecked=state.unchecked,
        bought=dict(bought),
        contracts_made=made,
        kept=state.kept,
    )


__all__ = [
    "Detail",
    "EMPTY_HAND_IS_OUT",
    "HAND_MISSING",
    "MATCH_OVER",
    "LaidOffCard",
    "MatchState",
    "Reseating",
    "RoundInProgress",
    "Rejoin",
    "RoundResult",
    "TableMeld",
    "facts_agree",
    "joined_facts",
    "live_round",
    "read_header",
    "replay",
    "replay_match",
    "score_round",
    "side_scores",
]
