"""A match as a log of rounds, replayed into scores, dealers and winners.

The web app stores every round exactly as it was entered and asks this module
what it adds up to; nothing derived is trusted over the log.

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

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from referee.cards import Card
from referee.errors import MatchFileError, RefereeError, RuleError
from referee.integrity import (
    PLACE_CLOSING,
    PLACE_HAND,
    PLACE_PLAYER_MELD,
    CardPlaces,
    join_reasons,
    physical_card,
)
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
from referee.notation import format_cards
from referee.round import (
    NO_TURNS,
    LaidOffCard,
    RoundInProgress,
    TableMeld,
    add_table_places,
    laid_melds,
)
from referee.rulesets import MatchProgress, Ruleset, TurnStyle
from referee.scoring import Ending, Outcome, RoundEnding, RoundScore, nobody_scores

if TYPE_CHECKING:
    from referee.gin import Adjudication

# -- messages --------------------------------------------------------------------------------

ENDING_NOT_IN_RULES = define_message(
    "round.ending_not_in_rules", 'a round of {rules} cannot end "{ending}"'
)
TWO_ENDINGS = define_message(
    "round.two_endings", "a round ends one way only, but this one gives {first} and {second}"
)
OUT_CONTRADICTS = define_message(
    "round.out_contradicts",
    '"{field}" says {said}, but the turns show {player} going out in turn {turn_number}',
)
OUT_NOT_IN_TURNS = define_message(
    "round.out_not_in_turns",
    '"{field}" says {player} went out, but no turn is marked "out": true; mark the turn in '
    "which the hand became empty",
)
OUT_BUT_ENDED = define_message(
    "round.out_but_ended",
    '{player} went out in turn {turn_number}, so the round cannot end "{ending}"',
)
AT_ONCE_SAID_TRUE = define_message(
    "round.at_once_said_true",
    '"at_once" is true, but {player} had already put cards on the table in turn {turn_number}',
)
AT_ONCE_SAID_FALSE = define_message(
    "round.at_once_said_false",
    '"at_once" is false, but {player} put no card on the table before going out in turn '
    "{turn_number}: that is going out all at once",
)
HAND_MISSING = define_message(
    "round.hand_missing",
    '{player}\'s hand is missing: give the cards left in every hand under "hands"',
)
OUT_HAND_NOT_EMPTY = define_message(
    "round.out_hand_not_empty", "{player} went out, so {player}'s hand is empty, not {cards}"
)
EMPTY_HAND_IS_OUT = define_message(
    "round.empty_hand_is_out",
    "{player}'s hand is empty, but an empty hand ends the round with that player going out",
)
HAND_TOO_BIG = define_message(
    "round.hand_too_big",
    "{player} holds {count} cards; in a {players}-player game of {rules} a hand never holds "
    "more than {dealt}",
)
HAND_COUNT = define_message(
    "round.hand_count",
    "{player} was dealt {dealt} cards and put {played} on the table, so holds {expected}, "
    "not {count}",
)
HAND_COUNT_TAKEN = define_message(
    "round.hand_count_taken",
    "{player} was dealt {dealt} cards, took {taken} more from the discard pile and put {played} "
    "on the table, so holds {expected}, not {count}",
)
HAND_SIZE_FIXED = define_message(
    "round.hand_size_fixed",
    "{player}'s hand holds {count} cards; when a round of {rules} is scored each hand holds {size}",
)
KNOCK_TOO_HIGH = define_message(
    "round.knock_too_high",
    "{player} cannot knock with a hand worth {value}: a knock in {rules} needs {limit} or less",
)
CLOSING_CARD_MISSING = define_message(
    "round.closing_card_missing", 'the round was closed: give the "closing_card" {player} discarded'
)
CLOSING_CARD_CONTRADICTS = define_message(
    "round.closing_card_contradicts",
    '"closing_card" says {said}, but {player} discarded {card} in turn {turn_number}',
)
MELDS_CONTRADICT = define_message(
    "round.melds_contradict",
    '"melds" for {player} do not match the melds laid in the turns',
)
ONLY_KNOCKER_MELDS = define_message(
    "round.only_knocker_melds", "\"melds\" gives the knocker's spread only, so only {player}'s"
)
KNOCKER_MELD_NOT_IN_HAND = define_message(
    "round.knocker_meld_not_in_hand", "{card} is in {player}'s melds but not in {player}'s hand"
)
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
        return {
            "dealer": self.dealer,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "scores": dict(self.scores),
        }


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
        counted = sum(1 for r in rounds if not r.is_void)
        progress = MatchProgress(
            self.players,
            result.dealer,
            RoundScore(result.outcome, result.winners, result.scores),
            totals,
            counted,
            won,
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


def _ending_of(rules: Ruleset, record: RoundRecord) -> tuple[Ending | None, str | None]:
    """The ending a round states (``None`` when only the turns can say) and who it names."""
    stated: list[tuple[str, Ending, str | None]] = []
    if record.end is not None:
        stated.append((f'"end": "{record.end}"', Ending(record.end), None))
    if record.knock is not None:
        stated.append(('"knock"', Ending.KNOCK, record.knock))
    out = record.out
    if rules.closing_card and record.closer is not None:
        if out is not None and out != record.closer:
            raise RuleError(TWO_ENDINGS, first='"out"', second='"closer"')
        out = record.closer
    if out is not None:
        stated.append(('"out"' if record.out is not None else '"closer"', Ending.OUT, out))
    if len(stated) > 1:
        raise RuleError(TWO_ENDINGS, first=stated[0][0], second=stated[1][0])
    if not stated:
        return None, None
    _, ending, player = stated[0]
    if ending not in rules.endings:
        raise RuleError(ENDING_NOT_IN_RULES, rules=rules.name, ending=ending.value)
    return ending, player


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
    ending, player = _ending_of(rules, record)
    if ending is Ending.VOID:
        score = nobody_scores(RoundEnding(Ending.VOID, players), Outcome.VOID)
        return RoundResult(
            number, dealer, Outcome.VOID, (), score.scores, notes=score.notes, record=record
        )
    live = None
    if record.turns is not None:
        if rules.turn_style is TurnStyle.NONE:
            raise RuleError(NO_TURNS, rules=rules.name)
        live = RoundInProgress.start(header, dealer, number)
        for turn in record.turns:
            live = live.apply_turn(turn)
        ending, player = _reconcile_turns(rules, live, ending, player, record)
    if ending is None:
        raise RuleError(rules.no_ending_message)
    at_once = _at_once(rules, live, record, player) if ending is Ending.OUT else False
    hands = _hands(rules, players, record, ending, player)
    melds = _final_melds(rules, players, record, live)
    closing = _closing_card(rules, record, live, ending, player)
    knocker_melds = _knocker_melds(rules, record, ending, player, hands)
    _verify_hand_sizes(rules, players, hands, live, ending, player)
    _verify_round_integrity(rules, players, hands, live, record, closing)
    if (
        ending is Ending.KNOCK
        and rules.knock_limit is not None
        and rules.turn_style is not (TurnStyle.NONE)
    ):
        assert player is not None
        value = rules.hand_value(hands[player])
        if value > rules.knock_limit:
            raise RuleError(
                KNOCK_TOO_HIGH,
                player=player,
                value=value,
                rules=rules.name,
                limit=rules.knock_limit,
            )
    facts = RoundEnding(
        ending,
        players,
        hands,
        player,
        at_once,
        {p: tuple(meld.cards for meld in melds.get(p, ())) for p in players},
        closing,
        knocker_melds,
    )
    score = rules.score_round(rules, facts)
    return RoundResult(
        number,
        dealer,
        score.outcome,
        score.winners,
        {p: score.scores[p] for p in players},
        at_once=at_once,
        undercut=score.undercut,
        knocker=player if ending is Ending.KNOCK else None,
        went_out=player if ending is Ending.OUT else None,
        closing_card=closing,
        hands=hands,
        hand_values=dict(score.hand_values) or {p: rules.hand_value(c) for p, c in hands.items()},
        melds_by_player=melds,
        table=live.table if live is not None else (),
        notes=score.notes,
        record=record,
        adjudication=score.adjudication,
    )


def _reconcile_turns(
    rules: Ruleset,
    live: RoundInProgress,
    ending: Ending | None,
    player: str | None,
    record: RoundRecord,
) -> tuple[Ending | None, str | None]:
    """The ending as the turns show it, checked against what the round states."""
    key = "closer" if record.out is None and record.closer is not None else "out"
    if live.out is not None:
        if ending is Ending.OUT and player != live.out:
            raise RuleError(
                OUT_CONTRADICTS, field=key, said=player, player=live.out, turn_number=live.out_turn
            )
        if ending is not None and ending is not Ending.OUT:
            raise RuleError(
                OUT_BUT_ENDED, player=live.out, turn_number=live.out_turn, ending=ending.value
            )
        if Ending.OUT not in rules.endings:
            raise RuleError(ENDING_NOT_IN_RULES, rules=rules.name, ending=Ending.OUT.value)
        return Ending.OUT, live.out
    if ending is Ending.OUT:
        raise RuleError(OUT_NOT_IN_TURNS, field=key, player=player)
    return ending, player


def _at_once(
    rules: Ruleset, live: RoundInProgress | None, record: RoundRecord, player: str | None
) -> bool:
    if not rules.counts_at_once:
        return False
    if live is None:
        return bool(record.at_once)
    assert player is not None and live.out_turn is not None
    earlier = [turn for turn in live.play_turns(player) if turn != live.out_turn]
    shown = not earlier
    if record.at_once is not None and record.at_once != shown:
        if record.at_once:
            raise RuleError(AT_ONCE_SAID_TRUE, player=player, turn_number=earlier[0])
        raise RuleError(AT_ONCE_SAID_FALSE, player=player, turn_number=live.out_turn)
    return shown


def _hands(
    rules: Ruleset,
    players: tuple[str, ...],
    record: RoundRecord,
    ending: Ending,
    player: str | None,
) -> dict[str, tuple[Card, ...]]:
    """Every player's hand at the end (jokers bare), checked for presence and emptiness."""
    given = {
        p: tuple(physical_card(card) for card in cards) for p, cards in (record.hands or {}).items()
    }
    needed = ending not in (Ending.BLOCKED, Ending.DRAW)
    hands: dict[str, tuple[Card, ...]] = {}
    for p in players:
        went_out = ending is Ending.OUT and p == player
        if went_out:
            if given.get(p):
                raise RuleError(OUT_HAND_NOT_EMPTY, player=p, cards=format_cards(given[p]))
            hands[p] = ()
            continue
        if p not in given:
            if needed:
                raise MatchFileError(HAND_MISSING, player=p)
            continue
        if not given[p] and needed:
            stock_may_empty = ending is Ending.STOCK and rules.turn_style is TurnStyle.TABLE
            if not stock_may_empty:
                raise RuleError(EMPTY_HAND_IS_OUT, player=p)
        hands[p] = given[p]
    return hands


def _final_melds(
    rules: Ruleset,
    players: tuple[str, ...],
    record: RoundRecord,
    live: RoundInProgress | None,
) -> dict[str, tuple[Meld, ...]]:
    """The melds each player laid: from the turns, or (remi-indonesia's final table) "melds"."""
    if live is not None:
        from_turns = {p: live.melds_laid[p] for p in players if live.melds_laid[p]}
        if record.melds is not None and rules.turn_style is TurnStyle.MELDS:
            for p in players:
                stated = sorted(_meld_key(m) for m in record.melds.get(p, ()))
                shown = sorted(_meld_key(m.cards) for m in from_turns.get(p, ()))
                if stated != shown:
                    raise RuleError(MELDS_CONTRADICT, player=p)
        return from_turns
    if record.melds is None or rules.turn_style is not TurnStyle.MELDS:
        return {}
    laid = {p: laid_melds(rules, p, melds, has_run=False) for p, melds in record.melds.items()}
    return {p: melds for p, melds in laid.items() if melds}


def _meld_key(cards: Sequence[Card]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted(card.sort_key for card in cards))


def _closing_card(
    rules: Ruleset,
    record: RoundRecord,
    live: RoundInProgress | None,
    ending: Ending,
    player: str | None,
) -> Card | None:
    """remi-indonesia's closing card: the discard of the turn marked out, or "closing_card"."""
    if ending is not Ending.OUT or not rules.closing_card:
        return None
    if live is not None and live.closing_card is not None:
        if record.closing_card is not None and record.closing_card != live.closing_card:
            raise RuleError(
                CLOSING_CARD_CONTRADICTS,
                said=str(record.closing_card),
                player=player,
                card=str(live.closing_card),
                turn_number=live.out_turn,
            )
        return live.closing_card
    if record.closing_card is None:
        raise MatchFileError(CLOSING_CARD_MISSING, player=player)
    return physical_card(record.closing_card)


def _knocker_melds(
    rules: Ruleset,
    record: RoundRecord,
    ending: Ending,
    player: str | None,
    hands: Mapping[str, tuple[Card, ...]],
) -> tuple[tuple[Card, ...], ...] | None:
    """Gin's knocker spread, when given: only the knocker's, only cards from that hand."""
    if rules.turn_style is not TurnStyle.NONE or ending is not Ending.KNOCK:
        return None
    if not record.melds:
        return None
    assert player is not None
    others = [p for p in record.melds if p != player]
    if others:
        raise RuleError(ONLY_KNOCKER_MELDS, player=player)
    melds = record.melds.get(player, ())
    hand = Counter(hands[player])
    for card, count in Counter(card for meld in melds for card in meld).items():
        if count > hand[card]:
            raise RuleError(KNOCKER_MELD_NOT_IN_HAND, card=str(card), player=player)
    return tuple(melds)


def _verify_hand_sizes(
    rules: Ruleset,
    players: tuple[str, ...],
    hands: Mapping[str, tuple[Card, ...]],
    live: RoundInProgress | None,
    ending: Ending,
    player: str | None,
) -> None:
    """Hands as large as the rules and the turns allow: gin's 10, never more than dealt where
    hands never grow, and exactly what the turns leave when the round was entered turn by turn."""
    if rules.final_hand_size is not None:
        for p, cards in hands.items():
            if len(cards) != rules.final_hand_size:
                raise RuleError(
                    HAND_SIZE_FIXED,
                    player=p,
                    count=len(cards),
                    rules=rules.name,
                    size=rules.final_hand_size,
                )
    dealt = rules.deal_size(len(players))
    if rules.hand_never_grows:
        for p, cards in hands.items():
            if len(cards) > dealt:
                raise RuleError(
                    HAND_TOO_BIG,
                    player=p,
                    count=len(cards),
                    players=len(players),
                    rules=rules.id,
                    dealt=dealt,
                )
    if live is None or rules.turn_style is not TurnStyle.MELDS:
        return
    for p, cards in hands.items():
        if ending is Ending.OUT and p == player:
            continue
        expected = live.held[p]
        if len(cards) == expected:
            continue
        played = len(live.played[p])
        if live.taken_extra[p]:
            raise RuleError(
                HAND_COUNT_TAKEN,
                player=p,
                dealt=dealt,
                taken=live.taken_extra[p],
                played=played,
                expected=expected,
                count=len(cards),
            )
        raise RuleError(
            HAND_COUNT, player=p, dealt=dealt, played=played, expected=expected, count=len(cards)
        )


def _verify_round_integrity(
    rules: Ruleset,
    players: tuple[str, ...],
    hands: Mapping[str, tuple[Card, ...]],
    live: RoundInProgress | None,
    record: RoundRecord,
    closing: Card | None,
) -> None:
    """No card more often than the deck holds: hands, table, melds and closing card."""
    places = CardPlaces()
    for p in players:
        if p in hands:
            places.add(hands[p], Reason.of(PLACE_HAND, player=p))
    if live is not None:
        add_table_places(live.table, places)
    elif record.melds is not None and rules.turn_style is TurnStyle.MELDS:
        for p, melds in record.melds.items():
            for number, meld in enumerate(melds, 1):
                places.add(meld, Reason.of(PLACE_PLAYER_MELD, player=p, number=number))
    if closing is not None:
        places.add([closing], Reason.of(PLACE_CLOSING))
    places.verify(rules, len(players))


__all__ = [
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
