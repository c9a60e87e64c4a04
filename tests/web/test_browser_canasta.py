"""A Canasta evening in a real browser, three players each a side, on four phones (browser
contexts): a concealed going out, red 3s against a side that melded nothing, and a side's
first-meld minimum rising past 1,500, shown on every phone.

Figures by hand from RULES.md (canasta): joker 50, 2 and A 20, K-8 10, 7-4 5; natural
canasta +500; red 3 +100, minus for a side with no meld; going out +100, concealed +200
instead; hands subtracted; minimums 15 below 0, 50 from 0, 90 from 1500.
Hand 1 (Budi deals): Siti goes out concealed: 8s and 6s natural (70 + 35) and 4 4 2 (30):
135 + 1000 + 200 = 1335.  Budi melded nothing and put down two red 3s: -200, hand AS KS
(30): -230.  Andi: Q Q Q 30, hand 9H 10: 20.  Minimums: Budi 15, Siti 50, Andi 50.
Hand 2 (Siti deals): Siti goes out: Ks natural 70 + J J J 30, 500, out 100: 700.  Budi holds
5C (-5), Andi 7C (-5).  Totals Budi -235, Siti 2035, Andi 15: Siti's minimum is 90.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import create_table, english, expect_totals, start_match

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}}
PLAYERS = ["Budi", "Siti", "Andi"]


def test_a_canasta_evening_on_four_phones(page: Page, browser: Browser, base_url: str):
    english(page)
    create_table(page, ", ".join(PLAYERS))
    start_match(page, "canasta", PLAYERS)
    scoreboard = page.url
    minimums = page.locator(".next-from-totals")
    expect(minimums).to_have_text(
        "First meld of the next hand, at least: Budi 50, Siti 50, Andi 50"
    )

    page.get_by_role("link", name="Enter hand 1").click()
    page.locator("input[name=player][value=Siti]").check()
    page.locator("input[name=concealed]").check()
    page.locator("textarea[name=melds_1]").fill(
        "8S 8S 8H 8H 8D 8D 8C\n6S 6S 6H 6H 6D 6D 6C\n4S 4H 2S"
    )
    page.locator("input[name=red_0]").fill("2")
    page.locator("textarea[name=melds_2]").fill("QS QH QD")
    page.locator("input[name=hand_0]").fill("AS KS")
    page.locator("input[name=hand_2]").fill("9H")
    page.get_by_role("button", name="Save hand").click()
    expect_totals(page, ["-230", "1335", "20"])
    expect(minimums).to_have_text(
        "First meld of the next hand, at least: Budi 15, Siti 50, Andi 50"
    )

    phones = [browser.new_context(base_url=base_url, **PHONE) for _ in range(3)]
    try:
        others = []
        for context in phones:
            other = context.new_page()
            english(other)
            other.goto(scoreboard)
            others.append(other)
        second = others[0]
        second.get_by_role("link", name="Enter hand 2").click()
        second.locator("input[name=player][value=Siti]").check()
        second.locator("textarea[name=melds_1]").fill("KS KS KH KH KD KD KC\nJS JH JD")
        second.locator("input[name=hand_0]").fill("5C")
        second.locator("input[name=hand_2]").fill("7C")
        second.get_by_role("button", name="Save hand").click()
        expect_totals(second, ["-235", "2035", "15"])
        page.reload()
        for phone in (page, *others):
            phone.reload()
            expect_totals(phone, ["-235", "2035", "15"])
            expect(phone.locator(".next-from-totals")).to_have_text(
                "First meld of the next hand, at least: Budi 15, Siti 90, Andi 50"
            )
    finally:
        for context in phones:
            context.close()


TEAM_PLAYERS = ["Budi", "Siti", "Andi", "Dewi"]
TEAM_MATCH = {
    "format": "referee-match/1",
    "rules": "canasta",
    "options": {},
    "players": TEAM_PLAYERS,
    "teams": {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]},
    "first_dealer": "Budi",
    "rounds": [],
}


def test_a_team_evening_on_four_phones(page: Page, browser: Browser, base_url: str):
    """Four players in two teams (Kita: Budi and Andi; Mereka: Siti and Dewi), the match
    brought in as a match file with its teams, each partner on a phone of their own.

    Hand 1 (Budi deals), on Budi's phone: Siti goes out concealed for Mereka: 8s and 6s
    natural (70 + 35) and 4 4 2 (30): 135 + 1000 + 200, Dewi holds QC (10): 1325.  Kita
    melded nothing and put down two red 3s: -200, hands AS KS (30) and 9H (10): -240.
    Minimums: Kita 15 (below 0), Mereka 50.
    Hand 2 (Siti deals), on Siti's phone: Dewi goes out: Ks natural 70 + J J J 30, 500, out
    100, Siti holds 5D (5): 695.  Kita: Q Q Q 30, hands 5C and 7C (10): 20.  Totals Kita
    -220, Mereka 2020: Mereka's minimum has risen past 1,500 to 90, on every phone."""
    english(page)
    create_table(page, ", ".join(TEAM_PLAYERS))
    page.get_by_role("link", name="Import a match").click()
    page.get_by_label("…or paste the document").fill(json.dumps(TEAM_MATCH))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Match imported.")).to_be_visible()
    scoreboard = page.url.split("?")[0]
    minimums = page.locator(".next-from-totals")
    expect(minimums).to_have_text("First meld of the next hand, at least: Kita 50, Mereka 50")

    page.get_by_role("link", name="Enter hand 1").click()
    page.locator("input[name=player][value=Siti]").check()
    page.locator("input[name=concealed]").check()
    page.locator("textarea[name=melds_1]").fill(
        "8S 8S 8H 8H 8D 8D 8C\n6S 6S 6H 6H 6D 6D 6C\n4S 4H 2S"
    )
    page.locator("input[name=red_0]").fill("2")
    page.locator("input[name=hand_0]").fill("AS KS")
    page.locator("input[name=hand_2]").fill("9H")
    page.locator("input[name=hand_3]").fill("QC")
    page.get_by_role("button", name="Save hand").click()
    expect_totals(page, ["-240", "1325"])
    expect(minimums).to_have_text("First meld of the next hand, at least: Kita 15, Mereka 50")

    phones = [browser.new_context(base_url=base_url, **PHONE) for _ in range(3)]
    try:
        others = []
        for context in phones:
            other = context.new_page()
            english(other)
            other.goto(scoreboard)
            others.append(other)
        siti = others[0]
        siti.get_by_role("link", name="Enter hand 2").click()
        siti.locator("input[name=player][value=Dewi]").check()
        siti.locator("textarea[name=melds_0]").fill("QS QH QD")
        siti.locator("textarea[name=melds_1]").fill("KS KS KH KH KD KD KC\nJS JH JD")
        siti.locator("input[name=hand_0]").fill("5C")
        siti.locator("input[name=hand_1]").fill("5D")
        siti.locator("input[name=hand_2]").fill("7C")
        siti.get_by_role("button", name="Save hand").click()
        expect_totals(siti, ["-220", "2020"])
        for phone in (page, *others):
            phone.reload()
            expect_totals(phone, ["-220", "2020"])
            expect(phone.locator(".next-from-totals")).to_have_text(
                "First meld of the next hand, at least: Kita 15, Mereka 90"
            )
    finally:
        for context in phones:
            context.close()
