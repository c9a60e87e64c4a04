"""``referee table``: check a manipulation turn, arrange a table, hint a play."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from referee.cli import main


@pytest.fixture
def before(tmp_path: Path) -> str:
    path = tmp_path / "before.txt"
    path.write_text("# the table\n7S 8S 9S\n\nKH KD KC\n", encoding="utf-8")
    return str(path)


def write_json(tmp_path: Path, name: str, melds: list[list[str]]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(melds), encoding="utf-8")
    return str(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_legal_turn(before: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    after = write_json(
        tmp_path, "after.json", [["7S", "8S", "9S", "10S", "JK=JS"], ["KH", "KD", "KC"]]
    )
    code, out = run(["table", "--before", before, "--played", "10S JK", "--after", after], capsys)
    assert (code, out) == (0, "legal\n")


def test_illegal_turn_json(before: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    after = tmp_path / "after.txt"
    after.write_text("8S 9S 10S\nKH KD KC\n", encoding="utf-8")
    argv = ["table", "--rules", "manipulation", "--before", before, "--played", "10S"]
    code, out = run([*argv, "--after", str(after), "--json"], capsys)
    assert code == 1
    assert json.loads(out) == {
        "legal": False,
        "reasons": ["7S left the table: no card may leave the table during a turn"],
    }


def test_a_turn_that_only_draws(
    before: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RULES.md Decision: nothing played, the table unchanged (in any order): legal
    after = write_json(tmp_path, "same.json", [["KC", "KH", "KD"], ["9S", "8S", "7S"]])
    code, out = run(["table", "--before", before, "--after", after], capsys)
    assert (code, out) == (0, "legal\n")
    code, out = run(["table", "--before", before, "--after", after, "--draws", "3"], capsys)
    assert (code, out) == (0, "legal\n")


def test_a_card_played_that_misses_the_table(
    before: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    after = write_json(tmp_path, "a.json", [["7S", "8S", "9S", "10S"], ["KH", "KD", "KC"]])
    argv = ["table", "--before", before, "--played", "10S QD", "--after", after, "--json"]
    code, out = run(argv, capsys)
    assert code == 1
    assert json.loads(out)["reasons"] == [
        "QD was played from the hand but is not on the table after the turn"
    ]


def test_third_draw_and_players(
    before: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    after = write_json(tmp_path, "a.json", [["7S", "8S", "9S", "10S"], ["KH", "KD", "KC"]])
    argv = ["table", "--before", before, "--played", "10S", "--after", after, "--json"]
    code, out = run([*argv, "--draws", "3"], capsys)
    assert code == 1 and "third draw" in out
    code, out = run([*argv, "--players", "2"], capsys)
    assert code == 0


def test_arrange(before: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["table", "--before", before, "--played", "10S JK", "--arrange"], capsys)
    assert code == 0
    assert out.splitlines() == ["7S 8S 9S 10S JK=JS", "KH KD KC"]


def test_arrange_json_take_back(before: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["table", "--before", before, "--played", "10S QD", "--arrange", "--json"]
    code, out = run(argv, capsys)
    assert code == 1
    assert json.loads(out) == {"arrangeable": False, "table": None, "take_back": ["QD"]}
    code, out = run(argv[:-1], capsys)
    assert out == "no arrangement exists; take back QD\n"


def test_arrange_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('[["5H", "6H", "JK=7H"]]'))
    code, out = run(["table", "--before", "-", "--played", "7H", "--arrange", "--json"], capsys)
    assert code == 0
    table = json.loads(out)["table"]
    assert sorted(card for meld in table for card in meld if not card.startswith("JK")) == [
        "5H",
        "6H",
        "7H",
    ]


def test_first_meld_on_an_empty_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["table", "--played", "QH QS QD", "--arrange"], capsys)
    assert (code, out) == (0, "QS QH QD\n")


def test_hint(before: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["table", "--before", before, "--hint", "--hand", "10S QD 6S", "--json"]
    code, out = run(argv, capsys)
    assert code == 0
    result = json.loads(out)
    assert result["cards"] == ["6S", "10S"]
    assert ["6S", "7S", "8S", "9S", "10S"] in result["table"]
    code, out = run(["table", "--before", before, "--hint", "--hand", "2D"], capsys)
    assert (code, out) == (1, "nothing from this hand can join the table\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--played", "1X", "--arrange"], '"1X" is not a card'),
        (["--before", "/nonexistent/t.txt", "--arrange"], "cannot read the table file"),
        (["--played", "7S"], "say what to do"),
        (["--hint"], "--hint needs --hand"),
        (["--rules", "gin", "--arrange"], "settles manipulation turns"),
        (["--players", "7", "--arrange"], "2 to 5 players"),
    ],
)
def test_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(["table", *argv, "--json"], capsys)
    assert code == 2
    assert message in json.loads(out)["error"]["message"]


def test_bad_json_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_text('[["7S", "8S"', encoding="utf-8")
    code, out = run(["table", "--before", str(path), "--arrange", "--json"], capsys)
    assert code == 2 and "is not a JSON list of melds" in out
    code = main(["table", "--before", str(path), "--arrange"])
    assert code == 2
    assert "is not a JSON list of melds" in capsys.readouterr().err
