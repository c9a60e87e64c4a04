"""``three-thirteen`` (Three Thirteen): eleven deals of 3 to 13 cards, the rank dealt is wild.

A deal is entered as its final table only (who went out, every hand after its last turn):
the least counts and the checks are in :mod:`referee.three_thirteen`.  The deal's size is
the rule that changes from deal to deal (:func:`rules_of_deal`); the deal moves one seat
clockwise; after the eleventh deal the lowest total wins, a tie shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referee import three_thirteen
from referee.errors import MatchFileError, RuleError
from referee.messages import Reason, define_message, define_text
from referee.rulesets.base import (
    OUT,
    VOID,
    FixedJokers,
    HandSize,
    MatchEnd,
    MatchProgress,
    Melding,
    Ranking,
    RoundForm,
    Ruleset,
    TurnStyle,
)
from referee.rulesets.options import Option, preset
from referee.scoring import Ending, FinalState, Outcome, RoundEnding, RoundScore

if TYPE_CHECKING:
    from referee.matchfile import MatchHeader, RoundRecord

NO_ENDING = define_message(
    "round.no_ending.three_thirteen",
    'the deal does not say how it ended: give "out" with the player who went out, or "end": "void"',
)
FINAL_TABLE_ONLY = define_message(
    "three_thirteen.final_table_only",
    'a Three Thirteen deal is entered as its final table: "{field}" has no place in it',
)
POINTS_UNCHECKED = define_message(
    "points.unchecked.three_thirteen",
    "{player}'s hand was given as {points} points, as the players counted it: the referee "
    "could not check its cards nor its melds",
)

PLAYERS = range(three_thirteen.FIRST_HAND - 1, three_thirteen.MOST_PLAYERS + 1)
NOT_IN_A_FINAL_TABLE = ("turns", "knock", "closer", "melds", "at_once", "closing_card", "table")


def rules_of_deal(rules: Ruleset, deal: int) -> Ruleset:
    """Deal ``deal`` gives deal + 2 cards (a deal past the eleventh keeps the eleventh's: the
    match is over by then, and the replay says so)."""
    deal = min(max(deal, 1), three_thirteen.DEALS)
    cards = three_thirteen.deal_rules(deal).cards
    return replace(rules, deal_sizes=dict.fromkeys(PLAYERS, cards), hand_size=HandSize(exact=cards))


def deal_of(rules: Ruleset) -> three_thirteen.DealRules:
    """The deal a ruleset of :func:`rules_of_deal` is for."""
    cards = next(iter(rules.deal_sizes.values()))
    return three_thirteen.deal_rules(cards - three_thirteen.FIRST_HAND + 1)


def deal_facts(rules: Ruleset) -> Mapping[str, Any]:
    """What the replay adds to a deal: its number, its cards, its wild rank."""
    return deal_of(rules).facts()


def options_of(rules: Ruleset) -> three_thirteen.ThreeThirteenOptions:
    settings = rules.settings
    return three_thirteen.ThreeThirteenOptions(
        decks=settings.get("decks"),
        jokers=settings.get("jokers", 0),
        joker_value=settings.get("joker_value", 20),
        wilds_in_meld=settings.get("wilds_in_meld", three_thirteen.ANY),
    )


def check_deal(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> FinalState:
    """A deal's final table checked and counted by :func:`referee.three_thirteen.score_deal`."""
    rules, players = header.rules, header.players
    for key in NOT_IN_A_FINAL_TABLE:
        if getattr(record, key) is not None:
            raise MatchFileError(FINAL_TABLE_ONLY, field=key)
    if record.end is not None:
        if record.end != "void" or record.out is not None:
            raise RuleError(NO_ENDING)
        return FinalState(RoundEnding(Ending.VOID, players))
    if record.out is None:
        raise RuleError(NO_ENDING)
    hands: dict[str, Any] = {**(record.hands or {}), **(record.points or {})}
    scored = three_thirteen.score_deal(
        deal_of(rules).number, players, record.out, hands, options_of(rules)
    )
    given = dict(record.points or {})
    unchecked = tuple(
        Reason.of(POINTS_UNCHECKED, player=player, points=points)
        for player, points in given.items()
        if player != record.out
    )
    ending = RoundEnding(
        Ending.OUT,
        players,
        {player: tuple(cards) for player, cards in (record.hands or {}).items()},
        record.out,
        points=given,
        penalties=scored.scores,
    )
    return FinalState(ending, unchecked=unchecked)


def score_deal(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """The player who went out scores 0, every other player their least count."""
    assert ending.player is not None
    scores = {player: ending.penalties[player] for player in ending.players}
    return RoundScore(Outcome.OUT, (ending.player,), scores, hand_values=dict(scores))


def lowest_after_eleven_deals(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """After the eleventh deal the lowest total wins; a tie is a shared win."""
    if progress.rounds_counted < three_thirteen.DEALS:
        return MatchEnd(False)
    lowest = min(progress.totals[player] for player in progress.players)
    return MatchEnd(True, tuple(p for p in progress.players if progress.totals[p] == lowest))


def _decks(rules: Ruleset, value: int | None) -> Ruleset:
    if value is None:  # one deck for 2 players, two for 3-7
        return rules
    return replace(rules, decks=dict.fromkeys(PLAYERS, value))


def _jokers(rules: Ruleset, value: int) -> Ruleset:
    return replace(rules, fixed_jokers=FixedJokers(dict.fromkeys(PLAYERS, value)))


def _joker_value(rules: Ruleset, value: int) -> Ruleset:
    return replace(rules, joker_value=value)


APPLY = {"decks": _decks, "jokers": _jokers, "joker_value": _joker_value}


def _applied(declared: Option) -> Option:
    """The core's option, with what it sets in the ruleset."""
    apply = APPLY.get(declared.name)
    if apply is None:
        return declared
    if declared.name == "decks":  # one deck holds the hands of 2 or 3 players only
        return replace(declared, apply=apply, most_players={1: 3})
    return replace(declared, apply=apply)


RULESET = rules_of_deal(
    Ruleset(
        id=three_thirteen.RULES_ID,
        name=define_text("ruleset.three-thirteen.name", "Three Thirteen"),
        description=define_text(
            "ruleset.three-thirteen.description",
            "Eleven deals of 3 to 13 cards, the rank dealt is wild; melds only at the end; "
            "the lowest total wins",
        ),
        min_players=2,
        max_players=three_thirteen.MOST_PLAYERS,
        deal_sizes=dict.fromkeys(PLAYERS, 3),
        decks={2: 1, **dict.fromkeys(range(3, three_thirteen.MOST_PLAYERS + 1), 2)},
        joker_value=20,
        target=None,
        hands=three_thirteen.DEALS,
        option_table=tuple(_applied(declared) for declared in three_thirteen.OPTION_TABLE),
        presets=(
            preset(
                three_thirteen.RULES_ID,
                "standard",
                define_text("preset.three-thirteen.standard", "Standard rules"),
                {},
            ),
            *three_thirteen.PRESETS,
        ),
        round_form=RoundForm((OUT, VOID)),
        turn_style=TurnStyle.NONE,
        layoffs=False,
        melding=Melding(sets_repeat_suits=True),
        ranking=Ranking.LOWEST_TOTAL,
        round_is_a_deal=True,
        points_unchecked=POINTS_UNCHECKED,
        check_round=check_deal,
        score_round=score_deal,
        match_end=lowest_after_eleven_deals,
        deal_rules=rules_of_deal,
        round_facts=deal_facts,
        no_ending_message=NO_ENDING,
        menu_order=9,
    ),
    1,
)
