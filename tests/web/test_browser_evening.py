"""An evening at the table, in a real browser: taps that do what a player expects."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import create_table, english, save_turn, start_match, tap

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("focused", ["melds", "layoffs", "took_discard", "discard"])
def test_a_layoff_by_tapping_works_whatever_field_has_the_focus(page: Page, focused: str):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "remi", ["Budi", "Siti", "Andi"], target="200")
    page.get_by_role("link", name="Play a round live").click()
    page.locator("textarea[name=melds]").fill("7S 8S 9S")
    save_turn(page, "Siti")
    expect(page.locator("#meld-1 .owner")).to_have_text("Siti")

    page.locator("details summary", has_text="Discard pile").click()
    field = page.locator(f"[name={focused}]")
    field.click()
    tap(page, "10S")
    page.locator("#meld-1").click()
    expect(page.locator("textarea[name=layoffs]")).to_have_value("10S > 1")
    expect(field if focused != "layoffs" else page.locator("textarea[name=melds]")).to_have_value(
        ""
    )
    save_turn(page, "Andi")
    expect(page.locator("#meld-1 .by")).to_have_text("Andi")
