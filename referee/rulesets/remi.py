"""``remi`` (seed 000): Indonesian house Remi.

Lay off onto anyone's melds; the winner takes the cards left in the other
hands, doubled for going out all at once (*habis sekaligus*); a round can be
blocked; the deal moves clockwise, blocked rounds too.
"""

from __future__ import annotations

from referee.messages import define_message, define_text
from referee.rulesets.base import BLOCKED, OUT, VOID, Bonuses, RoundForm, Ruleset
from referee.scoring import winner_takes_hands

NO_ENDING = define_message(
    "round.no_ending.remi",
    "the round does not say how it ended: mark the turn in which a hand became empty "
    '"out": true, or give "out" with the winner, or "end": "blocked" or "void"',
)


RULESET = Ruleset(
    id="remi",
    name=define_text("ruleset.remi.name", "Remi"),
    description=define_text(
        "ruleset.remi.description",
        "Indonesian house Remi: lay off onto anyone's melds, the winner takes the "
        "losers' hands, x2 for going out all at once",
    ),
    min_players=2,
    max_players=4,
    deal_sizes={2: 10, 3: 7, 4: 7},
    target=100,
    target_presets=(50, 200),
    round_form=RoundForm((OUT, BLOCKED, VOID), at_once=True),
    hand_never_grows=True,
    taken_discard_not_last=True,
    bonuses=Bonuses(at_once_factor=2),
    score_round=winner_takes_hands,
    no_ending_message=NO_ENDING,
    menu_order=1,
)
