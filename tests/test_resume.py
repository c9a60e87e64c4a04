"""A replayed state kept as its facts goes on exactly as the whole match replayed
(``MatchState.facts`` / ``MatchState.from_facts``: what the web app keeps with a match's
summary so that a save plays only the new round)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.match import MatchState, replay
from referee.matchfile import read_header

NAMES = ["Budi", "Siti", "Andi", "Dewi"]
CARDS = ["2C", "3D", "4H", "5S", "9C", "10D", "JH", "QS", "KC", "AH"]


def kept(state: MatchState) -> dict[str, Any]:
    """The facts as the app stores them: through JSON text."""
    return json.loads(json.dumps(state.facts()))


def without_detail(replayed: dict[str, Any]) -> dict[str, Any]:
    """``to_json`` without what only the detail of a round gives (``unchecked``)."""
    for result in replayed["rounds"]:
        result.pop("unchecked", None)
    return replayed


def check_every_prefix(doc: dict[str, Any], candidates: list[dict[str, Any]]) -> int:
    """Play the candidate rounds the engine takes, one by one; before each, the match so far
    is replayed and kept as its facts, and the state made again from them and given the
    round equals the whole document replayed.  The document has the seating changes made
    so far (at most before the next round, as stored).  Returns how many rounds were played."""
    played: list[dict[str, Any]] = []
    for candidate in candidates:
        number = len(played) + 1
        changes = [c for c in doc.get("seating_changes", []) if c["before_round"] <= number]
        so_far = doc | {"seating_changes": changes, "rounds": played}
        try:
            header = read_header(so_far)
            before = replay(so_far)
        except RefereeError:  # a seating change the match file does not allow
            return len(played)
        try:
            whole = replay(so_far | {"rounds": [*played, candidate]})
        except RefereeError as refusal:
            # The kept state refuses it too, at the same round.
            try:
                MatchState.from_facts(header, kept(before)).play(candidate)
            except RefereeError as error:
                assert error.round == refusal.round == number
            else:
                raise AssertionError("the kept state took a round the replay refuses") from None
            continue
        resumed = MatchState.from_facts(header, kept(before)).play(candidate)
        assert resumed.facts() == whole.facts()
        assert without_detail(resumed.to_json()) == without_detail(whole.to_json())
        assert resumed.players == whole.players and resumed.everyone == whole.everyone
        assert resumed.next_deal == whole.next_deal
        played.append(candidate)
    return len(played)


@st.composite
def remi_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A remi round: someone goes out (the others hold a few cards), or a void round."""
    if draw(st.integers(0, 5)) == 0:
        return {"end": "void"}
    out = draw(st.sampled_from(NAMES))
    cards = draw(st.permutations(CARDS))
    hands = {name: cards[2 * i : 2 * i + draw(st.integers(1, 2))] for i, name in enumerate(NAMES)}
    hands.pop(out)
    return {"out": out, "hands": hands, **({"at_once": True} if draw(st.booleans()) else {})}


@st.composite
def seating_changes(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Up to two changes of seating: Dewi joins, someone leaves, the order changes."""
    changes = []
    for before_round in sorted(draw(st.sets(st.integers(2, 9), max_size=2))):
        seated = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True))
        changes.append({"before_round": before_round, "players": seated})
    return changes


@settings(max_examples=15)
@given(
    rounds=st.lists(remi_rounds(), min_size=1, max_size=12),
    changes=seating_changes(),
    target=st.sampled_from([50, 100, 1000]),
)
def test_remi_goes_on_from_its_facts_as_the_whole_replay(
    rounds: list[dict[str, Any]], changes: list[dict[str, Any]], target: int
) -> None:
    doc = {
        "rules": "remi",
        "options": {"target": target},
        "players": NAMES[:3],
        "first_dealer": "Siti",
        "seating_changes": changes,
    }
    check_every_prefix(doc, rounds)


@st.composite
def indian_deals(draw: st.DrawFn) -> dict[str, Any]:
    """A deal of indian rummy in a pool: someone shows (not checked), the others' counts as
    numbers; sometimes a player out of the pool asks to come back."""
    shower = draw(st.sampled_from(NAMES[:3]))
    hands = {name: draw(st.integers(2, 80)) for name in NAMES[:3] if name != shower}
    deal: dict[str, Any] = {"cut": "3C", "show": shower, "hands": hands}
    if draw(st.integers(0, 3)) == 0:
        deal["rejoin"] = [draw(st.sampled_from(NAMES[:3]))]
    return deal


@settings(max_examples=15)
@given(deals=st.lists(indian_deals(), min_size=1, max_size=10))
def test_an_indian_pool_with_rejoins_goes_on_from_its_facts(deals: list[dict[str, Any]]) -> None:
    doc = {"rules": "indian", "options": {}, "players": NAMES[:3], "first_dealer": "Budi"}
    check_every_prefix(doc, deals)


def test_a_pool_where_a_player_comes_back_is_checked_from_its_facts() -> None:
    # After two deals Siti is out of the pool (80 + 30 = 110 over 101) and comes back:
    # the same figures as tests/test_indian_match.py's rejoin (61, then +2).
    deals = [
        {"cut": "3C", "show": "Budi", "hands": {"Siti": 80, "Andi": 10}},
        {"cut": "3C", "show": "Budi", "hands": {"Siti": 30, "Andi": 50}},
        {"rejoin": ["Siti"], "cut": "3C", "show": "Budi", "hands": {"Siti": 2, "Andi": 3}},
    ]
    doc = {"rules": "indian", "options": {}, "players": NAMES[:3], "first_dealer": "Budi"}
    assert check_every_prefix(doc, deals) == 3
    resumed = MatchState.from_facts(read_header(doc), kept(replay(doc | {"rounds": deals})))
    assert resumed.rejoins[0].total == 61
    assert resumed.totals == {"Budi": 0, "Siti": 63, "Andi": 63}


def test_a_stopped_match_stays_over_from_its_facts() -> None:
    doc = {"rules": "remi", "players": NAMES[:2], "first_dealer": "Budi", "rounds": []}
    state = replay(doc | {"rounds": [{"out": "Siti", "hands": {"Budi": ["10H", "QS"]}}]})
    finished = MatchState.from_facts(read_header(doc), kept(state.stop()))
    assert finished.finished and finished.winners == ("Siti",) and finished.next_dealer is None
    try:
        finished.play({"out": "Budi", "hands": {"Siti": ["2C"]}})
    except RefereeError as error:
        assert error.round == 2
    else:
        raise AssertionError("a finished match took another round")
