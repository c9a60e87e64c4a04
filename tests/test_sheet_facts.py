"""What a score sheet shows of a round survives its kept facts (``RoundResult.facts`` under
``sheet``, ``RoundResult.from_facts``): a state made again from the facts of a replay has,
in every round, the number, dealer, outcome, winners and scores, the notes and what was not
checked (``Reason`` values, nested ones too), the hands given as points, the table and hand
values of the replay itself, for every scenario of every ruleset and on generated matches
with hands given as points and seating changes.  Facts kept before they held the sheet (or
holding a message this engine does not know) are read as a state without that detail,
never as an error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from round_strategies import final_table_entry

from referee.errors import RefereeError
from referee.match import Detail, MatchState, RoundResult, facts_agree, replay
from referee.matchfile import read_header
from referee.messages import Reason
from referee.rulesets import RULESETS

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
NAMES = ["Budi", "Siti", "Andi", "Dewi"]
# Melds any ruleset with a table takes (rummy500, contract): kept out of the dealt hands.
MELDS = [["7S", "8S", "9S"], ["4H", "4D", "4C"], ["JC", "QC", "KC"], ["2D", "3D", "4D"]]
# What the score sheet (show/scoresheet.py and its templates) reads of a round.
ON_THE_SHEET = (
    *("number", "dealer", "outcome", "at_once", "winners", "scores"),
    *("notes", "unchecked", "points", "table_values", "hand_values"),
)


def on_the_sheet(result: RoundResult) -> dict[str, Any]:
    return {name: getattr(result, name) for name in ON_THE_SHEET}


def kept(state: MatchState) -> dict[str, Any]:
    """The facts as the app stores them: through JSON text."""
    return json.loads(json.dumps(state.facts()))


def assert_kept_as_replayed(document: dict[str, Any], state: MatchState) -> MatchState:
    """The state made again from the facts of ``state`` (the replay of ``document``) shows
    every round as the replay does, and keeps the same facts again."""
    resumed = MatchState.from_facts(read_header(document), kept(state))
    assert resumed.detail is (Detail.SHEET if state.rounds else Detail.FULL)
    assert [on_the_sheet(result) for result in resumed.rounds] == [
        on_the_sheet(result) for result in state.rounds
    ]
    assert [[note.text for note in result.notes] for result in resumed.rounds] == [
        [note.text for note in result.notes] for result in state.rounds
    ]
    assert resumed.reseatings == state.reseatings and resumed.everyone == state.everyone
    assert resumed.facts() == state.facts()
    return resumed


def legal_scenarios() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(SCENARIOS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        if "error" not in expected:
            found.append((path.stem, json.loads(path.read_text())))
    return found


def test_every_legal_scenario_shows_on_the_sheet_as_replayed_from_its_facts() -> None:
    seen: dict[str, set[str]] = {name: set() for name in RULESETS}
    for _name, document in legal_scenarios():
        state = replay(document)
        assert_kept_as_replayed(document, state)
        shown = seen[state.rules.id]
        if state.rounds:
            shown.add("round")
        for result in state.rounds:
            for field in ("notes", "unchecked", "points", "table_values"):
                if getattr(result, field):
                    shown.add(field)
            if any(isinstance(v, Reason) for note in result.notes for v in note.params.values()):
                shown.add("nested reason")
        if state.reseatings:
            shown.add("seating change")
    # The scenarios reach every ruleset and every part of the sheet that facts must carry.
    # (A game whose rounds carry no notes, as Three Thirteen's, shows its unchecked hands.)
    assert all("round" in shown and {"notes", "unchecked"} & shown for shown in seen.values()), seen
    everywhere = set().union(*seen.values())
    assert {"unchecked", "points", "table_values", "seating change"} <= everywhere, everywhere
    assert "table_values" in seen["rummy500"]


# -- generated matches -------------------------------------------------------------------------


@st.composite
def final_table_round(draw: st.DrawFn, rules_id: str, players: list[str]) -> dict[str, Any]:
    """A round of ``rules_id`` entered by its final table as its form asks, some hands given as
    what they count (not checked), melds on the table where the ruleset keeps them."""
    if rules_id == "indian":  # a show not checked, the others' counts as numbers
        shower = draw(st.sampled_from(players))
        counts = {name: draw(st.integers(2, 80)) for name in players if name != shower}
        return {"cut": "3C", "show": shower, "hands": counts}
    return draw(final_table_entry(rules_id, players, counted_hands=True, table_melds=MELDS))


@st.composite
def generated_matches(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A match header of any ruleset (seating changes where it allows them) and rounds to try."""
    rules = RULESETS[draw(st.sampled_from(list(RULESETS)))]
    count = draw(st.integers(rules.min_players, min(rules.max_players, 3)))
    players = NAMES[:count]
    document: dict[str, Any] = {"rules": rules.id, "players": players, "first_dealer": players[0]}
    if rules.seating_may_change and rules.max_players >= 3:
        changes = []
        for before_round in sorted(draw(st.sets(st.integers(2, 4), max_size=2))):
            seated = draw(
                st.lists(
                    st.sampled_from(NAMES),
                    min_size=rules.min_players,
                    max_size=min(4, rules.max_players),
                    unique=True,
                )
            )
            changes.append({"before_round": before_round, "players": seated})
        document["seating_changes"] = changes
    candidates = [draw(final_table_round(rules.id, NAMES)) for _ in range(draw(st.integers(2, 8)))]
    return document, candidates


def seated_round(candidate: dict[str, Any], seated: tuple[str, ...]) -> dict[str, Any]:
    """A generated round (made for every name) for the players seated in it."""
    out = dict(candidate)
    if isinstance(out.get("hands"), dict):
        out["hands"] = {name: hand for name, hand in out["hands"].items() if name in seated}
    for key in ("out", "knock", "closer", "show"):
        if key in out and out[key] not in seated:
            out[key] = seated[-1]
            if isinstance(out.get("hands"), dict):
                out["hands"].pop(seated[-1], None)
    if isinstance(out.get("melds"), dict):
        out["melds"] = {name: m for name, m in out["melds"].items() if name in seated}
    if isinstance(out.get("table"), list):
        out["table"] = [dict(meld, by=seated[0]) for meld in out["table"]]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generated_matches())
def test_generated_matches_show_on_the_sheet_as_replayed_from_their_facts(match: Any) -> None:
    """Round by round, with the seating changes made so far (a stored match has none after
    its next round); a change or a round the engine refuses is left out."""
    document, candidates = match
    changes, played = document.pop("seating_changes", []), []
    state = replay(document | {"rounds": []})
    for candidate in candidates:
        number = len(played) + 1
        made = [change for change in changes if change["before_round"] <= number]
        try:
            before = replay(document | {"seating_changes": made, "rounds": played})
        except RefereeError:  # a change this game does not take: left out
            changes = [change for change in changes if change["before_round"] < number]
            made = [change for change in changes if change["before_round"] <= number]
            before = replay(document | {"seating_changes": made, "rounds": played})
        so_far = document | {"seating_changes": made}
        entry = seated_round(candidate, before.players)
        try:
            whole = replay(so_far | {"rounds": [*played, entry]})
        except RefereeError:
            continue
        # The state kept before this round, made again and given it: what a save keeps.
        resumed = MatchState.from_facts(read_header(so_far), kept(before)).play(entry)
        assert resumed.facts() == whole.facts()
        played.append(entry)
        state = assert_kept_as_replayed(so_far, whole)
    assert len(state.rounds) == len(played)


# -- reasons and older facts -------------------------------------------------------------------


def test_a_reason_with_nested_reasons_lists_and_tuples_comes_back_equal() -> None:
    inner = Reason.of("word.nobody")
    reason = Reason.of(
        "match.over",
        last=12,
        winners=Reason.of("word.list", first="Budi", rest=inner),
    )
    assert Reason.from_facts(json.loads(json.dumps(reason.facts()))) == reason
    listed = Reason("word.list", {"first": [inner, inner], "rest": (inner, "Siti", 3, True)})
    back = Reason.from_facts(json.loads(json.dumps(listed.facts())))
    assert back == listed and type(back.params["first"]) is list
    assert type(back.params["rest"]) is tuple


def scored_round() -> tuple[dict[str, Any], MatchState]:
    # Siti goes out; Budi holds 10H QS (10 + 10 = 20): Siti 20, one note saying so.
    document = {"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"}
    return document, replay(
        document | {"rounds": [{"out": "Siti", "hands": {"Budi": ["10H", "QS"]}}]}
    )


def test_facts_kept_before_the_sheet_are_read_without_detail() -> None:
    document, state = scored_round()
    older = kept(state)
    for result in older["rounds"]:
        del result["sheet"]
    resumed = MatchState.from_facts(read_header(document), older)
    assert resumed.detail is Detail.FACTS and resumed.rounds[0].notes == ()
    assert resumed.rounds[0].scores == {"Budi": 0, "Siti": 20}
    assert resumed.facts() == older  # and kept as they were: no sheet made up
    # history check takes them as the replay's, with less detail; a wrong score is not.
    assert facts_agree(older, kept(state)) and not facts_agree(kept(state), older)
    older["rounds"][0]["scores"]["Siti"] = 21
    assert not facts_agree(older, kept(state))


def test_a_message_this_engine_does_not_know_is_read_without_detail() -> None:
    document, state = scored_round()
    facts = kept(state)
    facts["rounds"][0]["sheet"]["notes"][0]["key"] = "score.retired_message"
    resumed = MatchState.from_facts(read_header(document), facts)
    assert resumed.detail is Detail.FACTS and resumed.totals == {"Budi": 0, "Siti": 20}


def test_a_note_json_cannot_carry_leaves_the_round_without_sheet_facts() -> None:
    document, state = scored_round()
    (result,) = state.rounds
    odd = RoundResult(
        result.number,
        result.dealer,
        result.outcome,
        result.winners,
        result.scores,
        notes=(Reason("word.nobody", {"when": object()}),),
    )
    assert "sheet" not in odd.facts()
    assert RoundResult.from_facts(json.loads(json.dumps(odd.facts()))).detail is Detail.FACTS


@pytest.mark.parametrize("cut", ["notes", "unchecked", "points", "hand_values"])
def test_sheet_facts_of_the_wrong_shape_are_read_without_detail(cut: str) -> None:
    document, state = scored_round()
    facts = kept(state)
    facts["rounds"][0]["sheet"][cut] = 7
    resumed = MatchState.from_facts(read_header(document), facts)
    assert resumed.detail is Detail.FACTS
