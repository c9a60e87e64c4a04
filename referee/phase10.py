"""Phase 10 (``phase10``): the phases, their validator, hits, skips, a hand's final table and
the match's phase tracker.

* :data:`PHASES` -- the ten phases as parts (a set of 3, a run of 4, a colour group of 7).
* :func:`check_meld` and :func:`verify_phase` -- a meld's kind, and a player's phase laid:
  exactly that player's phase, each meld paired with one of its parts, with the reason in
  words when it is not.
* :class:`HandPlay` -- one hand turn by turn: the phase once, hits only after it, Skips
  never taken from the pile nor melded, who may be skipped.
* :func:`score_hand` -- a hand entered as its final table (``out``, ``made``, optional
  ``phases`` as laid, ``hands``): the checks RULES.md names and the penalties.
* :class:`Phase10State` -- the match: each player's completed phases (only those who made
  their phase move on), the totals, the end at the last phase with its tie-break and
  replay, ``format: hands``, the dealer, a late player.

The deck is :mod:`referee.phase10_deck`.

>>> verify_phase(1, melds_of(PHASE10_DECK, ['R7 B7 W', 'G2 G2 Y2'])).phase
1
>>> [part.text for part in PHASES[2]]
['set of 3', 'run of 4']
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from referee.errors import RuleError
from referee.messages import Reason, define_message
from referee.phase10_deck import DECKS, PHASE10_DECK, CardsIn, Piece, PieceSet, describe, penalty
from referee.rulesets.options import Option, OptionType, option, preset

HAND_SIZE = 10
MOST_PLAYERS = 6
ALL = "all"
EVEN = "even"
FIXED = "fixed"
ANY = "any"
BY_PHASES = "phases"
BY_HANDS = "hands"


# ---------------------------------------------------------------------------------------
# Messages


SET = define_message("phase10.kind.set", "set")
RUN = define_message("phase10.kind.run", "run")
COLOUR_GROUP = define_message("phase10.kind.colour_group", "colour group")
PART = define_message("phase10.part", "{kind} of {size}")
PARTS = define_message("phase10.parts", "{first} + {second}")
COLOUR_NAMES = {
    "R": define_message("phase10.colour.R", "red"),
    "B": define_message("phase10.colour.B", "blue"),
    "G": define_message("phase10.colour.G", "green"),
    "Y": define_message("phase10.colour.Y", "yellow"),
    "S": define_message("phase10.colour.S", "spades"),
    "H": define_message("phase10.colour.H", "hearts"),
    "D": define_message("phase10.colour.D", "diamonds"),
    "C": define_message("phase10.colour.C", "clubs"),
}

SKIP_IN_MELD = define_message("phase10.skip_in_meld", "{cards}: a Skip is never in a meld")
ONLY_WILDS = define_message(
    "phase10.only_wilds", "{cards}: a meld holds at least one card that is not a Wild"
)
SET_MIXED = define_message(
    "phase10.set_mixed", "{cards}: a set is of one number, and {card} is not a {number}"
)
SET_WILD_NAMED = define_message(
    "phase10.set_wild_named", "{cards}: {card} names a {named}, but the set is of {number}s"
)
RUN_WILD_UNNAMED = define_message(
    "phase10.run_wild_unnamed",
    "{cards}: a Wild in a run says the number it stands for, like W=5",
)
RUN_TWICE = define_message(
    "phase10.run_twice", "{cards}: a run holds each number once, and {number} is there twice"
)
RUN_GAP = define_message("phase10.run_gap", "{cards}: {number} is missing in the run")
COLOUR_MIXED = define_message(
    "phase10.colour_mixed", "{cards}: a colour group is of one colour, and {card} is not {colour}"
)
COLOUR_WILD_NAMED = define_message(
    "phase10.colour_wild_named", "{cards}: a Wild in a colour group is written alone"
)
TOO_SMALL = define_message(
    "phase10.too_small", "{cards}: a {part} needs at least {size} cards, not {count}"
)
WRONG_MELD_COUNT = define_message(
    "phase10.wrong_meld_count", "phase {phase} is {parts}: {count} melds were laid, not {needed}"
)
NO_PAIRING = define_message("phase10.no_pairing", "phase {phase} is {parts}: {why}")
NOT_CURRENT = define_message(
    "phase10.not_current", "{player} is on phase {current}, not phase {phase}"
)
ALREADY_COMPLETED = define_message(
    "phase10.already_completed", "{player} has already completed phase {phase}"
)
NOT_IN_LIST = define_message(
    "phase10.not_in_list", "phase {phase} is not played in this match (phases {phases})"
)
NOT_THE_HANDS_PHASE = define_message(
    "phase10.not_the_hands_phase",
    "hand {hand} plays phase {current}: {player} cannot make phase {phase}",
)
NO_SUCH_PHASE = define_message(
    "phase10.no_such_phase", "there is no phase {phase}: phases are 1 to 10"
)
PHASE_TWICE = define_message(
    "phase10.phase_twice", "{player} has already laid down a phase in this hand"
)
HIT_BEFORE_PHASE = define_message(
    "phase10.hit_before_phase", "{player} cannot hit before laying down their own phase"
)
HIT_SKIP = define_message("phase10.hit_skip", "a Skip is never played on a meld")
HIT_SET = define_message("phase10.hit_set", "{card} does not fit the set of {number}s")
HIT_RUN = define_message(
    "phase10.hit_run", "{card} does not fit the run {cards}: it takes only {takes}"
)
HIT_RUN_FULL = define_message(
    "phase10.hit_run_full", "{card} does not fit the run {cards}: it runs from 1 to 12"
)
HIT_RUN_WILD_UNNAMED = define_message(
    "phase10.hit_run_wild_unnamed",
    "a Wild hit on the run {cards} says the number it adds: {takes}",
)
HIT_COLOUR = define_message("phase10.hit_colour", "{card} is not {colour}, the colour of {cards}")
NO_SUCH_MELD = define_message(
    "phase10.no_such_meld", "there is no meld {number} on the table: there are {count}"
)
OR = define_message("phase10.or", "{first} or {second}")
SKIP_FROM_PILE = define_message(
    "phase10.skip_from_pile", "a Skip is never taken from the discard pile"
)
SKIP_WHOM = define_message(
    "phase10.skip_whom", "{target} is not another player in this hand: name who loses a turn"
)
SKIP_NAMES_NOBODY = define_message(
    "phase10.skip_names_nobody",
    "a Skip discarded names the player who loses a turn (only a last card names nobody)",
)
SKIP_LAST_CARD = define_message(
    "phase10.skip_last_card",
    "a Skip discarded as the last card ends the hand and skips nobody, not {target}",
)
SKIP_WITHOUT_SKIP = define_message(
    "phase10.skip_without_skip", "only a turn that discards a Skip names a player to skip"
)
NO_OUT = define_message(
    "file.phase10.no_out", 'a hand ends when a player goes out: no turn says "out": true'
)
AFTER_OUT = define_message(
    "phase10.after_out", "the hand ended when {player} went out: no turn comes after"
)
LIVE_HAND_SIZE = define_message(
    "phase10.live_hand_size",
    "{player} holds {expected} cards after the turns recorded, not {count}",
)
SKIP_PENDING = define_message(
    "phase10.skip_pending",
    "{target} already has a lost turn to come: name another player",
)
SKIP_NOT_IN_HAND = define_message("phase10.skip_not_in_hand", "{player} holds no Skip to play")
NOT_IN_HAND = define_message("phase10.not_in_hand", "{player} does not hold {cards}")
UNKNOWN_PLAYER = define_message("phase10.unknown_player", "{name} does not play in this hand")
MISSING_HAND = define_message(
    "phase10.missing_hand",
    "the cards of {name} are missing: every player but the one who went out gives theirs",
)
OUT_NOT_MADE = define_message(
    "phase10.out_not_made", "{player} went out, so {player} made a phase: say which in made"
)
PHASES_NOT_MADE = define_message(
    "phase10.phases_not_made",
    "{player}'s phase is given as laid, but {player} is not among those who made one",
)
NOT_MADE_HOLDS_TEN = define_message(
    "phase10.not_made_holds_ten", "{player} made no phase and holds 10 cards, not {count}"
)
MADE_HOLDS = define_message(
    "phase10.made_holds",
    "{player} made phase {phase} and holds from 1 to {most} cards, not {count}",
)
OUT_HOLDS_CARDS = define_message(
    "phase10.out_holds_cards", "{player} went out, so their hand is empty, not {cards}"
)
BAD_PENALTY = define_message(
    "phase10.bad_penalty",
    "{player}'s penalty is a multiple of 5 from 5 (a hand left holds a card), not {points}",
)
OUT_PENALTY = define_message("phase10.out_penalty", "{player} went out and scores 0, not {points}")
MATCH_OVER = define_message("phase10.match_over", "the match is over: nothing more is played")
REPLAY_PLAYERS = define_message(
    "phase10.replay_players",
    "this hand replays the last phase between {players} only, not {named}",
)
REPLAY_PHASE = define_message(
    "phase10.replay_phase", "in the replay {player} can only make phase {phase}, not {made}"
)
PLAYERS_RANGE = define_message(
    "phase10.players", "Phase 10 is played by 2 to 6 players, not {count}"
)
BAD_OPTION = define_message("phase10.bad_option", "{option} is {choices}, not {value}")
ANY_WITH_HANDS = define_message(
    "phase10.any_with_hands",
    "order: any cannot be played with format: hands (everyone plays the hand's phase)",
)
ALREADY_SEATED = define_message("phase10.already_seated", "{name} already plays in this match")


# ---------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class Phase10Options:
    """The house rules of Phase 10 (RULES.md ``phase10``)."""

    deck: str = "phase10"
    phases: str = ALL
    order: str = FIXED
    format: str = BY_PHASES

    def __post_init__(self) -> None:
        for name, value, choices in (
            ("deck", self.deck, tuple(DECKS)),
            ("phases", self.phases, (ALL, EVEN)),
            ("order", self.order, (FIXED, ANY)),
            ("format", self.format, (BY_PHASES, BY_HANDS)),
        ):
            if value not in choices:
                raise RuleError(
                    BAD_OPTION, option=name, choices=" / ".join(choices), value=str(value)
                )
        if self.order == ANY and self.format == BY_HANDS:
            raise RuleError(ANY_WITH_HANDS)

    @property
    def pieces(self) -> PieceSet:
        return DECKS[self.deck]

    @property
    def phase_list(self) -> tuple[int, ...]:
        return tuple(range(1, 11)) if self.phases == ALL else (2, 4, 6, 8, 10)


RULES_ID = "phase10"

OPTION_TABLE: tuple[Option, ...] = (
    option(
        RULES_ID,
        "deck",
        OptionType.CHOICE,
        "phase10",
        choices=("phase10", "standard"),
        label="Deck",
        explanation="standard: two 52-card decks and 4 jokers, kings Wild, jokers Skip.",
        summary="Played with two standard decks: kings Wild, jokers Skip",
        usual=True,
    ),
    option(
        RULES_ID,
        "phases",
        OptionType.CHOICE,
        ALL,
        choices=(ALL, EVEN),
        label="Phases",
        explanation="even: only phases 2, 4, 6, 8 and 10.",
        summary="Only the even phases: 2, 4, 6, 8, 10",
    ),
    option(
        RULES_ID,
        "order",
        OptionType.CHOICE,
        FIXED,
        choices=(FIXED, ANY),
        excludes={"format": BY_HANDS},
        label="Order of the phases",
        explanation="any: each hand a player may make any phase of the list not yet completed.",
        summary="The phases in any order",
    ),
    option(
        RULES_ID,
        "format",
        OptionType.CHOICE,
        BY_PHASES,
        choices=(BY_PHASES, BY_HANDS),
        label="Format",
        explanation=(
            "hands: one hand per phase of the list, everyone trying phase n in hand n; "
            "the lowest total after the last hand wins."
        ),
        summary="One hand per phase, lowest total wins",
    ),
)

PRESETS = (
    preset(RULES_ID, "standard-decks", "Two standard decks", {"deck": "standard"}),
    preset(RULES_ID, "even-phases", "Even phases only", {"phases": EVEN}),
    preset(RULES_ID, "any-order", "Phases in any order", {"order": ANY}),
    preset(RULES_ID, "one-hand-per-phase", "One hand per phase", {"format": BY_HANDS}),
)


# ---------------------------------------------------------------------------------------
# Phases and melds


class MeldKind(enum.Enum):
    SET = SET
    RUN = RUN
    COLOUR_GROUP = COLOUR_GROUP

    @property
    def name_reason(self) -> Reason:
        return Reason.of(self.value)


@dataclass(frozen=True)
class Part:
    """One part of a phase: a meld of ``kind`` with at least ``size`` cards."""

    kind: MeldKind
    size: int

    @property
    def reason(self) -> Reason:
        return Reason.of(PART, kind=self.kind.name_reason, size=self.size)

    @property
    def text(self) -> str:
        return self.reason.text


def _parts(*parts: tuple[MeldKind, int]) -> tuple[Part, ...]:
    return tuple(Part(kind, size) for kind, size in parts)


_S, _R, _C = MeldKind.SET, MeldKind.RUN, MeldKind.COLOUR_GROUP
PHASES: Mapping[int, tuple[Part, ...]] = MappingProxyType(
    {
        1: _parts((_S, 3), (_S, 3)),
        2: _parts((_S, 3), (_R, 4)),
        3: _parts((_S, 4), (_R, 4)),
        4: _parts((_R, 7)),
        5: _parts((_R, 8)),
        6: _parts((_R, 9)),
        7: _parts((_S, 4), (_S, 4)),
        8: _parts((_C, 7)),
        9: _parts((_S, 5), (_S, 2)),
        10: _parts((_S, 5), (_S, 3)),
    }
)
LEAST_CARDS = MappingProxyType(
    {phase: sum(p.size for p in parts) for phase, parts in PHASES.items()}
)
"""The fewest cards a phase takes from the hand: 6, 7, 8, 7, 8, 9, 8, 7, 7, 8."""


def phase_reason(phase: int) -> Reason:
    """The phase in words ("set of 3 + run of 4")."""
    parts = PHASES[phase]
    if len(parts) == 1:
        return parts[0].reason
    return Reason.of(PARTS, first=parts[0].reason, second=parts[1].reason)


@dataclass(frozen=True)
class Meld:
    """A meld on the table: its ``kind`` and its cards (a run's Wilds named)."""

    kind: MeldKind
    pieces: tuple[Piece, ...]
    owner: str = ""

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(sorted(p.number for p in self.pieces if p.number is not None))

    @property
    def number(self) -> int | None:
        """A set's number."""
        return next((p.number for p in self.pieces if not p.is_wild), None)

    @property
    def colour(self) -> str | None:
        return next((p.colour for p in self.pieces if p.colour is not None), None)

    def __str__(self) -> str:
        return describe(self.pieces)


def _why_not(pieces: tuple[Piece, ...], kind: MeldKind) -> Reason | None:
    """Why ``pieces`` are no meld of ``kind`` (any size), or ``None`` when they are."""
    cards = describe(pieces)
    skip = next((p for p in pieces if p.is_skip), None)
    if skip is not None:
        return Reason.of(SKIP_IN_MELD, cards=cards)
    naturals = [p for p in pieces if not p.is_wild]
    if not naturals:
        return Reason.of(ONLY_WILDS, cards=cards)
    if kind is MeldKind.SET:
        number = naturals[0].number
        for piece in naturals:
            if piece.number != number:
                return Reason.of(SET_MIXED, cards=cards, card=str(piece), number=str(number))
        for piece in pieces:
            if piece.is_wild and piece.number is not None and piece.number != number:
                return Reason.of(
                    SET_WILD_NAMED,
                    cards=cards,
                    card=str(piece),
                    named=piece.number,
                    number=str(number),
                )
        return None
    if kind is MeldKind.COLOUR_GROUP:
        colour = naturals[0].colour
        assert colour is not None
        for piece in naturals:
            if piece.colour != colour:
                return Reason.of(
                    COLOUR_MIXED,
                    cards=cards,
                    card=str(piece),
                    colour=Reason.of(COLOUR_NAMES[colour]),
                )
        if any(p.is_wild and p.number is not None for p in pieces):
            return Reason.of(COLOUR_WILD_NAMED, cards=cards)
        return None
    if any(p.is_wild and p.number is None for p in pieces):
        return Reason.of(RUN_WILD_UNNAMED, cards=cards)
    numbers = sorted(p.number for p in pieces if p.number is not None)
    for low, high in itertools.pairwise(numbers):
        if low == high:
            return Reason.of(RUN_TWICE, cards=cards, number=low)
        if high > low + 1:
            return Reason.of(RUN_GAP, cards=cards, number=low + 1)
    return None


def check_meld(pieces: Sequence[Piece], kind: MeldKind) -> Reason | None:
    """Why ``pieces`` are no meld of ``kind``, or ``None`` when they are one (size apart).

    >>> check_meld(PHASE10_DECK.parse_many('R3 B3 SK'), MeldKind.SET).text
    'R3 B3 SK: a Skip is never in a meld'
    >>> check_meld(PHASE10_DECK.parse_many('R3 W=4 B6'), MeldKind.RUN).text
    'R3 W=4 B6: 5 is missing in the run'
    """
    return _why_not(tuple(pieces), kind)


def _against_part(pieces: tuple[Piece, ...], part: Part) -> Reason | None:
    why = _why_not(pieces, part.kind)
    if why is not None:
        return why
    if len(pieces) < part.size:
        return Reason.of(
            TOO_SMALL,
            cards=describe(pieces),
            part=part.kind.name_reason,
            size=part.size,
            count=len(pieces),
        )
    return None


@dataclass(frozen=True)
class PhaseLaid:
    """A phase laid and accepted: which, and its melds paired with its parts, in order."""

    phase: int
    melds: tuple[Meld, ...]

    @property
    def cards(self) -> int:
        return sum(len(meld.pieces) for meld in self.melds)


def verify_phase(phase: int, melds: Sequence[Sequence[Piece]]) -> PhaseLaid:
    """The melds laid as phase ``phase``, or :class:`RuleError` saying why they are not it:
    exactly as many melds as parts, each of its part's kind and at least its size, under
    some pairing of melds to parts.
    """
    if phase not in PHASES:
        raise RuleError(NO_SUCH_PHASE, phase=str(phase))
    parts = PHASES[phase]
    laid = [tuple(meld) for meld in melds]
    if len(laid) != len(parts):
        raise RuleError(
            WRONG_MELD_COUNT,
            phase=phase,
            parts=phase_reason(phase),
            count=len(laid),
            needed=len(parts),
        )
    best: list[Reason] | None = None
    for order in itertools.permutations(range(len(parts))):
        reasons = [
            why
            for meld, index in zip(laid, order, strict=True)
            if (why := _against_part(meld, parts[index])) is not None
        ]
        if not reasons:
            paired = sorted(zip(order, laid, strict=True))
            return PhaseLaid(phase, tuple(Meld(parts[index].kind, meld) for index, meld in paired))
        if best is None or len(reasons) < len(best):
            best = reasons
    assert best is not None
    raise RuleError(NO_PAIRING, phase=phase, parts=phase_reason(phase), why=best)


# ---------------------------------------------------------------------------------------
# Hits


def hit(meld: Meld, piece: Piece) -> Meld:
    """``meld`` with ``piece`` added, or :class:`RuleError` saying why it does not fit: a
    set takes its number, a run the number just below or above it (within 1-12), a colour
    group its colour; a Wild fits any (on a run it names the number it adds)."""
    cards = str(meld)
    if piece.is_skip:
        raise RuleError(HIT_SKIP)
    if meld.kind is MeldKind.SET:
        if piece.is_wild and piece.number in (None, meld.number):
            return replace(meld, pieces=(*meld.pieces, piece.in_hand))
        if piece.number != meld.number:
            raise RuleError(HIT_SET, card=str(piece), number=str(meld.number))
        return replace(meld, pieces=(*meld.pieces, piece))
    if meld.kind is MeldKind.COLOUR_GROUP:
        colour = meld.colour
        assert colour is not None
        if not piece.is_wild and piece.colour != colour:
            raise RuleError(
                HIT_COLOUR, card=str(piece), colour=Reason.of(COLOUR_NAMES[colour]), cards=cards
            )
        if piece.is_wild and piece.number is not None:
            raise RuleError(COLOUR_WILD_NAMED, cards=f"{cards} {piece}")
        return replace(meld, pieces=(*meld.pieces, piece))
    numbers = meld.numbers
    takes = [n for n in (numbers[0] - 1, numbers[-1] + 1) if 1 <= n <= 12]
    if not takes:
        raise RuleError(HIT_RUN_FULL, card=str(piece), cards=cards)
    said = _alternatives([str(n) for n in takes])
    if piece.is_wild and piece.number is None:
        raise RuleError(HIT_RUN_WILD_UNNAMED, cards=cards, takes=said)
    if piece.number not in takes:
        raise RuleError(HIT_RUN, card=str(piece), cards=cards, takes=said)
    return replace(meld, pieces=(*meld.pieces, piece))


def _alternatives(items: Sequence[str]) -> str | Reason:
    if len(items) == 1:
        return items[0]
    return Reason.of(OR, first=items[0], second=items[1])


# ---------------------------------------------------------------------------------------
# A hand, turn by turn


@dataclass
class HandPlay:
    """One hand as it is played: ``phases`` says, per player in the hand, which phases they
    may make (one, or the ones not yet completed with ``order: any``); ``hands`` holds each
    player's cards when they are known (then every card played must be in it).

    >>> play = HandPlay({'Budi': (1,), 'Siti': (1,)})
    >>> play.hit('Siti', PHASE10_DECK.parse('R7'), 1)
    Traceback (most recent call last):
    ...
    referee.errors.RuleError: Siti cannot hit before laying down their own phase
    """

    phases: Mapping[str, tuple[int, ...]]
    hands: dict[str, list[Piece]] = field(default_factory=dict)
    table: list[Meld] = field(default_factory=list)
    made: dict[str, int] = field(default_factory=dict)
    skipped: set[str] = field(default_factory=set)

    def _take(self, player: str, pieces: Sequence[Piece]) -> None:
        if player not in self.phases:
            raise RuleError(UNKNOWN_PLAYER, name=player)
        if player not in self.hands:
            return
        hand = list(self.hands[player])
        for piece in pieces:
            physical = piece.in_hand
            if physical not in hand:
                raise RuleError(NOT_IN_HAND, player=player, cards=str(physical))
            hand.remove(physical)
        self.hands[player] = hand

    def lay_phase(
        self, player: str, melds: Sequence[Sequence[Piece]], phase: int | None = None
    ) -> PhaseLaid:
        """``player`` lays their phase (``phase`` says which with ``order: any``)."""
        if player not in self.phases:
            raise RuleError(UNKNOWN_PLAYER, name=player)
        if player in self.made:
            raise RuleError(PHASE_TWICE, player=player)
        allowed = self.phases[player]
        chosen = allowed[0] if phase is None else phase
        if chosen not in allowed:
            raise RuleError(NOT_CURRENT, player=player, current=allowed[0], phase=chosen)
        laid = verify_phase(chosen, melds)
        self._take(player, [p for meld in laid.melds for p in meld.pieces])
        self.made[player] = chosen
        self.table.extend(replace(meld, owner=player) for meld in laid.melds)
        return laid

    def hit(self, player: str, piece: Piece, onto: int) -> Meld:
        """``player`` adds ``piece`` to meld number ``onto`` (1-based, in the order laid)."""
        if player not in self.phases:
            raise RuleError(UNKNOWN_PLAYER, name=player)
        if player not in self.made:
            raise RuleError(HIT_BEFORE_PHASE, player=player)
        if not 1 <= onto <= len(self.table):
            raise RuleError(NO_SUCH_MELD, number=onto, count=len(self.table))
        grown = hit(self.table[onto - 1], piece)
        self._take(player, [piece])
        self.table[onto - 1] = grown
        return grown

    @staticmethod
    def take_from_discard(piece: Piece) -> None:
        if piece.is_skip:
            raise RuleError(SKIP_FROM_PILE)

    def skip(self, player: str, target: str | None, *, last_card: bool | None = None) -> None:
        """``player`` discards a Skip naming ``target``; as the last card (``last_card``, or
        an emptied hand when the hand is known) it names nobody."""
        if player not in self.phases:
            raise RuleError(UNKNOWN_PLAYER, name=player)
        skip = next((p for p in self.hands.get(player, ()) if p.is_skip), None)
        if player in self.hands and skip is None:
            raise RuleError(SKIP_NOT_IN_HAND, player=player)
        if skip is not None:
            self._take(player, [skip])
        if last_card is None:
            last_card = player in self.hands and not self.hands[player]
        if last_card:
            if target is not None:
                raise RuleError(SKIP_LAST_CARD, target=target)
            return
        if target is None:
            raise RuleError(SKIP_NAMES_NOBODY)
        if target == player or target not in self.phases:
            raise RuleError(SKIP_WHOM, target=target)
        if target in self.skipped:
            raise RuleError(SKIP_PENDING, target=target)
        self.skipped.add(target)

    def play_passes(self, seats: Sequence[str], last: str, player: str) -> None:
        """Play went from ``last``'s turn to ``player``'s (the turns between, with nothing
        put down, left out): every seat passed on the way has lost its pending turn."""
        at = seats.index(last)
        for step in range(1, len(seats) + 1):
            passed = seats[(at + step) % len(seats)]
            self.skipped.discard(passed)
            if passed == player:
                return

    def first_upcard(self, piece: Piece, first_player: str) -> None:
        """A Skip turned up to start the discard pile: the first player's first turn is lost."""
        if first_player not in self.phases:
            raise RuleError(UNKNOWN_PLAYER, name=first_player)
        if piece.is_skip:
            self.skipped.add(first_player)

    def turn_lost(self, player: str) -> bool:
        """Whether ``player``'s turn now is lost to a Skip (and use it up)."""
        if player in self.skipped:
            self.skipped.discard(player)
            return True
        return False


# ---------------------------------------------------------------------------------------
# The match


@dataclass(frozen=True)
class HandResult:
    """A hand as it ended: who made which phase, the penalties, who went out (``None`` for
    a void hand)."""

    made: Mapping[str, int]
    scores: Mapping[str, int]
    out: str | None

    @property
    def void(self) -> bool:
        return self.out is None

    def facts(self) -> dict[str, object]:
        """What the match file's replay adds to the round: ``made``, as entered."""
        return {} if self.void else {"made": dict(self.made)}

    @classmethod
    def voided(cls) -> HandResult:
        return cls({}, {}, None)


@dataclass(frozen=True)
class Phase10State:
    """The match after its hands: each player's completed phases in the order made, the
    totals, the hands played, the dealer; ``replay`` names the tied players who replay
    the last phase; ``winners`` once the match is over."""

    options: Phase10Options
    seating: tuple[str, ...]
    done: Mapping[str, tuple[int, ...]]
    totals: Mapping[str, int]
    dealer: str
    hands_played: int = 0
    replay: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()

    @classmethod
    def start(
        cls, seating: Sequence[str], first_dealer: str, options: Phase10Options | None = None
    ) -> Phase10State:
        if not 2 <= len(seating) <= MOST_PLAYERS:
            raise RuleError(PLAYERS_RANGE, count=len(seating))
        if first_dealer not in seating:
            raise RuleError(UNKNOWN_PLAYER, name=first_dealer)
        return cls(
            options or Phase10Options(),
            tuple(seating),
            MappingProxyType({name: () for name in seating}),
            MappingProxyType(dict.fromkeys(seating, 0)),
            first_dealer,
        )

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def facts(self) -> dict[str, object]:
        """What the match file's replay adds: each player's completed phases in the order
        made (``{"Budi": [1, 2, 3], "Siti": [1]}``)."""
        return {"phases_done": {name: list(self.done[name]) for name in self.seating}}

    @property
    def in_hand(self) -> tuple[str, ...]:
        """Who is dealt the next hand: everyone, or the tied players in a replay."""
        return self.replay or self.seating

    def allowed_phases(self, player: str) -> tuple[int, ...]:
        """The phases ``player`` may make in the next hand (the first is theirs with
        ``order: fixed``)."""
        if player not in self.in_hand:
            raise RuleError(UNKNOWN_PLAYER, name=player)
        listed = self.options.phase_list
        if self.replay:
            return (listed[-1],)
        if self.options.format == BY_HANDS:
            return (listed[min(self.hands_played, len(listed) - 1)],)
        left = tuple(phase for phase in listed if phase not in self.done[player])
        if self.options.order == FIXED:
            return left[:1]
        return left

    def current_phase(self, player: str) -> int:
        return self.allowed_phases(player)[0]

    def hand_play(self) -> HandPlay:
        """A :class:`HandPlay` for the next hand."""
        return HandPlay({name: self.allowed_phases(name) for name in self.in_hand})

    def check_made(self, player: str, phase: int) -> None:
        """Refuse a phase ``player`` cannot make in the next hand, saying why."""
        if phase not in PHASES:
            raise RuleError(NO_SUCH_PHASE, phase=str(phase))
        allowed = self.allowed_phases(player)
        if phase in allowed:
            return
        listed = self.options.phase_list
        if self.replay:
            raise RuleError(REPLAY_PHASE, player=player, phase=listed[-1], made=phase)
        if phase not in listed:
            raise RuleError(NOT_IN_LIST, phase=phase, phases=", ".join(str(p) for p in listed))
        if self.options.format == BY_HANDS:
            raise RuleError(
                NOT_THE_HANDS_PHASE,
                hand=self.hands_played + 1,
                current=allowed[0],
                player=player,
                phase=phase,
            )
        if phase in self.done[player]:
            raise RuleError(ALREADY_COMPLETED, player=player, phase=phase)
        raise RuleError(NOT_CURRENT, player=player, current=allowed[0], phase=phase)

    def _completed_all(self, player: str) -> bool:
        listed = self.options.phase_list
        if self.options.order == ANY:
            return set(listed) <= set(self.done[player])
        return listed[-1] in self.done[player]

    def _next_dealer(self, among: Sequence[str]) -> str:
        at = self.seating.index(self.dealer)
        for step in range(1, len(self.seating) + 1):
            name = self.seating[(at + step) % len(self.seating)]
            if name in among:
                return name
        return self.dealer

    def after(self, result: HandResult) -> Phase10State:
        """The match after one more hand (checked: the players in it, the phases made)."""
        if self.over:
            raise RuleError(MATCH_OVER)
        if result.void:
            return self
        named = set(result.scores) | set(result.made) | {result.out}
        if self.replay and not named <= set(self.replay):
            raise RuleError(
                REPLAY_PLAYERS,
                players=", ".join(self.replay),
                named=", ".join(sorted(n for n in named if n is not None)),
            )
        for name in named:
            if name not in self.in_hand:
                raise RuleError(UNKNOWN_PLAYER, name=str(name))
        for name, phase in result.made.items():
            self.check_made(name, phase)
        totals = dict(self.totals)
        for name, points in result.scores.items():
            totals[name] += points
        if self.replay:
            return replace(
                self,
                totals=MappingProxyType(totals),
                hands_played=self.hands_played + 1,
                dealer=self._next_dealer(self.replay),
                winners=(str(result.out),),
            )
        done = {name: self.done[name] for name in self.seating}
        for name, phase in result.made.items():
            done[name] = (*done[name], phase)
        state = replace(
            self,
            done=MappingProxyType(done),
            totals=MappingProxyType(totals),
            hands_played=self.hands_played + 1,
        )
        return state._ended(result)

    def _ended(self, result: HandResult) -> Phase10State:
        if self.options.format == BY_HANDS:
            if self.hands_played < len(self.options.phase_list):
                return replace(self, dealer=self._next_dealer(self.seating))
            lowest = min(self.totals.values())
            winners = tuple(n for n in self.seating if self.totals[n] == lowest)
            return replace(self, winners=winners, dealer=self._next_dealer(self.seating))
        finished = [name for name in self.seating if self._completed_all(name)]
        if not finished:
            return replace(self, dealer=self._next_dealer(self.seating))
        lowest = min(self.totals[name] for name in finished)
        tied = tuple(name for name in finished if self.totals[name] == lowest)
        if len(tied) == 1:
            return replace(self, winners=tied, dealer=self._next_dealer(self.seating))
        return replace(self, replay=tied, dealer=self._next_dealer(tied))

    def with_player(self, name: str) -> Phase10State:
        """A player joining between hands: at the first phase of the list, with the highest
        total seated (lowest is best)."""
        if name in self.seating:
            raise RuleError(ALREADY_SEATED, name=name)
        if len(self.seating) >= MOST_PLAYERS:
            raise RuleError(PLAYERS_RANGE, count=len(self.seating) + 1)
        highest = max(self.totals.values())
        return replace(
            self,
            seating=(*self.seating, name),
            done=MappingProxyType({**self.done, name: ()}),
            totals=MappingProxyType({**self.totals, name: highest}),
        )


# ---------------------------------------------------------------------------------------
# A hand's final table


def score_hand(
    state: Phase10State,
    out: str,
    made: Mapping[str, int],
    hands: Mapping[str, CardsIn | int],
    phases: Mapping[str, Sequence[CardsIn]] | None = None,
) -> HandResult:
    """A hand entered as its final table, checked against the match ``state``: ``made``
    (who laid down which phase; the player who went out among them), optional ``phases``
    (each as laid, before any hit), ``hands`` (every other player's cards, or their
    penalty points).  Gives the :class:`HandResult` with the penalties."""
    deck = state.options.pieces
    players = state.in_hand
    for name in (out, *made, *hands, *(phases or {})):
        if name not in players:
            raise RuleError(UNKNOWN_PLAYER, name=name)
    if out not in made:
        raise RuleError(OUT_NOT_MADE, player=out)
    for name, phase in made.items():
        state.check_made(name, phase)
    laid: dict[str, PhaseLaid] = {}
    for name, melds in (phases or {}).items():
        if name not in made:
            raise RuleError(PHASES_NOT_MADE, player=name)
        laid[name] = verify_phase(made[name], [deck.parse_many(meld) for meld in melds])
    seen: list[Piece] = [p for phase in laid.values() for m in phase.melds for p in m.pieces]
    scores: dict[str, int] = {}
    for name in players:
        given = hands.get(name)
        points = given if isinstance(given, int) and not isinstance(given, bool) else None
        if name == out:
            if points is not None and points != 0:
                raise RuleError(OUT_PENALTY, player=name, points=points)
            if points is None and given is not None:
                if cards := deck.parse_many(given):  # type: ignore[arg-type]
                    raise RuleError(OUT_HOLDS_CARDS, player=name, cards=describe(cards))
            scores[name] = 0
            continue
        if given is None:
            raise RuleError(MISSING_HAND, name=name)
        if points is not None:
            if points < 5 or points % 5:
                raise RuleError(BAD_PENALTY, player=name, points=points)
            scores[name] = points
            continue
        cards = deck.parse_many(given)  # type: ignore[arg-type]
        _check_hand_size(name, len(cards), made.get(name), laid.get(name))
        seen.extend(cards)
        scores[name] = sum(penalty(piece) for piece in cards)
    deck.check_copies(seen)
    return HandResult(MappingProxyType(dict(made)), MappingProxyType(scores), out)


def _check_hand_size(player: str, count: int, phase: int | None, laid: PhaseLaid | None) -> None:
    if phase is None:
        if count != HAND_SIZE:
            raise RuleError(NOT_MADE_HOLDS_TEN, player=player, count=count)
        return
    most = HAND_SIZE - (laid.cards if laid is not None else LEAST_CARDS[phase])
    if not 1 <= count <= most:
        raise RuleError(MADE_HOLDS, player=player, phase=phase, most=most, count=count)


def play_turns(
    state: Phase10State, turns: Sequence[Mapping[str, Any]], hands: Mapping[str, CardsIn]
) -> HandResult:
    """A hand entered turn by turn (the match file's ``turns``, then the ``hands`` left),
    checked against the match ``state``: each phase laid in one turn and exactly that
    player's, hits only after it, Skips never taken from the pile, who is skipped, and
    every hand left holding 10 cards less what its player put down.  A refusal says which
    turn (1-based) it is in."""
    deck = state.options.pieces
    play = state.hand_play()
    seats = state.in_hand
    put_down = dict.fromkeys(seats, 0)
    last: str | None = None
    out: str | None = None
    for number, turn in enumerate(turns, start=1):
        try:
            player = str(turn.get("player"))
            if player not in seats:
                raise RuleError(UNKNOWN_PLAYER, name=player)
            if out is not None:
                raise RuleError(AFTER_OUT, player=out)
            if last is not None:
                play.play_passes(seats, last, player)
            last = player
            took = turn.get("took_discard", ())
            for piece in deck.parse_many([took] if isinstance(took, str) else took):
                HandPlay.take_from_discard(piece)
            if "melds" in turn:
                laid = play.lay_phase(
                    player, [deck.parse_many(meld) for meld in turn["melds"]], turn.get("phase")
                )
                put_down[player] += laid.cards
            for layoff in turn.get("layoffs", ()):
                for piece in deck.parse_many(layoff["cards"]):
                    play.hit(player, piece, layoff["onto"])
                    put_down[player] += 1
            discard = turn.get("discard")
            if discard is not None and deck.parse(discard).is_skip:
                play.skip(player, turn.get("skip"), last_card=bool(turn.get("out")))
            elif "skip" in turn:
                raise RuleError(SKIP_WITHOUT_SKIP)
            if turn.get("out"):
                if player not in play.made:
                    raise RuleError(OUT_NOT_MADE, player=player)
                out = player
        except RuleError as error:
            raise error.at(turn=number) from None
    if out is None:
        raise RuleError(NO_OUT)
    scores: dict[str, int] = {}
    seen = [piece.in_hand for meld in play.table for piece in meld.pieces]
    for name in seats:
        if name == out:
            if cards := deck.parse_many(hands.get(name, ())):
                raise RuleError(OUT_HOLDS_CARDS, player=name, cards=describe(cards))
            scores[name] = 0
            continue
        if name not in hands:
            raise RuleError(MISSING_HAND, name=name)
        cards = deck.parse_many(hands[name])
        expected = HAND_SIZE - put_down[name]
        if len(cards) != expected:
            raise RuleError(LIVE_HAND_SIZE, player=name, expected=expected, count=len(cards))
        seen.extend(cards)
        scores[name] = sum(penalty(piece) for piece in cards)
    deck.check_copies(seen)
    return HandResult(MappingProxyType(dict(play.made)), MappingProxyType(scores), out)


def replay_match(
    seating: Sequence[str],
    first_dealer: str,
    hands: Iterable[HandResult],
    options: Phase10Options | None = None,
) -> Phase10State:
    """The match after ``hands`` in order."""
    state = Phase10State.start(seating, first_dealer, options)
    for number, result in enumerate(hands, start=1):
        try:
            state = state.after(result)
        except RuleError as error:
            raise error.at(round=number) from None
    return state


def melds_of(deck: PieceSet, melds: Iterable[CardsIn]) -> list[tuple[Piece, ...]]:
    """Melds as typed, read with ``deck``."""
    return [deck.parse_many(meld) for meld in melds]


__all__ = [
    "LEAST_CARDS",
    "OPTION_TABLE",
    "PHASE10_DECK",
    "PHASES",
    "PRESETS",
    "HandPlay",
    "HandResult",
    "Meld",
    "MeldKind",
    "Part",
    "Phase10Options",
    "Phase10State",
    "PhaseLaid",
    "check_meld",
    "hit",
    "melds_of",
    "phase_reason",
    "play_turns",
    "replay_match",
    "score_hand",
    "verify_phase",
]
