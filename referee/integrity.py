"""Deck integrity: no card of a round in more places than the deck holds copies.

This is the one place the deck is counted: the match replay, the live round,
the manipulation turn check and its arranger all record where they see each
card and ask :class:`CardPlaces`.  Real cards and jokers are counted as the
physical cards they are (a joker standing for 7H is a joker, not a 7H).

Every place a card is seen (a hand, a meld, the closing card) is recorded as a
translatable :class:`~referee.messages.Reason`, so that the error names each
copy's place: "QS is in Siti's hand and in meld 2".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from referee.cards import Card
from referee.errors import RuleError
from referee.melds import AND
from referee.messages import Reason, define_message
from referee.rulesets import Ruleset

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
DECK_COPIES_MANY = define_message(
    "deck.copies_many", "{card} is {places}, but the {copies} decks hold only {copies} of it"
)
DECK_JOKERS = define_message(
    "deck.jokers", "a joker is {places}, but the deck has only {count} joker(s)"
)
DECK_NO_JOKERS = define_message(
    "deck.no_jokers", "there are no jokers in {rules}, but a joker is {places}"
)


def join_reasons(items: Sequence[Reason | str]) -> Reason | str:
    """Items as 'a', 'a and b', 'a, b and c' (translatable)."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Reason.of(AND, first=items[0], second=items[1])
    return Reason.of(LIST_MORE, first=items[0], rest=join_reasons(items[1:]))


def physical_card(card: Card) -> Card:
    """The card as it is in the deck: a named joker is a joker."""
    return card.in_hand


@dataclass
class CardPlaces:
    """Where every physical card of the round is, to check the deck's integrity."""

    seen: dict[Card, list[Reason]] = field(default_factory=dict)

    def add(self, cards: Iterable[Card], place: Reason) -> None:
        for card in cards:
            self.seen.setdefault(physical_card(card), []).append(place)

    def problems(self, rules: Ruleset, players: int) -> list[Reason]:
        """Every card seen more often than the deck of ``players`` holds it, with its places."""
        copies, jokers = rules.copies(players), rules.joker_count(players)
        found = []
        for card, places in self.seen.items():
            limit = jokers if card.is_joker else copies
            if len(places) <= limit:
                continue
            where = join_reasons(_describe_places(places))
            if card.is_joker:
                if jokers == 0:
                    found.append(Reason.of(DECK_NO_JOKERS, rules=rules.name, places=where))
                else:
                    found.append(Reason.of(DECK_JOKERS, places=where, count=jokers))
            elif copies == 1:
                found.append(Reason.of(DECK_ONE_COPY, card=str(card), places=where))
            else:
                key = DECK_COPIES if copies == 2 else DECK_COPIES_MANY
                found.append(Reason.of(key, card=str(card), places=where, copies=copies))
        return found

    def verify(self, rules: Ruleset, players: int) -> None:
        """:class:`RuleError` for the first card seen too often."""
        problems = self.problems(rules, players)
        if problems:
            raise RuleError(problems[0])


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
