"""``gin`` (seed 004): Gin Rummy for two.

A round is entered as its final hands (no turns): the knocker and both
10-card hands, optionally the knocker's own spread.  The deadwood optimiser
and the knock adjudication are in :mod:`referee.gin`; the loser of a round
deals the next, a draw keeps the dealer.  With ``scoring: hollywood`` the rounds' scores fill
three games at once (:mod:`referee.hollywood`): the match ends when all three have closed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee import gin, hollywood
from referee.cards import Card, Rank, Suit
from referee.errors import RuleError
from referee.messages import Reason, define_message, define_text
from referee.rulesets.base import (
    DRAW,
    KNOCK,
    VOID,
    Knock,
    MatchEnd,
    MatchProgress,
    RoundForm,
    Ruleset,
    TurnStyle,
)
from referee.rulesets.options import (
    OptionType,
    RoundInput,
    bonus_option,
    option,
    preset,
    target_option,
)
from referee.scoring import Ending, Outcome, RoundEnding, RoundScore, nobody_scores

POINTS_UNCHECKED = define_message(
    "points.unchecked.gin",
    "the deadwoods were given as points ({counted}), as the players counted them after the "
    "lay-offs: without the cards the referee could not check the melds, the lay-offs or "
    "the count, and scored the knock from these two numbers",
)
NO_ENDING = define_message(
    "round.no_ending.gin",
    'the round does not say how it ended: give "knock" with the player, or "end": "draw" or "void"',
)

SPADES_DOUBLE = define_message(
    "score.spades_double",
    "the upcard is a spade: every score of the round counts double, {points}",
)
UPCARD_JOKER = define_message(
    "gin.upcard_joker", "gin is played without jokers: the upcard cannot be {card}"
)

ACE_UPCARD_LIMIT = 0  # with an ace upcard only gin ends the round


def knock_limit_for_upcard(upcard: Card) -> int:
    """Oklahoma: the knock limit a round's upcard sets (its value; an ace: gin only).

    >>> [knock_limit_for_upcard(Card.parse(c)) for c in ('7H', 'KS', 'AD')]
    [7, 10, 0]
    """
    if upcard.is_joker:
        raise RuleError(UPCARD_JOKER, card=str(upcard))
    if upcard.rank is Rank.ACE:
        return ACE_UPCARD_LIMIT
    return RULESET.value(upcard)


def oklahoma_round(rules: Ruleset, inputs: Mapping[str, Any]) -> Ruleset:
    """With ``oklahoma``, the round's upcard sets its knock limit and, a spade with
    ``spades_double``, doubles its scores; a round without an upcard (a draw, a void)
    keeps the match's rules."""
    upcard = inputs.get("upcard")
    if not rules.settings.get("oklahoma") or not isinstance(upcard, Card):
        return rules
    doubled = bool(rules.settings.get("spades_double")) and upcard.suit is Suit.SPADES
    assert rules.deadwood is not None
    return replace(
        rules,
        knock=Knock(knock_limit_for_upcard(upcard)),
        deadwood=replace(rules.deadwood, round_multiplier=2 if doubled else 1),
    )


def score_gin_round(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """A knock adjudicated by :func:`referee.gin.adjudicate_round`; a draw scores 0.

    The adjudication (arrangements, lay-offs, why) comes with the score.  An Oklahoma
    round whose upcard is a spade counts double (``rules.deadwood.round_multiplier``).
    """
    if ending.ending is Ending.DRAW:
        return nobody_scores(ending, Outcome.DRAW)
    assert ending.ending is Ending.KNOCK and ending.player is not None
    if ending.points:
        return _multiplied(rules, score_counted_knock(rules, ending))
    result = gin.adjudicate_round(ending.player, ending.hands, ending.knocker_melds, rules=rules)
    knocker, defender = result.names
    scores = {knocker: result.knocker_points, defender: result.defender_points}
    winner = result.winner_name
    assert isinstance(winner, str)
    return _multiplied(
        rules,
        RoundScore(
            result.outcome,
            (winner,),
            {player: scores.get(player, 0) for player in ending.players},
            undercut=result.outcome is Outcome.UNDERCUT,
            adjudication=result,
        ),
    )


def _multiplied(rules: Ruleset, score: RoundScore) -> RoundScore:
    factor = rules.deadwood.round_multiplier if rules.deadwood is not None else 1
    if factor == 1:
        return score
    scores = {player: points * factor for player, points in score.scores.items()}
    note = Reason.of(SPADES_DOUBLE, points=max(scores.values()))
    return replace(score, scores=scores, notes=(*score.notes, note))


def score_counted_knock(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """A knock scored from the deadwoods the players counted (both hands given as points):
    the knocker's 0 is gin, a defender's deadwood not higher is an undercut."""
    knocker = ending.player
    assert knocker is not None
    defender = next(player for player in ending.players if player != knocker)
    deadwoods = ending.points
    outcome, side, points, why = gin.settle(
        deadwoods[knocker], deadwoods[defender], (knocker, defender), rules
    )
    winner = knocker if side == "knocker" else defender
    scores = {player: points if player == winner else 0 for player in ending.players}
    return RoundScore(
        outcome,
        (winner,),
        scores,
        (why,),
        undercut=outcome is Outcome.UNDERCUT,
        hand_values=dict(deadwoods),
    )


def loser_deals(rules: Ruleset, progress: MatchProgress) -> str:
    """The player who did not win the round deals the next; a draw keeps the dealer."""
    losers = [player for player in progress.players if player not in progress.last.winners]
    if not progress.last.winners or not losers:
        return progress.dealer
    return losers[0]


def first_to_target_with_bonuses(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """First to the target wins; then every player adds the box bonus for each round won,
    the winner the game bonus, and with ``shutout`` the winner's total (bonuses included)
    doubles when the other player won no round."""
    assert rules.target is not None
    players, totals = progress.players, progress.totals
    reached = [player for player in players if totals[player] >= rules.target]
    if not reached:
        return MatchEnd(False)
    top = max(totals[player] for player in reached)
    winners = tuple(player for player in reached if totals[player] == top)
    bonuses = rules.bonuses
    added = {player: bonuses.box * progress.rounds_won[player] for player in players}
    for winner in winners:
        added[winner] += bonuses.game
    if bonuses.shutout and len(winners) == 1:
        winner = winners[0]
        if all(progress.rounds_won[player] == 0 for player in players if player != winner):
            added[winner] += totals[winner] + added[winner]
    return MatchEnd(True, winners, added)


def hollywood_scored(rules: Ruleset) -> bool:
    return rules.settings.get("scoring") == "hollywood"


def hollywood_sheet(
    rules: Ruleset, players: tuple[str, ...], scored: tuple[RoundScore, ...]
) -> hollywood.HollywoodSheet | None:
    """With ``scoring: hollywood``, the three columns after the counted rounds."""
    if not hollywood_scored(rules):
        return None
    return hollywood.score_columns(
        players, hollywood.results_of(scored), hollywood.HollywoodOptions.for_gin(rules.settings)
    )


def gin_match_end(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """Standard scoring: first to the target, with its bonuses.  Hollywood: the match ends
    when all three columns have closed; the totals become the sums of the column totals
    (what the columns add to the rounds' points is the match-end bonus), the higher wins."""
    sheet = hollywood_sheet(rules, progress.players, progress.scored)
    if sheet is None:
        return first_to_target_with_bonuses(rules, progress)
    if not sheet.over:
        return MatchEnd(False)
    totals = sheet.totals
    added = {player: totals[player] - progress.totals[player] for player in progress.players}
    return MatchEnd(True, sheet.winners, added)


OKLAHOMA = {"oklahoma": True}
HOLLYWOOD = {"scoring": "hollywood"}


def _hollywood_default(name: str) -> tuple[tuple[Mapping[str, Any], Any], ...]:
    return ((HOLLYWOOD, hollywood.HOLLYWOOD_DEFAULTS[name]),)


OPTIONS = (
    target_option("gin", 100, 50, 1000, default_when=((OKLAHOMA, 150),)),
    option(
        "gin",
        "oklahoma",
        OptionType.SWITCH,
        False,
        label=define_text("option.gin.oklahoma.label", "Oklahoma"),
        explanation=define_text(
            "option.gin.oklahoma.explanation",
            "Each round records the upcard: its value is the round's knock limit "
            "(an ace: gin only).",
        ),
        summary=define_text(
            "option.gin.oklahoma.summary",
            "Oklahoma: the upcard sets the knock limit (an ace: gin only)",
        ),
        usual=True,
    ),
    option(
        "gin",
        "spades_double",
        OptionType.SWITCH,
        True,
        requires=OKLAHOMA,
        label=define_text("option.gin.spades_double.label", "Spades double"),
        explanation=define_text(
            "option.gin.spades_double.explanation",
            "When the upcard is a spade, every score of that round is doubled.",
        ),
        summary=define_text(
            "option.gin.spades_double.summary", "A spade upcard does not double the round"
        ),
    ),
    option(
        "gin",
        "knock_limit",
        OptionType.NUMBER,
        10,
        minimum=1,
        maximum=10,
        excludes=OKLAHOMA,
        label=define_text("option.gin.knock_limit.label", "Knock limit"),
        explanation=define_text(
            "option.gin.knock_limit.explanation",
            "A player whose deadwood is this much or less may knock.",
        ),
        summary=define_text("option.gin.knock_limit.summary", "Knock at {value} or less"),
        usual=True,
        apply=lambda rules, value: replace(rules, knock=Knock(value)),
    ),
    bonus_option(
        "gin",
        "gin_bonus",
        "gin",
        25,
        100,
        label=define_text("option.gin.gin_bonus.label", "Gin bonus"),
        explanation=define_text(
            "option.gin.gin_bonus.explanation", "Gin scores the defender's deadwood plus this."
        ),
        summary=define_text("option.gin.gin_bonus.summary", "Gin pays {value}"),
        usual=True,
    ),
    bonus_option(
        "gin",
        "undercut_bonus",
        "undercut",
        25,
        100,
        label=define_text("option.gin.undercut_bonus.label", "Undercut bonus"),
        explanation=define_text(
            "option.gin.undercut_bonus.explanation", "An undercut scores the difference plus this."
        ),
        summary=define_text("option.gin.undercut_bonus.summary", "An undercut pays {value}"),
        usual=True,
    ),
    bonus_option(
        "gin",
        "big_gin_bonus",
        "big_gin",
        0,
        100,
        label=define_text("option.gin.big_gin_bonus.label", "Big gin bonus"),
        explanation=define_text(
            "option.gin.big_gin_bonus.explanation",
            "Added to the gin bonus when all 11 cards are melded.",
        ),
        summary=define_text("option.gin.big_gin_bonus.summary", "Big gin adds {value}"),
    ),
    bonus_option(
        "gin",
        "box_bonus",
        "box",
        0,
        100,
        label=define_text("option.gin.box_bonus.label", "Box bonus"),
        explanation=define_text(
            "option.gin.box_bonus.explanation",
            "At the end of the match, each player adds this for every round they won.",
        ),
        summary=define_text(
            "option.gin.box_bonus.summary", "Each round won adds {value} at the end"
        ),
        default_when=_hollywood_default("box_bonus"),
    ),
    bonus_option(
        "gin",
        "game_bonus",
        "game",
        0,
        500,
        label=define_text("option.gin.game_bonus.label", "Game bonus"),
        explanation=define_text(
            "option.gin.game_bonus.explanation", "At the end of the match, the winner adds this."
        ),
        summary=define_text("option.gin.game_bonus.summary", "The winner adds {value} at the end"),
        default_when=_hollywood_default("game_bonus"),
    ),
    option(
        "gin",
        "shutout",
        OptionType.SWITCH,
        False,
        label=define_text("option.gin.shutout.label", "Shutout"),
        explanation=define_text(
            "option.gin.shutout.explanation",
            "At the end of the match, the winner's total (after bonuses) is doubled "
            "when the other won no round.",
        ),
        summary=define_text("option.gin.shutout.summary", "A shutout doubles the winner's total"),
        apply=lambda rules, value: replace(rules, bonuses=replace(rules.bonuses, shutout=value)),
        default_when=_hollywood_default("shutout"),
    ),
    hollywood.SCORING_OPTION,
)

PRESETS = (
    preset("gin", "standard", define_text("preset.gin.standard", "Standard rules"), {}),
    preset("gin", "oklahoma", define_text("preset.gin.oklahoma", "Oklahoma"), OKLAHOMA),
    preset(
        "gin",
        "box_and_game",
        define_text("preset.gin.box_and_game", "Box and game bonuses"),
        {"box_bonus": 25, "game_bonus": 100, "shutout": True},
    ),
    *hollywood.PRESETS,
)

UPCARD = RoundInput(
    "upcard",
    "card",
    define_text("input.gin.upcard.label", "Upcard"),
    define_text(
        "input.gin.upcard.explanation",
        "The card turned face up after the deal: its value is this round's knock limit "
        "(an ace: gin only).",
    ),
    required_when=OKLAHOMA,
)


RULESET = replace(
    gin.RULES,
    description=define_text(
        "ruleset.gin.description", "Two players, knock at 10 or less, gin and undercut bonus 25"
    ),
    target_presets=(50,),
    option_table=OPTIONS,
    presets=PRESETS,
    round_inputs=(UPCARD,),
    round_rules=oklahoma_round,
    turn_style=TurnStyle.NONE,
    round_form=RoundForm((KNOCK, DRAW, VOID), knocker_melds=True),
    points_unchecked=POINTS_UNCHECKED,
    score_round=score_gin_round,
    next_dealer=loser_deals,
    match_end=gin_match_end,
    sheet_columns=hollywood_sheet,
    no_ending_message=NO_ENDING,
    menu_order=5,
)
