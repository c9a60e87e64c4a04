"""Correcting an earlier live turn in a real browser, and what a phone at 360x740 shows of
the audit trail, the statistics and every action's touch target."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, create_table, english, save_turn, start_match, tap

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
# Every action a player taps: buttons, links styled as buttons, the score sheet's round links,
# the rounds as entered, and the "correct" links of the turns.
ACTIONS = """() => Array.from(document.querySelectorAll(
    "main button, main .button, main .row-actions a, main .entry summary, .top a, .top button"))
  .filter(el => el.offsetParent !== null)
  .map(el => [el.textContent.trim().replace(/\\s+/g, " "), el.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44)
  .map(([name, r]) => name + " " + Math.round(r.width) + "x" + Math.round(r.height))"""


def small_targets(page: Page) -> list[str]:
    page.wait_for_load_state("load")  # measured with the stylesheet applied
    return page.evaluate(ACTIONS)


def melds_on_table(page: Page) -> list[str]:
    return [
        " ".join(meld.locator(".card[data-code]").evaluate_all("cs => cs.map(c => c.dataset.code)"))
        for meld in page.locator("#on-table .meld").all()
    ]


def test_correct_an_earlier_live_turn_then_see_it_in_the_audit_trail(page: Page):
    page.set_viewport_size(PHONE)
    english(page)
    table = create_table(page, "Budi, Siti, Andi")
    start_match(page, "remi", ["Budi", "Siti", "Andi"], target="200")
    page.get_by_role("link", name="Play a round live").click()
    page.locator("textarea[name=melds]").fill("7S 8S 9S")
    save_turn(page, "Siti")
    page.locator("textarea[name=melds]").fill("4H 4D 4C")
    save_turn(page, "Andi")
    page.locator("textarea[name=melds]").click()
    tap(page, "10S")
    page.locator("#meld-1").click()
    save_turn(page, "Budi")
    expect(page.locator("#meld-1 .by")).to_have_text("Budi")
    assert small_targets(page) == []

    # Siti's run was 6S-9S: open turn 1, add the 6S by tapping, save
    page.get_by_role("link", name="Correct turn 1").click()
    expect(page.locator("h1")).to_contain_text("Round 1, turn 1")
    expect(page.locator("textarea[name=melds]")).to_have_value("7S 8S 9S")
    expect(page.locator("select[name=player]")).to_have_value("Siti")
    expect(page.locator("#on-table")).to_contain_text("Nothing on the table yet.")
    assert page.evaluate("document.activeElement === document.body")  # no keyboard opens
    page.locator("textarea[name=melds]").click()
    tap(page, "6S")
    expect(page.locator("textarea[name=melds]")).to_have_value("7S 8S 9S 6S")
    assert small_targets(page) == []
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Turn 1 corrected.")).to_be_visible()
    assert re.search(r"6S 7S 8S 9S 10S", " ".join(melds_on_table(page)))

    # a set of sevens instead would leave Budi's 10S nowhere: refused, naming turn 3
    page.get_by_role("link", name="Correct turn 1").click()
    page.locator("textarea[name=melds]").fill("7H 7D 7C")
    page.get_by_role("button", name="Save the correction").click()
    refusal = page.locator(".turn-error")
    expect(refusal).to_contain_text("turn 3 (Budi) no longer holds")
    expect(refusal).to_contain_text("Nothing was saved.")
    expect(page.locator("textarea[name=melds]")).to_have_value("7H 7D 7C")
    ARTIFACTS.mkdir(exist_ok=True)
    refusal.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "turn-correction-refused-360.png"))
    page.get_by_role("link", name="Cancel").click()
    assert re.search(r"6S 7S 8S 9S 10S", " ".join(melds_on_table(page)))

    # the round ends; its page keeps the trail of the correction
    page.get_by_role("link", name="End the round").click()
    page.locator("input[name=ending][value=blocked]").check()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("table.sheet")).to_be_visible()
    assert small_targets(page) == []  # the score sheet's round links included
    page.locator("table.sheet .row-actions a", has_text="view").first.click()
    trail = page.locator(".audit-trail")
    expect(trail).to_contain_text("Turn corrected")
    expect(trail).to_contain_text("from the edit link")
    expect(trail).to_contain_text("Turn 1: Siti · meld 7S 8S 9S → Siti · meld 6S 7S 8S 9S")
    assert small_targets(page) == []
    trail.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "audit-trail-360.png"))

    page.goto(table + "stats")
    expect(page.locator("table.stats").first).to_be_visible()
    assert small_targets(page) == []
    page.screenshot(path=str(ARTIFACTS / "statistics-360.png"))
