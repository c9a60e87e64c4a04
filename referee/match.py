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
    :class:`RoundInProgress` is a round entered turn by turn, as far as it
    has gone: the table (every meld numbered 1, 2, 3 ... with who laid it and
    who laid off each added card), each player's cards put down so far.
    :meth:`RoundInProgress.apply_turn` checks one more turn and returns the
    new state, or raises :class:`~referee.errors.RuleError` (with the round
    and turn) and changes nothing; :meth:`RoundInProgress.melds_accepting`
    says which melds could take a card as a lay-off, for highlighting.
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
from typing import Any

from referee.cards import Card
from referee.errors import MatchFileError, RefereeError, RuleError
from referee.matchfile import (
    Match,
    MatchHeader,
    RoundRecord,
    Turn,
    dump_cards,
    read_header,
    read_match,
    read_round,
    read_turn,
)
from referee.melds import AND, Meld, MeldKind, check_layoff, verify_layoff, verify_meld
from referee.messages import Reason, define_message
from referee.notation import format_card, format_cards, parse_card
from referee.rulesets import MatchProgress, Ruleset, TurnStyle
from referee.scoring import Ending, Outcome, RoundEnding, RoundScore, nobody_scores
from referee.table import verify_turn as verify_table_turn

# -- messages --------------------------------------------------------------------------------

LIST_MORE = define_message("word.list", "{first}, {rest}")
PLACE_HAND = define_message("place.hand", "in {player}'s hand")
PLACE_MELD = define_message("place.meld", "in meld {number}")
PLACE_PLAYER_MELD = define_message("place.player_meld", "in {player}'s meld {number}")
PLACE_CLOSING = define_message("place.closing_card", "the closing card")
PLACE_TWICE = define_message("place.twice", "twice {place}")
PLACE_TIMES = define_message("place.times", "{count} times {place}")
DECK_ONE_COPY = define_message("deck.one_copy", "{card} is {places}")
DECK_COPIES = define_message(
    "deck.copies", "{card} is {places}, but the two decks hold only {copies} of it"
)
DECK_JOKERS = define_message(
    "deck.jokers", "a joker is {places}, but the deck has only {count} joker(s)"
)
DECK_NO_JOKERS = define_message(
    "deck.no_jokers", "there are no jokers in {rules}, but a joker is {places}"
)

ROUND_OVER = define_message(
    "round.over", "the round was already over: {player} went out in turn {turn_number}"
)
TURN_STYLE_MELDS = define_message(
    "round.turn_style_melds",
    'a turn of {rules} gives "melds" and "layoffs"; "played" and "table" are for manipulation',
)
TURN_STYLE_TABLE = define_message(
    "round.turn_style_table",
    'a turn of {rules} gives "played" (the cards put down from hand) and "table" (every meld '
    'on the table after the turn), not "melds" or "layoffs"',
)
NO_TURNS = define_message(
    "round.no_turns",
    "a round of {rules} is entered as its final hands, without turns",
)
TABLE_TURN_NEEDS = define_message("round.table_turn_needs", 'a turn of {rules} needs "{field}"')
NO_DISCARD_PILE = define_message("round.no_discard_pile", "there is no discard pile in {rules}")
TOP_DISCARD_ONLY = define_message(
    "round.top_discard_only", "only the top discard may be taken in {rules}, not {cards}"
)
TOP_THREE_ONLY = define_message(
    "round.top_three_only",
    "at most the top {depth} discards may be taken in {rules}, not {count} ({cards})",
)
DISCARDED_TAKEN = define_message(
    "round.discarded_taken",
    "{player} took {card} from the discard pile and may not discard it in the same turn",
)
TAKEN_LEFT_LAST = define_message(
    "round.taken_left_last",
    "{player} took {card} from the discard pile and may not meld or lay off so that it is "
    "the only card left in hand",
)
ALREADY_ON_TABLE = define_message(
    "round.already_on_table", "{card} is already on the table, in meld {number}"
)
TAKEN_FROM_TABLE = define_message(
    "round.taken_from_table",
    "{player} cannot take {card} from the discard pile: {card} is on the table, in meld {number}",
)
DISCARD_ON_TABLE = define_message(
    "round.discard_on_table",
    "{player} cannot discard {card}: {card} is on the table, in meld {number}",
)
TAKEN_KEPT_WHEN_OUT = define_message(
    "round.taken_kept_when_out",
    "{player} took {card} from the discard pile this turn and neither put it on the table "
    "nor discarded it, so {player}'s hand cannot be empty",
)
TAKEN_NOT_MELDED = define_message(
    "round.taken_not_melded",
    "{player} took {card} from the discard pile, so {card} must go at once, in this turn, "
    "into a meld with cards from hand",
)
RUN_FIRST = define_message(
    "round.run_first",
    "{player} may not lay down the set {cards} yet: in {rules} a player lays down a run "
    "before any set",
)
NO_SUCH_MELD = define_message(
    "round.no_such_meld", "there is no meld {number}: the table has melds 1 to {count}"
)
NO_MELD_YET = define_message(
    "round.no_meld_yet", "there is no meld {number}: no meld is on the table yet"
)
LAYOFF_FAILED = define_message("round.layoff_failed", "meld {number}: {reason}")
TOO_MANY_PUT_DOWN = define_message(
    "round.too_many_put_down",
    "{player} cannot put {count} cards down in this turn: with the {drawn} card(s) drawn, only "
    "{available} are in hand",
)
TAKE_LEAVES_NO_DISCARD = define_message(
    "round.take_leaves_no_discard",
    "{player} may not take {cards} from the discard pile: after melding, no card would be left "
    "to discard",
)
NOTHING_TO_DISCARD = define_message(
    "round.nothing_to_discard",
    "{player} has put every card down in this turn, so there is nothing left to discard",
)
MUST_DISCARD = define_message(
    "round.must_discard",
    "in {rules} the last card must be discarded: {player} may not meld or lay off the whole hand",
)
CLOSING_NEEDS_DISCARD = define_message(
    "round.closing_needs_discard",
    "{player} closes the round by discarding the last card, the closing card: give it as "
    '"discard" in the turn marked "out"',
)
NOT_MARKED_OUT = define_message(
    "round.not_marked_out",
    '{player} has no card left after this turn, so went out: mark the turn "out": true',
)
CANNOT_BE_OUT = define_message(
    "round.cannot_be_out",
    "{player} is not out: {count} card(s) are still in hand after this turn",
)
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

# -- places and deck integrity ---------------------------------------------------------------


def _join(items: Sequence[Reason | str]) -> Reason | str:
    """Items as 'a', 'a and b', 'a, b and c' (translatable)."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Reason.of(AND, first=items[0], second=items[1])
    return Reason.of(LIST_MORE, first=items[0], rest=_join(items[1:]))


def _physical(card: Card) -> Card:
    """The card as it is in the deck: a named joker is a joker."""
    return card.in_hand


@dataclass
class _Places:
    """Where every physical card of the round is, to check the deck's integrity."""

    seen: dict[Card, list[Reason]] = field(default_factory=dict)

    def add(self, cards: Iterable[Card], place: Reason) -> None:
        for card in cards:
            self.seen.setdefault(_physical(card), []).append(place)

    def verify(self, rules: Ruleset, players: int) -> None:
        copies, jokers = rules.copies(players), rules.joker_count(players)
        for card, places in self.seen.items():
            limit = jokers if card.is_joker else copies
            if len(places) <= limit:
                continue
            where = _join(_describe_places(places))
            if card.is_joker:
                if jokers == 0:
                    raise RuleError(DECK_NO_JOKERS, rules=rules.name, places=where)
                raise RuleError(DECK_JOKERS, places=where, count=jokers)
            if copies == 1:
                raise RuleError(DECK_ONE_COPY, card=str(card), places=where)
            raise RuleError(DECK_COPIES, card=str(card), places=where, copies=copies)


def _describe_places(places: list[Reason]) -> list[Reason]:
    """Each place once, with "twice" or "3 times" where several copies are there."""
    counted = Counter(place.text for place in places)
    described = []
    for text, place in {place.text: place for place in reversed(places)}.items():
        count = counted[text]
        if count == 1:
            described.append(place)
        elif count == 2:
            described.append(Reason.of(PLACE_TWICE, place=place))
        else:
            described.append(Reason.of(PLACE_TIMES, count=count, place=place))
    return described[::-1]


# -- the table of a round in progress --------------------------------------------------------


@dataclass(frozen=True)
class LaidOffCard:
    """A card added to a meld on the table, and who added it in which turn."""

    card: Card
    player: str
    turn: int


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: its number (1, 2, 3 ... in the order melds reached the table),
    who laid it and in which turn (``None`` on manipulation's shared table), the meld as it
    is now, and the cards laid off onto it."""

    number: int
    player: str | None
    turn: int | None
    meld: Meld
    layoffs: tuple[LaidOffCard, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.meld.cards

    @property
    def kind(self) -> MeldKind:
        return self.meld.kind

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "turn": self.turn,
            "kind": self.kind.value,
            "cards": dump_cards(self.cards),
            "layoffs": [
                {"card": format_card(lay.card), "player": lay.player, "turn": lay.turn}
                for lay in self.layoffs
            ],
        }


@dataclass(frozen=True)
class RoundInProgress:
    """A round entered turn by turn, as far as it has gone.

    ``number`` is the round's 1-based number in the match and ``dealer`` who
    dealt it; ``turns`` the turns applied so far.  ``table`` lists the melds
    on the table, numbered from 1 (see :class:`TableMeld`).  Per player:
    ``played`` the cards put down from hand so far (melds, lay-offs, or
    manipulation's ``played``); ``melds_laid`` the melds they laid (as laid);
    ``held`` how many cards they hold between turns and ``taken_extra`` how
    many more cards than one they have drawn by taking discards (for rounds
    entered with ``melds``).  ``out`` is who went out, in turn
    ``out_turn``; the round then takes no more turns.  ``closing_card`` is the
    card a remi-indonesia closer discarded.

    Build one with :meth:`start` (or :func:`live_round`, or
    :meth:`MatchState.start_round`) and add turns with :meth:`apply_turn`;
    every state is immutable.
    """

    header: MatchHeader
    number: int
    dealer: str
    turns: tuple[Turn, ...] = ()
    table: tuple[TableMeld, ...] = ()
    played: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    melds_laid: Mapping[str, tuple[Meld, ...]] = field(default_factory=dict)
    held: Mapping[str, int] = field(default_factory=dict)
    taken_extra: Mapping[str, int] = field(default_factory=dict)
    out: str | None = None
    out_turn: int | None = None
    closing_card: Card | None = None

    @classmethod
    def start(
        cls, header: MatchHeader, dealer: str | None = None, number: int = 1
    ) -> RoundInProgress:
        """A round with nothing on the table yet."""
        dealer = header.first_dealer if dealer is None else dealer
        return cls(
            header,
            number,
            dealer,
            played={player: () for player in header.players},
            melds_laid={player: () for player in header.players},
            held={player: header.rules.deal_size(len(header.players)) for player in header.players},
            taken_extra={player: 0 for player in header.players},
        )

    @property
    def rules(self) -> Ruleset:
        return self.header.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    @property
    def leader(self) -> str:
        """Who plays the first turn."""
        return self.header.seat_after(self.dealer, self.rules.leader_offset)

    @property
    def is_over(self) -> bool:
        return self.out is not None

    @property
    def used_cards(self) -> tuple[Card, ...]:
        """Every card on the table (named jokers as ``JK=..``)."""
        return tuple(card for meld in self.table for card in meld.cards)

    def play_turns(self, player: str) -> tuple[int, ...]:
        """The numbers of the turns in which ``player`` put cards on the table."""
        return tuple(
            number
            for number, turn in enumerate(self.turns, 1)
            if turn.player == player and turn.cards_put_down
        )

    def hand_size(self, player: str) -> int | None:
        """How many cards ``player`` holds between turns, where the turns tell.

        Turns entered with ``melds`` and ``layoffs`` tell: each turn draws one card from the
        stock (or takes the ``took_discard`` cards) and ends with a discard, unless the hand
        was emptied.
        """
        if self.rules.turn_style is not TurnStyle.MELDS:
            return None
        return self.held[player]

    def melds_accepting(self, card: str | Card) -> list[int]:
        """The numbers of the melds on the table that can take ``card`` as a lay-off."""
        card = parse_card(card) if isinstance(card, str) else card
        if self.rules.turn_style is not TurnStyle.MELDS or not self.rules.layoffs:
            return []
        on_table = sum(1 for used in self.used_cards if _physical(used) == _physical(card))
        if on_table >= self.rules.copies(len(self.players)):
            return []  # every copy of that card is already on the table
        return [
            meld.number for meld in self.table if check_layoff(meld.meld, [card], self.rules).legal
        ]

    def can_apply_turn(self, turn: Turn | Mapping[str, Any]) -> bool:
        """Whether :meth:`apply_turn` would accept ``turn``."""
        try:
            self.apply_turn(turn)
        except RefereeError:
            return False
        return True

    def apply_turn(self, turn: Turn | Mapping[str, Any]) -> RoundInProgress:
        """This round with one more turn, or :class:`RuleError` (this state is unchanged).

        ``turn`` is a :class:`~referee.matchfile.Turn` or a turn object of the match file.
        """
        index = len(self.turns) + 1
        if not isinstance(turn, Turn):
            turn = read_turn(turn, self.header, self.number, index)
        try:
            return self._apply(turn, index)
        except RefereeError as error:
            raise error.at(round=self.number, turn=index) from None

    def _apply(self, turn: Turn, index: int) -> RoundInProgress:
        rules = self.rules
        if self.out is not None:
            raise RuleError(ROUND_OVER, player=self.out, turn_number=self.out_turn)
        if rules.turn_style is TurnStyle.NONE:
            raise RuleError(NO_TURNS, rules=rules.name)
        if rules.turn_style is TurnStyle.TABLE:
            if turn.melds or turn.layoffs:
                raise RuleError(TURN_STYLE_TABLE, rules=rules.name)
            return self._apply_table_turn(turn, index)
        if turn.played is not None or turn.table is not None:
            raise RuleError(TURN_STYLE_MELDS, rules=rules.name)
        return self._apply_meld_turn(turn, index)

    # remi, rummy, remi-indonesia

    def _apply_meld_turn(self, turn: Turn, index: int) -> RoundInProgress:
        rules, player = self.rules, turn.player
        self._verify_taking(turn)
        for card in turn.cards_put_down:
            number = _meld_holding(self.table, card)
            if number is not None:
                raise RuleError(ALREADY_ON_TABLE, card=str(card), number=number)
        has_run = any(meld.kind is MeldKind.RUN for meld in self.melds_laid[player])
        new_melds = _laid_melds(rules, player, turn.melds, has_run)
        table = list(self.table) + [
            TableMeld(number, player, index, meld)
            for number, meld in enumerate(new_melds, len(self.table) + 1)
        ]
        for layoff in turn.layoffs:
            if layoff.onto > len(table):
                if not table:
                    raise RuleError(NO_MELD_YET, number=layoff.onto)
                raise RuleError(NO_SUCH_MELD, number=layoff.onto, count=len(table))
            target = table[layoff.onto - 1]
            try:
                extended = verify_layoff(target.meld, layoff.cards, rules)
            except RuleError as error:
                raise RuleError(
                    Reason.of(LAYOFF_FAILED, number=layoff.onto, reason=error.reason)
                ) from None
            added = tuple(LaidOffCard(card, player, index) for card in layoff.cards)
            table[layoff.onto - 1] = replace(target, meld=extended, layoffs=target.layoffs + added)
        _verify_table_integrity(rules, len(self.players), table)
        put_down = turn.cards_put_down
        self._verify_discarding(turn, put_down)
        _verify_discard_not_on_table(turn, table)
        left = self._verify_hand_after(turn, put_down)
        out = left <= 1
        closing = None
        if out and rules.closing_card:
            if turn.discard is None:
                raise RuleError(CLOSING_NEEDS_DISCARD, player=player)
            closing = turn.discard
        return replace(
            self,
            turns=self.turns + (turn,),
            table=tuple(table),
            played={**self.played, player: self.played[player] + put_down},
            melds_laid={**self.melds_laid, player: self.melds_laid[player] + new_melds},
            held={**self.held, player: max(left - 1, 0)},
            taken_extra={
                **self.taken_extra,
                player: self.taken_extra[player] + max(len(turn.took_discard) - 1, 0),
            },
            out=player if out else None,
            out_turn=index if out else None,
            closing_card=closing,
        )

    def _verify_taking(self, turn: Turn) -> None:
        rules, taken = self.rules, turn.took_discard
        if not taken:
            return
        for card in taken:
            number = _meld_holding(self.table, card)
            if number is not None:
                raise RuleError(TAKEN_FROM_TABLE, player=turn.player, card=str(card), number=number)
        if rules.discard_depth == 0:
            raise RuleError(NO_DISCARD_PILE, rules=rules.name)
        if len(taken) > rules.discard_depth:
            if rules.discard_depth == 1:
                raise RuleError(TOP_DISCARD_ONLY, rules=rules.name, cards=format_cards(taken))
            raise RuleError(
                TOP_THREE_ONLY,
                rules=rules.name,
                depth=rules.discard_depth,
                count=len(taken),
                cards=format_cards(taken),
            )

    def _verify_discarding(self, turn: Turn, put_down: tuple[Card, ...]) -> None:
        rules, taken, player = self.rules, turn.took_discard, turn.player
        if not taken:
            return
        if rules.discard_depth == 1 and turn.discard == taken[0]:
            raise RuleError(DISCARDED_TAKEN, player=player, card=str(taken[0]))
        if rules.taken_discard_melded_at_once:
            deepest = taken[-1]
            taken_counts = Counter(taken)
            for meld in turn.melds:
                from_hand = Counter(meld) - taken_counts
                if deepest in meld and sum(from_hand.values()) > 0:
                    return
            raise RuleError(TAKEN_NOT_MELDED, player=player, card=str(deepest))

    def _verify_hand_after(self, turn: Turn, put_down: tuple[Card, ...]) -> int:
        """How many cards are left in hand after the turn's plays, before the discard.

        0 or 1 means the hand is emptied (by the plays, or by discarding the last card).
        """
        rules, player = self.rules, turn.player
        drawn = len(turn.took_discard) or 1
        in_hand = self.held[player] + drawn
        left = in_hand - len(put_down)
        if left < 0:
            raise RuleError(
                TOO_MANY_PUT_DOWN,
                player=player,
                count=len(put_down),
                available=in_hand,
                drawn=drawn,
            )
        if left == 0:
            if turn.discard is not None:
                raise RuleError(NOTHING_TO_DISCARD, player=player)
            if rules.taken_discard_melded_at_once and turn.took_discard:
                raise RuleError(
                    TAKE_LEAVES_NO_DISCARD, player=player, cards=format_cards(turn.took_discard)
                )
            if rules.must_discard:
                raise RuleError(MUST_DISCARD, rules=rules.name, player=player)
        if left == 1 and rules.discard_depth == 1 and turn.took_discard:
            card = turn.took_discard[0]
            if card not in put_down:  # it is the last card, which must be discarded
                key = TAKEN_LEFT_LAST if rules.taken_discard_not_last else DISCARDED_TAKEN
                raise RuleError(key, player=player, card=str(card))
        if left <= 1:
            gone = put_down + ((turn.discard,) if turn.discard is not None else ())
            kept = Counter(turn.took_discard) - Counter(gone)
            for card in kept:
                raise RuleError(TAKEN_KEPT_WHEN_OUT, player=player, card=str(card))
        if left <= 1 and not turn.out:
            raise RuleError(NOT_MARKED_OUT, player=player)
        if left >= 2 and turn.out:
            raise RuleError(CANNOT_BE_OUT, player=player, count=left - 1)
        return left

    # manipulation

    def _apply_table_turn(self, turn: Turn, index: int) -> RoundInProgress:
        rules, player = self.rules, turn.player
        self._verify_taking(turn)
        if turn.played is None:
            raise RuleError(TABLE_TURN_NEEDS, rules=rules.name, field="played")
        if turn.table is None:
            raise RuleError(TABLE_TURN_NEEDS, rules=rules.name, field="table")
        before = tuple(meld.cards for meld in self.table)
        played = tuple(_physical(card) for card in turn.played)
        after = turn.table
        verify_table_turn(before, played, after, len(self.players), rules=rules)
        melds = [
            TableMeld(number, None, None, verify_meld(cards, rules))
            for number, cards in enumerate(after, 1)
        ]
        return replace(
            self,
            turns=self.turns + (turn,),
            table=tuple(melds),
            played={**self.played, player: self.played[player] + played},
            out=player if turn.out else None,
            out_turn=index if turn.out else None,
        )

    def to_json(self) -> dict[str, Any]:
        """The round so far, for the web app's table view."""
        return {
            "round": self.number,
            "dealer": self.dealer,
            "leader": self.leader,
            "table": [meld.to_json() for meld in self.table],
            "played": {player: dump_cards(cards) for player, cards in self.played.items()},
            "out": self.out,
        }


def _meld_holding(table: Sequence[TableMeld], card: Card) -> int | None:
    """The number of the meld on the table that holds this physical card, if any."""
    for meld in table:
        if any(_physical(held) == card for held in meld.cards):
            return meld.number
    return None


def _verify_discard_not_on_table(turn: Turn, table: Sequence[TableMeld]) -> None:
    if turn.discard is None:
        return
    number = _meld_holding(table, turn.discard)
    if number is not None:
        raise RuleError(DISCARD_ON_TABLE, player=turn.player, card=str(turn.discard), number=number)


def _table_places(table: Sequence[TableMeld], places: _Places) -> None:
    for meld in table:
        places.add(meld.cards, Reason.of(PLACE_MELD, number=meld.number))


def _verify_table_integrity(rules: Ruleset, players: int, table: Sequence[TableMeld]) -> None:
    places = _Places()
    _table_places(table, places)
    places.verify(rules, players)


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
    a round entered turn by turn; ``notes`` say how the score was counted.
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
        winners = _join(list(self.winners)) if self.winners else Reason.of(NOBODY)
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
    if not rules.at_once_doubles:
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
        p: tuple(_physical(card) for card in cards) for p, cards in (record.hands or {}).items()
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
    laid = {p: _laid_melds(rules, p, melds, has_run=False) for p, melds in record.melds.items()}
    return {p: melds for p, melds in laid.items() if melds}


def _laid_melds(
    rules: Ruleset, player: str, melds: Iterable[Sequence[Card]], has_run: bool
) -> tuple[Meld, ...]:
    """The melds ``player`` lays, each checked, and (``run_first``) no set before a run.

    ``has_run`` says whether the player laid a run earlier in the round.
    """
    laid = []
    for cards in melds:
        meld = verify_meld(cards, rules)
        if meld.kind is MeldKind.RUN:
            has_run = True
        elif rules.run_first and not has_run:
            raise RuleError(RUN_FIRST, player=player, cards=format_cards(cards), rules=rules.name)
        laid.append(meld)
    return tuple(laid)


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
    return _physical(record.closing_card)


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
    places = _Places()
    for p in players:
        if p in hands:
            places.add(hands[p], Reason.of(PLACE_HAND, player=p))
    if live is not None:
        _table_places(live.table, places)
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
