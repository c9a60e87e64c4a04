"""Hypothesis strategies shared by the engine's property tests: a round entered by its final
table, built from the answers its ruleset's round form asks for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from referee.cards import standard_deck
from referee.rulesets import RULESETS, FinalTable
from referee.scoring import Ending

DECK = [str(card) for card in standard_deck()]


@st.composite
def final_table_entry(
    draw: st.DrawFn,
    rules_id: str,
    players: Sequence[str],
    *,
    counted_hands: bool = False,
    table_melds: Sequence[Sequence[str]] = (),
) -> dict[str, Any]:
    """A round of ``rules_id`` as its form enters it: an ending that shows the hands, one to
    four cards (or the game's own pieces) a hand (with ``counted_hands``, now and then a number: what the hand counts,
    not checked), the hand of whoever went out empty, a meld of three for some players where
    the form asks for their melds, and up to two of ``table_melds`` on the table where the
    ruleset keeps one (their cards in no hand)."""
    rules = RULESETS[rules_id]
    form = rules.round_form
    deck = list(rules.pieces.full_set) if rules.pieces and rules.pieces.full_set else DECK
    choice = draw(st.sampled_from([c for c in form.endings if c.hands]))
    on_table: list[int] = []
    if table_melds:
        on_table = draw(st.lists(st.sampled_from(range(len(table_melds))), unique=True, max_size=2))
    laid = {card for index in on_table for card in table_melds[index]}
    cards = draw(st.permutations([card for card in deck if card not in laid]))
    hands: dict[str, Any] = {}
    start = 0
    for player in players:
        if counted_hands and draw(st.integers(0, 3)) == 0:
            hands[player] = draw(st.integers(0, 60))
        else:
            size = draw(st.integers(1, 4))
            hands[player] = cards[start : start + size]
            start += size
    winner = draw(st.sampled_from(players)) if choice.names else None
    if winner is not None and choice.ending is Ending.OUT:
        hands[winner] = []
    melds = {}
    if form.player_melds:
        for player in players:
            if draw(st.booleans()):
                melds[player] = [cards[start : start + 3]]
                start += 3
    table = [{"by": draw(st.sampled_from(players)), "cards": table_melds[i]} for i in on_table]
    answers = FinalTable(
        choice.key,
        winner,
        hands,
        at_once=draw(st.booleans()),
        closing_card=cards[start],
        melds=melds,
        table=tuple(table) if form.table else (),
    )
    return form.entry(answers)
