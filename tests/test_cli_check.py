"""``referee check``: verdict and reason, exit 0 legal / 1 illegal / 2 bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from referee.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_run_exits_0_and_names_the_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi", "9S", "7S", "8S")
    assert code == 0 and out.strip() == "legal run: 7S 8S 9S"


def test_illegal_meld_exits_1_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi", "7S", "9S", "10S")
    assert code == 1 and out.strip() == "illegal: 8S is missing between 7S and 9S"


def test_cards_may_come_as_one_quoted_argument(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi", "4H 4D 4C")
    assert code == 0 and out.strip() == "legal set: 4H 4D 4C"


def test_json_verdict_legal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi", "--json", "4H", "4D", "4C")
    assert code == 0 and json.loads(out) == {"legal": True, "kind": "set", "reason": None}


def test_json_verdict_illegal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi", "--json", "QS", "KS", "AS")
    verdict = json.loads(out)
    assert code == 1 and verdict["legal"] is False and verdict["kind"] is None
    assert "ace is low" in verdict["reason"]


def test_rummy_option_ace_high_low_allows_q_k_a(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "--rules", "rummy", "QS", "KS", "AS")[0] == 1
    code, out, _ = run(
        capsys, "check", "--rules", "rummy", "--option", "ace=high-low", "QS", "KS", "AS"
    )
    assert code == 0 and out.strip() == "legal run: QS KS AS"


def test_remi_indonesia_mixed_run_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi-indonesia", "10H", "JH", "QH")
    assert code == 1 and "never both" in out


def test_layoff_onto_a_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi", "--onto", "7S 8S 9S", "10S")
    assert code == 0 and out.strip() == "legal lay-off: the run becomes 7S 8S 9S 10S"


def test_layoff_refused_with_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi", "--onto", "7S 8S 9S", "JS", "--json")
    assert code == 1
    assert json.loads(out) == {
        "legal": False,
        "kind": None,
        "reason": "JS cannot be laid off on 7S 8S 9S: 10S is missing between 9S and JS",
    }


def test_remi_indonesia_refuses_any_layoff(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--rules", "remi-indonesia", "--onto", "2S 3S 4S", "5S")
    assert code == 1 and "closed" in out


def test_bad_card_is_bad_input_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "--rules", "remi", "7S", "8X", "9S")
    assert code == 2 and out == "" and '"8X" is not a card' in err


def test_bad_input_in_json_mode_prints_the_error_object(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "check", "--rules", "poker", "--json", "7S", "8S", "9S")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["round"] is None and '"poker" is not a ruleset' in error["message"]


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--rules", "remi", "--option", "ace=high-low", "7S", "8S", "9S"],
        ["check", "--rules", "rummy", "--option", "ace", "7S", "8S", "9S"],
        ["check", "--rules", "rummy", "--option", "must_discard=maybe", "7S", "8S", "9S"],
    ],
)
def test_bad_options_are_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert run(capsys, *argv)[0] == 2


def test_option_values_are_typed(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(
        capsys,
        "check",
        "--rules",
        "rummy",
        "--option",
        "must_discard=true",
        "--option",
        "target=200",
        "7S",
        "8S",
        "9S",
    )
    assert code == 0


def test_missing_rules_or_cards_is_a_usage_error_exit_2() -> None:
    with pytest.raises(SystemExit) as caught:
        main(["check", "7S", "8S", "9S"])
    assert caught.value.code == 2
    with pytest.raises(SystemExit) as caught:
        main(["check", "--rules", "remi"])
    assert caught.value.code == 2


def test_python_m_referee_check_runs_the_real_cli() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "check",
            "--rules",
            "manipulation",
            "--json",
            "QH",
            "KH",
            "AH",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["kind"] == "run"
