"""Three Thirteen (``three-thirteen``): eleven deals of 3 to 13 cards, the rank dealt is wild.

* :func:`deal_rules` -- deal n: n + 2 cards, the rank n + 2 wild (3s in deal 1, kings in 11).
* :func:`least_count` -- a hand's least count: the value of the cards in no meld, in the
  arrangement into melds (no card in two) that gives the lowest value; exact.
* :func:`score_deal` -- a deal entered as its final table: who went out and every hand;
  the checks RULES.md names (the deal's number of cards, the deck limits, the hand of the
  player who went out melds entirely) and each player's score.
* :func:`final_turns` -- the one-more-turn rule: who still plays after a player went out.
* :func:`standings` -- totals after the deals, the end after the eleventh, ties shared.

How the least count is found, and why it is exact
==================================================

Call *wild* a printed joker or a card of the deal's wild rank, *natural* any other card.
A card of the wild rank may also play as a natural card in its own place (its rank in a
set, its rank and suit in a run); that matters only to ``wilds_in_meld``.

Take the natural-playing cards in (suit, rank) order and decide them one at a time, the
first undecided card ``c`` each time: ``c`` is left out (a card of the wild rank instead
joins the *pool* of cards playing wild), or ``c`` is in a set with a choice of the other
undecided cards of its rank, or ``c`` is the lowest natural card of a run of its suit with
a choice of undecided cards of higher ranks of that suit (one per rank).  Every meld with a
natural card is built this way from its first natural card in that order (any natural card
of a run below ``c`` would have been decided before ``c``), so every arrangement is
reached.  A meld built so needs some wild cards: a set of k naturals 3 - k, a run its gaps
plus what lifts it to 3 cards.  When all cards are decided, the pool must cover the total
need; what is left of it either joins the melds that have room (a set up to 4 cards a deck,
a run up to 13; with ``one-wild`` one wild in a meld that has none) or, with ``any``, makes
a meld of wild cards only when 3 or more are left.  Wild cards that fit nowhere count; the
cheapest of them are the ones left out, since any wild card fills any need.  The search
keeps the least (value, cards left out) per state (undecided cards, need, room, pool),
so the count is exact and, among equal counts, the fewest cards are left out: a hand
"melds entirely" exactly when its least count leaves no card out.

>>> deal_rules(4)
DealRules(number=4, cards=6, wild=<Rank.SIX: 6>)
>>> least_count('6H 7S 8S 9S KD KC', deal_rules(4)).value
0
>>> least_count('3S 3H 5D', deal_rules(1)).value   # threes wild: a set of fives
0
>>> least_count('3S 3H 5D', deal_rules(2)).value   # fours wild: nothing melds
11
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeAlias

from referee.cards import SUITS, Card, Rank
from referee.errors import RuleError
from referee.messages import Reason, define_message
from referee.notation import format_cards, parse_cards
from referee.rulesets.options import Option, OptionType, option, preset

CardsIn: TypeAlias = "str | Card | Iterable[str | Card]"

DEALS = 11
FIRST_HAND = 3  # cards dealt in deal 1
SMALLEST_MELD = 3
MOST_PLAYERS = 7
LONGEST_RUN = 13
SET_CAP_PER_DECK = 4

ANY = "any"
ONE_NATURAL = "one-natural"
ONE_WILD = "one-wild"

NO_SUCH_DEAL = define_message(
    "three_thirteen.no_such_deal", "Three Thirteen has deals 1 to 11, not {number}"
)
HAND_SIZE = define_message(
    "three_thirteen.hand_size",
    "deal {deal}: {whose} must hold {cards} cards after their last turn, not {count}",
)
TOO_MANY_COPIES = define_message(
    "three_thirteen.too_many_copies", "{card} is there {count} times, but {decks} hold only {most}"
)
TOO_MANY_JOKERS = define_message(
    "three_thirteen.too_many_jokers", "there are {count} jokers, but the match plays with {most}"
)
NAMED_JOKER = define_message(
    "three_thirteen.named_joker", "{card}: in Three Thirteen a joker stays bare, written JK"
)
OUT_NOT_MELDED = define_message(
    "three_thirteen.out_not_melded",
    "deal {deal}: {wild} are wild; {player} cannot go out: {cards} fit in no meld",
)
UNKNOWN_PLAYER = define_message(
    "three_thirteen.unknown_player", "{name} does not play in this match"
)
MISSING_HAND = define_message(
    "three_thirteen.missing_hand", "the hand of {name} is missing: every player's cards count"
)
NEGATIVE_POINTS = define_message(
    "three_thirteen.negative_points", "{name}'s count is 0 or more, not {points}"
)
OUT_WITH_POINTS = define_message(
    "three_thirteen.out_with_points", "{name} went out and counts 0, not {points}"
)
POINTS_UNCHECKED = define_message(
    "three_thirteen.points_unchecked",
    "{names}: the counts were given as points, as the players counted them; "
    "the referee could not check their cards",
)
PLAYERS_RANGE = define_message(
    "three_thirteen.players", "Three Thirteen is played by 2 to 7 players, not {count}"
)
ONE_DECK_PLAYERS = define_message(
    "three_thirteen.one_deck_players",
    "one deck is enough for 2 or 3 players only: with {count}, play with two",
)
BAD_DECKS = define_message("three_thirteen.bad_decks", "decks is 1 or 2, not {value}")
BAD_JOKERS = define_message("three_thirteen.bad_jokers", "jokers is 0, 2 or 4, not {value}")
BAD_JOKER_VALUE = define_message(
    "three_thirteen.bad_joker_value", "a joker counts from 0 to 50, not {value}"
)
BAD_WILDS_IN_MELD = define_message(
    "three_thirteen.bad_wilds_in_meld",
    "wilds_in_meld is any, one-natural or one-wild, not {value}",
)
ONE_DECK = define_message("three_thirteen.one_deck", "one deck")
TWO_DECKS = define_message("three_thirteen.two_decks", "two decks")

WILD_NAMES = {
    Rank.THREE: define_message("three_thirteen.wild.3", "threes"),
    Rank.FOUR: define_message("three_thirteen.wild.4", "fours"),
    Rank.FIVE: define_message("three_thirteen.wild.5", "fives"),
    Rank.SIX: define_message("three_thirteen.wild.6", "sixes"),
    Rank.SEVEN: define_message("three_thirteen.wild.7", "sevens"),
    Rank.EIGHT: define_message("three_thirteen.wild.8", "eights"),
    Rank.NINE: define_message("three_thirteen.wild.9", "nines"),
    Rank.TEN: define_message("three_thirteen.wild.10", "tens"),
    Rank.JACK: define_message("three_thirteen.wild.11", "jacks"),
    Rank.QUEEN: define_message("three_thirteen.wild.12", "queens"),
    Rank.KING: define_message("three_thirteen.wild.13", "kings"),
}


# ---------------------------------------------------------------------------------------
# Options, presets, deals


@dataclass(frozen=True)
class ThreeThirteenOptions:
    """The house rules of Three Thirteen (RULES.md), checked against the number of players
    by :meth:`check_players`.  ``decks`` ``None``: one deck for 2 players, two for 3-7."""

    decks: int | None = None
    jokers: int = 0
    joker_value: int = 20
    wilds_in_meld: str = ANY

    def __post_init__(self) -> None:
        if self.decks is not None and not (_whole(self.decks) and self.decks in (1, 2)):
            raise RuleError(BAD_DECKS, value=str(self.decks))
        if not (_whole(self.jokers) and self.jokers in (0, 2, 4)):
            raise RuleError(BAD_JOKERS, value=str(self.jokers))
        if not (_whole(self.joker_value) and 0 <= self.joker_value <= 50):
            raise RuleError(BAD_JOKER_VALUE, value=str(self.joker_value))
        if self.wilds_in_meld not in (ANY, ONE_NATURAL, ONE_WILD):
            raise RuleError(BAD_WILDS_IN_MELD, value=str(self.wilds_in_meld))

    def decks_for(self, players: int) -> int:
        if self.decks is not None:
            return self.decks
        return 1 if players == 2 else 2

    def check_players(self, players: int) -> None:
        if not 2 <= players <= MOST_PLAYERS:
            raise RuleError(PLAYERS_RANGE, count=players)
        if self.decks == 1 and players > 3:
            raise RuleError(ONE_DECK_PLAYERS, count=players)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


RULES_ID = "three-thirteen"

OPTION_TABLE: tuple[Option, ...] = (
    option(
        RULES_ID,
        "decks",
        OptionType.NUMBER,
        None,
        minimum=1,
        maximum=2,
        label="Decks",
        explanation="One 52-card deck or two; without it, one for 2 players and two for 3-7.",
        summary="Played with {value} deck(s)",
    ),
    option(
        RULES_ID,
        "jokers",
        OptionType.CHOICE,
        0,
        choices=(0, 2, 4),
        label="Jokers",
        explanation="Jokers added to the decks, wild in every deal.",
        summary="{value} jokers, wild in every deal",
    ),
    option(
        RULES_ID,
        "joker_value",
        OptionType.NUMBER,
        20,
        minimum=0,
        maximum=50,
        excludes={"jokers": 0},
        label="Joker value",
        explanation="What a joker left out of melds counts.",
        summary="A joker left out counts {value}",
    ),
    option(
        RULES_ID,
        "wilds_in_meld",
        OptionType.CHOICE,
        ANY,
        choices=(ANY, ONE_NATURAL, ONE_WILD),
        label="Wild cards in a meld",
        explanation=(
            "one-natural: every meld holds a natural card; one-wild: a meld holds at most "
            "one wild card."
        ),
        summary="Wild cards in a meld: {value}",
    ),
)

PRESETS = (
    preset(RULES_ID, "two-jokers", "Two jokers", {"jokers": 2}),
    preset(RULES_ID, "one-natural", "A natural card in every meld", {"wilds_in_meld": ONE_NATURAL}),
)


@dataclass(frozen=True)
class DealRules:
    """Deal ``number`` (1-11): every player gets ``cards`` cards, ``wild`` is the wild rank."""

    number: int
    cards: int
    wild: Rank

    def facts(self) -> dict[str, object]:
        """What the match file's replay adds to the round.

        >>> deal_rules(5).facts()
        {'deal': 5, 'cards': 7, 'wild': '7'}
        """
        return {"deal": self.number, "cards": self.cards, "wild": self.wild.symbol}

    @property
    def wild_name(self) -> Reason:
        """The wild rank in words ("sixes"), for "deal 4: sixes are wild"."""
        return Reason.of(WILD_NAMES[self.wild])


def deal_rules(number: int) -> DealRules:
    """The cards and the wild rank of deal ``number``: n + 2 cards, the rank n + 2 wild.

    >>> deal_rules(1).cards, deal_rules(9).wild, deal_rules(11).cards
    (3, <Rank.JACK: 11>, 13)
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= DEALS:
        raise RuleError(NO_SUCH_DEAL, number=str(number))
    cards = number + FIRST_HAND - 1
    return DealRules(number, cards, Rank(cards))


def card_value(card: Card, options: ThreeThirteenOptions) -> int:
    """A card left out of melds: A 1, 2-10 face value, J Q K 10, a joker ``joker_value``; a
    card of the wild rank counts its face value like any other card."""
    if card.rank is None:
        return options.joker_value
    return min(int(card.rank), 10)


# ---------------------------------------------------------------------------------------
# The least count


@dataclass(frozen=True)
class Count:
    """A hand counted: its ``melds`` (each as the cards in it) and the ``unmelded`` cards,
    whose values make ``value``."""

    cards: tuple[Card, ...]
    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
    value: int

    @property
    def melds_entirely(self) -> bool:
        return not self.unmelded

    def to_json(self) -> dict[str, object]:
        return {
            "melds": [format_cards(meld).split() for meld in self.melds],
            "unmelded": format_cards(self.unmelded).split(),
            "value": self.value,
        }


Natural: TypeAlias = "tuple[int, int]"  # (suit position, rank)
Cost: TypeAlias = "tuple[int, int]"  # (value, cards left out)
_IMPOSSIBLE: Cost = (10**9, 10**9)


@dataclass(frozen=True)
class _Meld:
    naturals: tuple[Natural, ...]
    need: int  # wild cards it needs
    room: int  # wild cards it can take beyond its need


@dataclass(frozen=True)
class _Plan:
    cost: Cost
    melds: tuple[_Meld, ...] = ()


class _Counter:
    """One least-count search over a hand (see the module's docstring)."""

    def __init__(
        self,
        naturals: Sequence[Natural],
        wild: int,
        jokers: int,
        decks: int,
        mode: str,
        joker_value: int,
    ) -> None:
        self.wild = wild
        self.jokers = jokers
        self.set_cap = SET_CAP_PER_DECK * decks
        self.mode = mode
        self.joker_value = joker_value
        self.wild_value = min(wild, 10)
        self.most_wilds = jokers + sum(1 for _, rank in naturals if rank == wild)
        self.best = lru_cache(maxsize=None)(self._best)

    def _wilds_left_out(self, pooled: int, need: int, room: int) -> Cost:
        available = self.jokers + pooled
        if need > available:
            return _IMPOSSIBLE
        left = available - need
        if self.mode == ANY and left >= SMALLEST_MELD:
            return (0, 0)
        out = left - min(left, room)
        values = sorted([self.joker_value] * self.jokers + [self.wild_value] * pooled)
        return (sum(values[:out]), out)

    def _best(self, undecided: tuple[Natural, ...], need: int, room: int, pooled: int) -> _Plan:
        if not undecided:
            return _Plan(self._wilds_left_out(pooled, need, room))
        first, rest = undecided[0], undecided[1:]
        suit, rank = first
        plans: list[_Plan] = []
        if rank == self.wild:
            plans.append(self.best(rest, need, room, pooled + 1))
        else:
            dead = self.best(rest, need, room, pooled)
            plans.append(_Plan((dead.cost[0] + min(rank, 10), dead.cost[1] + 1), dead.melds))
        budget = self.most_wilds - need
        for meld, left in (*self._sets(first, rest, budget), *self._runs(first, rest, budget)):
            after = self.best(left, need + meld.need, min(room + meld.room, LONGEST_RUN), pooled)
            plans.append(_Plan(after.cost, (meld, *after.melds)))
        return min(plans, key=lambda plan: plan.cost)

    def _room(self, need: int, size: int, cap: int) -> int:
        if self.mode == ONE_WILD:
            return 1 if need == 0 and size < cap else 0
        return cap - size

    def _sets(
        self, first: Natural, rest: tuple[Natural, ...], budget: int
    ) -> Iterable[tuple[_Meld, tuple[Natural, ...]]]:
        same = [card for card in rest if card[1] == first[1]]
        others = [card for card in rest if card[1] != first[1]]
        by_suit = Counter(same)
        choices: list[list[Natural]] = [[]]
        for card, count in sorted(by_suit.items()):
            choices = [chosen + [card] * k for chosen in choices for k in range(count + 1)]
        for chosen in choices:
            size = 1 + len(chosen)
            if size > self.set_cap:
                continue
            need = max(0, SMALLEST_MELD - size)
            if need > budget or (self.mode == ONE_WILD and need > 1):
                continue
            left = Counter(same)
            left.subtract(chosen)
            remaining = tuple(sorted(others + list(left.elements())))
            meld = _Meld((first, *chosen), need, self._room(need, size + need, self.set_cap))
            yield meld, remaining

    def _runs(
        self, first: Natural, rest: tuple[Natural, ...], budget: int
    ) -> Iterable[tuple[_Meld, tuple[Natural, ...]]]:
        suit, low = first
        higher = sorted({rank for s, rank in rest if s == suit and rank > low})
        limit = min(budget, 1) if self.mode == ONE_WILD else budget

        def extend(chosen: tuple[int, ...], at: int, gaps: int) -> Iterable[tuple[int, ...]]:
            yield chosen
            top = chosen[-1] if chosen else low
            for index in range(at, len(higher)):
                rank = higher[index]
                more = gaps + rank - top - 1
                if more > limit:
                    break
                yield from extend((*chosen, rank), index + 1, more)

        for chosen in extend((), 0, 0):
            top = chosen[-1] if chosen else low
            span = top - low + 1
            gaps = span - 1 - len(chosen)
            need = gaps + max(0, SMALLEST_MELD - span)
            if need > limit:
                continue
            left = list(rest)
            for rank in chosen:
                left.remove((suit, rank))
            naturals = (first, *((suit, rank) for rank in chosen))
            length = max(span, SMALLEST_MELD)
            meld = _Meld(naturals, need, self._room(need, length, LONGEST_RUN))
            yield meld, tuple(left)


def _natural(card: Card) -> Natural:
    assert card.rank is not None and card.suit is not None
    return (SUITS.index(card.suit), int(card.rank))


def _card(natural: Natural) -> Card:
    return Card(Rank(natural[1]), SUITS[natural[0]])


def read_hand(cards: CardsIn) -> tuple[Card, ...]:
    """The cards, read; a named joker (``JK=7H``) is refused: jokers stay bare in a hand."""
    hand = parse_cards(cards)
    for card in hand:
        if card.is_joker and not card.is_bare_joker:
            raise RuleError(NAMED_JOKER, card=str(card))
    return hand


def least_count(
    cards: CardsIn,
    deal: DealRules,
    options: ThreeThirteenOptions | None = None,
    *,
    decks: int = 2,
) -> Count:
    """The least count of a hand in ``deal``: its melds and the cards left out, the lowest
    value (and, among equal values, the fewest cards left out).

    ``decks`` bounds a set (4 cards a deck); the options' ``decks`` wins when set.

    >>> count = least_count('5H 6H 9C 9D QS', deal_rules(3))   # fives wild
    >>> count.value, [format_cards(meld) for meld in count.melds]
    (16, ['9D 9C 5H'])
    """
    options = options or ThreeThirteenOptions()
    hand = read_hand(cards)
    jokers = [card for card in hand if card.is_joker]
    naturals = tuple(sorted(_natural(card) for card in hand if not card.is_joker))
    counter = _Counter(
        naturals,
        int(deal.wild),
        len(jokers),
        options.decks or decks,
        options.wilds_in_meld,
        options.joker_value,
    )
    plan = counter.best(naturals, 0, 0, 0)
    return _arrangement(hand, plan, deal, options)


def _arrangement(
    hand: tuple[Card, ...], plan: _Plan, deal: DealRules, options: ThreeThirteenOptions
) -> Count:
    melded_naturals = Counter(natural for meld in plan.melds for natural in meld.naturals)
    wilds: list[Card] = []
    unmelded: list[Card] = []
    for card in hand:
        if card.is_joker:
            wilds.append(card)
            continue
        natural = _natural(card)
        if melded_naturals[natural]:
            melded_naturals[natural] -= 1
        elif card.rank == deal.wild:
            wilds.append(card)
        else:
            unmelded.append(card)
    # The most valuable wild cards fill the melds' needs first, then their room.
    wilds.sort(key=lambda card: card_value(card, options), reverse=True)
    melds = [[_card(natural) for natural in meld.naturals] for meld in plan.melds]
    for meld, cards in zip(plan.melds, melds, strict=True):
        for _ in range(meld.need):
            cards.append(wilds.pop(0))
    if len(wilds) >= SMALLEST_MELD and options.wilds_in_meld == ANY and not _fits(plan, len(wilds)):
        melds.append(wilds)
        wilds = []
    for meld, cards in zip(plan.melds, melds, strict=False):
        take = min(meld.room, len(wilds))
        cards.extend(wilds[:take])
        wilds = wilds[take:]
    unmelded.extend(wilds)
    value = sum(card_value(card, options) for card in unmelded)
    return Count(hand, tuple(tuple(meld) for meld in melds), tuple(unmelded), value)


def _fits(plan: _Plan, wilds: int) -> bool:
    return sum(meld.room for meld in plan.melds) >= wilds


# ---------------------------------------------------------------------------------------
# A deal's final table


@dataclass(frozen=True)
class DealScore:
    """A deal scored: ``scores`` per player (0 for the one who went out), the ``counts`` the
    referee made from cards, and ``unchecked``, the players whose count was given as points."""

    deal: DealRules
    out: str
    scores: dict[str, int]
    counts: dict[str, Count] = field(default_factory=dict)
    unchecked: tuple[str, ...] = ()

    @property
    def notes(self) -> tuple[Reason, ...]:
        if not self.unchecked:
            return ()
        return (Reason.of(POINTS_UNCHECKED, names=", ".join(self.unchecked)),)


def _check_deck(hands: Iterable[tuple[Card, ...]], decks: int, jokers: int) -> None:
    counted = Counter(card for hand in hands for card in hand)
    name = Reason.of(ONE_DECK if decks == 1 else TWO_DECKS)
    for card, count in sorted(counted.items(), key=lambda item: item[0].sort_key):
        if card.is_joker:
            if count > jokers:
                raise RuleError(TOO_MANY_JOKERS, count=count, most=jokers)
        elif count > decks:
            raise RuleError(TOO_MANY_COPIES, card=str(card), count=count, decks=name, most=decks)


def score_deal(
    number: int,
    players: Sequence[str],
    out: str,
    hands: Mapping[str, CardsIn | int],
    options: ThreeThirteenOptions | None = None,
) -> DealScore:
    """Deal ``number`` entered as its final table: ``out`` went out; ``hands`` holds every
    player's cards after their last turn (or the count the players made, as a whole
    number).  The hand of the player who went out may be left out or ``[]`` (taken on their
    word); given, it must meld entirely.
    """
    options = options or ThreeThirteenOptions()
    options.check_players(len(players))
    deal = deal_rules(number)
    decks = options.decks_for(len(players))
    if out not in players:
        raise RuleError(UNKNOWN_PLAYER, name=out)
    for name in hands:
        if name not in players:
            raise RuleError(UNKNOWN_PLAYER, name=name)
    read: dict[str, tuple[Card, ...]] = {}
    given: dict[str, int] = {}
    for name in players:
        if name not in hands:
            if name == out:
                continue
            raise RuleError(MISSING_HAND, name=name)
        hand = hands[name]
        if isinstance(hand, int) and not isinstance(hand, bool):
            if hand < 0:
                raise RuleError(NEGATIVE_POINTS, name=name, points=hand)
            if name == out and hand != 0:
                raise RuleError(OUT_WITH_POINTS, name=name, points=hand)
            given[name] = hand
            continue
        cards = read_hand(hand)  # type: ignore[arg-type]
        if name == out and not cards:
            continue
        if len(cards) != deal.cards:
            raise RuleError(HAND_SIZE, deal=number, whose=name, cards=deal.cards, count=len(cards))
        read[name] = cards
    _check_deck(read.values(), decks, options.jokers)
    counts = {name: least_count(cards, deal, options, decks=decks) for name, cards in read.items()}
    if out in counts and not counts[out].melds_entirely:
        raise RuleError(
            OUT_NOT_MELDED,
            deal=number,
            wild=deal.wild_name,
            player=out,
            cards=format_cards(counts[out].unmelded),
        )
    scores = {}
    for name in players:
        if name == out:
            scores[name] = 0
        elif name in given:
            scores[name] = given[name]
        else:
            scores[name] = counts[name].value
    unchecked = tuple(name for name in players if name in given and name != out)
    return DealScore(deal, out, scores, counts, unchecked)


def final_turns(seating: Sequence[str], out: str) -> tuple[str, ...]:
    """Who plays one more turn after ``out`` went out, in order: every other player once.

    >>> final_turns(('Andi', 'Budi', 'Siti', 'Dewi'), 'Siti')
    ('Dewi', 'Andi', 'Budi')
    """
    if out not in seating:
        raise RuleError(UNKNOWN_PLAYER, name=out)
    at = list(seating).index(out)
    return tuple(seating[(at + step) % len(seating)] for step in range(1, len(seating)))


# ---------------------------------------------------------------------------------------
# The match


@dataclass(frozen=True)
class Standings:
    """The match after its deals: ``totals``, the next deal's number and dealer, and once
    the eleventh deal is in, ``winners`` (the lowest total; a tie is a shared win)."""

    totals: dict[str, int]
    deals_played: int
    dealer: str

    @property
    def over(self) -> bool:
        return self.deals_played >= DEALS

    @property
    def next_deal(self) -> DealRules | None:
        return None if self.over else deal_rules(self.deals_played + 1)

    @property
    def winners(self) -> tuple[str, ...]:
        if not self.over:
            return ()
        lowest = min(self.totals.values())
        return tuple(name for name, total in self.totals.items() if total == lowest)

    def late_start(self) -> int:
        """The total a player who joins between deals starts with: the highest seated."""
        return max(self.totals.values())


def standings(
    seating: Sequence[str], first_dealer: str, deals: Sequence[DealScore | None]
) -> Standings:
    """The match after ``deals`` in order (``None``: a voided round, which counts toward
    nothing and keeps the dealer); the deal moves one seat clockwise each deal."""
    if first_dealer not in seating:
        raise RuleError(UNKNOWN_PLAYER, name=first_dealer)
    totals = dict.fromkeys(seating, 0)
    played = 0
    dealer = list(seating).index(first_dealer)
    for deal in deals:
        if deal is None:
            continue
        if played >= DEALS:
            raise RuleError(NO_SUCH_DEAL, number=str(played + 1))
        played += 1
        if deal.deal.number != played:
            raise RuleError(NO_SUCH_DEAL, number=str(deal.deal.number))
        for name, score in deal.scores.items():
            if name not in totals:
                raise RuleError(UNKNOWN_PLAYER, name=name)
            totals[name] += score
        dealer = (dealer + 1) % len(seating)
    return Standings(totals, played, seating[dealer])


__all__ = [
    "DEALS",
    "OPTION_TABLE",
    "PRESETS",
    "Count",
    "DealRules",
    "DealScore",
    "Standings",
    "ThreeThirteenOptions",
    "card_value",
    "deal_rules",
    "final_turns",
    "least_count",
    "score_deal",
    "standings",
]
