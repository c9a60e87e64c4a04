"""A table's own house rules in a real browser: saved on one phone, used to start a match,
and shown to a second phone (a second browser context) on the scoreboard."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import create_table, english

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}}


def test_a_tables_house_rules_start_a_match_that_a_second_phone_sees(
    page: Page, browser: Browser, base_url: str
):
    english(page)
    create_table(page, "Budi, Siti")
    # The view link's path (the link itself may name the host's network address).
    view_link = urlsplit(page.locator("input[value*='/v/']").first.input_value()).path
    page.locator("#house-rules a[href$='/house-rules/new/gin']").click()
    page.get_by_label("Name of these house rules").fill("Oma")
    page.locator("input[name=gin_bonus]").fill("20")
    page.locator("input[name=undercut_bonus]").fill("10")
    page.get_by_role("button", name="Save the house rules").click()
    expect(page.locator("#house-rules")).to_contain_text("Gin pays 20; An undercut pays 10")

    page.locator("#house-rules").get_by_role("link", name="Start a match").click()
    expect(page.locator("input[name=gin_bonus]")).to_have_value("20")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".totals")).to_be_visible()
    match_path = page.url.split("/m/", 1)[1]

    context = browser.new_context(base_url=base_url, **PHONE)
    try:
        other = context.new_page()
        english(other)
        other.goto(
            view_link.rstrip("/") + "/m/" + match_path
        )  # the view link, as a QR code gives it
        expect(other.locator(".totals")).to_be_visible()
        card = other.locator(".house-rules-card")
        expect(card).to_contain_text("House rules")
        expect(card).to_contain_text("Gin pays 20")
        expect(card).to_contain_text("An undercut pays 10")
    finally:
        context.close()


def test_the_oklahoma_preset_starts_a_match_played_to_150(page: Page):
    # RULES.md (gin): with oklahoma the default target is 150.
    english(page)
    table = create_table(page, "Budi, Siti")
    page.goto(table + "new/gin")
    page.get_by_role("button", name="Oklahoma", exact=True).click()
    expect(page.locator("input[name=oklahoma]")).to_be_checked()
    expect(page.locator("input[name=custom_target]")).to_have_value("150")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".totals")).to_be_visible()
    expect(page.locator("body")).to_contain_text("150")  # the target the match is played to


def test_choosing_hollywood_shows_its_bonuses_and_keeps_one_set_back_to_gins(page: Page):
    # RULES.md (gin, option scoring): with Hollywood the game bonus is 100, the box bonus 20
    # and a shutout doubles; gin's plain bonuses are 0, 0 and no shutout.
    english(page)
    table = create_table(page, "Budi, Siti")
    page.goto(table + "new/gin")
    box, game = page.locator("input[name=box_bonus]"), page.locator("input[name=game_bonus]")
    page.get_by_text("More house rules").click()
    expect(box).to_have_value("0")
    page.locator("select[name=scoring]").select_option("hollywood")
    expect(box).to_have_value("20")
    expect(game).to_have_value("100")
    expect(page.locator("input[name=shutout]")).to_be_checked()
    box.fill("0")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".totals")).to_be_visible()
    exported = page.request.get(page.url.split("#")[0] + "export").json()
    assert exported["options"] == {"scoring": "hollywood", "target": 100, "box_bonus": 0}
