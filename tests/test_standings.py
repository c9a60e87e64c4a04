"""What a replayed match answers: standings in the game's order, the score sheet's rows, the
dealer after a rejoin, a pool left to one player.  Every expectation is derived by hand from
RULES.md (the arithmetic is in the comments)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from referee.cards import Card
from referee.errors import RefereeError
from referee.match import replay
from referee.rulesets import Knock
from referee.standings import BonusRow, RejoinRow, RoundRow, SeatingRow


def places(doc: dict[str, Any]) -> list[tuple[int, str, int]]:
    return [(s.place, s.player, s.total) for s in replay(doc).standings()]


def show(winner: str, **counts: int) -> dict[str, Any]:
    return {"cut": "3C", "show": winner, "hands": counts}


def pool(rounds: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "rules": "indian",
        "players": ["Siti", "Andi", "Budi"],
        "first_dealer": "Siti",
        "rounds": rounds,
        **extra,
    }


# Pool 101, Siti deals first.  D1: Budi shows; Siti 25, Andi 60.  D2 (Andi): Siti shows;
# Andi 60 + 59 = 119, out; Budi 0 + 46 = 46.  D3 (Budi, Andi skipped): Budi shows; Siti
# 25 + 20 = 45.  D4 (Siti): Siti shows; Budi 46 + 60 = 106, out: Siti is the last one left.
POOL_WITHOUT_REJOIN = [
    show("Budi", Siti=25, Andi=60),
    show("Siti", Andi=59, Budi=46),
    show("Budi", Siti=20),
    show("Siti", Budi=60),
]


def test_pool_ranks_by_elimination_the_last_one_out_before_the_first() -> None:
    # Budi went out last (after deal 4) with 106, Andi first (after deal 2) with 119.
    assert places(pool(POOL_WITHOUT_REJOIN)) == [
        (1, "Siti", 45),
        (2, "Budi", 106),
        (3, "Andi", 119),
    ]
    state = replay(pool(POOL_WITHOUT_REJOIN))
    assert [s.out_after for s in state.standings()] == [None, 4, 2]
    assert state.winners == ("Siti",)


def test_pool_leader_is_the_lowest_total_still_in_never_a_player_out() -> None:
    # After deal 2: Siti 25, Budi 46 are in; Andi 119 is out.
    state = replay(pool(POOL_WITHOUT_REJOIN[:2]))
    assert state.leaders == ("Siti",)
    assert places(pool(POOL_WITHOUT_REJOIN[:2])) == [
        (1, "Siti", 25),
        (2, "Budi", 46),
        (3, "Andi", 119),
    ]


# The same pool with Andi back before deal 3: still in are Siti 25 and Budi 46, none above
# 79, so Andi comes back at 46 + 1 = 47; the deal moves on from Andi as if he were in: Budi.
# D3: Budi shows; Siti 45, Andi 47 + 60 = 107, out again.  D4 (Siti, Andi skipped): Siti
# shows; Budi 106, out.  Andi went out after deal 3, Budi after deal 4.
POOL_WITH_REJOIN = [
    show("Budi", Siti=25, Andi=60),
    show("Siti", Andi=59, Budi=46),
    {"rejoin": ["Andi"], **show("Budi", Siti=20, Andi=60)},
    show("Siti", Budi=60),
]


def test_pool_with_a_rejoin_ranks_by_the_last_going_out() -> None:
    state = replay(pool(POOL_WITH_REJOIN))
    assert [r.dealer for r in state.rounds] == ["Siti", "Andi", "Budi", "Siti"]
    assert places(pool(POOL_WITH_REJOIN)) == [(1, "Siti", 45), (2, "Budi", 106), (3, "Andi", 107)]


def test_a_rejoin_is_a_row_of_its_own_not_a_match_end_bonus() -> None:
    rows = replay(pool(POOL_WITH_REJOIN)).sheet_rows()
    assert [row.kind for row in rows] == ["round", "round", "rejoin", "round", "round"]
    rejoin = rows[2]
    assert isinstance(rejoin, RejoinRow)
    assert (rejoin.before_round, dict(rejoin.running)) == (3, {"Andi": 47})
    third = rows[3]
    assert isinstance(third, RoundRow)
    assert dict(third.running) == {"Siti": 45, "Andi": 107, "Budi": 46}
    assert not any(isinstance(row, BonusRow) for row in rows)


def test_cli_replay_prints_a_line_for_the_rejoin(tmp_path: Any) -> None:
    import json

    path = tmp_path / "pool.json"
    path.write_text(json.dumps(pool(POOL_WITH_REJOIN)))
    out = subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.splitlines()
    rejoin = next(line for line in lines if "rejoin" in line)
    assert "back at 47" in rejoin
    assert "+60 = 107" in out  # Andi's deal 3 from 47, not from 119
    assert "bonus" not in out
    assert (
        "Standings: 1. Siti 45, 2. Budi 106 (out after round 4), 3. Andi 107 (out after round 3)."
        in lines
    )


def test_the_dealer_after_a_rejoin_counts_the_player_back_in() -> None:
    # Budi deals first (seating Siti, Andi, Budi).  D1 (Budi): Siti shows; Andi 60.  D2
    # (Siti): Budi shows; Andi 60 + 50 = 110, out.  Without Andi the deal passes from Siti to
    # Budi; with Andi back it passes to Andi, at Siti's left.
    doc = pool([show("Siti", Andi=60, Budi=10), show("Budi", Andi=50, Siti=10)])
    doc["first_dealer"] = "Budi"
    state = replay(doc)
    assert state.next_dealer == "Budi"
    assert state.rejoin_total("Andi") == 11  # the highest still in (Budi 10, Siti 10) + 1
    assert state.dealer_after_rejoin(["Andi"]) == "Andi"
    assert state.dealer_after_rejoin([]) == "Budi"


def test_pool_last_dealer_leaves_and_a_player_out_rejoins() -> None:
    # Four players, Budi deals first.  D1 (Budi): Dewi shows wrongly 80, Andi and Siti drop
    # first 20.  D2 (Siti): Dewi drops midway 40 (120, out), Andi and Siti drop first (40).
    # Siti, who dealt last, leaves before deal 3, and Dewi rejoins at 40 + 1 = 41.  The deal
    # goes on from Siti's seat: to the first player who stays after her, Andi.
    doc = {
        "rules": "indian",
        "players": ["Budi", "Siti", "Andi", "Dewi"],
        "first_dealer": "Budi",
        "seating_changes": [{"before_round": 3, "players": ["Budi", "Andi", "Dewi"]}],
        "rounds": [
            {"cut": "5H", "wrong_shows": ["Dewi"], "drops": {"Andi": "first", "Siti": "first"}},
            {"cut": "9S", "drops": {"Dewi": "middle", "Andi": "first", "Siti": "first"}},
            {"rejoin": ["Dewi"], "cut": "KD", "drops": {"Budi": "first", "Dewi": "first"}},
        ],
    }
    state = replay(doc)
    assert state.rounds[2].dealer == "Andi"
    assert dict(state.totals) == {"Budi": 20, "Siti": 40, "Andi": 40, "Dewi": 61}
    assert [row.kind for row in state.sheet_rows()] == [
        "round",
        "round",
        "seating",
        "rejoin",
        "round",
    ]


def test_pool_ends_when_a_departure_leaves_one_player() -> None:
    # D1 (Siti): Siti shows; Andi 60.  D2 (Andi): Siti shows; Andi 110, out.  Budi leaves
    # before deal 3: Siti is the only player left in the pool, who wins; Andi may not rejoin
    # and no deal is scored.
    rounds = [show("Siti", Andi=60, Budi=10), show("Siti", Andi=50, Budi=10)]
    doc = pool(rounds, seating_changes=[{"before_round": 3, "players": ["Siti", "Andi"]}])
    state = replay(doc)
    assert state.finished
    assert state.winners == ("Siti",)
    assert state.next_dealer is None
    assert state.rejoin_total("Andi") is None
    assert [(s.place, s.player) for s in state.standings()] == [
        (1, "Siti"),
        (2, "Budi"),  # left before deal 3, after Andi went out in deal 2
        (3, "Andi"),
    ]
    doc["rounds"].append({"rejoin": ["Andi"], **show("Siti", Andi=10)})
    with pytest.raises(RefereeError, match="already over"):
        replay(doc)


# Contract, seven deals given as points (contract-seven-deals-shared-win.json's match with
# Andi's deal 7 at 25): Budi 58, Siti 52, Andi 62.  Lowest wins: Siti, then Budi, then Andi.
CONTRACT_DEALS = [
    {"out": "Siti", "hands": {"Budi": 10, "Andi": 20}},
    {"out": "Andi", "hands": {"Budi": 5, "Siti": 25}},
    {"out": "Budi", "hands": {"Siti": 4, "Andi": 3}},
    {"out": "Siti", "hands": {"Budi": 30, "Andi": 2}},
    {"out": "Andi", "hands": {"Budi": 6, "Siti": 8}},
    {"out": "Siti", "hands": {"Budi": 7, "Andi": 12}},
    {"out": "Budi", "hands": {"Siti": 15, "Andi": 25}},
]


def contract(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {"rules": "contract", "players": ["Budi", "Siti", "Andi"], "rounds": rounds}


def test_contract_ranks_the_lowest_total_first() -> None:
    # Budi 10+5+0+30+6+7+0 = 58; Siti 0+25+4+0+8+0+15 = 52; Andi 20+0+3+2+0+12+25 = 62.
    assert places(contract(CONTRACT_DEALS)) == [(1, "Siti", 52), (2, "Budi", 58), (3, "Andi", 62)]


def test_contract_leader_has_the_lowest_total() -> None:
    # After deal 2: Budi 15, Siti 25, Andi 20.
    assert replay(contract(CONTRACT_DEALS[:2])).leaders == ("Budi",)


def test_contract_late_player_starts_at_the_highest_total() -> None:
    # After deal 1: Budi 10, Siti 0, Andi 20.  Dewi joins before deal 2 at the least
    # favourable total, the highest: 20.
    doc = contract(CONTRACT_DEALS[:1])
    doc["seating_changes"] = [{"before_round": 2, "players": ["Budi", "Siti", "Andi", "Dewi"]}]
    state = replay(doc)
    assert state.totals["Dewi"] == 20
    assert [row.kind for row in state.sheet_rows()] == ["round", "seating"]


def test_shared_places_for_equal_totals() -> None:
    # Seven deals of contract-seven-deals-shared-win: Siti and Andi 52 share the win; Budi 58.
    rounds = [*CONTRACT_DEALS[:6], {"out": "Budi", "hands": {"Siti": 15, "Andi": 15}}]
    assert places(contract(rounds)) == [(1, "Siti", 52), (1, "Andi", 52), (3, "Budi", 58)]


def test_rules_of_round_follow_the_deals_counted() -> None:
    # Round 2 voided: round 3 is deal 2, one set and one run.
    state = replay(contract([CONTRACT_DEALS[0], {"end": "void"}]))
    contract_of = state.rules_of_round(3).contract
    assert contract_of is not None
    assert (contract_of.deal, contract_of.sets, contract_of.runs) == (2, 1, 1)


def test_rows_end_at_the_totals_with_the_match_end_bonuses() -> None:
    # manipulation-match-end-bonuses.json: the bonus row's running totals are the totals.
    import json
    from pathlib import Path

    path = Path(__file__).parent / "scenarios" / "manipulation-match-end-bonuses.json"
    state = replay(json.loads(path.read_text()))
    rows = state.sheet_rows()
    last = rows[-1]
    assert isinstance(last, BonusRow)
    assert {p: last.running[p] for p in last.bonuses} == {p: state.totals[p] for p in last.bonuses}
    assert not any(isinstance(row, (SeatingRow, RejoinRow)) for row in rows)


def test_a_player_out_of_the_pool_who_then_leaves_went_out_when_eliminated() -> None:
    # Four players, Siti deals first.  D1 (Siti): Andi shows wrongly (80), Budi and Dewi drop
    # first (20).  D2 (Andi): Andi drops midway (120, out), Budi first (40), Dewi first (40).
    # Andi leaves before deal 3.  D3 (Budi): Dewi shows wrongly (120, out), Budi drops midway
    # (80): Siti 0 and Budi 80 are still in.  Dewi went out after deal 3, Andi after deal 2
    # (his leaving later does not make him go out later).
    doc = {
        "rules": "indian",
        "players": ["Siti", "Andi", "Budi", "Dewi"],
        "first_dealer": "Siti",
        "seating_changes": [{"before_round": 3, "players": ["Siti", "Budi", "Dewi"]}],
        "rounds": [
            {"cut": "5H", "wrong_shows": ["Andi"], "drops": {"Budi": "first", "Dewi": "first"}},
            {"cut": "9S", "drops": {"Andi": "middle", "Budi": "first", "Dewi": "first"}},
            {"cut": "KD", "wrong_shows": ["Dewi"], "drops": {"Budi": "middle"}},
        ],
    }
    state = replay(doc)
    assert state.leaders == ("Siti",)
    assert [(s.place, s.player, s.total, s.out_after) for s in state.standings()] == [
        (1, "Siti", 0, None),
        (2, "Budi", 80, None),
        (3, "Dewi", 120, 3),
        (4, "Andi", 120, 2),
    ]


def test_after_a_void_deal_the_same_dealer_deals_again_with_the_player_who_rejoined() -> None:
    # Budi deals first (Siti, Andi, Budi).  D1 (Budi): Siti shows; Andi 60, Budi 10.  D2
    # (Siti): Budi shows; Andi 110, out; Siti 10.  Budi deals next (Andi skipped); that deal is
    # voided.  Andi rejoins before the deal played again: Budi deals it again (RULES.md: a void
    # changes no dealer), Andi dealt in at 10 + 1 = 11.
    rounds = [
        show("Siti", Andi=60, Budi=10),
        show("Budi", Andi=50, Siti=10),
        {"end": "void"},
        {"rejoin": ["Andi"], **show("Andi", Siti=20, Budi=30)},
    ]
    doc = pool(rounds)
    doc["first_dealer"] = "Budi"
    state = replay(doc)
    assert [r.dealer for r in state.rounds] == ["Budi", "Siti", "Budi", "Budi"]
    assert dict(state.totals) == {"Siti": 30, "Andi": 11, "Budi": 40}


def test_rules_of_round_with_an_oklahoma_upcard_set_the_knock_limit() -> None:
    # RULES.md: the upcard's value is the round's knock limit (2-9 face value, 10 J Q K 10).
    state = replay({"rules": "gin", "options": {"oklahoma": True}, "players": ["Budi", "Siti"]})
    assert state.rules_of_round(1, {"upcard": Card.parse("7H")}).knock == Knock(7)
    assert state.rules_of_round(1, {"upcard": Card.parse("QD")}).knock == Knock(10)
