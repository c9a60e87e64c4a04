"""A sixth ruleset is one module: a toy game registered here (in the tests only) goes
through the engine and the command line with nothing else changed.

The toy, "Toy Rummy": 2-3 players, 5 cards each, one deck, aces low, lay-offs onto
anyone's melds; the winner takes the cards left in the other hands, x3 for going out
all at once; the round's winner deals the next round (a blocked round keeps the
dealer); first to 50 wins.  Its texts are plain English: a ruleset needs to register
nothing for translation (the web layer shows an unknown text as it is).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.errors import RuleError
from referee.match import live_round, replay
from referee.rulesets import (
    BLOCKED,
    OUT,
    RULESETS,
    VOID,
    AtOnce,
    FinalTable,
    HandSize,
    MatchProgress,
    RoundForm,
    Ruleset,
    find_ruleset,
    registered_ruleset,
)
from referee.scoring import Outcome, winner_takes_hands


def winner_deals(rules: Ruleset, progress: MatchProgress) -> str:
    """The round's winner deals the next; a round without a winner keeps the dealer."""
    return progress.last.winners[0] if progress.last.winners else progress.dealer


TOY = Ruleset(
    id="toy",
    name="Toy Rummy",
    description="Five cards each, x3 for going out all at once, the winner deals",
    min_players=2,
    max_players=3,
    deal_sizes={2: 5, 3: 5},
    target=50,
    target_presets=(30, 100),
    round_form=RoundForm((OUT, BLOCKED, VOID), at_once=True),
    hand_size=HandSize(never_grows=True),
    at_once=AtOnce(factor=3),
    score_round=winner_takes_hands,
    next_dealer=winner_deals,
    menu_order=50,
)


@pytest.fixture
def toy() -> Iterator[Ruleset]:
    with registered_ruleset(TOY) as rules:
        yield rules


# Round 1, dealt by Ana, Ben leads.  Ana melds 4H 4D 4C and discards KC (5 + 1 - 3 - 1 =
# 2 cards left).  Ben, with nothing put down before, melds 7S 8S 9S (meld 2), lays off 4S
# on meld 1 and 10S on meld 2 and discards QD: 5 + 1 - 5 - 1 = 0, out all at once.
# Ana holds 6D JH = 6 + 10 = 16; x3 = 48 for Ben.
ROUND_1 = {
    "turns": [
        {"player": "Ana", "melds": [["4H", "4D", "4C"]], "discard": "KC"},
        {
            "player": "Ben",
            "melds": [["9S", "7S", "8S"]],
            "layoffs": [{"cards": ["4S"], "onto": 1}, {"cards": ["10S"], "onto": 2}],
            "discard": "QD",
            "out": True,
        },
    ],
    "hands": {"Ana": ["6D", "JH"]},
}


def toy_match(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "referee-match/1",
        "rules": "toy",
        "players": ["Ana", "Ben"],
        "first_dealer": "Ana",
        "rounds": rounds,
    }


def toy_rounds(rules: Ruleset) -> list[dict[str, Any]]:
    form = rules.round_form
    return [
        ROUND_1,
        # Round 2, dealt by Ben (round 1's winner): Ana out, Ben holds KS QS = 20.
        form.entry(FinalTable("out", "Ana", {"Ana": [], "Ben": ["KS", "QS"]})),
        # Round 3, dealt by Ana: blocked, 0 each, the dealer stays.
        form.entry(FinalTable("blocked")),
        # Round 4, dealt by Ana: Ben out all at once, Ana holds 2H: 2 x 3 = 6 -> 54 >= 50.
        form.entry(FinalTable("out", "Ben", {"Ana": ["2H"]}, at_once=True)),
    ]


EXPECTED = {
    "rounds": [
        {"dealer": "Ana", "outcome": "out", "winner": "Ben", "scores": {"Ana": 0, "Ben": 48}},
        {"dealer": "Ben", "outcome": "out", "winner": "Ana", "scores": {"Ana": 20, "Ben": 0}},
        {"dealer": "Ana", "outcome": "blocked", "winner": None, "scores": {"Ana": 0, "Ben": 0}},
        {"dealer": "Ana", "outcome": "out", "winner": "Ben", "scores": {"Ana": 0, "Ben": 6}},
    ],
    "totals": {"Ana": 20, "Ben": 54},
    "finished": True,
    "winners": ["Ben"],
    "next_dealer": None,
    "standings": [  # the highest total first, as for every game that does not say otherwise
        {"place": 1, "player": "Ben", "total": 54, "winner": True},
        {"place": 2, "player": "Ana", "total": 20, "winner": False},
    ],
}


def test_the_toy_is_found_and_replayed_by_the_engine(toy: Ruleset) -> None:
    orders = [rules.menu_order for rules in RULESETS.values()]
    assert list(RULESETS)[-1] == "toy" and orders == sorted(orders)  # listed by its menu order
    assert find_ruleset("toy", {"target": 30}).target == 30
    assert toy.target_choices == (30, 50, 100)
    live = live_round(toy_match([]), ROUND_1["turns"][:1])
    assert live.leader == "Ben" and live.melds_accepting("4S") == [1]
    state = replay(toy_match(toy_rounds(toy)))
    assert state.to_json() == EXPECTED
    first = state.rounds[0]
    assert first.outcome is Outcome.OUT
    assert first.at_once and str(first.table[1].meld) == "7S 8S 9S 10S"
    assert "count 3 times, 48" in first.notes[0].text
    assert toy.outcome_key(first.outcome, first.at_once) == "at_once"


def test_the_toy_through_the_command_line(
    toy: Ruleset, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--rules", "toy", "7S", "8S", "9S"]) == 0
    assert capsys.readouterr().out.strip() == "legal run: 7S 8S 9S"
    assert main(["check", "--rules", "toy", "QS", "KS", "AS"]) == 1
    assert capsys.readouterr().out.strip() == (
        "illegal: the ace is low in Toy Rummy: it goes below 2, never above K (QS KS AS)"
    )
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(toy_match(toy_rounds(toy))), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == EXPECTED
    assert main(["replay", str(path)]) == 0
    sheet = capsys.readouterr().out
    assert sheet.startswith("Toy Rummy (toy), target 50: Ana, Ben")
    assert "out: Ben (all at once)" in sheet and "Match over: Ben wins the match." in sheet


def test_the_toy_is_gone_after_its_block() -> None:
    with registered_ruleset(TOY):
        assert "toy" in RULESETS
        with pytest.raises(ValueError, match="already registered"):
            with registered_ruleset(TOY):
                pass  # pragma: no cover
        assert "toy" in RULESETS  # the failed second registration removed nothing
    assert "toy" not in RULESETS
    with pytest.raises(RuleError, match='"toy" is not a ruleset'):
        find_ruleset("toy")
