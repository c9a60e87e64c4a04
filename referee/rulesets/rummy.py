"""``rummy`` (seed 002): Basic Rummy for 2-6 players.

Options: ``target`` (default 150) or ``hands`` = N rounds; ``ace`` = ``low``
or ``high-low`` (every ace then worth 15); ``must_discard``.  The winner takes
the other hands, doubled for going rummy; no blocked rounds.
"""

from __future__ import annotations

from referee.messages import define_message, define_text
from referee.rulesets.base import OUT, VOID, Bonuses, RoundForm, Ruleset
from referee.scoring import winner_takes_hands

NO_ENDING = define_message(
    "round.no_ending.rummy",
    "the round does not say how it ended: mark the turn in which a hand became empty "
    '"out": true, or give "out" with the winner, or "end": "void"',
)


RULESET = Ruleset(
    id="rummy",
    name=define_text("ruleset.rummy.name", "Rummy"),
    description=define_text(
        "ruleset.rummy.description",
        "Basic Rummy for 2-6 players, with the ace-high and must-discard variants",
    ),
    min_players=2,
    max_players=6,
    deal_sizes={2: 10, 3: 7, 4: 7, 5: 6, 6: 6},
    target=150,
    target_presets=(100, 200),
    high_ace_value=15,
    options=("target", "hands", "ace", "must_discard"),
    round_form=RoundForm((OUT, VOID), at_once=True),
    hand_never_grows=True,
    bonuses=Bonuses(at_once_factor=2),
    at_once_outcome="rummy",
    score_round=winner_takes_hands,
    no_ending_message=NO_ENDING,
    menu_order=2,
)
