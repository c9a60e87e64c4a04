"""The CLI's error contract across subcommands: bad input is exit 2, never a traceback,
and with --json it is one JSON object on standard output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv",
    [
        ["gin", "7S", "8S", "--json"],
        ["gin", "7S", "8S", "9S", "7H", "7D", "2C", "3C", "4C", "KH", "KH", "--json"],
        ["check", "--rules", "nope", "7S", "8S", "9S", "--json"],
        ["replay", "/nonexistent/match.json", "--json"],
    ],
)
def test_bad_input_with_json_is_a_json_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(argv, capsys)
    assert code == 2
    error = json.loads(out)["error"]
    assert error["message"] and "Traceback" not in error["message"]


def test_a_meld_never_holds_three_jokers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "--rules", "manipulation", "JK=7S", "JK=7H", "JK=7D"], capsys)
    assert code == 1 and "3 jokers" in out and "only 2" in out


def test_lay_off_onto_nothing_asks_for_the_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "--rules", "remi", "--onto", "", "7S"], capsys)
    assert code == 1 and "name the meld on the table" in out


@pytest.fixture
def table_file(tmp_path: Path) -> str:
    path = tmp_path / "table.txt"
    path.write_text("7S 8S 9S\n4H 4D 4C\n", encoding="utf-8")
    return str(path)


def test_no_arranging_after_the_third_draw(
    table_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["table", "--before", table_file, "--played", "10S", "--arrange", "--draws", "3"]
    code, out, _ = run(argv, capsys)
    assert code == 1 and "third draw" in out


def test_draws_out_of_range_is_bad_input(
    table_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["table", "--before", table_file, "--played", "10S", "--arrange", "--draws", "4"]
    assert run(argv, capsys)[0] == 2


def test_a_table_file_that_is_not_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.bin"
    path.write_bytes(b"\xff\xfe\x00\x81")
    code, _, err = run(["table", "--before", str(path), "--played", "10S", "--arrange"], capsys)
    assert code == 2 and "not UTF-8" in err
