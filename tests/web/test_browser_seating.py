"""A late player joins between rounds, in a real browser on a 360 x 740 phone screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, create_table, english, expect_totals

pytestmark = pytest.mark.browser


def test_a_late_player_joins_and_the_deal_follows_at_360_px(page: Page):
    english(page)
    create_table(page, "Budi, Siti, Andi, Dewi")
    page.get_by_role("link", name="New match").click()
    page.locator("a[href$='/new/remi']").click()
    for seat, name in enumerate(["Budi", "Siti", "Andi", ""]):  # Dewi comes later
        page.locator(f"select[name=seat_{seat}]").select_option(name)
    page.locator("select[name=first_dealer]").select_option("Budi")
    page.locator("input[name=target][value='200']").check()
    page.get_by_role("button", name="Start the match").click()
    # Round 1, dealt by Budi: Siti goes out; Budi holds 10H QS (20) and Andi 2C (2): Siti 22.
    page.get_by_role("link", name="Quick round (final table)").click()
    page.locator("input[name=ending][value=out]").check()
    page.locator("input[name=player][value=Siti]").check()
    page.locator("[name=hand_0]").fill("10H QS")
    page.locator("[name=hand_2]").fill("2C")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["0", "22", "0"])

    page.get_by_role("link", name="Add a player or a player leaves").click()
    expect(page.locator("h1")).to_have_text("Players join or leave")
    page.get_by_label("Player of this table").select_option("Dewi")
    page.get_by_label("Sits at the left of").select_option("Andi")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "seating-360.png"), full_page=True)
    page.get_by_role("button", name="Add to the table").click()

    # Dewi starts with the lowest total of those seated (Budi and Andi: 0); Budi dealt
    # round 1, so the deal moves on clockwise to Siti.
    expect(page.locator("main")).to_contain_text(
        "Dewi joins from round 2 with 0 points; Siti deals."
    )
    expect_totals(page, ["0", "22", "0", "0"])
    expect(page.locator(".next-dealer").first).to_contain_text("Siti")
    expect(page.locator("main")).to_contain_text("Dewi joins (starts at 0)")
    page.screenshot(path=str(ARTIFACTS / "seating-joined-360.png"), full_page=True)
