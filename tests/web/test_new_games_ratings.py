"""Statistics and ratings of Three Thirteen and Hollywood gin, from the engine's standings.

The matches are the hand-derived scenarios (see each file's ``_why``):
``three-thirteen-eleven-deals``: Budi 91, Siti 59 after eleven deals, the lowest wins: Siti;
``gin-hollywood-shutout-carry-over``: Budi 420, Siti 555 as sums of the three games: Siti;
``phase10-phases-before-totals``: Budi wins, then Siti (4 phases) before Andi (none).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(
    ("scenario", "order"),
    [
        # The lowest total wins: Siti 59 before Budi 91.
        ("three-thirteen-eleven-deals", ["Siti", "Budi"]),
        # The higher sum of the three games: Siti 555 before Budi 420.
        ("gin-hollywood-shutout-carry-over", ["Siti", "Budi"]),
        # Budi wins; then by the phases completed before the totals: Siti (4 phases, 480)
        # before Andi (none, 275).
        ("phase10-phases-before-totals", ["Budi", "Siti", "Andi"]),
    ],
)
def test_the_ratings_follow_the_games_own_order(client, scenario, order):
    table = imported(client, [scenario_match(scenario, 1)])
    shown = ratings_shown(client.get(table + "stats").text)
    assert list(shown) == order
    # One match of new players: each place rated strictly above the next.
    ratings = [shown[name][0] for name in order]
    assert ratings == sorted(ratings, reverse=True)
    assert len(set(ratings)) == len(ratings)
