"""Sets, runs and lay-offs: whether a group of cards is a legal meld, and why not.

:func:`check_meld` and :func:`check_layoff` never raise for a rule question;
they return a :class:`MeldVerdict` whose ``reason`` says, in words a player
understands, what is wrong.  :func:`verify_meld` and :func:`verify_layoff`
raise :class:`~referee.errors.RuleError` with the same reason instead.

>>> from referee.rulesets import find_ruleset
>>> check_meld('7S 9S 8S', find_ruleset('remi')).kind
<MeldKind.RUN: 'run'>
>>> print(check_meld('7S 9S 10S', find_ruleset('remi')).reason)
8S is missing between 7S and 9S
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.cards import SUITS, Card, Rank, Suit
from referee.errors import RuleError
from referee.messages import Reason, define_message
from referee.notation import format_cards, parse_cards
from referee.rulesets.base import AceOrder, Ruleset

TOO_FEW = define_message("meld.too_few", "a meld needs at least 3 cards; {cards} is only {count}")
NO_JOKERS = define_message("meld.no_jokers", "there are no jokers in {rules}")
TOO_MANY_JOKERS = define_message(
    "meld.too_many_jokers", "a meld cannot hold {count} jokers: the deck has only {most}"
)
BARE_JOKER = define_message(
    "meld.bare_joker", "a joker on the table must name the card it stands for, like JK=7H"
)
DUPLICATE = define_message(
    "meld.duplicate", "{card} is there twice, but the deck has only one {card}"
)
IDENTICAL_IN_SET = define_message(
    "meld.identical_in_set", "two identical cards in a set: {card} is there twice"
)
REPEATED_RANK_IN_RUN = define_message(
    "meld.repeated_rank_in_run", "a run holds one card of each rank, but {card} is there twice"
)
RUN_TOO_SHORT = define_message(
    "meld.run_too_short", "a run in {rules} has at least {least} cards; {cards} is only {count}"
)
SET_TOO_BIG = define_message(
    "meld.set_too_big", "a set has at most 4 cards, one of each suit; {cards} has {count}"
)
MIXED_RANKS = define_message(
    "meld.mixed_ranks",
    "{cards} is neither a set nor a run: a set is one rank (this mixes {ranks}), a run is one suit",
)
MIXED_SUITS = define_message("meld.mixed_suits", "a run is all one suit, but {cards} mixes {suits}")
GAP_ONE = define_message("meld.gap_one", "{missing} is missing between {low} and {high}")
GAP_MANY = define_message("meld.gap_many", "{missing} are missing between {low} and {high}")
GAPS = define_message("meld.gaps", "{gaps}")
ACE_LOW_ONLY = define_message(
    "meld.ace_low_only", "the ace is low in {rules}: it goes below 2, never above K ({cards})"
)
WRAP = define_message("meld.wrap", "a run never goes round the ace: K-A-2 is not legal ({cards})")
ACE_IN_RUN = define_message("meld.ace_in_run", "an ace is never in a run in {rules} ({cards})")
NUMBER_AND_PICTURE = define_message(
    "meld.number_and_picture",
    "a run in {rules} is only number cards (2-10) or only picture cards (J Q K), "
    "never both: {cards}",
)
JOKER_DOES_NOT_FIT = define_message(
    "meld.joker_does_not_fit",
    "{joker} stands for {card}, which does not fit with {others}; here it could stand for {options}",
)
JOKER_FITS_NOWHERE = define_message(
    "meld.joker_fits_nowhere", "{joker} stands for {card}, which does not fit with {others}"
)
NUMBERED_MELD_ILLEGAL = define_message(
    "meld.numbered_illegal", "meld {index} ({meld}) is not legal: {reason}"
)
LAYOFF_CLOSED = define_message(
    "layoff.closed", "melds on the table are closed in {rules}: no lay-offs"
)
LAYOFF_NO_MELD = define_message("layoff.no_meld", "name the meld on the table, like 7S 8S 9S")
LAYOFF_NOTHING = define_message("layoff.nothing", "name at least one card to lay off")
LAYOFF_BASE_ILLEGAL = define_message(
    "layoff.base_illegal", "the meld on the table, {meld}, is not legal: {reason}"
)
LAYOFF_REFUSED = define_message("layoff.refused", "{cards} cannot be laid off on {meld}: {reason}")
LAYOFF_WRONG_RANK = define_message(
    "layoff.wrong_rank", "{card} is not a {rank}, and a set takes only its own rank"
)
LAYOFF_SET_FULL = define_message("layoff.set_full", "the set already has 4 cards")
LAYOFF_SUIT_TAKEN = define_message("layoff.suit_taken", "the set already has a {card}")
LAYOFF_WRONG_SUIT = define_message("layoff.wrong_suit", "the run is in {suit} and {card} is not")
LAYOFF_ABOVE_KING = define_message(
    "layoff.above_king", "nothing goes above K, and the ace goes only below 2 in {rules}"
)

SUIT_NAMES = {
    Suit.SPADES: define_message("suit.spades", "spades"),
    Suit.HEARTS: define_message("suit.hearts", "hearts"),
    Suit.DIAMONDS: define_message("suit.diamonds", "diamonds"),
    Suit.CLUBS: define_message("suit.clubs", "clubs"),
}
AND = define_message("word.and", "{first} and {second}")

ACE_HIGH = 14


class MeldKind(enum.Enum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True)
class Meld:
    """A legal meld; a run's cards are in order, lowest first."""

    kind: MeldKind
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True)
class MeldVerdict:
    """A check's answer: the legal ``meld``, or the ``reason`` why the cards are not one."""

    reason: Reason | None = None
    meld: Meld | None = None

    @property
    def legal(self) -> bool:
        return self.meld is not None

    @property
    def kind(self) -> MeldKind | None:
        return self.meld.kind if self.meld is not None else None

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "kind": self.kind.value if self.kind else None,
            "reason": self.reason.text if self.reason else None,
        }


def _refuse(key: str, **params: Any) -> MeldVerdict:
    return MeldVerdict(reason=Reason.of(key, **params))


def _face(card: Card) -> Card:
    face = card.stands_for
    assert face is not None
    return face


def _rank(card: Card) -> Rank:
    assert card.rank is not None
    return card.rank


def _suit_names(suits: Iterable[Suit]) -> Reason:
    names = [Reason.of(SUIT_NAMES[suit]) for suit in suits]
    joined = names[0]
    for name in names[1:]:
        joined = Reason.of(AND, first=joined, second=name)
    return joined


def check_meld(cards: str | Iterable[str | Card], rules: Ruleset) -> MeldVerdict:
    """Whether ``cards`` form a legal set or run under ``rules``, and why not."""
    hand = parse_cards(cards)
    verdict = _check_structure(hand, rules)
    if verdict.legal or not any(card.is_joker for card in hand):
        return verdict
    return _explain_joker(hand, rules) or verdict


def _check_structure(cards: tuple[Card, ...], rules: Ruleset) -> MeldVerdict:
    listing = format_cards(cards)
    if any(card.is_joker for card in cards):
        if not rules.jokers:
            return _refuse(NO_JOKERS, rules=rules.name)
        if any(card.is_bare_joker for card in cards):
            return _refuse(BARE_JOKER)
        jokers = sum(card.is_joker for card in cards)
        most = rules.most_jokers
        if jokers > most:
            return _refuse(TOO_MANY_JOKERS, count=jokers, most=most)
    if len(cards) < 3:
        return _refuse(TOO_FEW, cards=listing, count=len(cards))
    faces = [_face(card) for card in cards]
    if rules.most_copies == 1:  # one deck: no card exists twice
        naturals = Counter(card for card in cards if not card.is_joker)
        for card, count in naturals.items():
            if count > 1:
                return _refuse(DUPLICATE, card=str(card))
    ranks = {face.rank for face in faces}
    suits = list(dict.fromkeys(face.suit for face in faces))
    if len(ranks) == 1:
        if rules.melding.sets_repeat_suits:  # any number of one rank, suits repeating
            ordered = tuple(sorted(cards, key=lambda card: SUITS.index(_face(card).suit)))
            return MeldVerdict(meld=Meld(MeldKind.SET, ordered))
        return _check_set(cards, faces, listing)
    if len(suits) == 1:
        return _check_run(cards, faces, listing, rules)
    if len(ranks) < len(cards):
        rank_names = [r.symbol for r in sorted(r for r in ranks if r is not None)]
        return _refuse(MIXED_RANKS, cards=listing, ranks=", ".join(rank_names))
    return _refuse(MIXED_SUITS, cards=listing, suits=_suit_names(s for s in suits if s))


def _check_set(cards: tuple[Card, ...], faces: list[Card], listing: str) -> MeldVerdict:
    if len(cards) > 4:
        return _refuse(SET_TOO_BIG, cards=listing, count=len(cards))
    for face, count in Counter(faces).items():
        if count > 1:
            return _refuse(IDENTICAL_IN_SET, card=str(face))
    ordered = tuple(sorted(cards, key=lambda card: SUITS.index(_face(card).suit)))
    return MeldVerdict(meld=Meld(MeldKind.SET, ordered))


def _check_run(
    cards: tuple[Card, ...], faces: list[Card], listing: str, rules: Ruleset
) -> MeldVerdict:
    for face, count in Counter(faces).items():
        if count > 1:
            return _refuse(REPEATED_RANK_IN_RUN, card=str(face))
    shortest = rules.runs.shortest
    if len(cards) < shortest:
        return _refuse(
            RUN_TOO_SHORT, rules=rules.name, least=shortest, cards=listing, count=len(cards)
        )
    ranks = {_rank(face) for face in faces}
    has_ace = Rank.ACE in ranks
    if has_ace and rules.ace_order is AceOrder.NONE:
        return _refuse(ACE_IN_RUN, rules=rules.name, cards=listing)
    if not rules.runs.mix_number_and_picture:
        pictures = {rank.is_picture for rank in ranks}
        if len(pictures) == 2:
            return _refuse(NUMBER_AND_PICTURE, rules=rules.name, cards=listing)
    low = sorted(int(rank) for rank in ranks)
    orders = [low]
    if has_ace and rules.ace_order is AceOrder.LOW_OR_HIGH:
        orders.append(sorted(ACE_HIGH if r == Rank.ACE else r for r in low))
    for order in orders:
        if order[-1] - order[0] == len(order) - 1:
            by_position = {_position(card, order): card for card in cards}
            ordered = tuple(by_position[position] for position in order)
            return MeldVerdict(meld=Meld(MeldKind.RUN, ordered))
    if has_ace and Rank.KING in ranks:
        if Rank.TWO in ranks:
            return _refuse(WRAP, cards=listing)
        if rules.ace_order is AceOrder.LOW:
            return _refuse(ACE_LOW_ONLY, rules=rules.name, cards=listing)
    best = min(orders, key=lambda order: order[-1] - order[0])
    suit = faces[0].suit
    assert suit is not None
    return MeldVerdict(reason=_gap_reason(best, suit))


def _position(card: Card, order: list[int]) -> int:
    rank = int(_rank(_face(card)))
    return ACE_HIGH if rank == Rank.ACE and ACE_HIGH in order else rank


def _card_at(position: int, suit: Suit) -> str:
    rank = Rank.ACE if position == ACE_HIGH else Rank(position)
    return str(Card(rank, suit))


def _gap_reason(order: list[int], suit: Suit) -> Reason:
    gaps = []
    for low, high in zip(order, order[1:], strict=False):
        if high - low > 1:
            missing = [_card_at(p, suit) for p in range(low + 1, high)]
            key = GAP_ONE if len(missing) == 1 else GAP_MANY
            names = missing[0] if len(missing) == 1 else ", ".join(missing)
            gaps.append(
                Reason.of(key, missing=names, low=_card_at(low, suit), high=_card_at(high, suit))
            )
    return gaps[0] if len(gaps) == 1 else Reason.of(GAPS, gaps=gaps)


def _explain_joker(cards: tuple[Card, ...], rules: Ruleset) -> MeldVerdict | None:
    """When a named joker is what breaks the meld, say so, and what it could stand for."""
    for index, joker in enumerate(cards):
        if not joker.is_joker or joker.is_bare_joker:
            continue
        others = cards[:index] + cards[index + 1 :]
        options = []
        for suit in SUITS:
            for rank in Rank:
                candidate = Card.joker(Card(rank, suit))
                trial = cards[:index] + (candidate,) + cards[index + 1 :]
                if _check_structure(trial, rules).legal:
                    options.append(str(Card(rank, suit)))
        if not options:
            continue
        return _refuse(
            JOKER_DOES_NOT_FIT,
            joker=str(joker),
            card=str(joker.stands_for),
            others=format_cards(others),
            options=" / ".join(options[:4]),
        )
    return None


def in_rank_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards of a group shaped like a run (one suit, no rank twice) in rank order, the
    ace after a king when the group holds a king and no 2; any other group as it is.

    Meld cards may be written in any order; writers emit runs in rank order.

    >>> format_cards(in_rank_order(parse_cards('AH KH QH'))), format_cards(in_rank_order(
    ...     parse_cards('3S AS 2S')))
    ('QH KH AH', 'AS 2S 3S')
    """
    group = tuple(cards)
    faces = [card.stands_for for card in group]
    if any(face is None for face in faces):
        return group
    ranks = {face.rank for face in faces if face is not None}
    if len({face.suit for face in faces if face is not None}) != 1 or len(ranks) != len(group):
        return group
    ace_high = Rank.KING in ranks and Rank.TWO not in ranks

    def position(card: Card) -> int:
        rank = _rank(_face(card))
        return ACE_HIGH if rank is Rank.ACE and ace_high else int(rank)

    return tuple(sorted(group, key=position))


def verify_meld(cards: str | Iterable[str | Card], rules: Ruleset) -> Meld:
    """The legal meld made of ``cards``, or :class:`RuleError` with the reason."""
    verdict = check_meld(cards, rules)
    if verdict.meld is None:
        assert verdict.reason is not None
        raise RuleError(verdict.reason)
    return verdict.meld


def check_layoff(
    meld: Meld | str | Iterable[str | Card],
    cards: str | Iterable[str | Card],
    rules: Ruleset,
) -> MeldVerdict:
    """Whether ``cards`` may be added to ``meld`` on the table; the verdict is of the result.

    >>> from referee.rulesets import find_ruleset
    >>> print(check_layoff('7S 8S 9S', 'JS', find_ruleset('remi')).reason)
    JS cannot be laid off on 7S 8S 9S: 10S is missing between 9S and JS
    """
    if not rules.layoffs:
        return _refuse(LAYOFF_CLOSED, rules=rules.name)
    if not isinstance(meld, Meld):
        if not parse_cards(meld):
            return _refuse(LAYOFF_NO_MELD)
        base = check_meld(meld, rules)
        if base.meld is None:
            return _refuse(
                LAYOFF_BASE_ILLEGAL, meld=format_cards(parse_cards(meld)), reason=base.reason
            )
        meld = base.meld
    added = parse_cards(cards)
    if not added:
        return _refuse(LAYOFF_NOTHING)
    combined = _check_structure(meld.cards + added, rules)
    if combined.legal:  # a set stays a set and a run a run: the cards cannot be both
        return combined
    reason = _layoff_reason(meld, added, rules) or combined.reason
    return _refuse(LAYOFF_REFUSED, cards=format_cards(added), meld=str(meld), reason=reason)


def _layoff_reason(meld: Meld, added: tuple[Card, ...], rules: Ruleset) -> Reason | None:
    if any(card.is_joker for card in added) and not rules.jokers:
        return Reason.of(NO_JOKERS, rules=rules.name)
    if any(card.is_bare_joker for card in added):
        return Reason.of(BARE_JOKER)
    first = _face(meld.cards[0])
    if meld.kind is MeldKind.SET:
        for card in added:
            face = _face(card)
            if face.rank != first.rank:
                return Reason.of(LAYOFF_WRONG_RANK, card=str(card), rank=_rank(first).symbol)
        if rules.melding.sets_repeat_suits:
            return None
        if len(meld.cards) + len(added) > 4:
            return Reason.of(LAYOFF_SET_FULL)
        taken = {_face(card).suit for card in meld.cards}
        for card in added:
            if _face(card).suit in taken:
                return Reason.of(LAYOFF_SUIT_TAKEN, card=str(_face(card)))
        return None
    for card in added:
        face = _face(card)
        if face.suit != first.suit:
            assert first.suit is not None
            return Reason.of(
                LAYOFF_WRONG_SUIT, card=str(card), suit=Reason.of(SUIT_NAMES[first.suit])
            )
    top = _face(meld.cards[-1])
    if (
        rules.ace_order is AceOrder.LOW
        and top.rank is Rank.KING
        and any(_face(card).rank is Rank.ACE for card in added)
    ):
        return Reason.of(LAYOFF_ABOVE_KING, rules=rules.name)
    return None


def verify_layoff(
    meld: Meld | str | Iterable[str | Card],
    cards: str | Iterable[str | Card],
    rules: Ruleset,
) -> Meld:
    """The meld after the lay-off, or :class:`RuleError` with the reason."""
    verdict = check_layoff(meld, cards, rules)
    if verdict.meld is None:
        assert verdict.reason is not None
        raise RuleError(verdict.reason)
    return verdict.meld
