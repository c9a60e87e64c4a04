"""Conformance scenarios: every ``tests/scenarios/<name>.json`` is replayed through the CLI
(``referee replay <file> --json``) and compared with ``<name>.expected.json``.

The expected files were worked out by hand from RULES.md (see each match file's ``_why``), so a
failure here means the engine and the rules reference disagree, not that the file needs refreshing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
CORE_RULESETS = ("remi", "rummy", "remi-indonesia", "manipulation")
EXPECTED_SUFFIX = ".expected.json"


def _scenario_files() -> list[Path]:
    return sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(EXPECTED_SUFFIX))


def _expected_path(scenario: Path) -> Path:
    return scenario.with_name(scenario.stem + EXPECTED_SUFFIX)


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _replay(scenario: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, str]:
    """The CLI's ``replay <file> --json``, run in this process (``main`` is what ``python -m
    referee`` runs; tests/test_cli_replay.py runs it as a process): a new interpreter for each
    of some 280 scenarios cost over a second each."""
    code = main(["replay", str(scenario), "--json"])
    out, err = capsys.readouterr()
    try:
        output = json.loads(out)
    except json.JSONDecodeError:
        pytest.fail(
            f"{scenario.name}: stdout is not JSON (exit {code})\nstdout: {out!r}\nstderr: {err}"
        )
    return code, output, err


@pytest.mark.parametrize("scenario", _scenario_files(), ids=lambda p: p.stem)
def test_scenario(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = _load(_expected_path(scenario))
    code, output, stderr = _replay(scenario, capsys)
    if "error" not in expected:
        assert code == 0, f"exit {code}, output {output}, stderr {stderr}"
        assert "standings" in output, output
        if "standings" not in expected:  # derived by hand only where a scenario pins them
            del output["standings"]
        assert output == expected
        return
    assert code == 2, f"expected exit 2 (rejected), got {code}: {output}"
    assert isinstance(output, dict) and "error" in output, output
    got, want = output["error"], expected["error"]
    assert (got.get("round"), got.get("turn")) == (want["round"], want["turn"]), got
    message = str(got.get("message", ""))
    missing = [s for s in want["message_contains"] if s.lower() not in message.lower()]
    assert not missing, f"message {message!r} lacks {missing}"


def test_every_scenario_has_an_expected_output() -> None:
    scenarios = {p.stem for p in _scenario_files()}
    expected = {p.name[: -len(EXPECTED_SUFFIX)] for p in SCENARIOS.glob("*" + EXPECTED_SUFFIX)}
    assert scenarios == expected


def test_enough_scenarios_per_ruleset() -> None:
    rules = [_load(p).get("rules") for p in _scenario_files()]
    assert sum(r in CORE_RULESETS for r in rules) >= 40
    assert all(any(r == core for r in rules) for core in CORE_RULESETS)
    assert rules.count("gin") >= 8
    assert rules.count("indian") >= 20
    assert rules.count("rummy500") >= 15 and rules.count("contract") >= 15
