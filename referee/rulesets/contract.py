"""``contract`` (Contract Rummy, the Shanghai / Liverpool family): seven deals, each with its
own contract of sets and runs.

Going down lays exactly the deal's contract in one turn; after it a player only lays off.
Sets are 3 or more of a rank (suits may repeat: two or three decks), runs 4 or more of a
suit; jokers are wild.  A discard the player in turn refuses may be bought (with a penalty
card from the stock), at most 3 times a deal.  Whoever goes out scores 0, the others what
they hold; after seven deals the lowest total wins.

The contract of deal N in words, for the app: :func:`contract_of` (``.label`` is "Deal 5:
two sets and a run").
"""

from __future__ import annotations

from dataclasses import replace

from referee.messages import define_message, define_text
from referee.rulesets.base import (
    OUT,
    VOID,
    AceOrder,
    Buying,
    Contract,
    DiscardPile,
    FixedJokers,
    MatchEnd,
    MatchProgress,
    Melding,
    Ranking,
    RoundForm,
    Ruleset,
    Runs,
    card_values,
)
from referee.rulesets.options import OptionType, option
from referee.scoring import others_score_hands

NO_ENDING = define_message(
    "round.no_ending.contract",
    "the deal does not say how it ended: mark the turn in which a hand became empty "
    '"out": true, or give "out" with the player, or "end": "void"',
)
POINTS_UNCHECKED = define_message(
    "points.unchecked.contract",
    "{player}'s hand was given as {points} points, not as cards: the referee could not check "
    "which cards they are (no card more often than the decks hold it, jokers included)",
)

DEALS = 7

CONTRACTS = (
    Contract(
        1,
        2,
        0,
        define_message("contract.words.1", "two sets"),
        define_text("contract.label.1", "Deal 1: two sets"),
    ),
    Contract(
        2,
        1,
        1,
        define_message("contract.words.2", "one set and one run"),
        define_text("contract.label.2", "Deal 2: one set and one run"),
    ),
    Contract(
        3,
        0,
        2,
        define_message("contract.words.3", "two runs"),
        define_text("contract.label.3", "Deal 3: two runs"),
    ),
    Contract(
        4,
        3,
        0,
        define_message("contract.words.4", "three sets"),
        define_text("contract.label.4", "Deal 4: three sets"),
    ),
    Contract(
        5,
        2,
        1,
        define_message("contract.words.5", "two sets and a run"),
        define_text("contract.label.5", "Deal 5: two sets and a run"),
    ),
    Contract(
        6,
        1,
        2,
        define_message("contract.words.6", "one set and two runs"),
        define_text("contract.label.6", "Deal 6: one set and two runs"),
    ),
    Contract(
        7,
        0,
        3,
        define_message("contract.words.7", "three runs"),
        define_text("contract.label.7", "Deal 7: three runs"),
    ),
)
"""The contract of each deal, in order (RULES.md)."""

PLAYERS = range(3, 9)


def contract_of(deal: int) -> Contract:
    """The contract of deal number ``deal`` (1 to 7; void rounds are not deals).

    >>> contract_of(5).label
    'Deal 5: two sets and a run'
    """
    if not 1 <= deal <= DEALS:
        raise ValueError(f"contract rummy has deals 1 to {DEALS}, not {deal}")
    return CONTRACTS[deal - 1]


def deal_size(deal: int) -> int:
    """10 cards each in deals 1-4, 12 in deals 5-7."""
    return 10 if deal <= 4 else 12


def rules_of_deal(rules: Ruleset, deal: int) -> Ruleset:
    """The deal's contract and deal size (a deal past the seventh keeps the seventh's: the
    match is over by then, and the replay says so)."""
    deal = min(max(deal, 1), DEALS)
    return replace(
        rules,
        contract=contract_of(deal),
        deal_sizes=dict.fromkeys(PLAYERS, deal_size(deal)),
    )


def lowest_after_seven_deals(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """After the seventh deal the lowest total wins; a tie is a shared win."""
    if progress.rounds_counted < DEALS:
        return MatchEnd(False)
    lowest = min(progress.totals[player] for player in progress.players)
    return MatchEnd(True, tuple(p for p in progress.players if progress.totals[p] == lowest))


OPTIONS = (
    option(
        "contract",
        "joker_value",
        OptionType.CHOICE,
        15,
        choices=(15, 25, 50),
        label=define_text("option.contract.joker_value.label", "Joker left in hand"),
        explanation=define_text(
            "option.contract.joker_value.explanation", "What a joker left in hand counts."
        ),
        summary=define_text(
            "option.contract.joker_value.summary", "A joker left in hand counts {value}"
        ),
        usual=True,
        apply=lambda rules, value: replace(rules, joker_value=value),
    ),
)


RULESET = rules_of_deal(
    Ruleset(
        id="contract",
        name=define_text("ruleset.contract.name", "Contract Rummy"),
        description=define_text(
            "ruleset.contract.description",
            "Seven deals, each with its own contract of sets and runs; buy discards; the "
            "lowest total wins",
        ),
        min_players=3,
        max_players=8,
        deal_sizes=dict.fromkeys(PLAYERS, 10),
        decks={**dict.fromkeys(range(3, 5), 2), **dict.fromkeys(range(5, 9), 3)},
        fixed_jokers=FixedJokers(
            {**dict.fromkeys(range(3, 5), 1), **dict.fromkeys(range(5, 9), 2)}
        ),
        values=card_values(15, None, 10, 10),
        joker_value=15,
        ace_order=AceOrder.LOW_OR_HIGH,
        target=None,
        hands=DEALS,
        option_table=OPTIONS,
        round_form=RoundForm((OUT, VOID), table=True),
        discard=DiscardPile(top_kept=False),
        runs=Runs(shortest=4),
        melding=Melding(sets_repeat_suits=True),
        buying=Buying(per_deal=3),
        ranking=Ranking.LOWEST_TOTAL,
        round_is_a_deal=True,
        points_unchecked=POINTS_UNCHECKED,
        score_round=others_score_hands,
        match_end=lowest_after_seven_deals,
        deal_rules=rules_of_deal,
        no_ending_message=NO_ENDING,
        menu_order=8,
    ),
    1,
)
