"""A match stored before the house rules had ranges, read as it was played.

RULES.md's House rules refuse an option outside its range.  Before the ranges existed the
app took any target from 1 up, so a family's database may hold a remi match to 20: the
engine's ``as_played`` reading keeps such a number as recorded (docs/house-rules.md,
its Decision).  It is for stored matches only: a new match, a match file given to the CLI,
is read strictly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.errors import RuleError
from referee.match import live_round, replay
from referee.matchfile import dump_match, read_match
from referee.rulesets import find_ruleset

REMI_TO_20 = {
    "format": "referee-match/1",
    "rules": "remi",
    "options": {"target": 20},
    "players": ["Budi", "Siti"],
    "first_dealer": "Budi",
    "rounds": [
        # Budi out; Siti KH = 10: Budi 10, below 20.
        {"out": "Budi", "hands": {"Siti": ["KH"]}},
        # Siti out; Budi 5C = 5: Siti 5.
        {"out": "Siti", "hands": {"Budi": ["5C"]}},
        # Budi out; Siti QH JH = 20: Budi 30 >= 20, he wins.  Under the default target 100
        # the match would go on.
        {"out": "Budi", "hands": {"Siti": ["QH", "JH"]}},
    ],
}

TARGET_REFUSED = "the house rule Target (target) goes from 50 to 10000, not 20"


def test_a_new_match_to_20_is_refused_with_the_range() -> None:
    with pytest.raises(RuleError) as refused:
        find_ruleset("remi", {"target": 20})
    assert str(refused.value) == TARGET_REFUSED
    with pytest.raises(RuleError, match="goes from 50 to 10000, not 20"):
        replay(REMI_TO_20)


def test_a_stored_match_to_20_replays_as_it_was_played() -> None:
    state = replay(REMI_TO_20, as_played=True)
    # 10 + 20 = 30 for Budi, 5 for Siti: Budi reached 20 in round 3.
    assert state.totals == {"Budi": 30, "Siti": 5}
    assert state.finished and state.winners == ("Budi",)
    assert find_ruleset("remi", {"target": 20}, as_played=True).target == 20


def test_read_as_played_it_writes_back_the_same_options() -> None:
    read = read_match(REMI_TO_20, as_played=True)
    assert dump_match(read)["options"] == {"target": 20}
    assert read.header.rules.settings["target"] == 20


def test_a_live_round_of_a_stored_match() -> None:
    unfinished = REMI_TO_20 | {"rounds": REMI_TO_20["rounds"][:1]}
    live = live_round(unfinished, as_played=True)
    assert live.header.rules.target == 20
    with pytest.raises(RuleError):
        live_round(unfinished)


@pytest.mark.parametrize(
    ("rules", "options", "said"),
    [
        # Unknown to the ruleset, of the wrong type, not one of the choices: as strict as ever.
        ("remi", {"house": 1}, 'remi has no option "house"'),
        ("remi", {"target": "20"}, 'is a whole number from 50 to 10000, not "20"'),
        ("remi", {"target": True}, 'is a whole number from 50 to 10000, not "true"'),
        ("remi", {"target": 2.5}, "whole number"),
        ("rummy", {"ace": "high"}, 'not "high"'),
        ("gin", {"shutout": 1}, 'is true or false, not "1"'),
        # The engine never took a target of 0 or below: no stored match has one.
        ("remi", {"target": 0}, "goes from 50 to 10000, not 0"),
        ("remi", {"target": -20}, "not -20"),
        # An option that does not apply, or a refused combination.
        ("gin", {"spades_double": False}, "only applies with"),
        ("gin", {"oklahoma": True, "knock_limit": 7}, "cannot be used with"),
    ],
)
def test_as_played_still_refuses_anything_but_a_number_out_of_range(
    rules: str, options: dict[str, Any], said: str
) -> None:
    with pytest.raises(RuleError) as refused:
        find_ruleset(rules, options, as_played=True)
    assert said in str(refused.value)


def test_as_played_keeps_a_number_above_the_range_and_one_from_a_lower_minimum() -> None:
    # gin's target goes to 1000; the app took up to 100000 before the ranges.
    assert find_ruleset("gin", {"target": 5000}, as_played=True).target == 5000
    # manipulation's knock limit starts at 0 (0-10): 0 is in range, 11 is kept as played.
    assert find_ruleset("manipulation", {"knock_limit": 11}, as_played=True).settings == (
        find_ruleset("manipulation").settings | {"knock_limit": 11}
    )


def test_the_cli_reads_a_played_match_file_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(REMI_TO_20))
    code = main(["replay", str(path)])
    _out, err = capsys.readouterr()
    assert code != 0 and "goes from 50 to 10000, not 20" in err
