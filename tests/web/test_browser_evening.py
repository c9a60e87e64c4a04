"""An evening at the table, in a real browser: taps that do what a player expects."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, create_table, english, save_turn, start_match, tap

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

    if focused == "took_discard":
        page.locator("details summary", has_text="Took from the discard pile").click()
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


WAKE_LOCK_STUB = """
window.__wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: function (type) {
    window.__wakeLocks.push(type);
    var sentinel = new EventTarget();
    sentinel.release = function () { return Promise.resolve(); };
    return Promise.resolve(sentinel);
  }
}});
"""


def test_live_round_keeps_the_phone_awake_focuses_nothing_and_counts_two_decks(page: Page):
    page.add_init_script(WAKE_LOCK_STUB)
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "manipulation", ["Budi", "Siti", "Andi"])
    page.get_by_role("link", name="Play a round live").click()
    expect(page.locator("html")).to_have_attribute("data-awake", "")
    assert page.evaluate("window.__wakeLocks") == ["screen"]
    # nothing has the focus: the phone keyboard does not open over the card picker
    assert page.evaluate("document.activeElement === document.body")
    page.locator("[name=played]").fill("7S 8S 9S")
    page.locator("[name=table]").fill("7S 8S 9S")
    save_turn(page, "Siti")
    key = "form:has([name=played]) .picker .pick[data-code='{}']".format
    expect(page.locator(key("7S"))).not_to_have_class(re.compile("used"))
    page.locator("[name=played]").click()
    page.locator(key("7S")).click()  # the second copy: now both are used
    expect(page.locator(key("7S"))).to_have_class(re.compile("used"))
    expect(page.locator(key("8S"))).not_to_have_class(re.compile("used"))


def test_every_action_is_a_44_px_target_and_statistics_fit_360_px(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.add_init_script(WAKE_LOCK_STUB)
    english(page)
    table = create_table(page, "Budimanto Hartono, Siti, Andi")
    start_match(page, "remi", ["Budimanto Hartono", "Siti", "Andi"], target="200")
    page.get_by_role("link", name="Quick round (final table)").click()
    page.locator("input[name=ending][value=out]").check()
    page.locator("input[name=player][value=Siti]").check()
    page.locator("[name=hand_0]").fill("KH 2C")
    page.locator("[name=hand_2]").fill("AS")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".total-points")).to_have_text(["0", "13", "0"])
    expect(page.locator("html")).to_have_attribute("data-awake", "")
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll(
             "main button, main .button, main .row-actions a, .top a, .top button"))
           .filter(el => el.offsetParent !== null)
           .map(el => [el.textContent.trim(), el.getBoundingClientRect()])
           .filter(([, r]) => r.height < 44 || r.width < 44)
           .map(([name, r]) => name + " " + Math.round(r.width) + "x" + Math.round(r.height))"""
    )
    assert small == []
    page.goto(table + "stats")
    first = page.locator("table.stats th[scope=row]").first
    expect(first).to_be_visible()
    clipped = page.evaluate(
        """() => Array.from(document.querySelectorAll("table.stats td"))
           .filter(td => td.scrollWidth > td.clientWidth + 1).length"""
    )
    assert clipped == 0
    x_before = first.bounding_box()["x"]
    page.locator(".stats-group .scroll").first.evaluate("box => { box.scrollLeft = 400; }")
    assert page.locator(".stats-group .scroll").first.evaluate("box => box.scrollLeft") > 0
    assert abs(first.bounding_box()["x"] - x_before) < 1  # the names stay in sight
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".stats-group .scroll").first.evaluate("box => { box.scrollLeft = 0; }")
    page.screenshot(path=str(ARTIFACTS / "evening-statistics-360.png"), full_page=True)
