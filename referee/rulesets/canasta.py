"""``canasta`` (Classic Canasta): melds of one rank, canastas of seven, red 3s, sides.

A hand is entered as its final table only (every side's melds, as cards or as counts, its
red 3s, who went out and whether concealed, or the stock run out; the cards left in every
hand): the checks and the score of each side are in :mod:`referee.canasta`.  A side is a
team of two partners with 4 players (the match's ``teams``), a player alone with 2 or 3.
Each side's first-meld minimum for a hand follows from its total before it
(:class:`~referee.rulesets.base.FromTotals`); the match ends after a hand in which a side
reached the target, with one total highest alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referee import canasta
from referee.errors import MatchFileError, RuleError
from referee.messages import Reason, define_message, define_text
from referee.notation import format_card, parse_card
from referee.rulesets.base import (
    OUT,
    SIDE_TABLE,
    STOCK,
    VOID,
    FromTotals,
    MatchEnd,
    MatchProgress,
    Melding,
    RoundForm,
    RoundKeys,
    Ruleset,
    Sides,
    TurnStyle,
)
from referee.rulesets.options import Option, preset
from referee.scoring import Ending, FinalState, Outcome, RoundEnding, RoundScore

if TYPE_CHECKING:
    from referee.matchfile import MatchHeader, RoundRecord

NO_ENDING = define_message(
    "round.no_ending.canasta",
    'the hand does not say how it ended: give "out" with the player who went out, '
    '"end": "stock" when the stock ran out, or "end": "void"',
)
FINAL_TABLE_ONLY = define_message(
    "canasta.final_table_only",
    'a Canasta hand is entered as its final table: "{field}" has no place in it',
)
POINTS_UNCHECKED = define_message(
    "points.unchecked.canasta",
    "{player}'s hand was given as {points} points, as the players counted it: the referee "
    "could not check its cards",
)
SIDE_SCORE = define_message(
    "canasta.side_score",
    "{side}: melds {melds}, canastas {canastas}, red 3s {red_threes}, going out {going_out}, "
    "hands -{hands}: {total}",
)
SIDE_SCORE_CONCEALED = define_message(
    "canasta.side_score_concealed",
    "{side}: melds {melds}, canastas {canastas}, red 3s {red_threes}, going out concealed "
    "{going_out}, hands -{hands}: {total}",
)
PLAYERS = range(2, 5)  # 4 players play in two teams of partners
DEAL_SIZES = {2: 15, 3: 13, 4: 11}
NOT_IN_A_FINAL_TABLE = ("turns", "knock", "closer", "at_once", "closing_card", "table")
VALUES = (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)  # A 2 3 4 ... K in a hand


def options_of(rules: Ruleset) -> canasta.CanastaOptions:
    settings = rules.settings
    return canasta.CanastaOptions(
        **{
            declared.name: settings.get(declared.name, declared.default)
            for declared in canasta.OPTION_TABLE
        }
    )


def sides_of(header: MatchHeader) -> dict[str, tuple[str, ...]]:
    """Each side's name and players: the match's two teams with 4 players, each player
    alone with 2 or 3."""
    return {team.name: team.members for team in header.teams} or {
        player: (player,) for player in header.players
    }


def canonical_keys(keys: Mapping[str, Any]) -> dict[str, Any]:
    """The round's own keys as written back: each meld's cards in canonical form (a side
    given as counts, the red 3s and ``concealed`` as they are; their shape is checked when
    the hand is refereed)."""
    found = dict(keys)
    melds = found.get("melds")
    if isinstance(melds, Mapping):
        found["melds"] = {side: _canonical_melds(value) for side, value in melds.items()}
    return found


def _canonical_melds(melds: Any) -> Any:
    if isinstance(melds, list | tuple) and all(
        isinstance(meld, list | tuple) and all(isinstance(card, str) for card in meld)
        for meld in melds
    ):
        return [[format_card(parse_card(card)) for card in meld] for meld in melds]
    return melds


def check_hand(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> FinalState:
    """A hand's final table checked and scored side by side by :mod:`referee.canasta`."""
    rules, players = header.rules, header.players
    for key in NOT_IN_A_FINAL_TABLE:
        if getattr(record, key) is not None:
            raise MatchFileError(FINAL_TABLE_ONLY, field=key)
    if record.end == "void":
        if record.out is not None:
            raise RuleError(canasta.OUT_AND_END)
        return FinalState(RoundEnding(Ending.VOID, players))
    if record.out is None and record.end is None:
        raise RuleError(NO_ENDING)
    facts: dict[str, Any] = dict(record.own)
    if record.out is not None:
        facts["out"] = record.out
    if record.end is not None:
        facts["end"] = record.end
    facts["hands"] = {**(record.hands or {}), **(record.points or {})}
    sides = sides_of(header)
    hand = canasta.read_hand(facts, sides)
    result = canasta.referee_hand(hand, options_of(rules))
    scores = {side: score.total for side, score in result.scores.items()}
    notes = tuple(_side_note(side, score, hand.concealed) for side, score in result.scores.items())
    ending = RoundEnding(
        Ending.OUT if record.out is not None else Ending.STOCK,
        players,
        {player: tuple(cards) for player, cards in (record.hands or {}).items()},
        record.out,
        points=dict(record.points or {}),
        penalties=scores,
        notes=notes,
    )
    return FinalState(ending, unchecked=result.not_checked)


def _side_note(side: str, score: canasta.SideScore, concealed: bool) -> Reason:
    return Reason.of(
        SIDE_SCORE_CONCEALED if concealed and score.going_out_bonus else SIDE_SCORE,
        side=side,
        melds=score.meld_points,
        canastas=score.canasta_bonus,
        red_threes=score.red_three_points,
        going_out=score.going_out_bonus,
        hands=score.hand_points,
        total=score.total,
    )


def score_hand(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """Each side's score as refereed (keyed by side); the side of the player who went out
    wins the hand (nobody does when the stock ran out)."""
    scores = dict(ending.penalties)
    if ending.ending is Ending.OUT:
        assert ending.player is not None
        winners: tuple[str, ...] = (ending.player,)
        outcome = Outcome.OUT
    else:
        winners, outcome = (), Outcome.STOCK
    return RoundScore(outcome, winners, scores, notes=ending.notes)


def highest_alone_past_target(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """After a hand in which a side has reached the target, the highest total alone wins
    (a tie at the top plays one more hand)."""
    found = canasta.winners(progress.history or (progress.totals,), options_of(rules))
    return MatchEnd(bool(found), found)


def first_meld_minimums(rules: Ruleset, totals: Mapping[str, int]) -> dict[str, int]:
    """Each side's first-meld minimum for a hand, by its total before it."""
    return canasta.next_minimums(totals)


def _target(rules: Ruleset, value: int) -> Ruleset:
    return replace(rules, target=value)


def _applied(declared: Option) -> Option:
    """The core's option, with what it sets in the ruleset (the target; the others are read
    from the options in force when a hand is refereed)."""
    return replace(declared, apply=_target) if declared.name == "target" else declared


RULESET = Ruleset(
    id=canasta.RULES_ID,
    name=define_text("ruleset.canasta.name", "Canasta"),
    description=define_text(
        "ruleset.canasta.description",
        "Classic Canasta: melds of one rank, canastas of seven, red 3s, a first meld that "
        "grows with the score; game to 5000",
    ),
    min_players=PLAYERS.start,
    max_players=PLAYERS.stop - 1,
    deal_sizes={players: DEAL_SIZES[players] for players in PLAYERS},
    decks=dict.fromkeys(PLAYERS, canasta.DECKS),
    jokers_per_deck=canasta.JOKERS // canasta.DECKS,
    values=VALUES,
    joker_value=50,
    target=5000,
    option_table=tuple(_applied(declared) for declared in canasta.OPTION_TABLE),
    presets=(
        preset(
            canasta.RULES_ID,
            "standard",
            define_text("preset.canasta.standard", "Classic rules"),
            {},
        ),
        *canasta.PRESETS,
    ),
    round_form=RoundForm((OUT, STOCK, VOID), kind=SIDE_TABLE),
    turn_style=TurnStyle.NONE,
    layoffs=False,
    melding=Melding(sets_repeat_suits=True),
    points_unchecked=POINTS_UNCHECKED,
    check_round=check_hand,
    score_round=score_hand,
    match_end=highest_alone_past_target,
    round_keys=RoundKeys(("melds", "red_threes", "concealed"), canonical_keys),
    from_totals=FromTotals(
        "minimums",
        "next_minimums",
        first_meld_minimums,
        define_text("canasta.next_minimums", "First meld of the next hand, at least: %(values)s"),
    ),
    sides=Sides(seated=(4,), size=2),
    no_ending_message=NO_ENDING,
    menu_order=10,
)
