"""Charts drawn as inline SVG: the geometry, and what the pages show with them."""

from __future__ import annotations

import json
import re

import pytest

from referee.rulesets import find_ruleset
from referee.web.show.charts import (
    BOTTOM,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    nice_step,
    results_over_time,
    running_totals,
)
from referee.web.show.history import Period
from referee.web.show.scoresheet import Sheet, SheetRow

from .helpers import errors
from .history_fixture import TABLE


@pytest.mark.parametrize(
    ("span", "ticks", "step"),
    [(126, 5, 50), (7, 5, 2), (1000, 4, 500), (0, 5, 1), (100, 5, 20), (30, 5, 10)],
)
def test_nice_steps(span, ticks, step):
    assert nice_step(span, ticks) == step


def row(number, running):
    return SheetRow(number, None, "Budi", "", "out", [], {}, running)


def test_running_totals_from_zero():
    sheet = Sheet(players=["Budi", "Siti"], rules=None)
    sheet.rows = [row(1, {"Budi": 20, "Siti": 0}), row(2, {"Budi": 20, "Siti": 40})]
    sheet.totals = {"Budi": 20, "Siti": 40}
    chart = running_totals(sheet)
    assert chart is not None
    # No ruleset: no target.  Values 0..40 -> step 10, axis 0..40.
    assert chart.target is None
    assert [tick.label for tick in chart.y_ticks] == ["0", "10", "20", "30", "40"]
    bottom, top = HEIGHT - BOTTOM, TOP
    budi, siti = chart.lines
    # x: round 0 at the left, round 2 at the right; y: 0 at the bottom, 40 at the top.
    assert (LEFT, WIDTH - RIGHT, bottom, top) == (34, 312, 158, 10)
    assert budi.points == "34.0,158.0 173.0,84.0 312.0,84.0"
    assert siti.end == (WIDTH - RIGHT, top) and siti.last == 40
    assert [tick.label for tick in chart.x_ticks] == ["0", "1", "2"]


def test_the_target_line_and_the_axis_reach_it():
    sheet = Sheet(players=["Budi", "Siti"], rules=find_ruleset("remi", {"target": 50}))
    sheet.rows = [row(1, {"Budi": 20, "Siti": 0})]
    sheet.totals = {"Budi": 20, "Siti": 0}
    chart = running_totals(sheet)
    # 0..50 in steps of 10; the target 50 is the top line.
    assert [tick.label for tick in chart.y_ticks] == ["0", "10", "20", "30", "40", "50"]
    assert chart.target == TOP and chart.target_value == 50


def test_a_match_with_no_round_has_no_chart():
    assert running_totals(Sheet(players=["Budi", "Siti"], rules=None)) is None
    assert results_over_time([]) is None


def test_results_over_time_bars():
    chart = results_over_time([Period(None, "2026-01", 4, 1), Period(None, "2026-02", 2, 2)])
    first, second = chart.bars
    bottom = HEIGHT - BOTTOM
    # 0..4 in steps of 1: 4 played reaches the top, 1 won a quarter of the way up.
    assert first.played_y == TOP and first.won_y == round(bottom - (bottom - TOP) / 4, 1)
    assert second.played_y == second.won_y == round(bottom - (bottom - TOP) / 2, 1)
    assert [label.label for label in chart.labels] == ["2026-01", "2026-02"]


def test_the_scoreboard_draws_the_running_totals_and_every_round_as_entered(client):
    response = client.submit("/tables/import", {"document": json.dumps(TABLE)})
    assert response.status_code == 302, errors(response)
    table = response.headers["Location"]
    client.submit("/language", {"lang": "en", "next": "/"})
    page = client.get(table + "m/1/").text  # remi to 50: Budi 52, Siti 24, Andi 0
    svg = page.split('<svg class="chart-svg"')[1].split("</svg>")[0]
    assert svg.count('<polyline class="line series-') == 3
    assert 'class="target"' in svg and "target 50" in svg
    assert "Budi: 52, Siti: 24, Andi: 0." in svg
    assert "style=" not in svg
    # Every round as entered, with the referee's notes: round 2 went out all at once.
    entries = page.split('<section class="entries')[1].split("</section>")[0]
    assert entries.count('<details class="entry"') == 4
    assert (
        "Siti went out all at once: the 12 points left in the other hands count double, 24"
        in entries
    )
    assert 'data-code="KH"' in entries  # the cards as entered
    assert "data-print" in page and "export.csv" in page and "/results" in page


def test_a_manipulation_chart_ends_with_the_match_end_bonuses(client):
    response = client.submit("/tables/import", {"document": json.dumps(TABLE)})
    table = response.headers["Location"]
    page = client.get(table + "m/4/").text
    svg = page.split('<svg class="chart-svg"')[1].split("</svg>")[0]
    # 0, after round 1, after round 2, then the totals with the +100: four points a line.
    siti = re.search(r'<polyline class="line series-0" points="([^"]+)"', svg).group(1)
    assert len(siti.split()) == 4
