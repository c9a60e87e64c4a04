"""Indian Rummy (ruleset ``indian``): the show check and a loser's least count.

Public API (cards may be given as a string, or as a list of strings or :class:`Card`):

* :func:`wild_rank` -- the rank that is wild after a cut (aces when a printed joker is cut);
* :func:`deck` -- the 53 or 106 cards of one or two decks with their printed jokers;
* :func:`read_group` -- one typed group in the reading that helps the player, or why it
  is no group;
* :func:`check_show` -- is a show of 13 cards valid (whatever grouping was typed), why
  not, and an arrangement that makes it valid;
* :func:`least_count` -- a loser's least count (the two-sequence rule, the full-count cap)
  and the arrangement that gives it.

>>> count = least_count('5S 6S 7S 9H 10H JK 2D 2C 2H KD QD 8C 4H', cut='3C')
>>> count.count, [str(g) for g in count.arrangement.groups]
(31, ['5S 6S 7S', '2H 2D 2C', 'JK QD KD'])
>>> show = check_show(groups=['5S 6S 7C 8S', '9H 10H 7H', 'QH QC QS', '2D 2C 2H'], cut='7D')
>>> show.valid, show.reasons[0].text
(False, 'no pure sequence: 5S 6S 7C 8S uses the 7C as a joker')

How the least count is found, and why it is exact
=================================================

Cards split into *naturals* (every card that is not a joker), printed jokers and *wild
cards* (the wild rank's cards).  Jokers and wild cards count 0 and can stand in any group
for any card, so they are one budget ``T``; a wild card read as natural in its own place
costs the budget the same one card, and only makes a sequence pure (or gives a group of
jokers its natural card).  Since a joker left over can always join a group of a valid
arrangement (a set takes any number; a sequence has room at one end; with two pure
sequences one may become impure), a show is valid exactly when the least count is 0.

The search takes the naturals in a fixed order (suit, then rank, aces first) and decides
the first one left, ``x``: it counts (in no group), or it is the *first* natural of its
group in that order.  Then the group is one of:

- a set: ``x`` with one card of its rank from some of the later suits (at least two
  naturals; a natural and two jokers is better read as a sequence), plus the jokers it
  lacks up to three;
- a sequence of ``x``'s suit over a window of positions (ace at 1 or 14): a window of 3
  around ``x``, or a longer one whose two ends are naturals, ``x`` at the bottom (at the
  top for an ace played high).  Longer windows with a joker at an end are dominated (drop
  that end: one joker less, purity no worse).  Every other position holds a natural (one
  copy), a joker, or the suit's wild card in its own place (kept only when that makes the
  window pure); a natural may be left out for a joker, to be used elsewhere.

Every arrangement is reached this way: its groups, each listed from its first natural,
are among the candidates, and its dominated windows are replaced by no worse ones.  The
remaining naturals are a 2-bit count per card (two decks), so a state is (counts, jokers
left, wild cards not yet read as natural), memoised; its value is the least count for each
of the five "still needed" levels of the rule (two sequences, one pure), so one pass
answers all of them.  A group of jokers only (a wild card in its own place and two
jokers, an impure sequence) is formed at the end, when no natural is left.

Tests check every answer against an independent brute force over all groupings
(``tests/test_indian.py``).
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from referee.cards import RANKS, SUITS, Card, Rank
from referee.errors import RuleError
from referee.melds import AND
from referee.messages import Reason, define_message
from referee.notation import format_cards, parse_card, parse_cards

CardsIn: TypeAlias = "str | Card | Iterable[str | Card]"
GroupsIn: TypeAlias = "Iterable[CardsIn]"

HAND_SIZE = 13
FULL_COUNT = 80

HAND_SIZE_WRONG = define_message("indian.hand_size", "{whose} must hold 13 cards, not {count}")
NAMED_JOKER = define_message(
    "indian.named_joker",
    "{card}: in Indian rummy a joker stays in the hand and is written JK",
)
TOO_MANY_COPIES = define_message(
    "indian.too_many_copies", "{card} is there {count} times, but {decks} hold only {most}"
)
CUT_CARD_IN_HAND = define_message(
    "indian.cut_card_in_hand",
    "{card} is there {count} times, but {card} is the cut card, out of play: "
    "{decks} leave only {most}",
)
ONE_DECK = define_message("indian.one_deck", "one deck")
TWO_DECKS = define_message("indian.two_decks", "two decks")
THE_SHOW = define_message("indian.the_show", "the show")
THE_HAND = define_message("indian.the_hand", "the hand")
BAD_DECKS = define_message(
    "indian.bad_decks", "Indian rummy is played with 1 or 2 decks, not {decks}"
)

NO_PURE = define_message(
    "indian.no_pure",
    "no pure sequence: no three or more cards of one suit in a row without a joker",
)
NO_PURE_TYPED = define_message(
    "indian.no_pure_typed", "no pure sequence: {group} uses the {jokers} as a joker"
)
NO_PURE_TYPED_MANY = define_message(
    "indian.no_pure_typed_many", "no pure sequence: {group} uses the {jokers} as jokers"
)
ONLY_ONE_SEQUENCE = define_message(
    "indian.only_one_sequence",
    "only one sequence: a show needs two sequences, one of them pure, and the other "
    "cards cannot make a second one",
)
IN_NO_GROUP_ONE = define_message("indian.in_no_group_one", "{cards} is in no group")
IN_NO_GROUP = define_message("indian.in_no_group", "{cards} are in no group")

GROUP_TOO_SMALL = define_message("indian.group_too_small", "{group}: a group has at least 3 cards")
GROUP_NO_NATURAL = define_message(
    "indian.group_no_natural", "{group}: a group needs at least one card that is not a joker"
)
GROUP_MIXED = define_message(
    "indian.group_mixed",
    "{group} is neither a sequence (one suit, in a row) nor a set (one rank)",
)
GROUP_TWICE_IN_SET = define_message(
    "indian.group_twice_in_set",
    "{group}: two {card} in one set; a set has at most one card of each suit",
)
GROUP_TWICE_IN_SEQUENCE = define_message(
    "indian.group_twice_in_sequence", "{group}: {card} twice in one sequence"
)
GROUP_GAP = define_message(
    "indian.group_gap",
    "{group}: {missing} missing between {low} and {high}, and only {jokers} joker(s) to "
    "stand for them",
)
GROUP_TOO_LONG = define_message(
    "indian.group_too_long",
    "{group}: a sequence never goes round the ace (K-A-2)",
)


class GroupKind(enum.Enum):
    PURE = "pure sequence"
    IMPURE = "impure sequence"
    SET = "set"

    @property
    def is_sequence(self) -> bool:
        return self is not GroupKind.SET


@dataclass(frozen=True)
class Group:
    """A group of a show or a count: its cards in order (a sequence's by position, each
    joker where it stands) and the cards that play as jokers in it."""

    kind: GroupKind
    cards: tuple[Card, ...]
    jokers: tuple[Card, ...] = ()
    bottom: int = field(default=0, compare=False)  # a sequence's first position (ace: 1 or 14)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "cards": [str(card) for card in self.cards],
            "jokers": [str(card) for card in self.jokers],
        }


@dataclass(frozen=True)
class Arrangement:
    """Groups of a hand and the cards in no group."""

    groups: tuple[Group, ...]
    ungrouped: tuple[Card, ...] = ()

    @property
    def sequences(self) -> int:
        return sum(group.kind.is_sequence for group in self.groups)

    @property
    def pure_sequences(self) -> int:
        return sum(group.kind is GroupKind.PURE for group in self.groups)

    @property
    def meets_rule(self) -> bool:
        """At least two sequences, at least one of them pure."""
        return self.sequences >= 2 and self.pure_sequences >= 1

    def to_json(self) -> dict[str, object]:
        return {
            "groups": [group.to_json() for group in self.groups],
            "ungrouped": [str(card) for card in self.ungrouped],
        }


@dataclass(frozen=True)
class Count:
    """A loser's count: ``count`` is capped at the full count, ``points`` is not.

    ``meets_rule`` says whether the 13 cards hold two sequences, one pure; without them
    every card counts and ``arrangement`` has no groups.
    """

    count: int
    points: int
    arrangement: Arrangement
    meets_rule: bool
    full_count: int

    @property
    def capped(self) -> bool:
        return self.points > self.count

    def to_json(self) -> dict[str, object]:
        return {
            "count": self.count,
            "points": self.points,
            "meets_rule": self.meets_rule,
            "capped": self.capped,
            **self.arrangement.to_json(),
        }


@dataclass(frozen=True)
class ShowCheck:
    """A show judged: ``valid``, an ``arrangement`` (a valid one; when not valid, the
    arrangement with the least count), ``reasons`` why it is not valid, ``as_typed``
    whether the typed grouping itself is valid, and ``typed_problems`` what is wrong with
    the typed groups (each a reason)."""

    valid: bool
    arrangement: Arrangement
    reasons: tuple[Reason, ...] = ()
    as_typed: bool = False
    typed_problems: tuple[Reason, ...] = ()
    count: Count | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "as_typed": self.as_typed,
            "reasons": [reason.text for reason in self.reasons],
            "typed_problems": [reason.text for reason in self.typed_problems],
            **self.arrangement.to_json(),
        }


# ---------------------------------------------------------------------------------------
# Cards, decks and the wild rank

VALUES = (10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""What a natural card counts, by rank, ace first (A K Q J 10 count 10)."""


def wild_rank(cut: Card | str | None) -> Rank | None:
    """The wild rank after the cut: the cut card's rank, aces for a printed joker, ``None``
    when no card was cut (a game with printed jokers only).

    >>> wild_rank('7D'), wild_rank('JK'), wild_rank(None)
    (<Rank.SEVEN: 7>, <Rank.ACE: 1>, None)
    """
    if cut is None:
        return None
    card = parse_card(cut) if isinstance(cut, str) else cut
    if card.is_joker:
        if not card.is_bare_joker:
            raise RuleError(NAMED_JOKER, card=str(card))
        return Rank.ACE
    assert card.rank is not None
    return card.rank


def deck(decks: int) -> tuple[Card, ...]:
    """One or two 52-card decks, each with one printed joker (53 or 106 cards)."""
    if decks not in (1, 2):
        raise RuleError(BAD_DECKS, decks=decks)
    one = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS) + (Card.joker(),)
    return one * decks


def is_joker(card: Card, wild: Rank | None) -> bool:
    """Whether ``card`` can play as a joker: a printed joker or a card of the wild rank."""
    return card.is_joker or (wild is not None and card.rank == wild)


def card_value(card: Card, wild: Rank | None) -> int:
    """What a card counts in a loser's hand (jokers, printed and wild, count 0)."""
    if is_joker(card, wild):
        return 0
    assert card.rank is not None
    return VALUES[card.rank - 1]


def read_cards(cards: CardsIn) -> tuple[Card, ...]:
    """The cards, read; a joker named like ``JK=7H`` is refused (jokers stay bare here)."""
    read = parse_cards(cards)
    for card in read:
        if card.is_joker and not card.is_bare_joker:
            raise RuleError(NAMED_JOKER, card=str(card))
    return read


def check_deck(cards: Sequence[Card], decks: int, cut: Card | None) -> None:
    """Refuse more copies of a card than ``decks`` hold (the cut card is out of play).

    Not :class:`referee.integrity.CardPlaces`: a hand checked alone (the count helper) has no
    places to name, the cut card's copy is out of play, and a deal's refusal names the
    decks the players chose, as Indian rummy's messages always have.
    """
    if decks not in (1, 2):
        raise RuleError(BAD_DECKS, decks=decks)
    counted = Counter(cards)
    name = Reason.of(ONE_DECK if decks == 1 else TWO_DECKS)
    for card, count in sorted(counted.items(), key=lambda item: item[0].sort_key):
        most = decks
        if cut is not None and card == cut:
            most -= 1
            if count > most:
                raise RuleError(
                    CUT_CARD_IN_HAND, card=str(card), count=count, decks=name, most=most
                )
        if count > most:
            raise RuleError(TOO_MANY_COPIES, card=str(card), count=count, decks=name, most=most)


def _cut_card(cut: Card | str | None) -> Card | None:
    if cut is None:
        return None
    card = parse_card(cut) if isinstance(cut, str) else cut
    if card.is_joker and not card.is_bare_joker:
        raise RuleError(NAMED_JOKER, card=str(card))
    return card


def _hand(cards: CardsIn, cut: Card | None, decks: int, whose: str) -> tuple[Card, ...]:
    hand = read_cards(cards)
    if len(hand) != HAND_SIZE:
        raise RuleError(HAND_SIZE_WRONG, whose=Reason.of(whose), count=len(hand))
    check_deck(hand, decks, cut)
    return hand


# ---------------------------------------------------------------------------------------
# One group as typed


def _position_rank(position: int) -> Rank:
    return Rank.ACE if position == 14 else Rank(position)


def read_group(cards: CardsIn, wild: Rank | None) -> Group | Reason:
    """The group these cards make in the reading that helps the player most (a pure
    sequence before an impure one before a set), or the reason they make none.

    >>> str(read_group('5H 6H 7H', Rank.SEVEN).kind.value)
    'pure sequence'
    >>> print(read_group('8H 8H 8C', None))
    8H 8H 8C: two 8H in one set; a set has at most one card of each suit
    """
    group = read_cards(cards)
    best: Group | None = None
    for reading in _readings(group, wild):
        if best is None or _better(reading, best):
            best = reading
    if best is not None:
        return best
    return _why_no_group(group, wild)


_KIND_ORDER = {GroupKind.PURE: 0, GroupKind.IMPURE: 1, GroupKind.SET: 2}


def _better(a: Group, b: Group) -> bool:
    return _KIND_ORDER[a.kind] < _KIND_ORDER[b.kind]


def _readings(group: tuple[Card, ...], wild: Rank | None) -> Iterable[Group]:
    """Every legal reading: each wild card natural in its own place or a joker."""
    if len(group) < 3:
        return
    wild_at = [i for i, card in enumerate(group) if not card.is_joker and card.rank == wild]
    for as_joker in itertools.product((False, True), repeat=len(wild_at)):
        jokers_here = {i for i, flag in zip(wild_at, as_joker, strict=True) if flag}
        naturals = [
            card for i, card in enumerate(group) if not card.is_joker and i not in jokers_here
        ]
        jokers = [card for i, card in enumerate(group) if card.is_joker or i in jokers_here]
        if not naturals:
            continue
        sequence = _as_sequence(naturals, jokers)
        if sequence is not None:
            yield sequence
        if len({card.rank for card in naturals}) == 1 and len(set(naturals)) == len(naturals):
            yield Group(GroupKind.SET, tuple(naturals) + tuple(jokers), tuple(jokers))


def _as_sequence(naturals: list[Card], jokers: list[Card]) -> Group | None:
    if len({card.suit for card in naturals}) != 1:
        return None
    suit = naturals[0].suit
    assert suit is not None
    length = len(naturals) + len(jokers)
    if length > 13:
        return None
    ranks = [card.rank for card in naturals]
    assert all(rank is not None for rank in ranks)
    for high_ace in (False, True):
        positions = sorted(14 if (high_ace and r == Rank.ACE) else int(r) for r in ranks if r)
        if len(set(positions)) != len(positions):
            return None
        low, high = positions[0], positions[-1]
        if high - low + 1 > length:
            continue
        bottom = max(1 if not high_ace else 2, high - length + 1)
        if bottom > low or bottom + length - 1 > (13 if not high_ace else 14):
            continue
        by_position = {p: Card(_position_rank(p), suit) for p in positions}
        spare = list(jokers)
        cards: list[Card] = []
        for position in range(bottom, bottom + length):
            if position in by_position:
                cards.append(by_position[position])
            else:
                cards.append(spare.pop())
        kind = GroupKind.IMPURE if jokers else GroupKind.PURE
        return Group(kind, tuple(cards), tuple(jokers), bottom)
    return None


def _why_no_group(group: tuple[Card, ...], wild: Rank | None) -> Reason:
    shown = format_cards(group)
    if len(group) < 3:
        return Reason.of(GROUP_TOO_SMALL, group=shown)
    naturals = [card for card in group if not is_joker(card, wild)]
    jokers = len(group) - len(naturals)
    if not naturals:
        return Reason.of(GROUP_NO_NATURAL, group=shown)
    ranks = {card.rank for card in naturals}
    suits = {card.suit for card in naturals}
    twice = [card for card, count in Counter(naturals).items() if count > 1]
    if len(ranks) == 1 and twice:
        return Reason.of(GROUP_TWICE_IN_SET, group=shown, card=str(twice[0]))
    if len(suits) == 1:
        if twice:
            return Reason.of(GROUP_TWICE_IN_SEQUENCE, group=shown, card=str(twice[0]))
        positions = sorted(int(card.rank) for card in naturals if card.rank is not None)
        suit = naturals[0].suit
        assert suit is not None
        # The smaller gap of the two ace readings is the one to explain.
        options = [positions]
        if positions[0] == 1:
            options.append(sorted([*positions[1:], 14]))
        best = min(options, key=lambda p: p[-1] - p[0])
        missing = best[-1] - best[0] + 1 - len(best)
        around = min(
            max((p - start) % 13 for p in positions) + 1 - len(positions) for start in positions
        )
        if len(group) > 13 or around <= jokers < missing:
            return Reason.of(GROUP_TOO_LONG, group=shown)
        return Reason.of(
            GROUP_GAP,
            group=shown,
            missing=missing,
            low=str(Card(_position_rank(best[0]), suit)),
            high=str(Card(_position_rank(best[-1]), suit)),
            jokers=jokers,
        )
    return Reason.of(GROUP_MIXED, group=shown)


# ---------------------------------------------------------------------------------------
# The search

_INF = 1 << 20
_LOW_BITS = int("01" * 64, 2)  # bit 2t of every card type t
_SET, _IMPURE, _PURE = 0, 1, 2
# The five "still needed" levels of the rule: (sequences, pure) = (0,0) (1,0) (0,1) (1,1)
# (2,1); a group moves level l to _AFTER[kind][l].
_AFTER = ((0, 1, 2, 3, 4), (0, 0, 2, 2, 3), (0, 0, 0, 0, 1))
_START = 4  # two sequences, one of them pure
_ANY_PURE = 2  # one pure sequence


def _type(card: Card) -> int:
    """The card's type number: 16 x suit + rank - 1 (its :attr:`Card.bit`)."""
    return card.bit


@dataclass(frozen=True, slots=True)
class _Candidate:
    need: int  # bit 2t for each natural taken
    cost: int  # jokers (printed, or wild cards) it takes
    designated: int  # the suit whose wild card is read in its own place, -1 if none
    kind: int
    suit: int
    window: tuple[int, int]  # positions of a sequence (a set: the rank twice)
    taken: tuple[int, ...]  # positions (a sequence) or suits (a set) of its naturals
    wild_position: int  # where the wild card stands, 0 if none


class _Search:
    """The memoised search over one hand's naturals (see the module's docstring)."""

    def __init__(
        self, naturals: Sequence[Card], budget: int, wild_suits: tuple[int, ...], wild: Rank | None
    ) -> None:
        self.wild = wild
        self.budget = budget
        self.weight = [0] * 64
        state = 0
        for card in naturals:
            t = _type(card)
            state += 1 << 2 * t
            assert card.rank is not None
            self.weight[t] = VALUES[card.rank - 1]
        self.state = state
        self.wild_suits = wild_suits
        present = (state | state >> 1) & _LOW_BITS
        self.present = present
        self.candidates: dict[int, list[_Candidate]] = {}
        for t in range(64):
            if present >> 2 * t & 1:
                self.candidates[t] = self._candidates_of(t)
        self.memo: dict[tuple[int, int, tuple[int, ...]], tuple[int, ...]] = {}

    def has(self, suit: int, position: int) -> bool:
        rank = _position_rank(position)
        return bool(self.present >> 2 * (16 * suit + rank - 1) & 1)

    def _wild_at(self, suit: int, position: int) -> bool:
        return (
            self.wild is not None
            and _position_rank(position) == self.wild
            and self.wild_suits[suit] > 0
        )

    def _candidates_of(self, t: int) -> list[_Candidate]:
        suit, rank = divmod(t, 16)
        rank += 1
        out: list[_Candidate] = []
        # sets: the later suits' cards of this rank
        later = [s for s in range(suit + 1, 4) if self.present >> 2 * (16 * s + rank - 1) & 1]
        for size in range(1, len(later) + 1):
            for others in itertools.combinations(later, size):
                need = 1 << 2 * t
                for s in others:
                    need |= 1 << 2 * (16 * s + rank - 1)
                cost = max(0, 3 - 1 - size)
                if cost <= self.budget:
                    out.append(
                        _Candidate(need, cost, -1, _SET, suit, (rank, rank), (suit, *others), 0)
                    )
        # sequences
        if rank == 1:
            self._windows(out, t, suit, 1)
            self._windows(out, t, suit, 14)
        else:
            self._windows(out, t, suit, rank)
        return out

    def _windows(self, out: list[_Candidate], t: int, suit: int, at: int) -> None:
        windows: list[tuple[int, int]] = []
        for bottom in (at - 2, at - 1, at):
            top = bottom + 2
            if 1 <= bottom and top <= 14:
                windows.append((bottom, top))
        if at == 14:
            windows += [(bottom, 14) for bottom in range(11, 1, -1) if self.has(suit, bottom)]
        else:
            windows += [(at, top) for top in range(at + 3, 14) if self.has(suit, top)]
        for bottom, top in windows:
            self._fillings(out, t, suit, at, bottom, top)

    def _fillings(
        self, out: list[_Candidate], t: int, suit: int, at: int, bottom: int, top: int
    ) -> None:
        """Every way to fill the window around x: each other position holds a natural still
        there (ranks above x's, never an ace), a joker, or the suit's wild card in its own
        place (only in a window that it leaves pure); a long window's far end a natural."""
        x_rank = (t & 15) + 1
        long_window = top - bottom > 2
        slots: list[tuple[int, int, bool, bool]] = []  # position, natural's bit, joker, wild
        for p in range(bottom, top + 1):
            if p == at:
                continue
            rank = 1 if p == 14 else p
            bit = 0
            if 2 <= p <= 13 and rank > x_rank and self.present >> 2 * (16 * suit + rank - 1) & 1:
                bit = 1 << 2 * (16 * suit + rank - 1)
            end = long_window and p in (bottom, top)
            if end and not bit:
                return
            wild_here = not end and self.wild == rank and self.wild_suits[suit] > 0
            slots.append((p, bit, not end, wild_here))
        budget = self.budget

        def fill(i: int, need: int, taken: tuple[int, ...], jokers: int, wild_at: int) -> None:
            if i == len(slots):
                out.append(
                    _Candidate(
                        need,
                        jokers + (1 if wild_at else 0),
                        suit if wild_at else -1,
                        _IMPURE if jokers else _PURE,
                        suit,
                        (bottom, top),
                        tuple(sorted(taken)),
                        wild_at,
                    )
                )
                return
            p, bit, joker, wild_here = slots[i]
            if bit:
                fill(i + 1, need | bit, (*taken, p), jokers, wild_at)
            used = jokers + (1 if wild_at else 0)
            if joker and used < budget:
                if not wild_at:
                    fill(i + 1, need, taken, jokers + 1, wild_at)
                if wild_here and not jokers and not wild_at:
                    fill(i + 1, need, taken, jokers, p)

        fill(0, 1 << 2 * t, (at,), 0, 0)

    def solve(self, state: int, budget: int, wilds: tuple[int, ...]) -> tuple[int, ...]:
        key = (state, budget, wilds)
        found = self.memo.get(key)
        if found is not None:
            return found
        if not state:
            alone = 0 if budget >= 3 and any(wilds) else _INF
            result: tuple[int, ...] = (0, alone, _INF, _INF, _INF)
            self.memo[key] = result
            return result
        low = state & -state
        t = (low.bit_length() - 1) >> 1
        weight = self.weight[t]
        child = self.solve(state - (1 << 2 * t), budget, wilds)
        best = [value + weight for value in child]
        present = (state | state >> 1) & _LOW_BITS
        for candidate in self.candidates[t]:
            if candidate.need & ~present or candidate.cost > budget:
                continue
            left = wilds
            if candidate.designated >= 0:
                if not wilds[candidate.designated]:
                    continue
                left = _less(wilds, candidate.designated)
            child = self.solve(state - candidate.need, budget - candidate.cost, left)
            after = _AFTER[candidate.kind]
            for level in range(5):
                value = child[after[level]]
                if value < best[level]:
                    best[level] = value
        result = tuple(best)
        self.memo[key] = result
        return result

    def walk(self, level: int) -> tuple[list[_Candidate], list[int], int, tuple[int, ...]]:
        """The choices of one best arrangement at ``level``: the groups' candidates, the
        types of the naturals in no group, and the jokers and wild cards left."""
        state, budget, wilds = self.state, self.budget, self.wild_suits
        groups: list[_Candidate] = []
        dead: list[int] = []
        while state:
            target = self.solve(state, budget, wilds)[level]
            low = state & -state
            t = (low.bit_length() - 1) >> 1
            present = (state | state >> 1) & _LOW_BITS
            chosen: _Candidate | None = None
            for candidate in self.candidates[t]:
                if candidate.need & ~present or candidate.cost > budget:
                    continue
                left = wilds
                if candidate.designated >= 0:
                    if not wilds[candidate.designated]:
                        continue
                    left = _less(wilds, candidate.designated)
                child = self.solve(state - candidate.need, budget - candidate.cost, left)
                if child[_AFTER[candidate.kind][level]] == target:
                    chosen = candidate
                    break
            if chosen is None:
                dead.append(t)
                state -= 1 << 2 * t
                continue
            groups.append(chosen)
            if chosen.designated >= 0:
                wilds = _less(wilds, chosen.designated)
            state -= chosen.need
            budget -= chosen.cost
            level = _AFTER[chosen.kind][level]
        return groups, dead, level, wilds


def _less(wilds: tuple[int, ...], suit: int) -> tuple[int, ...]:
    return wilds[:suit] + (wilds[suit] - 1,) + wilds[suit + 1 :]


# ---------------------------------------------------------------------------------------
# From the search back to cards


@dataclass
class _Solved:
    hand: tuple[Card, ...]
    wild: Rank | None
    values: tuple[int, ...]  # the least count (uncapped) at each level, _INF when impossible
    arrangement: Arrangement | None  # a best arrangement meeting the rule, if any


def _solve(hand: Sequence[Card], wild: Rank | None) -> _Solved:
    naturals = [card for card in hand if not is_joker(card, wild)]
    printed = [card for card in hand if card.is_joker]
    wild_cards = [card for card in hand if not card.is_joker and is_joker(card, wild)]
    wild_suits = tuple(sum(1 for c in wild_cards if c.suit is s) for s in SUITS)
    search = _Search(naturals, len(printed) + len(wild_cards), wild_suits, wild)
    values = search.solve(search.state, search.budget, wild_suits)
    arrangement = None
    if values[_START] < _INF:
        arrangement = _build(search, printed, wild_cards)
    return _Solved(tuple(hand), wild, values, arrangement)


def _build(search: _Search, printed: list[Card], wild_cards: list[Card]) -> Arrangement:
    chosen, dead, level, wilds_left = search.walk(_START)
    # the wild cards read in their own place, by suit; the rest play as jokers
    designated: dict[int, list[Card]] = {}
    free_wild = list(wild_cards)
    for candidate in chosen:
        if candidate.designated >= 0:
            suit = SUITS[candidate.designated]
            card = next(c for c in free_wild if c.suit is suit)
            free_wild.remove(card)
            designated.setdefault(candidate.designated, []).append(card)
    spare = list(printed) + free_wild  # printed jokers are used first
    groups: list[Group] = []
    for candidate in chosen:
        groups.append(_group_of(candidate, designated, spare))
    if level == 1:  # the last sequence is a wild card in its own place and two jokers
        wild_card = next(c for c in spare if not c.is_joker)
        spare.remove(wild_card)
        others = [spare.pop(0), spare.pop(0)]
        assert wild_card.rank is not None and wild_card.suit is not None
        at = 14 if wild_card.rank == Rank.ACE else int(wild_card.rank)
        bottom = min(max(at - 1, 1), 12) if at != 14 else 12
        cards: list[Card] = []
        for position in range(bottom, bottom + 3):
            cards.append(wild_card if position == at else others.pop())
        jokers = tuple(c for c in cards if c is not wild_card)
        groups.append(Group(GroupKind.IMPURE, tuple(cards), jokers, bottom))
    ungrouped = [_card_of_type(t) for t in dead]
    groups, spare = _absorb(groups, spare)
    return Arrangement(tuple(groups), tuple(ungrouped) + tuple(spare))


def _card_of_type(t: int) -> Card:
    suit, rank = divmod(t, 16)
    return Card(Rank(rank + 1), SUITS[suit])


def _group_of(candidate: _Candidate, designated: dict[int, list[Card]], spare: list[Card]) -> Group:
    suit = SUITS[candidate.suit]
    if candidate.kind == _SET:
        rank = Rank(candidate.window[0])
        naturals = tuple(Card(rank, SUITS[s]) for s in candidate.taken)
        fillers = tuple(spare.pop(0) for _ in range(candidate.cost))
        return Group(GroupKind.SET, naturals + fillers, fillers)
    cards: list[Card] = []
    jokers: list[Card] = []
    bottom, top = candidate.window
    for position in range(bottom, top + 1):
        if position in candidate.taken:
            cards.append(Card(_position_rank(position), suit))
        elif position == candidate.wild_position:
            cards.append(designated[candidate.designated].pop())
        else:
            joker = spare.pop(0)
            cards.append(joker)
            jokers.append(joker)
    kind = GroupKind.PURE if candidate.kind == _PURE else GroupKind.IMPURE
    return Group(kind, tuple(cards), tuple(jokers), bottom)


def _absorb(groups: list[Group], spare: list[Card]) -> tuple[list[Group], list[Card]]:
    """Put the jokers left over into groups without breaking the rule: into a set, at an
    end of an impure sequence, or of a pure one when another pure one stays."""
    groups = list(groups)
    spare = list(spare)
    while spare:
        joker = spare[0]
        placed = False
        for i, group in enumerate(groups):
            if group.kind is GroupKind.SET:
                groups[i] = Group(group.kind, group.cards + (joker,), group.jokers + (joker,))
                placed = True
                break
        if not placed:
            pure = sum(g.kind is GroupKind.PURE for g in groups)
            order = sorted(range(len(groups)), key=lambda i: groups[i].kind is GroupKind.PURE)
            for i in order:
                group = groups[i]
                if group.kind is GroupKind.PURE and pure < 2:
                    continue
                extended = _extend(group, joker)
                if extended is not None:
                    groups[i] = extended
                    placed = True
                    break
        if not placed:
            break
        spare.pop(0)
    return groups, spare


def _extend(group: Group, joker: Card) -> Group | None:
    """The sequence with ``joker`` at its top or bottom, if there is room."""
    bottom, top = group.bottom, group.bottom + len(group.cards) - 1
    if top < 13 or (top == 13 and bottom > 1):
        return Group(GroupKind.IMPURE, group.cards + (joker,), group.jokers + (joker,), bottom)
    if bottom > 2 or (bottom == 2 and top < 14):
        return Group(GroupKind.IMPURE, (joker,) + group.cards, group.jokers + (joker,), bottom - 1)
    return None


# ---------------------------------------------------------------------------------------
# The public calls


def least_count(
    cards: CardsIn,
    cut: Card | str | None = None,
    *,
    decks: int = 2,
    full_count: int = FULL_COUNT,
) -> Count:
    """A loser's least count: with two sequences (one pure) among the 13 cards, the cards
    in no group in the best arrangement, else all 13; at most ``full_count``."""
    cut_card = _cut_card(cut)
    hand = _hand(cards, cut_card, decks, THE_HAND)
    return _count(_solve(hand, wild_rank(cut_card)), full_count)


def _count(solved: _Solved, full_count: int) -> Count:
    points = solved.values[_START]
    if solved.arrangement is None:
        total = sum(card_value(card, solved.wild) for card in solved.hand)
        return Count(min(total, full_count), total, Arrangement((), solved.hand), False, full_count)
    return Count(min(points, full_count), points, solved.arrangement, True, full_count)


def check_show(
    cards: CardsIn | None = None,
    cut: Card | str | None = None,
    *,
    groups: GroupsIn | None = None,
    decks: int = 2,
    full_count: int = FULL_COUNT,
) -> ShowCheck:
    """Whether a show of 13 cards is valid: valid when some arrangement of them is, whatever
    grouping was typed (``groups``, or the bare ``cards``)."""
    cut_card = _cut_card(cut)
    wild = wild_rank(cut_card)
    typed: list[tuple[Card, ...]] = []
    if groups is not None:
        typed = [read_cards(group) for group in groups]
        cards = [card for group in typed for card in group]
    hand = _hand(cards if cards is not None else (), cut_card, decks, THE_SHOW)
    read = [read_group(group, wild) for group in typed]
    problems = tuple(r for r in read if isinstance(r, Reason))
    as_typed = Arrangement(tuple(r for r in read if isinstance(r, Group)))
    if typed and not problems and as_typed.meets_rule:
        return ShowCheck(True, as_typed, as_typed=True)
    solved = _solve(hand, wild)
    count = _count(solved, full_count)
    if solved.values[_START] == 0:
        assert solved.arrangement is not None and not solved.arrangement.ungrouped
        return ShowCheck(True, solved.arrangement, typed_problems=problems, count=count)
    return ShowCheck(
        False,
        count.arrangement,
        (_why_invalid(solved, as_typed),),
        typed_problems=problems,
        count=count,
    )


def _why_invalid(solved: _Solved, typed: Arrangement) -> Reason:
    if solved.values[_ANY_PURE] >= _INF:
        for group in typed.groups:
            if group.kind is GroupKind.IMPURE:
                jokers = [str(card) for card in group.jokers]
                key = NO_PURE_TYPED if len(jokers) == 1 else NO_PURE_TYPED_MANY
                return Reason.of(key, group=str(group), jokers=_and(jokers))
        return Reason.of(NO_PURE)
    if solved.values[_START] >= _INF:
        return Reason.of(ONLY_ONE_SEQUENCE)
    assert solved.arrangement is not None
    left = [str(card) for card in solved.arrangement.ungrouped if not is_joker(card, solved.wild)]
    return Reason.of(IN_NO_GROUP_ONE if len(left) == 1 else IN_NO_GROUP, cards=_and(left))


def _and(items: Sequence[str]) -> str | Reason:
    if len(items) == 1:
        return items[0]
    return Reason.of(AND, first=", ".join(items[:-1]), second=items[-1])


__all__ = [
    "FULL_COUNT",
    "Arrangement",
    "Count",
    "Group",
    "GroupKind",
    "ShowCheck",
    "card_value",
    "check_deck",
    "check_show",
    "deck",
    "is_joker",
    "least_count",
    "read_cards",
    "read_group",
    "wild_rank",
]
