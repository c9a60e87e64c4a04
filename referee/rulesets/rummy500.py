"""``rummy500`` (500 Rum): every player scores what they put on the table minus their hand.

Every card on the table belongs to whoever put it there, melds and lay-offs alike; the
discard pile is spread and may be taken deep (the deepest card taken is used at once); an
ace counts 15, or 1 in a low run on the table; first to 500, the highest total wins and a
tie at the top plays on.
"""

from __future__ import annotations

from referee.messages import define_message, define_text
from referee.rulesets.base import (
    OUT,
    STOCK,
    VOID,
    AceOrder,
    DiscardPile,
    RoundForm,
    Ruleset,
    card_values,
)
from referee.rulesets.options import target_option
from referee.rulesets.remi_indonesia import highest_total_once_target_reached
from referee.scoring import table_minus_hand

NO_ENDING = define_message(
    "round.no_ending.rummy500",
    "the round does not say how it ended: mark the turn in which a hand became empty "
    '"out": true, or give "out" with the player, or "end": "stock" or "void"',
)
POINTS_UNCHECKED = define_message(
    "points.unchecked.rummy500",
    "{player}'s hand was given as {points} points, not as cards: the referee could not check "
    "which cards they are (a card also on the table or in another hand)",
)

WHOLE_PILE = 104  # the discard pile never holds more than the two decks

RULESET = Ruleset(
    id="rummy500",
    name=define_text("ruleset.rummy500.name", "500 Rum"),
    description=define_text(
        "ruleset.rummy500.description",
        "Every player scores what they put on the table minus their hand; the discard pile "
        "may be taken deep; first to 500",
    ),
    min_players=2,
    max_players=8,
    deal_sizes={2: 13, **dict.fromkeys(range(3, 9), 7)},
    decks={**dict.fromkeys(range(2, 5), 1), **dict.fromkeys(range(5, 9), 2)},
    values=card_values(15, None, 10, 10),
    ace_order=AceOrder.LOW_OR_HIGH,
    target=500,
    option_table=(target_option("rummy500", 500, 100, 10000),),
    target_presets=(300, 1000),
    round_form=RoundForm((OUT, STOCK, VOID), table=True, table_required=True),
    discard=DiscardPile(depth=WHOLE_PILE, deepest_used=True),
    points_unchecked=POINTS_UNCHECKED,
    score_round=table_minus_hand,
    match_end=highest_total_once_target_reached,
    no_ending_message=NO_ENDING,
    menu_order=7,
)
