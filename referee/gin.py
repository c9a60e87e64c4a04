"""Gin rummy (ruleset ``gin``): the deadwood optimiser and knock adjudication.

Public API (cards may be given as a string, or as a list of strings or :class:`Card`):

* :func:`best_arrangement` -- the non-overlapping melds of a 10-card hand that leave the
  least deadwood; for 11 cards (after the draw) also the best discard, big gin included.
* :func:`adjudicate_knock` -- a knock settled: both arrangements, the defender's melds and
  lay-offs chosen jointly for the least deadwood, and the score (knock, undercut or gin).
* :func:`adjudicate_round` and :func:`score_knock_round` -- the same for the match
  replay, by player name.
* :func:`least_deadwood` -- the number alone.
* :func:`deadwood_of_mask` and :func:`best_discard_of_mask` -- the bare numbers on a card
  mask (see :func:`mask_of`).

The public calls are the fast path: card objects in a list or tuple are read without
parsing (identity tests on the suit, one bit per card), the melds and the deadwood cards
come from per-lane tables of card tuples, and :class:`Arrangement` is a named tuple; so
:func:`best_arrangement` costs a few microseconds more than the solver on the bare mask.
Spreads are checked by :mod:`referee.melds`; the knock limit and the bonuses are the
ruleset's data.

>>> best = best_arrangement('7S 8S 9S 7H 7D 2C 3H 4D 5C KC')
>>> [format_cards(meld) for meld in best.melds], best.deadwood
(['7S 8S 9S'], 38)
>>> knock = adjudicate_knock('7C 8C 9C 2S 2H 2D 5H 6H 7H AS',
...                          '6C 10C 4D 10S JS QS KS 9H 9D 9S')
>>> knock.defender_deadwood_before_layoffs, knock.defender_deadwood, knock.outcome.value
(20, 4, 'knock')

How the optimum is found, and why it is exact
=============================================

Cards are bits of one integer: bit ``16 * suit + (rank - 1)``, so each suit is a 13-bit
*lane* and lanes are separated by 3 zero bits (a shift never carries a card into the next
suit, and an ace is never next to a king: K-A-2 cannot appear).

**Runs are forced once the sets are chosen.**  Fix which cards of the hand go into sets.
Among the other cards, call a card *runnable* when it lies in a block of 3 or more
consecutive cards of one suit (``t = p & p>>1 & p>>2; runnable = t | t<<1 | t<<2`` on a
lane ``p``).  Each such maximal block is itself a legal run, so every runnable card can be
melded; and a card that is not runnable is in no run at all (a run is 3+ consecutive
cards of a suit, so its cards lie in such a block).  Hence, for a fixed choice of sets,
the least deadwood is the value of the cards that are neither in a set nor runnable, and
it is read from a table indexed by the 13-bit lane (``_DEAD``): four look-ups.

**Only a few set choices exist.**  Two disjoint sets cannot share a rank (that would need
6 cards of it), so an arrangement takes at most one set per rank, out of the ranks held
3 or 4 times (at most 3 such ranks in 11 cards).  For such a rank the candidates are: no
set, all of its cards, or (when 4 are held) the 3 cards left after setting one aside.
Two prunings keep the optimum and remove most of the work, both resting on one fact: a
card that is not runnable in the whole hand is not runnable in any part of it, and taking
it out of the hand changes no other card's status (its block has at most 2 cards, which
are dead anyway).  So (a) a rank none of whose cards is runnable always takes the full
set (any other choice only adds those cards to the deadwood), and (b) a 4-card rank only
needs the 3-card sets that set aside a *runnable* card, and "no set" only when 2 or more
of its cards are runnable.  Every arrangement is thus dominated by one of the enumerated
choices, and each choice is evaluated exactly: the minimum over them is the optimum.

**11 cards.**  Discarding ``c`` and arranging the other 10 is an arrangement of the 11 in
which ``c`` is deadwood; conversely an arrangement of the 11 with deadwood ``D`` allows
discarding any card of ``D``, best the most valuable one.  So the least deadwood after
the best discard is ``min over arrangements of (value(D) - max value in D)``, or 0 when
``D`` is empty (big gin, which counts as gin).  This quantity never decreases when a card
is added to ``D`` (``v - max(m, v) >= -m``), so the same runs-are-forced argument and
the same prunings hold, and the largest dead card per lane is read from a table too.
One search over the 11 cards replaces 11 searches over 10.

**Lay-offs.**  After a knock, let ``P`` be the defender's cards plus the cards of the
knocker's spread *runs*.  A defender card can be laid off on a run, possibly in a chain,
exactly when it lies in a block of consecutive same-suit cards of ``P`` that contains a
knocker run card: such a block has 3+ cards since the run does, and the chain is laid
from the run's end outward.  A defender card can be in its own run exactly when it lies
in a 3+ block of its own cards.  Both cases together are precisely "runnable in ``P``",
so the same lane tables apply to ``P``.  The fourth card of a knocker's 3-card set is a
one-card choice (lay it off or not) treated like a set choice, with the same prunings.
The defender's melds and lay-offs are therefore optimised jointly, exactly, by the same
enumeration.  Nothing is laid off on gin.  When the knocker's melds are not given, every
least-deadwood arrangement of the knocker is tried (they differ only in their set
choices: their runs are maximal since every card is worth at least 1, and splitting a
run changes no lay-off since the split points are the knocker's own cards) and the one
leaving the defender the most deadwood is used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any, NamedTuple, TypeAlias

from referee.cards import JOKER_BIT, RANKS, SUITS, Card
from referee.errors import RuleError
from referee.melds import NUMBERED_MELD_ILLEGAL, check_meld
from referee.messages import Reason, define_message, define_text
from referee.notation import format_card, format_cards, parse_cards
from referee.rulesets.base import (
    Bonuses,
    Deadwood,
    HandSize,
    Knock,
    Ruleset,
    card_values,
)
from referee.scoring import Outcome

CardsIn: TypeAlias = "str | Card | Iterable[str | Card]"
MeldsIn: TypeAlias = "str | Iterable[str | Card | Iterable[str | Card]]"

ARRANGEMENT_SIZE = define_message(
    "gin.arrangement_size",
    "a gin hand has 10 cards, or 11 after the draw; {count} cards were given",
)
KNOCK_HAND_SIZE = define_message(
    "gin.knock_hand_size",
    "{who} must hold 10 cards at the knock (after the discard), not {count}",
)
REPEATED_CARD = define_message(
    "gin.repeated_card", "{card} is given twice in {whose}: a deck has one of each card"
)
IN_BOTH_HANDS = define_message(
    "gin.in_both_hands", "{card} is in both hands: a deck has one of each card"
)
JOKER = define_message("gin.joker", "gin is played without jokers: {card} cannot be in a hand")
KNOCK_TOO_HIGH = define_message(
    "gin.knock_too_high_limit",
    "{who} cannot knock: the least deadwood of that hand is {deadwood} ({cards}), "
    "and a knock needs {limit} or less",
)
SPREAD_TOO_HIGH = define_message(
    "gin.spread_too_high_limit",
    "{who} cannot knock with that spread: it leaves {deadwood} deadwood ({cards}), "
    "and a knock needs {limit} or less",
)
GIN_ONLY = define_message(
    "gin.gin_only",
    "{who} cannot knock: with an ace upcard only gin ends the round, and the least "
    "deadwood of that hand is {deadwood} ({cards})",
)
BIG_GIN_NOT_MELDED = define_message(
    "gin.big_gin_not_melded",
    "{who} holds 11 cards, which is only a knock as big gin, every card melded; "
    "{deadwood} deadwood is left ({cards})",
)
WHY_BIG_GIN = define_message(
    "gin.why_big_gin",
    "big gin: {knocker} melded all 11 cards, so nothing is laid off; {knocker} scores "
    "{defender}'s deadwood {deadwood} + {bonus} + {big_bonus} = {points}",
)
MELD_NOT_IN_HAND = define_message(
    "gin.meld_not_in_hand", "{card} in meld {number} is not in {whose}"
)
MELD_CARD_TWICE = define_message(
    "gin.meld_card_twice", "{card} is in meld {first} and in meld {second}"
)
NOT_TWO_HANDS = define_message(
    "gin.not_two_hands", "a gin round is played by two players; {count} hands were given"
)
UNKNOWN_KNOCKER = define_message(
    "gin.unknown_knocker", "{name} knocked but has no hand in this round"
)
WHY_GIN = define_message(
    "gin.why_gin_bonus",
    "gin: {knocker} melded every card, so nothing is laid off; {knocker} scores "
    "{defender}'s deadwood {deadwood} + {bonus} = {points}",
)
WHY_KNOCK = define_message(
    "gin.why_knock",
    "knock: {defender}'s deadwood {defender_deadwood} is higher than {knocker}'s "
    "{knocker_deadwood}; {knocker} scores {defender_deadwood} - {knocker_deadwood} = {points}",
)
WHY_UNDERCUT = define_message(
    "gin.why_undercut_bonus",
    "undercut: {defender}'s deadwood {defender_deadwood} is not higher than {knocker}'s "
    "{knocker_deadwood}; {defender} scores {knocker_deadwood} - {defender_deadwood} + {bonus} "
    "= {points}",
)
THE_HAND = define_message("gin.the_hand", "the hand")
HAND_OF = define_message("gin.hand_of", "{who}'s hand")
THE_KNOCKER = define_message("gin.the_knocker", "the knocker")
THE_DEFENDER = define_message("gin.the_defender", "the defender")

DEALT = 10
RULES = Ruleset(
    id="gin",
    name=define_text("ruleset.gin.name", "Gin Rummy"),
    min_players=2,
    max_players=2,
    deal_sizes={2: DEALT},
    values=card_values(1, None, 10, 10),
    target=100,
    knock=Knock(limit=10),
    bonuses=Bonuses(gin=25, undercut=25),
    hand_size=HandSize(exact=DEALT),
    # The most deadwood 10 cards can leave is 98 (K K Q Q J J 10 10 9 9 in suits that make
    # no run).
    deadwood=Deadwood(most=98, big_gin=True),
)
"""Standard gin as the solver knows it: the card values, the deal, the knock limit and the
bonuses.  :mod:`referee.rulesets.gin` makes the registered ruleset of it (texts, house rules,
hooks); every call reads the knock limit and bonuses from the ruleset it is given (this
one by default)."""


# ---------------------------------------------------------------------------------------
# Card masks and lane tables

_LANE = 0x1FFF  # the 13 ranks of one suit
_EVERY_LANE = 0x0001_0001_0001_0001  # a rank mask times this is that rank in every suit
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}

_CARD_AT: list[Card | None] = [None] * 64
for _suit in SUITS:
    for _rank in RANKS:
        _card = Card(_rank, _suit)
        _CARD_AT[_card.bit] = _card


def _build_tables() -> tuple[
    tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]
]:
    values = [RULES.values[r] for r in range(13)]
    total = [0] * 8192
    runnable = [0] * 8192
    dead = [0] * 8192
    tops = [[0] * 8192 for _ in range(4)]
    for p in range(1, 8192):
        low = p & -p
        total[p] = total[p ^ low] + values[low.bit_length() - 1]
        t = p & p >> 1 & p >> 2
        runs = t | t << 1 | t << 2
        runnable[p] = runs
        d = p & ~runs
        dead[p] = total[d]
        if d:
            high = d.bit_length() - 1  # the highest rank is a most valuable card
            for lane in range(4):
                tops[lane][p] = values[high] << 6 | (16 * lane + high)
    return tuple(total), tuple(runnable), tuple(dead), tuple(tuple(t) for t in tops)


# _TOTAL[p]: the value of the cards of lane p; _RUN[p]: its runnable cards; _DEAD[p]: the
# value of its other cards; _TOP[s][p]: (value << 6 | bit) of the most valuable
# non-runnable card of lane p of suit s.
_TOTAL, _RUN, _DEAD, _TOP = _build_tables()
_TOP0, _TOP1, _TOP2, _TOP3 = _TOP


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of natural cards (bit ``16 * suit + rank - 1``, suits in S H D C order,
    which is :attr:`Card.bit`); a joker is refused."""
    mask = 0
    for card in cards:
        if card.is_joker:
            raise RuleError(JOKER, card=format_card(card))
        mask |= 1 << card.bit
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, suit by suit, in rank order."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        card = _CARD_AT[low.bit_length() - 1]
        assert card is not None
        out.append(card)
        mask ^= low
    return tuple(out)


def _value(mask: int) -> int:
    total = _TOTAL
    return (
        total[mask & _LANE]
        + total[mask >> 16 & _LANE]
        + total[mask >> 32 & _LANE]
        + total[mask >> 48]
    )


def _runnable(pattern: int) -> int:
    return (
        _RUN[pattern & _LANE]
        | _RUN[pattern >> 16 & _LANE] << 16
        | _RUN[pattern >> 32 & _LANE] << 32
        | _RUN[pattern >> 48 & _LANE] << 48
    )


# ---------------------------------------------------------------------------------------
# The search


def _choices(
    pattern: int, own: int, layoffs: int, every_spread: bool = False
) -> tuple[int, list[list[int]]]:
    """Cards always removed by sets or set lay-offs, and the remaining choices to try.

    ``own`` holds the cards that may form sets, ``pattern`` the cards whose runs count
    (``own`` plus any table run cards), ``layoffs`` the own cards that fit a table set.
    ``every_spread`` keeps choices that differ only by swapping twin suits: the
    defender's lay-offs can tell them apart.
    """
    a = own & _LANE
    b = own >> 16 & _LANE
    c = own >> 32 & _LANE
    d = own >> 48 & _LANE
    trips = a & b & (c | d) | c & d & (a | b)
    forced = 0
    choices: list[list[int]] = []
    if not trips and not layoffs:
        return forced, choices
    runnable = _runnable(pattern)
    # Suits whose cards (and table cards) are the same ranks can be swapped without
    # changing any deadwood; so the first rank that sets a card aside needs only one
    # suit of each such group (every choice has a swapped twin that uses it).
    twins = not layoffs and not every_spread
    while trips:
        low = trips & -trips
        trips ^= low
        cards = own & low * _EVERY_LANE
        hits = cards & runnable
        if not hits:
            forced |= cards
            continue
        options = [cards]
        if cards.bit_count() == 4:
            rest = hits
            seen: list[tuple[int, int]] = []
            while rest:
                one = rest & -rest
                rest ^= one
                if twins:
                    shift = (one.bit_length() - 1) & ~15
                    lanes = (own >> shift & _LANE, pattern >> shift & _LANE)
                    if lanes in seen:
                        continue
                    seen.append(lanes)
                options.append(cards ^ one)
            twins = False
            if hits.bit_count() >= 2:
                options.append(0)
        else:
            options.append(0)
        choices.append(options)
    while layoffs:
        one = layoffs & -layoffs
        layoffs ^= one
        if one & runnable:
            choices.append([one, 0])
        else:
            forced |= one
    return forced, choices


def _scores(pattern: int, removals: list[int], eleven: bool) -> list[int]:
    """Each removal's deadwood; for 11 cards ``64 * (deadwood after the best discard) +
    the discard's value``, so that among equal deadwoods the least valuable discard (none,
    for big gin) comes first."""
    dead = _DEAD
    if eleven:
        return [
            (
                dead[(r := pattern & ~x) & _LANE]
                + dead[r >> 16 & _LANE]
                + dead[r >> 32 & _LANE]
                + dead[r >> 48]
                << 6
            )
            - 63
            * (
                max(
                    _TOP0[r & _LANE],
                    _TOP1[r >> 16 & _LANE],
                    _TOP2[r >> 32 & _LANE],
                    _TOP3[r >> 48],
                )
                >> 6
            )
            for x in removals
        ]
    return [
        dead[(r := pattern & ~x) & _LANE]
        + dead[r >> 16 & _LANE]
        + dead[r >> 32 & _LANE]
        + dead[r >> 48]
        for x in removals
    ]


def _optimise(
    pattern: int, own: int, layoffs: int, eleven: bool, every_spread: bool = False
) -> tuple[int, list[int]]:
    """The least deadwood and every set/lay-off removal mask that reaches it (for 11 cards,
    with the least valuable discard among them)."""
    forced, choices = _choices(pattern, own, layoffs, every_spread)
    removals = [forced]
    for options in choices:
        removals = [x | o for x in removals for o in options]
    scores = _scores(pattern, removals, eleven)
    best = min(scores)
    found = [x for x, s in zip(removals, scores, strict=True) if s == best]
    return (best >> 6 if eleven else best), found


def deadwood_of_mask(mask: int) -> int:
    """The least deadwood of a hand given as a card mask (exact, any number of cards).

    >>> deadwood_of_mask(mask_of(parse_cards('7S 8S 9S 7H 7D')))
    14
    """
    a = mask & _LANE
    b = mask >> 16 & _LANE
    c = mask >> 32 & _LANE
    d = mask >> 48
    trips = a & b & (c | d) | c & d & (a | b)
    dead = _DEAD
    if not trips:
        return dead[a] + dead[b] + dead[c] + dead[d]
    run = _RUN
    if not trips & (run[a] | run[b] | run[c] | run[d]):
        keep = ~trips
        return dead[a & keep] + dead[b & keep] + dead[c & keep] + dead[d & keep]
    return _optimise(mask, mask, 0, False)[0]


def best_discard_of_mask(mask: int) -> tuple[int, int]:
    """For 11 cards: the least deadwood after the best discard, and that discard's bit.

    The bit is -1 when the chosen arrangement melds all 11 cards (big gin); the
    deadwood is then 0.

    >>> deadwood, bit = best_discard_of_mask(mask_of(parse_cards('7S 8S 9S 7H 7D KC')))
    >>> deadwood, cards_of(1 << bit)
    (14, (Card.parse('KC'),))
    """
    a = mask & _LANE
    b = mask >> 16 & _LANE
    c = mask >> 32 & _LANE
    d = mask >> 48
    trips = a & b & (c | d) | c & d & (a | b)
    dead = _DEAD
    if not trips:
        top = max(_TOP0[a], _TOP1[b], _TOP2[c], _TOP3[d])
        return (dead[a] + dead[b] + dead[c] + dead[d] - (top >> 6), (top & 63) if top else -1)
    run = _RUN
    if not trips & (run[a] | run[b] | run[c] | run[d]):
        keep = ~trips
        a &= keep
        b &= keep
        c &= keep
        d &= keep
        top = max(_TOP0[a], _TOP1[b], _TOP2[c], _TOP3[d])
        return (dead[a] + dead[b] + dead[c] + dead[d] - (top >> 6), (top & 63) if top else -1)
    best, removals = _optimise(mask, mask, 0, True)
    r = mask & ~removals[0]
    top = max(_TOP0[r & _LANE], _TOP1[r >> 16 & _LANE], _TOP2[r >> 32 & _LANE], _TOP3[r >> 48])
    return best, (top & 63) if top else -1


# ---------------------------------------------------------------------------------------
# Results


class Arrangement(NamedTuple):
    """A hand counted in melds and deadwood (immutable; a named tuple, so that the public
    call costs little more than the solver).

    For 11 cards, ``discard`` is the best card to throw and the melds and deadwood are
    those of the 10 cards left; with big gin (all 11 melded) ``discard`` is ``None``.
    """

    cards: tuple[Card, ...]
    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int
    discard: Card | None = None
    is_gin: bool = False
    big_gin: bool = False
    can_knock: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [format_card(c) for c in self.cards],
            "melds": [[format_card(c) for c in meld] for meld in self.melds],
            "deadwood_cards": [format_card(c) for c in self.deadwood_cards],
            "deadwood": self.deadwood,
            "discard": None if self.discard is None else format_card(self.discard),
            "gin": self.is_gin,
            "big_gin": self.big_gin,
            "can_knock": self.can_knock,
        }


@dataclass(frozen=True)
class Layoff:
    """Cards of the defender added, in this order, to the knocker's meld number ``onto``."""

    cards: tuple[Card, ...]
    onto: int  # index into the knocker's melds (0-based)
    meld: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [format_card(c) for c in self.cards],
            "onto": [format_card(c) for c in self.meld],
        }


@dataclass(frozen=True)
class Adjudication:
    """A knock settled.

    ``defender`` holds the defender's own melds and the deadwood left after the
    lay-offs; ``defender_deadwood_before_layoffs`` is the defender's least deadwood
    without any lay-off.  ``outcome`` is :attr:`Outcome.KNOCK`, :attr:`Outcome.GIN`
    or :attr:`Outcome.UNDERCUT`; ``winner`` is ``"knocker"`` or ``"defender"``, and
    ``names`` (knocker, defender) name them.
    """

    knocker: Arrangement
    defender: Arrangement
    layoffs: tuple[Layoff, ...]
    knocker_deadwood: int
    defender_deadwood: int
    defender_deadwood_before_layoffs: int
    outcome: Outcome
    winner: str
    points: int
    why: Reason
    names: tuple[str | Reason, str | Reason]
    knocker_melds_given: bool = False
    big_gin: bool = False  # the knocker melded all 11 cards

    @property
    def explanation(self) -> str:
        return self.why.text

    @property
    def knocker_points(self) -> int:
        return self.points if self.winner == "knocker" else 0

    @property
    def defender_points(self) -> int:
        return self.points if self.winner == "defender" else 0

    @property
    def winner_name(self) -> str | Reason:
        """The round winner, as ``names`` calls them."""
        return self.names[0] if self.winner == "knocker" else self.names[1]

    def to_json(self) -> dict[str, Any]:
        defender = self.defender.to_json()
        defender["deadwood_before_layoffs"] = self.defender_deadwood_before_layoffs
        return {
            "knocker": self.knocker.to_json(),
            "defender": defender,
            "layoffs": [layoff.to_json() for layoff in self.layoffs],
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "points": self.points,
            "scores": {"knocker": self.knocker_points, "defender": self.defender_points},
            "reason": self.explanation,
        }


KnockResult = Adjudication


# ---------------------------------------------------------------------------------------
# Reading hands; cards of masks, by lane


def _hand(cards: CardsIn, whose: Reason | None = None) -> tuple[tuple[Card, ...], int]:
    """The cards as a tuple and as a mask; jokers and repeated cards refused.

    Card objects in a list or tuple are taken as they are, one bit each (see
    :attr:`Card.bit`); anything else is parsed.  ``whose`` names the hand in the
    message about a repeated card ("the hand" when not given).
    """
    kind = type(cards)
    if kind is tuple or kind is list:
        hand: tuple[Card, ...] = tuple(cards)  # type: ignore[arg-type]
        mask = 0
        try:
            for card in hand:
                mask |= 1 << card.bit
        except AttributeError:  # card codes in the list
            hand = parse_cards(hand)
        else:
            if mask < _JOKER and mask.bit_count() == len(hand):
                return hand, mask
    else:
        hand = parse_cards(cards)
    mask = 0
    for card in hand:
        if card.is_joker:
            raise RuleError(JOKER, card=format_card(card))
        bit = 1 << card.bit
        if mask & bit:
            raise RuleError(REPEATED_CARD, card=format_card(card), whose=whose or _THE_HAND)
        mask |= bit
    return hand, mask


_JOKER = 1 << JOKER_BIT
_THE_HAND = Reason.of(THE_HAND)

# The cards of a lane's 13-bit pattern, per suit, filled in as patterns are met.
_LANE_CARDS: list[list[tuple[Card, ...] | None]] = [[None] * 8192 for _ in SUITS]
for _lane in _LANE_CARDS:
    _lane[0] = ()


def _lane_cards(lane: int, pattern: int) -> tuple[Card, ...]:
    cards = _LANE_CARDS[lane][pattern]
    if cards is None:
        cards = cards_of(pattern << 16 * lane)
        _LANE_CARDS[lane][pattern] = cards
    return cards


# What one lane's pattern adds up to once the sets are taken out, per suit, filled in as
# patterns are met: the value of its dead cards, its dead cards, its maximal runs in rank
# order, the same runs each keyed by its first card as ``rank << 2 | suit`` (to order
# melds by), its most valuable dead card as ``value << 6 | bit`` (0 if none: see _TOP),
# and its dead cards but that one.
_LaneInfo: TypeAlias = tuple[
    int,
    tuple[Card, ...],
    tuple[tuple[Card, ...], ...],
    tuple[tuple[int, tuple[Card, ...]], ...],
    int,
    tuple[Card, ...],
]
_LANE_INFO: list[list[_LaneInfo | None]] = [[None] * 8192 for _ in SUITS]


def _lane_info(lane: int, pattern: int) -> _LaneInfo:
    info = _LANE_INFO[lane][pattern]
    if info is None:
        runs = _RUN[pattern]
        dead = pattern & ~runs
        blocks = _blocks(runs)
        top = _TOP[lane][pattern]
        runs_cards = tuple(_lane_cards(lane, block) for block in blocks)
        keys = (((block & -block).bit_length() - 1) << 2 | lane for block in blocks)
        info = (
            _DEAD[pattern],
            _lane_cards(lane, dead),
            runs_cards,
            tuple(zip(keys, runs_cards, strict=True)),
            top,
            _lane_cards(lane, dead & ~(1 << (top & 15))) if top else (),
        )
        _LANE_INFO[lane][pattern] = info
    return info


# A set, keyed by its first card (see _LaneInfo): per rank, by ``(mask >> rank) &
# _EVERY_LANE``.
_Keyed: TypeAlias = tuple[tuple[int, tuple[Card, ...]], ...]
_SET_CARDS: list[dict[int, _Keyed]] = [
    {
        suits: ((rank << 2 | ((suits & -suits).bit_length() - 1) >> 4, cards_of(suits << rank)),)
        for suits in (
            a | b << 16 | c << 32 | d << 48
            for a in (0, 1)
            for b in (0, 1)
            for c in (0, 1)
            for d in (0, 1)
        )
        if suits
    }
    for rank in range(13)
]


def _cards_of(mask: int) -> tuple[Card, ...]:
    """:func:`cards_of`, four look-ups once the lanes have been met."""
    lanes = _LANE_CARDS
    a = lanes[0][mask & _LANE]
    b = lanes[1][mask >> 16 & _LANE]
    c = lanes[2][mask >> 32 & _LANE]
    d = lanes[3][mask >> 48]
    if a is None or b is None or c is None or d is None:
        return (
            _lane_cards(0, mask & _LANE)
            + _lane_cards(1, mask >> 16 & _LANE)
            + _lane_cards(2, mask >> 32 & _LANE)
            + _lane_cards(3, mask >> 48)
        )
    return a + b + c + d


def _melds_of(hand: int, sets: int) -> tuple[list[tuple[Card, ...]], int]:
    """The sets in ``sets`` (one per rank) and the maximal runs of the rest, ordered by
    their first card (rank, then suit); and the dead cards."""
    keyed = list(_set_melds(sets)) if sets else []
    rest = hand & ~sets
    for lane in range(4):
        keyed.extend(_lane_info(lane, rest >> 16 * lane & _LANE)[3])
    keyed.sort()
    return [meld for _, meld in keyed], rest & ~_runnable(rest)


def _blocks(mask: int) -> list[int]:
    """The maximal blocks of consecutive bits of ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        block = mask & ~(mask + low)  # the consecutive bits from ``low`` upward
        out.append(block)
        mask ^= block
    return out


def _meld_key(meld: tuple[Card, ...]) -> tuple[int, int]:
    first = meld[0]
    assert first.rank is not None and first.suit is not None
    return (int(first.rank), _SUIT_INDEX[first.suit])


def _arrangement(
    cards: tuple[Card, ...],
    melds: Sequence[tuple[Card, ...]],
    dead: int,
    limit: int,
    discard: Card | None = None,
) -> Arrangement:
    deadwood = _value(dead)
    return _new_arrangement(
        Arrangement,
        (
            cards,
            tuple(melds),
            _cards_of(dead),
            deadwood,
            discard,
            deadwood == 0,
            False,
            deadwood <= limit,
        ),
    )


_new_arrangement = tuple.__new__


# ---------------------------------------------------------------------------------------
# The public calls


def best_arrangement(
    cards: CardsIn, rules: Ruleset | None = None, knock_limit: int | None = None
) -> Arrangement:
    """The arrangement of 10 cards leaving the least deadwood; for 11, the best discard too.

    ``can_knock`` compares the deadwood with ``knock_limit``, or else the knock limit of
    ``rules`` (gin's 10 when not given; an Oklahoma round's: see :func:`adjudicate_knock`);
    a limit of 0 means gin only.  Card objects in a list or tuple are read as they are; cards may also be
    given as a string or a list of codes.

    >>> a = best_arrangement('7S 8S 9S 7H 7D KC 2C 3H 4D 5C')
    >>> [format_cards(m) for m in a.melds], a.deadwood, a.can_knock
    (['7S 8S 9S'], 38, False)
    >>> b = best_arrangement('7S 8S 9S 7H 7D 7C 2C 2H 2D 5C KD')
    >>> format_card(b.discard), b.deadwood, b.can_knock
    ('KD', 5, True)
    """
    hand, mask = _hand(cards)
    size = len(hand)
    if size != 10 and size != 11:
        raise RuleError(ARRANGEMENT_SIZE, count=size)
    eleven = size == 11
    a = mask & _LANE
    b = mask >> 16 & _LANE
    c = mask >> 32 & _LANE
    d = mask >> 48
    sets = 0
    trips = a & b & (c | d) | c & d & (a | b)
    if trips:  # ranks held 3 or 4 times: their sets, chosen when they compete with runs
        if trips & (_RUN[a] | _RUN[b] | _RUN[c] | _RUN[d]):
            sets = _optimise(mask, mask, 0, eleven)[1][0]
        else:
            sets = mask & trips * _EVERY_LANE
        rest = mask & ~sets
        a = rest & _LANE
        b = rest >> 16 & _LANE
        c = rest >> 32 & _LANE
        d = rest >> 48
    lanes = _LANE_INFO
    in_a = lanes[0][a] or _lane_info(0, a)
    in_b = lanes[1][b] or _lane_info(1, b)
    in_c = lanes[2][c] or _lane_info(2, c)
    in_d = lanes[3][d] or _lane_info(3, d)
    melds = in_a[2] + in_b[2] + in_c[2] + in_d[2]  # runs, suit by suit
    if sets or len(melds) > 1:  # in order of their first cards: rank, then suit
        keyed = in_a[3] + in_b[3] + in_c[3] + in_d[3]
        if sets:
            keyed += _set_melds(sets)
        melds = tuple(map(_second, sorted(keyed)))
    deadwood = in_a[0] + in_b[0] + in_c[0] + in_d[0]
    if knock_limit is not None:
        limit = knock_limit
    else:
        limit = _GIN_LIMIT if rules is None else _knock_limit(rules)
    if not eleven:
        return _new_arrangement(
            Arrangement,
            (
                hand,
                melds,
                in_a[1] + in_b[1] + in_c[1] + in_d[1],
                deadwood,
                None,
                deadwood == 0,
                False,
                deadwood <= limit,
            ),
        )
    top = max(in_a[4], in_b[4], in_c[4], in_d[4])  # the most valuable dead card
    if not top:  # big gin: all 11 melded
        return _new_arrangement(Arrangement, (hand, melds, (), 0, None, True, True, True))
    bit = top & 63
    if top == in_a[4]:  # its suit's dead cards but that one
        dead = in_a[5] + in_b[1] + in_c[1] + in_d[1]
    elif top == in_b[4]:
        dead = in_a[1] + in_b[5] + in_c[1] + in_d[1]
    elif top == in_c[4]:
        dead = in_a[1] + in_b[1] + in_c[5] + in_d[1]
    else:
        dead = in_a[1] + in_b[1] + in_c[1] + in_d[5]
    deadwood -= top >> 6
    return _new_arrangement(
        Arrangement,
        (hand, melds, dead, deadwood, _CARD_AT[bit], deadwood == 0, False, deadwood <= limit),
    )


def _set_melds(sets: int) -> _Keyed:
    """The sets of ``sets`` (one per rank), each keyed by its first card."""
    ranks = (sets | sets >> 16 | sets >> 32 | sets >> 48) & _LANE
    low = ranks & -ranks
    if low == ranks:  # one set, the usual case
        rank = low.bit_length() - 1
        return _SET_CARDS[rank][sets >> rank & _EVERY_LANE]
    keyed: _Keyed = ()
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        rank = low.bit_length() - 1
        keyed += _SET_CARDS[rank][sets >> rank & _EVERY_LANE]
    return keyed


def least_deadwood(cards: CardsIn) -> int:
    """The least deadwood of 10 cards, or of 11 after the best discard.

    >>> least_deadwood('6S 8C 9H 4S 9C 9S 7C 8H 7S 7H 4H')
    21
    """
    hand, mask = _hand(cards)
    if len(hand) == 10:
        return deadwood_of_mask(mask)
    if len(hand) != 11:
        raise RuleError(ARRANGEMENT_SIZE, count=len(hand))
    return best_discard_of_mask(mask)[0]


_second = itemgetter(1)


def _knock_limit(rules: Ruleset | None) -> int:
    knock = (rules or RULES).knock
    assert knock is not None, "a gin ruleset has a knock limit"
    return knock.limit


_GIN_LIMIT = _knock_limit(RULES)


def _read_melds(
    melds: MeldsIn, hand: tuple[Card, ...], whose: Reason, rules: Ruleset
) -> list[tuple[Card, ...]]:
    """The knocker's spread, checked: legal melds (by :mod:`referee.melds`), from the hand,
    no card twice; each in its meld's order (a run by rank, a set by suit)."""
    if isinstance(melds, str):
        parts = melds.split("|") if melds.strip() else []
        groups: list[tuple[Card, ...]] = [parse_cards(part) for part in parts]
    else:
        groups = [parse_cards(group) for group in melds]
    held = set(hand)
    where: dict[Card, int] = {}
    out = []
    for number, group in enumerate(groups, start=1):
        verdict = check_meld(group, rules)
        if verdict.meld is None:
            raise RuleError(
                Reason.of(
                    NUMBERED_MELD_ILLEGAL,
                    index=number,
                    meld=format_cards(group),
                    reason=verdict.reason,
                )
            )
        for card in group:
            if card not in held:
                raise RuleError(
                    MELD_NOT_IN_HAND, card=format_card(card), number=number, whose=whose
                )
            if card in where:
                raise RuleError(
                    MELD_CARD_TWICE, card=format_card(card), first=where[card], second=number
                )
            where[card] = number
        out.append(verdict.meld.cards)
    return out


# ---------------------------------------------------------------------------------------
# Knock adjudication


def _possessive(name: str | Reason) -> Reason:
    return Reason.of(HAND_OF, who=name)


def adjudicate_knock(
    knocker: CardsIn,
    defender: CardsIn,
    knocker_melds: MeldsIn | None = None,
    *,
    names: tuple[str, str] | None = None,
    rules: Ruleset | None = None,
    knock_limit: int | None = None,
) -> Adjudication:
    """Settle a knock: arrangements, the defender's best melds and lay-offs, the score.

    ``knocker`` and ``defender`` are the two 10-card hands (the knocker's after the
    discard).  ``knocker_melds``, when given, is the spread the knocker actually made (a
    list of melds, or a string with melds separated by ``|``); otherwise the knocker's
    least-deadwood arrangement is used, and among equal ones the one that leaves the
    defender the most deadwood.  ``names`` (knocker, defender) only changes the wording of
    reasons, which otherwise say "the knocker" and "the defender".  The knock limit and
    the bonuses are those of ``rules`` (``gin`` when not given, or with house rules:
    ``find_ruleset('gin', options)``, for an Oklahoma round ``.for_round({'upcard': card})``);
    ``knock_limit`` overrides the limit (0: gin only).  A knocker's hand of 11 cards is
    big gin, refused unless every card is melded.

    >>> result = adjudicate_knock('7C 8C 9C 2S 2H 2D 5H 6H 7H AS',
    ...                           '6C 10C 4D 10S JS QS KS 9H 9D 9S')
    >>> result.outcome.value, result.winner, result.points
    ('knock', 'knocker', 3)
    """
    rules = rules or RULES
    if knock_limit is not None:
        rules = replace(rules, knock=Knock(knock_limit))
    limit = _knock_limit(rules)
    knocker_name, defender_name = names or (Reason.of(THE_KNOCKER), Reason.of(THE_DEFENDER))
    k_whose, d_whose = _possessive(knocker_name), _possessive(defender_name)
    k_hand, k_mask = _hand(knocker, k_whose)
    d_hand, d_mask = _hand(defender, d_whose)
    big_gin = len(k_hand) == 11 and rules.deadwood is not None and rules.deadwood.big_gin
    if len(k_hand) != 10 and not big_gin:
        raise RuleError(KNOCK_HAND_SIZE, who=knocker_name, count=len(k_hand))
    # 11 cards knock without a discard: big gin, every card melded
    needed = 0 if big_gin else limit
    if len(d_hand) != 10:
        raise RuleError(KNOCK_HAND_SIZE, who=defender_name, count=len(d_hand))
    common = k_mask & d_mask
    if common:
        raise RuleError(IN_BOTH_HANDS, card=format_card(cards_of(common)[0]))

    spreads: list[list[tuple[Card, ...]]]
    if knocker_melds is not None:
        spread = _read_melds(knocker_melds, k_hand, k_whose, rules)
        dead = k_mask & ~mask_of(c for meld in spread for c in meld)
        deadwood = _value(dead)
        if deadwood > needed:
            raise _knock_refused(SPREAD_TOO_HIGH, knocker_name, deadwood, dead, limit, big_gin)
        spreads = [spread]
    else:
        deadwood, removals = _optimise(k_mask, k_mask, 0, False, every_spread=True)
        if deadwood > needed:
            melds, dead = _melds_of(k_mask, removals[0])
            raise _knock_refused(KNOCK_TOO_HIGH, knocker_name, deadwood, dead, limit, big_gin)
        spreads = [_melds_of(k_mask, x)[0] for x in removals]
    gin = deadwood == 0

    best: tuple[int, list[tuple[Card, ...]], _Defence] | None = None
    for spread in spreads:
        defence = _defend(d_mask, spread, gin)
        if best is None or defence.deadwood > best[0]:
            best = (defence.deadwood, spread, defence)
    assert best is not None
    _, spread, defence = best

    k_dead = k_mask & ~mask_of(c for meld in spread for c in meld)
    k_arrangement = _arrangement(k_hand, spread, k_dead, limit)._replace(big_gin=big_gin)
    alone = deadwood_of_mask(d_mask)
    d_arrangement = Arrangement(
        cards=d_hand,
        melds=tuple(defence.melds),
        deadwood_cards=cards_of(defence.dead),
        deadwood=defence.deadwood,
        is_gin=defence.deadwood == 0 and not defence.layoffs,
        can_knock=defence.deadwood <= limit,
    )
    k_dw, d_dw = deadwood, defence.deadwood
    named = (knocker_name, defender_name)
    outcome, winner, points, why = settle(k_dw, d_dw, named, rules, big_gin=big_gin)
    return Adjudication(
        knocker=k_arrangement,
        defender=d_arrangement,
        layoffs=tuple(defence.layoffs),
        knocker_deadwood=k_dw,
        defender_deadwood=d_dw,
        defender_deadwood_before_layoffs=alone,
        outcome=outcome,
        winner=winner,
        points=points,
        why=why,
        knocker_melds_given=knocker_melds is not None,
        names=named,
        big_gin=big_gin,
    )


def _knock_refused(
    key: str, who: str | Reason, deadwood: int, dead: int, limit: int, big_gin: bool
) -> RuleError:
    """Why a knock is refused: too much deadwood for the limit, an ace upcard's gin only, or
    11 cards not all melded."""
    if big_gin:
        key = BIG_GIN_NOT_MELDED
    elif limit == 0:
        key = GIN_ONLY
    return RuleError(key, who=who, deadwood=deadwood, cards=_text(dead), limit=limit)


def settle(
    knocker_deadwood: int,
    defender_deadwood: int,
    names: tuple[str | Reason, str | Reason],
    rules: Ruleset | None = None,
    *,
    big_gin: bool = False,
) -> tuple[Outcome, str, int, Reason]:
    """A knock scored from the two deadwoods (the defender's after lay-offs): the outcome,
    ``"knocker"`` or ``"defender"``, the points and why.  A knocker's 0 is gin; ``big_gin``
    (all 11 cards melded) adds the big gin bonus to the gin bonus.

    >>> outcome, winner, points, why = settle(7, 22, ('Budi', 'Siti'))
    >>> outcome.value, winner, points
    ('knock', 'knocker', 15)
    """
    bonuses = (rules or RULES).bonuses
    knocker_name, defender_name = names
    k_dw, d_dw = knocker_deadwood, defender_deadwood
    if k_dw == 0 and big_gin:
        outcome, winner = Outcome.GIN, "knocker"
        points = d_dw + bonuses.gin + bonuses.big_gin
        why = Reason.of(
            WHY_BIG_GIN,
            knocker=knocker_name,
            defender=defender_name,
            deadwood=d_dw,
            bonus=bonuses.gin,
            big_bonus=bonuses.big_gin,
            points=points,
        )
    elif k_dw == 0:
        outcome, winner, points = Outcome.GIN, "knocker", d_dw + bonuses.gin
        why = Reason.of(
            WHY_GIN,
            knocker=knocker_name,
            defender=defender_name,
            deadwood=d_dw,
            bonus=bonuses.gin,
            points=points,
        )
    elif d_dw > k_dw:
        outcome, winner, points = Outcome.KNOCK, "knocker", d_dw - k_dw
        why = Reason.of(
            WHY_KNOCK,
            knocker=knocker_name,
            defender=defender_name,
            knocker_deadwood=k_dw,
            defender_deadwood=d_dw,
            points=points,
        )
    else:
        outcome, winner = Outcome.UNDERCUT, "defender"
        points = k_dw - d_dw + bonuses.undercut
        why = Reason.of(
            WHY_UNDERCUT,
            knocker=knocker_name,
            defender=defender_name,
            knocker_deadwood=k_dw,
            defender_deadwood=d_dw,
            bonus=bonuses.undercut,
            points=points,
        )
    return outcome, winner, points, why


def _text(mask: int) -> str:
    return format_cards(cards_of(mask))


@dataclass
class _Defence:
    deadwood: int
    melds: list[tuple[Card, ...]]
    layoffs: list[Layoff]
    dead: int


def _defend(d_mask: int, spread: Sequence[tuple[Card, ...]], gin: bool) -> _Defence:
    """The defender's least deadwood against a spread: own melds and lay-offs jointly."""
    table_runs = 0
    owner: dict[int, int] = {}  # table run card bit -> meld index
    set_target: dict[int, int] = {}  # defender card bit -> the set meld it completes
    if not gin:
        for index, meld in enumerate(spread):
            bits = mask_of(meld)
            if len({c.rank for c in meld}) == 1:
                if len(meld) == 3:
                    set_rank = meld[0].rank
                    assert set_rank is not None
                    missing = (1 << (set_rank - 1)) * _EVERY_LANE & ~bits
                    if missing & d_mask:
                        set_target[missing] = index
            else:
                table_runs |= bits
                rest = bits
                while rest:
                    low = rest & -rest
                    owner[low] = index
                    rest ^= low
    layoff_cards = 0
    for bit in set_target:
        layoff_cards |= bit
    pattern = d_mask | table_runs
    deadwood, removals = _optimise(pattern, d_mask, layoff_cards, False)
    removal = removals[0]
    layoffs: list[Layoff] = []
    for bit, index in set_target.items():
        if removal & bit:
            layoffs.append(Layoff(cards_of(bit), index, spread[index]))
    sets = removal & ~layoff_cards
    melds: list[tuple[Card, ...]] = []
    for rank in range(13):
        group = sets & (1 << rank) * _EVERY_LANE
        if group:
            melds.append(cards_of(group))
    rest = pattern & ~removal
    runs = _runnable(rest)
    for block in _blocks(runs):
        if not block & table_runs:
            melds.append(cards_of(block))
            continue
        for mine in _blocks(block & ~table_runs):
            if mine.bit_count() >= 3:
                melds.append(cards_of(mine))
                continue
            above = (mine & -mine) << mine.bit_count()  # the card just above the block
            below = (mine & -mine) >> 1
            if below & table_runs:
                layoffs.append(Layoff(cards_of(mine), owner[below], spread[owner[below]]))
            else:
                chain = tuple(reversed(cards_of(mine)))  # laid from the run's low end down
                layoffs.append(Layoff(chain, owner[above], spread[owner[above]]))
    melds.sort(key=_meld_key)
    layoffs.sort(key=lambda lay: (lay.onto, _meld_key(lay.cards)))
    dead = d_mask & ~removal & ~runs
    assert _value(dead) == deadwood
    return _Defence(deadwood, melds, layoffs, dead)


def adjudicate_round(
    knocker_name: str,
    hands: Mapping[str, Sequence[Card] | Sequence[str] | str],
    knocker_melds: Sequence[Sequence[Card]] | MeldsIn | None = None,
    *,
    rules: Ruleset | None = None,
) -> Adjudication:
    """A knocked round of the match, by player name: ``hands`` has both players' hands."""
    if len(hands) != 2:
        raise RuleError(NOT_TWO_HANDS, count=len(hands))
    if knocker_name not in hands:
        raise RuleError(UNKNOWN_KNOCKER, name=knocker_name)
    defender_name = next(name for name in hands if name != knocker_name)
    return adjudicate_knock(
        hands[knocker_name],
        hands[defender_name],
        knocker_melds,
        names=(knocker_name, defender_name),
        rules=rules,
    )


def score_knock_round(
    knocker_name: str,
    hands: Mapping[str, Sequence[Card] | Sequence[str] | str],
    knocker_melds: Sequence[Sequence[Card]] | MeldsIn | None = None,
) -> tuple[Outcome, str, dict[str, int]]:
    """A knocked gin round for the match replay: (outcome, round winner, scores).

    ``outcome`` is :attr:`Outcome.KNOCK` when the knocker wins without gin,
    :attr:`Outcome.GIN` for gin or big gin, :attr:`Outcome.UNDERCUT` when the defender
    wins.  Both players appear in the scores.

    >>> outcome, winner, scores = score_knock_round(
    ...     'Budi', {'Budi': '7C 8C 9C 2S 2H 2D 5H 6H 7H AS',
    ...              'Siti': '6C 10C 4D 10S JS QS KS 9H 9D 9S'})
    >>> outcome.value, winner, scores
    ('knock', 'Budi', {'Budi': 3, 'Siti': 0})
    """
    result = adjudicate_round(knocker_name, hands, knocker_melds)
    knocker, defender = result.names
    assert isinstance(knocker, str) and isinstance(defender, str)
    return (
        result.outcome,
        knocker if result.winner == "knocker" else defender,
        {knocker: result.knocker_points, defender: result.defender_points},
    )


__all__ = [
    "Adjudication",
    "Arrangement",
    "KnockResult",
    "Layoff",
    "adjudicate_knock",
    "adjudicate_round",
    "best_arrangement",
    "best_discard_of_mask",
    "cards_of",
    "deadwood_of_mask",
    "least_deadwood",
    "mask_of",
    "settle",
    "score_knock_round",
]
