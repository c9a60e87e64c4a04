"""Phase 10 as a match of the engine: the phases it carries from hand to hand are made again
from the rounds, so a state kept as facts (as the app keeps it) goes on exactly as the match
replayed whole.  Figures by hand from RULES.md (phase10), as in the scenario
``phase10-only-makers-advance``: after hands 1 and 3 (hand 2 void), Budi has completed
phase 1, Siti phases 1 and 2, Andi phase 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.errors import RefereeError
from referee.match import MatchState, replay

SCENARIO = Path(__file__).parent / "scenarios" / "phase10-only-makers-advance.json"
TEN = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10"]


def test_a_state_kept_as_facts_carries_the_phases_on():
    state = replay(SCENARIO.read_text(encoding="utf-8"))
    kept = MatchState.from_facts(state.header, json.loads(json.dumps(state.facts())))
    assert kept.carried.state.done == state.carried.state.done
    # Hand 4: Andi is on phase 2, so his phase 2 is accepted; Siti's phase 2 again is not.
    fourth = {"out": "Andi", "made": {"Andi": 2}, "hands": {"Budi": TEN, "Siti": TEN}}
    after = kept.play(fourth)
    assert dict(after.carried.state.done) == {"Budi": (1,), "Siti": (1, 2), "Andi": (1, 2)}
    assert after.totals == {"Budi": 110, "Siti": 65, "Andi": 95}
    with pytest.raises(RefereeError, match="Siti has already completed phase 2"):
        kept.play({"out": "Siti", "made": {"Siti": 2}, "hands": {"Budi": TEN, "Andi": TEN}})


def test_a_void_hand_moves_nobody_on():
    state = replay(SCENARIO.read_text(encoding="utf-8"))
    voided = state.play({"end": "void"})
    assert voided.carried.state.done == state.carried.state.done
    assert voided.next_dealer == state.next_dealer
