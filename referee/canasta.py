"""Classic Canasta: the options, a hand's final table checked and scored, the match end.

RULES.md, ``canasta``.  A **side** is a team of two partners, or a player alone (2 or 3
players).  A hand is entered as its final table only:

* :class:`Side` holds a side's melds (as cards, or as :class:`MeldCounts` the way clubs
  count them), its red 3s and the cards (or points) left in its players' hands;
* :func:`referee_hand` checks every side of a :class:`CanastaHand` against the rules,
  refusing with the reason in words, and scores each side exactly (:class:`SideScore`),
  saying what it could not check without the cards;
* :func:`first_meld_minimum` is a side's initial-meld minimum for the next hand;
* :func:`winners` says whether the match has ended, and who won.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from referee.cards import Card, Rank
from referee.errors import RuleError
from referee.messages import Reason, define_message
from referee.notation import format_card, format_cards, parse_cards
from referee.rulesets.base import OPTION_ABOVE, option_refusal
from referee.rulesets.options import Option, OptionType, Preset, option, preset, target_option

# ---------------------------------------------------------------------------
# Options and presets (RULES.md, the options table)


RULES_ID = "canasta"
AT_MOST_3: Literal["at-most-3"] = "at-most-3"
AT_MOST_NATURALS: Literal["at-most-naturals"] = "at-most-naturals"

OPTION_TABLE: tuple[Option, ...] = (
    target_option(RULES_ID, 5000, 1000, 20000),
    option(
        RULES_ID,
        "going_out_bonus",
        OptionType.NUMBER,
        100,
        minimum=0,
        maximum=500,
        at_most="concealed_bonus",
        label="Going out bonus",
        explanation="What the side of the player who goes out scores for it.",
        summary="Going out scores {value}",
    ),
    option(
        RULES_ID,
        "concealed_bonus",
        OptionType.NUMBER,
        200,
        minimum=0,
        maximum=1000,
        label="Concealed bonus",
        explanation=(
            "What going out concealed scores instead of the going out bonus (never less than it)."
        ),
        summary="Going out concealed scores {value}",
    ),
    option(
        RULES_ID,
        "wild_cards",
        OptionType.CHOICE,
        AT_MOST_3,
        choices=(AT_MOST_3, AT_MOST_NATURALS),
        label="Wild cards in a meld",
        explanation=(
            "at-most-naturals: a meld also never holds more wild than natural cards "
            "(2 natural and 3 wild is refused)."
        ),
        summary="Wild cards in a meld: {value}",
    ),
    option(
        RULES_ID,
        "canastas_to_go_out",
        OptionType.NUMBER,
        None,
        minimum=1,
        maximum=2,
        label="Canastas to go out",
        explanation=(
            "The canastas a side needs before one of its players may go out; without it, "
            "1 (2 with 2 players)."
        ),
        summary="{value} canasta(s) needed to go out",
    ),
)

UNKNOWN_OPTION = define_message(
    "canasta.unknown_option", "Canasta has no option {option}; its options are {known}"
)


@dataclass(frozen=True)
class CanastaOptions:
    """The options of RULES.md's table for ``canasta``, with their defaults.

    ``canastas_to_go_out`` left at ``None`` follows the players: 1, or 2 with 2 players.
    """

    target: int = 5000
    going_out_bonus: int = 100
    concealed_bonus: int = 200
    wild_cards: Literal["at-most-3", "at-most-naturals"] = AT_MOST_3
    canastas_to_go_out: int | None = None

    def __post_init__(self) -> None:
        for declared in OPTION_TABLE:
            value = getattr(self, declared.name)
            if not declared.accepts(value):
                raise option_refusal(declared, value)
        if self.going_out_bonus > self.concealed_bonus:
            going_out, concealed = (
                _declared(name) for name in ("going_out_bonus", "concealed_bonus")
            )
            raise RuleError(
                OPTION_ABOVE,
                label=Reason.of(f"{going_out.text_key}.label"),
                option=going_out.name,
                value=self.going_out_bonus,
                other_label=Reason.of(f"{concealed.text_key}.label"),
                other=concealed.name,
                other_value=self.concealed_bonus,
            )

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> CanastaOptions:
        """The options from a mapping (a match file's), refusing names it does not know."""
        known = {declared.name for declared in OPTION_TABLE}
        for name in values:
            if name not in known:
                raise RuleError(UNKNOWN_OPTION, option=name, known=", ".join(sorted(known)))
        return cls(**dict(values))

    def canastas_needed(self, players: int) -> int:
        """The canastas a side needs before one of its players may go out."""
        if self.canastas_to_go_out is not None:
            return self.canastas_to_go_out
        return 2 if players == 2 else 1


PRESETS: tuple[Preset, ...] = (
    preset(RULES_ID, "concealed-300", "Going out concealed scores 300", {"concealed_bonus": 300}),
    preset(RULES_ID, "short", "A short match, to 2500", {"target": 2500}),
)

PLAYERS = range(2, 5)
DECKS = 2
JOKERS = 4
RED_THREES = 4
CANASTA_LENGTH = 7
MOST_WILD_CARDS = 3
LEAST_NATURAL_CARDS = 2
NATURAL_CANASTA_BONUS = 500
MIXED_CANASTA_BONUS = 300
RED_THREE_BONUS = 100
ALL_RED_THREES_BONUS = 800

# ---------------------------------------------------------------------------
# Card values and the first-meld minimum


def _declared(name: str) -> Option:
    return next(declared for declared in OPTION_TABLE if declared.name == name)


def is_wild(card: Card) -> bool:
    """Jokers and 2s are wild in Canasta."""
    return card.is_joker or card.rank is Rank.TWO


def is_red_three(card: Card) -> bool:
    return (
        not card.is_joker and card.rank is Rank.THREE and card.suit is not None and card.suit.is_red
    )


def card_value(card: Card) -> int:
    """A card's value in a meld or in a hand (a red 3 counts only as a bonus: 0 here)."""
    if card.is_joker:
        return 50
    assert card.rank is not None
    if card.rank in (Rank.TWO, Rank.ACE):
        return 20
    if card.rank >= Rank.EIGHT:
        return 10
    if card.rank >= Rank.FOUR:
        return 5
    return 0 if is_red_three(card) else 5


FIRST_MELD_MINIMUMS: tuple[tuple[int, int], ...] = ((3000, 120), (1500, 90), (0, 50))
NEGATIVE_TOTAL_MINIMUM = 15


def first_meld_minimum(total: int) -> int:
    """The least value of a side's first meld in a hand, by its total before the hand."""
    for least_total, minimum in FIRST_MELD_MINIMUMS:
        if total >= least_total:
            return minimum
    return NEGATIVE_TOTAL_MINIMUM


# ---------------------------------------------------------------------------
# A side's hand


@dataclass(frozen=True)
class TierCounts:
    """A side's melded cards counted per value tier, as clubs count them."""

    jokers: int = 0
    aces_and_twos: int = 0
    eights_to_kings: int = 0
    fours_to_sevens: int = 0
    black_threes: int = 0

    @property
    def points(self) -> int:
        return (
            50 * self.jokers
            + 20 * self.aces_and_twos
            + 10 * self.eights_to_kings
            + 5 * (self.fours_to_sevens + self.black_threes)
        )

    @property
    def cards(self) -> int:
        return (
            self.jokers
            + self.aces_and_twos
            + self.eights_to_kings
            + self.fours_to_sevens
            + self.black_threes
        )


@dataclass(frozen=True)
class MeldCounts:
    """A side's melds given as counts: its canastas and the value of all its melded cards
    (``points``, or worked out from ``tiers`` when those are given)."""

    natural: int = 0
    mixed: int = 0
    points: int = 0
    tiers: TierCounts | None = None

    @classmethod
    def from_tiers(cls, natural: int, mixed: int, tiers: TierCounts) -> MeldCounts:
        return cls(natural, mixed, tiers.points, tiers)


MeldsInput: TypeAlias = "Sequence[Sequence[Card | str] | str] | MeldCounts"
HandInput: TypeAlias = "Sequence[Card | str] | str | int"


@dataclass(frozen=True)
class Side:
    """A side at the end of a hand: a team of two, or a player alone.

    ``hands`` maps each of its players to the cards left (or their value as a number);
    the player who went out may be left out.
    """

    name: str
    players: tuple[str, ...]
    melds: MeldsInput = ()
    red_threes: int = 0
    hands: Mapping[str, HandInput] = field(default_factory=dict)


@dataclass(frozen=True)
class CanastaHand:
    """A hand's final table: every side, and who went out (``None``: the stock ran out)."""

    sides: tuple[Side, ...]
    out: str | None = None
    concealed: bool = False


@dataclass(frozen=True)
class SideScore:
    """A side's score for a hand, part by part."""

    meld_points: int
    natural_canastas: int
    mixed_canastas: int
    canasta_bonus: int
    red_threes: int
    red_three_points: int
    going_out_bonus: int
    hand_points: int

    @property
    def total(self) -> int:
        return (
            self.meld_points
            + self.canasta_bonus
            + self.red_three_points
            + self.going_out_bonus
            - self.hand_points
        )


@dataclass(frozen=True)
class HandResult:
    """Each side's score, and what the referee took on the players' word."""

    scores: dict[str, SideScore]
    not_checked: tuple[Reason, ...] = ()

    @property
    def totals(self) -> dict[str, int]:
        return {name: score.total for name, score in self.scores.items()}


# ---------------------------------------------------------------------------
# Refusals

SIDES_SHAPE = define_message(
    "canasta.sides_shape",
    "Canasta is played by two teams of two, or by 2 or 3 players each alone, not by {sides}",
)
PLAYER_TWICE = define_message("canasta.player_twice", "{player} is named in more than one side")
MELD_TOO_SHORT = define_message(
    "canasta.meld_too_short", "{side}'s meld {cards} has {count} cards: a meld has at least 3"
)
RED_THREE_MELDED = define_message(
    "canasta.red_three_melded",
    "{side}'s meld {cards} holds a red 3: red 3s are never melded, they are put down apart "
    "and counted as the side's red 3s",
)
WILD_ALONE = define_message(
    "canasta.wild_alone",
    "{side}'s meld {cards} has no natural card: wild cards (jokers and 2s) never meld alone",
)
MIXED_RANKS = define_message(
    "canasta.mixed_ranks",
    "{side}'s meld {cards} mixes ranks ({ranks}): a meld is of one rank",
)
JOKER_NAMED_OTHER_RANK = define_message(
    "canasta.joker_named_other_rank",
    "{side}'s meld {cards} names a joker {joker}: a joker in a meld of {rank}s may only "
    "be named as a {rank}",
)
TOO_FEW_NATURAL = define_message(
    "canasta.too_few_natural",
    "{side}'s meld {cards} has {natural} natural card: a meld needs at least 2 natural cards",
)
TOO_MANY_WILD = define_message(
    "canasta.too_many_wild",
    "{side}'s meld {cards} has {wild} wild cards: a meld holds at most 3",
)
MORE_WILD_THAN_NATURAL = define_message(
    "canasta.more_wild_than_natural",
    "{side}'s meld {cards} has more wild cards ({wild}) than natural ones ({natural}): "
    "these house rules never allow that",
)
BLACK_THREES_NOT_OUT = define_message(
    "canasta.black_threes_not_out",
    "{side} melded black 3s ({cards}) without going out: only a player going out may meld "
    "black 3s, in that last turn",
)
BLACK_THREES_WITH_WILD = define_message(
    "canasta.black_threes_with_wild",
    "{side}'s meld of black 3s {cards} holds a wild card: black 3s meld only with each other",
)
TWO_MELDS_OF_RANK = define_message(
    "canasta.two_melds_of_rank",
    "{side} has two melds of {rank}s: a side has one meld of each rank, and more cards of "
    "that rank go on it",
)
RED_THREE_IN_HAND = define_message(
    "canasta.red_three_in_hand",
    "{player}'s hand holds a red 3 ({card}): red 3s never stay in a hand, they are put "
    "down at once and counted as the side's red 3s",
)
NOT_A_COUNT = define_message(
    "canasta.not_a_count", "{what} must be a whole number of 0 or more, not {value}"
)
COUNT_OF_HAND = define_message("canasta.count.hand", "{player}'s hand")
COUNT_OF_RED_THREES = define_message("canasta.count.red_threes", "{side}'s red 3s")
COUNT_OF_NATURAL = define_message("canasta.count.natural", "{side}'s natural canastas")
COUNT_OF_MIXED = define_message("canasta.count.mixed", "{side}'s mixed canastas")
COUNT_OF_POINTS = define_message("canasta.count.points", "the value of {side}'s melded cards")
COUNT_OF_TIER = {
    "jokers": define_message("canasta.count.jokers", "{side}'s melded jokers"),
    "aces_and_twos": define_message("canasta.count.aces_and_twos", "{side}'s melded aces and 2s"),
    "eights_to_kings": define_message(
        "canasta.count.eights_to_kings", "{side}'s melded 8s to kings"
    ),
    "fours_to_sevens": define_message("canasta.count.fours_to_sevens", "{side}'s melded 4s to 7s"),
    "black_threes": define_message("canasta.count.black_threes", "{side}'s melded black 3s"),
}
MELDS_NOT_A_LIST = define_message(
    "canasta.melds_not_a_list",
    "give {side}'s melds as a list of melds, each a list of cards like KS KH KD, or as counts",
)
TOO_MANY_RED_THREES = define_message(
    "canasta.too_many_red_threes",
    "the sides have {count} red 3s between them: the two decks hold only 4",
)
TOO_MANY_OF_CARD = define_message(
    "canasta.too_many_of_card",
    "{card} is on the table and in the hands {count} times: the two decks hold it only twice",
)
TOO_MANY_JOKERS = define_message(
    "canasta.too_many_jokers",
    "there are {count} jokers on the table and in the hands: the decks hold only 4",
)
TOO_MANY_BLACK_THREES = define_message(
    "canasta.too_many_black_threes",
    "there are {count} black 3s on the table and in the hands: the decks hold only 4",
)
POINTS_NOT_FIVES = define_message(
    "canasta.points_not_fives",
    "{side}'s melded cards are worth {points}: every card is worth a multiple of 5",
)
CANASTAS_WITHOUT_CARDS = define_message(
    "canasta.canastas_without_cards",
    "{side} has {canastas} canastas but only {cards} melded cards: a canasta is 7 cards or more",
)
TIERS_NOT_POINTS = define_message(
    "canasta.tiers_not_points",
    "{side}'s melded cards counted by value are worth {tiers}, but its melds are given as "
    "worth {points}",
)
CANASTAS_WITHOUT_POINTS = define_message(
    "canasta.canastas_without_points",
    "{side} has canastas but its melded cards are worth nothing",
)
OUT_NOT_A_PLAYER = define_message(
    "canasta.out_not_a_player", "{player} went out but plays in no side of this hand"
)
OUT_HAND_NOT_EMPTY = define_message(
    "canasta.out_hand_not_empty",
    "{player} went out, so their hand is empty, but it holds {cards}",
)
OUT_HAND_WORTH = define_message(
    "canasta.out_hand_worth",
    "{player} went out, so their hand is worth 0, not {points}",
)
HAND_POINTS_NOT_FIVES = define_message(
    "canasta.hand_points_not_fives",
    "{player}'s hand is worth {points}: every card is worth a multiple of 5",
)
SIDE_NAME_TWICE = define_message(
    "canasta.side_name_twice", "two sides are named {side}: each side has its own name"
)
EMPTY_HAND_NOT_OUT = define_message(
    "canasta.empty_hand_not_out",
    "{player}'s hand is empty, but only the player who went out has no cards left",
)
HAND_MISSING = define_message(
    "canasta.hand_missing", "give {player}'s hand: the cards left in it, or their value"
)
HAND_NOT_OF_SIDE = define_message(
    "canasta.hand_not_of_side", "{player} is not a player of {side}, whose hands these are"
)
NOT_ENOUGH_CANASTAS = define_message(
    "canasta.not_enough_canastas",
    "{player} went out, but {side} has {canastas} canasta(s): going out needs {needed}",
)
CONCEALED_WITHOUT_OUT = define_message(
    "canasta.concealed_without_out",
    "going out concealed needs a player who went out, and nobody went out",
)

MELDS_AS_COUNTS = define_message(
    "canasta.melds_as_counts",
    "{side}'s melds were given as counts: each meld's rank and its natural and wild cards "
    "were not checked",
)
HAND_AS_POINTS = define_message(
    "canasta.hand_as_points",
    "{player}'s hand was given as {points} points: its cards were not checked",
)
CONCEALED_ON_WORD = define_message(
    "canasta.concealed_on_word",
    "{player} went out concealed: the referee takes the players' word that nothing was "
    "melded before in the hand",
)


# ---------------------------------------------------------------------------
# Checking a meld


@dataclass(frozen=True)
class Meld:
    """A checked meld of one rank."""

    rank: Rank
    cards: tuple[Card, ...]

    @property
    def wild(self) -> int:
        return sum(1 for card in self.cards if is_wild(card))

    @property
    def natural(self) -> int:
        return len(self.cards) - self.wild

    @property
    def is_canasta(self) -> bool:
        return len(self.cards) >= CANASTA_LENGTH

    @property
    def points(self) -> int:
        return sum(card_value(card) for card in self.cards)


def check_meld(
    cards: Sequence[Card | str] | str,
    side: str,
    options: CanastaOptions,
    *,
    went_out: bool,
) -> Meld:
    """The meld, checked: one rank from 4 up to A (black 3s only for a side going out),
    at least 2 natural and at most 3 wild cards (never more wild than natural with
    ``at-most-naturals``)."""
    meld = parse_cards(cards)
    shown = format_cards(meld)
    if any(is_red_three(card) for card in meld):
        raise RuleError(RED_THREE_MELDED, side=side, cards=shown)
    if len(meld) < 3:
        raise RuleError(MELD_TOO_SHORT, side=side, cards=shown, count=len(meld))
    naturals = [card for card in meld if not is_wild(card)]
    ranks = sorted({card.rank for card in naturals if card.rank is not None})
    if not ranks:
        raise RuleError(WILD_ALONE, side=side, cards=shown)
    if len(ranks) > 1:
        raise RuleError(
            MIXED_RANKS, side=side, cards=shown, ranks=", ".join(r.symbol for r in ranks)
        )
    rank = ranks[0]
    for card in meld:
        if card.is_joker and card.rank is not None and card.rank is not rank:
            raise RuleError(
                JOKER_NAMED_OTHER_RANK,
                side=side,
                cards=shown,
                joker=format_card(card),
                rank=rank.symbol,
            )
    wild = len(meld) - len(naturals)
    if rank is Rank.THREE:
        if not went_out:
            raise RuleError(BLACK_THREES_NOT_OUT, side=side, cards=shown)
        if wild:
            raise RuleError(BLACK_THREES_WITH_WILD, side=side, cards=shown)
    if len(naturals) < LEAST_NATURAL_CARDS:
        raise RuleError(TOO_FEW_NATURAL, side=side, cards=shown, natural=len(naturals))
    if wild > MOST_WILD_CARDS:
        raise RuleError(TOO_MANY_WILD, side=side, cards=shown, wild=wild)
    if options.wild_cards == "at-most-naturals" and wild > len(naturals):
        raise RuleError(
            MORE_WILD_THAN_NATURAL, side=side, cards=shown, wild=wild, natural=len(naturals)
        )
    return Meld(rank, tuple(Card.joker() if card.is_joker else card for card in meld))


# ---------------------------------------------------------------------------
# Refereeing a hand


def _count(value: object, what: str, **params: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(NOT_A_COUNT, what=Reason.of(what, **params), value=repr(value))
    return value


@dataclass
class _Deck:
    """Every card seen on the table and in the hands, to hold against two decks."""

    cards: Counter[Card] = field(default_factory=Counter)
    jokers: int = 0
    black_threes: int = 0

    def add(self, cards: Sequence[Card]) -> None:
        for card in cards:
            if card.is_joker:
                self.jokers += 1
            else:
                self.cards[card] += 1
                if card.rank is Rank.THREE:
                    self.black_threes += 1

    def check(self) -> None:
        for card, count in sorted(self.cards.items(), key=lambda item: item[0].sort_key):
            if count > DECKS:
                raise RuleError(TOO_MANY_OF_CARD, card=format_card(card), count=count)
        if self.jokers > JOKERS:
            raise RuleError(TOO_MANY_JOKERS, count=self.jokers)
        if self.black_threes > 2 * DECKS:
            raise RuleError(TOO_MANY_BLACK_THREES, count=self.black_threes)


def _check_sides(sides: Sequence[Side]) -> int:
    sizes = sorted(len(side.players) for side in sides)
    if sizes not in ([2, 2], [1, 1], [1, 1, 1]):
        shape = " + ".join(str(len(side.players)) for side in sides) or "0"
        raise RuleError(SIDES_SHAPE, sides=shape)
    names = Counter(side.name for side in sides)
    for name, count in names.items():
        if count > 1:
            raise RuleError(SIDE_NAME_TWICE, side=name)
    seen: set[str] = set()
    for side in sides:
        for player in side.players:
            if player in seen:
                raise RuleError(PLAYER_TWICE, player=player)
            seen.add(player)
    return sum(sizes)


def _hand_points(side: Side, out: str | None, deck: _Deck, notes: list[Reason]) -> int:
    for player in side.hands:
        if player not in side.players:
            raise RuleError(HAND_NOT_OF_SIDE, player=player, side=side.name)
    points = 0
    for player in side.players:
        if player not in side.hands:
            if player == out:
                continue
            raise RuleError(HAND_MISSING, player=player)
        hand = side.hands[player]
        if isinstance(hand, int):  # a bool too, which _count refuses
            value = _count(hand, COUNT_OF_HAND, player=player)
            if player == out and value:
                raise RuleError(OUT_HAND_WORTH, player=player, points=value)
            if player != out and not value:
                raise RuleError(EMPTY_HAND_NOT_OUT, player=player)
            if value % 5:
                raise RuleError(HAND_POINTS_NOT_FIVES, player=player, points=value)
            if player != out:
                notes.append(Reason.of(HAND_AS_POINTS, player=player, points=value))
            points += value
            continue
        cards = parse_cards(hand)
        if player == out and cards:
            raise RuleError(OUT_HAND_NOT_EMPTY, player=player, cards=format_cards(cards))
        if player != out and not cards:
            raise RuleError(EMPTY_HAND_NOT_OUT, player=player)
        for card in cards:
            if is_red_three(card):
                raise RuleError(RED_THREE_IN_HAND, player=player, card=format_card(card))
        bare = tuple(card.in_hand for card in cards)
        deck.add(bare)
        points += sum(card_value(card) for card in bare)
    return points


def _melds(
    side: Side, options: CanastaOptions, went_out: bool, deck: _Deck, notes: list[Reason]
) -> tuple[int, int, int]:
    """The side's meld points, natural canastas and mixed canastas."""
    if isinstance(side.melds, MeldCounts):
        counts = side.melds
        natural = _count(counts.natural, COUNT_OF_NATURAL, side=side.name)
        mixed = _count(counts.mixed, COUNT_OF_MIXED, side=side.name)
        points = _count(counts.points, COUNT_OF_POINTS, side=side.name)
        if points % 5:
            raise RuleError(POINTS_NOT_FIVES, side=side.name, points=points)
        if (natural or mixed) and not points:
            raise RuleError(CANASTAS_WITHOUT_POINTS, side=side.name)
        if counts.tiers is not None:
            tiers = counts.tiers
            if tiers.points != points:
                raise RuleError(TIERS_NOT_POINTS, side=side.name, tiers=tiers.points, points=points)
            for name in COUNT_OF_TIER:
                _count(getattr(tiers, name), COUNT_OF_TIER[name], side=side.name)
            if tiers.cards < CANASTA_LENGTH * (natural + mixed):
                raise RuleError(
                    CANASTAS_WITHOUT_CARDS,
                    side=side.name,
                    canastas=natural + mixed,
                    cards=tiers.cards,
                )
            if tiers.black_threes and not went_out:
                raise RuleError(
                    BLACK_THREES_NOT_OUT, side=side.name, cards=f"{tiers.black_threes} x 3"
                )
            deck.jokers += tiers.jokers
            deck.black_threes += tiers.black_threes
        notes.append(Reason.of(MELDS_AS_COUNTS, side=side.name))
        return points, natural, mixed
    if isinstance(side.melds, str):
        raise RuleError(MELDS_NOT_A_LIST, side=side.name)
    melds = [check_meld(cards, side.name, options, went_out=went_out) for cards in side.melds]
    ranks: set[Rank] = set()
    for meld in melds:
        if meld.rank in ranks:
            raise RuleError(TWO_MELDS_OF_RANK, side=side.name, rank=meld.rank.symbol)
        ranks.add(meld.rank)
        deck.add(meld.cards)
    canastas = [meld for meld in melds if meld.is_canasta]
    natural = sum(1 for meld in canastas if not meld.wild)
    return sum(meld.points for meld in melds), natural, len(canastas) - natural


def _red_three_points(count: int) -> int:
    return ALL_RED_THREES_BONUS if count == RED_THREES else RED_THREE_BONUS * count


def referee_hand(hand: CanastaHand, options: CanastaOptions | None = None) -> HandResult:
    """Every side's hand checked against RULES.md and scored, or the first refusal
    (a :class:`RuleError` naming the side, meld, player or card and the rule)."""
    options = options or CanastaOptions()
    players = _check_sides(hand.sides)
    out_side = None
    if hand.out is not None:
        out_side = next((s for s in hand.sides if hand.out in s.players), None)
        if out_side is None:
            raise RuleError(OUT_NOT_A_PLAYER, player=hand.out)
    elif hand.concealed:
        raise RuleError(CONCEALED_WITHOUT_OUT)
    deck = _Deck()
    notes: list[Reason] = []
    red_threes = sum(_count(s.red_threes, COUNT_OF_RED_THREES, side=s.name) for s in hand.sides)
    if red_threes > RED_THREES:
        raise RuleError(TOO_MANY_RED_THREES, count=red_threes)
    scores: dict[str, SideScore] = {}
    for side in hand.sides:
        went_out = side is out_side
        meld_points, natural, mixed = _melds(side, options, went_out, deck, notes)
        if went_out and natural + mixed < options.canastas_needed(players):
            raise RuleError(
                NOT_ENOUGH_CANASTAS,
                player=hand.out,
                side=side.name,
                canastas=natural + mixed,
                needed=options.canastas_needed(players),
            )
        hand_points = _hand_points(side, hand.out, deck, notes)
        red_three_points = _red_three_points(side.red_threes)
        if not meld_points:
            red_three_points = -red_three_points
        bonus = 0
        if went_out:
            bonus = options.concealed_bonus if hand.concealed else options.going_out_bonus
        scores[side.name] = SideScore(
            meld_points=meld_points,
            natural_canastas=natural,
            mixed_canastas=mixed,
            canasta_bonus=NATURAL_CANASTA_BONUS * natural + MIXED_CANASTA_BONUS * mixed,
            red_threes=side.red_threes,
            red_three_points=red_three_points,
            going_out_bonus=bonus,
            hand_points=hand_points,
        )
    deck.check()
    if hand.concealed:
        notes.append(Reason.of(CONCEALED_ON_WORD, player=hand.out))
    return HandResult(scores, tuple(notes))


# ---------------------------------------------------------------------------
# The sides of a match (MATCH_FORMAT, ``teams``)

PLAYER_COUNT = define_message(
    "canasta.player_count", "Canasta is played by 2, 3 or 4 players, not {count}"
)
TEAMS_NEEDED = define_message(
    "canasta.teams_needed",
    "four players play Canasta in two teams: name them, like "
    '{{"Kita": ["{first}", "{third}"], "Mereka": ["{second}", "{fourth}"]}}',
)
TEAMS_ONLY_FOR_FOUR = define_message(
    "canasta.teams_only_for_four",
    "with {count} players each plays alone: teams are only for four players",
)
TWO_TEAMS = define_message(
    "canasta.two_teams", "four players make two teams of two: name exactly two teams, not {count}"
)
TEAM_NAME = define_message(
    "canasta.team_name",
    "a team's name is a non-empty text that is no player's name, not {name}",
)
TEAM_OF_TWO = define_message(
    "canasta.team_of_two", "team {team} must be two players of this match, not {members}"
)
PARTNERS_OPPOSITE = define_message(
    "canasta.partners_opposite",
    "partners sit opposite: {first} and {third} are one team, {second} and {fourth} the other",
)


def sides_of(
    players: Sequence[str], teams: Mapping[str, Sequence[str]] | None = None
) -> dict[str, tuple[str, ...]]:
    """Each side's name and players: the two teams with 4 players (partners opposite, so
    the teams alternate in ``players``), or each player alone with 2 or 3."""
    if len(players) not in PLAYERS:
        raise RuleError(PLAYER_COUNT, count=len(players))
    if len(players) < 4:
        if teams:
            raise RuleError(TEAMS_ONLY_FOR_FOUR, count=len(players))
        return {player: (player,) for player in players}
    if not teams or not isinstance(teams, Mapping):
        first, second, third, fourth = players
        raise RuleError(TEAMS_NEEDED, first=first, second=second, third=third, fourth=fourth)
    if len(teams) != 2:
        raise RuleError(TWO_TEAMS, count=len(teams))
    sides: dict[str, tuple[str, ...]] = {}
    for name, members in teams.items():
        if not isinstance(name, str) or not name.strip() or name in players:
            raise RuleError(TEAM_NAME, name=repr(name))
        if (
            isinstance(members, str)
            or not isinstance(members, Sequence)
            or len(members) != 2
            or len(set(members)) != 2
            or any(member not in players for member in members)
        ):
            raise RuleError(TEAM_OF_TWO, team=name, members=repr(members))
        sides[name] = tuple(members)
    (one, other) = sides.values()
    if set(one) & set(other):
        raise RuleError(PLAYER_TWICE, player=sorted(set(one) & set(other))[0])
    if {players[0], players[2]} not in ({*one}, {*other}):
        first, second, third, fourth = players
        raise RuleError(PARTNERS_OPPOSITE, first=first, second=second, third=third, fourth=fourth)
    return sides


def next_minimums(totals: Mapping[str, int]) -> dict[str, int]:
    """Each side's first-meld minimum for the next hand, by its total."""
    return {side: first_meld_minimum(total) for side, total in totals.items()}


# ---------------------------------------------------------------------------
# A hand from a match file's round (MATCH_FORMAT, ``canasta``)

ROUND_NOT_AN_OBJECT = define_message(
    "canasta.round_not_an_object", "a Canasta hand is an object with its melds, red 3s and hands"
)
ROUND_KEY_NOT_AN_OBJECT = define_message(
    "canasta.round_key_not_an_object",
    '"{field}" must be an object keyed by side, like {{"{side}": ...}}',
)
UNKNOWN_SIDE = define_message(
    "canasta.unknown_side", '"{field}" names {name}, which is not a side: the sides are {sides}'
)
UNKNOWN_PLAYER = define_message(
    "canasta.unknown_player",
    '"hands" names {name}, who plays in no side: the players are {players}',
)
SIDE_MELDS_MISSING = define_message(
    "canasta.side_melds_missing",
    '"melds" must give every side, and {side} is missing (write [] for a side with no meld)',
)
UNKNOWN_COUNT = define_message(
    "canasta.unknown_count",
    "{side}'s melds as counts take natural, mixed and points, not {field}",
)
OUT_AND_END = define_message(
    "canasta.out_and_end",
    "a hand ends with a player going out or with the stock run out, not both",
)
NEITHER_OUT_NOR_END = define_message(
    "file.canasta.neither_out_nor_end",
    'say how the hand ended: "out" with the player who went out, or "end": "stock"',
)
END_NOT_STOCK = define_message(
    "file.canasta.end_not_stock", '"end" of a Canasta hand is "stock", not {value}'
)
CONCEALED_NOT_A_FLAG = define_message(
    "canasta.concealed_not_a_flag", '"concealed" is true or false, not {value}'
)
COUNT_KEYS = ("natural", "mixed", "points")


def _keyed_by(facts: Mapping[str, Any], key: str, names: Sequence[str]) -> Mapping[str, Any]:
    value = facts.get(key, {})
    if not isinstance(value, Mapping):
        raise RuleError(ROUND_KEY_NOT_AN_OBJECT, field=key, side=names[0])
    for name in value:
        if name not in names:
            raise RuleError(UNKNOWN_SIDE, field=key, name=name, sides=", ".join(names))
    return value


def _side_melds(name: str, melds: object) -> MeldsInput:
    if isinstance(melds, Mapping):
        for key in melds:
            if key not in COUNT_KEYS:
                raise RuleError(UNKNOWN_COUNT, side=name, field=key)
        return MeldCounts(**{key: melds.get(key, 0) for key in COUNT_KEYS})
    if isinstance(melds, str) or not isinstance(melds, Sequence):
        raise RuleError(MELDS_NOT_A_LIST, side=name)
    return tuple(melds)


def read_hand(facts: object, sides: Mapping[str, Sequence[str]]) -> CanastaHand:
    """The hand of a final-table round (MATCH_FORMAT's ``canasta`` keys) for the sides
    named with their players (a team's name and its two players, or each player alone)."""
    if not isinstance(facts, Mapping):
        raise RuleError(ROUND_NOT_AN_OBJECT)
    names = list(sides)
    players = [player for side in sides.values() for player in side]
    melds = _keyed_by(facts, "melds", names)
    red_threes = _keyed_by(facts, "red_threes", names)
    hands = facts.get("hands", {})
    if not isinstance(hands, Mapping):
        raise RuleError(ROUND_KEY_NOT_AN_OBJECT, field="hands", side=players[0] if players else "")
    for player in hands:
        if player not in players:
            raise RuleError(UNKNOWN_PLAYER, name=player, players=", ".join(players))
    out = facts.get("out")
    end = facts.get("end")
    if out is not None and end is not None:
        raise RuleError(OUT_AND_END)
    if out is None and end is None:
        raise RuleError(NEITHER_OUT_NOR_END)
    if end is not None and end != "stock":
        raise RuleError(END_NOT_STOCK, value=repr(end))
    if out is not None and out not in players:
        raise RuleError(OUT_NOT_A_PLAYER, player=str(out))
    concealed = facts.get("concealed", False)
    if not isinstance(concealed, bool):
        raise RuleError(CONCEALED_NOT_A_FLAG, value=repr(concealed))
    read: list[Side] = []
    for name, members in sides.items():
        if name not in melds:
            raise RuleError(SIDE_MELDS_MISSING, side=name)
        read.append(
            Side(
                name=name,
                players=tuple(members),
                melds=_side_melds(name, melds[name]),
                red_threes=red_threes.get(name, 0),
                hands={player: hands[player] for player in members if player in hands},
            )
        )
    return CanastaHand(tuple(read), out=out, concealed=concealed)


# ---------------------------------------------------------------------------
# The match


def winners(
    totals_after_each_hand: Sequence[Mapping[str, int]], options: CanastaOptions
) -> tuple[str, ...]:
    """The side that won the match, or ``()`` while it goes on.

    The match ends after a hand in which a side has reached the target, with the highest
    total alone; a tie at the top plays one more hand, and once the target has been
    reached the match ends as soon as one total is highest alone (RULES.md, Decision)."""
    if not totals_after_each_hand:
        return ()
    reached = any(
        totals and max(totals.values()) >= options.target for totals in totals_after_each_hand
    )
    last = totals_after_each_hand[-1]
    if not reached or not last:
        return ()
    top = max(last.values())
    leaders = tuple(name for name, total in last.items() if total == top)
    return leaders if len(leaders) == 1 else ()


def running_totals(scores_by_hand: Sequence[Mapping[str, int]]) -> list[dict[str, int]]:
    """Each side's total after every hand, from its score in each hand."""
    totals: dict[str, int] = {}
    history: list[dict[str, int]] = []
    for scores in scores_by_hand:
        for name, score in scores.items():
            totals[name] = totals.get(name, 0) + score
        history.append(dict(totals))
    return history
