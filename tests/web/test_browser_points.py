"""A quick round with a hand given as points, in a real browser on a 360 x 740 phone screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, create_table, english, expect_totals, start_match, tap

pytestmark = pytest.mark.browser


def test_a_quick_round_with_points_and_tapped_cards_at_360_px(page: Page):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "remi", ["Budi", "Siti", "Andi"], target="200")
    page.get_by_role("link", name="Quick round (final table)").click()
    page.locator("input[name=ending][value=out]").check()
    page.locator("input[name=player][value=Budi]").check()
    # Siti's cards tapped on the picker, Andi says "I have 24"
    page.locator("[name=hand_1]").click()
    for code in ("KH", "2C"):
        tap(page, code)
    expect(page.locator("[name=hand_1]")).to_have_value("KH 2C")
    page.locator("[name=hand_2]").fill("24")
    expect(page.locator(".points-hint")).to_contain_text("like 24")
    page.get_by_role("button", name="Check").click()
    preview = page.locator(".preview")
    expect(preview).to_contain_text("Budi went out and takes the 36 points")  # 10 + 2 + 24
    expect(preview).to_contain_text("Andi's hand was given as 24 points, not as cards")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing runs off
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "quick-round-points-360.png"), full_page=True)

    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["36", "0", "0"])
    expect(page.locator("table.sheet")).to_contain_text("hands as points, not checked")
    page.get_by_role("link", name="view").first.click()
    expect(page.locator("main")).to_contain_text("Andi: 24 points")
    page.screenshot(path=str(ARTIFACTS / "round-points-360.png"), full_page=True)
