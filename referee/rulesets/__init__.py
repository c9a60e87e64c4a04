"""The five rulesets as data, found by id.

A :class:`Ruleset` is one frozen value: deal sizes, card values, how aces and
runs work, whether lay-offs are allowed, the deck, the default target.
Options from the match file (``target``, ``hands``, ``ace``,
``must_discard``) give a new value through :meth:`Ruleset.with_options`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from referee.cards import Card, Rank
from referee.errors import RuleError
from referee.messages import define_message

UNKNOWN_RULESET = define_message(
    "rules.unknown", '"{rules}" is not a ruleset; choose one of {known}'
)
UNKNOWN_OPTION = define_message(
    "rules.unknown_option", '{rules} has no option "{option}"; its options are {known}'
)
BAD_OPTION = define_message("rules.bad_option", 'option {option} must be {expected}, not "{value}"')
PLAYER_COUNT = define_message(
    "rules.player_count", "{rules} is played by {low} to {high} players, not {count}"
)
PLAYER_COUNT_EXACT = define_message(
    "rules.player_count_exact", "{rules} is played by exactly {low} players, not {count}"
)


class AceOrder(enum.Enum):
    """Where an ace may stand in a run."""

    LOW = "low"  # A-2-3 only
    LOW_OR_HIGH = "high-low"  # A-2-3 or Q-K-A, never K-A-2
    NONE = "none"  # never in a run (remi-indonesia)


# Card values by rank, ace first.
def _values(ace: int, two_to_nine: int | None, ten: int, picture: int) -> tuple[int, ...]:
    middle = [two_to_nine if two_to_nine is not None else n for n in range(2, 10)]
    return (ace, *middle, ten, picture, picture, picture)


FACE_VALUES = _values(1, None, 10, 10)


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    min_players: int
    max_players: int
    deal_sizes: Mapping[int, int]
    values: tuple[int, ...] = FACE_VALUES
    joker_value: int = 0
    ace_order: AceOrder = AceOrder.LOW
    runs_mix_number_and_picture: bool = True
    layoffs: bool = True
    jokers: bool = False
    target: int | None = 100
    hands: int | None = None
    must_discard: bool = False
    options: tuple[str, ...] = ("target",)
    description: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def value(self, card: Card) -> int:
        """What a card held in hand counts."""
        if card.is_joker:
            return self.joker_value
        assert card.rank is not None
        return self.values[card.rank - 1]

    def hand_value(self, cards: Any) -> int:
        return sum(self.value(card) for card in cards)

    def deal_size(self, players: int) -> int:
        return self.deal_sizes[players]

    def copies(self, players: int) -> int:
        """How many copies of each natural card the deck holds."""
        return 2 if self.jokers and players >= 3 else 1

    def joker_count(self, players: int) -> int:
        if not self.jokers:
            return 0
        return 2 if players >= 3 else 1

    def verify_players(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            if self.min_players == self.max_players:
                raise RuleError(
                    PLAYER_COUNT_EXACT, rules=self.id, low=self.min_players, count=count
                )
            raise RuleError(
                PLAYER_COUNT,
                rules=self.id,
                low=self.min_players,
                high=self.max_players,
                count=count,
            )

    def with_options(self, options: Mapping[str, Any] | None) -> Ruleset:
        """This ruleset with the match file's options applied (missing ones keep defaults)."""
        changes: dict[str, Any] = {}
        for option, value in (options or {}).items():
            if option not in self.options:
                raise RuleError(
                    UNKNOWN_OPTION, rules=self.id, option=option, known=", ".join(self.options)
                )
            changes.update(_read_option(option, value))
        result = replace(self, **changes)
        if result.ace_order is AceOrder.LOW_OR_HIGH and self.id == "rummy":
            result = replace(result, values=_values(15, None, 10, 10))
        return result


def _read_option(option: str, value: Any) -> dict[str, Any]:
    if option in ("target", "hands"):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise RuleError(
                BAD_OPTION, option=option, expected="a positive whole number", value=value
            )
        if option == "hands":
            return {"hands": value, "target": None}
        return {"target": value}
    if option == "ace":
        if value not in ("low", "high-low"):
            raise RuleError(BAD_OPTION, option=option, expected='"low" or "high-low"', value=value)
        return {"ace_order": AceOrder(value)}
    if option == "must_discard":
        if not isinstance(value, bool):
            raise RuleError(BAD_OPTION, option=option, expected="true or false", value=value)
        return {"must_discard": value}
    raise AssertionError(option)


REMI = Ruleset(
    id="remi",
    name="Remi",
    min_players=2,
    max_players=4,
    deal_sizes={2: 10, 3: 7, 4: 7},
    target=100,
    description="Indonesian house Remi: lay off onto anyone's melds, the winner takes the "
    "losers' hands, x2 for going out all at once",
)
RUMMY = Ruleset(
    id="rummy",
    name="Rummy",
    min_players=2,
    max_players=6,
    deal_sizes={2: 10, 3: 7, 4: 7, 5: 6, 6: 6},
    target=150,
    options=("target", "hands", "ace", "must_discard"),
    description="Basic Rummy for 2-6 players, with the ace-high and must-discard variants",
)
REMI_INDONESIA = Ruleset(
    id="remi-indonesia",
    name="Remi Indonesia",
    min_players=2,
    max_players=4,
    deal_sizes={2: 7, 3: 7, 4: 7},
    values=_values(15, 5, 5, 10),
    ace_order=AceOrder.NONE,
    runs_mix_number_and_picture=False,
    layoffs=False,
    target=500,
    description="Everyone scores their own melds minus their hand; closing-card bonus x10",
)
MANIPULATION = Ruleset(
    id="manipulation",
    name="Manipulation Rummy",
    min_players=2,
    max_players=5,
    deal_sizes={2: 10, 3: 10, 4: 10, 5: 10},
    joker_value=25,
    ace_order=AceOrder.LOW_OR_HIGH,
    jokers=True,
    target=150,
    description="Carousel: jokers, the whole table may be rearranged, knock at 5 or less",
)
GIN = Ruleset(
    id="gin",
    name="Gin Rummy",
    min_players=2,
    max_players=2,
    deal_sizes={2: 10},
    values=_values(1, None, 10, 10),
    target=100,
    description="Two players, knock at 10 or less, gin and undercut bonus 25",
)

RULESETS: dict[str, Ruleset] = {
    rules.id: rules for rules in (REMI, RUMMY, REMI_INDONESIA, MANIPULATION, GIN)
}


def find_ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset with this id, with ``options`` applied.

    >>> find_ruleset('rummy', {'ace': 'high-low'}).value(Card.parse('AS'))
    15
    """
    rules = RULESETS.get(ruleset_id) if isinstance(ruleset_id, str) else None
    if rules is None:
        raise RuleError(UNKNOWN_RULESET, rules=ruleset_id, known=", ".join(RULESETS))
    return rules.with_options(options)


__all__ = ["AceOrder", "RULESETS", "Rank", "Ruleset", "find_ruleset"]
