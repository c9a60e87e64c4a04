"""Statistics and ratings of Three Thirteen and Hollywood gin, from the engine's standings.

The matches are the hand-derived scenarios (see each file's ``_why``):
``three-thirteen-eleven-deals``: Budi 91, Siti 59 after eleven deals, the lowest wins: Siti;
``gin-hollywood-shutout-carry-over``: Budi 420, Siti 555 as sums of the three games: Siti.
"""

from __future__ import annotations

import json
from pathlib import Path

from .test_ratings import day, imported, ratings_shown

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def scenario_match(name: str, n: int) -> dict:
    document = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    rounds = document["rounds"]
    match = {key: document[key] for key in ("rules", "players", "first_dealer", "rounds")} | {
        "started": day(n),
        "played": [day(n)] * len(rounds),
    }
    if "options" in document:
        match["options"] = document["options"]
    return match


def test_three_thirteen_rates_the_lowest_total_first(client):
    table = imported(client, [scenario_match("three-thirteen-eleven-deals", 1)])
    page = client.get(table + "stats").text
    shown = ratings_shown(page)
    assert list(shown) == ["Siti", "Budi"]
    assert shown["Siti"][0] > shown["Budi"][0]


def test_hollywood_gin_rates_the_higher_sum_of_the_games_first(client):
    table = imported(client, [scenario_match("gin-hollywood-shutout-carry-over", 1)])
    page = client.get(table + "stats").text
    shown = ratings_shown(page)
    assert list(shown) == ["Siti", "Budi"]
    assert shown["Siti"][0] > shown["Budi"][0]


def test_phase10_rates_by_the_phases_completed_before_the_totals(client):
    # phase10-phases-before-totals: Budi wins; Siti (4 phases, 480) before Andi (none, 275).
    table = imported(client, [scenario_match("phase10-phases-before-totals", 1)])
    page = client.get(table + "stats").text
    shown = ratings_shown(page)
    assert list(shown) == ["Budi", "Siti", "Andi"]
    assert shown["Siti"][0] > shown["Andi"][0]
