"""History in a real browser (headless Chromium, a 360 x 740 phone): a whole table imported,
its match list, a match's running totals and a player's statistics, in light and dark.

Screenshots go to ``artifacts/`` (gitignored): ``history-*-light.png`` and ``-dark.png``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .history_fixture import TABLE

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def fits_the_phone(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def shoot(page: Page, name: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(ARTIFACTS / f"history-{name}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def test_history_pages_on_a_phone_in_both_colour_schemes(page: Page):
    page.goto("/")
    with page.expect_navigation():  # the language is saved, then the page loads again
        page.get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("link", name="…or import a table from its export").click()
    page.locator("textarea[name=document]").fill(json.dumps(TABLE))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".flash")).to_contain_text("Table imported with 8 matches.")
    table = page.url

    # The match list, filtered to one player.
    page.get_by_role("link", name="All matches, filtered by player, game, date or state").click()
    expect(page.locator("ul.matches > li")).to_have_count(8)
    page.locator("details.filters summary").click()
    page.locator("select[name=player]").select_option(label="Dewi")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("ul.matches > li")).to_have_count(2)
    fits_the_phone(page)
    shoot(page, "match-list")

    # A match's running totals (remi to 50) with the target line, and its rounds as entered.
    page.goto(table)
    page.locator("ul.matches a.big-link").last.click()
    chart = page.locator("figure.chart.running svg.chart-svg")
    expect(chart).to_be_visible()
    expect(page.locator("figure.chart.running svg.chart-svg polyline")).to_have_count(3)
    expect(page.locator("figure.chart.running .legend")).to_contain_text("Budi 52")
    box = chart.bounding_box()
    assert box and box["width"] <= 360 and box["height"] > 100, box
    page.locator("details.entry").nth(1).locator("summary").click()
    expect(page.locator("details.entry").nth(1)).to_contain_text("all at once")
    fits_the_phone(page)
    chart.scroll_into_view_if_needed()
    shoot(page, "match-chart")

    # A player's statistics and results over time.
    page.goto(table + "stats")
    page.get_by_role("link", name="Budi").first.click()
    expect(page.locator("h1")).to_have_text("Budi")
    expect(page.locator(".player-overall [data-figure=matches]")).to_have_text("5")
    expect(page.locator("figure.chart.results svg.chart-svg rect.played")).to_have_count(5)
    fits_the_phone(page)
    shoot(page, "player-statistics")


def test_the_score_sheet_prints_without_its_controls(page: Page):
    page.goto("/")
    with page.expect_navigation():
        page.get_by_role("button", name="EN").click()
    page.get_by_role("link", name="…or import a table from its export").click()
    page.locator("textarea[name=document]").fill(json.dumps(TABLE))
    page.get_by_role("button", name="Import").click()
    page.locator("ul.matches a.big-link").last.click()
    page.emulate_media(media="print")
    expect(page.locator("table.sheet")).to_be_visible()
    for hidden in ("header.top", ".actions", ".share", ".entries", "footer.bottom"):
        expect(page.locator(hidden).first).to_be_hidden()
    page.emulate_media(media="screen")
    expect(page.locator(".share")).to_be_visible()
