"""Every game's standings, score-sheet rows and results card, in a real browser: an Indian pool
with an elimination and a rejoin, a Contract match and a 500 Rum match.  The matches and
their orders are derived by hand in tests/test_standings.py and test_standings_pages.py."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, english
from .test_standings_pages import TABLE

pytestmark = pytest.mark.browser


def results_lines(page: Page, match_url: str) -> list[str]:
    page.goto(match_url + "results")
    lines = page.locator("textarea.results-text").input_value().splitlines()
    return [line for line in lines if line.startswith(("🏆", "1.", "2.", "3."))]


def test_each_games_standings_rows_and_results_card(page: Page):
    english(page)
    page.goto("/tables/import")
    page.locator("textarea[name=document]").fill(json.dumps(TABLE))
    with page.expect_navigation():
        page.get_by_role("button", name="Import").click()
    table = page.url.split("#")[0].split("?")[0]
    # The four matches in the order of the document (ids are the database's, shared with
    # the other tests of this worker).
    ids = page.locator("a[href*='/m/']").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )
    pool_id, contract_id, rummy500_id, pool_after_two_id = sorted(
        {int(m) for m in re.findall(r"/m/(\d+)/", " ".join(ids))}
    )

    # The pool (Siti, Andi, Budi): Andi out after deal 2 with 119, back at 46 + 1 = 47 before
    # deal 3, out again at 107; Budi out after deal 4 at 106; Siti, last one left, wins.
    pool = table + f"m/{pool_id}/"
    page.goto(pool)
    sheet = page.locator("table.sheet")
    kinds = sheet.locator(":scope > tbody").evaluate_all("rows => rows.map(r => r.className)")
    assert [kind.split()[0] for kind in kinds] == ["round", "round", "rejoin", "round", "round"]
    expect(sheet.locator("tbody.rejoin")).to_contain_text("Andi comes back into the pool at 47")
    third = sheet.locator("tbody[data-part='sheet/r3'] .running")
    expect(third).to_have_text(["45", "107", "46"])  # Siti, Andi (from 47), Budi
    expect(page.locator("main")).not_to_contain_text("Match-end bonuses")
    expect(page.locator(".totals .winner .total-name")).to_have_text(["Siti"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "standings-pool.png"), full_page=True)
    assert results_lines(page, pool) == [
        "🏆 Siti 45",
        "2. Budi 106 (out of the pool after round 4)",
        "3. Andi 107 (out of the pool after round 3)",
    ]

    # The same pool after deal 2: Siti 25 and Budi 46 still in, Andi 119 out: Siti leads.
    page.goto(table + f"m/{pool_after_two_id}/")
    expect(page.locator(".totals .leader .total-name")).to_have_text(["Siti"])
    expect(page.locator(".who-leads")).to_have_text("In the lead: Siti")

    # Contract: the lowest total wins; Siti 52, Budi 58, Andi 62.
    contract = table + f"m/{contract_id}/"
    page.goto(contract)
    rows = page.locator("table.deals tbody tr")
    expect(rows).to_have_count(3)
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.player)") == ["Siti", "Budi", "Andi"]
    assert results_lines(page, contract) == ["🏆 Siti 52", "2. Budi 58", "3. Andi 62"]

    # 500 Rum after one round: Andi 25 leads, Siti 18, Budi -40.
    rummy500 = table + f"m/{rummy500_id}/"
    page.goto(rummy500)
    expect(page.locator(".totals .leader .total-name")).to_have_text(["Andi"])
    expect(page.locator("table.sheet tbody[data-part='sheet/r1'] .running")).to_have_text(
        ["-40", "18", "25"]
    )
    assert results_lines(page, rummy500) == ["1. Andi 25", "2. Siti 18", "3. Budi -40"]
