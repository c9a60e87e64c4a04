"""The :class:`Ruleset` value and the match-level hooks shared by the rulesets.

A ruleset is data (deal sizes, card values, ace order, which endings a round
may have, how turns are entered, the discard-pile rules) plus three hooks for
what really differs between games:

- ``score_round(rules, ending) -> RoundScore``: a checked round's scores
  (see :mod:`referee.scoring`);
- ``next_dealer(rules, progress) -> str``: who deals the next round;
- ``match_end(rules, progress) -> MatchEnd``: whether the match is over, its
  winners and any match-end bonuses.

Voided rounds never reach the hooks: they score 0, keep the dealer and
count for nothing (see :mod:`referee.match`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from referee.cards import Card
from referee.errors import RuleError
from referee.messages import define_message
from referee.scoring import Ending, RoundEnding, RoundScore, winner_takes_hands

UNKNOWN_OPTION = define_message(
    "rules.unknown_option", '{rules} has no option "{option}"; its options are {known}'
)
BAD_WHOLE_NUMBER = define_message(
    "rules.bad_whole_number", 'option {option} must be a positive whole number, not "{value}"'
)
BAD_ACE = define_message("rules.bad_ace", 'option ace must be "low" or "high-low", not "{value}"')
BAD_SWITCH = define_message(
    "rules.bad_switch", 'option {option} must be true or false, not "{value}"'
)
PLAYER_COUNT = define_message(
    "rules.player_count", "{rules} is played by {low} to {high} players, not {count}"
)
PLAYER_COUNT_EXACT = define_message(
    "rules.player_count_exact", "{rules} is played by exactly {low} players, not {count}"
)
NO_ENDING = define_message(
    "round.no_ending", 'the round does not say how it ended: give "out", "knock" or "end"'
)


class AceOrder(enum.Enum):
    """Where an ace may stand in a run."""

    LOW = "low"  # A-2-3 only
    LOW_OR_HIGH = "high-low"  # A-2-3 or Q-K-A, never K-A-2
    NONE = "none"  # never in a run (remi-indonesia)


class TurnStyle(enum.Enum):
    """How the turns of a round are entered in the match file."""

    MELDS = "melds"  # "melds" and "layoffs" per turn, melds numbered 1, 2, 3 ...
    TABLE = "table"  # "played" and the whole "table" after the turn (manipulation)
    NONE = "none"  # no turns: only the final hands (gin)


def card_values(ace: int, two_to_nine: int | None, ten: int, picture: int) -> tuple[int, ...]:
    """Card values by rank, ace first; ``two_to_nine=None`` means face value."""
    middle = [two_to_nine if two_to_nine is not None else n for n in range(2, 10)]
    return (ace, *middle, ten, picture, picture, picture)


FACE_VALUES = card_values(1, None, 10, 10)


@dataclass(frozen=True)
class MatchProgress:
    """The match right after a (non-void) round, as the dealer and match-end hooks see it.

    ``totals`` include the round just played; ``rounds_counted`` is the number
    of rounds played that were not voided; ``rounds_won`` counts, per player,
    the rounds they won (alone or tied).
    """

    players: tuple[str, ...]
    dealer: str
    last: RoundScore
    totals: Mapping[str, int]
    rounds_counted: int
    rounds_won: Mapping[str, int]


@dataclass(frozen=True)
class MatchEnd:
    """Whether the match is over; ``bonuses`` go into the totals only."""

    finished: bool
    winners: tuple[str, ...] = ()
    bonuses: Mapping[str, int] = field(default_factory=dict)


ScoreHook = Callable[["Ruleset", RoundEnding], RoundScore]
DealerHook = Callable[["Ruleset", MatchProgress], str]
MatchEndHook = Callable[["Ruleset", MatchProgress], MatchEnd]


def seat_after(players: tuple[str, ...], player: str, seats: int = 1) -> str:
    """Who sits ``seats`` places clockwise after ``player`` (``players`` in seating order)."""
    return players[(players.index(player) + seats) % len(players)]


def dealer_moves_clockwise(rules: Ruleset, progress: MatchProgress) -> str:
    """The deal moves one seat clockwise every round."""
    return seat_after(progress.players, progress.dealer)


def best_players(totals: Mapping[str, int], players: Iterable[str]) -> tuple[str, ...]:
    """The players with the highest total, in seating order."""
    players = tuple(players)
    top = max(totals[player] for player in players)
    return tuple(player for player in players if totals[player] == top)


def first_to_target(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """First to reach the target wins; with ``hands`` = N, the most points after N rounds.

    Ties at the top share the win.
    """
    if rules.hands is not None:
        if progress.rounds_counted >= rules.hands:
            return MatchEnd(True, best_players(progress.totals, progress.players))
        return MatchEnd(False)
    assert rules.target is not None
    if any(progress.totals[player] >= rules.target for player in progress.players):
        return MatchEnd(True, best_players(progress.totals, progress.players))
    return MatchEnd(False)


@dataclass(frozen=True)
class Ruleset:
    """One game of the rummy family: its data and its hooks.

    >>> from referee.rulesets import find_ruleset
    >>> find_ruleset('remi').deal_size(3)
    7
    """

    id: str
    name: str
    min_players: int
    max_players: int
    deal_sizes: Mapping[int, int]
    values: tuple[int, ...] = FACE_VALUES
    joker_value: int = 0
    ace_order: AceOrder = AceOrder.LOW
    high_ace_value: int | None = None  # what an ace is worth once it may also be high
    runs_mix_number_and_picture: bool = True
    layoffs: bool = True
    jokers: bool = False
    target: int | None = 100
    hands: int | None = None
    must_discard: bool = False
    options: tuple[str, ...] = ("target",)
    description: str = ""
    turn_style: TurnStyle = TurnStyle.MELDS
    endings: frozenset[Ending] = frozenset({Ending.OUT, Ending.VOID})
    hand_never_grows: bool = False  # each turn draws one card and discards one
    run_first: bool = False  # a set only after the player's first run of the round
    discard_depth: int = 1  # how deep into the discard pile a player may take
    taken_discard_not_last: bool = False  # may not leave the taken discard as the last card
    taken_discard_melded_at_once: bool = False  # the deepest taken card is melded at once
    at_once_doubles: bool = False  # going out all at once doubles the round
    closing_card: bool = False  # the round is closed by discarding a closing card, which scores
    knock_limit: int | None = None
    final_hand_size: int | None = None  # every hand's size when the round is scored
    leader_offset: int = 1  # the first turn is this many seats after the dealer
    menu_order: int = 100  # where the ruleset comes in lists
    no_ending_message: str = NO_ENDING  # the message key for a round that states no ending
    score_round: ScoreHook = field(default=winner_takes_hands, compare=False, repr=False)
    next_dealer: DealerHook = field(default=dealer_moves_clockwise, compare=False, repr=False)
    match_end: MatchEndHook = field(default=first_to_target, compare=False, repr=False)

    def value(self, card: Card) -> int:
        """What a card held in hand counts."""
        if card.is_joker:
            return self.joker_value
        assert card.rank is not None
        return self.values[card.rank - 1]

    def hand_value(self, cards: Iterable[Card]) -> int:
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
        """This ruleset with the match file's options applied (missing ones keep defaults).

        With ``hands`` the match ends after that many rounds, whatever ``target`` says.
        """
        changes: dict[str, Any] = {}
        for option, value in (options or {}).items():
            if option not in self.options:
                raise RuleError(
                    UNKNOWN_OPTION, rules=self.id, option=option, known=", ".join(self.options)
                )
            changes.update(_read_option(option, value))
        if changes.get("hands") is not None:
            changes["target"] = None
        result = replace(self, **changes)
        if result.ace_order is AceOrder.LOW_OR_HIGH and result.high_ace_value is not None:
            result = replace(result, values=(result.high_ace_value, *result.values[1:]))
        return result

    def describe_goal(self) -> str:
        """The match goal in a few English words, for text output."""
        if self.hands is not None:
            return f"{self.hands} rounds"
        return f"target {self.target}"


def _read_option(option: str, value: Any) -> dict[str, Any]:
    if option in ("target", "hands"):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise RuleError(BAD_WHOLE_NUMBER, option=option, value=value)
        return {option: value}
    if option == "ace":
        if value not in ("low", "high-low"):
            raise RuleError(BAD_ACE, value=value)
        return {"ace_order": AceOrder(value)}
    if option == "must_discard":
        if not isinstance(value, bool):
            raise RuleError(BAD_SWITCH, option=option, value=value)
        return {"must_discard": value}
    raise AssertionError(option)
