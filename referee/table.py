"""Manipulation turns: the turn rules, and the public calls of the arranger.

In ``manipulation`` a turn may rearrange every meld on the table.  This module
settles such a turn in two ways.

**The turn check.**  :func:`check_turn` takes the table before the turn, the
cards played from the hand and the table after it (every meld, jokers written
``JK=7H``) and returns a :class:`TurnVerdict` listing every rule the turn
breaks; :func:`verify_turn` raises :class:`~referee.errors.RuleError` with the
first.  The rules (RULES.md, ``manipulation``): a player who drew a third card
may not meld; a turn that changes the table puts at least one card from the
hand on it, and a turn that only draws (nothing played, the table unchanged)
is legal; no card leaves the table and every card played reaches it (after =
before + played, jokers counted as jokers); every meld after the turn is legal;
the joker rule (formal check: for every card, if fewer jokers stand for it
after the turn than before, a real copy of it is on the table after the turn;
a real card may come from the hand or from another meld); the deck, counted by
:mod:`referee.integrity` (real cards and jokers; a joker may stand for a card
whose real copies are all on the table).

**The arranger.**  :func:`arrange` decides whether the table before the turn
plus the cards played can be laid out as legal melds at all, honouring the
joker rule, and returns one such layout (an :class:`Arrangement`);
:func:`take_back` says which played cards have to go back when none exists;
and :func:`playable_cards` / :func:`best_play` find the largest set of cards
from a hand that can join the table (the "what can I play" hint).  The search
itself is :mod:`referee.arranger`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

from referee.arranger import Arrangement, Play, solve_hint, solve_turn
from referee.cards import Card
from referee.errors import RuleError
from referee.integrity import PLACE_MELD, CardPlaces
from referee.melds import NUMBERED_MELD_ILLEGAL, check_meld
from referee.messages import Reason, define_message
from referee.notation import format_cards, parse_cards
from referee.rulesets import Ruleset, find_ruleset

NOTHING_PLAYED = define_message(
    "table.nothing_played",
    "a turn that melds must put at least one card from the hand on the table",
)
THIRD_DRAW = define_message(
    "table.third_draw",
    "no melding after the third draw, but this turn drew 3 cards and played {cards}",
)
BAD_DRAWS = define_message("table.bad_draws", "draws must be 1, 2 or 3, not {draws}")
CARDS_LEFT = define_message(
    "table.cards_left", "{cards} left the table: no card may leave the table during a turn"
)
NOT_ON_TABLE = define_message(
    "table.played_not_on_table",
    "{cards} was played from the hand but is not on the table after the turn",
)
CARDS_APPEARED = define_message(
    "table.cards_appeared",
    "{cards} is on the table after the turn but was neither on it before nor played",
)
EMPTY_MELD = define_message("table.empty_meld", "meld {index} has no cards")
JOKER_RULE = define_message(
    "table.joker_keeps_card",
    "a joker stood for {card} before the turn and no longer does, but no real {card} is on "
    "the table after it: a joker keeps its card until a real {card} replaces it",
)
UNNAMED_JOKER_BEFORE = define_message(
    "table.unnamed_joker_before",
    "a joker on the table before the turn must name the card it stands for, like JK=7H",
)
NOT_A_TABLE = define_message(
    "table.not_a_table", "a table is a list of melds, each a list of card codes like 7S 8S 9S"
)

MeldInput: TypeAlias = "str | Iterable[str | Card]"
TableInput: TypeAlias = "str | Iterable[MeldInput]"
CardsInput: TypeAlias = "str | Card | Iterable[str | Card]"

MANIPULATION = "manipulation"


# ---------------------------------------------------------------------------
# Reading tables


def parse_table(table: TableInput) -> tuple[tuple[Card, ...], ...]:
    """Melds from a list of melds (each a string or a list of cards), or from text.

    Text has one meld per line (cards separated by spaces or commas); blank
    lines and lines starting with ``#`` are skipped.

    >>> parse_table("7S 8S 9S\\nJK=4H 4D 4C")
    ((Card.parse('7S'), Card.parse('8S'), Card.parse('9S')), (Card.parse('JK=4H'), \
Card.parse('4D'), Card.parse('4C')))
    """
    if isinstance(table, str):
        lines = [line.strip() for line in table.splitlines()]
        return tuple(parse_cards(line) for line in lines if line and not line.startswith("#"))
    if isinstance(table, Card):
        raise RuleError(NOT_A_TABLE)
    try:
        melds = list(table)
    except TypeError:
        raise RuleError(NOT_A_TABLE) from None
    return tuple(parse_cards(meld) for meld in melds)


def format_table(table: Iterable[Iterable[Card]]) -> str:
    """The text form of a table: one meld per line."""
    return "\n".join(format_cards(list(meld)) for meld in table)


def _rules(rules: Ruleset | str | None) -> Ruleset:
    if rules is None:
        return find_ruleset(MANIPULATION)
    return find_ruleset(rules) if isinstance(rules, str) else rules


def _natural(card: Card) -> Card:
    face = card.stands_for
    assert face is not None
    return face


# ---------------------------------------------------------------------------
# The turn check


@dataclass(frozen=True)
class TurnVerdict:
    """Whether a manipulation turn is legal, with every reason it is not."""

    reasons: tuple[Reason, ...]

    @property
    def legal(self) -> bool:
        return not self.reasons

    @property
    def reason(self) -> Reason | None:
        return self.reasons[0] if self.reasons else None

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "reasons": [reason.text for reason in self.reasons]}


def check_turn(
    before: TableInput,
    played: CardsInput,
    after: TableInput,
    players: int,
    draws: int | None = None,
    *,
    rules: Ruleset | str | None = None,
) -> TurnVerdict:
    """Every rule a manipulation turn breaks (an empty verdict when it is legal).

    >>> check_turn(["7S 8S 9S"], "10S", ["7S 8S 9S 10S"], players=2).legal
    True
    >>> print(check_turn(["7S 8S 9S"], "10S", ["7S 8S 10S"], players=2).reason)
    9S left the table: no card may leave the table during a turn
    >>> check_turn(["7S 8S 9S"], "", ["7S 8S 9S"], players=2).legal  # a turn that only draws
    True
    """
    ruleset = _rules(rules)
    ruleset.verify_players(players)
    table_before = parse_table(before)
    table_after = parse_table(after)
    hand = parse_cards(played)
    reasons: list[Reason] = []

    if draws is not None:
        if isinstance(draws, bool) or not isinstance(draws, int) or not 1 <= draws <= 3:
            reasons.append(Reason.of(BAD_DRAWS, draws=draws))
        elif draws == 3 and hand:
            reasons.append(Reason.of(THIRD_DRAW, cards=format_cards(hand)))
    if not hand and not same_table(table_before, table_after):
        reasons.append(Reason.of(NOTHING_PLAYED))

    places = CardPlaces()
    for number, meld in enumerate(table_after, 1):
        places.add(meld, Reason.of(PLACE_MELD, number=number))
    reasons.extend(places.problems(ruleset, players))

    after_cards = [card for meld in table_after for card in meld]
    physical_before = Counter(card.in_hand for meld in table_before for card in meld)
    physical_played = Counter(card.in_hand for card in hand)
    physical_after = Counter(card.in_hand for card in after_cards)
    expected = physical_before + physical_played
    missing = expected - physical_after
    not_placed = physical_played & missing  # a card played that did not reach the table
    left = missing - not_placed
    appeared = physical_after - expected
    if left:
        reasons.append(Reason.of(CARDS_LEFT, cards=format_cards(_sorted(left.elements()))))
    if not_placed:
        reasons.append(Reason.of(NOT_ON_TABLE, cards=format_cards(_sorted(not_placed.elements()))))
    if appeared:
        reasons.append(Reason.of(CARDS_APPEARED, cards=format_cards(_sorted(appeared.elements()))))

    for index, meld in enumerate(table_after, start=1):
        if not meld:
            reasons.append(Reason.of(EMPTY_MELD, index=index))
            continue
        verdict = check_meld(meld, ruleset)
        if not verdict.legal:
            reasons.append(
                Reason.of(
                    NUMBERED_MELD_ILLEGAL,
                    index=index,
                    meld=format_cards(meld),
                    reason=verdict.reason,
                )
            )

    if any(card.is_bare_joker for meld in table_before for card in meld):
        reasons.append(Reason.of(UNNAMED_JOKER_BEFORE))
    else:
        reasons.extend(_joker_reasons(table_before, after_cards))
    return TurnVerdict(tuple(reasons))


def _joker_reasons(before: Iterable[Iterable[Card]], after: Iterable[Card]) -> list[Reason]:
    """The formal check of the joker rule: for every card, if fewer jokers stand for it
    after the turn than before, a real copy of it is on the table after the turn."""
    after = list(after)
    named_before = Counter(_natural(card) for meld in before for card in meld if card.is_joker)
    named_after = Counter(_natural(card) for card in after if card.is_joker and card.rank)
    real_after = Counter(card for card in after if not card.is_joker)
    return [
        Reason.of(JOKER_RULE, card=str(card))
        for card in _sorted(named_before)
        if named_after[card] < named_before[card] and not real_after[card]
    ]


def same_table(before: Iterable[Iterable[Card]], after: Iterable[Iterable[Card]]) -> bool:
    """Whether two tables hold the same melds (in any order, their cards in any order)."""

    def melds(table: Iterable[Iterable[Card]]) -> Counter[tuple[Card, ...]]:
        return Counter(tuple(_sorted(meld)) for meld in table)

    return melds(before) == melds(after)


def verify_turn(
    before: TableInput,
    played: CardsInput,
    after: TableInput,
    players: int,
    draws: int | None = None,
    *,
    rules: Ruleset | str | None = None,
) -> None:
    """Raise :class:`RuleError` with the first rule a manipulation turn breaks."""
    verdict = check_turn(before, played, after, players, draws, rules=rules)
    if verdict.reason is not None:
        raise RuleError(verdict.reason)


def _sorted(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: card.sort_key)


# ---------------------------------------------------------------------------
# The arranger's public calls


def arrange(
    before: TableInput,
    played: CardsInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> Arrangement | None:
    """One legal layout of the table before the turn plus the cards played, or ``None``.

    A joker that stood for a card keeps standing for it unless a real copy of
    that card is on the table after the turn (already there, or played).

    >>> print(arrange(["7S 8S 9S", "KH KD KC"], "10S JK", players=3))
    7S 8S 9S 10S JK=JS
    KH KD KC
    >>> arrange(["7S 8S 9S"], "QD", players=2) is None
    True
    """
    ruleset = _rules(rules)
    ruleset.verify_players(players)
    return solve_turn(parse_table(before), parse_cards(played), ruleset, players)


def take_back(
    before: TableInput,
    played: CardsInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> tuple[Card, ...]:
    """The played cards that must go back to the hand so that the rest can be arranged.

    Empty when the whole play can be arranged; otherwise the fewest cards
    (keeping the largest playable part of the play).

    >>> take_back(["7S 8S 9S"], "10S QD", players=2)
    (Card.parse('QD'),)
    """
    cards = parse_cards(played)
    kept = Counter(c.in_hand for c in playable_cards(cards, before, players, rules=rules))
    back = Counter(card.in_hand for card in cards) - kept
    return tuple(_sorted(back.elements()))


def best_play(
    hand: CardsInput,
    table: TableInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> Play:
    """The largest set of cards from ``hand`` that can join ``table`` this turn, and a layout."""
    ruleset = _rules(rules)
    ruleset.verify_players(players)
    return solve_hint(parse_cards(hand), parse_table(table), ruleset, players)


def playable_cards(
    hand: CardsInput,
    table: TableInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> tuple[Card, ...]:
    """The largest set of cards from ``hand`` that can join ``table`` this turn.

    >>> playable_cards("10S QD 6S", ["7S 8S 9S"], players=2)
    (Card.parse('6S'), Card.parse('10S'))
    """
    return best_play(hand, table, players, rules=rules).cards


__all__ = [
    "Arrangement",
    "Play",
    "TurnVerdict",
    "arrange",
    "best_play",
    "check_turn",
    "format_table",
    "parse_table",
    "playable_cards",
    "same_table",
    "take_back",
    "verify_turn",
]
