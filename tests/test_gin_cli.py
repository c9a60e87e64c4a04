"""`referee gin`: the best arrangement and knock adjudication on the command line."""

from __future__ import annotations

import json

import pytest

from referee.cli import main

KNOCKER = "7C 8C 9C 2S 2H 2D 5H 6H 7H AS"
DEFENDER = "6C 10C 4D 10S JS QS KS 9H 9D 9S"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["gin", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_gin_cli_prints_the_best_arrangement(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *"7S 8S 9S 7H 7D 2C 3C 4C 5C 6C".split())
    assert code == 0
    assert "Melds: 2C 3C 4C 5C 6C | 7S 8S 9S" in out
    assert "Deadwood cards: 7H 7D" in out
    assert "Deadwood: 14" in out
    assert "May knock: no" in out


def test_gin_cli_may_knock_and_gin(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "2S 3S 4S 5H 6H 7H 9D 9C 9H 10C")
    assert "May knock: yes (10 is 10 or less)" in out
    _, out, _ = run(capsys, "3H 4H 5H 6H 7H 8H KS KH KD KC")
    assert "Gin: every card is melded" in out


def test_gin_cli_eleven_cards_names_the_discard(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "6S 8C 9H 4S 9C 9S 7C 8H 7S 7H 4H")
    assert code == 0 and "Discard: 9S" in out and "Deadwood: 21" in out
    _, out, _ = run(capsys, "2S 3S 4S 5S 9H 9D 9C JC QC KC 10C")
    assert "big gin" in out.lower() and "Discard: none needed" in out


def test_gin_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", "7S 8S 9S 7H 7D 2C 3C 4C 5C 6C KD")
    doc = json.loads(out)
    assert code == 0
    assert doc["discard"] == "KD" and doc["deadwood"] == 14
    assert doc["melds"] == [["2C", "3C", "4C", "5C", "6C"], ["7S", "8S", "9S"]]
    assert doc["deadwood_cards"] == ["7H", "7D"]
    assert doc["gin"] is False and doc["can_knock"] is False


def test_gin_cli_knock_adjudication(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--knock", KNOCKER, "--defender", DEFENDER)
    assert code == 0
    assert "melds: 2S 2H 2D | 5H 6H 7H | 7C 8C 9C (the best spread)" in out
    assert "lays off 6C onto 7C 8C 9C" in out and "lays off 10C onto 7C 8C 9C" in out
    assert "deadwood: 4 (down from 20)" in out
    assert "Outcome: knock; knocker scores 3" in out
    assert "4 - 1 = 3" in out


def test_gin_cli_knock_json_and_given_melds(capsys: pytest.CaptureFixture[str]) -> None:
    melds = "7C 8C 9C | 2S 2H 2D | 5H 6H 7H"
    code, out, _ = run(
        capsys, "--knock", KNOCKER, "--defender", DEFENDER, "--melds", melds, "--json"
    )
    doc = json.loads(out)
    assert code == 0
    assert doc["outcome"] == "knock" and doc["scores"] == {"knocker": 3, "defender": 0}
    assert doc["defender"]["deadwood"] == 4 and doc["defender"]["deadwood_before_layoffs"] == 20
    assert {"cards": ["6C"], "onto": ["7C", "8C", "9C"]} in doc["layoffs"]


def test_gin_cli_gin_and_undercut(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys,
        "--knock",
        "7C 8C 9C 2S 2H 2D 5H 6H 7H 8H",
        "--defender",
        DEFENDER.replace("4D", "4H"),
    )
    assert "nobody lays off on gin" in out and "Outcome: gin" in out
    _, out, _ = run(
        capsys,
        "--knock",
        "7C 8C 9C 2S 2H 2D 5H 6H 7H 5D",
        "--defender",
        "6C AD 4C KS KH KD QS QH QD 10C",
    )
    assert "Outcome: undercut; defender scores 25" in out


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["7S", "8S"], "10 cards, or 11 after the draw; 2 cards"),
        ([], "give the 10 or 11 cards"),
        (["7S", "8X"], '"8X" is not a card'),
        (["--knock", KNOCKER], "--knock needs --defender"),
        (["--defender", DEFENDER], "go with --knock"),
        (["7S", "--knock", KNOCKER, "--defender", DEFENDER], "not both"),
        (["--knock", KNOCKER, "--defender", "7C " + DEFENDER[3:]], "7C is in both hands"),
        (["--knock", "7C 8C 9C 2S 2H 2D AS 3H 4H KD", "--defender", DEFENDER], "cannot knock"),
        (["--knock", KNOCKER, "--defender", DEFENDER, "--melds", "7C 8C 10C"], "9C is missing"),
    ],
)
def test_gin_cli_bad_input_exits_2_with_reason(
    capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert reason in err
