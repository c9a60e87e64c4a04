"""A round entered turn by turn, as far as it has gone.

:class:`RoundInProgress` holds the table (every meld numbered 1, 2, 3 ... with
who laid it and who laid off each added card) and what each player has put
down.  :meth:`RoundInProgress.apply_turn` checks one more turn and returns the
new state, or raises :class:`~referee.errors.RuleError` (with the round and
turn) and changes nothing; :meth:`RoundInProgress.melds_accepting` says which
melds could take a card as a lay-off, for the web app's highlighting.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.cards import Card
from referee.errors import RefereeError, RuleError
from referee.integrity import PLACE_MELD, CardPlaces, physical_card
from referee.matchfile import MatchHeader, Turn, dump_cards, read_turn
from referee.melds import Meld, MeldKind, check_layoff, check_meld, verify_layoff, verify_meld
from referee.messages import Reason, define_message
from referee.notation import format_card, format_cards, parse_card
from referee.rulesets import Ruleset, TurnStyle
from referee.table import verify_turn as verify_table_turn

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
ONLY_DREW_NOT_OUT = define_message(
    "round.only_drew_not_out",
    "{player} put nothing on the table in this turn (only drew), so cannot have gone out",
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
LAYOFF_BEFORE_OWN_MELD = define_message(
    "round.layoff_before_own_meld",
    "{player} may not lay off yet: with this house rule a player lays off only after laying "
    "a meld of their own in an earlier turn of the round",
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

DEEPEST_TAKEN_UNUSED = define_message(
    "round.deepest_taken_unused",
    "{player} took {count} cards from the discard pile, down to {card}, so {card} must be "
    "used in this same turn, in a new meld or a lay-off",
)
NOT_DOWN_YET = define_message(
    "round.not_down_yet",
    "{player} has not gone down yet: lay down the contract ({contract}) before laying off",
)
ALREADY_DOWN = define_message(
    "round.already_down",
    "{player} went down in turn {turn_number}: after the contract a player only lays off, "
    "never lays down a new meld",
)
CONTRACT_NOT_MET = define_message(
    "round.contract_not_met",
    "going down in deal {deal} lays exactly the contract, {contract}, in one turn; "
    "{player} laid {sets} set(s) and {runs} run(s)",
)
CONTRACT_SETS_SAME_RANK = define_message(
    "round.contract_sets_same_rank",
    "the sets of a contract are of different ranks: {first} and {second} are one rank",
)
CONTRACT_RUNS_JOIN = define_message(
    "round.contract_runs_join",
    "{first} and {second} join into one run: the runs of a contract must not join",
)
NO_BUYS = define_message("round.no_buys", "nobody buys a discard in {rules}")
BUY_IN_OWN_TURN = define_message(
    "round.buy_in_own_turn",
    "{player} cannot buy in their own turn: the player in turn takes the discard instead",
)
BUY_BUT_TAKEN = define_message(
    "round.buy_but_taken",
    "{player} took the discard in this turn, so nobody could buy it",
)
TOO_MANY_BUYS = define_message(
    "round.too_many_buys",
    "{player} has already bought {most} times in this deal: at most {most} buys a deal",
)
BOUGHT_FROM_TABLE = define_message(
    "round.bought_from_table",
    "{player} cannot buy {card}: every {card} is already on the table",
)

# -- the table of a round in progress --------------------------------------------------------


@dataclass(frozen=True)
class LaidOffCard:
    """A card added to a meld on the table, and who added it in which turn."""

    card: Card
    player: str
    turn: int | None  # None on a table entered as it was at the end of the round


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
    bought: Mapping[str, int] = field(default_factory=dict)

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
            bought={player: 0 for player in header.players},
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
        closing = self.rules.closing
        return self.header.seat_after(self.dealer, 0 if closing and closing.dealer_leads else 1)

    @property
    def is_over(self) -> bool:
        return self.out is not None

    def buys_left(self, player: str) -> int:
        """How many more discards ``player`` may buy in this deal (0 where none are bought)."""
        return max(self.rules.buys_per_deal - self.bought.get(player, 0), 0)

    @property
    def used_cards(self) -> tuple[Card, ...]:
        """Every card on the table (named jokers as ``JK=..``)."""
        return tuple(card for meld in self.table for card in meld.cards)

    def is_down(self, player: str) -> bool:
        """Whether ``player`` has laid a meld this round (in contract: gone down)."""
        return bool(self.melds_laid[player])

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

    def melds_accepting(self, card: str | Card, player: str | None = None) -> list[int]:
        """The numbers of the melds on the table that can take ``card`` as a lay-off (from
        ``player``, when given: in contract only a player who went down lays off)."""
        card = parse_card(card) if isinstance(card, str) else card
        if self.rules.turn_style is not TurnStyle.MELDS or not self.rules.layoffs:
            return []
        if self.rules.contract is not None and player is not None and not self.is_down(player):
            return []
        on_table = sum(1 for used in self.used_cards if physical_card(used) == physical_card(card))
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
        if turn.buy is not None and rules.buys_per_deal == 0:
            raise RuleError(NO_BUYS, rules=rules.name)
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
        bought = self._verify_buy(turn)
        one_deck = rules.copies(len(self.players)) == 1
        for card in turn.cards_put_down:  # jokers and several decks: the deck check says it
            number = self._all_copies_on_table(card) if one_deck and not card.is_joker else None
            if number is not None:
                raise RuleError(ALREADY_ON_TABLE, card=str(card), number=number)
        has_run = any(meld.kind is MeldKind.RUN for meld in self.melds_laid[player])
        new_melds = laid_melds(rules, player, turn.melds, has_run)
        if rules.contract is not None:
            self._verify_contract_turn(turn, new_melds)
        table = list(self.table) + [
            TableMeld(number, player, index, meld)
            for number, meld in enumerate(new_melds, len(self.table) + 1)
        ]
        if turn.layoffs and rules.melding.layoff_after_own_meld and not self.melds_laid[player]:
            raise RuleError(LAYOFF_BEFORE_OWN_MELD, player=player)
        if turn.layoffs and rules.contract and not (self.melds_laid[player] or new_melds):
            raise RuleError(NOT_DOWN_YET, player=player, contract=Reason.of(rules.contract.words))
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
        _verify_discard_not_on_table(rules, len(self.players), turn, table)
        left = self._verify_hand_after(turn, put_down)
        out = left <= 1
        closing = None
        if out and rules.closing is not None:
            if turn.discard is None:
                raise RuleError(CLOSING_NEEDS_DISCARD, player=player)
            closing = turn.discard
        return replace(
            self,
            turns=self.turns + (turn,),
            table=tuple(table),
            played={**self.played, player: self.played[player] + put_down},
            melds_laid={**self.melds_laid, player: self.melds_laid[player] + new_melds},
            held={**bought.get("held", self.held), player: max(left - 1, 0)},
            taken_extra={
                **self.taken_extra,
                player: self.taken_extra[player] + max(len(turn.took_discard) - 1, 0),
            },
            out=player if out else None,
            out_turn=index if out else None,
            closing_card=closing,
            bought=bought.get("bought", self.bought),
        )

    def _all_copies_on_table(self, card: Card) -> int | None:
        """The number of a meld holding ``card`` when every copy of it is on the table."""
        return _all_copies_on_table(self.rules, len(self.players), self.table, card)

    def _verify_buy(self, turn: Turn) -> dict[str, Any]:
        """A buy in this turn (contract): checked, and the buyer's hand and buys counted."""
        buy, rules = turn.buy, self.rules
        if buy is None:
            return {}
        if buy.player == turn.player:
            raise RuleError(BUY_IN_OWN_TURN, player=buy.player)
        if turn.took_discard:
            raise RuleError(BUY_BUT_TAKEN, player=turn.player)
        if self.bought[buy.player] >= rules.buys_per_deal:
            raise RuleError(TOO_MANY_BUYS, player=buy.player, most=rules.buys_per_deal)
        if self._all_copies_on_table(buy.card) is not None:
            raise RuleError(BOUGHT_FROM_TABLE, player=buy.player, card=str(buy.card))
        return {
            "bought": {**self.bought, buy.player: self.bought[buy.player] + 1},
            "held": {**self.held, buy.player: self.held[buy.player] + 2},
        }

    def _verify_contract_turn(self, turn: Turn, new_melds: tuple[Meld, ...]) -> None:
        """Going down lays exactly the deal's contract in one turn, and never a meld after."""
        rules, player = self.rules, turn.player
        assert rules.contract is not None
        if not new_melds:
            return
        if self.melds_laid[player]:
            down = next(
                number
                for number, past in enumerate(self.turns, 1)
                if past.player == player and past.melds
            )
            raise RuleError(ALREADY_DOWN, player=player, turn_number=down)
        verify_contract(rules, player, new_melds)

    def _verify_taking(self, turn: Turn) -> None:
        rules, taken = self.rules, turn.took_discard
        if not taken:
            return
        for card in taken:
            number = self._all_copies_on_table(card)
            if number is not None:
                raise RuleError(TAKEN_FROM_TABLE, player=turn.player, card=str(card), number=number)
        if rules.discard.depth == 0:
            raise RuleError(NO_DISCARD_PILE, rules=rules.name)
        if len(taken) > rules.discard.depth:
            if rules.discard.depth == 1:
                raise RuleError(TOP_DISCARD_ONLY, rules=rules.name, cards=format_cards(taken))
            raise RuleError(
                TOP_THREE_ONLY,
                rules=rules.name,
                depth=rules.discard.depth,
                count=len(taken),
                cards=format_cards(taken),
            )

    def _verify_discarding(self, turn: Turn, put_down: tuple[Card, ...]) -> None:
        rules, taken, player = self.rules, turn.took_discard, turn.player
        if not taken:
            return
        if rules.discard.depth == 1 and rules.discard.top_kept and turn.discard == taken[0]:
            raise RuleError(DISCARDED_TAKEN, player=player, card=str(taken[0]))
        if rules.discard.deepest_used and len(taken) > 1 and taken[-1] not in put_down:
            raise RuleError(
                DEEPEST_TAKEN_UNUSED, player=player, count=len(taken), card=str(taken[-1])
            )
        if rules.discard.melded_at_once:
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
            if rules.discard.melded_at_once and turn.took_discard:
                raise RuleError(
                    TAKE_LEAVES_NO_DISCARD, player=player, cards=format_cards(turn.took_discard)
                )
            if rules.must_discard:
                raise RuleError(MUST_DISCARD, rules=rules.name, player=player)
        if left == 1 and rules.discard.depth == 1 and rules.discard.top_kept and turn.took_discard:
            card = turn.took_discard[0]
            if card not in put_down:  # it is the last card, which must be discarded
                key = TAKEN_LEFT_LAST if rules.discard.not_left_last else DISCARDED_TAKEN
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
        before = tuple(meld.cards for meld in self.table)
        played = tuple(physical_card(card) for card in turn.played)
        if turn.table is not None:
            after = turn.table
        elif not played:  # a turn that only draws: "played": [] and the table as it was
            after = before
        else:
            raise RuleError(TABLE_TURN_NEEDS, rules=rules.name, field="table")
        if not played and turn.out:
            raise RuleError(ONLY_DREW_NOT_OUT, player=player)
        verify_table_turn(before, played, after, len(self.players), rules=rules)
        melds = (
            list(self.table)
            if not played
            else [
                TableMeld(number, None, None, verify_meld(cards, rules))
                for number, cards in enumerate(after, 1)
            ]
        )
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
        } | self._contract_json()

    def _contract_json(self) -> dict[str, Any]:
        contract = self.rules.contract
        if contract is None:
            return {}
        return {
            "contract": {"deal": contract.deal, "label": contract.label},
            "down": [player for player in self.players if self.is_down(player)],
            "bought": dict(self.bought),
        }


def _all_copies_on_table(
    rules: Ruleset, players: int, table: Sequence[TableMeld], card: Card
) -> int | None:
    """The number of the last meld holding ``card`` when every copy the deck has of it is on
    the table (jokers: every joker), else ``None``."""
    physical = physical_card(card)
    holding = [
        meld.number for meld in table for held in meld.cards if physical_card(held) == physical
    ]
    copies = rules.joker_count(players) if physical.is_joker else rules.copies(players)
    return holding[-1] if holding and len(holding) >= copies else None


def _verify_discard_not_on_table(
    rules: Ruleset, players: int, turn: Turn, table: Sequence[TableMeld]
) -> None:
    if turn.discard is None:
        return
    number = _all_copies_on_table(rules, players, table, turn.discard)
    if number is not None:
        raise RuleError(DISCARD_ON_TABLE, player=turn.player, card=str(turn.discard), number=number)


def add_table_places(table: Sequence[TableMeld], places: CardPlaces) -> None:
    for meld in table:
        places.add(meld.cards, Reason.of(PLACE_MELD, number=meld.number))


def _verify_table_integrity(rules: Ruleset, players: int, table: Sequence[TableMeld]) -> None:
    places = CardPlaces()
    add_table_places(table, places)
    places.verify(rules, players)


def laid_melds(
    rules: Ruleset, player: str, melds: Iterable[Sequence[Card]], has_run: bool
) -> tuple[Meld, ...]:
    """The melds ``player`` lays, each checked, and (``runs.first``) no set before a run.

    ``has_run`` says whether the player laid a run earlier in the round.
    """
    laid = []
    for cards in melds:
        meld = verify_meld(cards, rules)
        if meld.kind is MeldKind.RUN:
            has_run = True
        elif rules.runs.first and not has_run:
            raise RuleError(RUN_FIRST, player=player, cards=format_cards(cards), rules=rules.name)
        laid.append(meld)
    return tuple(laid)


def verify_contract(rules: Ruleset, player: str, melds: Sequence[Meld]) -> None:
    """``melds`` are exactly the deal's contract: its number of sets and of runs, the sets of
    different ranks, no two runs that join into one (:class:`RuleError` otherwise)."""
    contract = rules.contract
    assert contract is not None
    sets = [meld for meld in melds if meld.kind is MeldKind.SET]
    runs = [meld for meld in melds if meld.kind is MeldKind.RUN]
    if (len(sets), len(runs)) != (contract.sets, contract.runs):
        raise RuleError(
            CONTRACT_NOT_MET,
            deal=contract.deal,
            contract=Reason.of(contract.words),
            player=player,
            sets=len(sets),
            runs=len(runs),
        )
    for index, first in enumerate(sets):
        for second in sets[index + 1 :]:
            if _face_rank(first) == _face_rank(second):
                raise RuleError(CONTRACT_SETS_SAME_RANK, first=str(first), second=str(second))
    for index, first in enumerate(runs):
        for second in runs[index + 1 :]:
            if check_meld(first.cards + second.cards, rules).legal:
                raise RuleError(CONTRACT_RUNS_JOIN, first=str(first), second=str(second))


def _face_rank(meld: Meld) -> object:
    face = meld.cards[0].stands_for
    return face.rank if face is not None else None
