"""A round's scores from how it ended, the way RULES.md counts them.

The match replay (:mod:`referee.match`) first checks a round against the
rules and reduces it to a :class:`RoundEnding`: who went out, knocked or
closed, what every hand still holds, which melds each player laid.  A
ruleset's ``score_round`` hook (see :mod:`referee.rulesets`) turns that into
a :class:`RoundScore`.  The three ways of counting shared by the rulesets live
here:

- :func:`winner_takes_hands` (``remi``, ``rummy``): the winner scores every
  card still held by the others, doubled for going out all at once;
- :func:`own_melds_minus_hand` (``remi-indonesia``): everyone scores their own
  melds minus their hand, the closer adds 10 x the closing card;
- :func:`lowest_hand_wins` (``manipulation``): the lowest hand scores the
  differences to the others, with the undercut bonus, the knocker's ties and
  the bonus for an empty hand.

Every score comes with ``notes``: :class:`~referee.messages.Reason` values
saying how it was counted, for display.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.cards import Card
from referee.messages import Reason, define_message

if TYPE_CHECKING:
    from referee.gin import Adjudication
    from referee.melds import Meld
    from referee.round import RoundInProgress, TableMeld
    from referee.rulesets import Ruleset

TAKES_HANDS = define_message(
    "score.takes_hands", "{winner} went out and takes the {points} points left in the other hands"
)
AT_ONCE_DOUBLES = define_message(
    "score.at_once_doubles",
    "{winner} went out all at once: the {points} points left in the other hands count double, "
    "{total}",
)
AT_ONCE_MULTIPLIES = define_message(
    "score.at_once_multiplies",
    "{winner} went out all at once: the {points} points left in the other hands count "
    "{factor} times, {total}",
)
BLOCKED = define_message("score.blocked", "the round was blocked: everyone scores 0")
VOID = define_message("score.void", "the round was voided: everyone scores 0")
DRAW = define_message("score.draw", "the round was a draw: everyone scores 0")
OWN_MELDS = define_message("score.own_melds", "{player}: melds {melds} minus hand {hand} = {score}")
CLOSING_BONUS = define_message(
    "score.closing_bonus", "{player} closed with {card}: {factor} x {value} = {bonus} more"
)
LOWEST_HAND = define_message(
    "score.lowest_hand",
    "{winner} has the lowest hand ({value}) and scores the differences to the others: {points}",
)
UNDERCUT_BONUS = define_message(
    "score.undercut_bonus", "{winner} did not knock and takes the undercut bonus of {bonus}"
)
KNOCKER_TIED = define_message(
    "score.knocker_tied", "{knocker} knocked but tied for the lowest hand, so loses the tie"
)
EMPTY_HAND_BONUS = define_message(
    "score.empty_hand_bonus", "{winner} has played the whole hand: {bonus} more"
)

TABLE_MINUS_HAND = define_message(
    "score.table_minus_hand", "{player}: table {table} minus hand {hand} = {score}"
)
HAND_LEFT = define_message("score.hand_left", "{player}: {points} left in hand")
WENT_OUT_ZERO = define_message("score.went_out_zero", "{player} went out: 0")

LOW_RUN_ACE = 1  # rummy500: an ace below a 2 in a run on the table counts 1


class Outcome(enum.StrEnum):
    """How a round ended, as the replay output names it (a string: ``Outcome.GIN == "gin"``)."""

    OUT = "out"
    KNOCK = "knock"
    GIN = "gin"
    UNDERCUT = "undercut"
    STOCK = "stock"
    BLOCKED = "blocked"
    DRAW = "draw"
    VOID = "void"
    SHOW = "show"  # a valid show (indian)
    LAST_IN = "last_in"  # the others dropped or showed wrongly (indian)


class Ending(enum.Enum):
    """How a round ended, as it is entered in the match file."""

    OUT = "out"  # a hand was emptied (remi-indonesia: the closer discarded the closing card)
    KNOCK = "knock"
    STOCK = "stock"
    BLOCKED = "blocked"
    DRAW = "draw"
    VOID = "void"
    SHOW = "show"  # a valid show ends the deal (indian)
    LAST_IN = "last_in"  # one player is left in the deal (indian)


@dataclass(frozen=True)
class RoundEnding:
    """A checked round, reduced to what its score depends on.

    ``hands`` holds every player's cards left when the round ended (an empty
    tuple for an emptied hand); it may be empty for endings that score 0.
    ``player`` is who went out, knocked or closed.  ``melds`` lists, per
    player, the melds laid this round (used by ``remi-indonesia``);
    ``knocker_melds`` is a gin knocker's own spread when it was entered.
    ``points`` holds the hands given as what they count instead of as cards (for
    gin, the deadwoods after lay-offs as the players counted them); such a player
    is not in ``hands``.

    A deal of ``indian`` also gives every player's ``penalties`` (the loser's count, a
    drop, a wrong show; 0 for the winner), who dropped (``drops``: ``first`` or
    ``middle``), who showed wrongly (``wrong_shows``) and ``notes`` on how each penalty
    was found.
    """

    ending: Ending
    players: tuple[str, ...]
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    player: str | None = None
    at_once: bool = False
    melds: Mapping[str, tuple[tuple[Card, ...], ...]] = field(default_factory=dict)
    closing_card: Card | None = None
    knocker_melds: tuple[tuple[Card, ...], ...] | None = None
    points: Mapping[str, int] = field(default_factory=dict)
    penalties: Mapping[str, int] = field(default_factory=dict)
    drops: Mapping[str, str] = field(default_factory=dict)
    wrong_shows: tuple[str, ...] = ()
    notes: tuple[Reason, ...] = ()
    # The match's teams (name -> partners) where it is played in teams; empty otherwise.
    teams: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    table: tuple[TableMeld, ...] = ()  # every meld at the end, with who put each card there

    def holds_nothing(self, player: str) -> bool:
        """Whether ``player``'s hand is empty (given as no cards, or as 0 points)."""
        return not self.hands.get(player) and not self.points.get(player)


@dataclass(frozen=True)
class FinalState:
    """A round checked to its end: what its score depends on (``ending``), the round
    replayed from its turns (``live``, ``None`` for a final table), the melds each
    player laid (as laid, before lay-offs) and what the referee could not check
    (``unchecked``: a reason per hand given as points)."""

    ending: RoundEnding
    live: RoundInProgress | None = None
    melds: Mapping[str, tuple[Meld, ...]] = field(default_factory=dict)
    unchecked: tuple[Reason, ...] = ()
    # What the game keeps of the round for the rounds after it (Phase 10: the phases made).
    kept: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundScore:
    """What a round scored: ``scores`` has every player, in seating order.

    ``adjudication`` is a gin knock's settlement (arrangements, lay-offs, why).
    """

    outcome: Outcome
    winners: tuple[str, ...]
    scores: Mapping[str, int]
    notes: tuple[Reason, ...] = ()
    undercut: bool = False
    hand_values: Mapping[str, int] = field(default_factory=dict)
    adjudication: Adjudication | None = None
    table_values: Mapping[str, int] = field(default_factory=dict)  # rummy500: what each put down


def zero_scores(players: Sequence[str]) -> dict[str, int]:
    return {player: 0 for player in players}


def nobody_scores(ending: RoundEnding, outcome: Outcome) -> RoundScore:
    """A round in which everyone scores 0 (void, blocked, draw)."""
    note = {Outcome.VOID: VOID, Outcome.BLOCKED: BLOCKED, Outcome.DRAW: DRAW}[outcome]
    return RoundScore(outcome, (), zero_scores(ending.players), (Reason.of(note),))


def hand_values(rules: Ruleset, ending: RoundEnding) -> dict[str, int]:
    """What every hand counts: its cards, or the points it was given as."""
    values = {}
    for player in ending.players:
        if player in ending.points:
            values[player] = ending.points[player]
        elif player in ending.hands:
            values[player] = rules.hand_value(ending.hands[player])
    return values


def winner_takes_hands(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """``remi`` and ``rummy``: the winner takes every card still held by the others.

    Going out all at once (``remi``'s *habis sekaligus*, ``rummy``'s going
    rummy) multiplies the round by the ruleset's factor (x2).
    """
    if ending.ending is Ending.BLOCKED:
        return nobody_scores(ending, Outcome.BLOCKED)
    assert ending.ending is Ending.OUT and ending.player is not None
    winner = ending.player
    values = hand_values(rules, ending)
    points = sum(value for player, value in values.items() if player != winner)
    scores = zero_scores(ending.players)
    factor = rules.at_once_factor
    if ending.at_once and factor != 1:
        scores[winner] = factor * points
        if factor == 2:
            note = Reason.of(AT_ONCE_DOUBLES, winner=winner, points=points, total=2 * points)
        else:
            note = Reason.of(
                AT_ONCE_MULTIPLIES,
                winner=winner,
                points=points,
                factor=factor,
                total=scores[winner],
            )
    else:
        scores[winner] = points
        note = Reason.of(TAKES_HANDS, winner=winner, points=points)
    return RoundScore(Outcome.OUT, (winner,), scores, (note,), hand_values=values)


def meld_points(rules: Ruleset, melds: Sequence[Sequence[Card]]) -> int:
    return sum(rules.hand_value(meld) for meld in melds)


def own_melds_minus_hand(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """``remi-indonesia``: everyone scores their own melds minus their hand.

    The closer adds the ruleset's factor (10) x the value of the closing card; scores
    may be negative.
    """
    values = hand_values(rules, ending)
    scores: dict[str, int] = {}
    notes: list[Reason] = []
    for player in ending.players:
        melds = meld_points(rules, ending.melds.get(player, ()))
        hand = values.get(player, 0)
        scores[player] = melds - hand
        notes.append(
            Reason.of(OWN_MELDS, player=player, melds=melds, hand=hand, score=melds - hand)
        )
    if ending.ending is Ending.STOCK:
        return RoundScore(Outcome.STOCK, (), scores, tuple(notes), hand_values=values)
    assert ending.ending is Ending.OUT and ending.player and ending.closing_card
    closer, card = ending.player, ending.closing_card
    factor = rules.bonuses.closing_card_factor
    bonus = factor * rules.value(card)
    scores[closer] += bonus
    notes.append(
        Reason.of(
            CLOSING_BONUS,
            player=closer,
            card=str(card),
            factor=factor,
            value=rules.value(card),
            bonus=bonus,
        )
    )
    return RoundScore(Outcome.OUT, (closer,), scores, tuple(notes), hand_values=values)


def lowest_hand_wins(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """``manipulation``: the lowest hand wins the round, knocker or not.

    Each winner scores the sum of the differences between every other hand
    and their own (with two players, simply the difference).  A winner who
    did not knock adds the undercut bonus (``rules.bonuses.undercut``, 10),
    except when the stock ran out; a knocker who ties for lowest loses the tie
    to the others, who all score as sole winners; a winner with an empty hand
    adds ``rules.bonuses.empty_hand`` (25).
    """
    values = hand_values(rules, ending)
    lowest = min(values.values())
    tied = [player for player in ending.players if values[player] == lowest]
    knocker = ending.player if ending.ending is Ending.KNOCK else None
    notes: list[Reason] = []
    if knocker is not None and knocker in tied and len(tied) > 1:
        notes.append(Reason.of(KNOCKER_TIED, knocker=knocker))
        tied.remove(knocker)
    winners = tuple(tied)
    undercut = knocker is not None and knocker not in winners
    if ending.ending is Ending.KNOCK:
        outcome = Outcome.UNDERCUT if undercut else Outcome.KNOCK
    elif ending.ending is Ending.STOCK:
        outcome = Outcome.STOCK
    else:
        outcome = Outcome.OUT
    scores = zero_scores(ending.players)
    for winner in winners:
        own = values[winner]
        points = sum(value - own for player, value in values.items() if player != winner)
        notes.append(Reason.of(LOWEST_HAND, winner=winner, value=own, points=points))
        if undercut and rules.bonuses.undercut:
            points += rules.bonuses.undercut
            notes.append(Reason.of(UNDERCUT_BONUS, winner=winner, bonus=rules.bonuses.undercut))
        if ending.holds_nothing(winner) and rules.bonuses.empty_hand:
            points += rules.bonuses.empty_hand
            notes.append(Reason.of(EMPTY_HAND_BONUS, winner=winner, bonus=rules.bonuses.empty_hand))
        scores[winner] = points
    return RoundScore(outcome, winners, scores, tuple(notes), undercut=undercut, hand_values=values)


def table_card_value(rules: Ruleset, meld: TableMeld, card: Card) -> int:
    """What a card on the table counts where it lies: a card's value, except an ace below a 2
    in a run (rummy500's low ace)."""
    low_ace = (
        meld.kind.value == "run"
        and card.rank is not None
        and card.rank == 1
        and meld.cards[0] == card
    )
    return LOW_RUN_ACE if low_ace else rules.value(card)


def table_points(
    rules: Ruleset, table: Sequence[TableMeld], players: Sequence[str]
) -> dict[str, int]:
    """What every player put on the table: the melds they laid and the cards they laid off,
    on anyone's meld, each card counted where it lies."""
    points = dict.fromkeys(players, 0)
    for meld in table:
        layer = meld.player
        assert layer is not None
        own = Counter(meld.cards)
        for lay in meld.layoffs:
            points[lay.player] += table_card_value(rules, meld, lay.card)
            own[lay.card] -= 1
        points[layer] += sum(table_card_value(rules, meld, card) * n for card, n in own.items())
    return points


def table_minus_hand(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """``rummy500``: every player scores the cards they put on the table this round (melds and
    lay-offs, on anyone's meld) minus the cards left in their hand; scores may be negative.

    Whoever emptied the hand is the round's winner; a stock ending has none.
    """
    values = hand_values(rules, ending)
    tables = table_points(rules, ending.table, ending.players)
    scores: dict[str, int] = {}
    notes = []
    for player in ending.players:
        hand = values.get(player, 0)
        scores[player] = tables[player] - hand
        notes.append(
            Reason.of(
                TABLE_MINUS_HAND,
                player=player,
                table=tables[player],
                hand=hand,
                score=scores[player],
            )
        )
    outcome, winners = Outcome.STOCK, tuple[str, ...]()
    if ending.ending is not Ending.STOCK:
        assert ending.ending is Ending.OUT and ending.player is not None
        outcome, winners = Outcome.OUT, (ending.player,)
    return RoundScore(
        outcome, winners, scores, tuple(notes), hand_values=values, table_values=tables
    )


def others_score_hands(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """``contract``: whoever went out scores 0, every other player the cards left in hand
    (penalty points: the lowest total wins)."""
    assert ending.ending is Ending.OUT and ending.player is not None
    values = hand_values(rules, ending)
    scores = zero_scores(ending.players)
    notes = [Reason.of(WENT_OUT_ZERO, player=ending.player)]
    for player in ending.players:
        if player != ending.player:
            scores[player] = values.get(player, 0)
            notes.append(Reason.of(HAND_LEFT, player=player, points=scores[player]))
    return RoundScore(Outcome.OUT, (ending.player,), scores, tuple(notes), hand_values=values)
