"""``referee replay``: the output and error contract of MATCH_FORMAT.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "referee" / "examples" / "remi-example.json"


def write(tmp_path: Path, document: Any) -> str:
    path = tmp_path / "match.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bundled_example_replays_to_a_finished_match(capsys: pytest.CaptureFixture[str]) -> None:
    # Round 1 (dealer Budi): Andi goes out; Budi AS 9D 8H 3S = 21, Siti KH 2C 5H = 17: 38.
    # Round 2 (dealer Siti): Budi out; Siti 10+10+2+6+9 = 37, Andi 8+4 = 12: 49.
    # Round 3 (dealer Andi): Budi out all at once; Siti 10+2+6+7 = 25, Andi 1+4+10+5 = 20:
    # 45 x 2 = 90.  Budi 139 reaches 100 and wins.
    code, out, _ = run(capsys, "replay", str(EXAMPLE), "--json")
    assert code == 0
    assert json.loads(out) == {
        "rounds": [
            {
                "dealer": "Budi",
                "outcome": "out",
                "winner": "Andi",
                "scores": {"Budi": 0, "Siti": 0, "Andi": 38},
            },
            {
                "dealer": "Siti",
                "outcome": "out",
                "winner": "Budi",
                "scores": {"Budi": 49, "Siti": 0, "Andi": 0},
            },
            {
                "dealer": "Andi",
                "outcome": "out",
                "winner": "Budi",
                "scores": {"Budi": 90, "Siti": 0, "Andi": 0},
            },
        ],
        "totals": {"Budi": 139, "Siti": 0, "Andi": 38},
        "finished": True,
        "winners": ["Budi"],
        "next_dealer": None,
        # Remi: the highest total first.
        "standings": [
            {"place": 1, "player": "Budi", "total": 139, "winner": True},
            {"place": 2, "player": "Andi", "total": 38, "winner": False},
            {"place": 3, "player": "Siti", "total": 0, "winner": False},
        ],
    }


def test_text_output_is_a_score_sheet_with_running_totals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "replay", str(EXAMPLE))
    lines = out.splitlines()
    assert code == 0 and lines[0] == "Remi (remi), target 100: Budi, Siti, Andi"
    rows = [line for line in lines if line.strip()[:1].isdigit()]
    assert len(rows) == 3
    assert "out: Andi" in rows[0] and "+38 = 38" in rows[0]
    assert "out: Budi (all at once)" in rows[2] and "+90 = 139" in rows[2]
    assert lines[-1] == "Match over: Budi wins the match."


def test_text_output_names_the_next_dealer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document = {"rules": "remi", "players": ["Budi", "Siti"], "rounds": [{"end": "blocked"}]}
    code, out, _ = run(capsys, "replay", write(tmp_path, document))
    assert code == 0 and out.splitlines()[-1] == "Match goes on: Siti deals round 2."


def test_rule_error_prints_round_turn_and_message_and_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document = {
        "rules": "remi",
        "players": ["Budi", "Siti", "Andi"],
        "rounds": [
            {"end": "void"},
            {"turns": [{"player": "Siti", "melds": [["7S", "9S", "10S"]]}], "end": "blocked"},
        ],
    }
    code, out, _ = run(capsys, "replay", write(tmp_path, document), "--json")
    assert code == 2
    assert json.loads(out) == {
        "error": {"round": 2, "turn": 1, "message": "8S is missing between 7S and 9S"}
    }


def test_header_error_has_null_round_and_turn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(
        capsys, "replay", write(tmp_path, {"rules": "bridge", "players": ["A", "B"]}), "--json"
    )
    error = json.loads(out)["error"]
    assert code == 2 and (error["round"], error["turn"]) == (None, None)


def test_text_mode_errors_go_to_stderr_with_their_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document = {
        "rules": "remi",
        "players": ["Budi", "Siti"],
        "rounds": [{"out": "Budi", "hands": {"Siti": ["5D", "5D"]}}],
    }
    code, out, err = run(capsys, "replay", write(tmp_path, document))
    assert code == 2 and out == ""
    assert err.strip() == "referee: round 1: 5D is twice in Siti's hand"


def test_bad_json_file_is_exit_2_without_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "replay", write(tmp_path, "{oops"), "--json")
    assert code == 2 and "not valid JSON" in json.loads(out)["error"]["message"]


def test_missing_file_is_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "replay", str(tmp_path / "nowhere.json"))
    assert code == 2 and "cannot read" in err and "Traceback" not in err
    code, out, _ = run(capsys, "replay", str(tmp_path / "nowhere.json"), "--json")
    assert code == 2 and "cannot read" in json.loads(out)["error"]["message"]


def test_a_directory_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "replay", str(tmp_path), "--json")[0] == 2


def test_python_m_referee_replay_reads_standard_input() -> None:
    document = {"rules": "gin", "players": ["Budi", "Siti"], "rounds": [{"end": "draw"}]}
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "replay", "-", "--json"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["rounds"] == [
        {"dealer": "Budi", "outcome": "draw", "winner": None, "scores": {"Budi": 0, "Siti": 0}}
    ]


def test_python_m_referee_replay_never_prints_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, '{"rules": "remi", "players": ["A", "B"], "rounds": [[[[]]]]}')
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "replay", path],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
