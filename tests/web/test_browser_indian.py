"""An Indian rummy pool of three in a real browser, on two phones (two browser contexts):
a drop and a capped count, a wrong show that puts Budi out, and Budi's rejoin tapped on
the second phone.  The points are those of tests/web/test_indian_deals.py (derived there
from RULES.md): after deal 1 Budi 80, Siti 0, Andi 40; after deal 2 Budi 160 (out),
Siti 15, Andi 40; Budi rejoins at 40 + 1 = 41; deal 3 (Budi counts 10, Andi 5): 51, 15, 45.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import create_table, english, expect_totals, start_match
from .test_indian_deals import BUDI_LOSES

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}}


def test_a_pool_through_an_elimination_and_a_rejoin_on_two_phones(
    page: Page, browser: Browser, base_url: str
):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "indian", ["Budi", "Siti", "Andi"])
    scoreboard = page.url

    page.get_by_role("link", name="Enter deal 1").click()
    page.locator("input[name=cut]").fill("7D")
    # "Who showed?" is a group of name chips named by its question, chosen by keyboard
    who = page.get_by_role("group", name="Who showed?")
    expect(who.get_by_role("radio")).to_have_count(3)
    who.get_by_role("radio", name="Budi").focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    expect(who.get_by_role("radio", name="Siti")).to_be_checked()
    page.locator("input[name=hand_0]").fill(BUDI_LOSES)
    page.locator("select[name=fate_2]").select_option("middle")
    page.get_by_role("button", name="Save deal").click()
    expect_totals(page, ["80", "0", "40"])

    page.get_by_role("link", name="Enter deal 2").click()
    page.locator("input[name=cut]").fill("3C")
    page.locator("input[name=player][value=Andi]").check()
    page.locator("select[name=fate_0]").select_option("wrong")
    page.locator("input[name=hand_1]").fill("15")
    page.get_by_role("button", name="Save deal").click()
    expect_totals(page, ["160", "15", "40"])
    expect(page.locator(".totals")).to_contain_text("out of the pool")

    context = browser.new_context(base_url=base_url, **PHONE)
    try:
        other = context.new_page()
        english(other)
        other.goto(scoreboard)
        rejoin = other.get_by_role("link", name="Rejoin at 41")
        expect(rejoin).to_be_visible()
        rejoin.click()
        expect(other.locator("input[name=rejoin_0]")).to_be_checked()
        other.locator("input[name=cut]").fill("4S")
        other.locator("input[name=player][value=Siti]").check()
        other.locator("input[name=hand_0]").fill("10")
        other.locator("input[name=hand_2]").fill("5")
        other.get_by_role("button", name="Save deal").click()
        expect_totals(other, ["51", "15", "45"])
    finally:
        context.close()
    page.reload()
    expect_totals(page, ["51", "15", "45"])
    expect(page.locator(".totals")).not_to_contain_text("out of the pool")
