"""500 Rum and Contract Rummy in a real browser, each on two phones (two browser contexts):
a 500 Rum final table entered with the picker and one tap per owner, read on the view link;
a Contract Rummy buy tapped on a second phone while the first follows the live round."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import create_table, english, expect_totals, start_match, tap
from .test_browser_together import LIVE_WITHIN_MS

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}}


def second_phone(browser: Browser, base_url: str, path: str) -> tuple[object, Page]:
    context = browser.new_context(base_url=base_url, **PHONE)
    other = context.new_page()
    english(other)
    other.goto(path)
    return context, other


def test_a_rummy500_final_table_by_taps_read_on_a_second_phone(
    page: Page, browser: Browser, base_url: str
):
    english(page)
    create_table(page, "Budi, Siti")
    view_link = urlsplit(page.locator("input[value*='/v/']").first.input_value()).path
    start_match(page, "rummy500", ["Budi", "Siti"])
    match_path = page.url.split("/m/", 1)[1]
    page.get_by_role("link", name="Quick round (final table)").click()

    page.locator("input[name=ending][value=out]").check()
    page.locator("input[name=player][value=Budi]").check()
    # Meld 1: Budi's 7S 8S 9S tapped on the picker; meld 2: Siti's KH KD KC.
    page.locator("input[name=table_by_0][value=Budi]").check()
    page.locator("input[name=table_cards_0]").click()
    for code in ("7S", "8S", "9S"):
        tap(page, code)
    expect(page.locator("input[name=table_cards_0]")).to_have_value("7S 8S 9S")
    page.locator("input[name=table_by_1][value=Siti]").check()
    page.locator("input[name=table_cards_1]").fill("KH KD KC")
    # Siti laid 10S off on meld 1 and holds AS 5D.
    page.locator("input[name=layoff_by_0][value=Siti]").check()
    page.locator("input[name=layoff_cards_0]").fill("10S")
    page.locator("select[name=layoff_onto_0]").select_option("1")
    page.locator("input[name=hand_1]").fill("AS 5D")
    page.get_by_role("button", name="Save round").click()
    # Budi 7 + 8 + 9 = 24 on the table, nothing in hand; Siti 30 + 10 = 40 - (15 + 5) = 20.
    expect_totals(page, ["24", "20"])

    context, other = second_phone(browser, base_url, view_link.rstrip("/") + "/m/" + match_path)
    try:
        expect(other.locator(".totals")).to_be_visible()
        expect(other.locator("small.split[data-player=Budi]")).to_have_text("table +24, hand 0")
        expect(other.locator("small.split[data-player=Siti]")).to_have_text(
            "table +40, hand \u221220"
        )
    finally:
        context.close()  # type: ignore[attr-defined]


def test_a_contract_buy_tapped_on_a_second_phone(page: Page, browser: Browser, base_url: str):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "contract", ["Budi", "Siti", "Andi"])
    expect(page.locator(".next-contract")).to_have_text("Next: Deal 1: two sets")
    page.get_by_role("link", name="Play a round live").click()
    expect(page.locator("p.contract")).to_have_text("Deal 1: two sets")
    # Siti (after the dealer Budi) discards 7H.
    page.locator("select[name=player]").select_option("Siti")
    page.locator("summary", has_text="Discard pile").click()
    page.locator("input[name=discard]").fill("7H")
    page.get_by_role("button", name="Save turn").click()
    expect(page.locator("#live-turns")).to_contain_text("Siti")

    context, other = second_phone(browser, base_url, urlsplit(page.url).path)
    try:
        # Andi refuses the 7H; Budi buys it: one tap on his name (the card is filled in).
        expect(other.locator("input[name=bought]")).to_have_value("7H")
        other.locator("select[name=player]").select_option("Andi")
        other.locator("input[name=buyer][value=Budi]").check()
        other.locator("summary", has_text="Discard pile").click()
        other.locator("input[name=discard]").fill("3D")
        other.get_by_role("button", name="Save turn").click()
        # 10 dealt, + the card bought + a penalty card = 12 (RULES.md)
        expect(other.locator("#live-head")).to_contain_text("Budi holds 12")
    finally:
        context.close()  # type: ignore[attr-defined]
    # The first phone follows the round: its page brings the buy in without a reload.
    expect(page.locator("#live-head")).to_contain_text(
        "Buys left: Budi 2, Siti 3, Andi 3", timeout=LIVE_WITHIN_MS
    )
